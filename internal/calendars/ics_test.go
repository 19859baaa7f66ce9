package calendars

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/booking"
)

var saoPaulo, _ = time.LoadLocation("America/Sao_Paulo")

func window() ParseOptions {
	return ParseOptions{Loc: saoPaulo, From: time.Date(2026, 11, 30, 0, 0, 0, 0, saoPaulo), Until: time.Date(2027, 1, 31, 0, 0, 0, 0, saoPaulo), AllDay: true}
}

// spans are intervals as "uid date HH:MM-HH:MM" in São Paulo, sorted.
func spans(list []booking.Interval) []string {
	var out []string
	for _, it := range list {
		s, e := it.Start.In(saoPaulo), it.End.In(saoPaulo)
		line := fmt.Sprintf("%s %s %s-%s", it.UID, s.Format("2006-01-02"), s.Format("15:04"), e.Format("15:04"))
		if !e.Truncate(24 * time.Hour).Equal(s.Truncate(24 * time.Hour)) {
			line = fmt.Sprintf("%s %s %s-%s", it.UID, s.Format("2006-01-02"), s.Format("15:04"), e.Format("01-02 15:04"))
		}
		if it.Title != "" {
			line += " " + it.Title
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

// A Google Calendar export: a weekly event with an instance moved
// (RECURRENCE-ID) and one cancelled (EXDATE) and an end (UNTIL), an all-day
// event, UTC, floating, Outlook's Windows zone names and a VTIMEZONE of its
// own, an extra date (RDATE); a free event, a cancelled one and Agendei's
// own appointment count for nothing.
func TestParse_AGoogleCalendarBecomesExactlyItsBusyTimes(t *testing.T) {
	body, err := os.ReadFile("testdata/google.ics")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(body, window())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"congresso@google.com 2026-12-04 00:00-12-05 00:00",
		"dentista@google.com 2026-12-03 10:00-11:00",
		"flutuante@google.com 2026-12-07 09:00-10:00",
		"outlook-1 2026-12-08 08:00-09:00",
		"outlook-2 2026-12-08 15:00-16:00",
		"rdate@google.com 2026-12-01 18:00-19:00",
		"rdate@google.com 2026-12-11 18:00-19:00",
		"reuniao-escolar@google.com 2026-12-02 14:00-15:00",
		"reuniao-escolar@google.com 2026-12-10 16:00-17:00",
		"reuniao-escolar@google.com 2026-12-23 14:00-15:00",
		"reuniao-escolar@google.com 2026-12-30 14:00-15:00",
	}
	if g := spans(got); !slices.Equal(g, want) {
		t.Fatalf("busy:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
	}

	// All-day events ignored by the owner's choice; titles only when asked.
	o := window()
	o.AllDay, o.Titles = false, true
	got, _ = Parse(body, o)
	g := spans(got)
	if slices.ContainsFunc(g, func(s string) bool { return strings.HasPrefix(s, "congresso") }) {
		t.Fatalf("all-day kept: %v", g)
	}
	if !slices.Contains(g, "dentista@google.com 2026-12-03 10:00-11:00 Dentista") || !slices.Contains(g, "reuniao-escolar@google.com 2026-12-10 16:00-17:00 Reunião da escola (remarcada)") {
		t.Fatalf("titles: %v", g)
	}

	// Only the window: nothing before it ends or after it starts.
	o = window()
	o.From, o.Until = time.Date(2026, 12, 9, 0, 0, 0, 0, saoPaulo), time.Date(2026, 12, 24, 0, 0, 0, 0, saoPaulo)
	got, _ = Parse(body, o)
	if g := spans(got); len(g) != 3 || !strings.HasPrefix(g[0], "rdate@google.com 2026-12-11") || !strings.HasPrefix(g[1], "reuniao-escolar@google.com 2026-12-10") || !strings.HasPrefix(g[2], "reuniao-escolar@google.com 2026-12-23") {
		t.Fatalf("window: %v", g)
	}
}

func ics(events ...string) []byte {
	return []byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n" + strings.Join(events, "") + "END:VCALENDAR\r\n")
}

func TestParse_RecurrenceIsBoundedAndBadFilesAreRefused(t *testing.T) {
	// Every minute since 2020: walked at most maxSteps, so nothing in a
	// window years later, and never an endless loop.
	every := "BEGIN:VEVENT\r\nUID:x\r\nDTSTAMP:20261120T120000Z\r\nDTSTART:20200101T000000Z\r\nDTEND:20200101T000030Z\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\n"
	start := time.Now()
	got, err := Parse(ics(every), window())
	if err != nil || len(got) != 0 || time.Since(start) > 10*time.Second {
		t.Fatalf("%d instances, %v, %v", len(got), err, time.Since(start))
	}
	// Daily for years, all in the window: capped at MaxInstances.
	daily := "BEGIN:VEVENT\r\nUID:y\r\nDTSTAMP:20261120T120000Z\r\nDTSTART:20261201T100000Z\r\nDTEND:20261201T100100Z\r\nRRULE:FREQ=MINUTELY;INTERVAL=5\r\nEND:VEVENT\r\n"
	if got, _ := Parse(ics(daily), window()); len(got) != MaxInstances {
		t.Fatalf("cap: %d", len(got))
	}
	for _, bad := range [][]byte{[]byte("<html>Not found</html>"), []byte(""), []byte("BEGIN:VCALENDAR\r\n")} {
		if _, err := Parse(bad, window()); err == nil {
			t.Fatalf("%q parsed", bad)
		}
	}
	// A DURATION; a date-time start alone takes no time.
	dur := "BEGIN:VEVENT\r\nUID:d\r\nDTSTAMP:20261120T120000Z\r\nDTSTART;TZID=America/Sao_Paulo:20261205T100000\r\nDURATION:PT1H30M\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:z\r\nDTSTAMP:20261120T120000Z\r\nDTSTART;TZID=America/Sao_Paulo:20261205T130000\r\nEND:VEVENT\r\n"
	got, _ = Parse(ics(dur), window())
	if g := spans(got); !slices.Equal(g, []string{"d 2026-12-05 10:00-11:30"}) {
		t.Fatalf("duration: %v", g)
	}
}
