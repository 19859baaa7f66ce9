// Imported busy time: the intervals a professional's own calendar has busy
// (an ICS address, later CalDAV and Google, issue 42), written by an
// import under the same locks as a booking, so that a time the import
// committed over is never held after it, and an appointment held before it
// is told to the owner.

package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Interval is one busy interval of a professional's own calendar.
type Interval struct {
	UID        string // the event's UID (with a recurrence, every instance has its event's)
	Start, End time.Time
	// Title is the event's title, only when the owner asked to see titles
	// on the grid ("" otherwise): it is never shown anywhere else.
	Title string
}

// Imported is what an import did.
type Imported struct {
	// Changed: rows were written, and the owner's data version moved. An
	// import that finds the same intervals writes nothing.
	Changed bool `json:"changed"`
	// Flagged are the holding appointments newly found under the imported
	// time, each told to the owner once.
	Flagged []string `json:"flagged"`
}

// MaxImported bounds one source's intervals of one professional.
const MaxImported = 5000

var errImportProfessional = httpx.NewError(http.StatusNotFound, "not_found", "Profissional não encontrado.")

type importKey struct {
	uid   string
	start int64
}

// ImportBusy replaces the busy intervals of one source of a professional
// with items, in one transaction of the owner (the lock order: the owner's
// lock, then the professional's row, as a hold takes them). Only the
// difference is written, so an unchanged calendar bumps no data version.
// Holding appointments that an interval new to this import overlaps are
// flagged to the owner, once each: a bell notification naming the
// appointment's time, never the event's title.
func (s *Service) ImportBusy(ctx context.Context, ownerID, professionalID, source string, items []Interval) (Imported, error) {
	want := map[importKey]Interval{}
	for _, it := range items {
		it.Start, it.End = it.Start.UTC().Truncate(time.Second), it.End.UTC().Truncate(time.Second)
		if !it.End.After(it.Start) || it.UID == "" {
			continue
		}
		if len(it.UID) > 500 {
			it.UID = it.UID[:500]
		}
		want[importKey{it.UID, it.Start.Unix()}] = it
		if len(want) >= MaxImported {
			break
		}
	}
	var out Imported
	err := s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		out = Imported{}
		var found string
		err := tx.QueryRowContext(ctx, `SELECT id FROM professionals WHERE user_id = ? AND id = ?`+tx.LockRow(), ownerID, professionalID).Scan(&found)
		if errors.Is(err, sql.ErrNoRows) {
			return errImportProfessional
		}
		if err != nil {
			return err
		}
		have := map[importKey]Interval{}
		err = db.Each(ctx, tx, `SELECT uid, starts_at, ends_at, title FROM busy_imported WHERE professional_id = ? AND source = ? AND user_id = ?`,
			[]any{professionalID, source, ownerID}, func(r *sql.Rows) error {
				var it Interval
				if err := r.Scan(&it.UID, &it.Start, &it.End, &it.Title); err != nil {
					return err
				}
				have[importKey{it.UID, it.Start.UTC().Unix()}] = it
				return nil
			})
		if err != nil {
			return err
		}
		var added, gone []Interval
		for k, old := range have {
			if _, ok := want[k]; !ok {
				gone = append(gone, old)
			}
		}
		if err := deleteImported(ctx, tx, professionalID, source, gone); err != nil {
			return err
		}
		out.Changed = len(gone) > 0
		var fresh []Interval
		for k, it := range want {
			old, ok := have[k]
			switch {
			case !ok:
				fresh = append(fresh, it)
				added = append(added, it)
			case !old.End.Equal(it.End) || old.Title != it.Title:
				if _, err := tx.ExecContext(ctx, `UPDATE busy_imported SET ends_at = ?, title = ? WHERE professional_id = ? AND source = ? AND uid = ? AND starts_at = ?`,
					it.End, it.Title, professionalID, source, it.UID, old.Start); err != nil {
					return err
				}
				if it.End.After(old.End) {
					added = append(added, it)
				}
			default:
				continue
			}
			out.Changed = true
		}
		if err := insertImported(ctx, tx, ownerID, professionalID, source, fresh); err != nil {
			return err
		}
		if len(added) == 0 {
			return nil
		}
		out.Flagged, err = s.flagUnder(ctx, tx, ownerID, professionalID, added)
		return err
	})
	if errors.Is(err, db.ErrOwnerGone) {
		return Imported{}, errImportProfessional
	}
	return out, err
}

