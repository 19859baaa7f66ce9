// Package db opens Agendei's database — SQLite (the embedded default) or
// PostgreSQL — applies the embedded migrations, and gives the stores one small
// API over both. Queries are written once with '?' placeholders; the one place
// that knows about dialects is this package (Rebind, error classification,
// migration folders).
package db

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Dialect names the database engine behind a DB.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

//go:embed migrations
var migrations embed.FS

// DB is the database. On SQLite writes go through a single connection (SQLite
// has one writer anyway; queueing in Go beats spinning on SQLITE_BUSY) and
// reads through a pool; on PostgreSQL both are the same pool.
type DB struct {
	Dialect Dialect
	w, r    *sql.DB
	// SQLite: statements prepared once per connection, not on every call.
	reads, writes stmtCache
}

// Open connects to PostgreSQL when databaseURL is set, otherwise to the SQLite
// file agendei.db inside dataDir (created if needed).
func Open(ctx context.Context, dataDir, databaseURL string) (*DB, error) {
	if databaseURL != "" {
		return openPostgres(ctx, databaseURL)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	return OpenSQLite(ctx, filepath.Join(dataDir, "agendei.db"))
}

func openPostgres(ctx context.Context, url string) (*DB, error) {
	pool, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(max(8, 4*runtime.NumCPU()))
	pool.SetMaxIdleConns(max(8, 4*runtime.NumCPU()))
	pool.SetConnMaxIdleTime(5 * time.Minute)
	d := &DB{Dialect: Postgres, w: pool, r: pool}
	if err := d.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	return d, nil
}

// OpenSQLite opens (creating if needed) the SQLite database at path.
func OpenSQLite(ctx context.Context, path string) (*DB, error) {
	// busy_timeout first, so that switching to WAL waits for other processes
	// instead of failing; _txlock=immediate makes every transaction take the
	// write lock up front, so read-then-write transactions never deadlock.
	// Memory: no mmap (each connection would map the file again, and every
	// mapping counts toward the process's resident set), and a 2 MB page
	// cache per connection over the operating system's file cache (4 MB
	// made no owner screen faster and held 20 MB more once the owner
	// screens had filled every reader's).
	base := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
		"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=mmap_size(0)&_pragma=cache_size(-2000)&_time_format=sqlite"
	// The writer keeps its temporary files in memory: a statement whose
	// triggers rewrite a row in a transaction (a booking rewrites its
	// professional's busy day) needs a statement journal, which otherwise became a file
	// opened, written and closed again on every booking. Its size is a
	// statement's pages; reads keep the default (a large sort may spill).
	// It zeroes what it frees (secure_delete): a deleted or rewritten row —
	// an erased client's, an old phone number — leaves no readable bytes in
	// free space (Reclaim).
	w, err := sql.Open("sqlite", base+"&_txlock=immediate&_pragma=temp_store(MEMORY)&_pragma=secure_delete(1)")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	r, err := sql.Open("sqlite", base+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(max(4, 2*runtime.NumCPU()))
	r.SetMaxIdleConns(max(4, 2*runtime.NumCPU()))
	r.SetConnMaxIdleTime(0)
	d := &DB{Dialect: SQLite, w: w, r: r, reads: stmtCache{pool: r}, writes: stmtCache{pool: w}}
	// Touch the writer first: it creates the file and switches it to WAL.
	if err := w.PingContext(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("open SQLite %s: %w", path, err)
	}
	return d, nil
}

// Readers is how many reads may usefully be under way at once: the read
// pool's size.
func (d *DB) Readers() int {
	return d.r.Stats().MaxOpenConnections
}

// Close closes every connection.
func (d *DB) Close() error {
	d.reads.close()
	d.writes.close()
	err := d.w.Close()
	if d.r != d.w {
		err = errors.Join(err, d.r.Close())
	}
	return err
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var one int
	return d.r.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// Migrations is the embedded migration files of one engine (the test harness
// names its migrated PostgreSQL template after their content).
func Migrations(dialect Dialect) (fs.FS, error) {
	return fs.Sub(migrations, "migrations/"+string(dialect))
}

// Migrate applies every embedded migration not yet applied. Several instances
// starting at once on PostgreSQL take turns through an advisory lock.
func (d *DB) Migrate(ctx context.Context, log *slog.Logger) error {
	sub, err := Migrations(d.Dialect)
	if err != nil {
		return err
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if d.Dialect == Postgres {
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, d.w, sub, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range results {
		if log != nil {
			log.Info("migration applied", "version", r.Source.Version, "file", filepath.Base(r.Source.Path), "took", r.Duration)
		}
	}
	return nil
}

// Backup writes a consistent copy of a SQLite database to path while the
// server keeps running (VACUUM INTO reads one snapshot). The copy is a plain
// SQLite file: restoring is stopping the server and putting it in place of
// <data dir>/agendei.db. PostgreSQL has its own tools (pg_dump).
func (d *DB) Backup(ctx context.Context, path string) error {
	if d.Dialect != SQLite {
		return errors.New("backup copies the embedded SQLite database; for PostgreSQL use pg_dump")
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s already exists: choose a new file", path)
	}
	// The read pool is query_only, which forbids writing the copy; the writer
	// connection only reads the database here, from one snapshot.
	_, err := d.w.ExecContext(ctx, `VACUUM INTO ?`, path)
	return err
}

// Rebind turns '?' placeholders into PostgreSQL's $1, $2, … (none of our SQL
// has a literal '?' inside a string).
func (d *DB) Rebind(q string) string { return rebind(d.Dialect, q) }

func rebind(dialect Dialect, q string) string {
	if dialect != Postgres || !strings.Contains(q, "?") {
		return q
	}
	if RebindCacheOff.Load() {
		return rebindText(q) // the plain path: rewritten on every call
	}
	if r, ok := rebound.Load(q); ok {
		return r.(string)
	}
	r := rebindText(q)
	if reboundCount.Add(1) <= maxRebound {
		rebound.Store(q, r)
	}
	return r
}

// rebound keeps each query text's PostgreSQL form: the code's queries are
// a few hundred texts (with IN lists of a few lengths), each rewritten
// on every call before — a few µs of a read of several statements. Past
// maxRebound texts, new ones are rewritten every time.
var (
	rebound      sync.Map // query text → its text with $n
	reboundCount atomic.Int64
)

const maxRebound = 4096

// RebindCacheOff turns the rebound texts' cache off: a benchmark switch
// (AGENDEI_BENCH_DISABLE=rebind-cache) measuring what it pays, never set
// in production.
var RebindCacheOff atomic.Bool

func rebindText(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 8)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// Querier is what store code needs; both DB and Tx provide it.
type Querier interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// Each runs a read and calls scan for every row, closing the rows however
// it ends; the first error (of the query, a scan or the iteration) is returned.
func Each(ctx context.Context, q Querier, query string, args []any, scan func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ExecOwned runs a write of the caller's own rows (its WHERE names the owner)
// and returns missing when it touched none: a record of another owner answers
// exactly like one that does not exist (404, never 403), so ids do not leak.
func ExecOwned(ctx context.Context, q Querier, missing error, query string, args ...any) error {
	_, err := ExecOwnedCount(ctx, q, missing, query, args...)
	return err
}

// ExecOwnedCount is ExecOwned that also tells how many rows it touched.
func ExecOwnedCount(ctx context.Context, q Querier, missing error, query string, args ...any) (int64, error) {
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, missing
	}
	return n, nil
}

// ExecContext runs a write outside a transaction: a statement of its own
// on PostgreSQL, run again whole when PostgreSQL aborted it as a deadlock
// victim or a serialization failure (as InTx does a transaction). A write
// of an owner's rows whose triggers lock more than one row goes through
// OwnerTx instead, so that it takes the owner's lock first.
func (d *DB) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := d.writes.get(ctx, q); st != nil {
		return st.ExecContext(ctx, args...)
	}
	for attempt := 1; ; attempt++ {
		res, err := d.w.ExecContext(ctx, d.Rebind(q), args...)
		if attempt < maxAttempts && IsRetryable(err) && pauseBeforeRetry(ctx, attempt) {
			continue
		}
		return res, err
	}
}

// QueryContext runs a read.
func (d *DB) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := d.reads.get(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return d.r.QueryContext(ctx, d.Rebind(q), args...)
}

// QueryRowContext runs a read of one row.
func (d *DB) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := d.reads.get(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return d.r.QueryRowContext(ctx, d.Rebind(q), args...)
}

// WriteRowContext runs a write that returns one row (INSERT/UPDATE … RETURNING).
func (d *DB) WriteRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := d.writes.get(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return d.w.QueryRowContext(ctx, d.Rebind(q), args...)
}

// Tx is a write transaction.
type Tx struct {
	tx       *sql.Tx
	Dialect  Dialect
	onCommit []func()
	writes   *stmtCache
	mu       sync.Mutex
	missed   []string            // texts with no kept statement, prepared once the writer is free
	queried  map[string]struct{} // texts a query has run with (its rows perhaps still open)
	owner    string              // the owner whose lock the transaction holds (LockOwner)
}

// OnCommit runs fn after the transaction commits (never if it rolls back):
// the place to announce a change to others.
func (t *Tx) OnCommit(fn func()) { t.onCommit = append(t.onCommit, fn) }

// stmt is the writer's kept statement of q for this transaction, or nil to
// run q directly. A query's rows stay open until read, and a second run of
// the same prepared statement on the one connection would restart it under
// them (a row read inside the loop over another's, a Row not yet scanned):
// so a text's kept statement serves at most one query in a transaction,
// and no exec after it; an exec runs to its end at once, so execs of one
// text share it freely. The transaction holds the writer's only
// connection, so a text seen for the first time cannot be prepared on the
// pool now: it is noted and prepared when the transaction ends.
func (t *Tx) stmt(ctx context.Context, q string, query bool) *sql.Stmt {
	if t.writes == nil || t.writes.pool == nil {
		return nil
	}
	st := t.writes.kept(q)
	t.mu.Lock()
	_, queried := t.queried[q]
	if query {
		if t.queried == nil {
			t.queried = map[string]struct{}{}
		}
		t.queried[q] = struct{}{}
	}
	if st == nil {
		t.missed = append(t.missed, q)
	}
	t.mu.Unlock()
	if st == nil || queried {
		return nil
	}
	return t.tx.StmtContext(ctx, st)
}

// ExecContext runs a statement in the transaction.
func (t *Tx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := t.stmt(ctx, q, false); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, rebind(t.Dialect, q), args...)
}

// QueryContext runs a query in the transaction.
func (t *Tx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := t.stmt(ctx, q, true); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, rebind(t.Dialect, q), args...)
}

// QueryRowContext runs a one-row query in the transaction.
func (t *Tx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.stmt(ctx, q, true); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, rebind(t.Dialect, q), args...)
}

// InTx runs fn in a write transaction, committing when it returns nil. On
// SQLite the transaction holds the single writer from its first statement.
// A transaction PostgreSQL aborted as a deadlock victim or a serialization
// failure runs again from the start (fn must touch only the database), up
// to three times in all.
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	for attempt := 1; ; attempt++ {
		err := d.inTx(ctx, fn)
		if attempt < maxAttempts && IsRetryable(err) && pauseBeforeRetry(ctx, attempt) {
			continue
		}
		return err
	}
}

