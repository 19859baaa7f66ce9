package waitlist

// What the WhatsApp sender asks of the waitlist (whatsapp.Offers): an
// offer's message, with a claim link minted by the attempt that sends it,
// and the offer's e-mail when WhatsApp could not carry it.

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/profiles"
)

// OpenOffer is an open offer as its message says it.
type OpenOffer struct {
	Phone, Client, Practice, Service string
	Date, Time, Until                string // local "YYYY-MM-DD", "HH:MM", and the link's last "HH:MM"
	// Link is the claim link, when minted.
	Link string
}

// openOffer reads an offer still open — not claimed, not expired, its
// entry waiting — with what its messages need.
func (s *Service) openOffer(ctx context.Context, q db.Querier, ownerID, offerID string) (*waiting, *outgoing, *OpenOffer, time.Time, error) {
	e := waiting{ownerID: ownerID}
	o := outgoing{}
	var m OpenOffer
	var expires time.Time
	err := q.QueryRowContext(ctx, `SELECT w.id, w.service_id, w.client_name, w.client_email, w.client_phone, w.client_key, o.professional_id, o.offer_date, o.offer_time,
		o.expires_at, p.name, s.name FROM waitlist_offers o JOIN waitlist_entries w ON w.id = o.entry_id JOIN profiles p ON p.id = o.user_id JOIN services s ON s.id = w.service_id
		WHERE o.id = ? AND o.user_id = ? AND o.claimed_at IS NULL AND o.expires_at > ? AND w.booked_at IS NULL AND w.deposit_appointment_id IS NULL`, offerID, ownerID, s.Clock.Now().UTC()).Scan(
		&e.id, &e.serviceID, &e.name, &e.email, &e.phone, &e.key, &o.pro, &o.date, &o.time, &expires, &m.Practice, &m.Service)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil, time.Time{}, nil
	}
	if err != nil {
		return nil, nil, nil, time.Time{}, err
	}
	loc, err := profiles.Zone(ctx, q, ownerID)
	if err != nil {
		return nil, nil, nil, time.Time{}, err
	}
	m.Phone, m.Client, m.Date, m.Time, m.Until = e.phone, e.name, o.date, o.time, expires.In(loc).Format("15:04")
	return &e, &o, &m, expires, nil
}

// mint gives an open offer a fresh claim link (the link is kept only as a
// hash, so a message that carries it must have minted it); the link sent
// before no longer claims.
func (s *Service) mint(ctx context.Context, tx *db.Tx, offerID string) (string, error) {
	token, hash := auth.OpaqueToken()
	if _, err := tx.ExecContext(ctx, `UPDATE waitlist_offers SET token_hash = ? WHERE id = ? AND claimed_at IS NULL`, hash, offerID); err != nil {
		return "", err
	}
	return token, nil
}

// OfferContent is an offer's WhatsApp message; ok is false once the offer
// is no longer open. With mint, it carries a fresh claim link.
func (s *Service) OfferContent(ctx context.Context, ownerID, offerID string, mint bool) (OpenOffer, bool, error) {
	var out OpenOffer
	ok := false
	read := func(q db.Querier, tx *db.Tx) error {
		_, _, m, _, err := s.openOffer(ctx, q, ownerID, offerID)
		if err != nil || m == nil {
			return err
		}
		out, ok = *m, true
		if tx != nil {
			token, err := s.mint(ctx, tx, offerID)
			if err != nil {
				return err
			}
			out.Link = s.BaseURL + "/lista-de-espera/oferta/" + token
		}
		return nil
	}
	if !mint {
		return out, ok, read(s.DB, nil)
	}
	err := s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error { return read(tx, tx) })
	return out, ok, err
}

// EmailOffer sends an open offer by e-mail, with a fresh claim link: the
// channel when WhatsApp failed for good or its outcome is unknown. Quiet
// for an offer no longer open or a client without e-mail.
func (s *Service) EmailOffer(ctx context.Context, ownerID, offerID string) error {
	return s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		e, o, _, expires, err := s.openOffer(ctx, tx, ownerID, offerID)
		if err != nil || e == nil || e.email == "" || s.Mailer == nil {
			return err
		}
		if o.token, err = s.mint(ctx, tx, offerID); err != nil {
			return err
		}
		o.minutes = max(1, int((expires.Sub(s.Clock.Now())+time.Minute-1)/time.Minute))
		return s.sendEmail(ctx, tx, *e, *o)
	})
}
