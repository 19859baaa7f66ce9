// Package booking is how clients book: the free times of a day and the
// bookable days of a month for (professional, service), and creating an
// appointment that can never overlap another of the same professional — the
// slot is recomputed inside the transaction that inserts it, serialised per
// professional on both databases.
package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking/slots"
	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/profiles"
)

var (
	errProfile       = httpx.NewError(http.StatusNotFound, "profile_not_found", "Perfil não encontrado")
	errClosed        = httpx.NewError(http.StatusForbidden, "booking_closed", "Este profissional não está aceitando agendamentos online no momento. Entre em contato diretamente para agendar.")
	errChoice        = httpx.Validation("Profissional ou serviço indisponível. Recarregue a página e escolha novamente.")
	errDateTime      = httpx.Validation("Data ou horário inválido.")
	errRequired      = httpx.Validation("Por favor, preencha todos os campos obrigatórios.")
	errContact       = httpx.Validation("Informe um telefone ou e-mail para contato.")
	errPhone         = httpx.Validation("Informe um telefone válido, com DDD.")
	errTooLong       = httpx.Validation("O nome deve ter no máximo 120 caracteres e as observações, 1000.")
	errSlotTaken     = httpx.NewError(http.StatusConflict, "slot_unavailable", "Este profissional já possui agendamento neste horário. Por favor, escolha outro horário.")
	errTimePast      = httpx.NewError(http.StatusConflict, "slot_past", "Este horário já passou. Escolha outro horário.")
	errDayClosed     = httpx.NewError(http.StatusConflict, "day_closed", "O profissional não atende neste dia. Escolha outra data.")
	errOffHours      = httpx.NewError(http.StatusConflict, "slot_outside_hours", "Horário fora do expediente ou inválido. Escolha um dos horários disponíveis.")
	errMonth         = httpx.Validation("Mês inválido.")
	statusesThatHold = `('confirmed', 'completed')`
)

func errBeyond(days int) *httpx.Error {
	return httpx.NewError(http.StatusConflict, "date_beyond_window", fmt.Sprintf("Escolha uma data dentro dos próximos %d dias.", days))
}

func errTooShort(minutes int) *httpx.Error {
	return httpx.NewError(http.StatusConflict, "slot_too_short",
		fmt.Sprintf("O horário selecionado não tem %d minutos disponíveis. Por favor, escolha outro.", minutes))
}

// Service computes times and books.
type Service struct {
	DB      *db.DB
	Clock   clock.Clock
	Mailer  *mail.Mailer // nil: no e-mail (tests of the rules alone)
	Queue   *jobs.Queue
	Notes   *notifications.Service
	BaseURL string
	// ReminderLead is how long before an appointment the client is reminded
	// (0: DefaultReminderLead).
	ReminderLead time.Duration
	// WindowDays is how many days ahead of the owner's today clients may
	// book (0: DefaultWindowDays).
	WindowDays int
}

// DefaultWindowDays is the booking window: the last bookable date is the
// owner's today plus this many days. Besides sparing owners bookings for a
// distant year, it keeps every stored instant far inside what both
// databases read back (9999-12-31 23:00 in São Paulo is year 10000 in UTC).
const DefaultWindowDays = 365

func (s *Service) windowDays() int {
	if s.WindowDays > 0 {
		return s.WindowDays
	}
	return DefaultWindowDays
}

// lastDay is the owner's last bookable date ("2006-01-02").
func (s *Service) lastDay(o *owner) string {
	now := s.Clock.Now().In(o.Loc)
	return time.Date(now.Year(), now.Month(), now.Day()+s.windowDays(), 12, 0, 0, 0, time.UTC).Format("2006-01-02")
}

type owner struct {
	ID       string
	Name     string
	Email    string
	Loc      *time.Location
	TrialEnd sql.NullTime
}

