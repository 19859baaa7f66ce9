package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's layout names every package a newcomer will open (issue 40:
// it had fallen 9 packages behind): each folder of internal/ and each of
// internal/platform/ is in it, so a new package cannot land unmentioned.
func TestReadme_LayoutNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(readme), "## Layout")
	if start < 0 {
		t.Fatal("README has no Layout section")
	}
	layout := string(readme[start:])
	if end := strings.Index(layout[len("## Layout"):], "\n## "); end >= 0 {
		layout = layout[:len("## Layout")+end]
	}
	dirs := func(parent string) []string {
		entries, err := os.ReadDir(filepath.Join("../..", parent))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			if e.IsDir() {
				out = append(out, e.Name())
			}
		}
		return out
	}
	for _, d := range dirs("internal") {
		if !strings.Contains(layout, "internal/"+d+"/") {
			t.Errorf("README's layout does not name internal/%s/", d)
		}
	}
	for _, d := range dirs("internal/platform") {
		if !regexp.MustCompile(`\b` + d + `\b`).MatchString(layout) {
			t.Errorf("README's layout does not name internal/platform's %s", d)
		}
	}
}
