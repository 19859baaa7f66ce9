// Claims: the page behind an offer's link, and its booking.

package waitlist

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/deposits"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

var (
	errOffer       = httpx.NewError(http.StatusNotFound, "not_found", "Link de oferta inválido.")
	errExpired     = httpx.NewError(http.StatusConflict, "offer_expired", "O prazo deste link terminou. Você continua na lista de espera e receberá um novo aviso se outro horário vagar.")
	errClaimed     = httpx.NewError(http.StatusConflict, "offer_claimed", "Você já confirmou este horário. Os detalhes estão no e-mail de confirmação.")
	errEntryBooked = httpx.NewError(http.StatusConflict, "waitlist_booked", "Você já conseguiu um horário pela lista de espera. Os detalhes estão na confirmação do agendamento.")
	errGone        = httpx.NewError(http.StatusConflict, "slot_gone", "Esse horário já foi preenchido. Você continua na lista de espera e receberá um novo aviso se outro horário vagar.")
)

// Offer is what the claim page shows.
type Offer struct {
	OwnerName        string `json:"ownerName"`
	Username         string `json:"username"`
	ServiceName      string `json:"serviceName"`
	ProfessionalName string `json:"professionalName"`
	Date             string `json:"date"`
	Time             string `json:"time"`
	Duration         int    `json:"duration"`
	// PriceCents is left out when the owner hides prices on the public
	// page (issue 43 §3): the page says "Valor informado no atendimento".
	PriceCents *int64    `json:"priceCents,omitempty"`
	ExpiresAt  time.Time `json:"expiresAt"`
	// Status: open (claimable), taken (no longer free), expired, claimed.
	Status string `json:"status"`
}

// claimable is an offer as a claim reads it.
type claimable struct {
	Offer
	id, entryID, ownerID, serviceID, pro string
	name, email, phone                   string
	claimed                              bool
}

func (s *Service) readOffer(ctx context.Context, token string) (*claimable, error) {
	var c claimable
	var username sql.NullString
	var claimed sql.NullTime
	var price int64
	var hidePrice bool
	err := s.DB.QueryRowContext(ctx, `SELECT o.id, o.entry_id, o.user_id, w.service_id, o.professional_id, w.client_name, w.client_email, w.client_phone,
		p.name, p.public_username, s.name, s.duration, s.price_cents, COALESCE(pr.name, ''), o.offer_date, o.offer_time, o.expires_at, o.claimed_at, p.hide_prices
		FROM waitlist_offers o JOIN waitlist_entries w ON w.id = o.entry_id JOIN profiles p ON p.id = o.user_id JOIN services s ON s.id = w.service_id
		LEFT JOIN professionals pr ON pr.id = o.professional_id WHERE o.token_hash = ? OR o.push_token_hash = ?`, auth.HashToken(token), auth.HashToken(token)).Scan(
		&c.id, &c.entryID, &c.ownerID, &c.serviceID, &c.pro, &c.name, &c.email, &c.phone,
		&c.OwnerName, &username, &c.ServiceName, &c.Duration, &price, &c.ProfessionalName, &c.Date, &c.Time, &c.ExpiresAt, &claimed, &hidePrice)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errOffer
	}
	if err != nil {
		return nil, err
	}
	c.Username, c.claimed, c.ExpiresAt = username.String, claimed.Valid, c.ExpiresAt.UTC()
	if !hidePrice {
		c.PriceCents = &price
	}
	if c.ProfessionalName == "" {
		c.ProfessionalName = "Qualquer profissional"
	}
	switch {
	case c.claimed:
		c.Status = "claimed"
	case !s.Clock.Now().Before(c.ExpiresAt):
		c.Status = "expired"
	default:
		c.Status = "open"
	}
	return &c, nil
}

// LookupOffer is the offer behind a claim link; an open one whose time is
// no longer free says taken.
func (s *Service) LookupOffer(ctx context.Context, token string) (*Offer, error) {
	c, err := s.readOffer(ctx, token)
	if err != nil {
		return nil, err
	}
	if c.Status == "open" {
		if times, err := s.Booking.FreeTimes(ctx, c.ownerID, c.pro, c.serviceID, c.Date); err != nil || !slices.Contains(times, c.Time) {
			c.Status = "taken"
		}
	}
	return &c.Offer, nil
}

// Claim books the offered time for the entry's client through the one
// booking path (booking.BookThen: the time re-checked under the
// professionals' lock): of racing claims of one time exactly one books;
// the others are told it is gone and keep their place on the list. The
// offer is marked claimed and the entry booked in the booking's own
// transaction.
func (s *Service) Claim(ctx context.Context, token string) (*booking.Booked, error) {
	c, err := s.readOffer(ctx, token)
	if err != nil {
		return nil, err
	}
	switch c.Status {
	case "claimed":
		return nil, errClaimed
	case "expired":
		return nil, errExpired
	}
	in := booking.Input{ProfessionalID: c.pro, ServiceID: c.serviceID, Date: c.Date, Time: c.Time,
		ClientName: c.name, ClientEmail: c.email, ClientPhone: c.phone, Notes: "Pela lista de espera"}
	b, err := s.Booking.BookThen(ctx, c.Username, in, func(ctx context.Context, tx *db.Tx, b *booking.Booked) error {
		now := s.Clock.Now()
		n, err := db.ExecOwnedCount(ctx, tx, errClaimed, `UPDATE waitlist_offers SET claimed_at = ?, appointment_id = ? WHERE id = ? AND claimed_at IS NULL AND expires_at > ?`,
			now, b.ID, c.id, now)
		if err != nil {
			return err
		}
		if n != 1 {
			return errClaimed
		}
		// One entry books once: a claim of another of its offers (made
		// before one live offer per entry held) finds it booked, and this
		// claim ends the entry's other offers.
		// A service with a deposit: the entry keeps its place, claimed and
		// awaiting the deposit, until it is paid (the owner's list stops
		// showing it then); if it expires, the entry waits again
		// (booking's deposit expiry).
		set := `booked_at = ?`
		args := []any{now, b.ID, c.entryID}
		if b.Deposit != nil && b.Deposit.State == deposits.Pending {
			set, args[0] = `deposit_appointment_id = ?`, b.ID
		}
		n, err = db.ExecOwnedCount(ctx, tx, errClaimed, `UPDATE waitlist_entries SET `+set+`, appointment_id = ? WHERE id = ? AND booked_at IS NULL AND deposit_appointment_id IS NULL`, args...)
		if err != nil {
			return err
		}
		if n != 1 {
			return errEntryBooked
		}
		_, err = tx.ExecContext(ctx, `UPDATE waitlist_offers SET expires_at = ? WHERE entry_id = ? AND id <> ? AND claimed_at IS NULL AND expires_at > ?`,
			now.UTC(), c.entryID, c.id, now.UTC())
		return err
	})
	var he *httpx.Error
	if errors.As(err, &he) && he.Status == http.StatusConflict && he != errClaimed && he != errEntryBooked {
		return nil, errGone // taken by another claim or booking meanwhile (or no longer bookable)
	}
	return b, err
}
