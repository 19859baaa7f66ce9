package mercadopago

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
)

// ErrNotConnected is Charge's answer for an owner without a (working)
// Mercado Pago connection: the caller shows the static Pix instead.
var ErrNotConnected = errors.New("mercadopago: owner not connected")

// MinPixLife is the shortest date_of_expiration Mercado Pago takes for a
// Pix (30 minutes ahead), plus a minute for the call's own time. A hold
// shorter than that gets a Pix that outlives it; a payment after the hold
// lapsed goes through the late-payment path (flagged for refund when the
// time was taken).
const MinPixLife = 31 * time.Minute

// ChargeInput is a Pix deposit to charge through the owner's account.
type ChargeInput struct {
	OwnerID       string
	AppointmentID string
	// Reference is the external_reference (the booking's reference, at
	// most 64 characters), by which the payment is also found.
	Reference string
	// Key makes the charge unique: the same owner and key are the same
	// payment, however often Charge is called (default: AppointmentID).
	Key         string
	AmountCents int64
	Description string
	PayerEmail  string
	ExpiresAt   time.Time // the hold's expiry
}

// Charge is a Pix payment made for a deposit.
type Charge struct {
	PaymentID    string    `json:"paymentId"`
	Status       string    `json:"status"`
	AmountCents  int64     `json:"amountCents"`
	QRCode       string    `json:"qrCode"`       // "Pix Copia e Cola"
	QRCodeBase64 string    `json:"qrCodeBase64"` // PNG, base64
	TicketURL    string    `json:"ticketUrl"`
	ExpiresAt    time.Time `json:"expiresAt"`
	Outcome      string    `json:"outcome"` // '', confirmed, refund
}

// Charge creates (or finds again) the Pix payment of a deposit. The row
// and its idempotency key are written before the call, so a retry — after
// a time-out, on another instance — asks Mercado Pago with the same key
// and the same body and gets the same payment back.
func (s *Service) Charge(ctx context.Context, in ChargeInput) (*Charge, error) {
	if in.AmountCents <= 0 {
		return nil, errors.New("mercadopago: a charge needs a positive amount")
	}
	if len(in.Reference) == 0 || len(in.Reference) > 64 {
		return nil, errors.New("mercadopago: the reference must have 1 to 64 characters")
	}
	acc, err := s.load(ctx, in.OwnerID)
	if err != nil || acc == nil {
		return nil, errors.Join(ErrNotConnected, err)
	}
	if in.Key == "" {
		in.Key = in.AppointmentID
	}
	sum := sha256.Sum256([]byte(in.OwnerID + "|" + in.Key))
	idem := "agendei-" + hex.EncodeToString(sum[:16])
	now := s.Clock.Now().UTC()
	expires := in.ExpiresAt.UTC().Truncate(time.Second)
	if min := now.Add(MinPixLife).Truncate(time.Second); expires.Before(min) {
		expires = min
	}
	if _, err := s.DB.ExecContext(ctx, `INSERT INTO mercadopago_payments (id, user_id, appointment_id, idem_key, external_reference, amount_cents,
		status, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'creating', ?, ?, ?) ON CONFLICT (idem_key) DO NOTHING`,
		uuid.NewString(), in.OwnerID, in.AppointmentID, idem, in.Reference, in.AmountCents, expires, now, now); err != nil {
		return nil, err
	}
	var c Charge
	var rowID, ref string
	var payID sql.NullString
	err = s.DB.QueryRowContext(ctx, `SELECT id, payment_id, status, amount_cents, qr_code, qr_code_base64, ticket_url, expires_at, outcome, external_reference
		FROM mercadopago_payments WHERE idem_key = ? AND user_id = ?`, idem, in.OwnerID).Scan(
		&rowID, &payID, &c.Status, &c.AmountCents, &c.QRCode, &c.QRCodeBase64, &c.TicketURL, &c.ExpiresAt, &c.Outcome, &ref)
	if err != nil {
		return nil, err
	}
	if payID.Valid {
		c.PaymentID = payID.String
		return &c, nil
	}
	// The first call, or one that did not hear Mercado Pago's answer: the
	// stored amount, reference and expiry make the same body again. An
	// OAuth-connected owner's notices go to the application's webhook.
	notify := s.webhookURL(acc.WebhookKey)
	if acc.Auth == AuthOAuth {
		notify = s.AppWebhookURL()
	}
	p, err := s.API.CreatePix(ctx, acc.Token, PixRequest{AmountCents: c.AmountCents, Description: description(in.Description),
		ExternalReference: ref, PayerEmail: in.PayerEmail, ExpiresAt: c.ExpiresAt, NotificationURL: notify,
		IdempotencyKey: idem})
	if err != nil {
		return nil, err
	}
	if p.QRCode == "" {
		return nil, errors.New("mercadopago: pix payment without a qr_code")
	}
	if _, err := s.DB.ExecContext(ctx, `UPDATE mercadopago_payments SET payment_id = ?, status = CASE WHEN status = 'creating' THEN ? ELSE status END,
		status_detail = ?, qr_code = ?, qr_code_base64 = ?, ticket_url = ?, updated_at = ? WHERE id = ?`,
		p.ID, p.Status, p.StatusDetail, p.QRCode, p.QRCodeBase64, p.TicketURL, now, rowID); err != nil {
		return nil, err
	}
	if err := s.scheduleCheck(ctx, in, p.ID); err != nil {
		return nil, err
	}
	c.PaymentID, c.QRCode, c.QRCodeBase64, c.TicketURL = p.ID, p.QRCode, p.QRCodeBase64, p.TicketURL
	if c.Status == "creating" {
		c.Status = p.Status
	}
	return &c, nil
}

// ChargeOf is the latest Pix charge of an appointment of the owner's (nil when none).
func (s *Service) ChargeOf(ctx context.Context, ownerID, appointmentID string) (*Charge, error) {
	var c Charge
	var payID sql.NullString
	err := s.DB.QueryRowContext(ctx, `SELECT payment_id, status, amount_cents, qr_code, qr_code_base64, ticket_url, expires_at, outcome
		FROM mercadopago_payments WHERE appointment_id = ? AND user_id = ? AND payment_id IS NOT NULL ORDER BY created_at DESC, id LIMIT 1`,
		appointmentID, ownerID).Scan(&payID, &c.Status, &c.AmountCents, &c.QRCode, &c.QRCodeBase64, &c.TicketURL, &c.ExpiresAt, &c.Outcome)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.PaymentID = payID.String
	return &c, nil
}

// description is the payment's description as the client's bank shows it:
// one line, at most 600 characters.
func description(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		s = "Sinal de agendamento"
	}
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200])
	}
	return s
}
