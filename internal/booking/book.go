// Hold and book: a client's booking, checked against the rules and decided
// under the professionals' lock by Hold — the one way any appointment comes
// to hold time.

package booking

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/pix"
	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/profiles"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
	"github.com/google/uuid"
)

func errBeyond(days int) *httpx.Error {
	return httpx.NewError(http.StatusConflict, "date_beyond_window", fmt.Sprintf("Escolha uma data dentro dos próximos %d dias.", days))
}

func errTooSoon(notice int) *httpx.Error {
	return httpx.NewError(http.StatusConflict, "slot_too_soon",
		fmt.Sprintf("Agendamentos online precisam de pelo menos %s de antecedência. Escolha um horário mais tarde.", brfmt.Minutes(notice)))
}

func errTooShort(minutes int) *httpx.Error {
	return httpx.NewError(http.StatusConflict, "slot_too_short",
		fmt.Sprintf("O horário selecionado não tem %d minutos disponíveis. Por favor, escolha outro.", minutes))
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
	// ClientCPF is the payer's CPF for the Receita Saúde's receipts (issue
	// 43 §4): optional, check digits validated, kept as digits; a public
	// booking keeps it only while the owner's receipts are on.
	ClientCPF string `json:"clientCpf"`
}

// Booked is what the confirmation card shows.
type Booked struct {
	ID               string `json:"id"`
	Date             string `json:"date"`
	Time             string `json:"time"`
	ProfessionalName string `json:"professionalName"`
	// ProfessionalID is who was booked (a public booking's answer: the page
	// names them with their council registration from its profile); empty
	// elsewhere.
	ProfessionalID string `json:"professionalId,omitempty"`
	ServiceName    string `json:"serviceName"`
	Duration       int    `json:"duration"`
	// PriceCents is left out of a public booking's answer when the owner
	// hides prices on the public page (hidePrice, issue 43 §3).
	PriceCents int64 `json:"priceCents"`
	hidePrice  bool
	// CancelToken is the client's private token: the confirmation e-mail's
	// cancel link, and the card's invite download (ClientInvite). The page
	// that made the booking gets it; the owner's screens never show it.
	CancelToken string `json:"token"`
	// StartsAt is the instant (UTC), for the confirmation card's calendar
	// file; GoogleCalendarURL opens the event in Google Agenda, ready to save.
	StartsAt          time.Time `json:"startsAt"`
	GoogleCalendarURL string    `json:"googleCalendarUrl"`
	// Place is where it happens: the practice's address, or the video-call
	// link of a service held online (place.Of).
	Place place.Place `json:"place"`
	// Deposit is the deposit the booking waits for ("aguardando sinal");
	// nil when its service asks for none.
	Deposit *DepositView `json:"deposit,omitempty"`
}

// MarshalJSON leaves the price out when the owner hides prices.
func (b Booked) MarshalJSON() ([]byte, error) {
	type plain Booked
	out := struct {
		plain
		PriceCents *int64 `json:"priceCents,omitempty"`
	}{plain: plain(b)}
	if !b.hidePrice {
		out.PriceCents = &b.PriceCents
	}
	return json.Marshal(out)
}

// validateWhen checks a booking's input (validate) and reads its date and
// its minute of the day.
func validateWhen(in *Input) (day time.Time, minute int, err error) {
	if err := validate(in); err != nil {
		return day, 0, err
	}
	if day, err = parseDate(in.Date); err != nil {
		return day, 0, err
	}
	if minute, err = slots.ParseHHMM(in.Time); err != nil {
		return day, 0, errDateTime
	}
	return day, minute, nil
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
	if strings.TrimSpace(in.ClientCPF) != "" {
		d := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, in.ClientCPF)
		if utf8.RuneCountInString(in.ClientCPF) > 20 || !pix.CPF(d) {
			return errCPF
		}
		in.ClientCPF = d
	} else {
		in.ClientCPF = ""
	}
	return nil
}

var errCPF = httpx.Validation("CPF inválido: confira os 11 dígitos.")

// NormalizePhone keeps a Brazilian phone's digits: DDD + 8 or 9 digits, with
// or without the country code 55 — the one phone rule, brfmt.Phone.
func NormalizePhone(raw string) (string, bool) { return brfmt.Phone(raw) }

