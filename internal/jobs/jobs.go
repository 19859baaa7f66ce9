// Package jobs is Agendei's small background-work queue: rows in the jobs
// table, claimed with a lease so that any number of `agendei serve` processes
// can share the work and each job runs once (and again only if it failed).
//
// The lease is a visibility timeout: a claimed job is invisible to every
// other worker until its lease ends. A running job renews it (every third
// of the lease), so a slow job is not taken twice; a process killed
// mid-job stops renewing, and another process takes the job once the lease
// ends (Lease, 30 s). Each claim raises the job's attempt count, which is
// the claim's fencing token: a worker whose lease was lost cannot mark the
// job done, and a handler that does its work in one transaction marks the
// job done in that same transaction (Finish), so the work and "done" commit
// together or not at all — a job killed after its work committed is not
// run a second time.
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

// Lease is how long a claimed job stays invisible to other workers without
// being renewed: the longest a job of a killed process waits to be taken
// again.
const Lease = 30 * time.Second

// jobTimeout bounds one run of a handler (an SMTP send allows 20 s).
const jobTimeout = time.Minute

// Workers is how many jobs one process runs at once by default: sends wait
// on the network (SMTP, Meta), so a few in flight keep the two cores busy.
const Workers = 4

// ErrLeaseLost is Finish's answer when the job is no longer this run's —
// its lease ended and another worker took it, or it is done: the caller's
// transaction must roll back.
var ErrLeaseLost = errors.New("jobs: the job's lease was lost")

// Queue enqueues and runs jobs.
type Queue struct {
	db    *db.DB
	clock clock.Clock
	log   *slog.Logger
	lease time.Duration
	// Workers is how many jobs Run runs at once (default Workers).
	Workers  int
	mu       sync.RWMutex
	handlers map[string]Handler
	// wake cuts Run's idle wait short (Wake): a job that must run soon
	// does not wait for the next poll.
	wake chan struct{}
}

// New returns a Queue.
func New(d *db.DB, c clock.Clock, log *slog.Logger) *Queue {
	return &Queue{db: d, clock: c, log: log, lease: Lease, Workers: Workers, handlers: map[string]Handler{}, wake: make(chan struct{}, 1)}
}

// SetLease changes the lease (tests: a short one, to see it renewed).
func (q *Queue) SetLease(d time.Duration) { q.lease = d }

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
		db.OrNull(about.UserID), db.OrNull(about.AppointmentID), db.OrNull(about.ClientKey), about.AppointmentID, about.UserID)
	return err
}

type claimed struct {
	id, kind string
	payload  []byte
	attempts int
	max      int
}

// claim leases the oldest due job. On PostgreSQL the subquery skips rows
// another worker is claiming (FOR UPDATE SKIP LOCKED), so concurrent
// workers each get a different job instead of queueing on the first one;
// the outer condition is re-checked all the same. SQLite has one writer.
func (q *Queue) claim(ctx context.Context) (*claimed, error) {
	now := q.clock.Now()
	skip := ""
	if q.db.Dialect == db.Postgres {
		skip = " FOR UPDATE SKIP LOCKED"
	}
	var c claimed
	var payload string
	err := q.db.WriteRowContext(ctx, `
		UPDATE jobs SET locked_until = ?, attempts = attempts + 1
		WHERE id = (SELECT id FROM jobs
		            WHERE done_at IS NULL AND run_at <= ? AND attempts < max_attempts
		              AND (locked_until IS NULL OR locked_until < ?)
		            ORDER BY run_at LIMIT 1`+skip+`)
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

// running is the job a handler runs, in its context (Finish, ID).
type running struct {
	id       string
	attempt  int
	finished bool
}

type runningKey struct{}

// ID is the id of the job ctx runs (stable across its retries), "" outside
// a job: a key for the job's external effect (an e-mail's Message-ID).
func ID(ctx context.Context) string {
	if r, ok := ctx.Value(runningKey{}).(*running); ok {
		return r.id
	}
	return ""
}

// Finish marks the job that ctx runs done inside tx, the transaction that
// does its work: both commit together, so a process killed after the
// commit leaves a finished job, not one to run again. It returns
// ErrLeaseLost (roll back) when this run no longer holds the job. Outside
// a job it does nothing.
func Finish(ctx context.Context, tx *db.Tx, now time.Time) error {
	r, ok := ctx.Value(runningKey{}).(*running)
	if !ok {
		return nil
	}
	res, err := tx.ExecContext(ctx, `UPDATE jobs SET done_at = ?, locked_until = NULL, last_error = '' WHERE id = ? AND attempts = ? AND done_at IS NULL`,
		now, r.id, r.attempt)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrLeaseLost
	}
	tx.OnCommit(func() { r.finished = true })
	return nil
}

// renew keeps the job's lease while its handler runs, until stop closes.
func (q *Queue) renew(ctx context.Context, c *claimed, stop <-chan struct{}) {
	t := time.NewTicker(q.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if _, err := q.db.ExecContext(ctx, `UPDATE jobs SET locked_until = ? WHERE id = ? AND attempts = ? AND done_at IS NULL`,
				q.clock.Now().Add(q.lease), c.id, c.attempts); err != nil && ctx.Err() == nil {
				q.log.Warn("job lease not renewed", "kind", c.kind, "id", c.id, "err", err)
			}
		}
	}
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
	r := &running{id: c.id, attempt: c.attempts}
	if h == nil {
		runErr = fmt.Errorf("no handler for job kind %q", c.kind)
	} else {
		jobCtx, cancel := context.WithTimeout(context.WithValue(ctx, runningKey{}, r), jobTimeout)
		stop := make(chan struct{})
		go q.renew(ctx, c, stop)
		runErr = h(jobCtx, c.payload)
		close(stop)
		cancel()
	}
	now := q.clock.Now()
	if runErr == nil {
		if r.finished {
			return true, nil
		}
		// Fenced by the attempt: a run whose lease was lost and taken by
		// another worker does not mark that worker's run done.
		_, err = q.db.ExecContext(ctx, `UPDATE jobs SET done_at = ?, locked_until = NULL, last_error = '' WHERE id = ? AND attempts = ?`, now, c.id, c.attempts)
		return true, err
	}
	if errors.Is(runErr, ErrLeaseLost) {
		q.log.Warn("job lease lost; its work was rolled back", "kind", c.kind, "id", c.id, "attempt", c.attempts)
		return true, nil
	}
	level := slog.LevelWarn
	if c.attempts >= c.max {
		level = slog.LevelError
	}
	q.log.Log(ctx, level, "job failed", "kind", c.kind, "id", c.id, "attempt", c.attempts, "of", c.max, "err", runErr)
	_, err = q.db.ExecContext(ctx, `UPDATE jobs SET run_at = ?, locked_until = NULL, last_error = ? WHERE id = ? AND attempts = ?`,
		now.Add(Backoff(c.attempts)), truncate(runErr.Error(), 500), c.id, c.attempts)
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

// Run works through due jobs until ctx ends with q.Workers workers, each
// polling every interval when idle (Wake cuts the wait short). A database
// fault is logged and retried; it never stops the process.
func (q *Queue) Run(ctx context.Context, interval time.Duration) {
	n := max(1, q.Workers)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q.work(ctx, interval)
		}()
	}
	wg.Wait()
}

func (q *Queue) work(ctx context.Context, interval time.Duration) {
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
