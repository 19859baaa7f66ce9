package booking

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking/slots"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/schedule"
)

// OwnerInput is an appointment the owner writes into the agenda (a booking
// that came by phone or WhatsApp).
type OwnerInput struct {
	Input
	// NotifyClient sends the client the confirmation (invite, cancel link,
	// reminder) when the client has an e-mail.
	NotifyClient bool `json:"notifyClient"`
	// OutsideHours is the owner's explicit yes to a time outside the
	// professional's hours (a closed day, a break, after closing).
	OutsideHours bool `json:"outsideHours"`
	// Repeat makes it a series (nil: one appointment).
	Repeat *Repeat `json:"repeat"`
}

var (
	errOutsideHours = httpx.NewError(http.StatusConflict, "outside_hours",
		"Fora do horário de atendimento: este horário não está entre os horários do profissional. Confirme para agendar mesmo assim.")
	errBlocked = httpx.NewError(http.StatusConflict, "time_blocked",
		"Este horário está bloqueado na agenda. Remova o bloqueio ou escolha outro horário.")
	errOwnerChoice = httpx.Validation("Profissional ou serviço inválido. Escolha entre os ativos.")
	errOwnerRange  = httpx.Validation("Escolha uma data entre um ano atrás e dois anos à frente.")
)

// ownerReach is how far from today an owner may write an appointment: a
// year back (recording what happened) and two years ahead.
const ownerBack, ownerAhead = 365, 730

// setupOf is an owner's schedule setup as of their current data version.
func (s *Service) setupOf(ctx context.Context, ownerID string) (*schedule.Setup, error) {
	if s.Setups == nil {
		return schedule.Load(ctx, s.DB, ownerID)
	}
	var version int64
	if err := s.DB.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM data_versions WHERE user_id = ?`, ownerID).Scan(&version); err != nil {
		return nil, err
	}
	return s.Setups.Get(ctx, ownerID, version)
}

// Repeat makes an owner's appointment a series: every week, every two
// weeks or every month (the same day of the month; a month without that day
// is passed over), for Count sessions or until a date, at most MaxSeries.
// Skip lists dates the owner chose to leave out (after a preview showed
// them taken).
type Repeat struct {
	Every string   `json:"every"` // "week", "2weeks" or "month"
	Count int      `json:"count"`
	Until string   `json:"until"`
	Skip  []string `json:"skip"`
	// Extend keeps Count: a date that is taken (or skipped) is replaced by
	// the next date of the rule after the last, within the owner's reach.
	Extend bool `json:"extend"`
	// Moves put a taken date's session at another time of its week.
	Moves []SessionMove `json:"moves"`
}

// SessionMove puts the session of a series' Date on To at Time instead (To
// within six days of Date: the same week of the series).
type SessionMove struct {
	Date string `json:"date"`
	To   string `json:"to"`
	Time string `json:"time"`
}

var errSessionMove = httpx.Validation("Cada sessão movida deve ir para um horário (HH:MM) da mesma semana, em uma data da série.")

// MaxSeries is the most sessions one series may have.
const MaxSeries = 52

// Occurrence is one date of a series and, in a preview, why it cannot be
// booked ("" when it can): the code and message a single booking would get.
type Occurrence struct {
	Date    string `json:"date"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Skipped bool   `json:"skipped"`
	// The session's own date and time when the owner moved it (Moves), else
	// the series' date and time.
	To   string `json:"to"`
	Time string `json:"time"`
	// Added: a date after the series' end that keeps its count (Extend).
	Added bool `json:"added"`
	// Alternatives are free times of that week offered for a taken date
	// (Preview only), "YYYY-MM-DD HH:MM", nearest first.
	Alternatives []string `json:"alternatives"`
	err          error    // the refusal itself, for a single appointment's answer
	dropped      bool     // a candidate date Extend did not need
}

var (
	errRepeat    = httpx.Validation("Escolha a repetição (semanal, quinzenal ou mensal) e quantas sessões (2 a 52) ou até que data.")
	errConflicts = func(dates []string) *httpx.Error {
		return httpx.NewError(http.StatusConflict, "series_conflicts",
			"Algumas datas da série não estão livres: "+strings.Join(dates, ", ")+". Pule essas datas ou escolha outro horário.")
	}
)

