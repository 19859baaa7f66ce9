package brfmt

import (
	"encoding/json"
	"fmt"
	"os"
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
		{123450, "R$ 1.234,50", "R$ 1.234,50"},
		{123456789, "R$ 1.234.567,89", "R$ 1.234.567,89"},
	} {
		if got := Money(tc.cents); got != tc.text {
			t.Errorf("Money(%d) = %q, want %q", tc.cents, got, tc.text)
		}
		if got := SheetMoney(tc.cents); got != tc.sheet {
			t.Errorf("SheetMoney(%d) = %q, want %q", tc.cents, got, tc.sheet)
		}
	}
}

// The phone rule's cases are shared with the web app's tests, so the server
// and the screens read every number alike.
func TestPhone_FollowsTheSharedCases(t *testing.T) {
	for _, c := range PhoneCases(t) {
		national, ok := Phone(c.In)
		if got := ptr(national, ok); !same(got, c.National) {
			t.Errorf("Phone(%q) = %s, want %s (%s)", c.In, show(got), show(c.National), c.Why)
		}
		if got := WhatsAppNumber(c.In); !same(ptr(got, got != ""), c.WhatsApp) {
			t.Errorf("WhatsAppNumber(%q) = %q, want %s (%s)", c.In, got, show(c.WhatsApp), c.Why)
		}
		want := ""
		if c.WhatsApp != nil {
			want = "https://wa.me/" + *c.WhatsApp
		}
		if got := WhatsApp(c.In); got != want {
			t.Errorf("WhatsApp(%q) = %q, want %q (%s)", c.In, got, want, c.Why)
		}
	}
}

func ptr(s string, ok bool) *string {
	if !ok {
		return nil
	}
	return &s
}

func same(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func show(s *string) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *s)
}

// PhoneCase is one case of web/src/lib/phone-cases.json: a typed phone,
// what it is stored as and the number WhatsApp opens (nil: not a phone).
type PhoneCase struct {
	In       string  `json:"in"`
	National *string `json:"national"`
	WhatsApp *string `json:"whatsapp"`
	Why      string  `json:"why"`
}

// PhoneCases reads the shared cases; the web app's tests read the same file.
func PhoneCases(t *testing.T) []PhoneCase {
	t.Helper()
	data, err := os.ReadFile("../../../web/src/lib/phone-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []PhoneCase }
	if err := json.Unmarshal(data, &f); err != nil || len(f.Cases) == 0 {
		t.Fatalf("phone-cases.json: %v", err)
	}
	return f.Cases
}

func TestStatus_SaysStatusesInPortuguese(t *testing.T) {
	for in, want := range map[string]string{"confirmed": "confirmado", "cancelled": "cancelado", "completed": "concluído", "no_show": "não compareceu", "outro": "outro"} {
		if got := Status(in); got != want {
			t.Errorf("Status(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPhoneText(t *testing.T) {
	for in, want := range map[string]string{
		"11974442812":      "(11) 97444-2812",
		"+55 11 3333-4444": "(11) 3333-4444",
		"(21) 99876-5432":  "(21) 99876-5432",
		" ramal 12 ":       "ramal 12",
		"5555999991234":    "(55) 99999-1234",
	} {
		if got := PhoneText(in); got != want {
			t.Errorf("PhoneText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOneLine_LeavesNoTabNewLineOrRunOfSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"Clareamento\tdental":    "Clareamento dental",
		"Limpeza     profunda":   "Limpeza profunda",
		" Clínica\r\nSorriso \n": "Clínica Sorriso",
		"Dra. Ana":               "Dra. Ana",
		"a\u00a0b\u2003c":        "a b c",
		"":                       "",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
