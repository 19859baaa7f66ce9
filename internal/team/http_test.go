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

// A professional's council registration (issue 43 §3): saved normalised
// with its one-line label, cleared when left out, and refused with a
// pt-BR message when half given or not as the councils print it.
func TestProfessionals_CouncilRegistration(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var p struct{ ID, Council, CouncilUF, CouncilNumber, CouncilLabel string }
		c.Do("POST", "/api/professionals", map[string]string{"name": "Ana Souza", "specialization": "Psicóloga", "council": "crp", "councilUf": "sp", "councilNumber": " 06/12345 "}).JSON(t, &p)
		if p.Council != "CRP" || p.CouncilUF != "SP" || p.CouncilNumber != "06/12345" || p.CouncilLabel != "CRP 06/12345" {
			t.Fatalf("%+v", p)
		}
		for _, bad := range []struct{ council, uf, number, message string }{
			{"", "SP", "06/12345", "Escolha o conselho do número de registro."},
			{"CRP", "SP", "", "Informe o número de registro no conselho."},
			{"CRP", "", "06/12345", "Escolha a UF do registro no conselho."},
			{"CRP", "SP", "seis", "Número de registro inválido: use os números (com / . ou -) como estão na carteira do conselho, por exemplo 06/12345."},
			{"OAB", "SP", "123", "Escolha um conselho da lista."},
		} {
			r := c.Do("PUT", "/api/professionals/"+p.ID, map[string]string{"name": "Ana Souza", "specialization": "Psicóloga", "council": bad.council, "councilUf": bad.uf, "councilNumber": bad.number})
			if r.StatusCode != 400 || r.Err(t).Error.Message != bad.message {
				t.Errorf("%+v: %d %s", bad, r.StatusCode, r.Body)
			}
		}
		c.Do("PUT", "/api/professionals/"+p.ID, map[string]string{"name": "Ana Souza", "specialization": "Dentista", "council": "CRO", "councilUf": "RJ", "councilNumber": "12345"}).JSON(t, &p)
		if p.CouncilLabel != "CRO-RJ 12345" {
			t.Fatalf("%+v", p)
		}
		var list []struct{ CouncilLabel string }
		c.Do("GET", "/api/professionals", nil).JSON(t, &list)
		if len(list) != 1 || list[0].CouncilLabel != "CRO-RJ 12345" {
			t.Fatalf("%+v", list)
		}
		c.Do("PUT", "/api/professionals/"+p.ID, map[string]string{"name": "Ana Souza", "specialization": "Dentista"}).JSON(t, &p)
		if p.Council != "" || p.CouncilUF != "" || p.CouncilNumber != "" || p.CouncilLabel != "" {
			t.Fatalf("left out, the registration is cleared: %+v", p)
		}
	})
}
