package db

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// The writer's kept statements: a text a transaction runs is prepared once
// that transaction ends, and the next transactions run it inside themselves
// (their own writes seen, a rollback undoing it), also after the writer's
// connection was replaced.
func TestWriterStatements_KeptAndRunInsideTheTransaction(t *testing.T) {
	ctx := context.Background()
	d, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "agendei.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.ExecContext(ctx, `CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
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

	// Warm the transaction's count, then read the transaction's own insert
	// through both kept statements.
	for range 2 {
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
	}
	if d.writes.kept(count) == nil {
		t.Fatal("the transaction's read is not kept")
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