// maxAttempts bounds how many times a write PostgreSQL aborted as a
// deadlock victim or serialization failure runs in all.
const maxAttempts = 3

// pauseBeforeRetry waits a little before a write PostgreSQL aborted runs
// again (false: ctx ended, do not). Without it the victim's rerun could
// take a row back before the transaction that won the deadlock — queued
// for that very row, woken by the abort but not yet run — had its turn
// (PostgreSQL gives a freed row to whoever asks first), and the two
// deadlocked again, up to the last attempt: the deadlock tests found it
// under load. A deadlock has already cost deadlock_timeout (1 s) by then;
// the pause grows with each attempt and is jittered, so that two victims
// do not come back together.
func pauseBeforeRetry(ctx context.Context, attempt int) bool {
	pause := time.Duration(attempt)*50*time.Millisecond + rand.N(50*time.Millisecond)
	t := time.NewTimer(pause)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// ErrOwnerGone is a write of an owner whose account no longer exists: it
// was deleted while the request was in flight. Answered 401, as any
// request of a deleted account.
var ErrOwnerGone = errors.New("the owner's account no longer exists")

// OwnerTx is InTx for a write of one owner's rows: the transaction first
// takes the owner's lock (LockOwner) and stops with ErrOwnerGone when the
// account is gone. Every write of an owner's rows goes through it — or
// takes LockOwner as its transaction's first statement — single
// statements included, so that on PostgreSQL one owner's writers queue at
// their start and never take their locks in opposite orders.
func (d *DB) OwnerTx(ctx context.Context, ownerID string, fn func(tx *Tx) error) error {
	return d.InTx(ctx, func(tx *Tx) error {
		if err := tx.LockOwner(ctx, ownerID); err != nil {
			return err
		}
		return fn(tx)
	})
}

// OwnerExec runs one write of an owner's rows in its own OwnerTx, as
// ExecOwned: missing (when not nil) when it touched no row.
func (d *DB) OwnerExec(ctx context.Context, ownerID string, missing error, q string, args ...any) error {
	return d.OwnerTx(ctx, ownerID, func(tx *Tx) error {
		return ExecOwned(ctx, tx, missing, q, args...)
	})
}

// LockOwner takes the owner's lock, the first of PostgreSQL's one lock
// order for every write that touches an owner's rows
// (docs/decisions/0007-owner-lock.md):
//
//  1. the owner's data_versions row — this lock;
//  2. professionals, by id (booking.Hold, schedule's lockProfessionals,
//     booking.Rezone);
//  3. appointments, and what their triggers write (busy_days).
//
// Every trigger that bumps data_versions takes (1) again, which the
// transaction holds already, so no trigger reaches back in the order. It
// must be the transaction's first statement that locks anything; taking
// it again in the same transaction costs nothing. It answers ErrOwnerGone
// when the owner's account is gone (looked up after any wait for the
// lock: an account deletion takes the same lock first). On SQLite the
// single writer already serialises every write: only the account is
// looked up.
func (t *Tx) LockOwner(ctx context.Context, ownerID string) error {
	if t.owner == ownerID && ownerID != "" {
		return nil
	}
	var exists bool
	q := `SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)`
	if t.Dialect == Postgres {
		q = `SELECT lock_owner(?)`
	}
	if err := t.QueryRowContext(ctx, q, ownerID).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return ErrOwnerGone
	}
	t.owner = ownerID
	return nil
}

