package reports_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/server/servertest"
)

// A deposit kept on a no-show or a late cancellation is revenue (issue 29):
// the overview counts it in the realized revenue, and the monthly chart must
// count it in its appointment's month the same way — while a returned one or
// one paid for an attended appointment (its price already counted) adds
// nothing. Last month by hand: attended R$ 320,00, the no-show's kept R$ 50,00
// and the late cancellation's kept R$ 25,00; Ana's share R$ 200,00 + 75,00.
func TestReports_MonthlyRevenueCountsRetainedDepositsAsTheOverview(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c, pros := owner(t, e, rows)
		ctx := context.Background()
		deposit := func(date, at, state string, cents int64) {
			t.Helper()
			var id, user string
			if err := e.DB.QueryRowContext(ctx, `SELECT id, user_id FROM appointments WHERE appointment_date = ? AND appointment_time = ?`, date, at).Scan(&id, &user); err != nil {
				t.Fatal(err)
			}
			now := e.Clock.Now()
			if _, err := e.DB.ExecContext(ctx, `INSERT INTO deposits (appointment_id, user_id, amount_cents, state, reference, expires_at, paid_at, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, user, cents, state, uuid.NewString(), now, now, now, now); err != nil {
				t.Fatal(err)
			}
		}
		deposit("2026-10-15", "10:00", "retained", 5000) // no-show, kept
		deposit("2026-10-20", "11:00", "retained", 2500) // late cancellation, kept
		deposit("2026-10-31", "17:00", "paid", 3000)     // attended: its price is the revenue
		deposit("2026-11-28", "10:00", "returned", 4000) // cancelled in time, given back

		for _, q := range []struct {
			query string
			want  int
		}{{"?period=last_month", 32000 + 7500}, {"?period=last_month&professional=" + pros["Ana"], 20000 + 7500}, {"?period=custom&from=2026-11-01&to=2026-11-30", 9400}} {
			r := get(t, c, q.query)
			month := r.MonthlyRevenue[len(r.MonthlyRevenue)-1]
			if r.Overview.RealizedCents != q.want || month.RealizedCents != q.want {
				t.Fatalf("%s: overview %d, chart's %s %d, want both %d", q.query, r.Overview.RealizedCents, month.Month, month.RealizedCents, q.want)
			}
		}
	})
}
