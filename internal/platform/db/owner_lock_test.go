package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

// The owner's lock (issue 38): a second writer of the same owner starts its
// work only once the first has committed; one that waited behind its
// account's deletion stops with ErrOwnerGone and leaves no version row;
// taking the lock changes no version (cached answers stay good).
func TestOwnerTx_QueuesAnOwnersWritersAndStopsOnceTheAccountIsGone(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)
		for _, id := range []string{"u1", "u2"} {
			if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
				id, id+"@example.com", "x", now, now); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.ExecContext(ctx, `INSERT INTO data_versions (user_id, version) VALUES ('u1', 5)`); err != nil {
			t.Fatal(err)
		}
		if err := d.OwnerTx(ctx, "u1", func(tx *db.Tx) error { return tx.LockOwner(ctx, "u1") }); err != nil {
			t.Fatal(err)
		}
		var v int
		if err := d.QueryRowContext(ctx, `SELECT version FROM data_versions WHERE user_id = 'u1'`).Scan(&v); err != nil || v != 5 {
			t.Fatalf("the lock changed the version: %d, %v", v, err)
		}

		// The first writer deletes the account while a second waits for the lock.
		holding, release := make(chan struct{}), make(chan struct{})
		first, firstPID := make(chan error, 1), make(chan int, 1)
		go func() {
			first <- d.OwnerTx(ctx, "u1", func(tx *db.Tx) error {
				if d.Dialect == db.Postgres {
					pid, err := backendPID(ctx, tx)
					firstPID <- pid // 0 on an error, which first then reports
					if err != nil {
						close(holding)
						return err
					}
				}
				close(holding)
				<-release
				if _, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = 'u1'`); err != nil {
					return err
				}
				_, err := tx.ExecContext(ctx, `DELETE FROM data_versions WHERE user_id = 'u1'`)
				return err
			})
		}()
		<-holding
		ran := make(chan struct{}, 1)
		second := make(chan error, 1)
		go func() {
			second <- d.OwnerTx(ctx, "u1", func(tx *db.Tx) error {
				ran <- struct{}{}
				return nil
			})
		}()
		if d.Dialect == db.Postgres {
			// Another owner's writes do not wait for this one's.
			if err := d.OwnerTx(ctx, "u2", func(*db.Tx) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
		if d.Dialect == db.Postgres {
			// The second writer is queued on the owner's lock, as
			// PostgreSQL itself shows.
			pid := <-firstPID
			if pid == 0 {
				t.Fatal(<-first)
			}
			if err := waitBlockedBy(ctx, d, pid); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ran:
				t.Fatal("a second writer of the owner ran while the first held the lock")
			default:
			}
		} else {
			// SQLite's second writer waits for the one writer connection,
			// which nothing outside shows: it must not run meanwhile.
			select {
			case <-ran:
				t.Fatal("a second writer of the owner ran while the first held the lock")
			case <-time.After(200 * time.Millisecond):
			}
		}
		close(release)
		if err := <-first; err != nil {
			t.Fatal(err)
		}
		if err := <-second; !errors.Is(err, db.ErrOwnerGone) {
			t.Fatalf("the writer behind the deletion: %v, want ErrOwnerGone", err)
		}
		var n int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM data_versions WHERE user_id = 'u1'`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d version rows left of the deleted account, %v", n, err)
		}
		if err := d.OwnerExec(ctx, "u1", nil, `UPDATE users SET email = email WHERE id = 'u1'`); !errors.Is(err, db.ErrOwnerGone) {
			t.Fatalf("a single statement of the deleted account: %v", err)
		}
	})
}

// A single statement PostgreSQL aborts as a deadlock victim runs again,
// as a transaction does (InTx): one UPDATE of two rows, against a
// transaction that holds the second and then asks for the first.
func TestExecContext_RunsAgainADeadlockVictim(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		if d.Dialect != db.Postgres {
			t.Skip("SQLite's one writer has no deadlocks")
		}
		ctx := context.Background()
		if _, err := d.ExecContext(ctx, `INSERT INTO data_versions (user_id, version) VALUES ('a', 1), ('b', 1)`); err != nil {
			t.Fatal(err)
		}
		// The transaction holds 'b'; then the single statement takes 'a'
		// (rows in the order they were written, the primary key's order
		// too) and queues for 'b'; only once PostgreSQL shows it queued
		// does the transaction ask for 'a': a deadlock every time, however
		// busy the machine. Whichever of the two PostgreSQL aborts runs again.
		single, other := make(chan error, 1), make(chan error, 1)
		singleDone := make(chan struct{})
		started := false
		go func() {
			other <- d.InTx(ctx, func(tx *db.Tx) error {
				if started {
					// Were the transaction the victim, its rerun waits for the
					// single statement to end: the test is of the statement's.
					<-singleDone
				}
				if _, err := tx.ExecContext(ctx, `UPDATE data_versions SET version = version + 10 WHERE user_id = 'b'`); err != nil {
					return err
				}
				if !started {
					started = true
					pid, err := backendPID(ctx, tx)
					if err != nil {
						return err
					}
					go func() {
						_, err := d.ExecContext(ctx, `UPDATE data_versions SET version = version + 1 WHERE user_id IN ('a', 'b')`)
						close(singleDone)
						single <- err
					}()
					if err := waitBlockedBy(ctx, d, pid); err != nil {
						return err
					}
					// The single statement holds 'a': another locker skips it.
					var free int
					if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM data_versions WHERE user_id = 'a' FOR UPDATE SKIP LOCKED) x`).Scan(&free); err != nil {
						return err
					}
					if free != 0 {
						return errors.New("the single statement queued for 'b' without holding 'a': no deadlock to run again")
					}
				}
				_, err := tx.ExecContext(ctx, `UPDATE data_versions SET version = version + 10 WHERE user_id = 'a'`)
				return err
			})
		}()
		if err := <-single; err != nil {
			t.Fatalf("the single statement: %v", err)
		}
		if err := <-other; err != nil {
			t.Fatalf("the transaction: %v", err)
		}
		var sum int
		if err := d.QueryRowContext(ctx, `SELECT SUM(version) FROM data_versions WHERE user_id IN ('a', 'b')`).Scan(&sum); err != nil || sum != 24 {
			t.Fatalf("versions add up to %d, want 24 (each write once): %v", sum, err)
		}
	})
}
