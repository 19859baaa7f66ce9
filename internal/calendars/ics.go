package calendars

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"

	"github.com/agendei/agendei/internal/booking"
)

// Busy times from an iCalendar file (RFC 5545), read with the field's
// libraries: go-ical for the file, rrule-go for recurrences. What is ours
// is only which events count as busy and when.

// ParseOptions say how a calendar's events become busy time.
type ParseOptions struct {
	// Loc is the owner's zone: floating times and all-day events are in it.
	Loc *time.Location
	// From and Until bound the instants expanded (a window ahead: the
	// booking window, at most a year).
	From, Until time.Time
	// AllDay counts all-day events as busy (the default); false ignores them.
	AllDay bool
	// Titles keeps each event's title, for the owner's grid only.
	Titles bool
}

// MaxInstances bounds the busy intervals one calendar gives.
const MaxInstances = booking.MaxImported

// maxSteps bounds the instances one recurrence is walked through, in or
// before the window (a rule every minute since 1990 stops there).
const maxSteps = 20000

var errNotCalendar = errors.New("calendars: not an iCalendar file")

// event is one VEVENT as it counts.
type event struct {
	uid          string
	start, end   time.Time
	allDay       bool
	title        string
	free         bool // TRANSP:TRANSPARENT or STATUS:CANCELLED
	rule         *rrule.ROption
	exdates      []time.Time
	rdates       []time.Time
	recurrenceID time.Time // an overridden instance: its original start
}

// Parse reads a calendar file into busy intervals: recurring events
// expanded (RRULE, RDATE, EXDATE, instances overridden by RECURRENCE-ID),
// times in their TZID (an IANA name, a Windows name, or the file's
// VTIMEZONE's offset), floating times and all-day events in the owner's
// zone, UTC as UTC. Free (TRANSP:TRANSPARENT) and cancelled events, and
// Agendei's own events (booking.OwnUID), never count.
func Parse(body []byte, o ParseOptions) ([]booking.Interval, error) {
	if o.Loc == nil {
		o.Loc = time.UTC
	}
	cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
	if err != nil || cal == nil {
		return nil, errNotCalendar
	}
	z := zones{loc: o.Loc, defined: vtimezones(cal)}
	var masters []*event
	overrides := map[string]map[int64]*event{}
	for _, c := range cal.Children {
		if c.Name != ical.CompEvent {
			continue
		}
		ev, err := z.event(c, o.Titles)
		if err != nil || ev == nil || booking.OwnUID(ev.uid) {
			continue // an event no one can read takes no time
		}
		if !ev.recurrenceID.IsZero() {
			if overrides[ev.uid] == nil {
				overrides[ev.uid] = map[int64]*event{}
			}
			overrides[ev.uid][ev.recurrenceID.Unix()] = ev
			continue
		}
		masters = append(masters, ev)
	}
	var out []booking.Interval
	add := func(ev *event, start, end time.Time) {
		if ev.free || (ev.allDay && !o.AllDay) || !end.After(o.From) || !start.Before(o.Until) || len(out) >= MaxInstances {
			return
		}
		out = append(out, booking.Interval{UID: ev.uid, Start: start, End: end, Title: ev.title})
	}
	for _, ev := range masters {
		moved := overrides[ev.uid]
		if ev.rule == nil && len(ev.rdates) == 0 {
			if moved[ev.start.Unix()] == nil {
				add(ev, ev.start, ev.end)
			}
			continue
		}
		for _, start := range ev.instances(o.Until) {
			if moved[start.Unix()] != nil {
				continue // overridden: the override says where (and whether) it is
			}
			add(ev, start, start.Add(ev.end.Sub(ev.start)))
		}
	}
	for _, byStart := range overrides {
		for _, ev := range byStart {
			add(ev, ev.start, ev.end)
		}
	}
	return out, nil
}

// instances are a recurring event's starts up to until (before the
// window's start too: their end may reach into it), EXDATEs left out.
func (ev *event) instances(until time.Time) []time.Time {
	set := rrule.Set{}
	if ev.rule != nil {
		opt := *ev.rule
		opt.Dtstart = ev.start
		r, err := rrule.NewRRule(opt)
		if err == nil {
			set.RRule(r)
		}
	}
	set.DTStart(ev.start)
	if ev.rule == nil {
		set.RDate(ev.start)
	}
	for _, t := range ev.rdates {
		set.RDate(t)
	}
	for _, t := range ev.exdates {
		set.ExDate(t)
	}
	next := set.Iterator()
	var out []time.Time
	for range maxSteps {
		t, ok := next()
		if !ok || !t.Before(until) {
			break
		}
		out = append(out, t)
	}
	return out
}

