// Package ratelimit counts attempts per key in fixed windows kept in the
// database, so a limit holds across every `agendei serve` process.
package ratelimit

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Rule is a limit: at most Max attempts per Window for one key.
type Rule struct {
	Name   string // prefix of the key, e.g. "login:ip"
	Max    int
	Window time.Duration
}

// Limiter checks rules against the database.
type Limiter struct {
	db    *db.DB
	clock clock.Clock
}

// New returns a Limiter.
func New(d *db.DB, c clock.Clock) *Limiter { return &Limiter{db: d, clock: c} }

// Allow counts one attempt for key under rule. It returns the wait before the
// window resets when the attempt is over the limit.
func (l *Limiter) Allow(ctx context.Context, rule Rule, key string) (ok bool, retryAfter time.Duration, err error) {
	return allow(ctx, l.db.WriteRowContext, l.clock.Now(), rule, key)
}

// AllowTx is Allow inside a transaction: the attempt counts only if tx
// commits (a write retried after a deadlock counts once), and on SQLite it
// does not wait for the one writer the transaction already holds.
func AllowTx(ctx context.Context, tx *db.Tx, now time.Time, rule Rule, key string) (ok bool, retryAfter time.Duration, err error) {
	return allow(ctx, tx.QueryRowContext, now, rule, key)
}

func allow(ctx context.Context, row func(ctx context.Context, q string, args ...any) *sql.Row, now time.Time, rule Rule, key string) (ok bool, retryAfter time.Duration, err error) {
	expired := now.Add(-rule.Window)
	// One statement, atomic on both engines: start a new window when the old
	// one has passed, otherwise add one to it.
	var count int
	var start time.Time
	err = row(ctx, `
		INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)
		ON CONFLICT (key) DO UPDATE SET
			count = CASE WHEN rate_limits.window_start <= ? THEN 1 ELSE rate_limits.count + 1 END,
			window_start = CASE WHEN rate_limits.window_start <= ? THEN excluded.window_start ELSE rate_limits.window_start END
		RETURNING count, window_start`,
		rule.Name+":"+key, now, expired, expired).Scan(&count, &start)
	if err != nil {
		return false, 0, fmt.Errorf("rate limit %s: %w", rule.Name, err)
	}
	if count > rule.Max {
		return false, start.Add(rule.Window).Sub(now), nil
	}
	return true, 0, nil
}

// Reset forgets key's count under rule, at once on every instance: for a
// rule that counts failures, a success ends the run (a good sign-in clears
// its e-mail and address's failed ones).
func (l *Limiter) Reset(ctx context.Context, rule Rule, key string) error {
	if _, err := l.db.ExecContext(ctx, `DELETE FROM rate_limits WHERE key = ?`, rule.Name+":"+key); err != nil {
		return fmt.Errorf("rate limit %s: reset: %w", rule.Name, err)
	}
	return nil
}

// Check is Allow for handlers: it answers 429 with a pt-BR message when over
// the limit.
func (l *Limiter) Check(ctx context.Context, rule Rule, key string) error {
	ok, wait, err := l.Allow(ctx, rule, key)
	if err != nil {
		return err
	}
	if !ok {
		return TooMany(wait)
	}
	return nil
}

// TooMany is the 429 answer for a wait.
func TooMany(wait time.Duration) *httpx.Error {
	e := httpx.NewError(http.StatusTooManyRequests, "rate_limited",
		fmt.Sprintf("Muitas tentativas. Aguarde %s e tente novamente.", HumanWait(wait)))
	e.RetryAfter = int(math.Ceil(wait.Seconds()))
	return e
}

// HumanWait says a wait in pt-BR, rounded up to whole minutes past one minute.
func HumanWait(d time.Duration) string {
	if d <= time.Minute {
		return "1 minuto"
	}
	if d < time.Hour {
		return fmt.Sprintf("%d minutos", int(math.Ceil(d.Minutes())))
	}
	h := int(math.Ceil(d.Hours()))
	if h == 1 {
		return "1 hora"
	}
	return fmt.Sprintf("%d horas", h)
}

// Prune deletes windows that ended more than a day ago.
func (l *Limiter) Prune(ctx context.Context) error {
	_, err := l.db.ExecContext(ctx, `DELETE FROM rate_limits WHERE window_start < ?`, l.clock.Now().Add(-24*time.Hour))
	return err
}