// dates are the series' dates from the first: every date the rule gives,
// up to Count or Until, at most MaxSeries, the last within the owner's reach.
func (r *Repeat) dates(first time.Time, last string) ([]time.Time, error) {
	if r == nil {
		return []time.Time{first}, nil
	}
	until := last
	if r.Until != "" {
		u, err := slots.ParseDate(r.Until)
		if err != nil || u.Before(first) {
			return nil, errRepeat
		}
		until = min(until, r.Until)
	}
	if (r.Count == 0 && r.Until == "") || r.Count == 1 || r.Count < 0 || r.Count > MaxSeries {
		return nil, errRepeat
	}
	var out []time.Time
	for i := 0; len(out) < MaxSeries && (r.Count == 0 || len(out) < r.Count) && i < 3*MaxSeries; i++ {
		var d time.Time
		switch r.Every {
		case "week":
			d = first.AddDate(0, 0, 7*i)
		case "2weeks":
			d = first.AddDate(0, 0, 14*i)
		case "month":
			d = first.AddDate(0, i, 0)
			if d.Day() != first.Day() {
				continue // no such day that month (the 31st, February's 30th)
			}
		default:
			return nil, errRepeat
		}
		if d.Format("2006-01-02") > until {
			break
		}
		out = append(out, d)
	}
	if len(out) < 2 {
		return nil, errRepeat
	}
	return out, nil
}

// owned is an owner's appointment (or series) checked and ready to hold.
type owned struct {
	st       *schedule.Setup
	pro      *schedule.Professional
	svc      *schedule.Service
	in       OwnerInput
	sessions []session // each date of the rule, with its own date, instant and time (moved or not)
	count    int       // with Extend, how many sessions to keep; else every date
}

// prepare checks an owner's appointment: the client, the choice, the dates.
func (s *Service) prepare(ctx context.Context, ownerID string, in OwnerInput) (*owned, error) {
	if err := validate(&in.Input); err != nil {
		return nil, err
	}
	day, err := parseDate(in.Date)
	if err != nil {
		return nil, err
	}
	minute, err := slots.ParseHHMM(in.Time)
	if err != nil {
		return nil, errDateTime
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return nil, err
	}
	svc, pro := st.Services[in.ServiceID], st.Professionals[in.ProfessionalID]
	if svc == nil || !svc.Active || pro == nil || !pro.Active {
		return nil, errOwnerChoice
	}
	now := s.Clock.Now()
	last := schedule.LastDay(now, st.Loc, ownerAhead)
	if ds := day.Format("2006-01-02"); ds < schedule.LastDay(now, st.Loc, -ownerBack) || ds > last {
		return nil, errOwnerRange
	}
	dates, err := in.Repeat.dates(day, last)
	if err != nil {
		return nil, err
	}
	count := len(dates)
	if r := in.Repeat; r != nil && r.Extend && r.Count > 0 {
		// Candidates past the count, for the taken dates to be replaced by.
		wide := *r
		wide.Count = MaxSeries
		if dates, err = wide.dates(day, last); err != nil {
			return nil, err
		}
	}
	skip := map[string]bool{}
	moved := map[string]SessionMove{}
	if r := in.Repeat; r != nil {
		for _, d := range r.Skip {
			skip[d] = true
		}
		for _, m := range r.Moves {
			moved[m.Date] = m
		}
	}
	sessions := make([]session, len(dates))
	for i, d := range dates {
		ds := d.Format("2006-01-02")
		ss := session{day: d, date: ds, start: slots.At(d, minute, st.Loc), wall: in.Time, skipped: skip[ds]}
		if m, ok := moved[ds]; ok {
			to, err1 := slots.ParseDate(m.To)
			at, err2 := slots.ParseHHMM(m.Time)
			if err1 != nil || err2 != nil || to.Sub(d) > 6*24*time.Hour || d.Sub(to) > 6*24*time.Hour || m.To > last {
				return nil, errSessionMove
			}
			ss.day, ss.start, ss.wall = to, slots.At(to, at, st.Loc), m.Time
			delete(moved, ds)
		}
		sessions[i] = ss
	}
	if len(moved) > 0 {
		return nil, errSessionMove // a move of a date the series does not have
	}
	return &owned{st: st, pro: pro, svc: svc, in: in, sessions: sessions, count: count}, nil
}

// span is the first and last date the sessions take.
func (o *owned) span() (time.Time, time.Time) {
	first, last := o.sessions[0].day, o.sessions[0].day
	for _, ss := range o.sessions {
		if ss.day.Before(first) {
			first = ss.day
		}
		if ss.day.After(last) {
			last = ss.day
		}
	}
	return first, last
}

// check decides every date against the professional's busy time and the
// series' own earlier dates: what a single booking of each would answer,
// skipped dates marked.
//
// With Extend, a taken date is skipped rather than refused, and dates after
// the series' end are added until it keeps its count; the candidates it
// did not need are dropped (and their time, taken as they were decided,
// only ever came after every kept session's).
func (s *Service) check(o *owned, busy BusyDays) []Occurrence {
	errs := s.mayHoldAll(o.st, o.pro, o.svc, o.sessions, busy, o.in.OutsideHours)
	extend := o.in.Repeat != nil && o.in.Repeat.Extend
	out := make([]Occurrence, 0, len(o.sessions))
	kept := 0
	for i, ss := range o.sessions {
		oc := Occurrence{Date: ss.date, To: ss.day.Format("2006-01-02"), Time: ss.wall, Skipped: ss.skipped, err: errs[i], Added: i >= o.count, Alternatives: []string{}}
		var he *httpx.Error
		if errors.As(oc.err, &he) {
			oc.Code, oc.Message = he.Code, he.Message
		} else if oc.err != nil {
			oc.Code, oc.Message = "invalid", oc.err.Error()
		}
		switch {
		case kept >= o.count:
			oc.dropped = true
		case oc.Skipped:
		case oc.err != nil && extend:
			oc.Skipped = true
		default:
			kept++
		}
		out = append(out, oc)
	}
	return out
}

