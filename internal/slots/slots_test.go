package slots

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// at reads "HH:MM" as an instant on day zero (the engine works on instants;
// the tests of the rules need no zone).
func at(s string) int64 {
	m, err := ParseHHMM(s)
	if err != nil {
		panic(err)
	}
	return int64(m)
}

func win(pairs ...string) []Span {
	var out []Span
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Span{at(pairs[i]), at(pairs[i+1])})
	}
	return out
}

func clocks(ts []int64) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, FormatHHMM(int(t)))
	}
	return out
}

func TestFree(t *testing.T) {
	cases := []struct {
		name string
		day  Day
		want []string
	}{
		{"45-minute service, 09–12 window, 10–11 booked (the issue's example)",
			Day{Windows: win("09:00", "12:00"), Duration: 45, Busy: []Busy{{Start: at("10:00"), Duration: 60}}},
			[]string{"09:00", "11:00"}},
		{"empty day of 30-minute service: every half hour until before closing",
			Day{Windows: win("09:00", "11:00"), Duration: 30},
			[]string{"09:00", "09:30", "10:00", "10:30"}},
		{"a service longer than what is left never ends after closing",
			Day{Windows: win("09:00", "11:00"), Duration: 90},
			[]string{"09:00", "09:30"}},
		{"an appointment of unknown duration blocks 30 minutes",
			Day{Windows: win("09:00", "11:00"), Duration: 30, Busy: []Busy{{Start: at("09:30")}}},
			[]string{"09:00", "10:00", "10:30"}},
		{"partial overlaps exclude: a 15-minute booking at 09:45",
			Day{Windows: win("09:00", "11:00"), Duration: 30, Busy: []Busy{{Start: at("09:45"), Duration: 15}}},
			[]string{"09:00", "10:00", "10:30"}},
		{"a booking ending exactly at a start does not block it",
			Day{Windows: win("09:00", "10:30"), Duration: 30, Busy: []Busy{{Start: at("08:30"), Duration: 30}, {Start: at("10:00"), Duration: 30}}},
			[]string{"09:00", "09:30"}},
		{"past times of today are not offered",
			Day{Windows: win("09:00", "12:00"), Duration: 30, Now: at("10:01")},
			[]string{"10:30", "11:00", "11:30"}},
		{"an odd opening time steps from the opening",
			Day{Windows: win("08:15", "09:30"), Duration: 30},
			[]string{"08:15", "08:45"}},
		{"closed day", Day{Duration: 30}, []string{}},
		{"the whole window booked", Day{Windows: win("09:00", "10:00"), Duration: 30, Busy: []Busy{{Start: at("09:00"), Duration: 60}}}, []string{}},

		// Several windows: the gap is a break.
		{"a lunch break: nothing starts in it, and nothing runs into it",
			Day{Windows: win("08:00", "12:00", "13:30", "15:00"), Duration: 60},
			[]string{"08:00", "08:30", "09:00", "09:30", "10:00", "10:30", "11:00", "13:30", "14:00"}},
		{"each window steps from its own start",
			Day{Windows: win("08:00", "09:00", "09:45", "11:00"), Duration: 30},
			[]string{"08:00", "08:30", "09:45", "10:15"}},
		// Steps.
		{"a 15-minute step", Day{Windows: win("09:00", "10:00"), Duration: 30, Step: 15}, []string{"09:00", "09:15", "09:30"}},
		{"a 60-minute step", Day{Windows: win("09:00", "12:00"), Duration: 30, Step: 60}, []string{"09:00", "10:00", "11:00"}},
		{"the service's duration as the step", Day{Windows: win("09:00", "12:00"), Duration: 50, Step: 50}, []string{"09:00", "09:50", "10:40"}},
		// Buffers.
		{"the service's buffer after keeps the next appointment at a distance",
			Day{Windows: win("09:00", "12:00"), Duration: 30, After: 15, Busy: []Busy{{Start: at("10:00"), Duration: 30}}},
			[]string{"09:00", "10:30", "11:00", "11:30"}},
		{"the service's buffer before keeps the previous appointment at a distance",
			Day{Windows: win("09:00", "12:00"), Duration: 30, Before: 15, Busy: []Busy{{Start: at("10:00"), Duration: 30}}},
			[]string{"09:00", "09:30", "11:00", "11:30"}},
		{"a booked appointment's own buffers count too",
			Day{Windows: win("09:00", "12:00"), Duration: 30, Busy: []Busy{{Start: at("10:00"), Duration: 30, Before: 30, After: 30}}},
			[]string{"09:00", "11:00", "11:30"}},
		{"the larger of two facing buffers is the distance, not their sum",
			Day{Windows: win("09:00", "12:00"), Duration: 30, Before: 10, Busy: []Busy{{Start: at("09:00"), Duration: 30, After: 20}}},
			[]string{"10:00", "10:30", "11:00", "11:30"}},
		{"buffers need not fit inside the window: only the appointment does",
			Day{Windows: win("09:00", "10:00"), Duration: 60, Before: 30, After: 30},
			[]string{"09:00"}},
		// Notice.
		{"two hours of notice from 08:10",
			Day{Windows: win("09:00", "12:00"), Duration: 30, Now: at("08:10"), Notice: 120},
			[]string{"10:30", "11:00", "11:30"}},
		// Combinations.
		{"break, buffers, step and notice together",
			Day{Windows: win("08:00", "12:00", "13:00", "17:00"), Duration: 45, After: 15, Step: 15, Now: at("07:00"), Notice: 90,
				Busy: []Busy{{Start: at("10:00"), Duration: 60}, {Start: at("14:00"), Duration: 30, Before: 30}}},
			[]string{"08:30", "08:45", "09:00", "11:00", "11:15", "14:30", "14:45", "15:00", "15:15", "15:30", "15:45", "16:00", "16:15"}},
	}
	for _, c := range cases {
		if got := clocks(Free(c.day)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
		if Any(c.day) != (len(c.want) > 0) {
			t.Errorf("%s: Any disagrees with Free", c.name)
		}
	}
}

// A day whose clocks change has its real length: the engine works on
// instants, so a window across the change offers what fits in real time.
func TestFree_AcrossClockChanges(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	day := func(loc *time.Location, date string, open, close string, duration int) Day {
		d, _ := ParseDate(date)
		o, _ := ParseHHMM(open)
		c, _ := ParseHHMM(close)
		return Day{Windows: []Span{{At(d, o, loc), At(d, c, loc)}}, Duration: duration, Step: 60}
	}
	read := func(loc *time.Location, ts []int64) []string {
		out := []string{}
		for _, t := range ts {
			out = append(out, Clock(t, loc))
		}
		return out
	}
	// New York springs forward at 02:00 on 2026-03-08: 01:00–05:00 is three real hours.
	if got := read(ny, Free(day(ny, "2026-03-08", "01:00", "05:00", 60))); !reflect.DeepEqual(got, []string{"01:00", "03:00", "04:00"}) {
		t.Errorf("spring forward: %v", got)
	}
	// …and falls back at 02:00 on 2026-11-01: 01:00–03:00 is three real hours, 01:00 twice.
	if got := read(ny, Free(day(ny, "2026-11-01", "00:00", "03:00", 60))); !reflect.DeepEqual(got, []string{"00:00", "01:00", "01:00", "02:00"}) {
		t.Errorf("fall back: %v", got)
	}
	// São Paulo skipped 00:00–01:00 on 2018-11-04, when Brazil still changed clocks.
	if got := read(sp, Free(day(sp, "2018-11-04", "00:00", "03:00", 60))); !reflect.DeepEqual(got, []string{"01:00", "02:00"}) {
		t.Errorf("São Paulo 2018: %v", got)
	}
	// A skipped minute reads back as another time: how a booking of it is refused.
	d, _ := ParseDate("2026-03-08")
	if got := Clock(At(d, 2*60+30, ny), ny); got == "02:30" {
		t.Error("02:30 does not exist in New York on 2026-03-08")
	}
	// And an ordinary day in a zone without daylight saving.
	if got := read(sp, Free(day(sp, "2026-11-24", "09:00", "12:00", 60))); !reflect.DeepEqual(got, []string{"09:00", "10:00", "11:00"}) {
		t.Errorf("São Paulo today: %v", got)
	}
}

func TestNowMinute_IsTheNextWholeMinute(t *testing.T) {
	now := time.Date(2026, 11, 23, 2, 30, 10, 0, time.UTC)
	if got := NowMinute(now); got != now.Unix()/60+1 {
		t.Fatalf("begun minute: %d", got)
	}
	exact := time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC)
	if got := NowMinute(exact); got != exact.Unix()/60 {
		t.Fatalf("exact minute: %d", got)
	}
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	if Today(now, sp) != "2026-11-22" {
		t.Fatal("23:30 on the 22nd in São Paulo")
	}
}

