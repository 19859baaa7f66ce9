package booking

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/slots"
)

// Rezone is what a change of the owner's zone means for the book: the
// appointments keep their local date and time (a practice that moves, or
// that had the wrong zone, still sees 10:00 where it wrote 10:00); their
// instants follow the new zone, and with them everything computed from the
// instant — the calendar feeds, the invites e-mailed from now on, the
// no-show check — and the clients' queued reminders, moved by as much as
// their appointment (so they keep their lead). Busy time and free times
// are read from the local date and time, so they need nothing. It runs in
// the transaction that saves the zone, so no reader sees one without the
// other.
//
// Every appointment is moved, past ones too: appointments.starts_at is then
// always the instant of (appointment_date, appointment_time) in the owner's
// current zone, one rule every reader can rely on, instead of a history
// whose instants follow whichever zone was set when each was written (the
// feed shows 30 days back, and a past appointment would read an hour off).
// An appointment whose instant changes gets the next SEQUENCE and a new
// updated_at (the feed's DTSTAMP), as any other move, so calendar apps take
// the new time.
func (s *Service) Rezone(ctx context.Context, tx *db.Tx, ownerID string, loc *time.Location) error {
	type move struct {
		id       string
		from, to time.Time
	}
	var moves []move
	// The owner's lock, then the professionals' rows, as every hold takes
	// them (db.Tx.LockOwner's order): a booking that computed its instant
	// in the old zone either commits first, and is moved below, or waits
	// and is refused by Hold's zone check.
	if err := tx.LockOwner(ctx, ownerID); err != nil {
		return err
	}
	err := db.Each(ctx, tx, `SELECT id FROM professionals WHERE user_id = ? ORDER BY id`+tx.LockRow(), []any{ownerID}, func(*sql.Rows) error { return nil })
	if err != nil {
		return err
	}
	err = db.Each(ctx, tx, `SELECT id, appointment_date, appointment_time, starts_at FROM appointments WHERE user_id = ?`, []any{ownerID}, func(r *sql.Rows) error {
		var id, date, at string
		var starts time.Time
		if err := r.Scan(&id, &date, &at, &starts); err != nil {
			return err
		}
		to, err := instant(date, at, loc)
		if err != nil {
			return fmt.Errorf("appointment %s: %w", id, err)
		}
		if !to.Equal(starts) {
			moves = append(moves, move{id, starts.UTC(), to})
		}
		return nil
	})
	if err != nil || len(moves) == 0 {
		return err
	}
	now := s.Clock.Now()
	shift := make(map[string]time.Duration, len(moves))
	for _, m := range moves {
		if _, err := tx.ExecContext(ctx, `UPDATE appointments SET starts_at = ?, sequence = sequence + 1, updated_at = ? WHERE id = ? AND user_id = ?`,
			m.to, now, m.id, ownerID); err != nil {
			return err
		}
		shift[m.id] = m.to.Sub(m.from)
	}
	// A reminder's payload names its appointment and the local date and
	// time it reminds of, which stay; only when it runs moves. Reminders of
	// an appointment's earlier times move too: they stay quiet all the same.
	type due struct {
		id    string
		runAt time.Time
	}
	var reminders []due
	err = db.Each(ctx, tx, `SELECT id, run_at, appointment_id FROM jobs WHERE user_id = ? AND kind = ? AND done_at IS NULL AND appointment_id IS NOT NULL`,
		[]any{ownerID, reminderJob}, func(r *sql.Rows) error {
			var id, appointment string
			var runAt time.Time
			if err := r.Scan(&id, &runAt, &appointment); err != nil {
				return err
			}
			if d, ok := shift[appointment]; ok {
				reminders = append(reminders, due{id, runAt.Add(d).UTC()})
			}
			return nil
		})
	if err != nil {
		return err
	}
	for _, j := range reminders {
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET run_at = ? WHERE id = ?`, j.runAt, j.id); err != nil {
			return err
		}
	}
	return nil
}

// instant is the instant of an appointment's local date and time in a zone,
// as a booking computes it (slots.At).
func instant(date, at string, loc *time.Location) (time.Time, error) {
	day, err := slots.ParseDate(date)
	if err != nil {
		return time.Time{}, err
	}
	minute, err := slots.ParseHHMM(at)
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(slots.At(day, minute, loc)*60, 0).UTC(), nil
}