// zones resolves a calendar's TZIDs.
type zones struct {
	loc     *time.Location            // the owner's: floating times
	defined map[string]*time.Location // the file's VTIMEZONEs, by TZID
}

// windowsZones are the Windows names Outlook writes as TZID for the zones
// of Brazil and a few others an owner's calendar is likely to use.
var windowsZones = map[string]string{
	"E. South America Standard Time":    "America/Sao_Paulo",
	"South America Standard Time":       "America/Sao_Paulo",
	"Bahia Standard Time":               "America/Bahia",
	"Tocantins Standard Time":           "America/Araguaina",
	"SA Eastern Standard Time":          "America/Fortaleza",
	"Central Brazilian Standard Time":   "America/Cuiaba",
	"SA Western Standard Time":          "America/Manaus",
	"SA Pacific Standard Time":          "America/Rio_Branco",
	"UTC-02":                            "America/Noronha",
	"Mid-Atlantic Standard Time":        "America/Noronha",
	"Argentina Standard Time":           "America/Argentina/Buenos_Aires",
	"Pacific SA Standard Time":          "America/Santiago",
	"Eastern Standard Time":             "America/New_York",
	"Pacific Standard Time":             "America/Los_Angeles",
	"GMT Standard Time":                 "Europe/London",
	"W. Europe Standard Time":           "Europe/Berlin",
	"Romance Standard Time":             "Europe/Paris",
	"GTB Standard Time":                 "Europe/Bucharest",
	"Central Standard Time":             "America/Chicago",
	"Mountain Standard Time":            "America/Denver",
	"Coordinated Universal Time":        "UTC",
	"UTC":                               "UTC",
	"Greenwich Standard Time":           "Atlantic/Reykjavik",
	"Central European Standard Time":    "Europe/Warsaw",
	"Central Europe Standard Time":      "Europe/Budapest",
	"E. Europe Standard Time":           "Europe/Chisinau",
	"Atlantic Standard Time":            "America/Halifax",
	"Paraguay Standard Time":            "America/Asuncion",
	"Montevideo Standard Time":          "America/Montevideo",
	"Venezuela Standard Time":           "America/Caracas",
	"SA Pacific Standard Time (Legacy)": "America/Bogota",
}

// zone is the location of a TZID: an IANA name, a Windows name, the file's
// own VTIMEZONE, else the owner's zone.
func (z zones) zone(tzid string) *time.Location {
	tzid = strings.Trim(tzid, `"`)
	if tzid == "" {
		return z.loc
	}
	if l, err := time.LoadLocation(tzid); err == nil && tzid != "Local" {
		return l
	}
	if name, ok := windowsZones[tzid]; ok {
		if l, err := time.LoadLocation(name); err == nil {
			return l
		}
	}
	if l := z.defined[tzid]; l != nil {
		return l
	}
	return z.loc
}

// vtimezones reads the file's VTIMEZONEs as fixed offsets (their STANDARD
// part's TZOFFSETTO): only for a TZID no zone database knows, and Brazil
// has kept one offset all year since 2019.
func vtimezones(cal *ical.Calendar) map[string]*time.Location {
	out := map[string]*time.Location{}
	for _, c := range cal.Children {
		if c.Name != ical.CompTimezone {
			continue
		}
		id, _ := c.Props.Text(ical.PropTimezoneID)
		var offset string
		for _, part := range c.Children {
			if p := part.Props.Get(ical.PropTimezoneOffsetTo); p != nil && (offset == "" || part.Name == ical.CompTimezoneStandard) {
				offset = p.Value
			}
		}
		if secs, ok := utcOffset(offset); ok && id != "" {
			out[id] = time.FixedZone(id, secs)
		}
	}
	return out
}

// utcOffset reads "-0300" or "+053000".
func utcOffset(s string) (int, bool) {
	if len(s) != 5 && len(s) != 7 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	n := 0
	for i, c := range s[1:] {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int(c - '0')
		switch i {
		case 0:
			n += d * 36000
		case 1:
			n += d * 3600
		case 2:
			n += d * 600
		case 3:
			n += d * 60
		case 4:
			n += d * 10
		case 5:
			n += d
		}
	}
	if s[0] == '-' {
		n = -n
	}
	return n, true
}

