package place

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// CEPLookup fills an address from its CEP through a ViaCEP-compatible
// service (GET {URL}/{8 digits}/json/). It is optional: with no URL
// configured (AGENDEI_CEP_URL) it is off, the profile form says nothing
// and the owner types the address. A slow or failing lookup is an error
// the form shows; it never blocks saving.
type CEPLookup struct {
	URL    string       // e.g. https://viacep.com.br/ws; "" turns the lookup off
	Client *http.Client // nil: one with a 4-second timeout
}

// Enabled reports whether the lookup is configured.
func (l *CEPLookup) Enabled() bool { return l != nil && l.URL != "" }

var (
	errCEPNotFound    = httpx.NewError(http.StatusNotFound, "cep_not_found", "CEP não encontrado. Confira os números ou preencha o endereço à mão.")
	errCEPUnavailable = httpx.NewError(http.StatusServiceUnavailable, "cep_unavailable", "A busca de CEP não respondeu agora. Preencha o endereço à mão; você pode salvar normalmente.")
	errCEPOff         = httpx.NewError(http.StatusNotFound, "cep_lookup_off", "A busca de CEP não está ativada neste servidor.")
)

// viaCEP is the service's answer: its fields in Portuguese, and "erro" (a
// boolean, or the string "true" in its newer version) for a CEP it lacks.
type viaCEP struct {
	CEP        string `json:"cep"`
	Logradouro string `json:"logradouro"`
	Bairro     string `json:"bairro"`
	Localidade string `json:"localidade"`
	UF         string `json:"uf"`
	Erro       any    `json:"erro"`
}

// Find looks a CEP up: the address's street, district, city, UF and CEP
// (number and complement are the owner's to type).
func (l *CEPLookup) Find(ctx context.Context, raw string) (*Address, error) {
	if !l.Enabled() {
		return nil, errCEPOff
	}
	cep, ok := FormatCEP(raw)
	if !ok {
		return nil, errCEP
	}
	client := l.Client
	if client == nil {
		client = &http.Client{Timeout: 4 * time.Second}
	}
	digits := strings.Replace(cep, "-", "", 1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(l.URL, "/")+"/"+digits+"/json/", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := client.Do(req)
	if err != nil {
		httpx.Logger(ctx).Warn("cep lookup failed", "err", err)
		return nil, errCEPUnavailable
	}
	defer res.Body.Close()
	// ViaCEP answers 400 for a malformed CEP; 404 is what other services say.
	if res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusBadRequest {
		return nil, errCEPNotFound
	}
	if res.StatusCode != http.StatusOK {
		httpx.Logger(ctx).Warn("cep lookup failed", "status", res.StatusCode)
		return nil, errCEPUnavailable
	}
	var v viaCEP
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&v); err != nil {
		httpx.Logger(ctx).Warn("cep lookup: unreadable answer", "err", err)
		return nil, errCEPUnavailable
	}
	if v.Erro == true || fmt.Sprint(v.Erro) == "true" {
		return nil, errCEPNotFound
	}
	a := &Address{Street: v.Logradouro, District: v.Bairro, City: v.Localidade, State: strings.ToUpper(v.UF), CEP: cep}
	if a.State != "" && !ValidUF(a.State) {
		a.State = ""
	}
	if a.City == "" {
		return nil, errCEPNotFound
	}
	return a, nil
}

// Handlers serves the owner's CEP lookup.
type Handlers struct {
	Lookup *CEPLookup
	Auth   *auth.Handlers
}

// Register adds GET /api/cep/{cep}.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/cep/{cep}", h.Auth.RequireUser(httpx.Handle(h.find)))
}

func (h *Handlers) find(w http.ResponseWriter, r *http.Request) error {
	a, err := h.Lookup.Find(r.Context(), r.PathValue("cep"))
	return httpx.Respond(w, http.StatusOK, a, err)
}