// shown are the occurrences an answer lists: those Extend did not drop.
func shown(plan []Occurrence) []Occurrence {
	out := make([]Occurrence, 0, len(plan))
	for _, oc := range plan {
		if !oc.dropped {
			out = append(out, oc)
		}
	}
	return out
}

// Preview lists the dates an owner's appointment (or series) would take
// and which of them are not free, without booking anything: the owner
// chooses to skip those, and Create checks them again under the lock.
func (s *Service) Preview(ctx context.Context, ownerID string, in OwnerInput) ([]Occurrence, error) {
	o, err := s.prepare(ctx, ownerID, in)
	if err != nil {
		return nil, err
	}
	first, last := o.span()
	// The weeks of the series, for the free times offered instead of a taken date.
	busy, err := readBusy(ctx, s.DB, ownerID, o.st.Loc, []string{o.pro.ID}, first.AddDate(0, 0, -6-slots.ReachDays), last.AddDate(0, 0, 6+slots.ReachDays))
	if err != nil {
		return nil, err
	}
	plan := shown(s.check(o, busy))
	for i := range plan {
		if plan[i].Code != "" && o.in.Repeat != nil {
			plan[i].Alternatives = s.alternatives(o, busy, plan[i].Date)
		}
	}
	return plan, nil
}

// alternatives are up to six free times of a taken date's week (the three
// days either side) for the series' professional and service, nearest to
// the series' own date and time first, never at another session's date.
func (s *Service) alternatives(o *owned, busy BusyDays, date string) []string {
	day, err := slots.ParseDate(date)
	if err != nil {
		return []string{}
	}
	want, _ := slots.ParseHHMM(o.in.Time)
	sessionDates := map[string]bool{}
	for _, ss := range o.sessions {
		sessionDates[ss.day.Format("2006-01-02")] = true
	}
	type option struct {
		at   string
		cost int
	}
	var opts []option
	today := slots.Today(s.Clock.Now(), o.st.Loc)
	for k := -3; k <= 3; k++ {
		d := day.AddDate(0, 0, k)
		ds := d.Format("2006-01-02")
		if ds < today || (k != 0 && sessionDates[ds]) {
			continue
		}
		dd, _ := s.dayOf(o.st, o.pro, o.svc, d, busy.Near(o.pro.ID, d))
		dd.Notice = 0
		for _, t := range slots.Free(dd) {
			hm := slots.Clock(t, o.st.Loc)
			m, _ := slots.ParseHHMM(hm)
			opts = append(opts, option{ds + " " + hm, abs(k)*24*60 + abs(m-want)})
		}
	}
	slices.SortStableFunc(opts, func(a, b option) int { return cmp.Compare(a.cost, b.cost) })
	out := []string{}
	for _, op := range opts[:min(len(opts), 6)] {
		out = append(out, op.at)
	}
	return out
}

