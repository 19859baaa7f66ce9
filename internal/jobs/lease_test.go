package jobs_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
)

// children counts the "child" jobs: the effect a parent job's transaction
// writes (as the reminder job queues its e-mail).
func children(t *testing.T, d *db.DB) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM jobs WHERE kind = 'child'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// parent is a job that does its work in one transaction — queue a child —
// and finishes itself there; hold, when set, stops it before the work
// until released (a process that hangs or is killed mid-job).
func parent(q *jobs.Queue, d *db.DB, clk clock.Clock, hold <-chan struct{}) jobs.Handler {
	return func(ctx context.Context, payload []byte) error {
		if hold != nil {
			<-hold
		}
		return d.InTx(ctx, func(tx *db.Tx) error {
			if err := q.Enqueue(ctx, tx, jobs.About{}, "child", 1, time.Time{}, 3); err != nil {
				return err
			}
			return jobs.Finish(ctx, tx, clk.Now())
		})
	}
}

// A process killed after its job's work committed (before it could say so
// in a second write) leaves the job finished: no other worker runs it
// again once the lease ends, so the work is not done twice.
func TestQueue_WorkAndDoneCommitTogether(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		clk := clock.NewManual(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
		a, b := jobs.New(d, clk, quiet), jobs.New(d, clk, quiet)
		ctx, kill := context.WithCancel(context.Background())
		a.Register("parent", func(jctx context.Context, payload []byte) error {
			err := parent(a, d, clk, nil)(jctx, payload)
			kill() // the process dies here: its own bookkeeping never runs
			return err
		})
		b.Register("parent", parent(b, d, clk, nil))
		if err := a.Enqueue(context.Background(), d, jobs.About{}, "parent", 1, time.Time{}, 5); err != nil {
			t.Fatal(err)
		}
		if found, _ := a.RunOnce(ctx); !found {
			t.Fatal("the job did not run")
		}
		clk.Advance(jobs.Lease + time.Second)
		b.Register("child", func(context.Context, []byte) error { return nil })
		for {
			found, err := b.RunOnce(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				break
			}
		}
		var attempts int
		if err := d.QueryRowContext(context.Background(), `SELECT attempts FROM jobs WHERE kind = 'parent' AND done_at IS NOT NULL`).Scan(&attempts); err != nil || attempts != 1 {
			t.Fatalf("the finished job ran again (attempts %d, %v)", attempts, err)
		}
		if n := children(t, d); n != 1 {
			t.Fatalf("%d children, want 1", n)
		}
	})
}

// A worker that hangs (or is killed) holding a job loses it when its lease
// ends: another worker takes it, does the work once, and the first one,
// should it wake, can neither commit its work nor mark the job done.
func TestQueue_AJobWhoseWorkerDiedIsTakenAgainAfterItsLease(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		clk := clock.NewManual(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
		a, b := jobs.New(d, clk, quiet), jobs.New(d, clk, quiet)
		hold := make(chan struct{})
		a.Register("parent", parent(a, d, clk, hold))
		b.Register("parent", parent(b, d, clk, nil))
		ctx := context.Background()
		if err := a.Enqueue(ctx, d, jobs.About{}, "parent", 1, time.Time{}, 5); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		claimed := make(chan struct{})
		go func() {
			// a claims the job and hangs in it.
			found, err := a.RunOnce(ctx)
			if !found && err == nil {
				err = errors.New("a found no job")
			}
			done <- err
		}()
		go func() {
			for {
				var locked int
				_ = d.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = 'parent' AND locked_until IS NOT NULL`).Scan(&locked)
				if locked == 1 {
					close(claimed)
					return
				}
				time.Sleep(time.Millisecond)
			}
		}()
		<-claimed
		if found, err := b.RunOnce(ctx); err != nil || found {
			t.Fatalf("a leased job was taken during its lease (found %v, err %v)", found, err)
		}
		clk.Advance(jobs.Lease + time.Second)
		if found, err := b.RunOnce(ctx); err != nil || !found {
			t.Fatalf("the dead worker's job was not taken again (found %v, err %v)", found, err)
		}
		close(hold) // a wakes: its transaction finds the job no longer its own
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n := children(t, d); n != 1 {
			t.Fatalf("%d children, want 1", n)
		}
		var doneAt int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = 'parent' AND done_at IS NOT NULL AND attempts = 2`).Scan(&doneAt); err != nil || doneAt != 1 {
			t.Fatalf("the job is not done by its second run: %d %v", doneAt, err)
		}
	})
}

// A job that runs longer than its lease keeps it (the running worker
// renews it), so no other worker starts it a second time.
func TestQueue_ARunningJobRenewsItsLease(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		a, b := jobs.New(d, clock.Real{}, quiet), jobs.New(d, clock.Real{}, quiet)
		a.SetLease(300 * time.Millisecond)
		b.SetLease(300 * time.Millisecond)
		var runs atomic.Int32
		slow := func(ctx context.Context, payload []byte) error {
			runs.Add(1)
			time.Sleep(time.Second)
			return nil
		}
		a.Register("slow", slow)
		b.Register("slow", slow)
		if err := a.Enqueue(ctx, d, jobs.About{}, "slow", 1, time.Time{}, 5); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = a.RunOnce(ctx)
		}()
		for runs.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		for end := time.Now().Add(900 * time.Millisecond); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if found, err := b.RunOnce(ctx); err != nil || found {
				t.Fatalf("a running job was taken by another worker (found %v, err %v)", found, err)
			}
		}
		<-done
		if n := runs.Load(); n != 1 {
			t.Fatalf("%d runs", n)
		}
	})
}
