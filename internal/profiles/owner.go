package profiles

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/schedule"
)

// Zone is the owner's time zone: schedule.Zone, the one read of it.
func Zone(ctx context.Context, q db.Querier, ownerID string) (*time.Location, error) {
	return schedule.Zone(ctx, q, ownerID)
}

// Open reports whether the owner takes online bookings at now (BookingOpen).
// The paid period is read only once the trial is over, so the usual public
// request costs no query for it; the read is one row of subscriptions by its
// key, on q (a booking's transaction, or the database).
func Open(ctx context.Context, q db.Querier, ownerID string, trialEnd *time.Time, now time.Time) (bool, error) {
	if BookingOpen(trialEnd, nil, now) {
		return true, nil
	}
	paid, err := PaidUntil(ctx, q, ownerID)
	if err != nil {
		return false, err
	}
	return BookingOpen(trialEnd, paid, now), nil
}

// PaidUntil is the end of the owner's active paid period, or nil when the
// owner has no active subscription.
func PaidUntil(ctx context.Context, q db.Querier, ownerID string) (*time.Time, error) {
	var end sql.NullTime
	err := q.QueryRowContext(ctx, `SELECT current_period_end FROM subscriptions WHERE user_id = ? AND status = 'active'`, ownerID).Scan(&end)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return nullable(end), nil
}
