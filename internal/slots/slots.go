// Package slots decides which start times a day offers: pure rules, no I/O,
// the one place for them (SPEC §5 Slot rules, and the schedules of issue 14).
//
// Times are instants — minutes since the Unix epoch — not minutes from
// midnight, so a day whose clocks change (daylight saving) has its real
// length and nothing here assumes a zone without it: the caller turns the
// owner's wall-clock hours into instants (At) and offered instants back into
// HH:MM (Clock). A day is the professional's working windows that date (the
// gaps between them are breaks; a day off or a holiday has none), the
// appointments that already hold time, the service's duration and buffers,
// the step between offered starts, and the earliest start allowed.
package slots

import (
	"fmt"
	"time"
)

const (
	// DefaultStep is the distance between offered start times unless the practice chose another.
	DefaultStep = 30
	// DefaultDuration is assumed for an existing appointment whose duration is unknown.
	DefaultDuration = 30

	// MaxDuration and MaxBuffer are the longest service and the longest
	// buffer (before or after) the product allows: the services package
	// refuses more, and they bound how far an appointment's time reaches.
	MaxDuration = 24 * 60
	MaxBuffer   = 240

	// ReachDays is how many dates either side of its own an appointment's
	// time can reach: one starting as late as 23:59 (an hour later on the
	// night the clocks go back), lasting MaxDuration, with a MaxBuffer kept
	// free after it, ends before 04:00 two dates later; the same bound holds
	// backwards for the appointment it must keep clear of. Whoever decides
	// a date reads the appointments (and blocks) of this many dates around it.
	ReachDays = (dayMinutes + 60 + MaxDuration + MaxBuffer - 1) / dayMinutes

	dayMinutes = 24 * 60
)

// Span is the half-open interval [Start, End) of instants (Unix minutes).
type Span struct{ Start, End int64 }

// Busy is an appointment that holds time: its start, duration, and the
// buffers it keeps free before and after (as booked).
type Busy struct {
	Start         int64 // Unix minutes
	Duration      int   // minutes; 0 means unknown (DefaultDuration)
	Before, After int   // buffer minutes
}

func (b Busy) end() int64 {
	d := b.Duration
	if d <= 0 {
		d = DefaultDuration
	}
	return b.Start + int64(d)
}

// Day is what decides one date's start times for one professional and service.
type Day struct {
	Windows       []Span // when the professional works, sorted and not overlapping; none: closed
	Duration      int    // the service's duration in minutes
	Before, After int    // the service's buffers, kept free of other appointments
	Step          int    // minutes between offered starts, from each window's start; 0: DefaultStep
	Now           int64  // the current instant: nothing starts before it
	Notice        int    // minutes of notice: nothing starts before Now + Notice
	Busy          []Busy // the professional's appointments that hold time near that date
}

func (d Day) step() int64 {
	if d.Step > 0 {
		return int64(d.Step)
	}
	return DefaultStep
}

// Free returns the offered start times: from each window's start, every
// Step while the whole service fits before that window's end, not before Now
// plus Notice, and at the required distance from every busy appointment —
// exactly the starts that Why calls Offered.
func Free(d Day) []int64 {
	var out []int64
	each(d, func(start int64) bool {
		out = append(out, start)
		return true
	})
	return out
}

// Any reports whether the day offers at least one start (Free without the list).
func Any(d Day) bool {
	found := false
	each(d, func(int64) bool {
		found = true
		return false
	})
	return found
}

func each(d Day, yield func(int64) bool) {
	step := d.step()
	for _, w := range d.Windows {
		for start := w.Start; start < w.End; start += step {
			if Why(d, start) == Offered && !yield(start) {
				return
			}
		}
	}
}

// Reason is why a start time is, or is not, offered on a day.
type Reason int

const (
	Offered  Reason = iota // Free offers it
	Past                   // before Now: a time that has begun
	TooSoon                // before Now + Notice
	Closed                 // no working window that day (closed weekday, day off, holiday)
	OffHours               // outside every window, or off the Step grid from its window's start
	Taken                  // an appointment holds that very minute
	TooShort               // the service (with its buffers) does not fit: another appointment, a break or the closing time
)

// Why decides one start time: Offered exactly when Free offers it, and
// otherwise the first reason that refuses it, in the order of the constants.
// Every yes or no about a chosen time (a client's booking, before and under
// the professional's lock) is this one rule.
func Why(d Day, start int64) Reason {
	if start < d.Now {
		return Past
	}
	if start < d.Now+int64(d.Notice) {
		return TooSoon
	}
	if len(d.Windows) == 0 {
		return Closed
	}
	w, ok := within(d.Windows, start)
	if !ok || (start-w.Start)%d.step() != 0 {
		return OffHours
	}
	for _, b := range d.Busy {
		if b.Start <= start && start < b.end() {
			return Taken
		}
	}
	if d.Duration < 1 || start+int64(d.Duration) > w.End || Collides(start, d.Duration, d.Before, d.After, d.Busy) {
		return TooShort
	}
	return Offered
}

func within(windows []Span, t int64) (Span, bool) {
	for _, w := range windows {
		if w.Start <= t && t < w.End {
			return w, true
		}
	}
	return Span{}, false
}

// Collides reports whether an appointment at start of that duration and
// buffers comes too close to any busy one: between the end of the earlier
// and the start of the later of two appointments there must be the larger of
// the earlier's buffer after and the later's buffer before (no buffers: they
// must not overlap, wholly or partly; ending exactly at a start is fine).
// It is the one rule that decides whether time is free, for a client's
// booking and for time that is already chosen (an owner's re-confirm).
func Collides(start int64, duration, before, after int, busy []Busy) bool {
	if duration <= 0 {
		duration = DefaultDuration
	}
	end := start + int64(duration)
	for _, b := range busy {
		if start-int64(max(before, b.After)) < b.end() && b.Start < end+int64(max(after, b.Before)) {
			return true
		}
	}
	return false
}

