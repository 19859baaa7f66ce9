package reports

import (
	"strings"
	"testing"
	"time"
)

func TestResolve_NamedPeriodsAndCustomDates(t *testing.T) {
	now := time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct{ key, from, to, want string }{
		{"", "", "", "month 2026-01-01 2026-01-31"},
		{"month", "", "", "month 2026-01-01 2026-01-31"},
		{"last_month", "", "", "last_month 2025-12-01 2025-12-31"},
		{"3months", "", "", "3months 2025-11-01 2026-01-31"},
		{"year", "", "", "year 2026-01-01 2026-12-31"},
		{"custom", "2025-12-24", "2026-01-02", "custom 2025-12-24 2026-01-02"},
		{"custom", "2026-01-02", "2026-01-02", "custom 2026-01-02 2026-01-02"},
		{"custom", "2026-01-03", "2026-01-02", "error"},
		{"custom", "", "2026-01-02", "error"},
		{"custom", "2016-01-01", "2026-12-31", "error"},
		{"semana", "", "", "error"},
	} {
		p, err := Resolve(c.key, c.from, c.to, now)
		got := "error"
		if err == nil {
			got = p.Key + " " + p.From + " " + p.To
		}
		if got != c.want {
			t.Errorf("%q %q %q: %s, want %s", c.key, c.from, c.to, got, c.want)
		}
	}
}

func TestMonths_ThePeriodsOwnAtMostTwentyFour(t *testing.T) {
	for _, c := range []struct {
		from, to string
		n        int
		first    string
		last     string
	}{
		{"2026-10-01", "2026-10-31", 1, "2026-10", "2026-10"}, // "Este mês": its month only (issue 39)
		{"2026-09-15", "2026-11-10", 3, "2026-09", "2026-11"},
		{"2026-01-01", "2026-12-31", 12, "2026-01", "2026-12"},
		{"2020-03-05", "2026-02-10", 24, "2024-03", "2026-02"},
	} {
		m := Period{From: c.from, To: c.to}.Months()
		if len(m) != c.n || m[0] != c.first || m[len(m)-1] != c.last {
			t.Errorf("%s..%s: %s", c.from, c.to, strings.Join(m, " "))
		}
	}
}
