package db

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// rawBatcher runs PostgreSQL's RawRows reads that arrive together as one
// pipelined batch on one connection: one write to the server and one read of
// every answer, instead of a round trip — two system calls and a wake-up of
// a PostgreSQL backend — for each. Nothing waits to fill a batch: a worker
// takes every read queued while the previous batch ran, so a lone read goes
// alone, as before, and under load a batch carries the reads that would
// otherwise have queued for a connection. Each read is its own statement
// (the batch's implicit transaction gives them no shared snapshot they
// could depend on: each already reads everything it needs in one).
type rawBatcher struct {
	pool     *sql.DB
	in       chan *rawRead
	stop     chan struct{}
	wg       sync.WaitGroup
	start    sync.Once
	stopping sync.Once
	workers  int
	batches  atomic.Int64 // batches sent (a lone read counts as one)
}

// A batch carries at most maxBatch reads, and a worker gives up on a batch
// after batchTimeout (each read's own context still ends its wait sooner).
const (
	maxBatch     = 16
	batchTimeout = 30 * time.Second
)

// Where a read is: queued, taken into a batch, or left by its caller before
// any worker took it.
const (
	readQueued int32 = iota
	readTaken
	readLeft
)

type rawRead struct {
	q     string
	args  []any
	fn    func(cols [][]byte)
	state atomic.Int32
	done  chan struct{}
	err   error

	// mu guards fn's calls against the caller leaving (its context ended)
	// while the batch runs: after left is set fn is never called again, so
	// the caller may reuse what fn writes to as soon as it returns.
	mu        sync.Mutex
	left      bool
	delivered bool // fn was handed a row
}

// errAlone asks the caller to run its read by itself: its batch failed
// before it had any rows, or the batcher is closed.
var errAlone = errors.New("db: read to run alone")

func newRawBatcher(pool *sql.DB, workers int) *rawBatcher {
	return &rawBatcher{pool: pool, in: make(chan *rawRead, 1024), stop: make(chan struct{}), workers: max(1, workers)}
}

// run queues a read and waits for it: its answer, its error, or its
// context's end (fn is then never called again).
func (b *rawBatcher) run(ctx context.Context, q string, args []any, fn func(cols [][]byte)) error {
	b.start.Do(func() {
		for range b.workers {
			b.wg.Add(1)
			go b.work()
		}
	})
	r := &rawRead{q: q, args: args, fn: fn, done: make(chan struct{})}
	select {
	case <-b.stop:
		return errAlone
	default:
	}
	select {
	case b.in <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-b.stop:
		return errAlone
	}
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		if !r.state.CompareAndSwap(readQueued, readLeft) {
			r.mu.Lock()
			r.left = true
			r.mu.Unlock()
		}
		return ctx.Err()
	case <-b.stop: // closed: no worker may come for it
		if r.state.CompareAndSwap(readQueued, readLeft) {
			return errAlone
		}
		<-r.done // a worker has it: its batch is answered before close returns
		return r.err
	}
}

// close stops the workers once their batches are answered; reads still
// queued, or coming after, run by themselves (on a closed pool: its error).
func (b *rawBatcher) close() {
	b.stopping.Do(func() { close(b.stop) })
	b.wg.Wait()
	for {
		select {
		case r := <-b.in:
			if r.state.CompareAndSwap(readQueued, readTaken) {
				r.finish(errAlone)
			}
		default:
			return
		}
	}
}

func (b *rawBatcher) work() {
	defer b.wg.Done()
	batch := make([]*rawRead, 0, maxBatch)
	for {
		batch = batch[:0]
		select {
		case r := <-b.in:
			batch = append(batch, r)
		case <-b.stop:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-b.in:
				batch = append(batch, r)
			default:
				break more
			}
		}
		live := batch[:0]
		for _, r := range batch {
			if r.state.CompareAndSwap(readQueued, readTaken) {
				live = append(live, r)
			}
		}
		if len(live) > 0 {
			b.exec(live)
		}
		clear(batch[:cap(batch)])
	}
}

// exec runs the reads as one batch on one connection and finishes each.
func (b *rawBatcher) exec(reads []*rawRead) {
	b.batches.Add(1)
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	conn, err := b.pool.Conn(ctx)
	if err != nil {
		for _, r := range reads {
			r.finish(err)
		}
		return
	}
	next := 0 // the first read not yet finished
	// Each read is told its own outcome: an error closing the batch only
	// ends the connection.
	_ = conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		if len(reads) == 1 {
			r := reads[0]
			next = 1
			r.finish(rawQuery(ctx, pc, r))
			return nil
		}
		var batch pgx.Batch
		for _, r := range reads {
			batch.Queue(r.q, r.args...)
		}
		br := pc.SendBatch(ctx, &batch)
		for next < len(reads) {
			r := reads[next]
			next++
			rows, err := br.Query()
			if err == nil {
				err = r.rows(rows)
			}
			if err != nil {
				// Whose error it is is not always clear (pgx prepares the
				// batch's new statements first, and one bad statement
				// fails them all): a read that had rows failed on its own;
				// one that had none runs again by itself, as do the rest.
				if r.delivered {
					r.finish(err)
				} else {
					next--
				}
				break
			}
			r.finish(nil)
		}
		return br.Close()
	})
	conn.Close()
	for _, r := range reads[next:] {
		r.finish(errAlone)
	}
}

// rows hands a result's rows to the read's fn, unless its caller has left.
func (r *rawRead) rows(rows pgx.Rows) error {
	defer rows.Close()
	for rows.Next() {
		r.mu.Lock()
		if !r.left {
			r.fn(rows.RawValues())
			r.delivered = true
		}
		r.mu.Unlock()
	}
	return rows.Err()
}

func (r *rawRead) finish(err error) {
	r.err = err
	close(r.done)
}

// rawQuery runs one read by itself on a connection.
func rawQuery(ctx context.Context, pc *pgx.Conn, r *rawRead) error {
	rows, err := pc.Query(ctx, r.q, r.args...)
	if err != nil {
		return err
	}
	return r.rows(rows)
}

// A Read is one query of ReadAll and what is done with each of its rows
// (scan takes the row's columns, as sql.Rows.Scan does).
type Read struct {
	Query string
	Args  []any
	Row   func(scan func(dest ...any) error) error
}

// ReadAll runs reads in order, handing each row to its read's Row; the first
// error stops it. On PostgreSQL, when q is the database itself (not a
// transaction), they go in one round trip — one pipelined batch on one
// connection — instead of one each: for loads of several small tables at
// once, such as an owner's schedule setup.
func ReadAll(ctx context.Context, q Querier, reads ...Read) error {
	if d, ok := q.(*DB); ok && d.Dialect == Postgres && len(reads) > 1 {
		return d.readBatch(ctx, reads)
	}
	for _, r := range reads {
		if err := Each(ctx, q, r.Query, r.Args, func(rows *sql.Rows) error { return r.Row(rows.Scan) }); err != nil {
			return err
		}
	}
	return nil
}

func (d *DB) readBatch(ctx context.Context, reads []Read) error {
	conn, err := d.r.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		var batch pgx.Batch
		for _, r := range reads {
			batch.Queue(d.Rebind(r.Query), r.Args...)
		}
		br := dc.(*stdlib.Conn).Conn().SendBatch(ctx, &batch)
		for _, r := range reads {
			if err := readRows(br, r); err != nil {
				br.Close()
				return err
			}
		}
		return br.Close()
	})
}

func readRows(br pgx.BatchResults, r Read) error {
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := r.Row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}