// times reads a date or date-time property, one value or a comma-separated
// list (EXDATE, RDATE; a PERIOD's start), in its TZID, UTC or floating.
func (z zones) times(p *ical.Prop) (out []time.Time, allDay bool, err error) {
	loc := z.zone(p.Params.Get(ical.PropTimezoneID))
	for _, v := range strings.Split(p.Value, ",") {
		v = strings.TrimSpace(v)
		if i := strings.IndexByte(v, '/'); i >= 0 {
			v = v[:i] // a PERIOD: its start
		}
		var t time.Time
		switch {
		case len(v) == 8 || p.Params.Get(ical.ParamValue) == string(ical.ValueDate):
			t, err = time.ParseInLocation("20060102", v, z.loc)
			allDay = true
		case strings.HasSuffix(v, "Z"):
			t, err = time.Parse("20060102T150405Z", v)
		default:
			t, err = time.ParseInLocation("20060102T150405", v, loc)
		}
		if err != nil {
			return nil, false, err
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, false, errors.New("calendars: an empty date")
	}
	return out, allDay, nil
}

func (z zones) one(p *ical.Prop) (time.Time, bool, error) {
	ts, allDay, err := z.times(p)
	if err != nil {
		return time.Time{}, false, err
	}
	return ts[0], allDay, nil
}

// event reads one VEVENT (nil: one that takes no time).
func (z zones) event(c *ical.Component, titles bool) (*event, error) {
	uid, _ := c.Props.Text(ical.PropUID)
	startProp := c.Props.Get(ical.PropDateTimeStart)
	if uid == "" || startProp == nil {
		return nil, nil
	}
	ev := &event{uid: uid}
	var err error
	if ev.start, ev.allDay, err = z.one(startProp); err != nil {
		return nil, err
	}
	switch {
	case c.Props.Get(ical.PropDateTimeEnd) != nil:
		if ev.end, _, err = z.one(c.Props.Get(ical.PropDateTimeEnd)); err != nil {
			return nil, err
		}
	case c.Props.Get(ical.PropDuration) != nil:
		d, err := c.Props.Get(ical.PropDuration).Duration()
		if err != nil {
			return nil, err
		}
		if ev.allDay && d%(24*time.Hour) == 0 {
			ev.end = ev.start.AddDate(0, 0, int(d/(24*time.Hour))) // days of the calendar, not 24-hour spans
		} else {
			ev.end = ev.start.Add(d)
		}
	case ev.allDay:
		ev.end = ev.start.AddDate(0, 0, 1)
	default:
		ev.end = ev.start // RFC 5545 §3.6.1: a date-time start alone takes no time
	}
	if !ev.end.After(ev.start) {
		return nil, nil
	}
	transp, _ := c.Props.Text(ical.PropTransparency)
	status, _ := c.Props.Text(ical.PropStatus)
	ev.free = strings.EqualFold(transp, "TRANSPARENT") || strings.EqualFold(status, "CANCELLED")
	if titles {
		title, _ := c.Props.Text(ical.PropSummary)
		ev.title = clip(strings.Join(strings.Fields(title), " "), 120)
	}
	if p := c.Props.Get(ical.PropRecurrenceID); p != nil {
		if ev.recurrenceID, _, err = z.one(p); err != nil {
			return nil, err
		}
		return ev, nil
	}
	if p := c.Props.Get(ical.PropRecurrenceRule); p != nil {
		opt, err := rrule.StrToROptionInLocation(p.Value, ev.start.Location())
		if err != nil {
			return nil, fmt.Errorf("calendars: RRULE: %w", err)
		}
		ev.rule = opt
	}
	for i := range c.Props[ical.PropExceptionDates] {
		ts, _, err := z.times(&c.Props[ical.PropExceptionDates][i])
		if err != nil {
			return nil, err
		}
		ev.exdates = append(ev.exdates, ts...)
	}
	for i := range c.Props[ical.PropRecurrenceDates] {
		ts, _, err := z.times(&c.Props[ical.PropRecurrenceDates][i])
		if err != nil {
			return nil, err
		}
		ev.rdates = append(ev.rdates, ts...)
	}
	return ev, nil
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
