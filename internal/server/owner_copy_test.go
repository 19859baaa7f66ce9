package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// The owner's LGPD copy (issue 42 §4: the calendar addresses are part of it,
// sealed): one JSON file of the account and the practice, every part the
// screens show, no secret, nothing of another owner.
func TestOwnerCopy_TheAccountAndPracticeWithoutSecrets(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a, b := e.Client(), e.Client()
		seedOwner(t, e, a)
		b.Signup("Bia Outra", "bia@example.com", "senha-da-bia-2", "cão")

		r := a.Do("GET", "/api/account/data", nil)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("copy: %d %s", r.StatusCode, r.Body)
		}
		if cd := r.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="meus-dados-agendei-`) {
			t.Errorf("Content-Disposition %q", cd)
		}
		var copy map[string]json.RawMessage
		if err := json.Unmarshal(r.Body, &copy); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r.Body)
		}
		for _, k := range []string{"geradoEm", "conta", "perfil", "mensagens", "profissionais", "servicos", "horarios", "regras", "folgas", "feriados",
			"agendasPessoais", "assinatura", "whatsapp", "mercadoPago"} {
			if _, ok := copy[k]; !ok {
				t.Errorf("the copy has no %q", k)
			}
		}
		body := string(r.Body)
		for _, want := range []string{"anabela.sigilo@example.com", "Anabela Sigilo", "Doutora Escondida", "Terapia Reservada", "Recesso Sigiloso",
			"Feriado Sigiloso", "calendar.google.com", "guardada apenas como hash"} {
			if !strings.Contains(body, want) {
				t.Errorf("the copy lacks %q", want)
			}
		}
		// The calendar address is sealed (its host is what the card shows), the password and keyword hashes never leave.
		for _, never := range []string{"private-sigilo", "senha-da-ana-1", "argon2id$", "$argon2", "gato", "bia@example.com"} {
			if strings.Contains(body, never) {
				t.Errorf("the copy carries %q", never)
			}
		}
		var account struct {
			Email   string
			SignIns []struct{ RenovadaEm, ExpiraEm string } `json:"sessoesAtivas"`
		}
		if err := json.Unmarshal(copy["conta"], &account); err != nil || account.Email != "anabela.sigilo@example.com" || len(account.SignIns) != 1 {
			t.Errorf("conta: %v %s", err, copy["conta"])
		}

		// The other owner's copy is theirs alone.
		other := string(b.Do("GET", "/api/account/data", nil).Body)
		if !strings.Contains(other, "bia@example.com") || strings.Contains(other, "anabela") || strings.Contains(other, "Escondida") {
			t.Errorf("the second owner's copy: %s", other)
		}
		// A GET changes nothing: the same copy twice but for its time.
		again := a.Do("GET", "/api/account/data", nil)
		var copy2 map[string]json.RawMessage
		if err := json.Unmarshal(again.Body, &copy2); err != nil || string(copy2["perfil"]) != string(copy["perfil"]) {
			t.Errorf("a second copy differs: %v", err)
		}
	})
}
