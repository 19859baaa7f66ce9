// Cancelling an appointment a block or a day off covers, as part of the
// owner's plan saved with it (schedule.AddBlock, schedule.AddDayOff): in
// the caller's transaction, so the block, its cancellations and their
// notices commit together or not at all.

package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"

	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/freed"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

var errNotConfirmed = httpx.NewError(http.StatusConflict, "plan_changed",
	"Um dos agendamentos que você escolheu cancelar já não está confirmado. Revise a lista e tente de novo.")

// CancelAffected cancels a confirmed appointment of the owner inside tx (the
// owner's lock and the professionals' already taken by the caller): its
// deposit follows, its time goes to the waitlist, the owner's tabs are
// told, and with notify the client is sent the cancellation. It returns the
// channel that carried the client's notice: "email", or "none" when no
// automatic message could leave (no address) or none was asked ("").
// WhatsApp carries no automatic cancellation today: the owner sends it by
// hand, which the answer tells them to do.
func (s *Service) CancelAffected(ctx context.Context, tx *db.Tx, ownerID, id string, notify bool) (string, error) {
	var pro sql.NullString
	var date, at, status, client, service, proName string
	var duration, before, after int
	err := tx.QueryRowContext(ctx, `SELECT professional_id, appointment_date, appointment_time, status, client_name, service_name, professional_name,
		duration, buffer_before, buffer_after FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).
		Scan(&pro, &date, &at, &status, &client, &service, &proName, &duration, &before, &after)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errNotConfirmed
	}
	if err != nil {
		return "", err
	}
	if !Active(status) {
		return "", errNotConfirmed
	}
	now := s.Clock.Now()
	if _, err := tx.ExecContext(ctx, `UPDATE appointments SET status = 'cancelled', updated_at = ? WHERE id = ? AND user_id = ?`, now, id, ownerID); err != nil {
		return "", err
	}
	if err := deposits.Settle(ctx, tx, ownerID, id, "cancelled", deposits.ByOwner, now); err != nil {
		return "", err
	}
	if err := freed.Tell(ctx, s.Queue, tx, freed.Appointment(ownerID, pro.String, date, at, duration, before, after, now)); err != nil {
		return "", err
	}
	if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Agendamento cancelado",
		fmt.Sprintf("%s: %s com %s em %s às %s.", client, service, proName, brfmt.Date(date), at), id); err != nil {
		return "", err
	}
	if !notify {
		return "", nil
	}
	st, err := s.setupOf(ctx, ownerID)
	if err != nil {
		return "", err
	}
	emailed, pushed, err := s.tellCancelled(ctx, tx, st, ownerID, id)
	if err != nil {
		return "", err
	}
	return channelOf(emailed, false, pushed), nil
}