// At is the instant of a wall-clock minute (minutes from midnight) of a date
// in a zone. A minute the clocks skip that day (a daylight-saving gap) is
// moved forward to the first instant after the gap, so a window never starts
// before its day; Clock then reads another time, which is how a caller can
// tell that a chosen time does not exist.
func At(date time.Time, minute int, loc *time.Location) int64 {
	t := time.Date(date.Year(), date.Month(), date.Day(), minute/60, minute%60, 0, 0, loc)
	want := time.Date(date.Year(), date.Month(), date.Day(), minute/60, minute%60, 0, 0, time.UTC)
	for i := 0; i < 24*60; i++ {
		l := t.In(loc)
		if !time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), 0, 0, time.UTC).Before(want) {
			break
		}
		t = t.Add(time.Minute) // inside a gap time.Date may answer an instant whose wall clock is earlier
	}
	return t.Unix() / 60
}

// DayClock turns the wall-clock minutes of one date in a zone into
// instants, as At does, without consulting the zone again when the date has
// no clock change (every date of a zone without daylight saving).
type DayClock struct {
	date     time.Time
	loc      *time.Location
	midnight int64
	uniform  bool // the clocks do not change that date: minute m is midnight + m
}

// NewDayClock reads the date's midnight and whether its clocks change.
func NewDayClock(date time.Time, loc *time.Location) DayClock {
	c := DayClock{date: date, loc: loc, midnight: At(date, 0, loc)}
	// A change of offset shows as the last minute not lying 1439 minutes
	// after midnight; checking the offsets at both ends also catches a change
	// and its reversal within the date (there is none in practice).
	_, a := time.Unix(c.midnight*60, 0).In(loc).Zone()
	_, b := time.Unix((c.midnight+24*60)*60, 0).In(loc).Zone()
	c.uniform = a == b && At(date, 24*60-1, loc) == c.midnight+24*60-1
	return c
}

// At is the instant of a wall-clock minute of the date (At(date, minute, loc)).
func (c DayClock) At(minute int) int64 {
	if c.uniform && minute >= 0 && minute < 24*60 {
		return c.midnight + int64(minute)
	}
	return At(c.date, minute, c.loc)
}

// Clock is the wall-clock "HH:MM" of an instant in a zone.
func Clock(instant int64, loc *time.Location) string {
	return time.Unix(instant*60, 0).In(loc).Format("15:04")
}

// NowMinute is the instant to compare starts with: the current minute, or
// the next one when this one has begun (a slot starting this very minute has
// begun already).
func NowMinute(now time.Time) int64 {
	m := now.Unix() / 60
	if now.Unix()%60 != 0 || now.Nanosecond() != 0 {
		m++
	}
	return m
}

// ParseHHMM reads "09:30" as 570. Only HH:MM is accepted: two digits, a
// colon, two digits, 00–23 and 00–59 (no signs, spaces or single digits,
// which strconv.Atoi would let through as "+9").
func ParseHHMM(s string) (int, error) {
	if len(s) != 5 || s[2] != ':' || !digits(s[:2]) || !digits(s[3:]) {
		return 0, fmt.Errorf("horário inválido %q", s)
	}
	hh := int(s[0]-'0')*10 + int(s[1]-'0')
	mm := int(s[3]-'0')*10 + int(s[4]-'0')
	if hh > 23 || mm > 59 {
		return 0, fmt.Errorf("horário inválido %q", s)
	}
	return hh*60 + mm, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// The years a date may have anywhere in the API. Every date the server
// accepts must read back on both databases: 9999-12-31 23:00 in São Paulo is
// year 10000 in UTC, which neither driver scans. The bounds are far wider
// than any booking window and far narrower than what breaks.
const (
	MinYear = 2000
	MaxYear = 2100
)

// ParseDate reads a calendar date "YYYY-MM-DD" (a real day of a year from
// MinYear to MaxYear) as midnight UTC: the one parser of dates that come
// from requests.
func ParseDate(s string) (time.Time, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil || len(s) != 10 || t.Year() < MinYear || t.Year() > MaxYear {
		return time.Time{}, fmt.Errorf("data inválida %q", s)
	}
	return t, nil
}

// ParseMonth reads a month "YYYY-MM" (years MinYear to MaxYear) as its first day.
func ParseMonth(s string) (time.Time, error) {
	t, err := time.Parse("2006-01", s)
	if err != nil || len(s) != 7 || t.Year() < MinYear || t.Year() > MaxYear {
		return time.Time{}, fmt.Errorf("mês inválido %q", s)
	}
	return t, nil
}

// FormatHHMM writes 570 as "09:30". It is on every grid column's windows
// and every free time, so the usual minutes of a day (up to "99:59") are
// written without fmt.
func FormatHHMM(min int) string {
	if min < 0 || min >= 100*60 {
		return fmt.Sprintf("%02d:%02d", min/60, min%60)
	}
	h, m := min/60, min%60
	return string([]byte{byte('0' + h/10), byte('0' + h%10), ':', byte('0' + m/10), byte('0' + m%10)})
}

// Today is the owner's current date ("2006-01-02").
func Today(now time.Time, loc *time.Location) string {
	return now.In(loc).Format("2006-01-02")
}
