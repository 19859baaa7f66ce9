package mercadopago

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Outcome is what an approved payment did to its booking.
type Outcome string

const (
	// Confirmed: the booking is confirmed (now, or it already was).
	Confirmed Outcome = "confirmed"
	// Refund: the hold had expired and its time was taken by then; the
	// booking was not confirmed and the deposit is to be returned.
	Refund Outcome = "refund"
	// Ignored: the payment is for no deposit Agendei knows any more (its
	// appointment was removed); recorded so it is not tried again.
	Ignored Outcome = "ignored"
)

// Paid is an approved Pix deposit, as read from Mercado Pago's API.
type Paid struct {
	OwnerID       string
	AppointmentID string
	PaymentID     string
	AmountCents   int64
	PaidAt        time.Time
}

// Confirmer is the deposit model's confirm path: it confirms the booking
// whose deposit was paid, through booking.Hold's serialised re-check when
// the hold has expired (a late payment whose time was taken meanwhile is
// not confirmed: it answers Refund). It must be idempotent: a second call
// for the same payment changes nothing and answers the same outcome.
type Confirmer interface {
	ConfirmPaid(ctx context.Context, p Paid) (Outcome, error)
}

var (
	errStale = httpx.NewError(http.StatusUnauthorized, "stale_signature", "Notificação fora do prazo: o horário da assinatura difere do servidor em mais de 5 minutos.")
	errBody  = httpx.Validation("Corpo da notificação inválido.")
)

// notification is the part of a webhook body Agendei reads: which kind and
// which resource. The status is never taken from it.
type notification struct {
	Type   string `json:"type"`
	Action string `json:"action"`
	Data   struct {
		ID json.RawMessage `json:"id"`
	} `json:"data"`
}

// WebhookHandler takes Mercado Pago's notifications for one owner. The
// x-signature is checked first (data.id from the URL's query string,
// x-request-id, ts; constant time; ts within SignatureWindow); then a
// payment notification makes the payment be read through the API with the
// owner's token, and an approved one confirms its booking. A 5xx makes
// Mercado Pago deliver it again; every step is idempotent.
func (h *Handlers) WebhookHandler(w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return httpx.ErrTooLarge
		}
		return err
	}
	s := h.Svc
	userID, err := s.accounts().Owner(r.Context(), r.PathValue("key"))
	if err != nil {
		return err
	}
	acc, err := s.load(r.Context(), userID)
	if err != nil || acc == nil || acc.Auth == AuthOAuth {
		// An OAuth connection has no secret of its own: its notices come
		// to the application's webhook.
		return errors.Join(err, connect.ErrHook)
	}
	q := r.URL.Query()
	signature := r.Header.Get("x-signature")
	if signature == "" && q.Get("topic") != "" {
		// An IPN notice (Mercado Pago's older format: ?topic=…&id=…), which
		// its documentation says is never signed: it proves nothing, so it
		// is only a hint to read the payment back with the owner's token —
		// what Agendei does for every notification anyway — and says
		// nothing of the stored secret.
		return s.ipn(w, r, acc.UserID, q.Get("topic"), q.Get("id"))
	}
	dataID, requestID := q.Get("data.id"), r.Header.Get("x-request-id")
	switch err := Verify(acc.WebhookSecret, signature, dataID, requestID, s.Clock.Now()); {
	case errors.Is(err, ErrStale):
		return errStale
	case err != nil && signature == "":
		return connect.ErrSignature // unsigned: not a sign that the stored secret is wrong
	case err != nil:
		s.health().Heard(r.Context(), acc.UserID, false)
		return connect.ErrSignature
	}
	s.health().Heard(r.Context(), acc.UserID, true)
	return s.take(w, r, body, dataID, requestID, func(string) (string, error) { return acc.UserID, nil })
}

