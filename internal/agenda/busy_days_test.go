package agenda_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// busy_days, the folded busy time the public pages read, is kept by
// triggers: after any mix of bookings, owner appointments, moves between
// professionals and dates, status changes, and a professional deleted, it
// says exactly what the appointments that hold time say, on both engines.
func TestBusyDays_AlwaysMatchTheAppointments(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		var second struct{ ID string }
		s.owner.Do("POST", "/api/professionals", map[string]string{"name": "Bia", "specialization": "Psicóloga"}).JSON(t, &second)
		pros := []string{s.pro, second.ID}
		rng := rand.New(rand.NewPCG(7, uint64(len(e.DB.Dialect))))
		var ids []string
		date := func() string { return fmt.Sprintf("2026-12-%02d", 1+rng.IntN(4)) }
		at := func() string { return fmt.Sprintf("%02d:%02d", 8+rng.IntN(11), 30*rng.IntN(2)) }
		for i := range 120 {
			switch op := rng.IntN(6); {
			case op <= 1 || len(ids) == 0:
				var a struct{ ID string }
				r := s.create(map[string]any{"professionalId": pros[rng.IntN(2)], "date": date(), "time": at(), "clientName": fmt.Sprintf("Cliente %d", i)})
				if r.StatusCode == 201 {
					r.JSON(t, &a)
					ids = append(ids, a.ID)
				}
			case op == 2:
				s.move(ids[rng.IntN(len(ids))], map[string]any{"date": date(), "time": at(), "professionalId": pros[rng.IntN(2)]})
			default:
				status := []string{"cancelled", "confirmed", "completed"}[rng.IntN(3)]
				s.owner.Do("PATCH", "/api/appointments/"+ids[rng.IntN(len(ids))], map[string]any{"status": status})
			}
			if i%40 == 39 {
				compareBusyDays(t, e)
			}
		}
		if r := s.owner.Do("DELETE", "/api/professionals/"+second.ID, nil); r.StatusCode >= 300 {
			t.Fatalf("delete professional: %d %s", r.StatusCode, r.Body)
		}
		compareBusyDays(t, e)
	})
}

// compareBusyDays checks every busy_days row against the appointments.
func compareBusyDays(t *testing.T, e *servertest.Env) {
	t.Helper()
	ctx := context.Background()
	want := map[string][]string{}
	rows, err := e.DB.QueryContext(ctx, `SELECT professional_id, appointment_date, appointment_time, duration, buffer_before, buffer_after FROM appointments
		WHERE professional_id IS NOT NULL AND status IN ('confirmed', 'completed', 'no_show')`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var pro, date, at string
		var d, b, a int
		if err := rows.Scan(&pro, &date, &at, &d, &b, &a); err != nil {
			t.Fatal(err)
		}
		want[pro+" "+date] = append(want[pro+" "+date], fmt.Sprintf("%s %d %d %d", at, d, b, a))
	}
	rows.Close()
	got := map[string][]string{}
	rows, err = e.DB.QueryContext(ctx, `SELECT professional_id, busy_date, list FROM busy_days`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var pro, date, list string
		if err := rows.Scan(&pro, &date, &list); err != nil {
			t.Fatal(err)
		}
		got[pro+" "+date] = strings.Split(list, ",")
	}
	rows.Close()
	if len(want) == 0 {
		t.Fatal("nothing holds time: the test proves nothing")
	}
	for k := range mergeKeys(want, got) {
		w, g := slices.Sorted(slices.Values(want[k])), slices.Sorted(slices.Values(got[k]))
		if !slices.Equal(w, g) {
			t.Fatalf("busy_days of %s:\n got %v\nwant %v", k, g, w)
		}
	}
}

func mergeKeys(maps ...map[string][]string) map[string]bool {
	out := map[string]bool{}
	for _, m := range maps {
		for k := range m {
			out[k] = true
		}
	}
	return out
}
