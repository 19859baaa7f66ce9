package agenda_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/benchseed"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// seedMany gives one owner n appointments over two years (a year back, a
// year ahead).
func seedMany(b *testing.B, e *servertest.Env, s *shop, n int) {
	b.Helper()
	err := benchseed.Appointments(context.Background(), e.DB, s.ownerID, []benchseed.Ref{{ID: s.pro, Name: "Ana"}},
		[]benchseed.Ref{{ID: s.svc, Name: "Sessão"}}, n, time.Date(2025, 11, 23, 0, 0, 0, 0, time.UTC))
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOwnerScreens_100kAppointments times each owner screen's API call
// against one owner with 100,000 appointments, on each engine, computed
// (cold) and from the cache (warm). Run with `make bench`; ns/op is the
// latency of one call over loopback HTTP, response validation included.
func BenchmarkOwnerScreens_100kAppointments(b *testing.B) {
	for _, dialect := range dbtest.Dialects(b) {
		e := servertest.Start(b, dialect)
		s := setup(b, e, "dona@example.com", "dona")
		seedMany(b, e, s, 100_000)
		calls := map[string]string{
			"dashboard":      "/api/dashboard",
			"agenda_day":     "/api/appointments?from=2026-11-24&to=2026-11-24",
			"agenda_week":    "/api/appointments?from=2026-11-23&to=2026-11-29",
			"agenda_month":   "/api/appointments?from=2026-10-26&to=2026-12-06",
			"agenda_search":  "/api/appointments?from=2026-10-26&to=2026-12-06&q=cliente%2042",
			"clients_page":   "/api/clients?limit=50",
			"clients_search": "/api/clients?limit=50&q=cliente%2042",
			"clients_csv":    "/api/clients/export",
			"reports":        "/api/reports",
			"reports_year":   "/api/reports?period=year",
		}
		for _, name := range []string{"dashboard", "agenda_day", "agenda_week", "agenda_month", "agenda_search", "clients_page", "clients_search", "clients_csv", "reports", "reports_year"} {
			// cold: the owner's data changed before every call, so the answer is
			// computed; warm: unchanged, so it comes from the cache.
			for _, cold := range []bool{true, false} {
				variant := map[bool]string{true: "cold", false: "warm"}[cold]
				b.Run(string(dialect)+"/"+name+"/"+variant, func(b *testing.B) {
					for b.Loop() {
						if cold {
							b.StopTimer()
							if _, err := e.DB.ExecContext(context.Background(), `UPDATE data_versions SET version = version + 1 WHERE user_id = ?`, s.ownerID); err != nil {
								b.Fatal(err)
							}
							b.StartTimer()
						}
						if r := s.owner.Do("GET", calls[name], nil); r.StatusCode != http.StatusOK {
							b.Fatalf("%s: %d", name, r.StatusCode)
						}
					}
				})
			}
		}
	}
}