// Book creates a confirmed appointment if, inside the transaction, the slot
// is still free. It holds the time through Hold, so writers for one
// professional are serialised (SQLite: the single writer; PostgreSQL: row
// locks on the professionals) and of any number of racing requests for a
// slot exactly one wins. With Any, the professional is chosen under those
// locks: of those free at that time, the one with fewest appointments that
// day, ties by name.
//
// A refusal says what is wrong, checked in this order: a time already past,
// one sooner than the practice's notice, a date beyond the booking window, a
// closed day (weekday, day off, holiday), a time outside the working windows
// or off the step, and only then the spec's 'slot_unavailable' (another
// appointment at that time) or 'slot_too_short'.
func (s *Service) Book(ctx context.Context, username string, in Input) (*Booked, error) {
	return s.BookThen(ctx, username, in, nil)
}

// BookThen is Book, with then run inside the booking's transaction after
// the appointment is written (nil: nothing): its error undoes the booking.
// A waitlist claim marks its offer taken there, so a claim and its booking
// stand or fall together.
func (s *Service) BookThen(ctx context.Context, username string, in Input, then func(ctx context.Context, tx *db.Tx, b *Booked) error) (*Booked, error) {
	day, minute, err := validateWhen(&in)
	if err != nil {
		return nil, err
	}
	// The rules come from the owner's setup as of now (kept per data
	// version): what only the lock can settle — other appointments — is read
	// again inside the transaction, so the transaction stays short (on SQLite
	// every booking of every owner queues for it).
	owner, err := s.Owner(ctx, username)
	if err != nil {
		return nil, err
	}
	if in.ClientCPF != "" {
		// Asked only while the owner's receipts are on: otherwise not kept.
		var asked bool
		if err := s.DB.QueryRowContext(ctx, `SELECT receipts_enabled FROM profiles WHERE id = ?`, owner.ID).Scan(&asked); err != nil {
			return nil, err
		}
		if !asked {
			in.ClientCPF = ""
		}
	}
	st, err := s.setup(ctx, owner)
	if err != nil {
		return nil, err
	}
	svc, pros, err := choose(st, in.ProfessionalID, in.ServiceID)
	if err != nil {
		return nil, err
	}
	start := slots.At(day, minute, st.Loc)
	if slots.Clock(start, st.Loc) != in.Time {
		return nil, errOffHours // a time the clocks skip that day
	}
	// The rules that do not depend on other appointments, before any lock.
	if err := s.refuse(st, pros, svc, day, start, nil); err != nil {
		return nil, err
	}
	ownerID := st.OwnerID
	// Read before the transaction (every booking of every owner queues for
	// it on SQLite): an address edited meanwhile is the owner's own race.
	where, err := place.Where(ctx, s.DB, ownerID, svc.ID)
	if err != nil {
		return nil, err
	}
	plan, unreached, err := s.planDeposit(ctx, st, svc, in.ClientEmail)
	if err != nil {
		return nil, err
	}
	var out *Booked
	var dep *deposits.Deposit
	var made booked
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var ownerEmail string
		var hidePrice bool
		if err := tx.QueryRowContext(ctx, `SELECT u.email, p.hide_prices FROM users u JOIN profiles p ON p.id = u.id WHERE u.id = ?`, ownerID).Scan(&ownerEmail, &hidePrice); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errProfile
			}
			return err
		}
		if open, err := profiles.Open(ctx, tx, ownerID, st.TrialEnd, s.Clock.Now()); err != nil {
			return err
		} else if !open {
			return errClosed
		}
		var chosen *schedule.Professional
		lock := Lock{OwnerID: ownerID, Professionals: ids(pros), Date: day, Loc: st.Loc}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			var refused error
			for _, p := range pros {
				if busy[p.ID] == nil {
					continue // deleted since the setup was read: not locked, not bookable
				}
				d, plan := s.dayOf(st, p, svc, day, busy.Near(p.ID, day))
				if err := refusal(slots.Why(d, start), svc.Duration, st.Rules.MinNoticeMinutes, plan); err != nil {
					if refused == nil {
						refused = err
					}
					continue
				}
				if chosen == nil || busy.count(p.ID, day) < busy.count(chosen.ID, day) {
					chosen = p // pros are by name: the first of the fewest wins ties
				}
			}
			if chosen == nil {
				if len(pros) > 1 || refused == nil {
					return errSlotTaken
				}
				return refused
			}
			return nil
		}, func() error {
			token, hash := auth.OpaqueToken()
			local := time.Unix(start*60, 0).In(st.Loc)
			now := s.Clock.Now()
			out = &Booked{ID: uuid.NewString(), Date: in.Date, Time: in.Time, ProfessionalName: chosen.Name, ProfessionalID: chosen.ID,
				ServiceName: svc.Name, Duration: svc.Duration, PriceCents: svc.PriceCents, hidePrice: hidePrice, CancelToken: token, StartsAt: local.UTC(), Place: where}
			out.GoogleCalendarURL = GoogleCalendarURL(fmt.Sprintf("%s com %s", svc.Name, chosen.Name), "Agendado pelo Agendei com "+st.Name+".",
				where.Text(), local, time.Duration(svc.Duration)*time.Minute)
			if err := insertAppointment(ctx, tx, newAppointment{ID: out.ID, OwnerID: ownerID, Pro: chosen, Svc: svc, Client: &in, Remind: plan == nil, AwaitingDeposit: plan != nil,
				Date: in.Date, Time: out.Time, Start: local, TokenHash: hash, At: now}); err != nil {
				return err
			}
			if plan != nil {
				if dep, err = s.openDeposit(ctx, tx, plan, ownerID, out, now); err != nil {
					return err
				}
			}
			made = booked{Booked: out, ClientName: in.ClientName, ClientEmail: in.ClientEmail, ClientPhone: in.ClientPhone,
				OwnerID: ownerID, OwnerName: st.Name, OwnerEmail: ownerEmail, Start: local}
			if err := s.afterBooking(ctx, tx, made); err != nil {
				return err
			}
			if unreached {
				if err := s.tellUnreached(ctx, tx, made); err != nil {
					return err
				}
			}
			if then != nil {
				return then(ctx, tx, out)
			}
			return nil
		})
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errProfile // the account was deleted meanwhile
	}
	if err != nil {
		return nil, err
	}
	if dep != nil {
		s.chargeDeposit(ctx, plan, dep, made)
	}
	return out, nil
}