// importBatch is how many intervals one statement of an import writes: a
// first import of MaxImported is 25 inserts rather than 5,000 round trips
// under the owner's lock, well within both engines' bound on a statement's
// parameters (7 a row: 1,400; SQLite's is 32,766, PostgreSQL's 65,535).
const importBatch = 200

// insertImported inserts new intervals of a source, importBatch a statement.
func insertImported(ctx context.Context, tx *db.Tx, ownerID, professionalID, source string, items []Interval) error {
	for len(items) > 0 {
		n := min(len(items), importBatch)
		args := make([]any, 0, 7*n)
		for _, it := range items[:n] {
			args = append(args, ownerID, professionalID, source, it.UID, it.Start, it.End, it.Title)
		}
		rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", n), ", ")
		if _, err := tx.ExecContext(ctx, `INSERT INTO busy_imported (user_id, professional_id, source, uid, starts_at, ends_at, title) VALUES `+rows, args...); err != nil {
			return err
		}
		items = items[n:]
	}
	return nil
}

// deleteImported deletes intervals of a source no longer in it (each by its
// key: uid and start), importBatch a statement.
func deleteImported(ctx context.Context, tx *db.Tx, professionalID, source string, items []Interval) error {
	for len(items) > 0 {
		n := min(len(items), importBatch)
		args := make([]any, 0, 2+2*n)
		args = append(args, professionalID, source)
		for _, it := range items[:n] {
			args = append(args, it.UID, it.Start)
		}
		keys := strings.TrimSuffix(strings.Repeat("(uid = ? AND starts_at = ?) OR ", n), " OR ")
		if _, err := tx.ExecContext(ctx, `DELETE FROM busy_imported WHERE professional_id = ? AND source = ? AND (`+keys+`)`, args...); err != nil {
			return err
		}
		items = items[n:]
	}
	return nil
}

// flagUnder tells the owner of each holding appointment of the professional
// that one of the intervals overlaps, unless told already (busy_flags).
func (s *Service) flagUnder(ctx context.Context, tx *db.Tx, ownerID, professionalID string, added []Interval) ([]string, error) {
	lo, hi := added[0].Start, added[0].End
	for _, it := range added {
		if it.Start.Before(lo) {
			lo = it.Start
		}
		if it.End.After(hi) {
			hi = it.End
		}
	}
	type held struct {
		id, client, date, at string
		start                time.Time
		duration             int
	}
	var under []held
	// An appointment lasts less than a day: those starting from a day
	// before the first interval are enough.
	err := db.Each(ctx, tx, `SELECT id, client_name, appointment_date, appointment_time, starts_at, duration FROM appointments
		WHERE user_id = ? AND professional_id = ? AND starts_at >= ? AND starts_at < ? AND status IN `+statusesThatHold+` ORDER BY starts_at, id`,
		[]any{ownerID, professionalID, lo.Add(-24 * time.Hour), hi}, func(r *sql.Rows) error {
			var h held
			if err := r.Scan(&h.id, &h.client, &h.date, &h.at, &h.start, &h.duration); err != nil {
				return err
			}
			end := h.start.Add(time.Duration(max(h.duration, 1)) * time.Minute)
			if slices.ContainsFunc(added, func(it Interval) bool { return h.start.Before(it.End) && it.Start.Before(end) }) {
				under = append(under, h)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	flagged := []string{}
	now := s.Clock.Now()
	for _, h := range under {
		n, err := tx.ExecContext(ctx, `INSERT INTO busy_flags (appointment_id, user_id, flagged_at) VALUES (?, ?, ?) ON CONFLICT (appointment_id) DO NOTHING`, h.id, ownerID, now)
		if err != nil {
			return nil, err
		}
		if k, err := n.RowsAffected(); err != nil || k == 0 {
			continue
		}
		desc := fmt.Sprintf("Um compromisso da sua agenda pessoal coincide com o agendamento de %s em %s às %s. Remarque ou confirme com o cliente.",
			strings.TrimSpace(h.client), brfmt.Date(h.date), h.at)
		if err := s.Notes.Create(ctx, tx, ownerID, notifications.Appointment, "Conflito com a agenda pessoal", desc, h.id); err != nil {
			return nil, err
		}
		flagged = append(flagged, h.id)
	}
	return flagged, nil
}
