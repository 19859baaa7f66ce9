package booking

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
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

// Create writes an owner's appointment: any active professional and
// service, any time from a year back to two years ahead — outside the
// professional's hours only with OutsideHours — but never over another
// appointment that holds time, decided under the same lock as a client's
// booking (Hold). It returns the new appointment's id.
func (s *Service) Create(ctx context.Context, ownerID string, in OwnerInput) (string, error) {
	if err := validate(&in.Input); err != nil {
		return "", err
	}
	day, err := parseDate(in.Date)
	if err != nil {
		return "", err
	}
	minute, err := slots.ParseHHMM(in.Time)
	if err != nil {
		return "", errDateTime
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return "", err
	}
	svc, pro := st.Services[in.ServiceID], st.Professionals[in.ProfessionalID]
	if svc == nil || !svc.Active || pro == nil || !pro.Active {
		return "", errOwnerChoice
	}
	now := s.Clock.Now()
	ds := day.Format("2006-01-02")
	if ds < schedule.LastDay(now, st.Loc, -ownerBack) || ds > schedule.LastDay(now, st.Loc, ownerAhead) {
		return "", errOwnerRange
	}
	start := slots.At(day, minute, st.Loc)
	if slots.Clock(start, st.Loc) != in.Time {
		return "", errDateTime // a time the clocks skip that day
	}
	local := time.Unix(start*60, 0).In(st.Loc)
	id := uuid.NewString()
	err = s.DB.InTx(ctx, func(tx *db.Tx) error {
		lock := Lock{OwnerID: ownerID, Professionals: []string{pro.ID}, Date: day, Loc: st.Loc}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			if busy[pro.ID] == nil {
				return errOwnerChoice // deleted since the setup was read
			}
			return s.mayHold(st, pro, svc, day, start, busy, in.OutsideHours)
		}, func() error {
			token, hash := auth.OpaqueToken()
			stamp := s.Clock.Now()
			if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents,
			buffer_before, buffer_after, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, search_key, client_key, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?)`,
				id, ownerID, pro.ID, svc.ID, pro.Name, svc.Name, svc.Duration, svc.PriceCents, svc.Before, svc.After,
				in.ClientName, in.ClientEmail, in.ClientPhone, in.Notes, ds, in.Time, local.UTC(), hash, SearchKey(in.ClientName, in.ClientEmail), ClientKey(in.ClientPhone, in.ClientEmail), stamp, stamp); err != nil {
				return err
			}
			desc := fmt.Sprintf("%s: %s com %s em %s às %s, registrado na agenda.", in.ClientName, svc.Name, pro.Name, brfmt.Date(ds), in.Time)
			if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Agendamento criado", desc, id); err != nil {
				return err
			}
			if !in.NotifyClient || in.ClientEmail == "" || s.Mailer == nil {
				return nil
			}
			b := booked{Booked: &Booked{ID: id, Date: ds, Time: in.Time, ProfessionalName: pro.Name, ServiceName: svc.Name, Duration: svc.Duration,
				PriceCents: svc.PriceCents, CancelToken: token}, ClientName: in.ClientName, ClientEmail: in.ClientEmail, ClientPhone: in.ClientPhone,
				OwnerID: ownerID, OwnerName: st.Name, Start: local}
			return s.confirmToClient(ctx, tx, stamp, b)
		})
	})
	if err != nil {
		return "", err
	}
	return id, nil
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
}

var (
	errNotMovable  = httpx.NewError(http.StatusConflict, "not_movable", "Só agendamentos confirmados podem ser remarcados.")
	errMoveMissing = httpx.NewError(http.StatusNotFound, "not_found", "Agendamento não encontrado.")
)

// current is what a reschedule starts from.
type current struct {
	status, professionalID, serviceID, professionalName, serviceName string
	date, time, clientName, clientEmail                              string
	duration, before, after, sequence                                int
	price                                                            int64
}

// Reschedule moves a confirmed appointment to another date and time (and
// professional or service), with the same guarantees as Create: the same
// hold, never over another appointment or a block, outside the hours only
// with OutsideHours. Its invite's sequence goes up, so the client's calendar
// moves the event; with NotifyClient (and an e-mail) the client gets the
// updated invite, a new cancel link and the reminder of the new time.
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
	ds := day.Format("2006-01-02")
	if ds < schedule.LastDay(now, st.Loc, -ownerBack) || ds > schedule.LastDay(now, st.Loc, ownerAhead) {
		return errOwnerRange
	}
	start := slots.At(day, minute, st.Loc)
	if slots.Clock(start, st.Loc) != in.Time {
		return errDateTime
	}
	local := time.Unix(start*60, 0).In(st.Loc)
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		var c current
		var pro, svc sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT status, professional_id, service_id, professional_name, service_name, appointment_date, appointment_time,
			client_name, client_email, duration, buffer_before, buffer_after, sequence, price_cents FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
			Scan(&c.status, &pro, &svc, &c.professionalName, &c.serviceName, &c.date, &c.time, &c.clientName, &c.clientEmail, &c.duration, &c.before, &c.after, &c.sequence, &c.price)
		if errors.Is(err, sql.ErrNoRows) {
			return errMoveMissing
		}
		if err != nil {
			return err
		}
		c.professionalID, c.serviceID = pro.String, svc.String
		// Who and what: the appointment's own, or the new choice (active).
		proID := cmp.Or(in.ProfessionalID, c.professionalID)
		p := st.Professionals[proID]
		if p == nil || (!p.Active && proID != c.professionalID) {
			return errOwnerChoice
		}
		what := schedule.Service{ID: c.serviceID, Name: c.serviceName, Duration: c.duration, Before: c.before, After: c.after, PriceCents: c.price, Active: true}
		if in.ServiceID != "" && in.ServiceID != c.serviceID {
			other := st.Services[in.ServiceID]
			if other == nil || !other.Active {
				return errOwnerChoice
			}
			what = *other
		}
		lock := Lock{OwnerID: ownerID, Professionals: []string{p.ID}, Date: day, Loc: st.Loc, Except: id}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			// The status as it stands under the lock: only a confirmed appointment moves.
			if err := tx.QueryRowContext(ctx, `SELECT status FROM appointments WHERE id = ?`, id).Scan(&c.status); err != nil {
				return err
			}
			if c.status != "confirmed" {
				return errNotMovable
			}
			if busy[p.ID] == nil {
				return errOwnerChoice
			}
			return s.mayHold(st, p, &what, day, start, busy, in.OutsideHours)
		}, func() error {
			stamp := s.Clock.Now()
			token, hash := auth.OpaqueToken()
			var pid any = p.ID
			if _, err := tx.ExecContext(ctx, `UPDATE appointments SET professional_id = ?, professional_name = ?, service_id = ?, service_name = ?, duration = ?,
				price_cents = ?, buffer_before = ?, buffer_after = ?, appointment_date = ?, appointment_time = ?, starts_at = ?, sequence = sequence + 1,
				cancel_token_hash = ?, updated_at = ? WHERE id = ? AND user_id = ?`,
				pid, p.Name, nullable(what.ID), what.Name, what.Duration, what.PriceCents, what.Before, what.After, ds, in.Time, local.UTC(), hash, stamp, id, ownerID); err != nil {
				return err
			}
			desc := fmt.Sprintf("%s: %s com %s passou de %s às %s para %s às %s.", c.clientName, what.Name, p.Name, brfmt.Date(c.date), c.time, brfmt.Date(ds), in.Time)
			if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Agendamento remarcado", desc, id); err != nil {
				return err
			}
			if !in.NotifyClient || c.clientEmail == "" || s.Mailer == nil {
				return nil
			}
			b := booked{Booked: &Booked{ID: id, Date: ds, Time: in.Time, ProfessionalName: p.Name, ServiceName: what.Name, Duration: what.Duration,
				PriceCents: what.PriceCents, CancelToken: token}, ClientName: c.clientName, ClientEmail: c.clientEmail,
				OwnerID: ownerID, OwnerName: st.Name, Start: local, Sequence: c.sequence + 1, Moved: true}
			return s.confirmToClient(ctx, tx, stamp, b)
		})
	})
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
		return s.Mailer.Queue(ctx, tx, msg)
	})
}
