package booking

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Invite is one appointment as an iCalendar event.
type Invite struct {
	UID         string
	Start       time.Time // in the owner's location
	Duration    time.Duration
	Summary     string
	Description string
	// Location is where it happens (place.Place.Text): the address, or the
	// video-call link of an online service; "" writes no LOCATION.
	Location string
	// Organizer is the practice (RFC 5546: ORGANIZER on every event): its
	// name and e-mail; no e-mail writes no ORGANIZER.
	Organizer, OrganizerEmail string
	// Attendee is the client the event is sent to (ATTENDEE of a REQUEST or
	// a CANCEL); no e-mail writes no ATTENDEE.
	Attendee, AttendeeEmail string
	Stamp                   time.Time
	// Sequence counts the event's revisions (a reschedule, a cancellation):
	// with the same UID, a calendar replaces the event it has.
	Sequence int
	// Cancelled makes the file a cancellation (METHOD:CANCEL, STATUS:CANCELLED).
	Cancelled bool
}

// ICS renders a valid iCalendar (RFC 5545) file of one invite: CRLF lines
// folded at 75 octets, text escaped, the event in the owner's time zone
// with its VTIMEZONE (Brazil has kept one offset all year since 2019). Its
// method (RFC 5546) is the invite's Method: PUBLISH for a file to import,
// REQUEST for the one an e-mail sends to its attendee, CANCEL for a
// cancelled invite.
func ICS(inv Invite) []byte {
	return Calendar(inv.Start.Location(), inv.Method(), "", []Invite{inv})
}

// Method is the iTIP method (RFC 5546) of the invite's file: CANCEL when
// cancelled, REQUEST when sent to an attendee, else PUBLISH.
func (inv Invite) Method() string {
	switch {
	case inv.Cancelled:
		return "CANCEL"
	case inv.AttendeeEmail != "":
		return "REQUEST"
	}
	return "PUBLISH"
}

// ContentType is the MIME type of the invite's file as an e-mail carries
// it, with its method (RFC 6047 §2.4: method= on text/calendar).
func (inv Invite) ContentType() string {
	return "text/calendar; charset=utf-8; method=" + inv.Method()
}

// Calendar renders an iCalendar file of several events in one zone (a
// subscribed feed: method PUBLISH, a name, and a refresh hint of an hour).
func Calendar(loc *time.Location, method, name string, events []Invite) []byte {
	now := time.Now().In(loc)
	if len(events) > 0 {
		now = events[0].Start
	}
	_, offset := now.Zone()
	tzOffset := fmt.Sprintf("%+03d%02d", offset/3600, abs(offset%3600)/60)
	abbr, _ := now.Zone()
	local := "20060102T150405"
	lines := []string{
		"BEGIN:VCALENDAR",
		"VERSION:2.0",
		"PRODID:-//Agendei//Agendamento online//PT-BR",
		"CALSCALE:GREGORIAN",
		"METHOD:" + method,
	}
	if name != "" {
		lines = append(lines, "X-WR-CALNAME:"+escapeText(name), "X-WR-TIMEZONE:"+loc.String(),
			"REFRESH-INTERVAL;VALUE=DURATION:PT1H", "X-PUBLISHED-TTL:PT1H")
	}
	lines = append(lines,
		"BEGIN:VTIMEZONE",
		"TZID:"+loc.String(),
		"BEGIN:STANDARD",
		"DTSTART:19700101T000000",
		"TZOFFSETFROM:"+tzOffset,
		"TZOFFSETTO:"+tzOffset,
		"TZNAME:"+abbr,
		"END:STANDARD",
		"END:VTIMEZONE",
	)
	for _, inv := range events {
		status := "CONFIRMED"
		if inv.Cancelled {
			status = "CANCELLED"
		}
		start := inv.Start.In(loc)
		lines = append(lines,
			"BEGIN:VEVENT",
			"UID:"+inv.UID,
			fmt.Sprintf("SEQUENCE:%d", inv.Sequence),
			"DTSTAMP:"+inv.Stamp.UTC().Format("20060102T150405Z"),
			"DTSTART;TZID="+loc.String()+":"+start.Format(local),
			"DTEND;TZID="+loc.String()+":"+start.Add(inv.Duration).Format(local),
			"SUMMARY:"+escapeText(inv.Summary),
			"DESCRIPTION:"+escapeText(inv.Description),
		)
		if inv.Location != "" {
			lines = append(lines, "LOCATION:"+escapeText(inv.Location))
		}
		if inv.OrganizerEmail != "" {
			lines = append(lines, "ORGANIZER"+cn(inv.Organizer)+":mailto:"+inv.OrganizerEmail)
		}
		if inv.AttendeeEmail != "" && method != "PUBLISH" {
			// The client booked the time themselves: accepted, no answer asked.
			lines = append(lines, "ATTENDEE"+cn(inv.Attendee)+";CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:"+inv.AttendeeEmail)
		}
		lines = append(lines,
			"STATUS:"+status,
			"END:VEVENT",
		)
	}
	lines = append(lines, "END:VCALENDAR")
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(fold(l))
	}
	return []byte(b.String())
}

// textEscaper escapes an iCalendar TEXT value (RFC 5545 §3.3.11): backslash,
// semicolon and comma get a backslash, and every line break — CRLF, a lone
// LF or a lone CR — becomes the two characters \n, so no name can end the
// property and start another one.
var textEscaper = strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)

func escapeText(s string) string {
	// TEXT admits no control characters but the tab (line breaks are escaped).
	s = strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' || r == '\t' {
			return r
		}
		if r < 0x20 || r >= 0x7f && r <= 0x9f || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
	return textEscaper.Replace(s)
}

// cn is a CN parameter (RFC 5545 §3.2.2) of a name, quoted: a
// parameter value admits no DQUOTE nor control characters, so they go.
func cn(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '"' || r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == utf8.RuneError {
			return -1
		}
		return r
	}, strings.TrimSpace(name))
	if name == "" {
		return ""
	}
	return `;CN="` + name + `"`
}

// fold splits a content line into 75-octet pieces, never inside a UTF-8 rune.
func fold(line string) string {
	var b strings.Builder
	n := 0
	for _, r := range line {
		size := len(string(r))
		if n+size > 75 {
			b.WriteString("\r\n ")
			n = 1
		}
		b.WriteRune(r)
		n += size
	}
	b.WriteString("\r\n")
	return b.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// GoogleCalendarURL is the calendar.google.com address that opens an event
// ready to save ('Adicionar ao Google Agenda'): the instants in UTC and the
// owner's zone for how Google shows them, and where it happens ("": none).
func GoogleCalendarURL(title, details, location string, start time.Time, d time.Duration) string {
	v := url.Values{}
	v.Set("action", "TEMPLATE")
	v.Set("text", title)
	v.Set("dates", start.UTC().Format("20060102T150405Z")+"/"+start.Add(d).UTC().Format("20060102T150405Z"))
	v.Set("details", details)
	if location != "" {
		v.Set("location", location)
	}
	v.Set("ctz", start.Location().String())
	return "https://calendar.google.com/calendar/render?" + v.Encode()
}

// uidDomain ends the UID of every event Agendei writes (an appointment's
// invite and feed events: "<appointment id>@agendei").
const uidDomain = "@agendei"

// OwnUID reports whether an event's UID is one Agendei wrote: a calendar
// that imports Agendei's feed and is read back as busy time (issue 42)
// must not count its appointments twice.
func OwnUID(uid string) bool { return strings.HasSuffix(strings.TrimSpace(uid), uidDomain) }
