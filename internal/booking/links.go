package booking

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

// A client's private link (/cancel/{token}) is how they see, cancel and
// move their booking: the only way for a client who gave no e-mail. The
// first link is the appointment's cancel_token_hash, answered to the page
// that booked and kept while the appointment exists. Later links — the
// owner's WhatsApp message with {link_cliente}, the e-mail of a move — are
// rows of appointment_links, so issuing one never breaks the link the client
// already holds; each works until the appointment ends (its start plus its
// duration), after which it says it expired.

var (
	errLinkExpired = httpx.NewError(http.StatusNotFound, "link_expired", "Este link expirou: o agendamento já terminou.")
	errLinkEnded   = httpx.NewError(http.StatusConflict, "appointment_ended", "Este agendamento já terminou: um link novo não serviria mais.")
)

// clientLinksPerOwner bounds the fresh links an owner issues: enough for a
// busy day of messages, not a way to fill the table.
var clientLinksPerOwner = ratelimit.Rule{Name: "client-link:owner", Max: 120, Window: time.Hour}

// tokenAppointment is the id of the appointment a private token opens: by
// its first link, or by a later one that has not expired.
func (s *Service) tokenAppointment(ctx context.Context, q db.Querier, token string) (string, error) {
	hash := auth.HashToken(token)
	var id string
	err := q.QueryRowContext(ctx, `SELECT id FROM appointments WHERE cancel_token_hash = ?`, hash).Scan(&id)
	if err == nil || !errors.Is(err, sql.ErrNoRows) {
		return id, err
	}
	var starts time.Time
	var duration int
	err = q.QueryRowContext(ctx, `SELECT a.id, a.starts_at, a.duration FROM appointment_links l JOIN appointments a ON a.id = l.appointment_id
		WHERE l.token_hash = ?`, hash).Scan(&id, &starts, &duration)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errLink
	}
	if err != nil {
		return "", err
	}
	if ended(s.Clock.Now(), starts, duration) {
		return "", errLinkExpired
	}
	return id, nil
}

// ended tells whether an appointment starting at starts and lasting
// duration minutes is over at now: when its later links stop working.
func ended(now, starts time.Time, duration int) bool {
	return !now.Before(starts.Add(time.Duration(duration) * time.Minute))
}

// addLink records a later private link of an appointment and returns its token.
func addLink(ctx context.Context, tx *db.Tx, ownerID, id string, now time.Time) (string, error) {
	token, hash := auth.OpaqueToken()
	_, err := tx.ExecContext(ctx, `INSERT INTO appointment_links (token_hash, appointment_id, user_id, created_at) VALUES (?, ?, ?, ?)`, hash, id, ownerID, now)
	return token, err
}

// ClientLink issues a fresh private link to the owner's appointment, for a
// message the owner sends the client; the links issued before keep working.
// Another owner's appointment is not found; one that has ended gets none.
func (s *Service) ClientLink(ctx context.Context, ownerID, id string) (string, error) {
	var token string
	err := s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		var starts time.Time
		var duration int
		err := tx.QueryRowContext(ctx, `SELECT starts_at, duration FROM appointments WHERE id = ? AND user_id = ?`, id, ownerID).Scan(&starts, &duration)
		if errors.Is(err, sql.ErrNoRows) {
			return errMoveMissing
		}
		if err != nil {
			return err
		}
		now := s.Clock.Now()
		if ended(now, starts, duration) {
			return errLinkEnded
		}
		ok, wait, err := ratelimit.AllowTx(ctx, tx, now, clientLinksPerOwner, ownerID)
		if err != nil {
			return err
		}
		if !ok {
			return ratelimit.TooMany(wait)
		}
		token, err = addLink(ctx, tx, ownerID, id, now)
		return err
	})
	if err != nil {
		return "", err
	}
	return s.BaseURL + "/cancel/" + token, nil
}

// LinkAppointment is the appointment a client's private link names (issue
// 43: the client's copy of their record is reached through it), or the
// link's own error.
func (s *Service) LinkAppointment(ctx context.Context, token string) (string, error) {
	return s.tokenAppointment(ctx, s.DB, token)
}
