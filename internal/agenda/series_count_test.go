package agenda_test

import (
	"slices"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// A weekly series whose dates are partly taken keeps its count: the preview
// offers free times of each taken date's week; the owner moves a session to
// one of them, or lets the series run past its end (extend) — never over
// another appointment.
func TestSeries_KeepsItsCountByMovingOrExtending(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		// Another client holds the series' third date at its time.
		bookedID(t, s.publicBook(e, "dona", "10.3.0.1", "2026-12-15", "10:00"))
		series := func(repeat map[string]any) map[string]any {
			return map[string]any{"date": "2026-12-01", "time": "10:00", "clientName": "Paciente Fiel", "repeat": repeat}
		}
		var preview struct {
			Occurrences []struct {
				Date, Code, To, Time string
				Added                bool
				Alternatives         []string
			}
		}
		r := s.owner.Do("POST", "/api/appointments/preview", mergeBody(s, series(map[string]any{"every": "week", "count": 4})))
		if r.StatusCode != 200 {
			t.Fatalf("preview: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &preview)
		taken := preview.Occurrences[2]
		if taken.Date != "2026-12-15" || taken.Code != "slot_unavailable" || len(taken.Alternatives) == 0 {
			t.Fatalf("the taken date: %+v", taken)
		}
		// The nearest is the same date, next to the wanted time.
		if taken.Alternatives[0] != "2026-12-15 09:00" && taken.Alternatives[0] != "2026-12-15 11:00" {
			t.Fatalf("alternatives: %v", taken.Alternatives)
		}

		// Extend: four sessions, the taken date replaced by one after the end.
		r = s.owner.Do("POST", "/api/appointments/preview", mergeBody(s, series(map[string]any{"every": "week", "count": 4, "extend": true})))
		r.JSON(t, &preview)
		var dates []string
		for _, oc := range preview.Occurrences {
			if oc.Code == "" {
				dates = append(dates, oc.To)
			}
		}
		if !slices.Equal(dates, []string{"2026-12-01", "2026-12-08", "2026-12-22", "2026-12-29"}) || !preview.Occurrences[len(preview.Occurrences)-1].Added {
			t.Fatalf("extended: %+v", preview.Occurrences)
		}
		if r := s.create(series(map[string]any{"every": "week", "count": 4, "extend": true})); r.StatusCode != 201 {
			t.Fatalf("create extended: %d %s", r.StatusCode, r.Body)
		}
		if got := names(t, s.owner, "from=2026-12-01&to=2027-01-31&q=Fiel"); !slices.Equal(got, []string{"Paciente Fiel@12-01T10:00", "Paciente Fiel@12-08T10:00", "Paciente Fiel@12-22T10:00", "Paciente Fiel@12-29T10:00"}) {
			t.Fatalf("sessions: %v", got)
		}

		// Move: the taken date's session goes to an offered time of its week.
		bookedID(t, s.publicBook(e, "dona", "10.3.0.2", "2027-01-19", "15:00"))
		move := series(map[string]any{"every": "week", "count": 3, "moves": []map[string]string{{"date": "2027-01-19", "to": "2027-01-20", "time": "16:00"}}})
		move["date"], move["time"], move["clientName"] = "2027-01-05", "15:00", "Paciente Movida"
		if r := s.create(move); r.StatusCode != 201 {
			t.Fatalf("create with a moved session: %d %s", r.StatusCode, r.Body)
		}
		if got := names(t, s.owner, "from=2027-01-01&to=2027-01-31&q=Movida"); !slices.Equal(got, []string{"Paciente Movida@01-05T15:00", "Paciente Movida@01-12T15:00", "Paciente Movida@01-20T16:00"}) {
			t.Fatalf("moved sessions: %v", got)
		}
		// A move onto a taken time is refused whole; one outside the week is not a move.
		bad := series(map[string]any{"every": "week", "count": 2, "moves": []map[string]string{{"date": "2027-01-20", "to": "2027-01-20", "time": "16:00"}}})
		bad["date"], bad["time"], bad["clientName"] = "2027-01-13", "09:00", "Paciente Errada"
		if r := s.create(bad); r.StatusCode != 409 || r.Err(t).Error.Code != "series_conflicts" {
			t.Fatalf("a session moved onto another appointment: %d %s", r.StatusCode, r.Body)
		}
		bad["repeat"] = map[string]any{"every": "week", "count": 2, "moves": []map[string]string{{"date": "2027-01-20", "to": "2027-01-28", "time": "15:00"}}}
		if r := s.create(bad); r.StatusCode != 400 {
			t.Fatalf("a move outside the week: %d %s", r.StatusCode, r.Body)
		}
		if got := overlaps(t, e, s.ownerID); len(got) > 0 {
			t.Fatalf("overlaps: %v", got)
		}
	})
}
