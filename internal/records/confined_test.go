package records

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The notes never reach an outward path because nothing else reads them: no
// Go file outside this package names the tables that hold a record's sealed
// texts or its key — not the reports, the exports, the mail, WhatsApp, push,
// the calendar feeds and write-back, the webhooks. The one exception deletes
// destroyed records' rows with the account (auth's DeleteAccount).
func TestRecordTables_AreReadByThisPackageAlone(t *testing.T) {
	sealed := []string{"record_keys", "record_entries", "record_documents", "record_shares", "record_files", "record_cosigns"}
	allowed := map[string]bool{filepath.Join("internal", "auth", "delete.go"): true}
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(rel, filepath.Join("internal", "records")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, table := range sealed {
			if strings.Contains(string(b), table) && !allowed[rel] {
				t.Errorf("%s names %s: a record's sealed texts are read by internal/records alone", rel, table)
			}
		}
		return nil
	})
	if err != nil || checked < 100 {
		t.Fatalf("walked %d files: %v", checked, err)
	}
}