// FuzzFree checks the engine's promises on any input: every offered start
// is on its window's step grid, the whole service fits inside that window,
// nothing starts before Now plus Notice, no offered appointment comes
// closer to a busy one than their buffers allow, and Why agrees with Free
// at every minute.
func FuzzFree(f *testing.F) {
	f.Add(480, 720, 780, 1080, 45, 10, 5, 30, 600, 60, 15, 15, 0, 0)
	f.Add(0, 1439, 0, 0, 1, 0, 0, 15, 30, 0, 0, 0, 700, 0)
	f.Add(540, 600, 600, 660, 30, 0, 0, 0, 560, 30, 0, 0, 500, 90)
	f.Fuzz(func(t *testing.T, o1, c1, o2, c2, duration, before, after, step, busyStart, busyDur, busyBefore, busyAfter, now, notice int) {
		for _, v := range []int{o1, c1, o2, c2, busyStart, now} {
			if v < 0 || v > 2*24*60 {
				return
			}
		}
		for _, v := range []int{duration, before, after, step, busyDur, busyBefore, busyAfter, notice} {
			if v < 0 || v > 24*60 {
				return
			}
		}
		if duration < 1 || c1 <= o1 || c2 <= o2 || o2 < c1 {
			return
		}
		d := Day{Windows: []Span{{int64(o1), int64(c1)}, {int64(o2), int64(c2)}}, Duration: duration, Before: before, After: after, Step: step,
			Now: int64(now), Notice: notice, Busy: []Busy{{Start: int64(busyStart), Duration: busyDur, Before: busyBefore, After: busyAfter}}}
		stepOf := int64(step)
		if stepOf == 0 {
			stepOf = DefaultStep
		}
		offered := map[int64]bool{}
		for _, s := range Free(d) {
			offered[s] = true
			w, ok := within(d.Windows, s)
			if !ok || (s-w.Start)%stepOf != 0 || s+int64(duration) > w.End || s < int64(now+notice) {
				t.Fatalf("bad slot %d for %+v", s, d)
			}
			b := d.Busy[0]
			gapBefore, gapAfter := int64(max(before, b.After)), int64(max(after, b.Before))
			if s < b.end()+gapBefore && b.Start < s+int64(duration)+gapAfter {
				t.Fatalf("slot %d too close to %+v in %+v", s, b, d)
			}
		}
		for s := int64(0); s <= int64(c2); s++ {
			if (Why(d, s) == Offered) != offered[s] {
				t.Fatalf("Why and Free disagree at %d for %+v", s, d)
			}
		}
	})
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
	// Every minute written by hand reads as fmt writes it, past the day too.
	for m := -61; m <= 100*60+1; m++ {
		if got, want := FormatHHMM(m), fmt.Sprintf("%02d:%02d", m/60, m%60); got != want {
			t.Fatalf("FormatHHMM(%d) = %q, want %q", m, got, want)
		}
	}
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
	day := Day{Windows: win("09:00", "12:00", "14:00", "16:00"), Duration: 60, Busy: []Busy{{Start: at("10:00"), Duration: 45}}}
	today := day
	today.Now = at("09:31")
	notice := day
	notice.Now, notice.Notice = at("08:00"), 120
	buffered := day
	buffered.After = 30
	for _, c := range []struct {
		name  string
		day   Day
		start string
		want  Reason
	}{
		{"a free start on the grid", day, "09:00", Offered},
		{"after the busy interval ends", day, "11:00", Offered},
		{"in the second window", day, "14:00", Offered},
		{"a time of today that has begun comes first", today, "09:30", Past},
		{"past, even on a closed day", Day{Now: 700}, "09:00", Past},
		{"sooner than the notice", notice, "09:30", TooSoon},
		{"the notice met", notice, "11:00", Offered},
		{"a closed day", Day{Duration: 30}, "10:00", Closed},
		{"before opening", day, "08:30", OffHours},
		{"at closing", day, "16:00", OffHours},
		{"in the break", day, "13:00", OffHours},
		{"off the 30-minute grid", day, "09:15", OffHours},
		{"an appointment starts at that very time", day, "10:00", Taken},
		{"inside an appointment", day, "10:30", Taken},
		{"runs into the next appointment", day, "09:30", TooShort},
		{"runs into the break", day, "11:30", TooShort},
		{"its buffer after runs into the next appointment", buffered, "09:00", TooShort},
		{"no duration", Day{Windows: win("09:00", "12:00")}, "09:00", TooShort},
	} {
		if got := Why(c.day, at(c.start)); got != c.want {
			t.Errorf("%s: Why(%s) = %d, want %d", c.name, c.start, got, c.want)
		}
	}
}

