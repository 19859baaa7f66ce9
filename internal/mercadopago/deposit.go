package mercadopago

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/platform/db"
)

// Provider is the deposits' provider name of a Mercado Pago charge: the
// source of its history entries.
const Provider = "mercadopago"

// Chargers is the deposits' seam (deposits.Chargers) with Mercado Pago
// plugged in: an owner who connected an account is charged through it;
// any other gets Else (the static Pix from the owner's key).
type Chargers struct {
	Svc  *Service
	Else deposits.Chargers
}

// For answers the owner's Mercado Pago charger when connected, else Else's.
func (c Chargers) For(ctx context.Context, q db.Querier, ownerID string) (deposits.Charger, error) {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM mercadopago_accounts WHERE user_id = ?`, ownerID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return c.Else.For(ctx, q, ownerID)
	}
	if err != nil {
		return nil, err
	}
	fallback, err := c.Else.For(ctx, q, ownerID)
	if err != nil {
		return nil, err
	}
	return charger{svc: c.Svc, fallback: fallback}, nil
}

// charger charges one deposit as a Mercado Pago Pix.
type charger struct {
	svc      *Service
	fallback deposits.Charger // the static Pix, or nil without a key
}

// Reaches: Mercado Pago charges a client with an e-mail; one without is
// charged by the owner's static Pix, when there is a key.
func (c charger) Reaches(clientEmail string) bool {
	return clientEmail != "" || c.fallback != nil
}

// Charge makes (or finds again: the reference is its key) the deposit's
// Pix at Mercado Pago. Mercado Pago needs the payer's e-mail: a client who
// booked without one gets the owner's static Pix when there is a key.
func (c charger) Charge(ctx context.Context, req deposits.ChargeRequest) (deposits.Charge, error) {
	var email string
	err := c.svc.DB.QueryRowContext(ctx, `SELECT COALESCE(client_email, '') FROM appointments WHERE id = ? AND user_id = ?`, req.AppointmentID, req.OwnerID).Scan(&email)
	if err != nil {
		return deposits.Charge{}, err
	}
	if email == "" {
		if c.fallback != nil {
			return c.fallback.Charge(ctx, req)
		}
		return deposits.Charge{}, fmt.Errorf("mercadopago: the client has no e-mail for the Pix and the owner no Pix key")
	}
	ch, err := c.svc.Charge(ctx, ChargeInput{OwnerID: req.OwnerID, AppointmentID: req.AppointmentID, Reference: req.Reference, Key: req.Reference,
		AmountCents: req.AmountCents, Description: req.Description, PayerEmail: email, ExpiresAt: req.ExpiresAt})
	if errors.Is(err, ErrNotConnected) && c.fallback != nil {
		return c.fallback.Charge(ctx, req)
	}
	if err != nil {
		return deposits.Charge{}, err
	}
	return deposits.Charge{Provider: Provider, ProviderRef: ch.PaymentID, CopyPaste: ch.QRCode, Receiver: receiverOf(ch.QRCode)}, nil
}

// receiverOf reads the merchant name (field 59) of a Pix BR Code: who the
// client's bank app will show as paid ("" when the payload has none).
func receiverOf(payload string) string {
	for i := 0; i+4 <= len(payload); {
		id, n := payload[i:i+2], 0
		if _, err := fmt.Sscanf(payload[i+2:i+4], "%02d", &n); err != nil || i+4+n > len(payload) {
			return ""
		}
		if id == "59" {
			return payload[i+4 : i+4+n]
		}
		i += 4 + n
	}
	return ""
}
