package schedule_test

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/schedule"
)

// An owner's setup is read whole (one round trip on PostgreSQL), and the
// requests that want it at once share one read.
func TestCache_ReadsASetupWholeAndOnceForConcurrentRequests(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
		trial := now.AddDate(0, 0, 7)
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('o1', 'o1@example.com', 'x', ?, ?)`, []any{now, now}},
			{`INSERT INTO profiles (id, name, public_username, trial_ends_at, created_at, updated_at) VALUES ('o1', 'Clínica', 'clinica', ?, ?, ?)`, []any{trial, now, now}},
			{`INSERT INTO professionals (id, user_id, name, specialization, created_at, updated_at) VALUES ('p1', 'o1', 'Ana', 'Psicóloga', ?, ?)`, []any{now, now}},
			{`INSERT INTO services (id, user_id, name, duration, price_cents, buffer_before, buffer_after, created_at, updated_at) VALUES ('s1', 'o1', 'Sessão', 50, 15000, 5, 10, ?, ?)`, []any{now, now}},
			{`INSERT INTO availability (id, user_id, day_of_week, start_time, end_time) VALUES ('w1', 'o1', 1, '13:30', '18:00'), ('w2', 'o1', 1, '08:00', '12:00')`, nil},
			{`INSERT INTO days_off (id, user_id, start_date, end_date, reason, created_at) VALUES ('d1', 'o1', '2026-12-21', '2026-12-31', 'férias', ?)`, []any{now}},
		} {
			if _, err := d.ExecContext(ctx, q.sql, q.args...); err != nil {
				t.Fatalf("%s: %v", q.sql, err)
			}
		}
		c := &schedule.Cache{DB: d}
		const n = 16
		got := make([]*schedule.Setup, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				s, err := c.Get(ctx, "o1", 3)
				if err != nil {
					t.Error(err)
				}
				got[i] = s
			}()
		}
		close(start)
		wg.Wait()
		for _, s := range got[1:] {
			if s != got[0] {
				t.Fatal("requests at once read the setup more than once")
			}
		}
		s := got[0]
		monday := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
		if s.Name != "Clínica" || s.Username != "clinica" || s.TrialEnd == nil || !s.TrialEnd.Equal(trial) || s.Loc == nil ||
			s.Services["s1"].After != 10 || s.Professionals["p1"].Name != "Ana" ||
			s.Plan("p1", monday).String() != "08:00–12:00, 13:30–18:00" || s.Plan("p1", monday.AddDate(0, 0, 14)).Label != "Folga: férias" {
			t.Fatalf("setup read: %+v, %s", s, s.Plan("p1", monday))
		}
		if _, err := c.Get(ctx, "nobody", 1); !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("a missing owner: %v", err)
		}
	})
}
