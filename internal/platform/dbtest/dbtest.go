// Package dbtest gives tests a fresh, migrated database on each engine: SQLite
// in a temp dir, and PostgreSQL in a new schema of the throwaway cluster that
// `make test` starts (scripts/with-postgres.sh sets AGENDEI_TEST_DATABASE_URL).
//
// PostgreSQL tests are never skipped silently: without the variable they fail,
// unless AGENDEI_TEST_SQLITE_ONLY=1 says on purpose that only SQLite should run.
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
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
		dsn := PostgresURL(t)
		d := Reopen(t, dsn)
		if err := d.Migrate(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		return d, dsn
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
// C, and every memory access is checked) against 0.15 s without; a copy takes
// a millisecond. The copy is the same file the migrations make — VACUUM INTO
// writes one consistent snapshot — so a test sees what a new install sees.
var migratedSQLite = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "agendei-dbtest-")
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
	return os.ReadFile(snapshot)
})

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

// PostgresURL creates an empty schema in the test cluster and returns a URL
// whose connections use it, so that tests (and server processes they start)
// never see each other's rows. The schema is dropped when the test ends.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("AGENDEI_TEST_DATABASE_URL")
	if base == "" {
		t.Fatal("AGENDEI_TEST_DATABASE_URL is not set")
	}
	buf := make([]byte, 6)
	_, _ = rand.Read(buf)
	schema := "t_" + hex.EncodeToString(buf)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("create test schema: %v", err)
	}
	t.Cleanup(func() {
		a, err := sql.Open("pgx", base)
		if err == nil {
			_, _ = a.Exec("DROP SCHEMA " + schema + " CASCADE")
			a.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