// Create writes an owner's appointment, or a whole series of them: any
// active professional and service, from a year back to two years ahead —
// outside the professional's hours only with OutsideHours — but never over
// another appointment or a block, decided under the same lock as a client's
// booking (Hold). A series is checked date by date under one lock of the
// professional and saved whole or not at all: a date that is not free
// refuses it (series_conflicts, naming the dates) unless the owner skips
// it. It returns the first appointment's id.
func (s *Service) Create(ctx context.Context, ownerID string, in OwnerInput) (string, error) {
	o, err := s.prepare(ctx, ownerID, in)
	if err != nil {
		return "", err
	}
	st, pro, svc, in := o.st, o.pro, o.svc, o.in // in as validated: trimmed, the phone's digits
	var firstID string
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		var plan []Occurrence
		first, last := o.span()
		lock := Lock{OwnerID: ownerID, Professionals: []string{pro.ID}, Date: first, Until: last, Loc: st.Loc}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			if busy[pro.ID] == nil {
				return errOwnerChoice // deleted since the setup was read
			}
			plan = s.check(o, busy)
			if in.Repeat == nil {
				return plan[0].err
			}
			var taken []string
			kept := 0
			for _, oc := range plan {
				if oc.Skipped || oc.dropped {
					continue
				}
				if oc.Code != "" {
					taken = append(taken, brfmt.Date(oc.To))
				}
				kept++
			}
			if len(taken) > 0 {
				return errConflicts(taken)
			}
			if kept == 0 {
				return errRepeat
			}
			return nil
		}, func() error {
			var series any
			if in.Repeat != nil {
				series = uuid.NewString()
			}
			stamp := s.Clock.Now()
			var booked []booked
			for i, oc := range plan {
				if oc.Skipped || oc.dropped {
					continue
				}
				ss := o.sessions[i]
				id := uuid.NewString()
				token, hash := auth.OpaqueToken()
				local := time.Unix(ss.start*60, 0).In(st.Loc)
				if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents,
				buffer_before, buffer_after, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, search_key, client_key, series_id, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?, ?)`,
					id, ownerID, pro.ID, svc.ID, pro.Name, svc.Name, svc.Duration, svc.PriceCents, svc.Before, svc.After,
					in.ClientName, in.ClientEmail, in.ClientPhone, in.Notes, oc.To, ss.wall, local.UTC(), hash, SearchKey(in.ClientName, in.ClientEmail), ClientKey(in.ClientPhone, in.ClientEmail), series, stamp, stamp); err != nil {
					return err
				}
				if firstID == "" {
					firstID = id
				}
				b := bookedOf(id, oc.To, in, pro, svc, token, ownerID, st.Name, local)
				b.Time = ss.wall
				booked = append(booked, b)
			}
			title, desc := "Agendamento criado", fmt.Sprintf("%s: %s com %s em %s às %s, registrado na agenda.", in.ClientName, svc.Name, pro.Name, brfmt.Date(booked[0].Date), in.Time)
			if len(booked) > 1 {
				title = "Série criada"
				desc = fmt.Sprintf("%s: %d sessões de %s com %s às %s, de %s a %s.", in.ClientName, len(booked), svc.Name, pro.Name, in.Time,
					brfmt.Date(booked[0].Date), brfmt.Date(booked[len(booked)-1].Date))
			}
			if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, title, desc, firstID); err != nil {
				return err
			}
			if !in.NotifyClient || in.ClientEmail == "" || s.Mailer == nil {
				return nil
			}
			// One confirmation (of the first session), and a reminder before each.
			for i, b := range booked {
				if i == 0 {
					if err := s.confirmToClient(ctx, tx, stamp, b); err != nil {
						return err
					}
					continue
				}
				if err := s.remindLater(ctx, tx, stamp, b); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return "", err
	}
	return firstID, nil
}

func bookedOf(id, date string, in OwnerInput, pro *schedule.Professional, svc *schedule.Service, token, ownerID, ownerName string, local time.Time) booked {
	return booked{Booked: &Booked{ID: id, Date: date, Time: in.Time, ProfessionalName: pro.Name, ServiceName: svc.Name, Duration: svc.Duration,
		PriceCents: svc.PriceCents, CancelToken: token}, ClientName: in.ClientName, ClientEmail: in.ClientEmail, ClientPhone: in.ClientPhone,
		OwnerID: ownerID, OwnerName: ownerName, Start: local}
}

// MoveInput is a reschedule: the new date and time, and optionally another
// professional or service ("" keeps the appointment's own).
type MoveInput struct {
	Date           string `json:"date"`
	Time           string `json:"time"`
	ProfessionalID string `json:"professionalId"`
	ServiceID      string `json:"serviceId"`
	OutsideHours   bool   `json:"outsideHours"`
	NotifyClient   bool   `json:"notifyClient"`
	// Following moves the confirmed later sessions of its series with it:
	// each by the same number of days, to the same time, professional and
	// service; all of them or none.
	Following bool `json:"following"`
}

var (
	errNotMovable  = httpx.NewError(http.StatusConflict, "not_movable", "Só agendamentos confirmados podem ser remarcados.")
	errMoveMissing = httpx.NewError(http.StatusNotFound, "not_found", "Agendamento não encontrado.")
	errMoveSeries  = func(dates []string) *httpx.Error {
		return httpx.NewError(http.StatusConflict, "series_conflicts",
			"Algumas sessões não podem ir para o novo horário: "+strings.Join(dates, ", ")+". Escolha outro horário ou remarque as sessões uma a uma.")
	}
)

// current is what a reschedule starts from.
type current struct {
	status, professionalID, serviceID, professionalName, serviceName string
	date, time, clientName, clientEmail, series                      string
	duration, before, after, sequence                                int
	price                                                            int64
}

// moving is one session a reschedule moves: where it was and where it goes.
type moving struct {
	id, from, to string
	sequence     int
	day          time.Time
	start        int64 // minutes since the epoch
}

// Reschedule moves a confirmed appointment to another date and time (and
// professional or service), with the same guarantees as Create: the same
// hold, never over another appointment or a block, outside the hours only
// with OutsideHours. Its invite's sequence goes up, so the client's calendar
// moves the event; with NotifyClient (and an e-mail) the client gets the
// updated invite, a fresh private link (the older ones keep working) and
// the reminder of the new time. With
// Following, the later confirmed sessions of its series move with it, by
// the same number of days, checked together under one lock: one that
// cannot move refuses them all (series_conflicts, naming the dates).
func (s *Service) Reschedule(ctx context.Context, ownerID, id string, in MoveInput) error {
	day, err := parseDate(in.Date)
	if err != nil {
		return err
	}
	minute, err := slots.ParseHHMM(in.Time)
	if err != nil {
		return errDateTime
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return err
	}
	now := s.Clock.Now()
	first, last := schedule.LastDay(now, st.Loc, -ownerBack), schedule.LastDay(now, st.Loc, ownerAhead)
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		var c current
		var pro, svc, series sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT status, professional_id, service_id, professional_name, service_name, appointment_date, appointment_time,
			client_name, client_email, duration, buffer_before, buffer_after, sequence, price_cents, series_id FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
			Scan(&c.status, &pro, &svc, &c.professionalName, &c.serviceName, &c.date, &c.time, &c.clientName, &c.clientEmail, &c.duration, &c.before, &c.after, &c.sequence, &c.price, &series)
		if errors.Is(err, sql.ErrNoRows) {
			return errMoveMissing
		}
		if err != nil {
			return err
		}
		c.professionalID, c.serviceID, c.series = pro.String, svc.String, series.String
		// Who and what: the appointment's own, or the new choice (active).
		proID := cmp.Or(in.ProfessionalID, c.professionalID)
		p := st.Professionals[proID]
		if p == nil || (!p.Active && proID != c.professionalID) {
			return errOwnerChoice
		}
		what, err := movedShape(st, schedule.Service{ID: c.serviceID, Name: c.serviceName, Duration: c.duration, Before: c.before, After: c.after, PriceCents: c.price, Active: true}, in.ServiceID)
		if err != nil {
			return err
		}
		moves, err := s.sessionsToMove(ctx, tx, ownerID, id, c, in.Following)
		if err != nil {
			return err
		}
		// Every session moves by the days between its date and the new one.
		was, err := parseDate(c.date)
		if err != nil {
			was = day // a date no slot can read: only this session moves
			moves = moves[:1]
		}
		shift := int(day.Sub(was).Hours() / 24)
		ids := make([]string, len(moves))
		for i := range moves {
			m := &moves[i]
			if i == 0 {
				m.day = day
			} else if m.day, err = parseDate(m.from); err != nil {
				return err
			} else {
				m.day = m.day.AddDate(0, 0, shift)
			}
			m.to, m.start, ids[i] = m.day.Format("2006-01-02"), slots.At(m.day, minute, st.Loc), m.id
			if m.to < first || m.to > last {
				return errOwnerRange
			}
		}
		if len(moves) == 1 && slots.Clock(moves[0].start, st.Loc) != in.Time {
			return errDateTime // a time the clocks skip that date
		}
		lock := Lock{OwnerID: ownerID, Professionals: []string{p.ID}, Date: moves[0].day, Until: moves[len(moves)-1].day, Loc: st.Loc, Except: ids}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			// The statuses as they stand under the lock: only confirmed sessions move.
			confirmed := 0
			err := db.Each(ctx, tx, `SELECT status FROM appointments WHERE id IN (`+placeholders(len(ids))+`)`, anys(ids), func(r *sql.Rows) error {
				var status string
				if err := r.Scan(&status); err != nil {
					return err
				}
				if status == "confirmed" {
					confirmed++
				}
				return nil
			})
			if err != nil {
				return err
			}
			if confirmed != len(ids) {
				return errNotMovable
			}
			if busy[p.ID] == nil {
				return errOwnerChoice
			}
			sessions := make([]session, len(moves))
			for i, m := range moves {
				sessions[i] = session{date: m.to, day: m.day, start: m.start, wall: in.Time}
			}
			errs := s.mayHoldAll(st, p, what, sessions, busy, in.OutsideHours)
			if len(moves) == 1 {
				return errs[0]
			}
			var taken []string
			for i, m := range moves {
				if errs[i] != nil {
					taken = append(taken, brfmt.Date(m.to))
				}
			}
			if len(taken) > 0 {
				return errMoveSeries(taken)
			}
			return nil
		}, func() error {
			stamp := s.Clock.Now()
			for _, m := range moves {
				// Every session keeps its private links: the client who
				// booked without an e-mail still holds the first one.
				local := time.Unix(m.start*60, 0).In(st.Loc)
				if _, err := tx.ExecContext(ctx, `UPDATE appointments SET professional_id = ?, professional_name = ?, service_id = ?, service_name = ?, duration = ?,
					price_cents = ?, buffer_before = ?, buffer_after = ?, appointment_date = ?, appointment_time = ?, starts_at = ?, sequence = sequence + 1,
					updated_at = ? WHERE id = ? AND user_id = ?`,
					p.ID, p.Name, nullable(what.ID), what.Name, what.Duration, what.PriceCents, what.Before, what.After, m.to, in.Time, local.UTC(), stamp, m.id, ownerID); err != nil {
					return err
				}
			}
			title := "Agendamento remarcado"
			desc := fmt.Sprintf("%s: %s com %s passou de %s às %s para %s às %s.", c.clientName, what.Name, p.Name, brfmt.Date(c.date), c.time, brfmt.Date(moves[0].to), in.Time)
			if len(moves) > 1 {
				title = "Série remarcada"
				desc = fmt.Sprintf("%s: %d sessões de %s com %s remarcadas para as %s, de %s a %s.", c.clientName, len(moves), what.Name, p.Name,
					in.Time, brfmt.Date(moves[0].to), brfmt.Date(moves[len(moves)-1].to))
			}
			if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, title, desc, id); err != nil {
				return err
			}
			if !in.NotifyClient || c.clientEmail == "" || s.Mailer == nil {
				return nil
			}
			// One e-mail, with the moved appointment's updated invite and a
			// fresh private link to it, and a reminder before each session at
			// its new time.
			token, err := addLink(ctx, tx, ownerID, id, stamp)
			if err != nil {
				return err
			}
			for i, m := range moves {
				b := booked{Booked: &Booked{ID: m.id, Date: m.to, Time: in.Time, ProfessionalName: p.Name, ServiceName: what.Name, Duration: what.Duration,
					PriceCents: what.PriceCents, CancelToken: token}, ClientName: c.clientName, ClientEmail: c.clientEmail,
					OwnerID: ownerID, OwnerName: st.Name, Start: time.Unix(m.start*60, 0).In(st.Loc), Sequence: m.sequence + 1, Moved: true}
				if i == 0 {
					err = s.confirmToClient(ctx, tx, stamp, b)
				} else {
					err = s.remindLater(ctx, tx, stamp, b)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// sessionsToMove is the appointment a reschedule moves, first, and with
// following the confirmed sessions of its series after it, in date order.
func (s *Service) sessionsToMove(ctx context.Context, tx *db.Tx, ownerID, id string, c current, following bool) ([]moving, error) {
	out := []moving{{id: id, from: c.date, sequence: c.sequence}}
	if !following || c.series == "" {
		return out, nil
	}
	err := db.Each(ctx, tx, `SELECT id, appointment_date, sequence FROM appointments
		WHERE user_id = ? AND series_id = ? AND appointment_date > ? AND status = 'confirmed' ORDER BY appointment_date, appointment_time`,
		[]any{ownerID, c.series, c.date}, func(r *sql.Rows) error {
			var m moving
			if err := r.Scan(&m.id, &m.from, &m.sequence); err != nil {
				return err
			}
			out = append(out, m)
			return nil
		})
	return out, err
}

// anys are strings as query arguments.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, v := range ss {
		out[i] = v
	}
	return out
}

// movedShape is the service an appointment will have after a move — its
// duration, buffers, name and price — which is what the move must be
// decided with: its own as booked (own), unless the move changes its
// service (serviceID, "" for none), then that service as it stands now.
// Every move, the owner's or the client's, one session or a series, takes
// its shape from here.
func movedShape(st *schedule.Setup, own schedule.Service, serviceID string) (*schedule.Service, error) {
	if serviceID == "" || serviceID == own.ID {
		return &own, nil
	}
	other := st.Services[serviceID]
	if other == nil || !other.Active {
		return nil, errOwnerChoice
	}
	return other, nil
}

// session is one appointment of a set that one hold decides: its date and
// start, and whether the owner left it out.
type session struct {
	date    string    // the series' date it stands for
	day     time.Time // where it is held: that date, or where the owner moved it
	start   int64
	wall    string // the wall-clock time it must keep (a date whose clocks skip it cannot have it)
	skipped bool
}

// mayHoldAll decides, under the professional's lock, every appointment of
// svc one hold is to write for p (a series created, sessions moved
// together), in order: each as mayHold decides it alone, at its wall-clock
// time (a date whose clocks skip it cannot have it), and also against
// the ones decided before it, whose time it takes as it goes (Take) — so
// the set never collides with itself. It returns each one's refusal (nil:
// free, or skipped).
func (s *Service) mayHoldAll(st *schedule.Setup, p *schedule.Professional, svc *schedule.Service, sessions []session, busy BusyDays, outsideHours bool) []error {
	errs := make([]error, len(sessions))
	for i, ss := range sessions {
		if ss.skipped {
			continue
		}
		if slots.Clock(ss.start, st.Loc) != ss.wall {
			errs[i] = errDateTime
			continue
		}
		if errs[i] = s.mayHold(st, p, svc, ss.day, ss.start, busy, outsideHours); errs[i] == nil {
			busy.Take(p.ID, ss.day, slots.Busy{Start: ss.start, Duration: svc.Duration, Before: svc.Before, After: svc.After})
		}
	}
	return errs
}

// mayHold decides, under the professional's lock, whether an owner may put
// an appointment of svc at start: never over a block or another
// appointment; outside the professional's hours only with the owner's yes.
func (s *Service) mayHold(st *schedule.Setup, p *schedule.Professional, svc *schedule.Service, day time.Time, start int64, busy BusyDays, outsideHours bool) error {
	if busy.Blocked(p.ID, day, start, svc.Duration, svc.Before, svc.After) {
		return errBlocked
	}
	near := busy.Near(p.ID, day)
	if slots.Collides(start, svc.Duration, svc.Before, svc.After, near) {
		return errSlotTaken
	}
	if outsideHours {
		return nil
	}
	// The professional's hours, as a client would be held to them, but an
	// owner may write a time that has passed or comes at short notice.
	d, _ := s.dayOf(st, p, svc, day, near)
	d.Now, d.Notice = start, 0
	if slots.Why(d, start) != slots.Offered {
		return errOutsideHours
	}
	return nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TellCancelled e-mails the client that the owner cancelled the appointment,
// with an invite that removes it from their calendar (METHOD:CANCEL, the
// same UID, the next sequence). Nothing is sent without an e-mail address.
func (s *Service) TellCancelled(ctx context.Context, ownerID, id string) error {
	if s.Mailer == nil {
		return nil
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return err
	}
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		var b booked
		b.Booked = &Booked{ID: id}
		var status string
		err := tx.QueryRowContext(ctx, `SELECT client_name, client_email, service_name, professional_name, appointment_date, appointment_time, duration,
			price_cents, status, sequence FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
			Scan(&b.ClientName, &b.ClientEmail, &b.ServiceName, &b.ProfessionalName, &b.Date, &b.Time, &b.Duration, &b.PriceCents, &status, &b.Sequence)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (status != "cancelled" || b.ClientEmail == "")) {
			return nil
		}
		if err != nil {
			return err
		}
		day, err1 := slots.ParseDate(b.Date)
		minute, err2 := slots.ParseHHMM(b.Time)
		if err1 != nil || err2 != nil {
			return nil
		}
		b.Sequence++
		if _, err := tx.ExecContext(ctx, `UPDATE appointments SET sequence = ? WHERE id = ?`, b.Sequence, id); err != nil {
			return err
		}
		start := time.Unix(slots.At(day, minute, st.Loc)*60, 0).In(st.Loc)
		msg, err := mail.Compose(b.ClientEmail, mail.Content{
			Subject:    fmt.Sprintf("Agendamento cancelado: %s em %s às %s", b.ServiceName, brfmt.Date(b.Date), b.Time),
			Greeting:   fmt.Sprintf("Olá, %s!", b.ClientName),
			Paragraphs: []string{fmt.Sprintf("%s cancelou o seu agendamento abaixo. O convite em anexo o retira da sua agenda.", st.Name)},
			Details:    b.details(),
			Footer:     "Para marcar outro horário, fale com " + st.Name + " ou use a página de agendamento.",
		})
		if err != nil {
			return err
		}
		msg.Attachments = []mail.Attachment{{Name: "cancelamento.ics", ContentType: "text/calendar", Data: ICS(Invite{
			UID: id + "@agendei", Start: start, Duration: time.Duration(b.Duration) * time.Minute,
			Summary: fmt.Sprintf("%s com %s", b.ServiceName, b.ProfessionalName), Description: "Cancelado por " + st.Name + ".",
			Stamp: s.Clock.Now(), Sequence: b.Sequence, Cancelled: true,
		})}}
		return s.Mailer.QueueAbout(ctx, tx, about(ownerID, id), msg)
	})
}

