package whatsapp

import (
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Handlers serve the owner's WhatsApp connection and Meta's webhook.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register mounts the routes. The webhook lives outside /api: Meta proves
// itself by signature (and the GET by the verify token), not by the app's
// CSRF header.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/whatsapp", h.Auth.RequireUser(httpx.Handle(h.status)))
	mux.Handle("PUT /api/whatsapp", h.Auth.RequireUser(httpx.Handle(h.connect)))
	mux.Handle("DELETE /api/whatsapp", h.Auth.RequireUser(httpx.Handle(h.disconnect)))
	mux.Handle("GET /api/appointments/{id}/whatsapp", h.Auth.RequireUser(httpx.Handle(h.deliveries)))
	mux.Handle("GET /webhooks/whatsapp/{key}", httpx.Handle(h.VerifyHandler))
	mux.Handle("POST /webhooks/whatsapp/{key}", httpx.Handle(h.EventHandler))
}

// status shows the connection; templates not yet approved are looked up at
// Meta at most every 20 s (a fault there only leaves the last status).
func (h *Handlers) status(w http.ResponseWriter, r *http.Request) error {
	userID := auth.UserID(r.Context())
	if err := h.Svc.RefreshTemplates(r.Context(), userID, 20*time.Second); err != nil {
		httpx.Logger(r.Context()).Warn("whatsapp: template status not refreshed", "err", err)
	}
	st, err := h.Svc.Status(r.Context(), userID)
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

func (h *Handlers) deliveries(w http.ResponseWriter, r *http.Request) error {
	ds, err := h.Svc.Deliveries(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
	return httpx.Respond(w, http.StatusOK, ds, err)
}
