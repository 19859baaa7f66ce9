package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestQueue_FailedJobIsRetriedWithBackoffUntilItSucceeds(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		clk := clock.NewManual(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
		q := jobs.New(d, clk, quiet)
		var calls atomic.Int32
		q.Register("flaky", func(ctx context.Context, payload []byte) error {
			if string(payload) != `{"n":1}` {
				t.Errorf("payload %s", payload)
			}
			if calls.Add(1) < 3 {
				return errors.New("smtp down")
			}
			return nil
		})
		if err := q.Enqueue(ctx, d, jobs.About{}, "flaky", map[string]int{"n": 1}, time.Time{}, 5); err != nil {
			t.Fatal(err)
		}
		run := func() bool {
			found, err := q.RunOnce(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return found
		}
		if !run() || calls.Load() != 1 {
			t.Fatal("first attempt")
		}
		if run() {
			t.Fatal("a failed job must wait its back-off")
		}
		clk.Advance(jobs.Backoff(1))
		if !run() || calls.Load() != 2 {
			t.Fatal("second attempt after 30 s")
		}
		clk.Advance(jobs.Backoff(2))
		if !run() || calls.Load() != 3 {
			t.Fatal("third attempt")
		}
		clk.Advance(time.Hour)
		if run() {
			t.Fatal("a finished job must not run again")
		}
	})
}

func TestQueue_ConcurrentWorkersRunEachJobOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		clk := clock.Real{}
		const n = 40
		var mu sync.Mutex
		seen := map[int]int{}
		handler := func(ctx context.Context, payload []byte) error {
			var id int
			_, _ = fmt.Sscan(string(payload), &id)
			mu.Lock()
			seen[id]++
			mu.Unlock()
			return nil
		}
		// Several queues on one database stand for several server processes.
		var queues []*jobs.Queue
		for range 4 {
			q := jobs.New(d, clk, quiet)
			q.Register("count", handler)
			queues = append(queues, q)
		}
		for i := range n {
			if err := queues[0].Enqueue(ctx, d, jobs.About{}, "count", i, time.Time{}, 3); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		for _, q := range queues {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					found, err := q.RunOnce(ctx)
					if err != nil {
						t.Error(err)
						return
					}
					if !found {
						return
					}
				}
			}()
		}
		wg.Wait()
		// A worker may stop early after losing a race; drain what is left.
		for {
			found, err := queues[0].RunOnce(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				break
			}
		}
		if len(seen) != n {
			t.Fatalf("%d jobs ran, want %d", len(seen), n)
		}
		for id, c := range seen {
			if c != 1 {
				t.Fatalf("job %d ran %d times", id, c)
			}
		}
	})
}
