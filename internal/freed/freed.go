// Package freed is how the places where an appointment's time becomes free
// again (a cancellation by anyone, a move, a removed block or day off) tell
// the waitlist: a job queued in the same transaction as the change (so no
// freed time is missed, and none is told for a change rolled back), and the
// queue woken once it commits (so the offers go out at once, not at the
// next poll). It sits below booking, agenda and schedule, which call it, and
// the waitlist, which runs the job.
package freed

import (
	"context"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/slots"
)

// Job is the kind of the queued job.
const Job = "waitlist.freed"

// Time is a stretch of time that became free.
type Time struct {
	OwnerID string `json:"ownerId"`
	// ProfessionalID is whose time it is; "" is every professional's (a
	// block or a day off of the whole practice).
	ProfessionalID string `json:"professionalId,omitempty"`
	// From and To are the dates (the owner's calendar, YYYY-MM-DD), equal
	// for one date.
	From string `json:"from"`
	To   string `json:"to"`
	// Start and End are the minutes of the day freed on each of those
	// dates (0 and 1440: the whole day).
	Start int `json:"start"`
	End   int `json:"end"`
	// At is when it was freed: the waitlist's offers are measured from it.
	At time.Time `json:"at"`
}

// Tell queues the freed time inside x's transaction. A nil queue (tests of
// other rules) tells nobody.
func Tell(ctx context.Context, q *jobs.Queue, x db.Querier, t Time) error {
	if q == nil || t.OwnerID == "" || t.From == "" {
		return nil
	}
	if t.To == "" || t.To < t.From {
		t.To = t.From
	}
	if t.End <= t.Start {
		t.Start, t.End = 0, 24*60
	}
	if err := q.Enqueue(ctx, x, jobs.About{UserID: t.OwnerID}, Job, t, time.Time{}, 5); err != nil {
		return err
	}
	db.AfterCommit(x, q.Wake)
	return nil
}

// Appointment is the time an appointment held: its date, and its start
// (HH:MM) widened by its buffers.
func Appointment(ownerID, professionalID, date, at string, duration, before, after int, now time.Time) Time {
	start, err := slots.ParseHHMM(at)
	if err != nil {
		return Time{OwnerID: ownerID, ProfessionalID: professionalID, From: date, To: date, Start: 0, End: 24 * 60, At: now}
	}
	return Time{OwnerID: ownerID, ProfessionalID: professionalID, From: date, To: date,
		Start: max(0, start-before), End: min(24*60, start+duration+after), At: now}
}
