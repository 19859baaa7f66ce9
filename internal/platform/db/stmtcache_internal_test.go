package db

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// kvDB is a fresh SQLite database with one table, kv (k, v), closed when
// the test ends.
func kvDB(t *testing.T) *DB {
	t.Helper()
	d, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "agendei.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.ExecContext(context.Background(), `CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return d
}

// The writer's kept statements: a text a transaction executes is prepared
// once that transaction ends, and the next transactions run it inside
// themselves (a rollback undoing it, their own writes seen), also after the
// writer's connection was replaced.
func TestWriterStatements_KeptAndRunInsideTheTransaction(t *testing.T) {
	ctx := context.Background()
	d := kvDB(t)
	const insert = `INSERT INTO kv (k, v) VALUES (?, ?)`
	const count = `SELECT count(*) FROM kv`
	rows := func() (n int) {
		t.Helper()
		if err := d.QueryRowContext(ctx, count).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	if err := d.InTx(ctx, func(tx *Tx) error {
		if d.writes.kept(insert) != nil {
			t.Error("kept before any transaction ran it")
		}
		_, err := tx.ExecContext(ctx, insert, "a", 1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if d.writes.kept(insert) == nil {
		t.Fatal("not kept after the transaction that ran it")
	}

	// A kept statement is the transaction's: a rollback undoes it.
	refused := errors.New("refused")
	if err := d.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, insert, "b", 2); err != nil {
			return err
		}
		return refused
	}); !errors.Is(err, refused) {
		t.Fatal(err)
	}
	if n := rows(); n != 1 {
		t.Fatalf("after the rollback: %d rows, want 1", n)
	}

	// A kept statement sees the transaction's own writes.
	var seen int
	if err := d.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, insert, "c", 3); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, count).Scan(&seen); err != nil {
			return err
		}
		return refused
	}); !errors.Is(err, refused) {
		t.Fatal(err)
	}
	if seen != 2 {
		t.Fatalf("inside the transaction: %d rows, want 2", seen)
	}
	if d.writes.kept(count) == nil {
		t.Fatal("the transaction's query is not kept")
	}

	// The writer's connection replaced: the kept statement is prepared on
	// the new one.
	d.w.SetConnMaxLifetime(time.Nanosecond)
	time.Sleep(time.Millisecond)
	if err := d.InTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, insert, "d", 4)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	d.w.SetConnMaxLifetime(0)
	if _, err := d.ExecContext(ctx, insert, "e", 5); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != 3 {
		t.Fatalf("%d rows, want 3", n)
	}

	// A statement that fails still fails, kept or not.
	for range 2 {
		if err := d.InTx(ctx, func(tx *Tx) error {
			_, err := tx.ExecContext(ctx, insert, "a", 9)
			return err
		}); err == nil || !IsUniqueViolation(err) {
			t.Fatalf("duplicate key: %v", err)
		}
	}
}

// A query's rows may still be open when the same text runs again in the
// transaction (a row read inside the loop over another's, a Row not yet
// scanned): the two never share one prepared statement, whose second run
// would restart the first.
func TestWriterStatements_OneTextTwiceAtOnceInATransaction(t *testing.T) {
	ctx := context.Background()
	d := kvDB(t)
	for i, k := range []string{"a", "b", "c"} {
		if _, err := d.ExecContext(ctx, `INSERT INTO kv (k, v) VALUES (?, ?)`, k, i+1); err != nil {
			t.Fatal(err)
		}
	}
	const list = `SELECT k, v FROM kv WHERE v >= ? ORDER BY k`
	const one = `SELECT v FROM kv WHERE k = ?`
	for run := range 3 { // the first run meets the texts, the next ones find them kept
		var got []string
		err := d.InTx(ctx, func(tx *Tx) error {
			first := tx.QueryRowContext(ctx, one, "a")
			second := tx.QueryRowContext(ctx, one, "c")
			var a, c int
			if err := first.Scan(&a); err != nil {
				return err
			}
			if err := second.Scan(&c); err != nil {
				return err
			}
			got = append(got, fmt.Sprint(a, c))
			rows, err := tx.QueryContext(ctx, list, 1)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var k string
				var v int
				if err := rows.Scan(&k, &v); err != nil {
					return err
				}
				inner, err := tx.QueryContext(ctx, list, 3)
				if err != nil {
					return err
				}
				n := 0
				for inner.Next() {
					n++
				}
				if err := inner.Close(); err != nil {
					return err
				}
				got = append(got, fmt.Sprint(k, v, n))
			}
			return rows.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := "[1 3 a1 1 b2 1 c3 1]"; fmt.Sprint(got) != want {
			t.Fatalf("run %d: %v, want %s", run, got, want)
		}
	}
}
