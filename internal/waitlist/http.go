package waitlist

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

// Joins and claims are limited per visitor IP like public bookings.
var (
	ruleJoinIP  = ratelimit.Rule{Name: "waitlist:ip", Max: 30, Window: time.Hour}
	ruleClaimIP = ratelimit.Rule{Name: "waitlist:claim:ip", Max: 60, Window: time.Hour}
)

const maxBody = 8 << 10

// Handlers serves the waitlist's endpoints.
type Handlers struct {
	Svc        *Service
	Auth       *auth.Handlers
	Limiter    *ratelimit.Limiter
	TrustProxy bool
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("POST /api/public/profiles/{username}/waitlist", httpx.Handle(h.join))
	mux.Handle("GET /api/public/waitlist/{token}", httpx.Handle(h.lookup))
	mux.Handle("POST /api/public/waitlist/{token}/leave", httpx.Handle(h.leave))
	mux.Handle("GET /api/public/waitlist-offers/{token}", httpx.Handle(h.offer))
	mux.Handle("POST /api/public/waitlist-offers/{token}/claim", httpx.Handle(h.claim))
	mux.Handle("GET /api/waitlist", h.Auth.RequireUser(httpx.Handle(h.day)))
	mux.Handle("POST /api/waitlist/{id}/offers", h.Auth.RequireUser(httpx.Handle(h.byHand)))
	mux.Handle("GET /api/waitlist/settings", h.Auth.RequireUser(httpx.Handle(h.settings)))
	mux.Handle("PUT /api/waitlist/settings", h.Auth.RequireUser(httpx.Handle(h.saveSettings)))
}

func (h *Handlers) join(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleJoinIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	var in JoinInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Svc.Join(r.Context(), r.PathValue("username"), in)
	return httpx.Respond(w, http.StatusCreated, out, err)
}

func (h *Handlers) lookup(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "no-store")
	out, err := h.Svc.Lookup(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusOK, out, err)
}

func (h *Handlers) leave(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleClaimIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	err := h.Svc.Leave(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusOK, map[string]bool{"left": true}, err)
}

func (h *Handlers) offer(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "no-store")
	out, err := h.Svc.LookupOffer(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusOK, out, err)
}

func (h *Handlers) claim(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleClaimIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	out, err := h.Svc.Claim(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusCreated, out, err)
}

func (h *Handlers) day(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	limit, err1 := intParam(q.Get("limit"))
	offset, err2 := intParam(q.Get("offset"))
	if err := errors.Join(err1, err2); err != nil {
		return errPage
	}
	out, total, err := h.Svc.ForDay(r.Context(), auth.UserID(r.Context()), q.Get("date"), limit, offset)
	return httpx.Respond(w, http.StatusOK, map[string]any{"entries": out, "total": total}, err)
}

// intParam is a query's whole number; "" is 0.
func intParam(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	return strconv.Atoi(s)
}

func (h *Handlers) byHand(w http.ResponseWriter, r *http.Request) error {
	var in HandInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Svc.OfferByHand(r.Context(), auth.UserID(r.Context()), r.PathValue("id"), in)
	return httpx.Respond(w, http.StatusCreated, out, err)
}

func (h *Handlers) settings(w http.ResponseWriter, r *http.Request) error {
	out, err := h.Svc.GetSettings(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, out, err)
}

func (h *Handlers) saveSettings(w http.ResponseWriter, r *http.Request) error {
	var in Settings
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	out, err := h.Svc.SaveSettings(r.Context(), auth.UserID(r.Context()), in)
	return httpx.Respond(w, http.StatusOK, out, err)
}
