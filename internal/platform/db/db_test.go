package db_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

func TestMigrate_IsIdempotentAndTimesRoundTrip(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := d.Migrate(ctx, nil); err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		now := time.Date(2026, 11, 22, 13, 4, 5, 123456000, time.UTC)
		if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			"u1", "a@example.com", "x", now, now); err != nil {
			t.Fatal(err)
		}
		var got time.Time
		if err := d.QueryRowContext(ctx, `SELECT created_at FROM users WHERE created_at <= ? AND created_at > ?`,
			now, now.Add(-time.Microsecond)).Scan(&got); err != nil {
			t.Fatalf("compare stored instant: %v", err)
		}
		if !got.Equal(now) {
			t.Fatalf("round trip: got %v, want %v", got, now)
		}
		_, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			"u2", "a@example.com", "x", now, now)
		if !db.IsUniqueViolation(err) {
			t.Fatalf("duplicate e-mail: want unique violation, got %v", err)
		}
	})
}

func TestInTx_RollsBackOnError(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		boom := errors.New("boom")
		err := d.InTx(ctx, func(tx *db.Tx) error {
			if _, err := tx.ExecContext(ctx, `INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)`, "k", time.Now().UTC()); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("want boom, got %v", err)
		}
		var n int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM rate_limits`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("rows after rollback: %d, %v", n, err)
		}
	})
}

func TestRebind(t *testing.T) {
	d := &db.DB{Dialect: db.Postgres}
	if got := d.Rebind("SELECT a FROM t WHERE b = ? AND c IN (?, ?)"); got != "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)" {
		t.Fatal(got)
	}
	s := &db.DB{Dialect: db.SQLite}
	if got := s.Rebind("x = ?"); got != "x = ?" {
		t.Fatal(got)
	}
	// Kept texts answer the same again, and texts past the kept ones too.
	for i := range 5000 {
		q := "SELECT ? FROM t" + strings.Repeat(" WHERE x = ?", i%3) + " -- " + strconv.Itoa(i)
		want := "SELECT $1 FROM t" + []string{"", " WHERE x = $2", " WHERE x = $2 WHERE x = $3"}[i%3] + " -- " + strconv.Itoa(i)
		for range 2 {
			if got := d.Rebind(q); got != want {
				t.Fatalf("%q: %q, want %q", q, got, want)
			}
		}
	}
	if got := s.Rebind("x = ?"); got != "x = ?" {
		t.Fatal("SQLite's text changed after PostgreSQL's were kept:", got)
	}
}

// TestInTx_DeadlockVictimRunsAgain makes two PostgreSQL transactions lock two
// rows in opposite orders: PostgreSQL aborts one as the deadlock victim, and
// InTx runs it again, so both writes land. The order is PostgreSQL's own:
// each holds its first row, the first asks for its second, and the other
// asks for its own only once PostgreSQL shows the first queued behind it.
func TestInTx_DeadlockVictimRunsAgain(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		if d.Dialect != db.Postgres {
			t.Skip("SQLite runs one write transaction at a time: it cannot deadlock")
		}
		ctx := context.Background()
		now := time.Now()
		for _, id := range []string{"a", "b"} {
			if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, 'x', ?, ?)`,
				id, id+"@example.com", now, now); err != nil {
				t.Fatal(err)
			}
		}
		holding, both := make(chan struct{}, 2), make(chan struct{})
		done := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
		var attempts [2]atomic.Int32
		write := func(i int, first, second string) error {
			return d.InTx(ctx, func(tx *db.Tx) error {
				n := attempts[i].Add(1)
				if n > 1 {
					// The victim runs again once the other has committed: were
					// it to take its first row back before the other, still
					// queued for it, had its turn, the two would deadlock again.
					select {
					case <-done[1-i]:
					case <-time.After(time.Minute):
						return errors.New("the other transaction never ended")
					}
				}
				if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = password_hash || ? WHERE id = ?`, "1", first); err != nil {
					return err
				}
				if n == 1 { // a rerun goes straight on
					pid, err := backendPID(ctx, tx)
					if err != nil {
						return err
					}
					holding <- struct{}{}
					<-both // both hold their first row
					if i == 1 {
						// The other transaction is queued for this one's row.
						if err := waitBlockedBy(ctx, d, pid); err != nil {
							return err
						}
					}
				}
				_, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = password_hash || ? WHERE id = ?`, "2", second)
				return err
			})
		}
		errs := make(chan error, 2)
		for i, rows := range [][2]string{{"a", "b"}, {"b", "a"}} {
			go func() {
				err := write(i, rows[0], rows[1])
				close(done[i])
				errs <- err
			}()
		}
		for range 2 {
			select {
			case <-holding:
			case err := <-errs:
				t.Fatalf("a transaction ended before both held their first row: %v", err)
			}
		}
		close(both)
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatalf("a transaction failed: %v", err)
			}
		}
		if got := attempts[0].Load() + attempts[1].Load(); got != 3 {
			t.Fatalf("%d attempts: want exactly one rerun", got)
		}
		var a, b string
		_ = d.QueryRowContext(ctx, `SELECT password_hash FROM users WHERE id = 'a'`).Scan(&a)
		_ = d.QueryRowContext(ctx, `SELECT password_hash FROM users WHERE id = 'b'`).Scan(&b)
		if len(a) != 3 || len(b) != 3 { // "x" and one mark from each transaction
			t.Fatalf("both transactions' writes: a=%q b=%q", a, b)
		}
	})
}

