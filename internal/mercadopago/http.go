package mercadopago

import (
	"net/http"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Handlers serve the owner's Mercado Pago connection and its webhook.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register mounts the routes. The webhook lives outside /api: Mercado Pago
// proves itself by the x-signature, not by the app's CSRF header.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/mercadopago", h.Auth.RequireUser(httpx.Handle(h.status)))
	mux.Handle("PUT /api/mercadopago", h.Auth.RequireUser(httpx.Handle(h.connect)))
	mux.Handle("DELETE /api/mercadopago", h.Auth.RequireUser(httpx.Handle(h.disconnect)))
	mux.Handle("POST /webhooks/mercadopago/{key}", httpx.Handle(h.WebhookHandler))
}

func (h *Handlers) status(w http.ResponseWriter, r *http.Request) error {
	st, err := h.Svc.Status(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, st, err)
}

func (h *Handlers) connect(w http.ResponseWriter, r *http.Request) error {
	var in ConnectInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	st, err := h.Svc.Connect(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusOK, st, err)
}

func (h *Handlers) disconnect(w http.ResponseWriter, r *http.Request) error {
	if err := h.Svc.Disconnect(r.Context(), auth.UserID(r.Context())); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