func (s *Service) owner(ctx context.Context, q db.Querier, username string) (*owner, error) {
	var o owner
	var zone string
	err := q.QueryRowContext(ctx, `SELECT p.id, p.name, u.email, p.time_zone, p.trial_ends_at FROM profiles p JOIN users u ON u.id = p.id WHERE p.public_username = ?`,
		profiles.NormalizeUsername(username)).Scan(&o.ID, &o.Name, &o.Email, &zone, &o.TrialEnd)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errProfile
	}
	if err != nil {
		return nil, err
	}
	o.Loc = tz.Load(zone)
	return &o, nil
}

// open reports whether the owner takes online bookings now (profiles.Open), on q.
func (s *Service) open(ctx context.Context, q db.Querier, o *owner) (bool, error) {
	var trialEnd *time.Time
	if o.TrialEnd.Valid {
		trialEnd = &o.TrialEnd.Time
	}
	return profiles.Open(ctx, q, o.ID, trialEnd, s.Clock.Now())
}

type choice struct {
	ProfessionalName string
	ServiceName      string
	Duration         int
	PriceCents       int64
}

// choose checks that the professional and service are the owner's, active,
// and linked (when the service names its professionals).
func (s *Service) choose(ctx context.Context, q db.Querier, ownerID, professionalID, serviceID string) (*choice, error) {
	var c choice
	err := q.QueryRowContext(ctx, `SELECT name, duration, price_cents FROM services WHERE id = ? AND user_id = ? AND active = TRUE`,
		serviceID, ownerID).Scan(&c.ServiceName, &c.Duration, &c.PriceCents)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errChoice
	}
	if err != nil {
		return nil, err
	}
	err = q.QueryRowContext(ctx, `SELECT name FROM professionals WHERE id = ? AND user_id = ? AND active = TRUE`, professionalID, ownerID).Scan(&c.ProfessionalName)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errChoice
	}
	if err != nil {
		return nil, err
	}
	var links, linked int
	err = q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN professional_id = ? THEN 1 ELSE 0 END), 0) FROM service_professionals WHERE service_id = ?`,
		professionalID, serviceID).Scan(&links, &linked)
	if err != nil {
		return nil, err
	}
	if links > 0 && linked == 0 {
		return nil, errChoice
	}
	return &c, nil
}

// window returns the owner's opening hours of each weekday (closed: zero).
func window(ctx context.Context, q db.Querier, ownerID string) ([7][2]int, error) {
	var w [7][2]int
	rows, err := q.QueryContext(ctx, `SELECT day_of_week, start_time, end_time FROM availability WHERE user_id = ? AND active = TRUE`, ownerID)
	if err != nil {
		return w, err
	}
	defer rows.Close()
	for rows.Next() {
		var d int
		var start, end string
		if err := rows.Scan(&d, &start, &end); err != nil {
			return w, err
		}
		a, err1 := slots.ParseHHMM(start)
		b, err2 := slots.ParseHHMM(end)
		if d >= 0 && d <= 6 && err1 == nil && err2 == nil {
			w[d] = [2]int{a, b}
		}
	}
	return w, rows.Err()
}

// Holds reports whether an appointment of that status holds its time (only
// those count as busy in the slots).
func Holds(status string) bool { return status == "confirmed" || status == "completed" }

// busy returns the professional's holding appointments between two dates
// (inclusive), by date, leaving out the appointment except (none when "").
func busy(ctx context.Context, q db.Querier, professionalID, from, to, except string) (map[string][]slots.Busy, error) {
	rows, err := q.QueryContext(ctx, `SELECT appointment_date, appointment_time, duration FROM appointments
		WHERE professional_id = ? AND appointment_date >= ? AND appointment_date <= ? AND id <> ? AND status IN `+statusesThatHold, professionalID, from, to, except)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]slots.Busy{}
	for rows.Next() {
		var date, at string
		var dur int
		if err := rows.Scan(&date, &at, &dur); err != nil {
			return nil, err
		}
		if m, err := slots.ParseHHMM(at); err == nil {
			out[date] = append(out[date], slots.Busy{Start: m, Duration: dur})
		}
	}
	return out, rows.Err()
}

// dayOf builds the slot rules of one date; ok is false for past dates and
// dates beyond the booking window.
func (s *Service) dayOf(o *owner, w [7][2]int, date time.Time, duration int, busy []slots.Busy) (slots.Day, bool) {
	today, nowMin := slots.Today(s.Clock.Now(), o.Loc)
	ds := date.Format("2006-01-02")
	if ds < today || ds > s.lastDay(o) {
		return slots.Day{}, false
	}
	win := w[int(date.Weekday())]
	d := slots.Day{Open: win[0], Close: win[1], Duration: duration, Busy: busy}
	if ds == today {
		d.NotBefore = nowMin
	}
	return d, true
}

func parseDate(s string) (time.Time, error) {
	t, err := slots.ParseDate(s)
	if err != nil {
		return t, errDateTime
	}
	return t, nil
}

// prepared is what both the times of a day and the days of a month need.
type prepared struct {
	owner  *owner
	choice *choice
	window [7][2]int
}

func (s *Service) prepare(ctx context.Context, username, professionalID, serviceID string) (*prepared, error) {
	o, err := s.owner(ctx, s.DB, username)
	if err != nil {
		return nil, err
	}
	c, err := s.choose(ctx, s.DB, o.ID, professionalID, serviceID)
	if err != nil {
		return nil, err
	}
	w, err := window(ctx, s.DB, o.ID)
	if err != nil {
		return nil, err
	}
	return &prepared{owner: o, choice: c, window: w}, nil
}

// Times returns the free start times ("HH:MM") of a date.
func (s *Service) Times(ctx context.Context, username, professionalID, serviceID, date string) ([]string, error) {
	day, err := parseDate(date)
	if err != nil {
		return nil, err
	}
	p, err := s.prepare(ctx, username, professionalID, serviceID)
	if err != nil {
		return nil, err
	}
	b, err := busy(ctx, s.DB, professionalID, date, date, "")
	if err != nil {
		return nil, err
	}
	out := []string{}
	if d, ok := s.dayOf(p.owner, p.window, day, p.choice.Duration, b[date]); ok {
		for _, m := range slots.Free(d) {
			out = append(out, slots.FormatHHMM(m))
		}
	}
	return out, nil
}

// Days returns the dates of a month ("2006-01") that have at least one free time.
func (s *Service) Days(ctx context.Context, username, professionalID, serviceID, month string) ([]string, error) {
	first, err := slots.ParseMonth(month)
	if err != nil {
		return nil, errMonth
	}
	p, err := s.prepare(ctx, username, professionalID, serviceID)
	if err != nil {
		return nil, err
	}
	last := first.AddDate(0, 1, -1)
	if horizon, _ := time.Parse("2006-01-02", s.lastDay(p.owner)); last.After(horizon) {
		last = horizon // days beyond the booking window offer nothing
	}
	out := []string{}
	if last.Before(first) {
		return out, nil
	}
	b, err := busy(ctx, s.DB, professionalID, first.Format("2006-01-02"), last.Format("2006-01-02"), "")
	if err != nil {
		return nil, err
	}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		ds := d.Format("2006-01-02")
		if day, ok := s.dayOf(p.owner, p.window, d, p.choice.Duration, b[ds]); ok && len(slots.Free(day)) > 0 {
			out = append(out, ds)
		}
	}
	return out, nil
}

// Input is a client's booking.
type Input struct {
	ProfessionalID string `json:"professionalId"`
	ServiceID      string `json:"serviceId"`
	Date           string `json:"date"`
	Time           string `json:"time"`
	ClientName     string `json:"clientName"`
	ClientEmail    string `json:"clientEmail"`
	ClientPhone    string `json:"clientPhone"`
	Notes          string `json:"notes"`
}

// Booked is what the confirmation card shows.
type Booked struct {
	ID               string `json:"id"`
	Date             string `json:"date"`
	Time             string `json:"time"`
	ProfessionalName string `json:"professionalName"`
	ServiceName      string `json:"serviceName"`
	Duration         int    `json:"duration"`
	PriceCents       int64  `json:"priceCents"`
	// CancelToken is for the confirmation e-mail's private link; never sent to the page.
	CancelToken string `json:"-"`
}

func validate(in *Input) error {
	in.ClientName = strings.Join(strings.Fields(in.ClientName), " ")
	in.ClientEmail = strings.TrimSpace(in.ClientEmail)
	in.Notes = strings.TrimSpace(in.Notes)
	if in.ProfessionalID == "" || in.ServiceID == "" || in.Date == "" || in.Time == "" || in.ClientName == "" {
		return errRequired
	}
	if utf8.RuneCountInString(in.ClientName) > 120 || utf8.RuneCountInString(in.Notes) > 1000 {
		return errTooLong
	}
	if in.ClientEmail != "" {
		e, err := auth.NormalizeEmail(in.ClientEmail)
		if err != nil {
			return err
		}
		in.ClientEmail = e
	}
	if strings.TrimSpace(in.ClientPhone) != "" {
		p, ok := NormalizePhone(in.ClientPhone)
		if !ok {
			return errPhone
		}
		in.ClientPhone = p
	} else {
		in.ClientPhone = ""
	}
	if in.ClientEmail == "" && in.ClientPhone == "" {
		return errContact
	}
	return nil
}

// NormalizePhone keeps a Brazilian phone's digits: DDD + 8 or 9 digits, with
// or without the country code 55.
func NormalizePhone(raw string) (string, bool) {
	var b strings.Builder
	for _, r := range raw {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case strings.ContainsRune(" ()-.+", r):
		default:
			return "", false
		}
	}
	d := b.String()
	if (len(d) == 12 || len(d) == 13) && strings.HasPrefix(d, "55") {
		d = d[2:]
	}
	if len(d) != 10 && len(d) != 11 || d[0] == '0' {
		return "", false
	}
	return d, true
}

// Book creates a confirmed appointment if, inside the transaction, the slot
// is still free. It holds the time through Hold, so writers for one
// professional are serialised (SQLite: the single writer; PostgreSQL: a row
// lock on the professional) and of any number of racing requests for a slot
// exactly one wins.
//
// A refusal says what is wrong, checked in this order: a time already past,
// a date beyond the booking window, a closed weekday, a time outside the
// opening hours or off the 30-minute grid, and only then the spec's
// 'slot_unavailable' (another appointment at that time) or 'slot_too_short'.
func (s *Service) Book(ctx context.Context, username string, in Input) (*Booked, error) {
	if err := validate(&in); err != nil {
		return nil, err
	}
	day, err := parseDate(in.Date)
	if err != nil {
		return nil, err
	}
	start, err := slots.ParseHHMM(in.Time)
	if err != nil {
		return nil, errDateTime
	}
	var out *Booked
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		o, err := s.owner(ctx, tx, username)
		if err != nil {
			return err
		}
		if open, err := s.open(ctx, tx, o); err != nil {
			return err
		} else if !open {
			return errClosed
		}
		c, err := s.choose(ctx, tx, o.ID, in.ProfessionalID, in.ServiceID)
		if err != nil {
			return err
		}
		w, err := window(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		d, err := s.bookable(o, w, day, start, c.Duration)
		if err != nil {
			return err
		}
		claim := Claim{OwnerID: o.ID, ProfessionalID: in.ProfessionalID, Date: in.Date, Start: start, Duration: c.Duration}
		fit := func(busy []slots.Busy) error {
			d.Busy = busy
			return refusal(slots.Why(d, start), c.Duration)
		}
		return Hold(ctx, tx, claim, fit, func() error {
			token, hash := auth.OpaqueToken()
			local := time.Date(day.Year(), day.Month(), day.Day(), start/60, start%60, 0, 0, o.Loc)
			now := s.Clock.Now()
			out = &Booked{ID: uuid.NewString(), Date: in.Date, Time: slots.FormatHHMM(start), ProfessionalName: c.ProfessionalName,
				ServiceName: c.ServiceName, Duration: c.Duration, PriceCents: c.PriceCents, CancelToken: token}
			if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents,
			client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, search_key, client_key, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?)`,
				out.ID, o.ID, in.ProfessionalID, in.ServiceID, c.ProfessionalName, c.ServiceName, c.Duration, c.PriceCents,
				in.ClientName, in.ClientEmail, in.ClientPhone, in.Notes, in.Date, out.Time, local.UTC(), hash, SearchKey(in.ClientName, in.ClientEmail), ClientKey(in.ClientPhone, in.ClientEmail), now, now); err != nil {
				return err
			}
			return s.afterBooking(ctx, tx, booked{Booked: out, ClientName: in.ClientName, ClientEmail: in.ClientEmail, ClientPhone: in.ClientPhone,
				OwnerID: o.ID, OwnerName: o.Name, OwnerEmail: o.Email, Start: local})
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// bookable checks the rules of a client's booking that do not depend on
// other appointments (before any lock is taken), and returns the date's slot
// rules (without busy).
func (s *Service) bookable(o *owner, w [7][2]int, date time.Time, start, duration int) (slots.Day, error) {
	d, ok := s.dayOf(o, w, date, duration, nil)
	if !ok {
		if date.Format("2006-01-02") > s.lastDay(o) {
			return slots.Day{}, errBeyond(s.windowDays())
		}
		return slots.Day{}, errTimePast
	}
	return d, refusal(slots.Why(d, start), duration)
}

