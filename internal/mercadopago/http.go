package mercadopago

import (
	"net/http"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/connect"
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
	connect.Card[ConnectInput, *Status]{Status: h.Svc.Status, Connect: h.Svc.Connect, Disconnect: h.Svc.Disconnect}.
		Register(mux, "/api/mercadopago", h.Auth.RequireUser, auth.UserID)
	mux.Handle("POST /webhooks/mercadopago/{key}", httpx.Handle(h.WebhookHandler))
	mux.Handle("POST /webhooks/mercadopago", httpx.Handle(h.AppWebhookHandler))
	// "Conectar Mercado Pago": start answers where to send the owner;
	// finish takes what Mercado Pago sent back to the web app's page.
	mux.Handle("POST /api/mercadopago/oauth/start", h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		st, err := h.Svc.StartOAuth(r.Context(), auth.UserID(r.Context()))
		return httpx.Respond(w, http.StatusOK, st, err)
	})))
	mux.Handle("POST /api/mercadopago/oauth/finish", h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		var in OAuthFinish
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		st, err := h.Svc.FinishOAuth(r.Context(), auth.UserID(r.Context()), in)
		return httpx.Respond(w, http.StatusOK, st, err)
	})))
}
