package servertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/db"
)

// InFiles looks for each needle in the bytes of the database's files: the
// SQLite file and its WAL, or (with AGENDEI_TEST_PG_DATA, which
// scripts/with-postgres.sh sets) the files of every table, TOAST table and
// index of the test's schema after a CHECKPOINT. It returns "file: needle"
// for each found.
func (e *Env) InFiles(t testing.TB, needles []string) []string {
	t.Helper()
	ctx := context.Background()
	var files []string
	names := map[string]string{} // a PostgreSQL file's relation
	if e.DB.Dialect == db.SQLite {
		files = []string{e.DSN, e.DSN + "-wal"}
	} else {
		data := os.Getenv("AGENDEI_TEST_PG_DATA")
		if data == "" {
			t.Log("AGENDEI_TEST_PG_DATA not set: PostgreSQL's files not scanned")
			return nil
		}
		if _, err := e.DB.ExecContext(ctx, `CHECKPOINT`); err != nil {
			t.Fatal(err)
		}
		rows, err := e.DB.QueryContext(ctx, `SELECT pg_relation_filepath(c.oid), c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE c.relkind IN ('r', 't', 'i') AND pg_relation_filepath(c.oid) IS NOT NULL
			AND (n.nspname = current_schema() OR c.oid IN (SELECT reltoastrelid FROM pg_class k JOIN pg_namespace kn ON kn.oid = k.relnamespace WHERE kn.nspname = current_schema())
				OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT reltoastrelid FROM pg_class k JOIN pg_namespace kn ON kn.oid = k.relnamespace WHERE kn.nspname = current_schema())))`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var f, rel string
			if err := rows.Scan(&f, &rel); err != nil {
				t.Fatal(err)
			}
			names[filepath.Base(f)] = rel
			segs, _ := filepath.Glob(filepath.Join(data, f) + ".*")
			files = append(files, append([]string{filepath.Join(data, f)}, segs...)...)
		}
		rows.Close()
		if len(files) < 20 {
			t.Fatalf("only %d files found for the schema's relations", len(files))
		}
	}
	var found []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range needles {
			if c := bytes.Count(b, []byte(n)); c > 0 {
				name := filepath.Base(f)
				if rel := names[strings.SplitN(name, ".", 2)[0]]; rel != "" {
					name += " (" + rel + ")"
				}
				found = append(found, fmt.Sprintf("%s: %q ×%d", name, n, c))
			}
		}
	}
	return found
}
