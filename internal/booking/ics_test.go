package booking

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// unfoldICS joins folded lines (RFC 5545 §3.1) and splits the content lines.
func unfoldICS(t *testing.T, raw string) []string {
	t.Helper()
	if !strings.HasSuffix(raw, "\r\n") {
		t.Fatalf("the file does not end with CRLF")
	}
	physical := strings.Split(strings.TrimSuffix(raw, "\r\n"), "\r\n")
	var lines []string
	for _, l := range physical {
		if strings.ContainsAny(l, "\r\n") {
			t.Fatalf("a bare CR or LF inside a line: %q", l)
		}
		if len(l) > 75 {
			t.Errorf("physical line of %d octets: %q", len(l), l)
		}
		if !utf8.ValidString(l) {
			t.Errorf("a fold split a UTF-8 sequence: %q", l)
		}
		if rest, ok := strings.CutPrefix(l, " "); ok && len(lines) > 0 {
			lines[len(lines)-1] += rest
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

// unescapeText reverses escapeText.
func unescapeText(s string) string {
	return strings.NewReplacer(`\\`, `\`, `\;`, ";", `\,`, ",", `\n`, "\n", `\N`, "\n").Replace(s)
}

func TestICS_LineBreaksInNamesCannotAddEvents(t *testing.T) {
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	summary := "Corte com Ana\rEND:VEVENT\rBEGIN:VEVENT\nSUMMARY:falso\r\nX:y; a, b \\ c " +
		strings.Repeat("ção 😀 ", 30) + "\x00\x07\x1b\u0085fim\tok"
	desc := "Agendado pelo Agendei com " + strings.Repeat("Estúdio Ação, Beleza; ", 8)
	raw := string(ICS(Invite{UID: "x@agendei", Start: time.Date(2026, 11, 30, 10, 0, 0, 0, loc), Duration: 45 * time.Minute,
		Summary: summary, Description: desc, Stamp: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}))
	lines := unfoldICS(t, raw)
	count := map[string]int{}
	for _, l := range lines {
		count[l]++
	}
	for _, l := range strings.Split(raw, "\r\n") { // physical lines too
		count["physical "+l]++
	}
	if count["BEGIN:VEVENT"] != 1 || count["END:VEVENT"] != 1 || count["physical BEGIN:VEVENT"] != 1 || count["physical END:VEVENT"] != 1 {
		t.Fatalf("want exactly one BEGIN:VEVENT and one END:VEVENT line:\n%s", raw)
	}
	for _, l := range strings.FieldsFunc(raw, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if l == "BEGIN:VEVENT" {
			count["any"]++
		}
	}
	if count["any"] != 1 {
		t.Fatalf("a reader splitting on any line break finds %d BEGIN:VEVENT lines", count["any"])
	}
	var got = map[string]string{}
	for _, l := range lines {
		if strings.HasPrefix(l, "END:VEVENT") || strings.HasPrefix(l, "BEGIN:VEVENT") {
			if l != "END:VEVENT" && l != "BEGIN:VEVENT" {
				t.Errorf("odd line %q", l)
			}
		}
		if k, v, ok := strings.Cut(l, ":"); ok && (k == "SUMMARY" || k == "DESCRIPTION") {
			if _, dup := got[k]; dup {
				t.Errorf("two %s lines", k)
			}
			got[k] = v
		}
	}
	wantSummary := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x00", "", "\x07", "", "\x1b", "", "\u0085", "").Replace(summary)
	if s := unescapeText(got["SUMMARY"]); s != wantSummary {
		t.Errorf("SUMMARY unfolds to\n%q\nwant\n%q", s, wantSummary)
	}
	if d := unescapeText(got["DESCRIPTION"]); d != desc {
		t.Errorf("DESCRIPTION unfolds to %q", d)
	}
}
