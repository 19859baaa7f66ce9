package agenda_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// A series that keeps its count holds time the plain series would not: the
// session added past its end (extend) and a session moved to another time
// of its week (moves). Both are decided on the serialised path, so a client
// booking that very time at the same moment never makes two holders: one of
// them wins, and an extended series that loses goes one week further.
func TestSeries_ExtendedAndMovedSessionsRacingABookingNeverMakeTwoHolders(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		race := func(series map[string]any, date, at, ip string) (created, booked int) {
			var wg sync.WaitGroup
			start := make(chan struct{})
			wg.Add(2)
			go func() {
				defer wg.Done()
				<-start
				created = s.create(series).StatusCode
			}()
			go func() {
				defer wg.Done()
				<-start
				booked = s.publicBook(e, "dona", ip, date, at).StatusCode
			}()
			close(start)
			wg.Wait()
			return created, booked
		}
		for i := range 12 { // one hour of the day per round
			at := fmt.Sprintf("%02d:00", 8+i)
			// Extend: 07/12, 14/12 (taken) and 21/12 → the taken one becomes 28/12.
			bookedID(t, s.publicBook(e, "dona", fmt.Sprintf("10.4.%d.1", i), "2026-12-14", at))
			extended := map[string]any{"date": "2026-12-07", "time": at, "clientName": fmt.Sprintf("Estendida %d", i),
				"repeat": map[string]any{"every": "week", "count": 3, "extend": true}}
			created, booked := race(extended, "2026-12-28", at, fmt.Sprintf("10.4.%d.2", i))
			if n := holders(t, e, s.pro, "2026-12-28", at); n != 1 {
				t.Fatalf("round %d extend: %d holders of 28/12 %s (series %d, booking %d)", i, n, at, created, booked)
			}
			if created != 201 && created != 409 || booked != 201 && booked != 409 || created != 201 && booked != 201 {
				t.Fatalf("round %d extend: series %d, booking %d", i, created, booked)
			}
			if created == 201 && booked == 201 && holders(t, e, s.pro, "2027-01-04", at) != 1 {
				t.Fatalf("round %d extend: the series lost 28/12 but did not keep its count on 04/01", i)
			}

			// Moves: 11/01, 18/01 (taken) moved to 19/01 at the same hour.
			bookedID(t, s.publicBook(e, "dona", fmt.Sprintf("10.5.%d.1", i), "2027-01-18", at))
			moved := map[string]any{"date": "2027-01-11", "time": at, "clientName": fmt.Sprintf("Movida %d", i),
				"repeat": map[string]any{"every": "week", "count": 2, "moves": []map[string]string{{"date": "2027-01-18", "to": "2027-01-19", "time": at}}}}
			created, booked = race(moved, "2027-01-19", at, fmt.Sprintf("10.5.%d.2", i))
			if n := holders(t, e, s.pro, "2027-01-19", at); n != 1 {
				t.Fatalf("round %d move: %d holders of 19/01 %s (series %d, booking %d)", i, n, at, created, booked)
			}
			if won := (created == 201) != (booked == 201); !won || created != 201 && created != 409 || booked != 201 && booked != 409 {
				t.Fatalf("round %d move: series %d, booking %d; want exactly one winner and a 409", i, created, booked)
			}
		}
	})
}
