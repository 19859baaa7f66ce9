package hours_test

import (
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

type week struct {
	Configured bool
	Days       []struct {
		DayOfWeek  int
		Enabled    bool
		Start, End string
	}
}

func TestHours_DefaultsThenSaveReplacesTheWeekAndRefusesEndBeforeStart(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var w week
		c.Do("GET", "/api/availability", nil).JSON(t, &w)
		if w.Configured || len(w.Days) != 7 || w.Days[0].Enabled || w.Days[0].End != "17:00" || !w.Days[1].Enabled ||
			w.Days[1].End != "19:00" || w.Days[6].Enabled || w.Days[6].End != "13:00" {
			t.Fatalf("defaults: %+v", w)
		}
		days := func(start, end string) map[string]any {
			var ds []map[string]any
			for d := range 7 {
				ds = append(ds, map[string]any{"dayOfWeek": d, "enabled": d == 2 || d == 6, "start": start, "end": end})
			}
			return map[string]any{"days": ds}
		}
		r := c.Do("PUT", "/api/availability", days("12:00", "09:00"))
		if r.StatusCode != 400 || r.Err(t).Error.Message != "O horário de término deve ser depois do início (Terça-feira)." {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("PUT", "/api/availability", days("9h", "12:00")); r.StatusCode != 400 {
			t.Fatal("bad time format")
		}
		c.Do("PUT", "/api/availability", days("08:00", "12:30")).JSON(t, &w)
		if !w.Configured || w.Days[1].Enabled || !w.Days[2].Enabled || w.Days[2].Start != "08:00" || !w.Days[6].Enabled {
			t.Fatalf("saved: %+v", w)
		}
	})
}
