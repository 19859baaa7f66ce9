package booking

import (
	"context"
	"database/sql"
	"errors"

	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/slots"
)

// OwnerTimesQuery asks for a professional's free start times of a date for
// an owner's "Novo agendamento" or "Remarcar": with Appointment, the times
// that appointment may move to (itself out of the way, decided with the
// shape it will have after the move).
type OwnerTimesQuery struct {
	ProfessionalID, ServiceID, Date, Appointment string
}

// OwnerTimes are the start times an owner's appointment of the service with
// the professional would be accepted at without "Agendar mesmo assim": the
// slot engine of the public page (the professional's windows, breaks, days
// off, holidays and blocks, the service's buffers, the practice's step),
// without the public page's notice and booking window, and on today only
// from now on. Busy time is read from appointments, as the hold reads it.
func (s *Service) OwnerTimes(ctx context.Context, ownerID string, q OwnerTimesQuery) ([]string, error) {
	day, err := parseDate(q.Date)
	if err != nil {
		return nil, err
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return nil, err
	}
	pro := st.Professionals[q.ProfessionalID]
	if pro == nil || (!pro.Active && q.Appointment == "") {
		return nil, errOwnerChoice // a move may keep an inactive professional, as Reschedule does
	}
	now := s.Clock.Now()
	if ds := day.Format("2006-01-02"); ds < schedule.LastDay(now, st.Loc, -ownerBack) || ds > schedule.LastDay(now, st.Loc, ownerAhead) {
		return nil, errOwnerRange
	}
	svc := st.Services[q.ServiceID]
	var except []string
	if q.Appointment != "" {
		var own schedule.Service
		var id sql.NullString
		err := s.DB.QueryRowContext(ctx, `SELECT service_id, service_name, duration, buffer_before, buffer_after, price_cents FROM appointments WHERE id = ? AND user_id = ?`,
			q.Appointment, ownerID).Scan(&id, &own.Name, &own.Duration, &own.Before, &own.After, &own.PriceCents)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errMoveMissing
		}
		if err != nil {
			return nil, err
		}
		own.ID, own.Active = id.String, true
		if svc, err = movedShape(st, own, q.ServiceID); err != nil {
			return nil, err
		}
		except = []string{q.Appointment}
	} else if svc == nil || !svc.Active {
		return nil, errOwnerChoice
	}
	busy, err := readBusy(ctx, s.DB, ownerID, st.Loc, []string{pro.ID}, day.AddDate(0, 0, -slots.ReachDays), day.AddDate(0, 0, slots.ReachDays), except...)
	if err != nil {
		return nil, err
	}
	d, _ := s.dayOf(st, pro, svc, day, busy.Near(pro.ID, day))
	d.Notice = 0
	if day.Format("2006-01-02") != slots.Today(now, st.Loc) {
		d.Now = 0 // an owner records past dates and books any future one
	}
	return clockTimes(slots.Free(d), st.Loc), nil
}
