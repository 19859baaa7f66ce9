package calendars

import (
	"net/http"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// RegisterGoogle adds the routes of "Conectar Google Agenda": start (the
// consent page's address), finish (what Google sent back to
// /profile/google), the account's calendars and the choice of those that
// count as busy, and disconnect.
func (h *Handlers) RegisterGoogle(mux *http.ServeMux) {
	h.registerGoogleWebhook(mux)
	h.registerGoogleWrite(mux) // google_write.go
	mux.Handle("POST /api/calendars/{id}/google", h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		st, err := h.Svc.StartGoogle(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
		return httpx.Respond(w, http.StatusOK, st, err)
	})))
	mux.Handle("POST /api/calendars/google/finish", h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		var in GoogleFinish
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		src, err := h.Svc.FinishGoogle(r.Context(), auth.UserID(r.Context()), in)
		return httpx.Respond(w, http.StatusOK, src, err)
	})))
	mux.Handle("GET /api/calendars/{id}/google", h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		acc, err := h.Svc.GoogleCalendars(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
		return httpx.Respond(w, http.StatusOK, acc, err)
	})))
	sourceRoutes(mux, h.Auth, "/api/calendars/{id}/google", h.Svc.ChooseGoogle, h.Svc.DisconnectGoogle)
}
