package booking

import (
	"fmt"
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
	Organizer   string // name
	Stamp       time.Time
	// Sequence counts the event's revisions (a reschedule, a cancellation):
	// with the same UID, a calendar replaces the event it has.
	Sequence int
	// Cancelled makes the file a cancellation (METHOD:CANCEL, STATUS:CANCELLED).
	Cancelled bool
}

// ICS renders a valid iCalendar (RFC 5545) file: CRLF lines folded at 75
// octets, text escaped, the event in the owner's time zone with its
// VTIMEZONE (Brazil has kept one offset all year since 2019).
func ICS(inv Invite) []byte {
	loc := inv.Start.Location()
	_, offset := inv.Start.Zone()
	tzOffset := fmt.Sprintf("%+03d%02d", offset/3600, abs(offset%3600)/60)
	abbr, _ := inv.Start.Zone()
	local := "20060102T150405"
	method, status := "PUBLISH", "CONFIRMED"
	if inv.Cancelled {
		method, status = "CANCEL", "CANCELLED"
	}
	lines := []string{
		"BEGIN:VCALENDAR",
		"VERSION:2.0",
		"PRODID:-//Agendei//Agendamento online//PT-BR",
		"CALSCALE:GREGORIAN",
		"METHOD:" + method,
		"BEGIN:VTIMEZONE",
		"TZID:" + loc.String(),
		"BEGIN:STANDARD",
		"DTSTART:19700101T000000",
		"TZOFFSETFROM:" + tzOffset,
		"TZOFFSETTO:" + tzOffset,
		"TZNAME:" + abbr,
		"END:STANDARD",
		"END:VTIMEZONE",
		"BEGIN:VEVENT",
		"UID:" + inv.UID,
		fmt.Sprintf("SEQUENCE:%d", inv.Sequence),
		"DTSTAMP:" + inv.Stamp.UTC().Format("20060102T150405Z"),
		"DTSTART;TZID=" + loc.String() + ":" + inv.Start.Format(local),
		"DTEND;TZID=" + loc.String() + ":" + inv.Start.Add(inv.Duration).Format(local),
		"SUMMARY:" + escapeText(inv.Summary),
		"DESCRIPTION:" + escapeText(inv.Description),
		"STATUS:" + status,
		"END:VEVENT",
		"END:VCALENDAR",
	}
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
