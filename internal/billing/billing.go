// Package billing is the subscription: R$ 21,90 a month after the trial. A
// Provider takes payments — the local test provider by default (a checkout
// page of our own that says it is a test), Stripe when configured — and only
// the provider's confirmation makes a subscription active.
package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/tz"
)

// PriceCents is the monthly plan.
const PriceCents = 2190

// PlanName is what the screens call the plan.
const PlanName = "Premium"

// Owner is who is paying.
type Owner struct{ ID, Email, Name string }

// Provider takes payments.
type Provider interface {
	Name() string
	// Checkout starts a payment and returns the page to send the owner to.
	Checkout(ctx context.Context, o Owner) (url string, err error)
	// Portal returns where the owner manages the subscription.
	Portal(ctx context.Context, o Owner, sub *Subscription) (url string, err error)
	// Cancel stops renewal at the end of the period and returns that date.
	Cancel(ctx context.Context, sub *Subscription) (time.Time, error)
}

// Subscription is an owner's subscription row.
type Subscription struct {
	UserID            string
	Provider          string
	Status            string
	PeriodEnd         time.Time
	CancelAtPeriodEnd bool
	CustomerRef       string
	SubscriptionRef   string
}

// Status is what the app reads (SPEC §3 Subscription status).
type Status struct {
	Subscribed        bool       `json:"subscribed"`
	Tier              *string    `json:"subscriptionTier"`
	End               *time.Time `json:"subscriptionEnd"`
	CancelAtPeriodEnd bool       `json:"cancelAtPeriodEnd"`
	PriceCents        int        `json:"priceCents"`
}

// Service reads and changes subscriptions.
type Service struct {
	DB       *db.DB
	Clock    clock.Clock
	Provider Provider
	Notes    *notifications.Service
}

func (s *Service) get(ctx context.Context, q db.Querier, userID string) (*Subscription, error) {
	var sub Subscription
	err := q.QueryRowContext(ctx, `SELECT user_id, provider, status, current_period_end, cancel_at_period_end, customer_ref, subscription_ref
		FROM subscriptions WHERE user_id = ?`, userID).Scan(&sub.UserID, &sub.Provider, &sub.Status, &sub.PeriodEnd, &sub.CancelAtPeriodEnd, &sub.CustomerRef, &sub.SubscriptionRef)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &sub, err
}

// Active reports whether a subscription gives access at now: active and
// within its paid period (a cancelled renewal keeps access until then).
func Active(sub *Subscription, now time.Time) bool {
	return sub != nil && sub.Status == "active" && now.Before(sub.PeriodEnd)
}

// Status returns the owner's subscription as the app reads it.
func (s *Service) Status(ctx context.Context, userID string) (*Status, error) {
	sub, err := s.get(ctx, s.DB, userID)
	if err != nil {
		return nil, err
	}
	st := &Status{PriceCents: PriceCents}
	if Active(sub, s.Clock.Now()) {
		tier, end := PlanName, sub.PeriodEnd.UTC()
		st.Subscribed, st.Tier, st.End, st.CancelAtPeriodEnd = true, &tier, &end, sub.CancelAtPeriodEnd
	}
	return st, nil
}

// Activate records a paid period (from the local checkout or a Stripe
// event), inside the caller's transaction, and tells the owner.
func (s *Service) Activate(ctx context.Context, tx *db.Tx, sub Subscription) error {
	now := s.Clock.Now()
	_, err := tx.ExecContext(ctx, `INSERT INTO subscriptions (user_id, provider, status, current_period_end, cancel_at_period_end, customer_ref, subscription_ref, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET provider = excluded.provider, status = excluded.status, current_period_end = excluded.current_period_end,
			cancel_at_period_end = excluded.cancel_at_period_end, customer_ref = excluded.customer_ref, subscription_ref = excluded.subscription_ref,
			updated_at = excluded.updated_at`,
		sub.UserID, sub.Provider, sub.Status, sub.PeriodEnd.UTC(), sub.CancelAtPeriodEnd, sub.CustomerRef, sub.SubscriptionRef, now, now)
	if err != nil {
		return err
	}
	if sub.Status != "active" {
		return s.Notes.Create(ctx, tx, sub.UserID, notifications.System, "Assinatura encerrada",
			"Sua assinatura foi encerrada. O agendamento online fica indisponível até você assinar novamente.", "")
	}
	return s.Notes.Create(ctx, tx, sub.UserID, notifications.System, "Assinatura ativada",
		fmt.Sprintf("Seu plano %s está ativo até %s.", PlanName, brfmt.Day(sub.PeriodEnd.In(tz.Load(tz.Default)))), "")
}

var (
	errNoSubscription = httpx.NewError(http.StatusConflict, "not_subscribed", "Você não tem uma assinatura ativa.")
	errCheckout       = httpx.NewError(http.StatusNotFound, "not_found", "Pagamento não encontrado.")
)

func (s *Service) owner(ctx context.Context, userID string) (Owner, error) {
	o := Owner{ID: userID}
	err := s.DB.QueryRowContext(ctx, `SELECT u.email, p.name FROM users u JOIN profiles p ON p.id = u.id WHERE u.id = ?`, userID).Scan(&o.Email, &o.Name)
	return o, err
}

