package calendars

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/gcal"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Writing Agendei's appointments into the owner's Google Calendar (issue 42
// §3): the drain of writeback.go calls googleWriter for a source of kind
// 'google' with a write_calendar; each appointment is one event whose id is
// gcal.EventID of the appointment (insert, or patch when that id exists),
// so a repeated write never makes a second event. A grant Google refuses is
// marked on the source as the read marks it, and its writes wait (back-off)
// until the owner connects again.

// errGoogleWriteRefused is a write that waits for the owner to connect
// Google again.
var errGoogleWriteRefused = errors.New("calendars: google refused the grant; the write waits for a new connection")

// googleAccess is a live access token for a connected account, from its
// sealed refresh token (errSealed when that does not open): the read, the
// card's calls and the writer share it.
func (s *Service) googleAccess(ctx context.Context, r *googleRow) (string, error) {
	refresh, err := s.rows().Open(r.owner, r.professional, fieldGoogle, r.secret)
	if err != nil {
		return "", errSealed
	}
	return s.Google.token(ctx, r.id, refresh, s.Clock.Now())
}

// googleAuthFailure reports an answer that means the grant no longer works
// (revoked, expired, the sealed token unreadable). A calendar the account
// may no longer write to (403 requiredAccessLevel) is not one: the grant
// is fine, the owner picks another calendar.
func googleAuthFailure(err error) bool {
	if errors.Is(err, errSealed) {
		return true
	}
	var ge *gcal.Error
	return errors.As(err, &ge) && ge.Auth() && ge.Reason != "requiredAccessLevel" && ge.Reason != "forbiddenForNonOrganizer"
}

// googleWriter writes into a Google source's calendar.
type googleWriter struct{ s *Service }

// access is the source and a live token; a refused grant is marked as the
// read marks it and calls Google no more until the owner connects again.
func (w googleWriter) access(ctx context.Context, sourceID string) (*googleRow, string, error) {
	if w.s.Google == nil {
		return nil, "", errors.New("calendars: google is not configured")
	}
	r, err := w.s.googleRow(ctx, `id = ?`, sourceID)
	if err != nil {
		return nil, "", fmt.Errorf("calendars: google source %s: %w", sourceID, err)
	}
	if r.lastError == RefusedGoogle {
		return r, "", errGoogleWriteRefused
	}
	access, err := w.s.googleAccess(ctx, r)
	if err != nil {
		return r, "", w.failed(ctx, r, err)
	}
	return r, access, nil
}

// failed turns a refused grant into the source's refusal (the card and the
// dashboard say it) and a write that waits; anything else is retried.
func (w googleWriter) failed(ctx context.Context, r *googleRow, err error) error {
	if !googleAuthFailure(err) {
		return err
	}
	if ferr := w.s.googleFailed(ctx, r, RefusedGoogle); ferr != nil {
		return ferr
	}
	return fmt.Errorf("%w (%w)", errGoogleWriteRefused, err)
}

// eventOf is the appointment's event as the CalDAV writer writes it (the
// same Invite, built once by writeOne), in Google's shape.
func eventOf(ev booking.Invite) gcal.Event {
	zone := ev.Start.Location().String()
	if zone == "" || zone == "Local" {
		zone = "UTC"
	}
	return gcal.Event{ID: gcal.EventID(strings.TrimSuffix(ev.UID, "@agendei")), Summary: ev.Summary, Location: ev.Location,
		Description: ev.Description, Start: ev.Start, End: ev.Start.Add(ev.Duration), Zone: zone}
}

func (w googleWriter) Put(ctx context.Context, sourceID, calendar string, ev booking.Invite) error {
	r, access, err := w.access(ctx, sourceID)
	if err != nil {
		return err
	}
	if err := w.s.Google.App.PutEvent(ctx, access, calendar, eventOf(ev)); err != nil {
		return w.failed(ctx, r, err)
	}
	return nil
}

func (w googleWriter) Delete(ctx context.Context, sourceID, calendar, uid string) error {
	r, access, err := w.access(ctx, sourceID)
	if err != nil {
		return err
	}
	if err := w.s.Google.App.DeleteEvent(ctx, access, calendar, gcal.EventID(strings.TrimSuffix(uid, "@agendei"))); err != nil {
		return w.failed(ctx, r, err)
	}
	return nil
}

// googleWriteReason says in pt-BR why a write into Google failed, or ""
// when err is not Google's.
func googleWriteReason(err error) string {
	var ge *gcal.Error
	switch {
	case errors.Is(err, errGoogleWriteRefused):
		return "o Google recusou o acesso à agenda: conecte de novo"
	case !errors.As(err, &ge):
		return ""
	case ge.Reason == "requiredAccessLevel" || ge.Reason == "forbiddenForNonOrganizer":
		return "a conta do Google não pode mais gravar nessa agenda: escolha outra"
	case ge.Status == http.StatusNotFound:
		return "o Google não encontrou a agenda escolhida (apagada ou não compartilhada mais): escolha outra"
	case ge.Temporary():
		return googleTemporary
	default:
		return fmt.Sprintf("o Google recusou a gravação (HTTP %d)", ge.Status)
	}
}

