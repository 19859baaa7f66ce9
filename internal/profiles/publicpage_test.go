package profiles_test

import (
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// Issue 43 §3: the public page names each professional with their council
// registration, and an owner who hides prices gets public answers with no
// price at all (not a price the page leaves unshown), at once (the answer
// cache follows the setting), while the owner's own screens keep them.
func TestPublicProfile_CouncilHeadlineAndHiddenPrices(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana.login@example.com", "segredo1", "gato")
		if r := c.Do("PUT", "/api/profile", form("ana")); r.StatusCode != 200 {
			t.Fatalf("profile: %d %s", r.StatusCode, r.Body)
		}
		var pro, other struct{ ID string }
		c.Do("POST", "/api/professionals", map[string]string{"name": "Ana Souza", "specialization": "Psicóloga", "council": "CRP", "councilUf": "SP", "councilNumber": "06/12345"}).JSON(t, &pro)
		c.Do("POST", "/api/professionals", map[string]string{"name": "Bia Lima", "specialization": "Nutricionista"}).JSON(t, &other)
		if r := c.Do("POST", "/api/services", map[string]any{"name": "Sessão", "duration": 50, "priceCents": 18750, "professionalIds": []string{pro.ID, other.ID}}); r.StatusCode != 201 {
			t.Fatalf("service: %d %s", r.StatusCode, r.Body)
		}
		type answer struct {
			HidePrices    bool
			Services      []map[string]any
			Professionals []struct{ Name, Specialization, CouncilLabel, Headline string }
		}
		public := func() (answer, string) {
			t.Helper()
			r := e.Client().Do("GET", "/api/public/profiles/ana", nil)
			if r.StatusCode != 200 {
				t.Fatalf("public: %d %s", r.StatusCode, r.Body)
			}
			var a answer
			r.JSON(t, &a)
			return a, string(r.Body)
		}
		a, _ := public()
		if len(a.Professionals) != 2 || a.Professionals[0].Headline != "Psicóloga — CRP 06/12345" || a.Professionals[0].CouncilLabel != "CRP 06/12345" ||
			a.Professionals[1].Headline != "Nutricionista" || a.Professionals[1].CouncilLabel != "" {
			t.Fatalf("professionals: %+v", a.Professionals)
		}
		if a.HidePrices || len(a.Services) != 1 || a.Services[0]["priceCents"] != float64(18750) {
			t.Fatalf("prices shown by default: %+v", a)
		}

		var s struct{ HidePrices bool }
		if c.Do("GET", "/api/profile/public-page", nil).JSON(t, &s); s.HidePrices {
			t.Fatal("hidden by default")
		}
		if r := c.Do("PUT", "/api/profile/public-page", map[string]any{}); r.StatusCode != 400 || r.Err(t).Error.Message != "Informe se os preços ficam ocultos na página pública." {
			t.Fatalf("left out: %d %s", r.StatusCode, r.Body)
		}
		if c.Do("PUT", "/api/profile/public-page", map[string]bool{"hidePrices": true}).JSON(t, &s); !s.HidePrices {
			t.Fatal("not saved")
		}
		a, body := public()
		if _, has := a.Services[0]["priceCents"]; has || !a.HidePrices || strings.Contains(body, "18750") || strings.Contains(body, "187,50") || strings.Contains(body, "price") {
			t.Fatalf("hidden prices still in the public answer: %s", body)
		}
		// The owner's screens keep the price.
		var services []struct{ PriceCents int64 }
		if c.Do("GET", "/api/services", nil).JSON(t, &services); len(services) != 1 || services[0].PriceCents != 18750 {
			t.Fatalf("owner's services: %+v", services)
		}
		// Turning it off shows prices again.
		if c.Do("PUT", "/api/profile/public-page", map[string]bool{"hidePrices": false}).JSON(t, &s); s.HidePrices {
			t.Fatal("not turned off")
		}
		if a, _ = public(); a.HidePrices || a.Services[0]["priceCents"] != float64(18750) {
			t.Fatalf("shown again: %+v", a)
		}
	})
}
