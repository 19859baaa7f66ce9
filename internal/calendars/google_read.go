package calendars

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/gcal"
)

const (
	googleTemporary = "o Google não respondeu agora; tentamos de novo em instantes"
	googleDown      = "não foi possível falar com o Google"
	googleOffReason = "a conexão com o Google Agenda foi desligada neste Agendei"
)

// readGoogle reads a Google account, when the row is one (done false
// otherwise): a live access token, Changes per chosen calendar so unchanged
// ones are not read again (a full read every fullEvery all the same: the
// window moves with the days), then freeBusy over the window in chunks of
// at most freeBusyDays and gcal.FreeBusyMax calendars — events.list for the
// calendars Agendei writes into, its own events left out by id —, into
// ImportBusy. A
// grant Google refuses is said on the card and stops the calls to Google
// until the owner connects again; the last busy time is kept or dropped as
// for an iCal address.
func (s *Service) readGoogle(ctx context.Context, id string) (bool, error) {
	r, err := s.googleRow(ctx, `id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // not a Google account (or gone: Read finds it gone too)
	}
	if err != nil {
		return true, err
	}
	if s.Google == nil {
		return true, s.googleFailed(ctx, r, googleOffReason)
	}
	if r.lastError == RefusedGoogle {
		// Refused before: no call until the owner connects again (that
		// clears the error); the last busy time still goes by the owner's choice.
		return true, s.googleFailed(ctx, r, RefusedGoogle)
	}
	now := s.Clock.Now()
	access, err := s.googleAccess(ctx, r)
	if err != nil {
		return true, s.googleFailed(ctx, r, s.googleReason("token", err))
	}
	var zone string
	var windowDays int
	if err := s.DB.QueryRowContext(ctx, `SELECT time_zone, booking_window_days FROM profiles WHERE id = ?`, r.owner).Scan(&zone, &windowDays); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return true, nil
		}
		return true, err
	}

	changed := !r.parsed.Valid || now.Sub(r.parsed.Time) >= fullEvery
	next := map[string]string{}
	for _, cal := range r.calendars {
		ch, token, err := s.Google.App.Changes(ctx, access, cal, r.sync[cal])
		if errors.Is(err, gcal.ErrFullSync) {
			// Google dropped the token: read everything, and start following again.
			changed = true
			ch, token, err = s.Google.App.Changes(ctx, access, cal, "")
		}
		if gcal.Reason(err) == "notFound" {
			changed = true // freeBusy says which calendar is gone
			continue
		}
		if err != nil {
			return true, s.googleFailed(ctx, r, s.googleReason("changes", err))
		}
		changed = changed || ch
		next[cal] = token
	}
	s.watchGoogle(ctx, r, access, next)
	syncJSON, _ := json.Marshal(next)
	if !changed {
		return true, s.reads().Worked(ctx, s.DB, r.id, now, "", map[string]any{"sync": string(syncJSON)})
	}

	windowDays = min(max(windowDays, 30), maxWindowDays)
	from, until := now.Add(-24*time.Hour), now.AddDate(0, 0, windowDays+1)
	var items []booking.Interval
	missing := map[string]bool{}
	own, err := s.ownCalendars(ctx, r)
	if err != nil {
		return true, err
	}
	var plain []string // read by freeBusy: Agendei never wrote there
	for _, cal := range r.calendars {
		if !own[cal] {
			plain = append(plain, cal)
		}
	}
	for lo := 0; lo < len(plain); lo += gcal.FreeBusyMax {
		ids := plain[lo:min(lo+gcal.FreeBusyMax, len(plain))]
		for start := from; start.Before(until); start = start.AddDate(0, 0, freeBusyDays) {
			end := start.AddDate(0, 0, freeBusyDays)
			if end.After(until) {
				end = until
			}
			busy, failed, err := s.Google.App.FreeBusy(ctx, access, ids, start, end)
			if err != nil {
				return true, s.googleFailed(ctx, r, s.googleReason("freeBusy", err))
			}
			for cal := range failed {
				missing[cal] = true
			}
			for cal, list := range busy {
				uid := calendarUID(cal)
				for _, b := range list {
					if b.End.After(b.Start) {
						items = append(items, booking.Interval{UID: uid, Start: b.Start.UTC(), End: b.End.UTC()})
					}
				}
			}
		}
	}
	// The calendars Agendei writes into: their events by id, Agendei's own left out (google_write.go).
	var mine map[string]bool
	for _, cal := range r.calendars {
		if !own[cal] {
			continue
		}
		if mine == nil {
			if mine, err = s.ownEventIDs(ctx, r.owner, from, until); err != nil {
				return true, err
			}
		}
		events, err := s.Google.App.BusyEvents(ctx, access, cal, from, until)
		if gcal.Reason(err) == "notFound" {
			missing[cal] = true
			continue
		}
		if err != nil {
			return true, s.googleFailed(ctx, r, s.googleReason("events", err))
		}
		uid := calendarUID(cal)
		for _, ev := range events {
			if !mine[ev.ID] {
				items = append(items, booking.Interval{UID: uid, Start: ev.Start.UTC(), End: ev.End.UTC()})
			}
		}
	}
	if len(missing) == len(r.calendars) {
		return true, s.googleFailed(ctx, r, "o Google não encontrou as agendas escolhidas (apagadas ou não compartilhadas mais): escolha de novo")
	}
	if _, err := s.Busy.ImportBusy(ctx, r.owner, r.professional, KindGoogle, items); err != nil {
		return true, err
	}
	// Some calendars gone: the others' busy time counts, and the card says so.
	why := ""
	if len(missing) > 0 {
		why = fmt.Sprintf("o Google não encontrou %d das agendas escolhidas (apagadas ou não compartilhadas mais): escolha de novo", len(missing))
	}
	return true, s.reads().Worked(ctx, s.DB, r.id, now, why, map[string]any{"sync": string(syncJSON), "last_parsed_at": now, "events": len(items)})
}

// calendarUID names a calendar's busy intervals without its id (an e-mail).
func calendarUID(calendarID string) string {
	sum := sha256.Sum256([]byte(calendarID))
	return "google-" + hex.EncodeToString(sum[:8])
}

// googleReason says in pt-BR why Google could not be read.
func (s *Service) googleReason(what string, err error) string {
	var ge *gcal.Error
	switch {
	case googleAuthFailure(err):
		return RefusedGoogle
	case errors.As(err, &ge) && ge.Temporary():
		s.logGoogle(what, err)
		return googleTemporary
	default:
		s.logGoogle(what, err)
		return googleDown
	}
}

// googleFailed records a failed read, as failed does for an address: the
// busy time goes when the owner asked so, or once it has failed for Keep.
// A refused grant also forgets the access token.
func (s *Service) googleFailed(ctx context.Context, r *googleRow, why string) error {
	if why == RefusedGoogle && s.Google != nil {
		s.Google.forget(r.id)
	}
	return s.failed(ctx, source{kind: KindGoogle, id: r.id, owner: r.owner, professional: r.professional, onFailure: r.onFailure}, why)
}
