package slots

import (
	"reflect"
	"testing"
	"time"
)

func hm(t *testing.T, ss ...string) []int {
	var out []int
	for _, s := range ss {
		m, err := ParseHHMM(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func TestFree(t *testing.T) {
	at := func(s string) int { m, _ := ParseHHMM(s); return m }
	cases := []struct {
		name string
		day  Day
		want []string
	}{
		{"45-minute service, 09–12 window, 10–11 booked (the issue's example)",
			Day{Open: at("09:00"), Close: at("12:00"), Duration: 45, Busy: []Busy{{Start: at("10:00"), Duration: 60}}},
			[]string{"09:00", "11:00"}},
		{"empty day of 30-minute service: every half hour until before closing",
			Day{Open: at("09:00"), Close: at("11:00"), Duration: 30},
			[]string{"09:00", "09:30", "10:00", "10:30"}},
		{"a service longer than what is left never ends after closing",
			Day{Open: at("09:00"), Close: at("11:00"), Duration: 90},
			[]string{"09:00", "09:30"}},
		{"an appointment of unknown duration blocks 30 minutes",
			Day{Open: at("09:00"), Close: at("11:00"), Duration: 30, Busy: []Busy{{Start: at("09:30")}}},
			[]string{"09:00", "10:00", "10:30"}},
		{"partial overlaps exclude: a 15-minute booking at 09:45",
			Day{Open: at("09:00"), Close: at("11:00"), Duration: 30, Busy: []Busy{{Start: at("09:45"), Duration: 15}}},
			[]string{"09:00", "10:00", "10:30"}},
		{"a booking ending exactly at a start does not block it",
			Day{Open: at("09:00"), Close: at("10:30"), Duration: 30, Busy: []Busy{{Start: at("08:30"), Duration: 30}, {Start: at("10:00"), Duration: 30}}},
			[]string{"09:00", "09:30"}},
		{"past times of today are not offered",
			Day{Open: at("09:00"), Close: at("12:00"), Duration: 30, NotBefore: at("10:01")},
			[]string{"10:30", "11:00", "11:30"}},
		{"an odd opening time steps from the opening",
			Day{Open: at("08:15"), Close: at("09:30"), Duration: 30},
			[]string{"08:15", "08:45"}},
		{"closed day", Day{Open: at("09:00"), Close: at("09:00"), Duration: 30}, nil},
		{"the whole window booked", Day{Open: at("09:00"), Close: at("10:00"), Duration: 30, Busy: []Busy{{Start: at("09:00"), Duration: 60}}}, nil},
	}
	for _, c := range cases {
		got := Free(c.day)
		var want []int
		if c.want != nil {
			want = hm(t, c.want...)
		}
		if !reflect.DeepEqual(got, want) {
			var gs []string
			for _, g := range got {
				gs = append(gs, FormatHHMM(g))
			}
			t.Errorf("%s: got %v, want %v", c.name, gs, c.want)
		}
	}
}

func TestParseHHMM(t *testing.T) {
	for s, ok := range map[string]bool{"00:00": true, "23:59": true, "9:00": false, "24:00": false, "12:60": false, "ab:cd": false, "": false} {
		if _, err := ParseHHMM(s); (err == nil) != ok {
			t.Errorf("%q: err=%v", s, err)
		}
	}
	if FormatHHMM(570) != "09:30" {
		t.Fatal("format")
	}
}

func TestToday_IsTheOwnersDateAndNextWholeMinute(t *testing.T) {
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	manaus, _ := time.LoadLocation("America/Manaus")
	now := time.Date(2026, 11, 23, 2, 30, 10, 0, time.UTC) // 23:30:10 on the 22nd in São Paulo
	if d, m := Today(now, sp); d != "2026-11-22" || m != 23*60+31 {
		t.Fatalf("São Paulo: %s %d", d, m)
	}
	if d, m := Today(now, manaus); d != "2026-11-22" || m != 22*60+31 {
		t.Fatalf("Manaus: %s %d", d, m)
	}
	if _, m := Today(time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC), sp); m != 10*60 {
		t.Fatalf("exact minute: %d", m)
	}
}

// FuzzFree checks the engine's promises on any input: offered starts are on
// the step grid, inside the window, not in the past, and never overlap.
func FuzzFree(f *testing.F) {
	f.Add(540, 720, 45, 600, 60, 0)
	f.Add(0, 1439, 1, 30, 0, 700)
	f.Fuzz(func(t *testing.T, open, close, duration, busyStart, busyDur, notBefore int) {
		if open < 0 || close > 24*60 || duration < 1 || duration > 24*60 || busyDur < 0 || busyDur > 24*60 {
			return
		}
		d := Day{Open: open, Close: close, Duration: duration, Busy: []Busy{{Start: busyStart, Duration: busyDur}}, NotBefore: notBefore}
		for _, s := range Free(d) {
			if (s-open)%Step != 0 || s < open || s+duration > close || s < notBefore || overlaps(s, s+duration, d.Busy) {
				t.Fatalf("bad slot %d for %+v", s, d)
			}
		}
		for s := open - Step; s <= close; s++ {
			if Why(d, s) == Offered && ((s-open)%Step != 0 || s < open || s+duration > close || s < notBefore || Overlaps(s, duration, d.Busy)) {
				t.Fatalf("Why offers %d for %+v", s, d)
			}
		}
	})
}

func TestParseHHMM_AcceptsOnlyHHMM(t *testing.T) {
	for in, want := range map[string]int{"00:00": 0, "09:30": 570, "23:59": 1439, "12:05": 725} {
		if got, err := ParseHHMM(in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "+9:00", "-1:00", " 9:00", "9:00", "09:0", "09:000", "0930", "09-30", "24:00", "23:60",
		"99:99", "09:+5", "09:-5", "０9:00", "09:3０", "09:30 ", "9h", "1e:00", "0x:10"} {
		if got, err := ParseHHMM(in); err == nil {
			t.Errorf("%q accepted as %d", in, got)
		}
	}
}

func TestParseDate_KeepsYearsThatReadBack(t *testing.T) {
	for _, in := range []string{"2000-01-01", "2026-11-23", "2028-02-29", "2100-12-31"} {
		if d, err := ParseDate(in); err != nil || d.Format("2006-01-02") != in {
			t.Errorf("%q: %v %v", in, d, err)
		}
	}
	for _, in := range []string{"", "1999-12-31", "2101-01-01", "9999-12-31", "0000-01-01", "2026-02-30", "2027-02-29", "2026-13-01",
		"2026-1-01", "2026-01-1", "+2026-01-01", "20260101", "2026-01-01T00:00:00Z", " 2026-01-01", "2026-01-01 "} {
		if d, err := ParseDate(in); err == nil {
			t.Errorf("%q accepted as %v", in, d)
		}
	}
	for _, in := range []string{"2000-01", "2026-11", "2100-12"} {
		if d, err := ParseMonth(in); err != nil || d.Format("2006-01") != in || d.Day() != 1 {
			t.Errorf("month %q: %v %v", in, d, err)
		}
	}
	for _, in := range []string{"", "1999-12", "2101-01", "9999-12", "2026-13", "2026-1", "2026-11-01"} {
		if d, err := ParseMonth(in); err == nil {
			t.Errorf("month %q accepted as %v", in, d)
		}
	}
}

func TestWhy_SaysWhyATimeIsNotOffered(t *testing.T) {
	at := func(s string) int { m, _ := ParseHHMM(s); return m }
	day := Day{Open: at("09:00"), Close: at("12:00"), Duration: 60, Busy: []Busy{{Start: at("10:00"), Duration: 45}}}
	today := day
	today.NotBefore = at("09:31")
	for _, c := range []struct {
		name  string
		day   Day
		start string
		want  Reason
	}{
		{"a free start on the grid", day, "09:00", Offered},
		{"after the busy interval ends", day, "11:00", Offered},
		{"a time of today that has begun comes first", today, "09:30", Past},
		{"past, even on a closed day", Day{Open: 600, Close: 600, NotBefore: 700}, "09:00", Past},
		{"a closed weekday", Day{Open: 600, Close: 600, Duration: 30}, "10:00", Closed},
		{"before opening", day, "08:30", OffHours},
		{"at closing", day, "12:00", OffHours},
		{"off the 30-minute grid", day, "09:15", OffHours},
		{"an appointment starts at that very time", day, "10:00", Taken},
		{"inside an appointment", day, "10:30", Taken},
		{"runs into the next appointment", day, "09:30", TooShort},
		{"ends after closing", day, "11:30", TooShort},
		{"no duration", Day{Open: 540, Close: 720}, "09:00", TooShort},
	} {
		if got := Why(c.day, at(c.start)); got != c.want {
			t.Errorf("%s: Why(%s) = %d, want %d", c.name, c.start, got, c.want)
		}
	}
}

func TestOverlaps(t *testing.T) {
	busy := []Busy{{Start: 600, Duration: 60}, {Start: 720}}
	for _, c := range []struct {
		start, dur int
		want       bool
	}{
		{540, 60, false}, {540, 61, true}, {630, 10, true}, {660, 60, false}, {700, 30, true}, {750, 30, false}, {749, 0, true},
	} {
		if got := Overlaps(c.start, c.dur, busy); got != c.want {
			t.Errorf("Overlaps(%d, %d) = %v", c.start, c.dur, got)
		}
	}
}

// FuzzParseDate: whatever is accepted is a real date inside the years that
// both databases read back, and formats back to the very input.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-11-23", "9999-12-31", "2100-12-31", "2101-01-01", "1999-12-31", "2026-02-29", "+002-01-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDate(s)
		if err != nil {
			return
		}
		if d.Year() < MinYear || d.Year() > MaxYear || d.Format("2006-01-02") != s {
			t.Fatalf("%q accepted as %v", s, d)
		}
		// The latest instant of that date anywhere on Earth stays inside year MaxYear+1.
		if late := d.Add(24*time.Hour + 14*time.Hour); late.Year() > MaxYear+1 {
			t.Fatalf("%q reaches %v", s, late)
		}
	})
}

// FuzzParseHHMM: whatever is accepted is HH:MM and formats back to itself.
func FuzzParseHHMM(f *testing.F) {
	for _, s := range []string{"09:30", "+9:00", "23:59", "24:00", "-0:30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseHHMM(s)
		if err != nil {
			return
		}
		if m < 0 || m >= 24*60 || FormatHHMM(m) != s {
			t.Fatalf("%q accepted as %d", s, m)
		}
	})
}
