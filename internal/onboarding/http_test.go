package onboarding_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

func week() []map[string]any {
	var ds []map[string]any
	for d := range 7 {
		ds = append(ds, map[string]any{"dayOfWeek": d, "enabled": d >= 1 && d <= 5, "start": "09:00", "end": "17:00"})
	}
	return ds
}

func body(username string, services ...map[string]any) map[string]any {
	return map[string]any{"name": "Ana Souza", "area": "Psicologia", "publicUsername": username, "description": "", "services": services, "days": week()}
}

func TestOnboarding_SavesEverythingAndStartsTheTrial(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		r := c.Do("POST", "/api/onboarding", body(" Ana.Souza ",
			map[string]any{"name": "Consulta", "duration": 50, "priceCents": 15000},
			map[string]any{"name": "Retorno", "duration": 30},       // price defaults to 0
			map[string]any{"name": "  ", "duration": 30},            // skipped
			map[string]any{"name": "Sem duração", "duration": nil})) // skipped
		if r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		var res struct{ TrialEndsAt time.Time }
		r.JSON(t, &res)
		if !res.TrialEndsAt.Equal(e.Clock.Now().Add(7 * 24 * time.Hour)) {
			t.Fatalf("trial end %v", res.TrialEndsAt)
		}
		var pub struct {
			Username string
			Services []struct {
				Name       string
				PriceCents int
			}
		}
		e.Client().Do("GET", "/api/public/profiles/ANA.SOUZA", nil).JSON(t, &pub)
		if pub.Username != "ana.souza" || len(pub.Services) != 2 || pub.Services[1].Name != "Retorno" || pub.Services[1].PriceCents != 0 {
			t.Fatalf("%+v", pub)
		}
		var w struct{ Days []struct{ Enabled bool } }
		c.Do("GET", "/api/availability", nil).JSON(t, &w)
		if w.Days[0].Enabled || !w.Days[1].Enabled || w.Days[6].Enabled {
			t.Fatalf("hours %+v", w)
		}
	})
}

func TestOnboarding_RefusesMissingFieldsNoServiceAndTakenUsernameWithoutSavingAnything(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		other := e.Client()
		other.Signup("Bia", "bia@example.com", "segredo1", "gato")
		other.Do("POST", "/api/onboarding", body("ocupado", map[string]any{"name": "S", "duration": 30}))

		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		b := body("ana", map[string]any{"name": "S", "duration": 30})
		b["area"] = " "
		if r := c.Do("POST", "/api/onboarding", b); r.StatusCode != 400 || r.Err(t).Error.Message != "Preencha todos os campos obrigatórios." {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("POST", "/api/onboarding", body("ana", map[string]any{"name": "", "duration": 30})); r.Err(t).Error.Message != "Configure pelo menos um serviço." {
			t.Fatalf("%s", r.Body)
		}
		r := c.Do("POST", "/api/onboarding", body("OCUPADO", map[string]any{"name": "S", "duration": 30}))
		if r.StatusCode != 409 || r.Err(t).Error.Code != "username_taken" {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		var svcs []any
		c.Do("GET", "/api/services", nil).JSON(t, &svcs)
		if len(svcs) != 0 {
			t.Fatal("a refused onboarding must save nothing")
		}
	})
}

func TestPublicProfile_ShowsOnlyActiveAndPublicData(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		c.Do("POST", "/api/onboarding", body("ana", map[string]any{"name": "Consulta", "duration": 50}, map[string]any{"name": "Oculto", "duration": 30}))
		var svcs []struct{ ID, Name string }
		c.Do("GET", "/api/services", nil).JSON(t, &svcs)
		for _, s := range svcs {
			if s.Name == "Oculto" {
				c.Do("PUT", "/api/services/"+s.ID, map[string]any{"name": "Oculto", "duration": 30, "priceCents": 0, "active": false})
			}
		}
		var on, off struct{ ID string }
		c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga", "email": "interno@ana.com"}).JSON(t, &on)
		c.Do("POST", "/api/professionals", map[string]string{"name": "Zeca", "specialization": "Estagiário"}).JSON(t, &off)
		c.Do("PATCH", "/api/professionals/"+off.ID, map[string]bool{"active": false})

		r := e.Client().Do("GET", "/api/public/profiles/ana", nil)
		var pub struct {
			Services      []struct{ Name string }
			Professionals []struct{ ID string }
		}
		r.JSON(t, &pub)
		if len(pub.Services) != 1 || pub.Services[0].Name != "Consulta" || len(pub.Professionals) != 1 || pub.Professionals[0].ID != on.ID {
			t.Fatalf("%+v", pub)
		}
		for _, secret := range []string{"trial", "interno@ana.com", "created"} {
			if contains(r.Body, secret) {
				t.Errorf("public profile leaks %q: %s", secret, r.Body)
			}
		}
		nf := e.Client().Do("GET", "/api/public/profiles/ninguem", nil)
		if nf.StatusCode != 404 || nf.Err(t).Error.Message != "Perfil não encontrado" {
			t.Fatalf("%d %s", nf.StatusCode, nf.Body)
		}
	})
}

