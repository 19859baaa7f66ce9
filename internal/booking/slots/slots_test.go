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
	})
}
