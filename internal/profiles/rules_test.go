package profiles

import (
	"encoding/json"
	"os"
	"strings"
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
	}
	for _, c := range cases {
		if got := c.fn(c.in); got != c.want {
			t.Errorf("%q → %q, want %q", c.in, got, c.want)
		}
	}
}

// The owner's WhatsApp is stored by the one phone rule, whose cases the
// server and the web app share (web/src/lib/phone-cases.json): +55 and the
// phone, the area code kept even when it is 55; not a phone, refused.
func TestFormatWhatsApp_FollowsTheSharedPhoneCases(t *testing.T) {
	data, err := os.ReadFile("../../web/src/lib/phone-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			In       string
			WhatsApp *string
			Why      string
		}
	}
	if err := json.Unmarshal(data, &f); err != nil || len(f.Cases) == 0 {
		t.Fatalf("phone-cases.json: %v", err)
	}
	for _, c := range f.Cases {
		want := ""
		if c.WhatsApp != nil {
			want = "+" + *c.WhatsApp
		}
		if got := FormatWhatsApp(c.In); got != want {
			t.Errorf("FormatWhatsApp(%q) = %q, want %q (%s)", c.In, got, want, c.Why)
		}
		in := Input{Name: "Ana", Email: "ana@example.com", Area: "Psicologia", WhatsApp: c.In}
		err := Validate(&in)
		switch {
		case strings.TrimSpace(c.In) == "" && (err != nil || in.WhatsApp != ""):
			t.Errorf("blank WhatsApp %q: %v, stored %q", c.In, err, in.WhatsApp)
		case strings.TrimSpace(c.In) != "" && want == "" && err != errWhatsApp:
			t.Errorf("Validate(WhatsApp %q) = %v, want refused (%s)", c.In, err, c.Why)
		case want != "" && (err != nil || in.WhatsApp != want):
			t.Errorf("Validate(WhatsApp %q) = %v, stored %q, want %q", c.In, err, in.WhatsApp, want)
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
