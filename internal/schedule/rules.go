// Booking rules (/api/schedule-rules): the step between offered times, the
// notice, the booking window and the cancellation cutoff.

package schedule

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Rules returns the owner's booking rules.
func (s *Settings) Rules(ctx context.Context, userID string) (*Rules, error) {
	var r Rules
	err := s.DB.QueryRowContext(ctx, `SELECT slot_step, min_notice_minutes, booking_window_days, cancel_cutoff_hours FROM profiles WHERE id = ?`, userID).
		Scan(&r.SlotStep, &r.MinNoticeMinutes, &r.BookingWindowDays, &r.CancelCutoffHours)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	return &r, err
}

// SaveRules checks and saves the booking rules.
func (s *Settings) SaveRules(ctx context.Context, userID string, r Rules) (*Rules, error) {
	switch {
	case r.SlotStep != 0 && r.SlotStep != 15 && r.SlotStep != 30 && r.SlotStep != 60:
		return nil, errStep
	case r.MinNoticeMinutes < 0 || r.MinNoticeMinutes > 43200:
		return nil, errNotice
	case r.BookingWindowDays < 1 || r.BookingWindowDays > 365:
		return nil, errWindow
	case r.CancelCutoffHours < 0 || r.CancelCutoffHours > 720:
		return nil, errCutoff
	}
	err := s.DB.OwnerExec(ctx, userID, errNotFound, `UPDATE profiles SET slot_step = ?, min_notice_minutes = ?, booking_window_days = ?, cancel_cutoff_hours = ? WHERE id = ?`,
		r.SlotStep, r.MinNoticeMinutes, r.BookingWindowDays, r.CancelCutoffHours, userID)
	if err != nil {
		return nil, err
	}
	return s.Rules(ctx, userID)
}

func (h *SettingsHandlers) getRules(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	out, err := h.Settings.Rules(r.Context(), uid)
	return httpx.Respond(w, http.StatusOK, out, err)
}

func (h *SettingsHandlers) saveRules(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	var in Rules
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Settings.SaveRules(r.Context(), uid, in)
	return httpx.Respond(w, http.StatusOK, out, err)
}
