package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"
)

// openTestPostgres opens the test cluster's database with its own pool
// (dbtest cannot be imported from inside the package it tests).
func openTestPostgres(t *testing.T) *DB {
	t.Helper()
	url := os.Getenv("AGENDEI_TEST_DATABASE_URL")
	if url == "" {
		if os.Getenv("AGENDEI_TEST_SQLITE_ONLY") == "1" {
			t.Skip("PostgreSQL only")
		}
		t.Fatal("needs AGENDEI_TEST_DATABASE_URL (scripts/with-postgres.sh)")
	}
	d, err := openPostgres(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Reads that queue while a batch runs go together in the next one; each
// still gets exactly its own rows, a bad read fails alone (the reads after
// it in the batch, which PostgreSQL skipped, run by themselves), and a read
// whose caller left is never answered into the caller's memory.
func TestRawBatcher_GathersQueuedReadsAndKeepsEachApart(t *testing.T) {
	ctx := context.Background()
	d := openTestPostgres(t)
	defer d.Close()
	// The pool's only connection is held: the worker takes the first read
	// and waits for it, and the rest queue behind.
	d.r.SetMaxOpenConns(1)
	hold, err := d.r.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	type result struct {
		rows []string
		err  error
	}
	results := make([]result, n)
	done := make([]chan struct{}, n)
	read := func(i int, ctx context.Context) {
		defer close(done[i])
		q := `SELECT CAST(? AS TEXT), CAST(g AS TEXT) FROM generate_series(1, ?) g`
		args := []any{fmt.Sprintf("r%d", i), i%3 + 1}
		if i == 5 {
			q, args = `SELECT nothing FROM nowhere`, nil
		}
		var rows []string
		err := d.RawRows(ctx, q, args, func(cols [][]byte) { rows = append(rows, string(cols[0])+"/"+string(cols[1])) })
		results[i] = result{rows, err}
	}
	wait := func(ok func() bool) {
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("timed out")
			}
		}
	}
	left, leave := context.WithCancel(ctx)
	for i := range n {
		done[i] = make(chan struct{})
		c := ctx
		if i == 8 {
			c = left
		}
		go read(i, c)
		if i == 0 {
			wait(func() bool { return d.batch.batches.Load() == 1 }) // taken, waiting for the connection
		}
	}
	wait(func() bool { return len(d.batch.in) == n-1 })
	leave()
	<-done[8]
	hold.Close()
	for _, c := range done {
		<-c
	}

	if got := d.batch.batches.Load(); got != 2 {
		t.Fatalf("%d batches for one read and %d queued behind it, want 2", got, n-1)
	}
	for i, r := range results {
		switch {
		case i == 5:
			if r.err == nil || errors.Is(r.err, errAlone) {
				t.Fatalf("the bad read: %v", r.err)
			}
		case i == 8:
			if !errors.Is(r.err, context.Canceled) || len(r.rows) > 0 {
				t.Fatalf("the read whose caller left: %v, %q", r.err, r.rows)
			}
		default:
			var want []string
			for g := 1; g <= i%3+1; g++ {
				want = append(want, fmt.Sprintf("r%d/%d", i, g))
			}
			if r.err != nil || fmt.Sprint(r.rows) != fmt.Sprint(want) {
				t.Fatalf("read %d: %q, %v; want %q", i, r.rows, r.err, want)
			}
		}
	}
}

// A closed database may be closed again, and a read after it answers the
// closed pool's own error, as an unbatched read would.
func TestRawBatcher_ReadAfterClose(t *testing.T) {
	ctx := context.Background()
	d := openTestPostgres(t)
	if err := d.RawRows(ctx, `SELECT '1'`, nil, func([][]byte) {}); err != nil {
		t.Fatal(err)
	}
	d.Close()
	d.Close()
	done := make(chan error)
	go func() {
		done <- d.RawRows(ctx, `SELECT '1'`, nil, func([][]byte) { t.Error("a closed database answered") })
	}()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, errAlone) {
			t.Fatalf("after close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a read after close never ended")
	}
}

// The benchmark switch's StopBatching (AGENDEI_BENCH_DISABLE=batcher): the
// batcher is on by default, and once stopped every read still runs, by
// itself, on the pool.
func TestStopBatching_ReadsRunAlone(t *testing.T) {
	ctx := context.Background()
	d := openTestPostgres(t)
	defer d.Close()
	if d.batch == nil {
		t.Fatal("the batcher must be on by default")
	}
	d.StopBatching()
	if d.batch != nil || d.Readers() != d.r.Stats().MaxOpenConnections {
		t.Fatal("the batcher is still on")
	}
	var got []string
	if err := d.RawRows(ctx, `SELECT CAST(g AS TEXT) FROM generate_series(1, ?) g`, []any{3}, func(cols [][]byte) { got = append(got, string(cols[0])) }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Fatalf("rows %v", got)
	}
}