// ownCalendars are the chosen calendars that hold, or may still hold,
// Agendei's own events: the one it writes into and any it wrote into
// before. freeBusy answers no ids, so those are read by events.list
// (gcal.BusyEvents) and Agendei's events told apart by their ids
// (ownEventIDs) — exactly, so an owner's event over an appointment still
// counts whole and is flagged, and an appointment never counts as busy
// twice nor is flagged under its own event.
func (s *Service) ownCalendars(ctx context.Context, r *googleRow) (map[string]bool, error) {
	own := map[string]bool{}
	var write string
	if err := s.DB.QueryRowContext(ctx, `SELECT write_calendar FROM calendar_sources WHERE id = ?`, r.id).Scan(&write); err != nil {
		return nil, err
	}
	own[write] = write != ""
	err := db.Each(ctx, s.DB, `SELECT DISTINCT calendar FROM calendar_written WHERE source_id = ?`, []any{r.id}, func(rows *sql.Rows) error {
		var cal string
		if err := rows.Scan(&cal); err != nil {
			return err
		}
		own[cal] = true
		return nil
	})
	return own, err
}

// ownEventIDs are the Google event ids of the owner's appointments around
// [from, until) — any status: a cancelled one's event may still wait for its
// delete. By the appointments themselves, not by what was recorded as
// written, so an event whose write is not yet recorded is still Agendei's.
func (s *Service) ownEventIDs(ctx context.Context, owner string, from, until time.Time) (map[string]bool, error) {
	ids := map[string]bool{}
	// From a day before (the longest appointment ends inside the range).
	err := db.Each(ctx, s.DB, `SELECT id FROM appointments WHERE user_id = ? AND starts_at >= ? AND starts_at < ?`,
		[]any{owner, from.Add(-24 * time.Hour), until}, func(rows *sql.Rows) error {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids[gcal.EventID(id)] = true
			return nil
		})
	return ids, err
}

// GoogleWrite is the Google row's choice of the calendar that receives the
// appointments ("" writes nothing).
type GoogleWrite struct {
	Calendar string `json:"calendar"`
}

var errGoogleWritePick = httpx.Validation("Escolha, entre as agendas da conta, uma em que ela possa gravar (dona ou com permissão para editar eventos).")

// ChooseGoogleWrite saves the calendar Agendei writes the professional's
// appointments into — one the account owns or may edit (calendarList's
// accessRole owner or writer) — and queues the appointments from a day ago
// on, so the ones made before are written too (or moved from the calendar
// chosen before).
func (s *Service) ChooseGoogleWrite(ctx context.Context, ownerID, professionalID string, in GoogleWrite) (*Source, error) {
	r, access, err := s.ownedGoogle(ctx, ownerID, professionalID)
	if err != nil {
		return nil, err
	}
	if in.Calendar != "" {
		list, err := s.Google.App.Calendars(ctx, access)
		if err != nil {
			return nil, s.googleAPIError("calendar list", err)
		}
		if !slices.ContainsFunc(list, func(c gcal.Calendar) bool { return c.ID == in.Calendar && c.Writable() }) {
			return nil, errGoogleWritePick
		}
	}
	now := s.Clock.Now()
	var out *Source
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE calendar_sources SET write_calendar = ?, updated_at = ? WHERE id = ? AND user_id = ?`, in.Calendar, now, r.id, ownerID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errNoGoogle
		}
		if err := s.queueWrites(ctx, tx, ownerID, professionalID); err != nil {
			return err
		}
		out, err = s.oneKind(ctx, tx, ownerID, professionalID, KindGoogle)
		return err
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return nil, errNotFound
	}
	return out, err
}

// googleReconnected is the account connected again: a calendar written to
// of another account is forgotten, and the writes that waited for the new
// grant are due at once.
func (s *Service) googleReconnected(ctx context.Context, tx *db.Tx, ownerID, sourceID string, sameAccount bool) error {
	if !sameAccount {
		if _, err := tx.ExecContext(ctx, `UPDATE calendar_sources SET write_calendar = '' WHERE id = ?`, sourceID); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE calendar_writes SET next_at = NULL, attempts = 0 WHERE user_id = ? AND next_at IS NOT NULL`, ownerID)
	return err
}

func (h *Handlers) registerGoogleWrite(mux *http.ServeMux) {
	mux.Handle("PUT /api/calendars/{id}/google/write", h.Auth.RequireUser(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		var in GoogleWrite
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return err
		}
		src, err := h.Svc.ChooseGoogleWrite(r.Context(), auth.UserID(r.Context()), r.PathValue("id"), in)
		return httpx.Respond(w, http.StatusOK, src, err)
	})))
}