func contains(b []byte, s string) bool { return strings.Contains(strings.ToLower(string(b)), s) }

// "Quem atende?": with "Só eu" the guided setup alone makes a working link
// — the checklist is complete and the public page offers and books a time;
// "Minha equipe" adds the names given; anything else is refused whole.
func TestOnboarding_WhoAttendsMakesTheLinkBook(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		in := body("ana", map[string]any{"name": "Consulta", "duration": 50, "priceCents": 15000})
		in["team"] = map[string]any{"mode": "me"}
		if r := c.Do("POST", "/api/onboarding", in); r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		var status struct{ Complete bool }
		c.Do("GET", "/api/setup-status", nil).JSON(t, &status)
		if !status.Complete {
			t.Fatal("the checklist must be complete after the guided setup")
		}
		var pub struct {
			Professionals []struct{ ID, Name, Specialization string }
			Services      []struct{ ID string }
		}
		e.Client().Do("GET", "/api/public/profiles/ana", nil).JSON(t, &pub)
		if len(pub.Professionals) != 1 || pub.Professionals[0].Name != "Ana Souza" || pub.Professionals[0].Specialization != "Psicologia" {
			t.Fatalf("professionals: %+v", pub.Professionals)
		}
		date := e.Clock.Now().AddDate(0, 0, 3)
		for date.Weekday() == time.Saturday || date.Weekday() == time.Sunday {
			date = date.AddDate(0, 0, 1)
		}
		var times struct{ Times []string }
		q := "/api/public/profiles/ana/times?date=" + date.Format("2006-01-02") + "&professional=" + pub.Professionals[0].ID + "&service=" + pub.Services[0].ID
		e.Client().Do("GET", q, nil).JSON(t, &times)
		if len(times.Times) == 0 {
			t.Fatal("the public page offers no time")
		}
		r := e.Client().Do("POST", "/api/public/profiles/ana/bookings", map[string]string{"professionalId": pub.Professionals[0].ID, "serviceId": pub.Services[0].ID,
			"date": date.Format("2006-01-02"), "time": times.Times[0], "clientName": "Cliente", "clientPhone": "11988887777"})
		if r.StatusCode != 201 {
			t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
		}

		other := e.Client()
		other.Signup("Bia", "bia@example.com", "segredo1", "gato")
		team := body("bia", map[string]any{"name": "Corte", "duration": 30})
		for _, bad := range []map[string]any{{"mode": "team", "names": []string{" ", ""}}, {"mode": "todos"}, {"mode": "team", "names": []string{strings.Repeat("a", 121)}}} {
			team["team"] = bad
			if r := other.Do("POST", "/api/onboarding", team); r.StatusCode != 400 {
				t.Fatalf("%v: %d %s", bad, r.StatusCode, r.Body)
			}
		}
		team["team"] = map[string]any{"mode": "team", "names": []string{" Carla  Dias ", "Diego"}}
		if r := other.Do("POST", "/api/onboarding", team); r.StatusCode != 200 {
			t.Fatalf("team: %d %s", r.StatusCode, r.Body)
		}
		e.Client().Do("GET", "/api/public/profiles/bia", nil).JSON(t, &pub)
		if len(pub.Professionals) != 2 {
			t.Fatalf("team: %+v", pub.Professionals)
		}
	})
}