func (d *DB) inTx(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	t := &Tx{tx: sqlTx, Dialect: d.Dialect, writes: &d.writes}
	if err := fn(t); err != nil {
		_ = sqlTx.Rollback()
		d.prepareMissed(ctx, t)
		return err
	}
	err = sqlTx.Commit()
	d.prepareMissed(ctx, t)
	if err != nil {
		return err
	}
	for _, f := range t.onCommit {
		f()
	}
	return nil
}

// prepareMissed keeps the statements t ran without one, once t has ended and
// the writer is free again: a text is prepared on the writer once, by the
// first transaction that ran it. Never while t holds the writer (a panic in
// fn skips it), which would wait for the connection t itself holds.
func (d *DB) prepareMissed(ctx context.Context, t *Tx) {
	for _, q := range t.missed {
		if ctx.Err() != nil {
			return
		}
		d.writes.get(ctx, q)
	}
}

// AfterCommit runs fn when q's transaction commits, or at once when q is not
// a transaction (its statements are already committed).
func AfterCommit(q Querier, fn func()) {
	if t, ok := q.(*Tx); ok {
		t.OnCommit(fn)
		return
	}
	fn()
}

// LockRow is appended to a SELECT inside a transaction to serialise writers
// on that row: PostgreSQL takes a row lock; SQLite needs nothing, because its
// write transactions already run one at a time.
func (t *Tx) LockRow() string {
	if t.Dialect == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// Analyze refreshes SQLite's query planner statistics, as the server
// starts (PostgreSQL's autovacuum keeps its own). SQLite keeps only
// sqlite_stat1 (row counts per index prefix): the histograms of
// sqlite_stat4 make SQLite prepare a statement again on every execution
// whose bound values might change its plan, which undoes the statement
// cache on the busiest reads (a busy range of dates is parameters), and
// our queries' plans do not depend on the values. The statistics are
// replaced in one transaction, so other connections reload them whole.
func (d *DB) Analyze(ctx context.Context) error {
	if d.Dialect == Postgres {
		return nil
	}
	return d.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `PRAGMA analysis_limit = 1000`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `ANALYZE`); err != nil {
			return err
		}
		var stat4 int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'sqlite_stat4'`).Scan(&stat4); err != nil || stat4 == 0 {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM sqlite_stat4`)
		return err
	})
}

