package caldav_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"github.com/agendei/agendei/internal/platform/caldav"
	"github.com/agendei/agendei/internal/platform/caldav/radicale"
)

const dentist = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Apple Inc.//iPhone OS 18//EN
BEGIN:VEVENT
UID:dentista-1
DTSTAMP:20261101T120000Z
DTSTART;TZID=America/Sao_Paulo:20261203T140000
DTEND;TZID=America/Sao_Paulo:20261203T150000
SUMMARY:Dentista
END:VEVENT
END:VCALENDAR
`

const school = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Google Inc//Google Calendar 70.9054//EN
BEGIN:VEVENT
UID:reuniao-escola
DTSTAMP:20261101T120000Z
DTSTART:20261105T203000Z
DTEND:20261105T213000Z
RRULE:FREQ=WEEKLY;BYDAY=TH
SUMMARY:Reunião da escola
END:VEVENT
END:VCALENDAR
`

const january = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Nextcloud//EN
BEGIN:VEVENT
UID:ferias
DTSTAMP:20261101T120000Z
DTSTART;VALUE=DATE:20270111
DTEND;VALUE=DATE:20270112
SUMMARY:Férias
END:VEVENT
END:VCALENDAR
`

func client(t *testing.T, s *radicale.Server, password string) *caldav.Client {
	t.Helper()
	c, err := caldav.New(http.DefaultClient, s.URL, s.User, password)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCalDAV_AgainstRadicale(t *testing.T) {
	ctx := context.Background()
	s := radicale.Start(t)
	personal := s.Calendar(t, "pessoal", "Pessoal")
	s.Calendar(t, "trabalho", "Trabalho")
	c := client(t, s, s.Password)

	t.Run("discovers the account's calendars", func(t *testing.T) {
		cals, err := c.Calendars(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(cals) != 2 || cals[0].Name != "Pessoal" || cals[0].Path != personal || cals[1].Name != "Trabalho" {
			t.Fatalf("calendars: %+v", cals)
		}
	})

	t.Run("a change of the calendar changes its state, and only a change does", func(t *testing.T) {
		before, err := c.State(ctx, personal)
		if err != nil || before == "" {
			t.Fatalf("state: %q %v", before, err)
		}
		if again, _ := c.State(ctx, personal); again != before {
			t.Fatalf("unchanged calendar, new state: %q → %q", before, again)
		}
		s.Put(t, personal, "dentista-1", dentist)
		after, err := c.State(ctx, personal)
		if err != nil || after == before {
			t.Fatalf("after an event was added the state is still %q (%v)", after, err)
		}
	})

	t.Run("reads the events over a range, recurring ones included", func(t *testing.T) {
		s.Put(t, personal, "reuniao-escola", school)
		s.Put(t, personal, "ferias", january)
		from := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
		events, err := c.Events(ctx, personal, from, from.AddDate(0, 0, 7))
		if err != nil {
			t.Fatal(err)
		}
		var uids []string
		for _, cal := range events {
			for _, e := range cal.Events() {
				uid, _ := e.Props.Text(ical.PropUID)
				uids = append(uids, uid)
			}
		}
		got := strings.Join(uids, ",")
		if len(uids) != 2 || !strings.Contains(got, "dentista-1") || !strings.Contains(got, "reuniao-escola") {
			t.Fatalf("events of the first week of December: %v (want the dentist and the weekly meeting, not January's)", uids)
		}
	})

	t.Run("writes an appointment once, rewrites it in place and deletes it", func(t *testing.T) {
		work := "/" + s.User + "/trabalho/"
		uid := "appt-7f3a@agendei"
		if err := c.Put(ctx, work, uid, appointment(uid, "Psicoterapia — Ana", 14)); err != nil {
			t.Fatal(err)
		}
		if err := c.Put(ctx, work, uid, appointment(uid, "Psicoterapia — Ana", 14)); err != nil {
			t.Fatal(err)
		}
		if n := s.Objects(t, work); n != 1 {
			t.Fatalf("written twice, %d events", n)
		}
		if err := c.Put(ctx, work, uid, appointment(uid, "Psicoterapia — Ana", 16)); err != nil {
			t.Fatal(err)
		}
		if n, got := s.Objects(t, work), s.Get(t, work, uid); n != 1 || !strings.Contains(got, "T160000") {
			t.Fatalf("moved: %d events, %q", n, got)
		}
		if err := c.Delete(ctx, work, uid); err != nil {
			t.Fatal(err)
		}
		if s.Objects(t, work) != 0 || s.Get(t, work, uid) != "" {
			t.Fatal("the cancelled appointment is still in the calendar")
		}
		if err := c.Delete(ctx, work, uid); err != nil {
			t.Fatalf("deleting an event already gone: %v", err)
		}
	})

	t.Run("a refused app password is Auth, a missing calendar NotFound", func(t *testing.T) {
		_, err := client(t, s, "errada").Calendars(ctx)
		if !caldav.Auth(err) {
			t.Fatalf("wrong password: %v", err)
		}
		_, err = c.Events(ctx, "/"+s.User+"/nao-existe/", time.Now(), time.Now().Add(time.Hour))
		if !caldav.NotFound(err) {
			t.Fatalf("missing calendar: %v", err)
		}
	})
}

func appointment(uid, summary string, hour int) *ical.Calendar {
	cal := ical.NewCalendar()
	cal.Props.SetText(ical.PropVersion, "2.0")
	cal.Props.SetText(ical.PropProductID, "-//Agendei//Agendei//PT")
	e := ical.NewEvent()
	e.Props.SetText(ical.PropUID, uid)
	e.Props.SetDateTime(ical.PropDateTimeStamp, time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))
	start := time.Date(2026, 12, 4, hour, 0, 0, 0, time.UTC)
	e.Props.SetDateTime(ical.PropDateTimeStart, start)
	e.Props.SetDateTime(ical.PropDateTimeEnd, start.Add(50*time.Minute))
	e.Props.SetText(ical.PropSummary, summary)
	cal.Children = append(cal.Children, e.Component)
	return cal
}

// An answer past MaxAnswer fails the read instead of filling memory.
func TestCalDAV_AnAnswerPastTheBoundFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusMultiStatus)
		_, _ = w.Write([]byte(`<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>/c/</href><propstat><prop><sync-token>`))
		_, _ = w.Write([]byte(strings.Repeat("x", caldav.MaxAnswer)))
		_, _ = w.Write([]byte(`</sync-token></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>`))
	}))
	defer srv.Close()
	c, err := caldav.New(srv.Client(), srv.URL, "u", "p")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.State(context.Background(), "/c/"); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("an answer past the bound: %v", err)
	}
}