// ClientTimes are the free start times of a date that the client behind a
// private link may move their booking to: the public page's times for the
// same professional, decided with the duration and buffers the booking
// keeps (movedShape) and without the booking itself in the way — exactly
// what ClientReschedule accepts. Nothing for a booking that cannot move.
func (s *Service) ClientTimes(ctx context.Context, token, date string) ([]string, error) {
	day, err := parseDate(date)
	if err != nil {
		return nil, err
	}
	id, ownerID, _, _, c, err := s.byToken(ctx, s.DB, token)
	if err != nil {
		return nil, err
	}
	out := []string{}
	if c.Status != "confirmed" || !c.Cancellable {
		return out, nil
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return nil, err
	}
	svc, pro, err := clientShape(st, c)
	if err != nil || !s.bookable(st, day) {
		return out, nil // nothing the client can move to
	}
	busy, err := readBusy(ctx, s.DB, ownerID, st.Loc, []string{pro.ID}, day.AddDate(0, 0, -slots.ReachDays), day.AddDate(0, 0, slots.ReachDays), id)
	if err != nil {
		return nil, err
	}
	d, _ := s.dayOf(st, pro, svc, day, busy.Near(pro.ID, day))
	return clockTimes(slots.Free(d), st.Loc), nil
}

// clientShape is who and what a client's move is decided with: the same
// professional and service, still offered, with the duration and buffers
// the booking keeps — the owner may have changed the service since.
func clientShape(st *schedule.Setup, c *Cancellation) (*schedule.Service, *schedule.Professional, error) {
	current, pros, err := choose(st, c.ProfessionalID, c.ServiceID)
	if err != nil {
		return nil, nil, err
	}
	own := *current
	own.Duration, own.Before, own.After = c.Duration, c.before, c.after
	svc, err := movedShape(st, own, "")
	return svc, pros[0], err
}

