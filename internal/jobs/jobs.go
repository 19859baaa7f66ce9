// Package jobs is Agendei's small background-work queue: rows in the jobs
// table, claimed with a lease so that any number of `agendei serve` processes
// can share the work and each job runs once (and again only if it failed).
package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
)

// Handler does one job. Returning an error schedules a retry with back-off.
type Handler func(ctx context.Context, payload []byte) error

// Queue enqueues and runs jobs.
type Queue struct {
	db       *db.DB
	clock    clock.Clock
	log      *slog.Logger
	lease    time.Duration
	mu       sync.RWMutex
	handlers map[string]Handler
	// wake cuts Run's idle wait short (Wake): a job that must run soon
	// does not wait for the next poll.
	wake chan struct{}
}

// New returns a Queue.
func New(d *db.DB, c clock.Clock, log *slog.Logger) *Queue {
	return &Queue{db: d, clock: c, log: log, lease: 2 * time.Minute, handlers: map[string]Handler{}, wake: make(chan struct{}, 1)}
}

// Wake tells Run to look for due jobs now instead of at its next poll
// (call it once the job is committed: db.AfterCommit). It never blocks.
func (q *Queue) Wake() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Register sets the handler of a kind of job.
func (q *Queue) Register(kind string, h Handler) {
	q.mu.Lock()
	q.handlers[kind] = h
	q.mu.Unlock()
}

// About is whose a job is: the owner, and the appointment or the client it
// was written for. A payload may carry a client's name and contacts; an
// LGPD erase finds the client's jobs by these references, never by
// searching payloads (which reached other owners' mail). The zero About is
// a job about no client (an owner's account e-mail).
type About struct {
	UserID string
	// AppointmentID names the appointment; the client's key is then read
	// from it, as it stands when the job is queued.
	AppointmentID string
	// ClientKey names a client without an appointment (appointments.client_key).
	ClientKey string
}

// Enqueue adds a job, inside the caller's transaction when x is a *db.Tx, so
// that the job exists exactly when the change that asked for it does.
func (q *Queue) Enqueue(ctx context.Context, x db.Querier, about About, kind string, payload any, runAt time.Time, maxAttempts int) error {
	body, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	now := q.clock.Now()
	if runAt.IsZero() {
		runAt = now
	}
	_, err = x.ExecContext(ctx, `INSERT INTO jobs (id, kind, payload, run_at, max_attempts, created_at, user_id, appointment_id, client_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, (SELECT client_key FROM appointments WHERE id = ? AND user_id = ?)))`,
		uuid.NewString(), kind, string(body), runAt.UTC(), maxAttempts, now,
		orNull(about.UserID), orNull(about.AppointmentID), orNull(about.ClientKey), about.AppointmentID, about.UserID)
	return err
}

// orNull is s as a query argument, NULL when empty.
func orNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

type claimed struct {
	id, kind string
	payload  []byte
	attempts int
	max      int
}

// claim leases the oldest due job. On PostgreSQL two processes may pick the
// same row in the subquery; the outer condition is re-checked after the row
// lock, so only one of them gets it.
func (q *Queue) claim(ctx context.Context) (*claimed, error) {
	now := q.clock.Now()
	var c claimed
	var payload string
	err := q.db.WriteRowContext(ctx, `
		UPDATE jobs SET locked_until = ?, attempts = attempts + 1
		WHERE id = (SELECT id FROM jobs
		            WHERE done_at IS NULL AND run_at <= ? AND attempts < max_attempts
		              AND (locked_until IS NULL OR locked_until < ?)
		            ORDER BY run_at LIMIT 1)
		  AND done_at IS NULL AND (locked_until IS NULL OR locked_until < ?)
		RETURNING id, kind, payload, attempts, max_attempts`,
		now.Add(q.lease), now, now, now).Scan(&c.id, &c.kind, &payload, &c.attempts, &c.max)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.payload = []byte(payload)
	return &c, nil
}

// RunOnce runs one due job, if any, and reports whether it found one.
func (q *Queue) RunOnce(ctx context.Context) (bool, error) {
	c, err := q.claim(ctx)
	if err != nil || c == nil {
		return false, err
	}
	q.mu.RLock()
	h := q.handlers[c.kind]
	q.mu.RUnlock()
	var runErr error
	if h == nil {
		runErr = fmt.Errorf("no handler for job kind %q", c.kind)
	} else {
		jobCtx, cancel := context.WithTimeout(ctx, q.lease/2)
		runErr = h(jobCtx, c.payload)
		cancel()
	}
	now := q.clock.Now()
	if runErr == nil {
		_, err = q.db.ExecContext(ctx, `UPDATE jobs SET done_at = ?, locked_until = NULL, last_error = '' WHERE id = ?`, now, c.id)
		return true, err
	}
	level := slog.LevelWarn
	if c.attempts >= c.max {
		level = slog.LevelError
	}
	q.log.Log(ctx, level, "job failed", "kind", c.kind, "id", c.id, "attempt", c.attempts, "of", c.max, "err", runErr)
	_, err = q.db.ExecContext(ctx, `UPDATE jobs SET run_at = ?, locked_until = NULL, last_error = ? WHERE id = ?`,
		now.Add(Backoff(c.attempts)), truncate(runErr.Error(), 500), c.id)
	return true, err
}

// Backoff is the wait before retry n+1: 30 s, 1 min, 2 min, … up to 1 hour.
func Backoff(attempt int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempt && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// Run works through due jobs until ctx ends, polling every interval when idle.
// A database fault is logged and retried; it never stops the process.
func (q *Queue) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for {
			found, err := q.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				q.log.Warn("job queue", "err", err)
			}
			if !found || err != nil || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-q.wake:
		}
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