// AppWebhookHandler takes the notices of the operator's application — the
// payments of every owner connected by "Conectar Mercado Pago" name it as
// their notification_url. The x-signature is checked with the
// application's secret before anything is read; the payment is then found
// among Agendei's charges by its id (→ its owner) and read through the API
// with that owner's token. A notice of a payment Agendei does not know
// changes nothing.
func (h *Handlers) AppWebhookHandler(w http.ResponseWriter, r *http.Request) error {
	s := h.Svc
	if s.App == nil {
		return connect.ErrHook
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return httpx.ErrTooLarge
		}
		return err
	}
	q := r.URL.Query()
	signature := r.Header.Get("x-signature")
	if signature == "" && q.Get("topic") != "" {
		// An unsigned IPN notice: only a hint to read the payment back.
		id := q.Get("id")
		if q.Get("topic") != "payment" || id == "" {
			return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, nil)
		}
		if !validPaymentID(id) {
			return errBody
		}
		owner, err := s.ownerOfPayment(r.Context(), id)
		if err != nil || owner == "" {
			return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, err)
		}
		return s.ipn(w, r, owner, "payment", id)
	}
	dataID, requestID := q.Get("data.id"), r.Header.Get("x-request-id")
	switch err := Verify(s.App.WebhookSecret, signature, dataID, requestID, s.Clock.Now()); {
	case errors.Is(err, ErrStale):
		return errStale
	case err != nil:
		return connect.ErrSignature
	}
	return s.take(w, r, body, dataID, requestID, func(id string) (string, error) {
		owner, err := s.ownerOfPayment(r.Context(), id)
		if owner != "" {
			// What the card shows as the last notice received, as for an owner's own webhook.
			s.health().Heard(r.Context(), owner, true)
		}
		return owner, err
	})
}

// ownerOfPayment is the owner of one of Agendei's charges by Mercado
// Pago's payment id ("" when none).
func (s *Service) ownerOfPayment(ctx context.Context, paymentID string) (string, error) {
	var owner string
	err := s.DB.QueryRowContext(ctx, `SELECT user_id FROM mercadopago_payments WHERE payment_id = ?`, paymentID).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return owner, err
}

// take acts on a notice whose signature was checked: a payment's is read
// through the API with its owner's token (owner finds them: "" is none)
// and recorded, once per x-request-id.
func (s *Service) take(w http.ResponseWriter, r *http.Request, body []byte, dataID, requestID string, owner func(paymentID string) (string, error)) error {
	var n notification
	if err := json.Unmarshal(body, &n); err != nil {
		return errBody
	}
	if id := idString(n.Data.ID); id != "" && dataID != "" && id != dataID {
		return errBody // the body names another resource than the signed one
	} else if dataID == "" {
		// Signed without data.id: the body's id (if any) is not covered by the
		// signature, but the payment is read back through the API with the
		// owner's token, never taken from the body.
		dataID = id
	}
	kind := r.URL.Query().Get("type")
	if kind == "" {
		kind = n.Type
	}
	if kind != "payment" || dataID == "" {
		return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, nil)
	}
	ownerID, err := owner(dataID)
	if err != nil {
		return err
	}
	if ownerID == "" {
		return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, nil) // not one of Agendei's charges
	}
	if requestID != "" {
		var seen int
		if err := s.DB.QueryRowContext(r.Context(), `SELECT COUNT(*) FROM mercadopago_notifications WHERE request_id = ?`, requestID).Scan(&seen); err != nil {
			return err
		}
		if seen > 0 {
			return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, nil)
		}
	}
	if err := s.Sync(r.Context(), ownerID, dataID); err != nil {
		httpx.Logger(r.Context()).Warn("mercadopago webhook: payment not taken, Mercado Pago will deliver it again", "err", err)
		return err
	}
	if requestID != "" {
		now := s.Clock.Now().UTC()
		if _, err := s.DB.ExecContext(r.Context(), `INSERT INTO mercadopago_notifications (request_id, user_id, received_at) VALUES (?, ?, ?)
			ON CONFLICT (request_id) DO NOTHING`, requestID, ownerID, now); err != nil {
			return err
		}
		// Past the window a replay is refused by its ts: its record is no longer needed.
		if _, err := s.DB.ExecContext(r.Context(), `DELETE FROM mercadopago_notifications WHERE received_at < ?`, now.Add(-2*SignatureWindow)); err != nil {
			return err
		}
	}
	return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, nil)
}