var errClientMove = httpx.NewError(http.StatusConflict, "not_movable", "Este agendamento não pode mais ser remarcado por aqui.")

// ClientReschedule moves a booking from the client's private link: the same
// professional and service, to a time the public page offers (the owner's
// notice, window, hours, breaks, days off and blocks, as a new booking), and
// only while the link could still cancel it (before the owner's cutoff). The
// link stays the client's; the owner is told by notification and e-mail and
// the client gets the updated invite (same UID, next SEQUENCE).
func (s *Service) ClientReschedule(ctx context.Context, token, date, at string) (*Cancellation, error) {
	day, err := parseDate(date)
	if err != nil {
		return nil, err
	}
	minute, err := slots.ParseHHMM(at)
	if err != nil {
		return nil, errDateTime
	}
	id, ownerID, ownerEmail, clientName, c, err := s.byToken(ctx, s.DB, token)
	if err != nil {
		return nil, err
	}
	if c.Status != "confirmed" || !c.Cancellable {
		if c.pastCutoff(s.Clock.Now()) {
			return nil, errCutoff(c.cutoffHours)
		}
		return nil, errClientMove
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return nil, err
	}
	svc, pro, err := clientShape(st, c)
	if err != nil {
		return nil, err
	}
	pros := []*schedule.Professional{pro}
	start := slots.At(day, minute, st.Loc)
	if slots.Clock(start, st.Loc) != at {
		return nil, errDateTime
	}
	if err := s.refuse(st, pros, svc, day, start, nil); err != nil {
		return nil, err // what no other appointment can change: past, notice, window, hours
	}
	local := time.Unix(start*60, 0).In(st.Loc)
	oldDate, oldTime := c.Date, c.Time
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		lock := Lock{OwnerID: ownerID, Professionals: []string{pro.ID}, Date: day, Loc: st.Loc, Except: []string{id}}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			var status string
			if err := tx.QueryRowContext(ctx, `SELECT status FROM appointments WHERE id = ?`, id).Scan(&status); err != nil {
				return err
			}
			if status != "confirmed" {
				return errClientMove
			}
			return s.refuse(st, pros, svc, day, start, busy)
		}, func() error {
			now := s.Clock.Now()
			if _, err := tx.ExecContext(ctx, `UPDATE appointments SET appointment_date = ?, appointment_time = ?, starts_at = ?, sequence = sequence + 1, updated_at = ?
				WHERE id = ?`, day.Format("2006-01-02"), at, local.UTC(), now, id); err != nil {
				return err
			}
			c.Date, c.Time = day.Format("2006-01-02"), at
			until := local.Add(-time.Duration(c.cutoffHours) * time.Hour).UTC()
			c.CancelUntil, c.Cancellable = &until, now.Before(until)
			desc := fmt.Sprintf("%s remarcou %s com %s de %s às %s para %s às %s.", clientName, c.ServiceName, c.ProfessionalName, brfmt.Date(oldDate), oldTime, brfmt.Date(c.Date), at)
			if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Agendamento remarcado pelo cliente", desc, id); err != nil {
				return err
			}
			if s.Mailer == nil {
				return nil
			}
			owner, err := mail.Compose(ownerEmail, mail.Content{
				Subject:    fmt.Sprintf("Agendamento remarcado: %s — %s em %s às %s", clientName, c.ServiceName, brfmt.Date(c.Date), at),
				Paragraphs: []string{desc},
				Button:     &mail.Link{Label: "Abrir a agenda", URL: s.BaseURL + "/agenda"},
			})
			if err != nil {
				return err
			}
			if err := s.Mailer.QueueAbout(ctx, tx, about(ownerID, id), owner); err != nil {
				return err
			}
			if c.clientEmail == "" {
				return nil
			}
			b := booked{Booked: &Booked{ID: id, Date: c.Date, Time: at, ProfessionalName: c.ProfessionalName, ServiceName: c.ServiceName, Duration: c.Duration,
				PriceCents: c.PriceCents, CancelToken: token}, ClientName: clientName, ClientEmail: c.clientEmail,
				OwnerID: ownerID, OwnerName: st.Name, Start: local, Sequence: c.sequence + 1, Moved: true}
			return s.confirmToClient(ctx, tx, now, b)
		})
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}
