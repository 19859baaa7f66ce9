package calendars

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/place"
	"github.com/agendei/agendei/internal/platform/caldav"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/tz"
)

// Write-back (issue 42 §2, §3): each appointment of a professional whose
// calendar source has a calendar to write to becomes an event there — the
// same UID as the appointment's invite and feed event ("<id>@agendei"), so
// the read never counts it as busy and a rewrite replaces it. The triggers
// of migration 00069 leave a pending write in calendar_writes for every
// change of an appointment, in the change's own transaction, whatever path
// made it; DrainWrites writes them (at least once, idempotently: PUT by UID,
// DELETE of a gone event is done), retried with back-off.

// Writer writes Agendei's events into one kind of calendar source (CalDAV
// now, Google next). Both calls are idempotent: Put of the same UID replaces
// the event, Delete of one already gone is done.
type Writer interface {
	Put(ctx context.Context, sourceID, calendar string, ev booking.Invite) error
	Delete(ctx context.Context, sourceID, calendar, uid string) error
}

// Writers are the writers by source kind; a kind without one is not written.
func (s *Service) writer(kind string) Writer {
	// Each recorded: its source keeps its last failure for the card (write_error.go).
	if w, ok := s.Writers[kind]; ok {
		return recorded{s, w}
	}
	if kind == KindCalDAV {
		return recorded{s, calDAVWriter{s}}
	}
	if kind == KindGoogle && s.Google != nil {
		return recorded{s, googleWriter{s}} // google_write.go
	}
	return nil
}

// writeLease is how long a claimed write is left to its drainer before
// another may take it (a drainer killed mid-write leaves it for that long).
const writeLease = 2 * time.Minute

