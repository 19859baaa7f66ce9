package whatsapp

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/connect"
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
	connect.Card[ConnectInput, *Status]{Status: h.status, Connect: h.Svc.Connect, Disconnect: h.Svc.Disconnect}.
		Register(mux, "/api/whatsapp", h.Auth.RequireUser, auth.UserID)
	mux.Handle("GET /api/appointments/{id}/whatsapp", h.Auth.RequireUser(httpx.Handle(h.deliveries)))
	mux.Handle("GET /api/whatsapp/confirms", h.Auth.RequireTeam(httpx.Handle(h.confirms)))
	mux.Handle("PUT /api/whatsapp/operator", h.Auth.RequireUser(httpx.Handle(h.setOperator)))
	mux.Handle("POST /api/whatsapp/signup", h.Auth.RequireUser(httpx.Handle(h.signup)))
	mux.Handle("GET /webhooks/whatsapp", httpx.Handle(h.OperatorVerifyHandler))
	mux.Handle("POST /webhooks/whatsapp", httpx.Handle(h.OperatorEventHandler))
	mux.Handle("GET /webhooks/whatsapp/{key}", httpx.Handle(h.VerifyHandler))
	mux.Handle("POST /webhooks/whatsapp/{key}", httpx.Handle(h.EventHandler))
}

// status shows the connection; templates not yet approved are looked up at
// Meta at most every 20 s (a fault there only leaves the last status).
func (h *Handlers) status(ctx context.Context, userID string) (*Status, error) {
	if err := h.Svc.RefreshTemplates(ctx, userID, 20*time.Second); err != nil {
		httpx.Logger(ctx).Warn("whatsapp: template status not refreshed", "err", err)
	}
	return h.Svc.Status(ctx, userID)
}

// confirms tells the agenda's forms of a professional's own sign-in
// (issue 43), who may not read the owner's connection, whether the owner's
// number carries a client's confirmation now (connected, its confirmation
// template approved): the forms then say truly how the client is told.
func (h *Handlers) confirms(w http.ResponseWriter, r *http.Request) error {
	st, err := h.Svc.Status(r.Context(), auth.UserID(r.Context()))
	if err != nil {
		return err
	}
	ok := st.Connected && slices.ContainsFunc(st.Templates, func(t TemplateStatus) bool { return t.Kind == "confirmation" && t.Status == "APPROVED" })
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"confirms": ok})
	return nil
}

func (h *Handlers) deliveries(w http.ResponseWriter, r *http.Request) error {
	ds, err := h.Svc.Deliveries(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
	return httpx.Respond(w, http.StatusOK, ds, err)
}

// setOperator is the card's switch of the operator's number.
func (h *Handlers) setOperator(w http.ResponseWriter, r *http.Request) error {
	var in OperatorInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	st, err := h.Svc.SetOperator(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusOK, st, err)
}

// signup finishes "Conectar meu WhatsApp": the code and ids Meta's
// sign-up window gave the browser (signup.go).
func (h *Handlers) signup(w http.ResponseWriter, r *http.Request) error {
	var in SignupInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	st, err := h.Svc.Signup(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusOK, st, err)
}