// Reclaim overwrites what the committed deletes and updates of tables freed,
// so that the database's files no longer hold it (the LGPD erase: a client's
// data must not stay readable in free space). On SQLite the writer zeroes
// freed content as it writes (secure_delete, set when it opens), and the
// WAL, whose frames still hold the pages as they were, is checkpointed into
// the file and truncated. On PostgreSQL a dead row version stays in its page
// until the page is rewritten — a plain VACUUM frees it without clearing
// its bytes — so each table is rewritten whole (VACUUM FULL, with its
// indexes and TOAST): it holds the table's lock for as long as the copy
// takes, which the rare erase pays. It runs outside any transaction.
func (d *DB) Reclaim(ctx context.Context, tables ...string) error {
	if d.Dialect == SQLite {
		// A reader still on an older snapshot keeps the checkpoint from
		// finishing: reads are short, so it is tried again a few times.
		for try := range 5 {
			var busy, frames, done int
			if err := d.w.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &frames, &done); err != nil {
				return err
			}
			if busy == 0 {
				return nil
			}
			time.Sleep(time.Duration(try+1) * 50 * time.Millisecond)
		}
		return errors.New("the WAL checkpoint was kept from finishing by readers; the WAL keeps old pages until it is overwritten")
	}
	for _, t := range tables {
		if _, err := d.w.ExecContext(ctx, `VACUUM (FULL) `+pgIdent(t)); err != nil {
			return fmt.Errorf("vacuum %s: %w", t, err)
		}
	}
	return nil
}

// pgIdent quotes a table name for PostgreSQL.
func pgIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// OrNull is an optional text column's value: NULL for "".
func OrNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}
