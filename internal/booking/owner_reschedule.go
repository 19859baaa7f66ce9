// Owner reschedule: moving a confirmed appointment (and with it, if asked,
// the later sessions of its series) to another date, time, professional or
// service, under the same hold as a booking.

package booking

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/freed"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
)

// MoveInput is a reschedule: the new date and time, and optionally another
// professional or service ("" keeps the appointment's own).
type MoveInput struct {
	Date           string `json:"date"`
	Time           string `json:"time"`
	ProfessionalID string `json:"professionalId"`
	ServiceID      string `json:"serviceId"`
	OutsideHours   bool   `json:"outsideHours"`
	OverPersonal   bool   `json:"overPersonal"` // a yes to the professional's own calendar's busy time
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
	date, time, clientName, clientEmail, clientPhone, series         string
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
// cannot move refuses them all (series_conflicts, naming the dates). It
// returns the channel that carried the client's notice (tellMoved).
func (s *Service) Reschedule(ctx context.Context, ownerID, id string, in MoveInput) (string, error) {
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return "", err
	}
	var channel string
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var err error
		channel, err = s.reschedule(ctx, tx, st, ownerID, id, in)
		return err
	})
	return channel, err
}

// MoveAffected moves an appointment a block or a day off covers to the
// date and time the owner planned for it, inside the caller's transaction
// (schedule.AddBlock, schedule.AddDayOff), through the same hold as every
// move: a time taken refuses it, and with it the whole save. It returns the
// notice's channel, as Reschedule.
func (s *Service) MoveAffected(ctx context.Context, tx *db.Tx, ownerID, id, date, at string, notify bool) (string, error) {
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return "", err
	}
	return s.reschedule(ctx, tx, st, ownerID, id, MoveInput{Date: date, Time: at, NotifyClient: notify})
}

// reschedule is Reschedule inside the caller's transaction, in four steps:
// load what the appointment is, plan where each session goes (before any
// lock but the owner's), decide under the hold whether they may, and write.
func (s *Service) reschedule(ctx context.Context, tx *db.Tx, st *schedule.Setup, ownerID, id string, in MoveInput) (string, error) {
	day, minute, err := parseMoveTime(in)
	if err != nil {
		return "", err
	}
	c, err := loadCurrent(ctx, tx, ownerID, id)
	if err != nil {
		return "", err
	}
	plan, err := s.planMove(ctx, tx, st, ownerID, id, c, in, day, minute)
	if err != nil {
		return "", err
	}
	channel := ""
	err = Hold(ctx, tx, plan.lock(ownerID, st), func(busy BusyDays) error {
		return s.decideMove(ctx, tx, st, plan, busy)
	}, func() error {
		var err error
		channel, err = s.writeMove(ctx, tx, st, ownerID, id, plan)
		return err
	})
	return channel, err
}

// movePlan is a move as planned before the hold: the appointment as it
// was, who and what it goes to, and each session's new place.
type movePlan struct {
	in    MoveInput
	c     current
	p     *schedule.Professional
	what  *schedule.Service
	moves []moving // the appointment first, then the later sessions moved with it
	ids   []string // the moves' ids, in the same order
}

// parseMoveTime reads the move's date and time, refusing what is not one.
func parseMoveTime(in MoveInput) (day time.Time, minute int, err error) {
	day, err = parseDate(in.Date)
	if err != nil {
		return day, 0, err
	}
	minute, err = slots.ParseHHMM(in.Time)
	if err != nil {
		return day, 0, errDateTime
	}
	return day, minute, nil
}

// ownerRange is the first and last date the owner may move an
// appointment to, as of now.
func (s *Service) ownerRange(st *schedule.Setup) (first, last string) {
	now := s.Clock.Now()
	return schedule.LastDay(now, st.Loc, -ownerBack), schedule.LastDay(now, st.Loc, ownerAhead)
}

// loadCurrent reads the owner's appointment as it stands (errMoveMissing
// when the owner has none with that id).
func loadCurrent(ctx context.Context, tx *db.Tx, ownerID, id string) (current, error) {
	var c current
	var pro, svc, series sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT status, professional_id, service_id, professional_name, service_name, appointment_date, appointment_time,
		client_name, client_email, client_phone, duration, buffer_before, buffer_after, sequence, price_cents, series_id FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
		Scan(&c.status, &pro, &svc, &c.professionalName, &c.serviceName, &c.date, &c.time, &c.clientName, &c.clientEmail, &c.clientPhone, &c.duration, &c.before, &c.after, &c.sequence, &c.price, &series)
	if errors.Is(err, sql.ErrNoRows) {
		return c, errMoveMissing
	}
	if err != nil {
		return c, err
	}
	c.professionalID, c.serviceID, c.series = pro.String, svc.String, series.String
	return c, nil
}