// refusal is the answer to a start time that the slot engine does not offer.
func refusal(why slots.Reason, duration int) error {
	switch why {
	case slots.Offered:
		return nil
	case slots.Past:
		return errTimePast
	case slots.Closed:
		return errDayClosed
	case slots.OffHours:
		return errOffHours
	case slots.Taken:
		return errSlotTaken
	default:
		return errTooShort(duration)
	}
}

// Claim is the time an appointment is to hold: an interval of one
// professional's date, in the owner's zone.
type Claim struct {
	OwnerID        string
	ProfessionalID string // "": the professional was deleted; nothing can collide
	Date           string // YYYY-MM-DD
	Start          int    // minutes from midnight
	Duration       int    // minutes (0: slots.DefaultDuration)
	// Except is the appointment that is to hold the time, when it exists
	// already (a re-confirm, later a move): it never collides with itself.
	Except string
}

// Hold is the one way an appointment comes to hold time: a public booking
// and an owner's re-confirm (later a move, a series, "any professional") all
// call it, and no other code makes an appointment hold time. Inside tx it
// locks the professional's row, which serialises every writer of that
// professional's time (SQLite: the single writer already; PostgreSQL: FOR
// UPDATE, and each later statement of a READ COMMITTED transaction sees what
// the previous holder of the lock committed), reads the date's other holding
// appointments, lets fit decide with them, and runs write.
//
// fit nil asks only that the interval overlaps no other holder (the spec's
// 'slot_unavailable'); a booking passes its full slot rules.
func Hold(ctx context.Context, tx *db.Tx, c Claim, fit func(busy []slots.Busy) error, write func() error) error {
	if fit == nil {
		fit = func(busy []slots.Busy) error {
			if slots.Overlaps(c.Start, c.Duration, busy) {
				return errSlotTaken
			}
			return nil
		}
	}
	var held []slots.Busy
	if c.ProfessionalID != "" {
		var locked string
		if err := tx.QueryRowContext(ctx, `SELECT id FROM professionals WHERE id = ? AND user_id = ?`+tx.LockRow(), c.ProfessionalID, c.OwnerID).Scan(&locked); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errChoice
			}
			return err
		}
		b, err := busy(ctx, tx, c.ProfessionalID, c.Date, c.Date, c.Except)
		if err != nil {
			return err
		}
		held = b[c.Date]
	}
	if err := fit(held); err != nil {
		return err
	}
	return write()
}
