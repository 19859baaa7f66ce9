package connect

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Health is what a provider's webhook last heard, one row per owner in
// Table (user_id, last_valid_at, last_refused_at): a notice that proved
// itself (its signature verified) and one that did not. A refusal newer
// than the last valid notice usually means the secret kept on the profile
// is not the provider's: the card says so. Kept apart from the account so
// a notice does not bump the owner's data version.
type Health struct {
	DB    *db.DB
	Clock clock.Clock
	Table string
}

// Heard records a notice now: valid, or refused for its signature. A fault
// here is logged, never the notice's answer.
func (h *Health) Heard(ctx context.Context, userID string, valid bool) {
	column := "last_refused_at"
	if valid {
		column = "last_valid_at"
	}
	_, err := h.DB.ExecContext(ctx, `INSERT INTO `+h.Table+` (user_id, `+column+`) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET `+column+` = excluded.`+column, userID, h.Clock.Now().UTC())
	if err != nil {
		httpx.Logger(ctx).Warn("webhook health not recorded", "table", h.Table, "err", err)
	}
}

// Forget drops the refusals heard so far: they were heard under a secret
// that was just replaced, and say nothing of the new one.
func (h *Health) Forget(ctx context.Context, q db.Querier, userID string) error {
	_, err := q.ExecContext(ctx, `UPDATE `+h.Table+` SET last_refused_at = NULL WHERE user_id = ?`, userID)
	return err
}

// Report is the health as a card shows it: the last valid notice, and the
// last refusal when it is newer than that (nil: none).
type Report struct {
	LastValidAt *time.Time
	RefusedAt   *time.Time
}

// Read is an owner's report.
func (h *Health) Read(ctx context.Context, userID string) (Report, error) {
	var valid, refused sql.NullTime
	err := h.DB.QueryRowContext(ctx, `SELECT last_valid_at, last_refused_at FROM `+h.Table+` WHERE user_id = ?`, userID).Scan(&valid, &refused)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Report{}, err
	}
	var r Report
	if valid.Valid {
		t := valid.Time.UTC()
		r.LastValidAt = &t
	}
	if refused.Valid && (!valid.Valid || refused.Time.After(valid.Time)) {
		t := refused.Time.UTC()
		r.RefusedAt = &t
	}
	return r, nil
}
