package place_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/server/servertest"
)

// fakeViaCEP answers like viacep.com.br/ws/{cep}/json/ for two CEPs, and
// records the paths it was asked.
type fakeViaCEP struct {
	mu    sync.Mutex
	paths []string
	delay time.Duration
	fail  bool
}

func (f *fakeViaCEP) start(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.paths = append(f.paths, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		if f.delay > 0 {
			select {
			case <-time.After(f.delay):
			case <-r.Context().Done():
				return
			}
		}
		if f.fail {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		switch r.URL.Path {
		case "/ws/01001000/json/":
			_, _ = w.Write([]byte(`{"cep": "01001-000", "logradouro": "Praça da Sé", "complemento": "lado ímpar", "bairro": "Sé",
				"localidade": "São Paulo", "uf": "SP", "ibge": "3550308", "ddd": "11"}`))
		case "/ws/99999999/json/":
			_, _ = w.Write([]byte(`{"erro": "true"}`))
		case "/ws/88888888/json/":
			_, _ = w.Write([]byte(`{"erro": true}`))
		default:
			http.Error(w, "Bad Request", http.StatusBadRequest)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/ws"
}

func (f *fakeViaCEP) asked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.paths...)
}

func TestCEPLookup_FillsTheAddressFromAViaCEPCompatibleService(t *testing.T) {
	f := &fakeViaCEP{}
	l := &place.CEPLookup{URL: f.start(t) + "/"}
	a, err := l.Find(context.Background(), "01001-000")
	if err != nil {
		t.Fatal(err)
	}
	want := place.Address{Street: "Praça da Sé", District: "Sé", City: "São Paulo", State: "SP", CEP: "01001-000"}
	if *a != want {
		t.Fatalf("%+v", *a)
	}
	if got := f.asked(); len(got) != 1 || got[0] != "GET /ws/01001000/json/" {
		t.Fatalf("asked %v", got)
	}
	for _, cep := range []string{"99999999", "88888888", "12345678"} {
		if _, err := l.Find(context.Background(), cep); err == nil || !strings.Contains(err.Error(), "cep_not_found") {
			t.Errorf("%s: %v", cep, err)
		}
	}
	if _, err := l.Find(context.Background(), "123"); err == nil || !strings.Contains(err.Error(), "CEP inválido") {
		t.Errorf("short CEP: %v", err)
	}
	if len(f.asked()) != 4 {
		t.Errorf("a malformed CEP reached the service: %v", f.asked())
	}
}

func TestCEPLookup_SlowOrFailingServiceIsUnavailableNotAnError500(t *testing.T) {
	slow := &fakeViaCEP{delay: 2 * time.Second}
	l := &place.CEPLookup{URL: slow.start(t), Client: &http.Client{Timeout: 100 * time.Millisecond}}
	began := time.Now()
	if _, err := l.Find(context.Background(), "01001000"); err == nil || !strings.Contains(err.Error(), "cep_unavailable") {
		t.Fatalf("slow: %v", err)
	}
	if time.Since(began) > time.Second {
		t.Fatalf("waited %s", time.Since(began))
	}
	down := &fakeViaCEP{fail: true}
	l = &place.CEPLookup{URL: down.start(t)}
	if _, err := l.Find(context.Background(), "01001000"); err == nil || !strings.Contains(err.Error(), "cep_unavailable") {
		t.Fatalf("down: %v", err)
	}
	if (&place.CEPLookup{}).Enabled() {
		t.Fatal("no URL: the lookup is off")
	}
}

func TestCEPEndpoint_OwnersOnlyAndOffUnlessConfigured(t *testing.T) {
	f := &fakeViaCEP{}
	base := f.start(t)
	servertest.Each(t, func(t *testing.T, off *servertest.Env) {
		// Off (the default): the pages are told, and the endpoint says so.
		var cfg struct{ CEPLookup bool }
		off.Client().Do("GET", "/api/config", nil).JSON(t, &cfg)
		if cfg.CEPLookup {
			t.Fatal("lookup on without AGENDEI_CEP_URL")
		}
		c := off.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		if r := c.Do("GET", "/api/cep/01001000", nil); r.StatusCode != 404 || r.Err(t).Error.Code != "cep_lookup_off" {
			t.Fatalf("off: %d %s", r.StatusCode, r.Body)
		}

		on := servertest.StartWith(t, off.DB.Dialect, func(c *config.Config) { c.CEPURL = base })
		on.Client().Do("GET", "/api/config", nil).JSON(t, &cfg)
		if !cfg.CEPLookup {
			t.Fatal("lookup off with AGENDEI_CEP_URL set")
		}
		if r := on.Client().Do("GET", "/api/cep/01001000", nil); r.StatusCode != 401 {
			t.Fatalf("anonymous: %d", r.StatusCode)
		}
		c = on.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var a place.Address
		r := c.Do("GET", "/api/cep/01001-000", nil)
		if r.StatusCode != 200 {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &a)
		if a.City != "São Paulo" || a.State != "SP" || a.Street != "Praça da Sé" {
			t.Fatalf("%+v", a)
		}
		if r := c.Do("GET", "/api/cep/0100", nil); r.StatusCode != 400 {
			t.Fatalf("short: %d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("GET", "/api/cep/99999999", nil); r.StatusCode != 404 || r.Err(t).Error.Code != "cep_not_found" {
			t.Fatalf("unknown: %d %s", r.StatusCode, r.Body)
		}
	})
}
