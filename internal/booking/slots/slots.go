// Package slots computes the free start times of a day: pure rules, no I/O
// (SPEC §5 Slot rules). Times are minutes from midnight in the owner's zone.
package slots

import (
	"fmt"
	"time"
)

const (
	// Step is the distance between offered start times.
	Step = 30
	// DefaultDuration is assumed for an existing appointment whose duration is unknown.
	DefaultDuration = 30
)

// Busy is an existing confirmed or completed appointment of the professional.
type Busy struct {
	Start    int // minutes from midnight
	Duration int // minutes; 0 means unknown (DefaultDuration)
}

// Day is what decides one date's slots.
type Day struct {
	Open, Close int    // the weekday's window; Close <= Open means closed
	Duration    int    // the service's duration in minutes
	Busy        []Busy // that professional's appointments that date
	NotBefore   int    // earliest start allowed (now, for today); 0 otherwise
}

// Free returns the offered start times: every Step from Open while before
// Close, only when start+Duration fits by Close, not before NotBefore, and
// not overlapping (wholly or partly) any busy interval — the starts that Why
// calls Offered.
func Free(d Day) []int {
	if d.Close <= d.Open {
		return nil
	}
	var out []int
	for start := d.Open; start < d.Close; start += Step {
		if Why(d, start) == Offered {
			out = append(out, start)
		}
	}
	return out
}

// Reason is why a start time is, or is not, offered on a day.
type Reason int

const (
	Offered  Reason = iota // Free offers it
	Past                   // before NotBefore: today's time that has begun
	Closed                 // the weekday has no opening hours
	OffHours               // before opening, at or after closing, or off the Step grid from Open
	Taken                  // an appointment holds that very minute
	TooShort               // not Duration free minutes from it: another appointment, or the closing time
)

// Why decides one start time: Offered exactly when Free offers it, and
// otherwise the first reason that refuses it, in the order of the constants.
// Every yes or no about a chosen time (a client's booking, before and under
// the professional's lock) is this one rule.
func Why(d Day, start int) Reason {
	switch {
	case start < d.NotBefore:
		return Past
	case d.Close <= d.Open:
		return Closed
	case start < d.Open || start >= d.Close || (start-d.Open)%Step != 0:
		return OffHours
	case overlaps(start, start+1, d.Busy):
		return Taken
	case d.Duration < 1 || start+d.Duration > d.Close || overlaps(start, start+d.Duration, d.Busy):
		return TooShort
	}
	return Offered
}

// Overlaps reports whether [start, start+duration) overlaps, wholly or
// partly, any busy interval: the one rule that decides whether time that is
// already chosen (an owner's re-confirm) is still free.
func Overlaps(start, duration int, busy []Busy) bool {
	if duration <= 0 {
		duration = DefaultDuration
	}
	return overlaps(start, start+duration, busy)
}

func overlaps(start, end int, busy []Busy) bool {
	for _, b := range busy {
		dur := b.Duration
		if dur <= 0 {
			dur = DefaultDuration
		}
		if start < b.Start+dur && b.Start < end {
			return true
		}
	}
	return false
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

// FormatHHMM writes 570 as "09:30".
func FormatHHMM(min int) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

// Today is the owner's current date ("2006-01-02") and, for today's slots,
// the first minute that is not yet past.
func Today(now time.Time, loc *time.Location) (date string, minute int) {
	local := now.In(loc)
	minute = local.Hour()*60 + local.Minute()
	if local.Second() > 0 || local.Nanosecond() > 0 {
		minute++ // a slot starting this very minute has begun already
	}
	return local.Format("2006-01-02"), minute
}
