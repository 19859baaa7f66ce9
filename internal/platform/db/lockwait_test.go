package db_test

import (
	"context"
	"fmt"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
)

// Tests that need one PostgreSQL transaction to be queued behind another's
// lock before they go on ask PostgreSQL itself, rather than sleeping for a
// time that a busy machine can outlast.

// backendPID is the PostgreSQL backend that runs q's statements (a
// transaction's connection).
func backendPID(ctx context.Context, q db.Querier) (int, error) {
	var pid int
	err := q.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid)
	return pid, err
}

// waitBlockedBy returns once a backend waits for a lock (wait_event_type
// 'Lock') that backend pid holds or is ahead of it for — PostgreSQL's own
// word that a statement is queued behind pid's transaction. It polls; it
// gives up after a minute, which only a hung test reaches.
func waitBlockedBy(ctx context.Context, d *db.DB, pid int) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var waiting bool
		err := d.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND ?::int = ANY (pg_blocking_pids(pid)))`, pid).Scan(&waiting)
		if err != nil || waiting {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no backend waited for a lock of backend %d within a minute", pid)
		}
		time.Sleep(time.Millisecond) // between polls only: nothing waits on this sleep's length
	}
}
