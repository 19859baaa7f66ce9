// Client reschedule: the times a client may move their booking to from
// their private link, and the move itself.

package booking

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/freed"
	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
)

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
	if !Active(c.Status) || !c.Cancellable {
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
	if !Active(c.Status) || !c.Cancellable {
		if c.pastCutoff(s.Clock.Now()) {
			return nil, errCutoff(c)
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
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		lock := Lock{OwnerID: ownerID, Professionals: []string{pro.ID}, Date: day, Loc: st.Loc, Except: []string{id}}
		return Hold(ctx, tx, lock, func(busy BusyDays) error {
			var status string
			if err := tx.QueryRowContext(ctx, `SELECT status FROM appointments WHERE id = ?`, id).Scan(&status); err != nil {
				return err
			}
			if !Active(status) {
				return errClientMove
			}
			return s.refuse(st, pros, svc, day, start, busy)
		}, func() error {
			now := s.Clock.Now()
			if _, err := tx.ExecContext(ctx, `UPDATE appointments SET appointment_date = ?, appointment_time = ?, starts_at = ?, sequence = sequence + 1, updated_at = ?,
				client_answer = '', client_answer_at = NULL, client_answer_channel = '' WHERE id = ?`, day.Format("2006-01-02"), at, local.UTC(), now, id); err != nil {
				return err
			}
			if err := freed.Tell(ctx, s.Queue, tx, freed.Appointment(ownerID, c.ProfessionalID, oldDate, oldTime, c.Duration, c.before, c.after, now)); err != nil {
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
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errLink // the account was deleted meanwhile
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}
