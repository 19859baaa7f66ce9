package schedule

import (
	"testing"
	"time"
)

// Easter Sundays as published (e.g. the US Naval Observatory's table and the
// CNBB's liturgical calendars).
func TestEaster_MatchesPublishedDates(t *testing.T) {
	for year, want := range map[int]string{
		2000: "2000-04-23", 2008: "2008-03-23", 2011: "2011-04-24", 2019: "2019-04-21", 2024: "2024-03-31",
		2025: "2025-04-20", 2026: "2026-04-05", 2027: "2027-03-28", 2028: "2028-04-16", 2029: "2029-04-01",
		2030: "2030-04-21", 2038: "2038-04-25", 2049: "2049-04-18", 2100: "2100-03-28",
	} {
		if got := Easter(year).Format("2006-01-02"); got != want {
			t.Errorf("Easter(%d) = %s, want %s", year, got, want)
		}
	}
}

// The moveable holidays against Brazil's published calendars (the federal
// government's annual "pontos facultativos e feriados" ordinances).
func TestNational_MoveableDatesMatchPublishedCalendars(t *testing.T) {
	want := map[int]map[string]string{
		2024: {"carnaval-segunda": "2024-02-12", "carnaval-terca": "2024-02-13", "sexta-santa": "2024-03-29", "corpus-christi": "2024-05-30"},
		2025: {"carnaval-segunda": "2025-03-03", "carnaval-terca": "2025-03-04", "sexta-santa": "2025-04-18", "corpus-christi": "2025-06-19"},
		2026: {"carnaval-segunda": "2026-02-16", "carnaval-terca": "2026-02-17", "sexta-santa": "2026-04-03", "corpus-christi": "2026-06-04"},
		2027: {"carnaval-segunda": "2027-02-08", "carnaval-terca": "2027-02-09", "sexta-santa": "2027-03-26", "corpus-christi": "2027-05-27"},
		2028: {"carnaval-segunda": "2028-02-28", "carnaval-terca": "2028-02-29", "sexta-santa": "2028-04-14", "corpus-christi": "2028-06-15"},
	}
	for year, keys := range want {
		got := map[string]string{}
		for _, h := range National(year) {
			got[h.Key] = h.Date.Format("2006-01-02")
		}
		for key, date := range keys {
			if got[key] != date {
				t.Errorf("%d %s = %s, want %s", year, key, got[key], date)
			}
		}
	}
}

func TestNational_FixedDatesAndTheNewTwentiethOfNovember(t *testing.T) {
	has := func(year int, key, date string) bool {
		for _, h := range National(year) {
			if h.Key == key {
				return h.Date.Format("2006-01-02") == date
			}
		}
		return false
	}
	for _, c := range []struct {
		year      int
		key, date string
	}{
		{2026, "confraternizacao", "2026-01-01"}, {2026, "tiradentes", "2026-04-21"}, {2026, "trabalho", "2026-05-01"},
		{2026, "independencia", "2026-09-07"}, {2026, "aparecida", "2026-10-12"}, {2026, "finados", "2026-11-02"},
		{2026, "republica", "2026-11-15"}, {2026, "consciencia-negra", "2026-11-20"}, {2026, "natal", "2026-12-25"},
	} {
		if !has(c.year, c.key, c.date) {
			t.Errorf("%d has no %s on %s", c.year, c.key, c.date)
		}
	}
	if has(2023, "consciencia-negra", "2023-11-20") {
		t.Error("20 de novembro became a national holiday in 2024")
	}
	hs := National(2026)
	if len(hs) != 13 {
		t.Fatalf("2026 has %d national holidays, want 13", len(hs))
	}
	for i := 1; i < len(hs); i++ {
		if hs[i].Date.Before(hs[i-1].Date) {
			t.Fatal("not in date order")
		}
	}
	if !IsNationalKey("corpus-christi") || IsNationalKey("custom-x") {
		t.Fatal("IsNationalKey")
	}
	_ = time.UTC
}
