package booking_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

// busy_days (kept by triggers, what the public pages read) counts as
// holding time exactly the statuses that booking.Holds does (what a hold
// decides with): inserted with each status, and moved into each status.
func TestSchema_BusyDaysCountTheStatusesBookingHolds(t *testing.T) {
	statuses := []string{"confirmed", "awaiting_deposit", "cancelled", "completed", "no_show"}
	for _, s := range booking.HoldingStatuses {
		if !slices.Contains(statuses, s) {
			t.Fatalf("a holding status %q this test does not know", s)
		}
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		owner, pro := uuid.NewString(), uuid.NewString()
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, 'x', ?, ?)`, []any{owner, owner + "@example.com", now, now}},
			{`INSERT INTO professionals (id, user_id, name, specialization, created_at, updated_at) VALUES (?, ?, 'Ana', '', ?, ?)`, []any{pro, owner, now, now}},
		} {
			if _, err := d.ExecContext(ctx, q.sql, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		busy := func(date string) bool {
			var n int
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM busy_days WHERE professional_id = ? AND busy_date = ?`, pro, date).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n > 0
		}
		for i, status := range statuses {
			date := time.Date(2026, 12, 1+i, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
			later := time.Date(2026, 12, 11+i, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
			for _, c := range []struct{ date, first string }{{date, status}, {later, "cancelled"}} {
				_, err := d.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, professional_name, service_name, duration, price_cents,
					client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, search_key, client_key, created_at, updated_at)
					VALUES (?, ?, ?, 'Ana', 'Sessão', 60, 0, 'C', '', '', '', ?, '10:00', ?, ?, ?, 'c', 'c', ?, ?)`,
					uuid.NewString(), owner, pro, c.date, now, c.first, uuid.NewString(), now, now)
				if err != nil {
					t.Fatal(err)
				}
			}
			if got, want := busy(date), booking.Holds(status); got != want {
				t.Errorf("inserted %s: busy_days holds it %v, booking.Holds %v", status, got, want)
			}
			if _, err := d.ExecContext(ctx, `UPDATE appointments SET status = ? WHERE professional_id = ? AND appointment_date = ?`, status, pro, later); err != nil {
				t.Fatal(err)
			}
			if got, want := busy(later), booking.Holds(status); got != want {
				t.Errorf("moved to %s: busy_days holds it %v, booking.Holds %v", status, got, want)
			}
		}
	})
}
