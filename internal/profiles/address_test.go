package profiles_test

import (
	"testing"

	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/server/servertest"
)

func TestProfile_AddressIsSavedNormalisedAndRefusedInPortuguese(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		save := func(addr map[string]string, room string) *servertest.Response {
			return c.Do("PUT", "/api/profile", map[string]any{"name": "Ana", "email": "ana@example.com", "area": "Psicologia",
				"publicUsername": "ana", "address": addr, "roomLink": room})
		}
		r := save(map[string]string{"street": "Rua das Flores", "number": "123", "district": "Centro", "city": "Recife", "state": "pe", "cep": "50.000-000"},
			"https://meet.example.com/ana")
		if r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		var p struct {
			Address  place.Address
			RoomLink string
		}
		r.JSON(t, &p)
		if p.Address.CEP != "50000-000" || p.Address.State != "PE" || p.RoomLink != "https://meet.example.com/ana" {
			t.Fatalf("%+v", p)
		}
		for _, c := range []struct {
			addr map[string]string
			want string
		}{
			{map[string]string{"street": "Rua A", "city": "Recife", "cep": "5000-000"}, "CEP inválido. Use os 8 números, como 01001-000."},
			{map[string]string{"street": "Rua A", "city": "Recife", "state": "Pernambuco"}, "Escolha o estado (UF) na lista."},
			{map[string]string{"cep": "50000-000"}, "Para mostrar o endereço, preencha ao menos rua e cidade."},
		} {
			r := save(c.addr, "")
			if r.StatusCode != 400 || r.Err(t).Error.Message != c.want {
				t.Errorf("%v: %d %s", c.addr, r.StatusCode, r.Body)
			}
		}
		// A refused form changed nothing.
		c.Do("GET", "/api/profile", nil).JSON(t, &p)
		if p.Address.City != "Recife" {
			t.Fatalf("%+v", p)
		}
	})
}
