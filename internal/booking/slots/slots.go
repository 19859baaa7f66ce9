// Package slots computes the free start times of a day: pure rules, no I/O
// (SPEC §5 Slot rules). Times are minutes from midnight in the owner's zone.
package slots

import (
	"fmt"
	"strconv"
	"strings"
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
// not overlapping (wholly or partly) any busy interval.
func Free(d Day) []int {
	if d.Close <= d.Open || d.Duration < 1 {
		return nil
	}
	var out []int
	for start := d.Open; start < d.Close; start += Step {
		end := start + d.Duration
		if end > d.Close {
			break // later starts end later still
		}
		if start < d.NotBefore || overlaps(start, end, d.Busy) {
			continue
		}
		out = append(out, start)
	}
	return out
}

// Fits reports whether a booking at start is offered by Free.
func Fits(d Day, start int) bool {
	for _, s := range Free(d) {
		if s == start {
			return true
		}
	}
	return false
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

// ParseHHMM reads "09:30" as 570.
func ParseHHMM(s string) (int, error) {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) != 2 || len(m) != 2 {
		return 0, fmt.Errorf("horário inválido %q", s)
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, fmt.Errorf("horário inválido %q", s)
	}
	return hh*60 + mm, nil
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
