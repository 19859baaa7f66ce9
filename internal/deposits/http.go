package deposits

import (
	"context"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/pix"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

var (
	errKeyType = httpx.Validation("Escolha o tipo da chave Pix: CPF, CNPJ, celular, e-mail ou chave aleatória.")
	errKeys    = map[string]*httpx.Error{
		pix.KindCPF:    httpx.Validation("CPF inválido: confira os 11 dígitos."),
		pix.KindCNPJ:   httpx.Validation("CNPJ inválido: confira os 14 dígitos."),
		pix.KindPhone:  httpx.Validation("Celular inválido: informe DDD e número, como (11) 98765-4321."),
		pix.KindEmail:  httpx.Validation("E-mail inválido para chave Pix."),
		pix.KindRandom: httpx.Validation("Chave aleatória inválida: cole a chave de 36 caracteres como o banco mostra."),
	}
	errPixName = httpx.Validation("Informe o nome do recebedor como está no banco (letras ou números, até 25 caracteres são usados).")
	errPixCity = httpx.Validation("Informe a cidade do recebedor (letras, até 15 caracteres são usados).")
)

// ValidatePix checks and tidies the owner's Pix: a key of its kind, the
// receiver's name and city (each must keep something after normalising).
// An empty key with an empty kind clears the Pix.
func ValidatePix(p *PixSettings) error {
	p.Key, p.Name, p.City = strings.TrimSpace(p.Key), strings.TrimSpace(p.Name), strings.TrimSpace(p.City)
	if p.KeyType == "" && p.Key == "" {
		*p = PixSettings{}
		return nil
	}
	bad, ok := errKeys[p.KeyType]
	if !ok {
		return errKeyType
	}
	key, valid := pix.Key(p.KeyType, p.Key)
	if !valid {
		return bad
	}
	p.Key = key
	if pix.Normalize(p.Name, pix.MaxName) == "" || utf8.RuneCountInString(p.Name) > 120 {
		return errPixName
	}
	if pix.Normalize(p.City, pix.MaxCity) == "" || utf8.RuneCountInString(p.City) > 60 {
		return errPixCity
	}
	return nil
}

// SavePix writes the owner's Pix settings (validated).
func SavePix(ctx context.Context, q db.Querier, ownerID string, p PixSettings, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE profiles SET pix_key_type = ?, pix_key = ?, pix_name = ?, pix_city = ?, updated_at = ? WHERE id = ?`,
		p.KeyType, p.Key, p.Name, p.City, now, ownerID)
	return err
}

// PixView is the owner's Pix as the profile page shows it, with the
// receiver's name and city as the BR Code will carry them.
type PixView struct {
	PixSettings
	PayloadName string `json:"payloadName"`
	PayloadCity string `json:"payloadCity"`
}

func view(p PixSettings) PixView {
	return PixView{PixSettings: p, PayloadName: pix.Normalize(p.Name, pix.MaxName), PayloadCity: pix.Normalize(p.City, pix.MaxCity)}
}

// Handlers serves the owner's Pix settings.
type Handlers struct {
	DB   *db.DB
	Now  func() time.Time
	Auth *auth.Handlers
}

// Register adds GET and PUT /api/pix.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/pix", h.Auth.RequireUser(httpx.Handle(h.get)))
	mux.Handle("PUT /api/pix", h.Auth.RequireUser(httpx.Handle(h.put)))
}

func (h *Handlers) get(w http.ResponseWriter, r *http.Request) error {
	p, err := ReadPix(r.Context(), h.DB, auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, view(p), err)
}

func (h *Handlers) put(w http.ResponseWriter, r *http.Request) error {
	var p PixSettings
	if err := httpx.DecodeJSON(w, r, &p); err != nil {
		return err
	}
	if err := ValidatePix(&p); err != nil {
		return err
	}
	err := SavePix(r.Context(), h.DB, auth.UserID(r.Context()), p, h.Now())
	return httpx.Respond(w, http.StatusOK, view(p), err)
}