func TestExecOwned_AnotherOwnersRowIsMissing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)
		if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			"u1", "a@example.com", "x", now, now); err != nil {
			t.Fatal(err)
		}
		missing := errors.New("missing")
		q := `UPDATE users SET updated_at = ? WHERE id = ?`
		if err := db.ExecOwned(ctx, d, missing, q, now, "u2"); err != missing {
			t.Fatalf("no such row: got %v, want missing", err)
		}
		if err := db.ExecOwned(ctx, d, missing, q, now, "u1"); err != nil {
			t.Fatalf("own row: %v", err)
		}
	})
}

// Reads prepared once still see every write, report a bad query as a plain
// query would, and many concurrent readers of one text share the statement.
func TestReads_PreparedOnceSeeWritesAndReportErrors(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		count := func() int {
			var n int
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE email LIKE ?`, "prep-%").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := count()
		for i := range 3 {
			if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, 'x', ?, ?)`, fmt.Sprintf("prep-%d", i), fmt.Sprintf("prep-%d@example.com", i), time.Now(), time.Now()); err != nil {
				t.Fatal(err)
			}
			if got := count(); got != before+i+1 {
				t.Fatalf("after %d inserts the prepared read counts %d", i+1, got)
			}
		}
		if _, err := d.QueryContext(ctx, `SELECT nope FROM users WHERE id = ?`, "x"); err == nil {
			t.Fatal("a bad query must fail")
		}
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				for range 50 {
					rows, err := d.QueryContext(ctx, `SELECT id FROM users WHERE email LIKE ? ORDER BY id`, "prep-%")
					if err != nil {
						t.Error(err)
						return
					}
					n := 0
					for rows.Next() {
						n++
					}
					rows.Close()
					if n != before+3 {
						t.Errorf("%d rows", n)
						return
					}
				}
			})
		}
		wg.Wait()
	})
}

// ReadAll runs its reads in order and hands each row to its own read, on
// both engines and inside a transaction too; a bad read is an error.
func TestReadAll_EachReadItsOwnRows(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
		for i, email := range []string{"b@example.com", "a@example.com"} {
			if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
				fmt.Sprintf("u%d", i), email, "x", now, now); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		reads := func(suffix string) []db.Read {
			return []db.Read{
				{Query: `SELECT email, created_at FROM users WHERE id <> ? ORDER BY email`, Args: []any{"nobody"}, Row: func(scan func(...any) error) error {
					var email string
					var at time.Time
					err := scan(&email, &at)
					got = append(got, email+" "+at.UTC().Format(time.RFC3339))
					return err
				}},
				{Query: `SELECT COUNT(*) FROM users WHERE email LIKE ?` + suffix, Args: []any{"a%"}, Row: func(scan func(...any) error) error {
					var n int
					err := scan(&n)
					got = append(got, fmt.Sprint(n))
					return err
				}},
			}
		}
		want := "[a@example.com 2026-11-25T09:00:00Z b@example.com 2026-11-25T09:00:00Z 1]"
		if err := db.ReadAll(ctx, d, reads("")...); err != nil || fmt.Sprint(got) != want {
			t.Fatalf("got %q, %v; want %s", got, err, want)
		}
		got = nil
		if err := d.InTx(ctx, func(tx *db.Tx) error { return db.ReadAll(ctx, tx, reads("")...) }); err != nil || fmt.Sprint(got) != want {
			t.Fatalf("in a transaction: %q, %v", got, err)
		}
		if err := db.ReadAll(ctx, d, reads(" AND nothing = 1")...); err == nil {
			t.Fatal("a bad read said nothing")
		}
	})
}
