package agenda_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// seedMany gives one owner n appointments over two years (a year back, a
// year ahead), 5 professionals' worth of clients, in one transaction.
func seedMany(b *testing.B, e *servertest.Env, s *shop, n int) {
	b.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2025, 11, 23, 0, 0, 0, 0, time.UTC)
	statuses := []string{"confirmed", "confirmed", "confirmed", "completed", "cancelled"}
	err := e.DB.InTx(ctx, func(tx *db.Tx) error {
		for range n {
			day := start.AddDate(0, 0, rng.IntN(730))
			at := fmt.Sprintf("%02d:%02d", 8+rng.IntN(10), 30*rng.IntN(2))
			client := rng.IntN(5000)
			name := fmt.Sprintf("Cliente %d", client)
			email := fmt.Sprintf("cliente%d@example.com", client)
			phone := ""
			if client%2 == 0 {
				phone = fmt.Sprintf("119%08d", client)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
				duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status,
				cancel_token_hash, search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, 'Ana', 'Sessão', 60, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				uuid.NewString(), s.ownerID, s.pro, s.svc, 5000+rng.IntN(20000), name, email, phone, day.Format("2006-01-02"), at, day,
				statuses[rng.IntN(len(statuses))], uuid.NewString(), booking.SearchKey(name, email), booking.ClientKey(phone, email), day, day); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	// Steady state, as autovacuum/analyze would leave it: statistics for the
	// planner, and PostgreSQL's visibility map for index-only scans.
	maintain := "ANALYZE"
	if e.DB.Dialect == db.Postgres {
		maintain = "VACUUM ANALYZE appointments"
	}
	if _, err := e.DB.ExecContext(ctx, maintain); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOwnerScreens_100kAppointments times each owner screen's API call
// against one owner with 100,000 appointments, on each engine. Run with
// `make bench`; ns/op is the latency of one call over loopback HTTP.
func BenchmarkOwnerScreens_100kAppointments(b *testing.B) {
	for _, dialect := range dbtest.Dialects(b) {
		e := servertest.Start(b, dialect)
		s := setup(b, e, "dona@example.com", "dona")
		seedMany(b, e, s, 100_000)
		calls := map[string]string{
			"dashboard":     "/api/dashboard",
			"agenda_day":    "/api/appointments?from=2026-11-24&to=2026-11-24",
			"agenda_week":   "/api/appointments?from=2026-11-23&to=2026-11-29",
			"agenda_month":  "/api/appointments?from=2026-10-26&to=2026-12-06",
			"agenda_search": "/api/appointments?from=2026-10-26&to=2026-12-06&q=cliente%2042",
			"clients_page":  "/api/clients?limit=50",
			"clients_csv":   "/api/clients/export",
			"reports":       "/api/reports",
		}
		for _, name := range []string{"dashboard", "agenda_day", "agenda_week", "agenda_month", "agenda_search", "clients_page", "clients_csv", "reports"} {
			b.Run(string(dialect)+"/"+name, func(b *testing.B) {
				for b.Loop() {
					if r := s.owner.Do("GET", calls[name], nil); r.StatusCode != http.StatusOK {
						b.Fatalf("%s: %d", name, r.StatusCode)
					}
				}
			})
		}
	}
}
