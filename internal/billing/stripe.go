package billing

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	stripe "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Stripe takes payments through Stripe Checkout (a monthly BRL price), the
// Billing Portal, and cancellation at period end. Only its signed webhook
// changes a subscription.
type Stripe struct {
	client  *stripe.Client
	priceID string
	baseURL string
}

// StripeConfig configures the Stripe provider.
type StripeConfig struct {
	SecretKey, PriceID, BaseURL string
	APIBase                     string // for a Stripe API double in tests (stripe-mock); empty: Stripe
}

// NewStripe returns the Stripe provider.
func NewStripe(c StripeConfig) *Stripe {
	var opts []stripe.ClientOption
	if c.APIBase != "" {
		b := stripe.GetBackendWithConfig(stripe.APIBackend, &stripe.BackendConfig{URL: stripe.String(c.APIBase)})
		opts = append(opts, stripe.WithBackends(&stripe.Backends{API: b, Connect: b, Uploads: b, MeterEvents: b}))
	}
	return &Stripe{client: stripe.NewClient(c.SecretKey, opts...), priceID: c.PriceID, baseURL: c.BaseURL}
}

// Name is "stripe".
func (s *Stripe) Name() string { return "stripe" }

// Checkout opens a Stripe Checkout Session for the monthly plan; the owner's
// id travels in the subscription's metadata, so its events name the owner.
func (s *Stripe) Checkout(ctx context.Context, o Owner) (string, error) {
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModeSubscription)),
		LineItems:         []*stripe.CheckoutSessionCreateLineItemParams{{Price: stripe.String(s.priceID), Quantity: stripe.Int64(1)}},
		SuccessURL:        stripe.String(s.baseURL + "/subscription-success"),
		CancelURL:         stripe.String(s.baseURL + "/subscribe"),
		ClientReferenceID: stripe.String(o.ID),
		CustomerEmail:     stripe.String(o.Email),
		Locale:            stripe.String("pt-BR"),
		SubscriptionData:  &stripe.CheckoutSessionCreateSubscriptionDataParams{},
	}
	params.SubscriptionData.AddMetadata("user_id", o.ID)
	sess, err := s.client.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return "", err
	}
	return sess.URL, nil
}

// Portal opens the Billing Portal for the owner's customer.
func (s *Stripe) Portal(ctx context.Context, _ Owner, sub *Subscription) (string, error) {
	if sub.CustomerRef == "" {
		return "", errNoSubscription
	}
	p, err := s.client.V1BillingPortalSessions.Create(ctx, &stripe.BillingPortalSessionCreateParams{
		Customer: stripe.String(sub.CustomerRef), ReturnURL: stripe.String(s.baseURL + "/dashboard"),
	})
	if err != nil {
		return "", err
	}
	return p.URL, nil
}

// Cancel asks Stripe to end the subscription at the end of its period.
func (s *Stripe) Cancel(ctx context.Context, sub *Subscription) (time.Time, error) {
	if sub.SubscriptionRef == "" {
		return time.Time{}, errNoSubscription
	}
	updated, err := s.client.V1Subscriptions.Update(ctx, sub.SubscriptionRef, &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(true)})
	if err != nil {
		return time.Time{}, err
	}
	if end := periodEnd(updated); !end.IsZero() {
		return end, nil
	}
	return sub.PeriodEnd, nil
}

// periodEnd is the end of the subscription's current period (kept on its items).
func periodEnd(s *stripe.Subscription) time.Time {
	var end int64
	if s != nil && s.Items != nil {
		for _, it := range s.Items.Data {
			end = max(end, it.CurrentPeriodEnd)
		}
	}
	if end == 0 {
		return time.Time{}
	}
	return time.Unix(end, 0).UTC()
}

var errSignature = httpx.NewError(http.StatusBadRequest, "invalid_signature", "Assinatura do webhook inválida.")

// Webhook applies a Stripe event after checking its signature. Each event is
// applied once: its id is recorded in the same transaction.
func (s *Service) Webhook(ctx context.Context, payload []byte, signature, secret string) error {
	event, err := webhook.ConstructEventWithOptions(payload, signature, secret, webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		return errSignature
	}
	switch event.Type {
	case "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted":
	default:
		return nil // other events are not ours to act on
	}
	var sub stripe.Subscription
	if err := json.Unmarshal(event.Data.Raw, &sub); err != nil {
		return httpx.Validation("Evento inválido.")
	}
	userID := sub.Metadata["user_id"]
	if userID == "" {
		return nil
	}
	status := "active"
	switch {
	case event.Type == "customer.subscription.deleted", sub.Status == stripe.SubscriptionStatusCanceled:
		status = "canceled"
	case sub.Status == stripe.SubscriptionStatusPastDue, sub.Status == stripe.SubscriptionStatusUnpaid:
		status = "past_due"
	case sub.Status == stripe.SubscriptionStatusIncomplete, sub.Status == stripe.SubscriptionStatusIncompleteExpired:
		status = "incomplete"
	}
	customer := ""
	if sub.Customer != nil {
		customer = sub.Customer.ID
	}
	err = s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO billing_events (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`, event.ID, s.Clock.Now())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // seen before: changes nothing
		}
		var exists int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE id = ?`, userID).Scan(&exists); err != nil || exists == 0 {
			return err // an account deleted meanwhile
		}
		prev, err := s.get(ctx, tx, userID)
		if err != nil {
			return err
		}
		next := Subscription{UserID: userID, Provider: "stripe", Status: status, PeriodEnd: periodEnd(&sub),
			CancelAtPeriodEnd: sub.CancelAtPeriodEnd, CustomerRef: customer, SubscriptionRef: sub.ID}
		if next.PeriodEnd.IsZero() {
			next.PeriodEnd = s.Clock.Now()
		}
		// Tell the owner only when access starts or stops, not on every renewal detail.
		if prev != nil && (prev.Status == "active") == (status == "active") {
			_, err := tx.ExecContext(ctx, `UPDATE subscriptions SET provider = 'stripe', status = ?, current_period_end = ?, cancel_at_period_end = ?,
				customer_ref = ?, subscription_ref = ?, updated_at = ? WHERE user_id = ?`,
				next.Status, next.PeriodEnd, next.CancelAtPeriodEnd, next.CustomerRef, next.SubscriptionRef, s.Clock.Now(), userID)
			return err
		}
		return s.Activate(ctx, tx, next)
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil // an account deleted meanwhile
	}
	return err
}

// WebhookHandler serves POST /webhooks/stripe (mounted by internal/server).
func (h *Handlers) WebhookHandler(secret string) http.Handler {
	return httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 256<<10))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return httpx.ErrTooLarge
			}
			return err
		}
		err = h.Svc.Webhook(r.Context(), body, r.Header.Get("Stripe-Signature"), secret)
		return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, err)
	})
}