// writeBackoff is the wait before the attempt after n failed ones.
func writeBackoff(n int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// RunWrites drains the pending writes every few seconds until ctx ends.
func (s *Service) RunWrites(ctx context.Context) {
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		if _, err := s.DrainWrites(ctx); err != nil && ctx.Err() == nil && s.Log != nil {
			s.Log.Warn("calendars: drain writes", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// DrainWrites writes every due pending write once, and says how many it
// finished. A failed one waits its back-off; one changed while it was
// written stays for the next drain.
func (s *Service) DrainWrites(ctx context.Context) (int, error) {
	now := s.Clock.Now()
	type pending struct {
		id  string
		seq int
		n   int
	}
	var list []pending
	err := db.Each(ctx, s.DB, `SELECT appointment_id, seq, attempts FROM calendar_writes WHERE next_at IS NULL OR next_at <= ? ORDER BY appointment_id LIMIT 200`,
		[]any{now}, func(r *sql.Rows) error {
			var p pending
			if err := r.Scan(&p.id, &p.seq, &p.n); err != nil {
				return err
			}
			list = append(list, p)
			return nil
		})
	if err != nil {
		return 0, err
	}
	done := 0
	for _, p := range list {
		// Claim it: one drainer across instances writes it.
		res, err := s.DB.ExecContext(ctx, `UPDATE calendar_writes SET next_at = ? WHERE appointment_id = ? AND seq = ? AND (next_at IS NULL OR next_at <= ?)`,
			now.Add(writeLease), p.id, p.seq, now)
		if err != nil {
			return done, err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue
		}
		if werr := s.writeOne(ctx, p.id); werr != nil {
			if ctx.Err() != nil {
				return done, ctx.Err()
			}
			why := writeReason(werr)
			if s.Log != nil {
				s.Log.Info("calendars: write failed", "appointment", p.id, "attempt", p.n+1, "reason", why) // never the error: its paths may hold the account's user
			}
			_, err := s.DB.ExecContext(ctx, `UPDATE calendar_writes SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE appointment_id = ? AND seq = ?`,
				now.Add(writeBackoff(p.n+1)), why, p.id, p.seq)
			if err != nil {
				return done, err
			}
			continue
		}
		// Done — unless it changed meanwhile (then its seq moved on and it stays).
		if _, err := s.DB.ExecContext(ctx, `DELETE FROM calendar_writes WHERE appointment_id = ? AND seq = ?`, p.id, p.seq); err != nil {
			return done, err
		}
		done++
	}
	return done, nil
}

// target is a calendar an appointment's event belongs in, or is in.
type target struct {
	source, kind, calendar string
}

// writeOne brings an appointment's events to what it is now: written
// (PUT by UID) in each calendar of its professional's sources that write,
// deleted where it was and no longer belongs (cancelled, a status that no
// longer holds time, moved to another professional, erased, deleted).
func (s *Service) writeOne(ctx context.Context, appointmentID string) error {
	uid := appointmentID + "@agendei"
	var owner, status, service, client string
	var pro, serviceID sql.NullString
	var starts time.Time
	var duration int
	err := s.DB.QueryRowContext(ctx, `SELECT user_id, professional_id, service_id, service_name, client_name, starts_at, duration, status FROM appointments WHERE id = ?`,
		appointmentID).Scan(&owner, &pro, &serviceID, &service, &client, &starts, &duration, &status)
	found := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	var want []target
	if found && pro.Valid && holds(status) {
		err := db.Each(ctx, s.DB, `SELECT id, kind, write_calendar FROM calendar_sources WHERE user_id = ? AND professional_id = ? AND write_calendar <> '' ORDER BY kind`,
			[]any{owner, pro.String}, func(r *sql.Rows) error {
				var t target
				if err := r.Scan(&t.source, &t.kind, &t.calendar); err != nil {
					return err
				}
				if s.writer(t.kind) != nil {
					want = append(want, t)
				}
				return nil
			})
		if err != nil {
			return err
		}
	}
	var have []target
	err = db.Each(ctx, s.DB, `SELECT w.source_id, c.kind, w.calendar FROM calendar_written w JOIN calendar_sources c ON c.id = w.source_id WHERE w.appointment_id = ?`,
		[]any{appointmentID}, func(r *sql.Rows) error {
			var t target
			if err := r.Scan(&t.source, &t.kind, &t.calendar); err != nil {
				return err
			}
			have = append(have, t)
			return nil
		})
	if err != nil {
		return err
	}
	for _, h := range have {
		stays := false
		for _, w := range want {
			stays = stays || w == h
		}
		if stays {
			continue
		}
		if w := s.writer(h.kind); w != nil {
			if err := w.Delete(ctx, h.source, h.calendar, uid); err != nil {
				return err
			}
		}
		if _, err := s.DB.ExecContext(ctx, `DELETE FROM calendar_written WHERE appointment_id = ? AND source_id = ?`, appointmentID, h.source); err != nil {
			return err
		}
	}
	if len(want) == 0 {
		return nil
	}
	var zone string
	if err := s.DB.QueryRowContext(ctx, `SELECT time_zone FROM profiles WHERE id = ?`, owner).Scan(&zone); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	where, err := place.Where(ctx, s.DB, owner, serviceID.String)
	if err != nil {
		return err
	}
	loc := tz.Load(zone)
	ev := booking.Invite{UID: uid, Start: starts.In(loc), Duration: time.Duration(duration) * time.Minute,
		Summary: summary(service, client, status), Description: "Agendamento do Agendei. Mudanças feitas aqui não mudam o agendamento.",
		Location: where.Text(), Stamp: s.Clock.Now()}
	now := s.Clock.Now()
	for _, t := range want {
		if err := s.writer(t.kind).Put(ctx, t.source, t.calendar, ev); err != nil {
			return err
		}
		if _, err := s.DB.ExecContext(ctx, `INSERT INTO calendar_written (appointment_id, source_id, user_id, calendar, written_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (appointment_id, source_id) DO UPDATE SET calendar = excluded.calendar, written_at = excluded.written_at`,
			appointmentID, t.source, owner, t.calendar, now); err != nil {
			return err
		}
	}
	return nil
}

func holds(status string) bool {
	for _, h := range booking.HoldingStatuses {
		if status == h {
			return true
		}
	}
	return false
}

// summary is the event's title: the service and the client's first name
// (the calendar may be seen by others: no surname, phone or e-mail).
func summary(service, client, status string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(client), " ")
	out := service
	if first != "" {
		out += " — " + first
	}
	switch status {
	case booking.StatusAwaitingDeposit:
		out += " (aguardando sinal)"
	case "no_show":
		out += " (não compareceu)"
	}
	return out
}

// queueWrites queues a write of each of a professional's appointments from
// a day ago on, when a calendar to write to is chosen or changed: the ones
// made before are written too.
func (s *Service) queueWrites(ctx context.Context, q db.Querier, ownerID, professionalID string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO calendar_writes (appointment_id, user_id)
		SELECT id, user_id FROM appointments WHERE user_id = ? AND professional_id = ? AND starts_at >= ?
		ON CONFLICT (appointment_id) DO UPDATE SET seq = calendar_writes.seq + 1, attempts = 0, next_at = NULL`,
		ownerID, professionalID, s.Clock.Now().Add(-24*time.Hour))
	return err
}

// calDAVWriter writes into a CalDAV source's calendars.
type calDAVWriter struct{ s *Service }

func (w calDAVWriter) client(ctx context.Context, sourceID string) (*calDAVAccount, error) {
	a, err := w.s.loadCalDAV(ctx, w.s.DB, sourceID)
	if err != nil {
		return nil, fmt.Errorf("calendars: caldav source %s: %w", sourceID, err)
	}
	return a, nil
}

func (w calDAVWriter) Put(ctx context.Context, sourceID, calendar string, ev booking.Invite) error {
	a, err := w.client(ctx, sourceID)
	if err != nil {
		return err
	}
	c, err := w.s.calDAVClient(CalDAVLogin{URL: a.url, User: a.user, Password: a.password})
	if err != nil {
		return err
	}
	cal, err := decodeObject(booking.Calendar(ev.Start.Location(), "PUBLISH", "", []booking.Invite{ev}))
	if err != nil {
		return err
	}
	cal.Props.Del("METHOD") // a calendar object resource carries no METHOD (RFC 4791 §4.1)
	return c.Put(ctx, calendar, ev.UID, cal)
}

func (w calDAVWriter) Delete(ctx context.Context, sourceID, calendar, uid string) error {
	a, err := w.client(ctx, sourceID)
	if err != nil {
		return err
	}
	c, err := w.s.calDAVClient(CalDAVLogin{URL: a.url, User: a.user, Password: a.password})
	if err != nil {
		return err
	}
	return c.Delete(ctx, calendar, uid)
}

// writeReason says why a write failed without the server's paths or
// addresses (a CalDAV path often holds the user's e-mail): a status and the
// method, or the pt-BR reason of a failed connection.
func writeReason(err error) string {
	if why := googleWriteReason(err); why != "" {
		return why
	}
	var st *caldav.StatusError
	if errors.As(err, &st) {
		switch {
		case st.Code == http.StatusUnauthorized:
			return "usuário ou senha de app recusados"
		case st.Code == http.StatusForbidden:
			return "o servidor não deixou gravar na agenda escolhida (HTTP 403): escolha outra"
		case st.Code == http.StatusNotFound || st.Code == http.StatusConflict || st.Code == http.StatusGone:
			return fmt.Sprintf("a agenda escolhida não foi encontrada no servidor (HTTP %d): escolha outra", st.Code)
		case st.Code >= 500:
			return fmt.Sprintf("o servidor da agenda está com problemas (HTTP %d)", st.Code)
		default:
			return fmt.Sprintf("o servidor da agenda recusou o evento (HTTP %d)", st.Code)
		}
	}
	if errors.Is(err, errSealed) {
		return "a senha guardada não abre"
	}
	return reason(err)
}