func TestCollides(t *testing.T) {
	busy := []Busy{{Start: 600, Duration: 60}, {Start: 720}}
	for _, c := range []struct {
		start              int64
		dur, before, after int
		want               bool
	}{
		{540, 60, 0, 0, false}, {540, 61, 0, 0, true}, {630, 10, 0, 0, true}, {660, 60, 0, 0, false}, {700, 30, 0, 0, true},
		{750, 30, 0, 0, false}, {749, 0, 0, 0, true},
		{540, 60, 0, 1, true}, {661, 30, 2, 0, true}, {662, 30, 2, 0, false}, {660, 30, 0, 30, false}, {660, 30, 0, 31, true},
	} {
		if got := Collides(c.start, c.dur, c.before, c.after, busy); got != c.want {
			t.Errorf("Collides(%d, %d, %d, %d) = %v", c.start, c.dur, c.before, c.after, got)
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

// DayClock answers exactly what At answers, for every minute of every date
// of several years in zones with and without clock changes.
func TestDayClock_AgreesWithAt(t *testing.T) {
	for _, name := range []string{"America/Sao_Paulo", "America/New_York", "Europe/Lisbon", "Australia/Lord_Howe", "UTC"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		for d := time.Date(2017, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2028; d = d.AddDate(0, 0, 1) {
			c := NewDayClock(d, loc)
			for m := 0; m < 24*60; m += 7 {
				if got, want := c.At(m), At(d, m, loc); got != want {
					t.Fatalf("%s %s minute %d: %d, At says %d", name, d.Format("2006-01-02"), m, got, want)
				}
			}
			for _, m := range []int{-1, 24 * 60, 24*60 + 30} {
				if got, want := c.At(m), At(d, m, loc); got != want {
					t.Fatalf("%s %s minute %d: %d, At says %d", name, d.Format("2006-01-02"), m, got, want)
				}
			}
		}
	}
}
