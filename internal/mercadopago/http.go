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
}
