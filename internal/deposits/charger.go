package deposits

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agendei/agendei/internal/pix"
	"github.com/agendei/agendei/internal/platform/db"
)

// ChargeRequest is one deposit to charge.
type ChargeRequest struct {
	OwnerID       string
	AppointmentID string
	// Reference is the deposit's own id for the payment: unique per
	// booking, 1–25 ASCII letters and digits (the static Pix's txid; a
	// provider's external reference and idempotency key).
	Reference   string
	AmountCents int64
	// Description is what the payer's app shows, e.g. "Sinal: Corte com
	// Ana em 01/12 às 10:00".
	Description string
	// ExpiresAt is the end of the hold: a provider's payment should expire then.
	ExpiresAt time.Time
}

// Charge is how the client pays one deposit.
type Charge struct {
	// Provider names who confirms the payment: ProviderStatic (the owner,
	// by tapping "Sinal recebido") or a provider's name.
	Provider string
	// ProviderRef is the provider's id of the payment ("" for static Pix).
	ProviderRef string
	// CopyPaste is the "Pix Copia e Cola" text; the QR code is drawn from it.
	CopyPaste string
	// Receiver is who the client's app will show as paid.
	Receiver string
}

// ProviderStatic is the static Pix from the owner's key.
const ProviderStatic = "pix"

// Charger produces a deposit's charge. It is called after the booking's
// transaction commits (a provider's call never holds the booking lock), at
// most once per deposit unless it failed, and must be idempotent by
// req.Reference (a retry after a failure may call it again).
type Charger interface {
	Charge(ctx context.Context, req ChargeRequest) (Charge, error)
}

// Reacher is a Charger that cannot charge every client: Mercado Pago needs
// the payer's e-mail. A booking whose client it cannot reach asks no
// deposit (never a hold for a payment no one can make).
type Reacher interface {
	Reaches(clientEmail string) bool
}

// Reaches reports whether c can charge a client with this e-mail ("" for
// none): a Charger that is no Reacher charges anyone.
func Reaches(c Charger, clientEmail string) bool {
	r, ok := c.(Reacher)
	return !ok || r.Reaches(clientEmail)
}

// ChargeJob is the kind of the job that makes a deposit's charge after
// its booking commits, when the booking's own short try did not; its
// payload is ExpireJobPayload (the owner and the appointment).
const ChargeJob = "deposit.charge"

// Chargers picks an owner's Charger: nil when the owner cannot take
// deposits (no Pix key, no provider connected), and then their services'
// policies are not applied — the booking is confirmed as without one.
// Issue 29's Mercado Pago plugs in here: a Chargers that answers the
// owner's Mercado Pago charger when connected and Static's otherwise.
type Chargers interface {
	For(ctx context.Context, q db.Querier, ownerID string) (Charger, error)
}

// Static is the default Chargers: the static Pix BR Code from the key,
// receiver name and city on the owner's profile.
type Static struct{}

// PixSettings are the owner's Pix for static charges.
type PixSettings struct {
	KeyType string `json:"keyType"`
	Key     string `json:"key"`
	Name    string `json:"name"`
	City    string `json:"city"`
}

// ReadPix reads the owner's Pix settings (zero when none).
func ReadPix(ctx context.Context, q db.Querier, ownerID string) (PixSettings, error) {
	var p PixSettings
	err := q.QueryRowContext(ctx, `SELECT pix_key_type, pix_key, pix_name, pix_city FROM profiles WHERE id = ?`, ownerID).Scan(&p.KeyType, &p.Key, &p.Name, &p.City)
	if errors.Is(err, sql.ErrNoRows) {
		return PixSettings{}, nil
	}
	return p, err
}

// For answers the owner's static Pix charger, or nil without a key.
func (Static) For(ctx context.Context, q db.Querier, ownerID string) (Charger, error) {
	p, err := ReadPix(ctx, q, ownerID)
	if err != nil || p.Key == "" {
		return nil, err
	}
	return StaticPix{Settings: p}, nil
}

// StaticPix builds the BR Code of one deposit from the owner's Pix.
type StaticPix struct{ Settings PixSettings }

// Charge builds the payload; the owner confirms the payment by hand.
func (c StaticPix) Charge(_ context.Context, req ChargeRequest) (Charge, error) {
	payload, err := pix.Build(pix.Static{Key: c.Settings.Key, Name: c.Settings.Name, City: c.Settings.City, AmountCents: req.AmountCents, Txid: req.Reference})
	if err != nil {
		return Charge{}, err
	}
	return Charge{Provider: ProviderStatic, CopyPaste: payload, Receiver: pix.Normalize(c.Settings.Name, pix.MaxName)}, nil
}
