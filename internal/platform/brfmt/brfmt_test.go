package brfmt

import (
	"testing"
	"time"
)

func TestDates_WriteStoredDatesInBrazilianOrder(t *testing.T) {
	for _, tc := range []struct{ in, date, long string }{
		{"2026-11-30", "30/11/2026", "segunda-feira, 30 de novembro de 2026"},
		{"2027-03-07", "07/03/2027", "domingo, 7 de março de 2027"},
		{"", "", ""},
		{"30/11/2026", "30/11/2026", "30/11/2026"},
	} {
		if got := Date(tc.in); got != tc.date {
			t.Errorf("Date(%q) = %q, want %q", tc.in, got, tc.date)
		}
		if got := LongDate(tc.in); got != tc.long {
			t.Errorf("LongDate(%q) = %q, want %q", tc.in, got, tc.long)
		}
	}
	at := time.Date(2026, 11, 30, 14, 5, 0, 0, time.UTC)
	if got := DayTime(at); got != "30/11/2026 às 14:05" {
		t.Errorf("DayTime = %q", got)
	}
}

func TestMoney_WritesCentavosAsReais(t *testing.T) {
	for _, tc := range []struct {
		cents       int64
		text, sheet string
	}{
		{0, "R$ 0,00", "R$ 0,00"},
		{2190, "R$ 21,90", "R$ 21,90"},
		{123450, "R$ 1.234,50", "R$ 1234,50"},
		{123456789, "R$ 1.234.567,89", "R$ 1234567,89"},
	} {
		if got := Money(tc.cents); got != tc.text {
			t.Errorf("Money(%d) = %q, want %q", tc.cents, got, tc.text)
		}
		if got := SheetMoney(tc.cents); got != tc.sheet {
			t.Errorf("SheetMoney(%d) = %q, want %q", tc.cents, got, tc.sheet)
		}
	}
}

func TestWhatsApp_AddsBrazilsCountryCodeOnce(t *testing.T) {
	for in, want := range map[string]string{
		"(11) 98888-7777":   "https://wa.me/5511988887777",
		"(55) 99999-1234":   "https://wa.me/5555999991234",
		"+55 11 98888-7777": "https://wa.me/5511988887777",
		"11 3333-4444":      "https://wa.me/551133334444",
		"":                  "",
		"sem número":        "",
	} {
		if got := WhatsApp(in); got != want {
			t.Errorf("WhatsApp(%q) = %q, want %q", in, got, want)
		}
	}
}