// ipn takes an unsigned IPN notice: a payment's id is read back through the
// API (its status is never taken from the notice); any other topic is only
// acknowledged. A payment that is not one of Agendei's charges changes
// nothing, so a forged notice can only make Agendei read what it already has.
func (s *Service) ipn(w http.ResponseWriter, r *http.Request, ownerID, topic, id string) error {
	if topic == "payment" && id != "" {
		if !validPaymentID(id) {
			return errBody
		}
		if err := s.Sync(r.Context(), ownerID, id); err != nil {
			httpx.Logger(r.Context()).Warn("mercadopago IPN: payment not taken, Mercado Pago will deliver it again", "err", err)
			return err
		}
	}
	return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, nil)
}

// validPaymentID: Mercado Pago's payment ids are numbers.
func validPaymentID(id string) bool {
	if id == "" || len(id) > 20 {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// idString reads data.id, which Mercado Pago writes as a string (or, in
// older notifications, a number).
func idString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// Sync reads a payment of the owner's through the API and records its
// status on the charge; an approved payment goes to the Confirmer once (a
// claim keeps two deliveries from acting at once, and the Confirmer is
// idempotent besides). A payment Agendei did not create is ignored.
func (s *Service) Sync(ctx context.Context, ownerID, paymentID string) error {
	acc, err := s.load(ctx, ownerID)
	if err != nil || acc == nil {
		return errors.Join(err, ErrNotConnected)
	}
	p, err := s.API.Payment(ctx, acc.Token, paymentID)
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
		return nil // not a payment of this account
	}
	if err != nil {
		return err
	}
	var rowID, apptID, outcome string
	var amount int64
	err = s.DB.QueryRowContext(ctx, `SELECT id, appointment_id, amount_cents, outcome FROM mercadopago_payments
		WHERE user_id = ? AND (payment_id = ? OR (payment_id IS NULL AND external_reference = ?))
		ORDER BY CASE WHEN payment_id IS NULL THEN 1 ELSE 0 END LIMIT 1`, ownerID, p.ID, p.ExternalReference).Scan(&rowID, &apptID, &amount, &outcome)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // not one of Agendei's charges
	}
	if err != nil {
		return err
	}
	now := s.Clock.Now().UTC()
	var approved any
	if !p.ApprovedAt.IsZero() {
		approved = p.ApprovedAt.UTC()
	}
	if _, err := s.DB.ExecContext(ctx, `UPDATE mercadopago_payments SET payment_id = ?, status = ?, status_detail = ?,
		approved_at = COALESCE(approved_at, ?), updated_at = ? WHERE id = ?`, p.ID, p.Status, p.StatusDetail, approved, now, rowID); err != nil {
		return err
	}
	if p.Status != "approved" || outcome != "" || s.Confirmer == nil {
		return nil
	}
	if p.AmountCents != amount || p.PaymentMethodID != "pix" {
		httpx.Logger(ctx).Warn("mercadopago: approved payment does not match its charge; not confirming",
			"payment", p.ID, "amount", p.AmountCents, "charged", amount, "method", p.PaymentMethodID)
		return nil
	}
	// Claim the confirmation for a minute: a duplicate delivery arriving
	// meanwhile leaves it to this one.
	n, err := db.ExecOwnedCount(ctx, s.DB, nil, `UPDATE mercadopago_payments SET claimed_until = ? WHERE id = ? AND outcome = ''
		AND (claimed_until IS NULL OR claimed_until < ?)`, now.Add(time.Minute), rowID, now)
	if err != nil || n == 0 {
		return err
	}
	paidAt := p.ApprovedAt
	if paidAt.IsZero() {
		paidAt = now
	}
	got, err := s.Confirmer.ConfirmPaid(ctx, Paid{OwnerID: ownerID, AppointmentID: apptID, PaymentID: p.ID, AmountCents: p.AmountCents, PaidAt: paidAt.UTC()})
	if err != nil {
		_, _ = s.DB.ExecContext(ctx, `UPDATE mercadopago_payments SET claimed_until = NULL WHERE id = ?`, rowID)
		return err
	}
	_, err = s.DB.ExecContext(ctx, `UPDATE mercadopago_payments SET outcome = ?, claimed_until = NULL, updated_at = ? WHERE id = ?`, string(got), now, rowID)
	return err
}
