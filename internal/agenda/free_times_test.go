package agenda_test

import (
	"slices"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

func (s *shop) ownerTimes(t *testing.T, query string) []string {
	t.Helper()
	var out struct{ Times []string }
	r := s.owner.Do("GET", "/api/agenda/free-times?"+query, nil)
	if r.StatusCode != 200 {
		t.Fatalf("free times %s: %d %s", query, r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	return out.Times
}

// "Novo agendamento" and "Remarcar" list the professional's free times from
// the public page's engine: another appointment (with the buffers), a block
// and the hours take time out; today starts from now; a move lists the
// times with the appointment itself out of the way.
func TestOwnerFreeTimes_AreThePublicEnginesTimes(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		var a struct{ ID string }
		if r := s.create(map[string]any{"date": "2026-11-30", "time": "10:00"}); r.StatusCode != 201 {
			t.Fatalf("create: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &a)
		}
		if r := s.owner.Do("POST", "/api/blocks", map[string]any{"professionalId": s.pro, "date": "2026-11-30", "start": "14:00", "end": "15:00", "reason": "almoço"}); r.StatusCode != 201 {
			t.Fatalf("block: %d %s", r.StatusCode, r.Body)
		}
		q := "professional=" + s.pro + "&service=" + s.svc + "&date=2026-11-30"
		got := s.ownerTimes(t, q)
		for _, want := range []string{"08:00", "09:00", "11:00", "13:00", "15:00", "19:00"} {
			if !slices.Contains(got, want) {
				t.Fatalf("%s missing from %v", want, got)
			}
		}
		for _, taken := range []string{"09:30", "10:00", "10:30", "13:30", "14:00", "14:30", "19:30"} {
			if slices.Contains(got, taken) {
				t.Fatalf("%s offered in %v", taken, got)
			}
		}
		if pub := publicTimes(t, e, s, "2026-11-30"); !slices.Equal(pub, got) {
			t.Fatalf("owner %v, public page %v", got, pub)
		}
		// Moving the 10:00 appointment: its own time is free to it.
		if moving := s.ownerTimes(t, q+"&appointment="+a.ID); !slices.Contains(moving, "10:00") || !slices.Contains(moving, "09:30") || slices.Contains(moving, "14:00") {
			t.Fatalf("times to move to: %v", moving)
		}
		// Today (the clock stands at 09:00): from now on.
		if today := s.ownerTimes(t, "professional="+s.pro+"&service="+s.svc+"&date=2026-11-23"); len(today) == 0 || today[0] != "09:00" {
			t.Fatalf("today: %v", today)
		}
		for _, bad := range []string{"professional=x&service=" + s.svc + "&date=2026-11-30", q[:len(q)-len("2026-11-30")] + "30/11/2026", "professional=" + s.pro + "&date=2026-11-30"} {
			if r := s.owner.Do("GET", "/api/agenda/free-times?"+bad, nil); r.StatusCode != 400 {
				t.Fatalf("%s: %d %s", bad, r.StatusCode, r.Body)
			}
		}
		stranger := setup(t, e, "outra@example.com", "outra")
		if r := stranger.owner.Do("GET", "/api/agenda/free-times?professional="+stranger.pro+"&service="+stranger.svc+"&date=2026-11-30&appointment="+a.ID, nil); r.StatusCode != 404 {
			t.Fatalf("another owner's appointment: %d %s", r.StatusCode, r.Body)
		}
		if r := e.Client().Do("GET", "/api/agenda/free-times?"+q, nil); r.StatusCode != 401 {
			t.Fatalf("signed out: %d", r.StatusCode)
		}
	})
}
