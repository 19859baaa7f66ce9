package team_test

import (
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

func TestProfessionals_RequireNameAndSpecializationAndStoreEmptyEmailAsNull(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		r := c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": " "})
		if r.StatusCode != 400 || r.Err(t).Error.Message != "Nome e especialização são obrigatórios." {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		var p struct {
			ID     string
			Email  *string
			Active bool
		}
		c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga", "email": "  "}).JSON(t, &p)
		if p.Email != nil || !p.Active {
			t.Fatalf("%+v", p)
		}
		c.Do("PUT", "/api/professionals/"+p.ID, map[string]string{"name": "Ana", "specialization": "Psicóloga", "email": "Ana@Clinica.com"}).JSON(t, &p)
		if p.Email == nil || *p.Email != "ana@clinica.com" {
			t.Fatalf("%+v", p)
		}
		c.Do("PATCH", "/api/professionals/"+p.ID, map[string]bool{"active": false}).JSON(t, &p)
		if p.Active {
			t.Fatal("toggle off")
		}
		if r := c.Do("DELETE", "/api/professionals/"+p.ID, nil); r.StatusCode != 204 {
			t.Fatal(r.StatusCode)
		}
	})
}

// A professional's name is saved as one line (it can go into WhatsApp
// template parameters, which refuse tabs, new lines and runs of spaces).
func TestProfessionals_NameIsSavedAsOneLine(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var p struct{ ID, Name, Specialization string }
		c.Do("POST", "/api/professionals", map[string]string{"name": "Dra.\tAna     Souza", "specialization": "Psicóloga\nclínica"}).JSON(t, &p)
		if p.Name != "Dra. Ana Souza" || p.Specialization != "Psicóloga clínica" {
			t.Fatalf("%+v", p)
		}
	})
}
