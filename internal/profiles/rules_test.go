package profiles

import (
	"testing"
	"time"
)

func TestSocialFormatting(t *testing.T) {
	cases := []struct {
		fn       func(string) string
		in, want string
	}{
		{FormatInstagram, "", ""},
		{FormatInstagram, "ana.psi", "https://instagram.com/ana.psi"},
		{FormatInstagram, "@ana.psi", "https://instagram.com/ana.psi"},
		{FormatInstagram, "https://instagram.com/x", "https://instagram.com/x"},
		{FormatLinkedIn, "ana-souza", "https://linkedin.com/in/ana-souza"},
		{FormatLinkedIn, "http://linkedin.com/in/a", "http://linkedin.com/in/a"},
		{FormatLinkedIn, "", ""},
		{FormatWhatsApp, "(11) 98888-7777", "+5511988887777"},
		{FormatWhatsApp, "55 11 98888-7777", "+5511988887777"},
		{FormatWhatsApp, "+55 (21) 3333-4444", "+552133334444"},
		{FormatWhatsApp, "  ", ""},
	}
	for _, c := range cases {
		if got := c.fn(c.in); got != c.want {
			t.Errorf("%q → %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUsernameProblem(t *testing.T) {
	for u, bad := range map[string]bool{
		"ana": false, "ana.souza_psi-2": false, "ab": true, "api": true, "agende": true, "login": true,
		"ana souza": true, "joão": true, "ANA": true, "a234567890123456789012345678901": true,
	} {
		if got := UsernameProblem(u) != ""; got != bad {
			t.Errorf("UsernameProblem(%q) bad=%v, want %v", u, got, bad)
		}
	}
	if NormalizeUsername("  Ana.Souza ") != "ana.souza" {
		t.Fatal("normalise")
	}
}

func TestTrial_CountsDaysAsTheBannerShowsThem(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { e := now.Add(d); return &e }
	cases := []struct {
		name    string
		end     *time.Time
		inTrial bool
		expired bool
		days    int
	}{
		{"not started: temporary access", nil, true, false, 7},
		{"just started", at(TrialLength), true, false, 7},
		{"six days and a minute", at(6*24*time.Hour + time.Minute), true, false, 7},
		{"exactly three days", at(72 * time.Hour), true, false, 3},
		{"last day", at(5 * time.Hour), true, false, 1},
		{"at the end instant", at(0), false, true, 0},
		{"after the end", at(-time.Hour), false, true, 0},
	}
	for _, c := range cases {
		got := Trial(c.end, now)
		if got.InTrial != c.inTrial || got.Expired != c.expired || got.DaysRemaining != c.days {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
}

func TestBookingOpen_DuringTrialOrAPaidPeriod(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	before, after := now.Add(-time.Second), now.Add(time.Second)
	for _, c := range []struct {
		name             string
		trialEnd, paid   *time.Time
		wantOpen, isPaid bool
	}{
		{"trial not started", nil, nil, true, false},
		{"in trial", &after, nil, true, false},
		{"trial over, never paid", &before, nil, false, false},
		{"trial over, paid period running", &before, &after, true, true},
		{"trial over, paid period ended at this instant", &before, &now, false, false},
	} {
		if got := BookingOpen(c.trialEnd, c.paid, now); got != c.wantOpen {
			t.Errorf("%s: BookingOpen = %v", c.name, got)
		}
		if got := Paid(c.paid, now); got != c.isPaid {
			t.Errorf("%s: Paid = %v", c.name, got)
		}
	}
}
