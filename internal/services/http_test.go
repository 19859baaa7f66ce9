package services_test

import (
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

func TestServices_ValidateAndKeepMoneyInCentavos(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		for _, bad := range []map[string]any{
			{"name": " ", "duration": 30, "priceCents": 0},
			{"name": "Consulta", "priceCents": 0},
			{"name": "Consulta", "duration": 0, "priceCents": 0},
			{"name": "Consulta", "duration": 30, "priceCents": -1},
		} {
			if r := c.Do("POST", "/api/services", bad); r.StatusCode != 400 {
				t.Errorf("%v: %d %s", bad, r.StatusCode, r.Body)
			}
		}
		if r := c.Do("POST", "/api/services", map[string]any{"name": " ", "duration": 30, "priceCents": 0}); r.Err(t).Error.Message != "Preencha todos os campos obrigatórios." {
			t.Errorf("required text: %s", r.Body)
		}
		var s struct {
			ID          string
			Name        string
			Description *string
			Duration    int
			PriceCents  int64
			Active      bool
		}
		r := c.Do("POST", "/api/services", map[string]any{"name": " Consulta ", "description": "   ", "duration": 50, "priceCents": 2190})
		if r.StatusCode != 201 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &s)
		if s.Name != "Consulta" || s.Description != nil || s.PriceCents != 2190 || !s.Active || s.Duration != 50 {
			t.Fatalf("%+v", s)
		}
		c.Do("PUT", "/api/services/"+s.ID, map[string]any{"name": "Consulta longa", "description": "Primeira sessão", "duration": 90, "priceCents": 30000, "active": false}).JSON(t, &s)
		if s.Name != "Consulta longa" || *s.Description != "Primeira sessão" || s.Active || s.PriceCents != 30000 {
			t.Fatalf("%+v", s)
		}
		if r := c.Do("DELETE", "/api/services/"+s.ID, nil); r.StatusCode != 204 {
			t.Fatal(r.StatusCode)
		}
		if r := c.Do("DELETE", "/api/services/"+s.ID, nil); r.StatusCode != 404 {
			t.Fatal("deleting twice must be 404")
		}
	})
}

// A service's name is saved as one line: it goes into WhatsApp template
// parameters, which Meta refuses with a tab, a new line or more than four
// consecutive spaces.
func TestServices_NameIsSavedAsOneLine(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var s struct{ ID, Name string }
		c.Do("POST", "/api/services", map[string]any{"name": "Clareamento\tdental", "duration": 30, "priceCents": 0}).JSON(t, &s)
		if s.Name != "Clareamento dental" {
			t.Fatalf("created as %q", s.Name)
		}
		c.Do("PUT", "/api/services/"+s.ID, map[string]any{"name": "Limpeza     profunda\n", "duration": 30, "priceCents": 0}).JSON(t, &s)
		if s.Name != "Limpeza profunda" {
			t.Fatalf("saved as %q", s.Name)
		}
	})
}

// A price change re-checks the deposit policy kept with the service: a
// fixed R$ 80,00 deposit cannot stay on a service lowered to R$ 20,00, as
// the same policy sent with that price is refused; the service is unchanged.
func TestServices_APriceChangeRechecksTheKeptDeposit(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var s struct {
			ID         string
			PriceCents int64
			Deposit    struct{ Kind string }
		}
		r := c.Do("POST", "/api/services", map[string]any{"name": "Clareamento", "duration": 60, "priceCents": 30000,
			"deposit": map[string]any{"kind": "fixed", "value": 8000, "holdMinutes": 30}})
		if r.StatusCode != 201 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &s)
		const over = "O sinal não pode ser maior que o preço do serviço."
		r = c.Do("PUT", "/api/services/"+s.ID, map[string]any{"name": "Clareamento", "duration": 60, "priceCents": 2000})
		if r.StatusCode != 400 || r.Err(t).Error.Message != over {
			t.Fatalf("a lower price under the kept deposit: %d %s", r.StatusCode, r.Body)
		}
		var list []struct{ PriceCents int64 }
		c.Do("GET", "/api/services", nil).JSON(t, &list)
		if len(list) != 1 || list[0].PriceCents != 30000 {
			t.Fatalf("a refused save changed the price: %+v", list)
		}
		// With the deposit lowered in the same save, or removed, the new price stands.
		if r := c.Do("PUT", "/api/services/"+s.ID, map[string]any{"name": "Clareamento", "duration": 60, "priceCents": 2000,
			"deposit": map[string]any{"kind": "none"}}); r.StatusCode != 200 {
			t.Fatalf("price with the deposit removed: %d %s", r.StatusCode, r.Body)
		}
	})
}
