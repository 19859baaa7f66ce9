package booking_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// Issue 24, item 14: the confirmation card's 'Baixar convite (.ics)' is the
// server's invite, the very file the e-mail attaches (one writer: folded
// lines, escaped text), fetched with the client's private token from the
// booking's answer. It follows the booking (a move raises SEQUENCE under
// the same UID, a cancellation turns it into METHOD:CANCEL), an unknown
// token is 404, and it says nothing about the client.
func TestClientInvite_IsTheEmailedInviteByThePrivateToken(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		r := book(e, s, nextMonday, "10:00")
		if r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		var b struct{ ID, Token string }
		r.JSON(t, &b)
		if b.ID == "" || len(b.Token) < 32 {
			t.Fatalf("the booking's answer carries the private token: %s", r.Body)
		}
		c := e.Client()
		download := func(token string) string {
			t.Helper()
			r := c.Do("GET", "/api/public/bookings/"+token+"/invite.ics", nil)
			if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/calendar") ||
				r.Header.Get("Content-Disposition") != `attachment; filename="agendamento.ics"` || r.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("invite: %d %v %s", r.StatusCode, r.Header, r.Body)
			}
			return string(r.Body)
		}
		ics := download(b.Token)
		for _, want := range []string{"BEGIN:VCALENDAR\r\n", "METHOD:PUBLISH\r\n", "TZID:America/Sao_Paulo\r\n", "UID:" + b.ID + "@agendei\r\n", "SEQUENCE:0\r\n",
			"DTSTART;TZID=America/Sao_Paulo:20261130T100000\r\n", "DTEND;TZID=America/Sao_Paulo:20261130T104500\r\n",
			"SUMMARY:Sessão com Ana\r\n", "STATUS:CONFIRMED\r\n", "END:VCALENDAR\r\n"} {
			if !strings.Contains(ics, want) {
				t.Errorf("invite lacks %q:\n%s", want, ics)
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(ics, "\r\n"), "\r\n") {
			if len(line) > 75 || strings.ContainsAny(line, "\r\n") {
				t.Errorf("not a folded CRLF line: %q", line)
			}
		}
		// The client's name, phone, e-mail and the booking's notes stay out.
		for _, personal := range []string{"Maria", "maria@", "98888", "7777"} {
			if strings.Contains(ics, personal) {
				t.Errorf("invite carries %q:\n%s", personal, ics)
			}
		}
		// The same file as the e-mail's attachment, but for when it was made
		// and whom it is sent to: the e-mail's is the REQUEST to its attendee
		// (RFC 5546), the card's a file to import (PUBLISH); both from the
		// practice (ORGANIZER).
		if !strings.Contains(ics, "ORGANIZER;CN=\"Ana\":mailto:ana@example.com\r\n") {
			t.Errorf("invite lacks the practice as ORGANIZER:\n%s", ics)
		}
		stamp := regexp.MustCompile(`DTSTAMP:\d{8}T\d{6}Z|METHOD:[A-Z]+\r\n|ATTENDEE[^\r]*\r\n( [^\r]*\r\n)*`)
		var mailed string
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "To: <maria@example.com>") {
				mailed = m.Calendar(t)
			}
		}
		if stamp.ReplaceAllString(mailed, "") != stamp.ReplaceAllString(ics, "") {
			t.Errorf("the card's invite differs from the e-mail's:\ncard:\n%s\ne-mail:\n%s", ics, mailed)
		}

		// Another client's booking has its own token and its own invite.
		other := book(e, s, nextMonday, "11:00")
		var o struct{ ID, Token string }
		other.JSON(t, &o)
		if o.Token == b.Token || !strings.Contains(download(o.Token), "UID:"+o.ID+"@agendei\r\n") || strings.Contains(download(o.Token), b.ID) {
			t.Fatal("each token reads its own booking only")
		}
		for _, bad := range []string{"nada", b.Token + "x", strings.ToUpper(b.Token), o.ID} {
			if r := c.Do("GET", "/api/public/bookings/"+bad+"/invite.ics", nil); r.StatusCode != 404 || r.Err(t).Error.Code != "not_found" {
				t.Errorf("token %q: %d %s", bad, r.StatusCode, r.Body)
			}
		}

		// The client moves it: the same UID, the next SEQUENCE, the new time.
		if r := c.Do("POST", "/api/public/bookings/"+b.Token+"/reschedule", map[string]string{"date": nextMonday, "time": "09:00"}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		ics = download(b.Token)
		for _, want := range []string{"UID:" + b.ID + "@agendei\r\n", "SEQUENCE:1\r\n", "DTSTART;TZID=America/Sao_Paulo:20261130T090000\r\n"} {
			if !strings.Contains(ics, want) {
				t.Errorf("moved invite lacks %q:\n%s", want, ics)
			}
		}
		// Cancelled, the invite takes the event out of the calendar.
		if r := c.Do("POST", "/api/public/bookings/"+b.Token+"/cancel", nil); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		ics = download(b.Token)
		// The client's cancellation is a revision, as the owner's: SEQUENCE
		// goes up; a CANCEL names its attendee, by address only (RFC 5546).
		ics = unfoldICS(ics)
		for _, want := range []string{"METHOD:CANCEL\r\n", "STATUS:CANCELLED\r\n", "UID:" + b.ID + "@agendei\r\n", "SEQUENCE:2\r\n",
			"ORGANIZER;CN=\"Ana\":mailto:ana@example.com\r\n", "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:maria@example.com\r\n"} {
			if !strings.Contains(ics, want) {
				t.Errorf("cancelled invite lacks %q:\n%s", want, ics)
			}
		}
	})
}
