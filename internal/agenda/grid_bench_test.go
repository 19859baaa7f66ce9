package agenda_test

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// BenchmarkGrid_100kAppointments times the agenda's day grid at random
// dates of the 100,000-appointment owner's two years, the answer cache
// bypassed (a unique parameter per call), on each engine: the computation
// itself, as the make bench row drives it over HTTP.
func BenchmarkGrid_100kAppointments(b *testing.B) {
	for _, dialect := range dbtest.Dialects(b) {
		e := servertest.Start(b, dialect)
		s := setup(b, e, "dona@example.com", "dona")
		seedMany(b, e, s, 100_000)
		from := time.Date(2025, 11, 23, 0, 0, 0, 0, time.UTC)
		b.Run(string(dialect)+"/day", func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			n := 0
			for b.Loop() {
				n++
				d := from.AddDate(0, 0, r.IntN(730)).Format("2006-01-02")
				if res := s.owner.Do("GET", "/api/agenda/grid?from="+d+"&to="+d+"&bench="+strconv.Itoa(n), nil); res.StatusCode != http.StatusOK {
					b.Fatalf("%d", res.StatusCode)
				}
			}
		})
	}
}