// refuse checks a chosen start against the rules, with the given busy
// appointments (nil: the rules that do not depend on other appointments):
// nil when at least one of the professionals could take it.
func (s *Service) refuse(st *schedule.Setup, pros []*schedule.Professional, svc *schedule.Service, day time.Time, start int64, busy BusyDays) error {
	if start < slots.NowMinute(s.Clock.Now()) {
		return errTimePast
	}
	if !s.bookable(st, day) {
		if day.Format("2006-01-02") > st.LastDay(s.Clock.Now()) {
			return errBeyond(st.Rules.BookingWindowDays)
		}
		return errTimePast
	}
	var first error
	for _, p := range pros {
		d, plan := s.dayOf(st, p, svc, day, busy.Near(p.ID, day))
		err := refusal(slots.Why(d, start), svc.Duration, st.Rules.MinNoticeMinutes, plan)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// refusal is the answer to a start time that the slot engine does not offer.
func refusal(why slots.Reason, duration, notice int, plan schedule.Plan) error {
	switch why {
	case slots.Offered:
		return nil
	case slots.Past:
		return errTimePast
	case slots.TooSoon:
		return errTooSoon(notice)
	case slots.Closed:
		if plan.Closed == schedule.ClosedDayOff || plan.Closed == schedule.ClosedHoliday {
			return httpx.NewError(http.StatusConflict, "day_closed", fmt.Sprintf("O profissional não atende neste dia (%s). Escolha outra data.", plan.Label))
		}
		return errDayClosed
	case slots.OffHours:
		return errOffHours
	case slots.Taken:
		return errSlotTaken
	default:
		return errTooShort(duration)
	}
}

// newAppointment is a confirmed appointment about to be written: who holds
// it, what it is (the service's shape as of now), the client, and when.
type newAppointment struct {
	ID, OwnerID string
	Pro         *schedule.Professional
	Svc         *schedule.Service
	Client      *Input // name, e-mail, phone and notes, validated
	Date, Time  string // the owner's date and wall-clock time
	Start       time.Time
	TokenHash   string // of the client's private link
	Series      any    // the series' id, or nil for none
	At          time.Time
	// Remind: the client is to be reminded (their reminders are planned
	// now); false for a hold awaiting its deposit and for an owner's
	// appointment made without telling the client.
	Remind bool
	// AwaitingDeposit: a hold until its deposit is paid ("Aguardando
	// sinal"), stored as 'awaiting_deposit' — it holds its time but is not
	// confirmed until ConfirmDeposit.
	AwaitingDeposit bool
}

// insertAppointment is the one INSERT of a new appointment, whoever makes
// it (a client's booking, an owner's appointment, a series' session); the
// caller holds the time (Hold).
func insertAppointment(ctx context.Context, tx *db.Tx, a newAppointment) error {
	c := a.Client
	status := StatusConfirmed
	if a.AwaitingDeposit {
		status = StatusAwaitingDeposit
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents,
		buffer_before, buffer_after, client_name, client_email, client_phone, notes, payer_cpf, appointment_date, appointment_time, starts_at, status, cancel_token_hash, search_key, client_key, series_id, created_at, updated_at, remind)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.OwnerID, a.Pro.ID, a.Svc.ID, a.Pro.Name, a.Svc.Name, a.Svc.Duration, a.Svc.PriceCents, a.Svc.Before, a.Svc.After,
		c.ClientName, c.ClientEmail, c.ClientPhone, c.Notes, c.ClientCPF, a.Date, a.Time, a.Start.UTC(), status, a.TokenHash, SearchKey(c.ClientName, c.ClientEmail), ClientKey(c.ClientPhone, c.ClientEmail), a.Series, a.At, a.At, a.Remind)
	return err
}

// Lock is the time some appointment is to hold: the professionals who might
// hold it (one, or with "any professional" several), of one owner's date.
type Lock struct {
	OwnerID string
	// Professionals are locked, in id order; "" stands for a deleted
	// professional, with whom nothing can collide.
	Professionals []string
	Date          time.Time // midnight UTC of the date, in the owner's calendar
	// Until is the last date when the time spans several dates (a series);
	// zero: Date alone.
	Until time.Time
	Loc   *time.Location
	// Except are the appointments that are to hold the time, when they
	// exist already (a re-confirm, a move, a series' sessions moved
	// together): they never collide with themselves.
	Except []string
}

// Hold is the one way an appointment comes to hold time: a public booking
// (for one professional or any), an owner's re-confirm (later a move, a
// series) all call it, and no other code makes an appointment hold time.
// Inside tx it locks the owner (db.Tx.LockOwner), then the professionals'
// rows in id order, which serialises
// every writer of their time without deadlocks (SQLite: the single writer
// already; PostgreSQL: FOR UPDATE, and each later statement of a READ
// COMMITTED transaction sees what the previous holder of the lock
// committed), reads their holding appointments and blocks of the dates and
// the slots.ReachDays dates either side, lets decide choose with them, and
// runs write. When decide settles several appointments (a series, sessions
// moved together), it takes each one's time as it goes (BusyDays.Take), so
// the set is checked against itself as well as everything else.
func Hold(ctx context.Context, tx *db.Tx, l Lock, decide func(busy BusyDays) error, write func() error) error {
	var pros []string
	for _, id := range l.Professionals {
		if id != "" {
			pros = append(pros, id)
		}
	}
	slices.Sort(pros)
	busy := BusyDays{}
	// The lock order (db.Tx.LockOwner): the owner's lock, then the
	// professionals by id. Callers take the owner's at their transaction's
	// start already (db.OwnerTx); this costs nothing then.
	if err := tx.LockOwner(ctx, l.OwnerID); err != nil {
		return err
	}
	if len(pros) > 0 {
		args := append([]any{l.OwnerID}, anys(pros)...)
		var locked []string
		err := db.Each(ctx, tx, `SELECT id FROM professionals WHERE user_id = ? AND id IN (`+placeholders(len(pros))+`) ORDER BY id`+tx.LockRow(), args, func(r *sql.Rows) error {
			var id string
			locked = append(locked, id)
			return r.Scan(&locked[len(locked)-1])
		})
		if err != nil {
			return err
		}
		if len(locked) == 0 {
			return errChoice
		}
		// The zone the caller computed instants in must still be the owner's:
		// a zone change (Rezone) takes these same locks, so after it commits a
		// hold that read the old zone sees the new one here, and is refused
		// rather than writing an instant of the old zone.
		var zone string
		if err := tx.QueryRowContext(ctx, `SELECT time_zone FROM profiles WHERE id = ?`, l.OwnerID).Scan(&zone); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if l.Loc != nil && tz.Load(zone).String() != l.Loc.String() {
			return errZoneChanged
		}
		last := l.Date
		if l.Until.After(last) {
			last = l.Until
		}
		busy, err = readBusy(ctx, tx, l.OwnerID, l.Loc, locked, l.Date.AddDate(0, 0, -slots.ReachDays), last.AddDate(0, 0, slots.ReachDays), l.Except...)
		if err != nil {
			return err
		}
	}
	if err := decide(busy); err != nil {
		return err
	}
	return write()
}

// ValidateContact checks and tidies a client's name, e-mail and phone as a
// booking does (the waitlist's form asks the same): the same rules, the
// same pt-BR errors.
func ValidateContact(name, email, phone string) (Input, error) {
	in := Input{ProfessionalID: "-", ServiceID: "-", Date: "-", Time: "-", ClientName: name, ClientEmail: email, ClientPhone: phone}
	err := validate(&in)
	return in, err
}
