package push

import (
	"net/http"

	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

// Handlers are the public routes: the server's VAPID key, and a client's
// browser subscribing or unsubscribing by their private link's token.
type Handlers struct {
	Svc        *Service
	Tokens     Tokens
	Limiter    *ratelimit.Limiter
	TrustProxy bool
}

// Register mounts the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/public/push/key", httpx.Handle(h.key))
	mux.Handle("POST /api/public/bookings/{token}/push", httpx.Handle(h.subscribe))
	mux.Handle("POST /api/public/bookings/{token}/push/remove", httpx.Handle(h.unsubscribe))
}

func (h *Handlers) key(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"publicKey": h.Svc.PublicKeyOf()})
	return nil
}

func (h *Handlers) subscribe(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	var in Subscription
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	err := h.Svc.Subscribe(r.Context(), h.Tokens, r.PathValue("token"), in)
	return httpx.Respond(w, http.StatusOK, map[string]bool{"subscribed": true}, err)
}

func (h *Handlers) unsubscribe(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	var in struct {
		Endpoint string `json:"endpoint"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	removed, err := h.Svc.Unsubscribe(r.Context(), h.Tokens, r.PathValue("token"), in.Endpoint)
	return httpx.Respond(w, http.StatusOK, map[string]bool{"removed": removed}, err)
}