// planMove decides who and what the move goes to — the appointment's own,
// or the new choice (active) — and where each session lands: every one by
// the days between the appointment's date and the new one, at the new
// time, within the dates the owner may move to.
func (s *Service) planMove(ctx context.Context, tx *db.Tx, st *schedule.Setup, ownerID, id string, c current, in MoveInput, day time.Time, minute int) (movePlan, error) {
	plan := movePlan{in: in, c: c}
	first, last := s.ownerRange(st)
	proID := cmp.Or(in.ProfessionalID, c.professionalID)
	plan.p = st.Professionals[proID]
	if plan.p == nil || (!plan.p.Active && proID != c.professionalID) {
		return plan, errOwnerChoice
	}
	var err error
	plan.what, err = movedShape(st, schedule.Service{ID: c.serviceID, Name: c.serviceName, Duration: c.duration, Before: c.before, After: c.after, PriceCents: c.price, Active: true}, in.ServiceID)
	if err != nil {
		return plan, err
	}
	moves, err := s.sessionsToMove(ctx, tx, ownerID, id, c, in.Following)
	if err != nil {
		return plan, err
	}
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
			return plan, err
		} else {
			m.day = m.day.AddDate(0, 0, shift)
		}
		m.to, m.start, ids[i] = m.day.Format("2006-01-02"), slots.At(m.day, minute, st.Loc), m.id
		if m.to < first || m.to > last {
			return plan, errOwnerRange
		}
	}
	if len(moves) == 1 && slots.Clock(moves[0].start, st.Loc) != in.Time {
		return plan, errDateTime // a time the clocks skip that date
	}
	plan.moves, plan.ids = moves, ids
	return plan, nil
}

// lock is the hold a move takes: its professional, over the dates from
// the first session's to the last's, the moved sessions never colliding
// with themselves.
func (plan movePlan) lock(ownerID string, st *schedule.Setup) Lock {
	return Lock{OwnerID: ownerID, Professionals: []string{plan.p.ID}, Date: plan.moves[0].day, Until: plan.moves[len(plan.moves)-1].day, Loc: st.Loc, Except: plan.ids}
}

// decideMove is whether the planned move may happen, under the hold: every
// session still confirmed (or a hold awaiting its deposit) as the statuses
// stand now, and every new place free by the same rules as a booking (one
// that is not refuses a series whole, naming its dates).
func (s *Service) decideMove(ctx context.Context, tx *db.Tx, st *schedule.Setup, plan movePlan, busy BusyDays) error {
	confirmed := 0
	err := db.Each(ctx, tx, `SELECT status FROM appointments WHERE id IN (`+placeholders(len(plan.ids))+`)`, anys(plan.ids), func(r *sql.Rows) error {
		var status string
		if err := r.Scan(&status); err != nil {
			return err
		}
		if Active(status) {
			confirmed++
		}
		return nil
	})
	if err != nil {
		return err
	}
	if confirmed != len(plan.ids) {
		return errNotMovable
	}
	if busy[plan.p.ID] == nil {
		return errOwnerChoice
	}
	sessions := make([]session, len(plan.moves))
	for i, m := range plan.moves {
		sessions[i] = session{date: m.to, day: m.day, start: m.start, wall: plan.in.Time}
	}
	errs := s.mayHoldAll(st, plan.p, plan.what, sessions, busy, yes{plan.in.OutsideHours, plan.in.OverPersonal})
	if len(plan.moves) == 1 {
		return errs[0]
	}
	var taken []string
	for i, m := range plan.moves {
		if errs[i] != nil {
			taken = append(taken, brfmt.Date(m.to))
		}
	}
	if len(taken) > 0 {
		return errMoveSeries(taken)
	}
	return nil
}

