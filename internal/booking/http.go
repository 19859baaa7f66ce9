package booking

import (
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/memo"
	"github.com/agendei/agendei/internal/platform/ratelimit"
	"github.com/agendei/agendei/internal/platform/versions"
	"github.com/agendei/agendei/internal/profiles"
)

// Public bookings are limited per visitor IP; the body of a booking is small.
var ruleBookIP = ratelimit.Rule{Name: "book:ip", Max: 30, Window: time.Hour}

const maxBookingBody = 8 << 10

// Handlers serves the anonymous booking endpoints.
type Handlers struct {
	Svc        *Service
	Limiter    *ratelimit.Limiter
	Memo       *memo.Cache  // nil: no cache
	Reads      *httpx.Queue // free times and bookable days wait their turn here (nil: no queue)
	TrustProxy bool
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/public/profiles/{username}/days", h.Reads.Wrap(h.Memo.Public("days", profiles.NormalizeUsername, httpx.Handle(h.days))))
	mux.Handle("GET /api/public/profiles/{username}/times", h.Reads.Wrap(h.Memo.Public("times", profiles.NormalizeUsername, httpx.Handle(h.times))))
	mux.Handle("POST /api/public/profiles/{username}/bookings", httpx.Handle(h.book))
	mux.Handle("GET /api/public/bookings/{token}", httpx.Handle(h.lookup))
	mux.Handle("POST /api/public/bookings/{token}/cancel", httpx.Handle(h.cancel))
	mux.Handle("POST /api/public/bookings/{token}/reschedule", httpx.Handle(h.reschedule))
	mux.Handle("GET /api/public/bookings/{token}/invite.ics", httpx.Handle(h.invite))
	mux.Handle("GET /api/public/bookings/{token}/pix.png", httpx.Handle(h.depositQR))
	mux.Handle("POST /api/public/bookings/{token}/pix", httpx.Handle(h.chargeAgain))
	mux.Handle("GET /api/public/bookings/{token}/times", httpx.Handle(h.rescheduleTimes))
	mux.Handle("GET /api/public/answers/{token}", httpx.Handle(h.answerPreview))
	mux.Handle("POST /api/public/answers/{token}", httpx.Handle(h.answerByToken))
}

func (h *Handlers) rescheduleTimes(w http.ResponseWriter, r *http.Request) error {
	times, err := h.Svc.ClientTimes(r.Context(), r.PathValue("token"), r.URL.Query().Get("date"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, map[string][]string{"times": times})
	return nil
}

var ruleCancelIP = ratelimit.Rule{Name: "cancel:ip", Max: 60, Window: time.Hour}

func (h *Handlers) lookup(w http.ResponseWriter, r *http.Request) error {
	c, err := h.Svc.Lookup(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusOK, c, err)
}

func (h *Handlers) cancel(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleCancelIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	c, err := h.Svc.Cancel(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusOK, c, err)
}

func (h *Handlers) reschedule(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleCancelIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBookingBody)
	var in struct {
		Date string `json:"date"`
		Time string `json:"time"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	c, err := h.Svc.ClientReschedule(r.Context(), r.PathValue("token"), in.Date, in.Time)
	return httpx.Respond(w, http.StatusOK, c, err)
}

// owner is the owner a public page's path names and their data version:
// the answer cache's lookup for this request when it made one (it keeps
// the answer under that version, so the answer is computed from it), or
// else read here.
func (h *Handlers) owner(r *http.Request) (versions.Owner, error) {
	if l, ok := memo.Looked(r.Context()); ok && l.Username == profiles.NormalizeUsername(r.PathValue("username")) {
		return versions.Owner{ID: l.OwnerID, Version: l.Version}, nil
	}
	return h.Svc.Owner(r.Context(), r.PathValue("username"))
}

func (h *Handlers) days(w http.ResponseWriter, r *http.Request) error {
	owner, err := h.owner(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	month, err := h.Svc.Days(r.Context(), owner, q.Get("professional"), q.Get("service"), q.Get("month"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, month)
	return nil
}

func (h *Handlers) times(w http.ResponseWriter, r *http.Request) error {
	owner, err := h.owner(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	times, err := h.Svc.Times(r.Context(), owner, q.Get("professional"), q.Get("service"), q.Get("date"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string][]string{"times": times})
	return nil
}

func (h *Handlers) book(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleBookIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBookingBody)
	var in Input
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	b, err := h.Svc.Book(r.Context(), r.PathValue("username"), in)
	return httpx.Respond(w, http.StatusCreated, b, err)
}
