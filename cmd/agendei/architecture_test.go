package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The layer table of docs/architecture.md is the rule the imports keep
// (issue 40 §1: a map that cannot go stale): every package under internal/
// (platform's aside) has a row, and each imports only packages on lower
// rows — never one above it, never one beside it on its own row. A
// package's sub-folders (its fakes, servertest) count as the package.
func TestArchitecture_TheLayerTableIsTheImports(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]int{}
	cell := regexp.MustCompile("`([a-z]+)`")
	for _, line := range strings.Split(string(doc), "\n") {
		cols := strings.Split(line, "|")
		if len(cols) < 4 {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(cols[1]))
		if err != nil {
			continue
		}
		for _, m := range cell.FindAllStringSubmatch(cols[2], -1) {
			row[m[1]] = n
		}
	}
	if len(row) < 20 {
		t.Fatalf("read only %d packages from the layer table: %v", len(row), row)
	}
	const module = "github.com/agendei/agendei/internal/"
	root := filepath.Join("..", "..", "internal")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		pkg := e.Name()
		if !e.IsDir() || pkg == "platform" {
			continue
		}
		mine, ok := row[pkg]
		if !ok {
			t.Errorf("internal/%s has no row in docs/architecture.md's layer table", pkg)
			continue
		}
		err := filepath.WalkDir(filepath.Join(root, pkg), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				other, ok := strings.CutPrefix(p, module)
				if !ok {
					continue
				}
				other, _, _ = strings.Cut(other, "/")
				if other == pkg || other == "platform" {
					continue
				}
				theirs, known := row[other]
				switch {
				case !known:
					t.Errorf("%s imports internal/%s, which has no row in the layer table", path, other)
				case theirs >= mine:
					t.Errorf("%s (row %d) imports internal/%s (row %d): a package imports only lower rows", path, mine, other, theirs)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for pkg := range row {
		if _, err := os.Stat(filepath.Join(root, pkg)); err != nil {
			t.Errorf("the layer table names %s, which is not a package under internal/", pkg)
		}
	}
}