// Cancel stops renewal at the end of the period; access lasts until then.
func (s *Service) Cancel(ctx context.Context, userID string) (time.Time, error) {
	sub, err := s.get(ctx, s.DB, userID)
	if err != nil {
		return time.Time{}, err
	}
	if !Active(sub, s.Clock.Now()) {
		return time.Time{}, errNoSubscription
	}
	end, err := s.Provider.Cancel(ctx, sub)
	if err != nil {
		return time.Time{}, err
	}
	err = s.DB.OwnerExec(ctx, userID, nil, `UPDATE subscriptions SET cancel_at_period_end = TRUE, current_period_end = ?, updated_at = ? WHERE user_id = ?`, end.UTC(), s.Clock.Now(), userID)
	return end.UTC(), err
}

// Local is the test provider: a checkout page of our own, clearly marked as
// a test, whose confirmation activates one month.
type Local struct {
	DB      *db.DB
	Clock   clock.Clock
	BaseURL string
}

// Name is "local".
func (l *Local) Name() string { return "local" }

// Checkout opens a test checkout and returns its page.
func (l *Local) Checkout(ctx context.Context, o Owner) (string, error) {
	id := uuid.NewString()
	if _, err := l.DB.ExecContext(ctx, `INSERT INTO checkouts (id, user_id, provider, status, created_at) VALUES (?, ?, 'local', 'open', ?)`, id, o.ID, l.Clock.Now()); err != nil {
		return "", err
	}
	return l.BaseURL + "/checkout/test/" + id, nil
}

// Portal is the subscribe page itself: there is nothing else to manage.
func (l *Local) Portal(context.Context, Owner, *Subscription) (string, error) {
	return l.BaseURL + "/subscribe", nil
}

// Cancel keeps the period as it is.
func (l *Local) Cancel(_ context.Context, sub *Subscription) (time.Time, error) {
	return sub.PeriodEnd, nil
}

// PayTest completes a local test checkout of the owner: one month, active.
func (s *Service) PayTest(ctx context.Context, userID, checkoutID string) error {
	return s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status FROM checkouts WHERE id = ? AND user_id = ? AND provider = 'local'`, checkoutID, userID).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return errCheckout
		}
		if err != nil || status == "paid" {
			return err // paying twice changes nothing
		}
		if _, err := tx.ExecContext(ctx, `UPDATE checkouts SET status = 'paid' WHERE id = ?`, checkoutID); err != nil {
			return err
		}
		start := s.Clock.Now()
		if cur, err := s.get(ctx, tx, userID); err != nil {
			return err
		} else if Active(cur, start) {
			start = cur.PeriodEnd // paying again extends the paid period
		}
		return s.Activate(ctx, tx, Subscription{UserID: userID, Provider: "local", Status: "active", PeriodEnd: start.AddDate(0, 1, 0)})
	})
}

// Handlers serves the subscription endpoints.
type Handlers struct {
	Svc  *Service
	Auth *auth.Handlers
}

// Register adds the routes.
func (h *Handlers) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/subscription", h.Auth.RequireUser(httpx.Handle(h.status)))
	mux.Handle("POST /api/subscription/checkout", h.Auth.RequireUser(httpx.Handle(h.checkout)))
	mux.Handle("POST /api/subscription/portal", h.Auth.RequireUser(httpx.Handle(h.portal)))
	mux.Handle("POST /api/subscription/cancel", h.Auth.RequireUser(httpx.Handle(h.cancel)))
	mux.Handle("POST /api/billing/test-checkout/{id}/pay", h.Auth.RequireUser(httpx.Handle(h.payTest)))
}

func (h *Handlers) status(w http.ResponseWriter, r *http.Request) error {
	st, err := h.Svc.Status(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, st, err)
}

func (h *Handlers) checkout(w http.ResponseWriter, r *http.Request) error {
	o, err := h.Svc.owner(r.Context(), auth.UserID(r.Context()))
	if err != nil {
		return err
	}
	url, err := h.Svc.Provider.Checkout(r.Context(), o)
	return httpx.Respond(w, http.StatusOK, map[string]string{"url": url}, err)
}

func (h *Handlers) portal(w http.ResponseWriter, r *http.Request) error {
	uid := auth.UserID(r.Context())
	o, err := h.Svc.owner(r.Context(), uid)
	if err != nil {
		return err
	}
	sub, err := h.Svc.get(r.Context(), h.Svc.DB, uid)
	if err != nil {
		return err
	}
	if sub == nil {
		return errNoSubscription
	}
	url, err := h.Svc.Provider.Portal(r.Context(), o, sub)
	return httpx.Respond(w, http.StatusOK, map[string]string{"url": url}, err)
}

func (h *Handlers) cancel(w http.ResponseWriter, r *http.Request) error {
	end, err := h.Svc.Cancel(r.Context(), auth.UserID(r.Context()))
	return httpx.Respond(w, http.StatusOK, map[string]time.Time{"cancellationDate": end}, err)
}

func (h *Handlers) payTest(w http.ResponseWriter, r *http.Request) error {
	if h.Svc.Provider.Name() != "local" {
		return httpx.ErrNotFound
	}
	err := h.Svc.PayTest(r.Context(), auth.UserID(r.Context()), r.PathValue("id"))
	return httpx.Respond(w, http.StatusOK, map[string]bool{"success": true}, err)
}
