// One-tap answer links: /resposta/{token}, one token per appointment,
// action and message, stored as its SHA-256 (answer_tokens), useless once
// the appointment ends.

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

// AnswerLinks are the one-tap addresses of an appointment's three answers.
type AnswerLinks struct {
	Confirm    string `json:"confirm"`
	Reschedule string `json:"reschedule"`
	Cancel     string `json:"cancel"`
}

var errAnswerLink = httpx.NewError(http.StatusNotFound, "not_found", "Link inválido.")

// NewAnswerLinks issues the three one-tap links of the owner's appointment
// for a message sent by channel (ChannelEmail or ChannelWhatsApp), inside
// the caller's transaction when q is one. Each link answers as its message's
// channel. It does not check the appointment's owner: callers pass an
// appointment they read as the owner's.
func (s *Service) NewAnswerLinks(ctx context.Context, q db.Querier, ownerID, appointmentID string, channel Channel) (AnswerLinks, error) {
	now := s.Clock.Now()
	var out AnswerLinks
	for _, l := range []struct {
		action Action
		url    *string
	}{{ActionConfirm, &out.Confirm}, {ActionReschedule, &out.Reschedule}, {ActionCancel, &out.Cancel}} {
		token, hash := auth.OpaqueToken()
		if _, err := q.ExecContext(ctx, `INSERT INTO answer_tokens (token_hash, appointment_id, user_id, action, channel, created_at, for_start)
			VALUES (?, ?, ?, ?, ?, ?, (SELECT starts_at FROM appointments WHERE id = ? AND user_id = ?))`,
			hash, appointmentID, ownerID, string(l.action), string(channel), now, appointmentID, ownerID); err != nil {
			return AnswerLinks{}, err
		}
		*l.url = s.BaseURL + "/resposta/" + token
	}
	return out, nil
}

// OwnerAnswerLinks issues one-tap links of the owner's appointment for a
// WhatsApp message the owner sends by hand (the dashboard's nudge):
// another owner's appointment is not found, one that ended gets none.
func (s *Service) OwnerAnswerLinks(ctx context.Context, ownerID, id string) (AnswerLinks, error) {
	var out AnswerLinks
	err := s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		_, owner, _, _, c, err := s.byID(ctx, tx, id)
		if err == errLink || (err == nil && owner != ownerID) {
			return errMoveMissing
		}
		if err != nil {
			return err
		}
		now := s.Clock.Now()
		if ended(now, c.starts, c.Duration) {
			return errLinkEnded
		}
		ok, wait, err := ratelimit.AllowTx(ctx, tx, now, clientLinksPerOwner, ownerID)
		if err != nil {
			return err
		}
		if !ok {
			return ratelimit.TooMany(wait)
		}
		out, err = s.NewAnswerLinks(ctx, tx, ownerID, id, ChannelWhatsApp)
		return err
	})
	return out, err
}

// answerToken is what a one-tap token answers: whose appointment, which,
// the action, the channel of the message it came in and the start the
// message was about (zero for links older than that record).
func answerToken(ctx context.Context, q db.Querier, token string) (ownerID, id string, action Action, channel Channel, sentFor time.Time, err error) {
	var a, c string
	var at sql.NullTime
	err = q.QueryRowContext(ctx, `SELECT user_id, appointment_id, action, channel, for_start FROM answer_tokens WHERE token_hash = ?`, auth.HashToken(token)).
		Scan(&ownerID, &id, &a, &c, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", "", "", time.Time{}, errAnswerLink
	}
	return ownerID, id, Action(a), Channel(c), at.Time, err
}

// movedSince reports whether an appointment that started at starts when a
// message was sent about sentFor has moved since (false when unknown).
func movedSince(sentFor, starts time.Time) bool {
	return !sentFor.IsZero() && !sentFor.Equal(starts)
}

// AnswerPreview is what a one-tap link's page shows before it acts: the
// appointment, its answer so far (Already when it is the link's), whether
// the cutoff has passed, and the practice's contact. It changes nothing, so
// a mail scanner that opens links answers nothing.
func (s *Service) AnswerPreview(ctx context.Context, token string) (*AnswerResult, error) {
	_, id, action, _, sentFor, err := answerToken(ctx, s.DB, token)
	if err != nil {
		return nil, err
	}
	_, _, _, _, c, err := s.byID(ctx, s.DB, id)
	if err == errLink {
		return nil, errAnswerLink
	}
	if err != nil {
		return nil, err
	}
	if ended(s.Clock.Now(), c.starts, c.Duration) {
		return nil, errLinkExpired
	}
	moved := movedSince(sentFor, c.starts) && c.Status != "cancelled"
	return &AnswerResult{Action: action, Answer: c.answer, Status: c.Status, Already: c.answer == answerOf[action] && !moved, Moved: moved,
		PastCutoff: !c.Cancellable && c.pastCutoff(s.Clock.Now()), OwnerName: c.OwnerName, ServiceName: c.ServiceName, ProfessionalName: c.ProfessionalName,
		Date: c.Date, Time: c.Time, CancelUntil: c.CancelUntil, OwnerWhatsapp: c.OwnerWhatsapp, OwnerContactEmail: c.OwnerContactEmail}, nil
}

// AnswerByToken applies a one-tap link's answer (Answer, as the link's
// owner, action and channel).
func (s *Service) AnswerByToken(ctx context.Context, token string) (*AnswerResult, error) {
	ownerID, id, action, channel, sentFor, err := answerToken(ctx, s.DB, token)
	if err != nil {
		return nil, err
	}
	return s.answerAt(ctx, ownerID, id, action, channel, sentFor)
}

func (h *Handlers) answerPreview(w http.ResponseWriter, r *http.Request) error {
	a, err := h.Svc.AnswerPreview(r.Context(), r.PathValue("token"))
	if err == nil {
		w.Header().Set("Cache-Control", "no-store")
	}
	return httpx.Respond(w, http.StatusOK, a, err)
}

func (h *Handlers) answerByToken(w http.ResponseWriter, r *http.Request) error {
	if err := h.Limiter.Check(r.Context(), ruleCancelIP, httpx.ClientIP(r, h.TrustProxy)); err != nil {
		return err
	}
	a, err := h.Svc.AnswerByToken(r.Context(), r.PathValue("token"))
	return httpx.Respond(w, http.StatusOK, a, err)
}
