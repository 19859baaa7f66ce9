// Package dbtest gives tests a fresh, migrated database on each engine: SQLite
// in a temp dir, and PostgreSQL as a new database of the throwaway cluster that
// `make test` starts (scripts/with-postgres.sh sets AGENDEI_TEST_DATABASE_URL).
//
// PostgreSQL tests are never skipped silently: without the variable they fail,
// unless AGENDEI_TEST_SQLITE_ONLY=1 says on purpose that only SQLite should run.
package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agendei/agendei/internal/platform/db"
)

// Dialects lists the engines this run covers.
func Dialects(t testing.TB) []db.Dialect {
	if os.Getenv("AGENDEI_TEST_DATABASE_URL") == "" {
		if os.Getenv("AGENDEI_TEST_SQLITE_ONLY") == "1" {
			return []db.Dialect{db.SQLite}
		}
		t.Fatal("PostgreSQL tests need AGENDEI_TEST_DATABASE_URL: run `make test` (it starts a throwaway cluster) " +
			"or scripts/with-postgres.sh go test ./..., or set AGENDEI_TEST_SQLITE_ONLY=1 to run SQLite only")
	}
	return []db.Dialect{db.SQLite, db.Postgres}
}

// Each runs fn as a subtest on a fresh database of every engine.
func Each(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	for _, dialect := range Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			fn(t, Open(t, dialect))
		})
	}
}

// Open returns a fresh migrated database of the given engine, closed and
// dropped when the test ends.
func Open(t testing.TB, dialect db.Dialect) *db.DB {
	d, _ := OpenDSN(t, dialect)
	return d
}

// OpenDSN is Open that also returns where the database is (a SQLite file or
// a PostgreSQL URL), so a test can connect a second, independent pool to it.
func OpenDSN(t testing.TB, dialect db.Dialect) (*db.DB, string) {
	t.Helper()
	if dialect == db.Postgres {
		tmpl, err := postgresTemplate()
		if err != nil {
			t.Fatal(err)
		}
		dsn := newDatabase(t, tmpl)
		return Reopen(t, dsn), dsn
	}
	migrated, err := migratedSQLite()
	if err != nil {
		t.Fatal(err)
	}
	dsn := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(dsn, migrated, 0o600); err != nil {
		t.Fatal(err)
	}
	return Reopen(t, dsn), dsn
}

// migratedSQLite is a freshly migrated SQLite database file, made once per
// test process: each test gets its own copy. Applying the migrations takes
// about 5 s under the race detector (the SQLite driver is Go translated from
// C, and every memory access is checked) against 0.15 s without — 10–20 s on
// the busy 2-core machine — while a copy takes a millisecond. The copy is the
// same file the migrations make — VACUUM INTO writes one consistent snapshot —
// so a test sees what a new install sees.
//
// Under scripts/with-postgres.sh (make test), AGENDEI_TEST_SHARED_DIR is a
// folder that lives as long as that one run: the first test process to
// migrate leaves its snapshot there (named after the migrations' digest) and
// the run's other packages copy it instead of migrating again.
var migratedSQLite = sync.OnceValues(func() ([]byte, error) {
	shared := os.Getenv("AGENDEI_TEST_SHARED_DIR")
	var cached string
	if shared != "" {
		digest, err := migrationsDigest(db.SQLite)
		if err != nil {
			return nil, err
		}
		cached = filepath.Join(shared, "sqlite-migrated-"+digest+".db")
		if b, err := os.ReadFile(cached); err == nil {
			return b, nil
		}
	}
	dir, err := os.MkdirTemp(shared, "agendei-dbtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	d, err := db.OpenSQLite(ctx, filepath.Join(dir, "migrating.db"))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if err := d.Migrate(ctx, nil); err != nil {
		return nil, err
	}
	snapshot := filepath.Join(dir, "migrated.db")
	if err := d.Backup(ctx, snapshot); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(snapshot)
	if err != nil {
		return nil, err
	}
	if cached != "" {
		// Complete before it appears: a rename within the folder is atomic,
		// so a process reading it never sees half a file.
		if err := os.Rename(snapshot, cached); err != nil {
			return nil, err
		}
	}
	return b, nil
})

// migrationsDigest names the migration files of an engine by their content.
func migrationsDigest(dialect db.Dialect) (string, error) {
	files, err := db.Migrations(dialect)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	err = fs.WalkDir(files, ".", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Reopen connects a new pool to a database made by OpenDSN.
func Reopen(t testing.TB, dsn string) *db.DB {
	t.Helper()
	ctx := context.Background()
	var d *db.DB
	var err error
	if strings.HasPrefix(dsn, "postgres") {
		d, err = db.Open(ctx, "", dsn)
	} else {
		d, err = db.OpenSQLite(ctx, dsn)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// PostgresURL creates an empty database in the test cluster and returns its
// URL, so that tests (and server processes they start) never see each other's
// rows. The database is dropped when the test ends.
func PostgresURL(t testing.TB) string {
	t.Helper()
	return newDatabase(t, "")
}

// newDatabase creates a database, a copy of template if one is named, and
// returns its URL; it is dropped when the test ends (WITH (FORCE): a server
// process the test started may still hold a connection).
func newDatabase(t testing.TB, template string) string {
	t.Helper()
	base := os.Getenv("AGENDEI_TEST_DATABASE_URL")
	if base == "" {
		t.Fatal("AGENDEI_TEST_DATABASE_URL is not set")
	}
	buf := make([]byte, 6)
	_, _ = rand.Read(buf)
	name := "t_" + hex.EncodeToString(buf)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	if _, err := admin.Exec(create); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		a, err := sql.Open("pgx", base)
		if err == nil {
			_, _ = a.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			a.Close()
		}
	})
	u, err := databaseURL(base, name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func databaseURL(base, name string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// postgresTemplate is the name of a database in the test cluster with every
// migration applied, made once and copied by CREATE DATABASE … TEMPLATE for
// each test. Applying the 60-odd migrations took 2–5 s per test under the race
// detector on a busy 2-core machine, against ~0.1 s for the copy. The name
// carries a digest of the migration files, so a changed migration makes a new
// template; the test processes of one run (packages run in parallel) share it,
// taking turns through an advisory lock, and the copy is what the migrations
// make, so a test sees what a new install sees.
var postgresTemplate = sync.OnceValues(func() (string, error) {
	base := os.Getenv("AGENDEI_TEST_DATABASE_URL")
	digest, err := migrationsDigest(db.Postgres)
	if err != nil {
		return "", err
	}
	name := "agendei_template_" + digest

	ctx := context.Background()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	conn, err := admin.Conn(ctx) // the advisory lock is the session's
	if err != nil {
		return "", err
	}
	defer conn.Close()
	const lockKey = 0x61676e646274 // "agndbt"
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return "", err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", lockKey) //nolint:errcheck // the session ends next
	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	// Built under another name and renamed when complete: a run killed halfway
	// leaves no half-migrated template behind under the real name.
	building := name + "_building"
	if _, err := conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	u, err := databaseURL(base, building)
	if err != nil {
		return "", err
	}
	d, err := db.Open(ctx, "", u)
	if err != nil {
		return "", err
	}
	err = d.Migrate(ctx, nil)
	d.Close()
	if err != nil {
		return "", fmt.Errorf("migrate the test template: %w", err)
	}
	// RENAME waits (up to 5 s) for the closed pool's backends to exit.
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		return "", err
	}
	return name, nil
})