// writeMove moves each session, frees the time it leaves for the
// waitlist, notes the move for the owner and, when asked, tells the
// client; it returns the notice's channel (tellMoved; "" when not asked).
func (s *Service) writeMove(ctx context.Context, tx *db.Tx, st *schedule.Setup, ownerID, id string, plan movePlan) (string, error) {
	c, p, what, moves, in := plan.c, plan.p, plan.what, plan.moves, plan.in
	stamp := s.Clock.Now()
	for _, m := range moves {
		// Every session keeps its private links: the client who booked
		// without an e-mail still holds the first one. A client's answer
		// was about the old time: it goes.
		local := time.Unix(m.start*60, 0).In(st.Loc)
		if _, err := tx.ExecContext(ctx, `UPDATE appointments SET professional_id = ?, professional_name = ?, service_id = ?, service_name = ?, duration = ?,
			price_cents = ?, buffer_before = ?, buffer_after = ?, appointment_date = ?, appointment_time = ?, starts_at = ?, sequence = sequence + 1,
			updated_at = ?, client_answer = '', client_answer_at = NULL, client_answer_channel = '' WHERE id = ? AND user_id = ?`,
			p.ID, p.Name, nullable(what.ID), what.Name, what.Duration, what.PriceCents, what.Before, what.After, m.to, in.Time, local.UTC(), stamp, m.id, ownerID); err != nil {
			return "", err
		}
		// The time it leaves is free for the waitlist.
		if err := freed.Tell(ctx, s.Queue, tx, freed.Appointment(ownerID, c.professionalID, m.from, c.time, c.duration, c.before, c.after, stamp)); err != nil {
			return "", err
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
		return "", err
	}
	if !in.NotifyClient {
		return "", nil
	}
	bs := make([]booked, len(moves))
	for i, m := range moves {
		bs[i] = booked{Booked: &Booked{ID: m.id, Date: m.to, Time: in.Time, ProfessionalName: p.Name, ServiceName: what.Name, Duration: what.Duration,
			PriceCents: what.PriceCents}, ClientName: c.clientName, ClientEmail: c.clientEmail, ClientPhone: c.clientPhone,
			OwnerID: ownerID, OwnerName: st.Name, Start: time.Unix(m.start*60, 0).In(st.Loc), Sequence: m.sequence + 1, Moved: true}
	}
	return s.tellMoved(ctx, tx, stamp, bs)
}

// tellMoved tells the client of moved sessions (the first, and the later
// ones of its series moved with it): one e-mail, with the first one's
// updated invite and a fresh private link to it, and WhatsApp's
// confirmation of the new time when the owner's number can carry it (as for
// a public booking), a push notification to their subscribed browsers; a
// reminder before each session at its new time. It returns the channel that
// carried the notice: "email", "whatsapp", "email_whatsapp", "push", or
// "none" when no automatic message could leave.
func (s *Service) tellMoved(ctx context.Context, tx *db.Tx, stamp time.Time, bs []booked) (string, error) {
	b0 := bs[0]
	byEmail := b0.ClientEmail != "" && s.Mailer != nil
	// Their subscribed browsers hear of the first session's new time too,
	// and a tap opens its private page (besides e-mail and WhatsApp).
	pushed := false
	if s.Push != nil {
		ok, err := s.Push.Reaches(ctx, tx, b0.OwnerID, b0.ID)
		if err != nil {
			return "", err
		}
		if ok {
			token, err := addLink(ctx, tx, b0.OwnerID, b0.ID, stamp)
			if err != nil {
				return "", err
			}
			if pushed, err = s.pushNotice(ctx, tx, b0, "moved", s.BaseURL+"/cancel/"+token); err != nil {
				return "", err
			}
		}
	}
	if !byEmail && (b0.ClientPhone == "" || s.WhatsApp == nil) {
		return channelOf(false, false, pushed), nil
	}
	token := ""
	if byEmail {
		var err error
		if token, err = addLink(ctx, tx, b0.OwnerID, b0.ID, stamp); err != nil {
			return "", err
		}
	}
	byWhatsApp := false
	for i, b := range bs {
		b.CancelToken = token
		var err error
		switch {
		case i == 0:
			if byWhatsApp, err = s.confirmByWhatsApp(ctx, tx, b); err != nil {
				return "", err
			}
			if byEmail {
				err = s.confirmToClient(ctx, tx, stamp, b)
			} else {
				err = s.remindLater(ctx, tx, stamp, b)
			}
		default:
			err = s.remindLater(ctx, tx, stamp, b)
		}
		if err != nil {
			return "", err
		}
	}
	return channelOf(byEmail, byWhatsApp, pushed), nil
}

// channelOf names what carried a client's notice, in the answers' words.
// A push notification besides e-mail or WhatsApp adds nothing to say; a
// push alone is "push" (sent, though maybe unseen: the owner may still
// send it by hand).
func channelOf(byEmail, byWhatsApp, byPush bool) string {
	switch {
	case byEmail && byWhatsApp:
		return "email_whatsapp"
	case byEmail:
		return "email"
	case byWhatsApp:
		return "whatsapp"
	case byPush:
		return "push"
	}
	return "none"
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

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TellMoved tells the client of an appointment the owner moved without a
// notice (a drag in the agenda, then "Avisar cliente" on its toast) where it
// now stands, as Reschedule's NotifyClient would have: the updated invite
// and a fresh private link by e-mail, WhatsApp's confirmation of the time
// when the owner's number carries it. It returns the channel (tellMoved).
func (s *Service) TellMoved(ctx context.Context, ownerID, id string) (string, error) {
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return "", err
	}
	channel := ""
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		b := booked{Booked: &Booked{ID: id}, OwnerID: ownerID, OwnerName: st.Name, Moved: true}
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status, professional_name, service_name, appointment_date, appointment_time, duration, price_cents,
			client_name, client_email, client_phone, sequence FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
			Scan(&status, &b.ProfessionalName, &b.ServiceName, &b.Date, &b.Time, &b.Duration, &b.PriceCents, &b.ClientName, &b.ClientEmail, &b.ClientPhone, &b.Sequence)
		if errors.Is(err, sql.ErrNoRows) {
			return errMoveMissing
		}
		if err != nil {
			return err
		}
		if status != "confirmed" {
			return errNotMovable
		}
		day, err1 := slots.ParseDate(b.Date)
		minute, err2 := slots.ParseHHMM(b.Time)
		if err1 != nil || err2 != nil {
			channel = "none" // a time no slot can read: no invite can carry it
			return nil
		}
		b.Start = time.Unix(slots.At(day, minute, st.Loc)*60, 0).In(st.Loc)
		channel, err = s.tellMoved(ctx, tx, s.Clock.Now(), []booked{b})
		return err
	})
	return channel, err
}
