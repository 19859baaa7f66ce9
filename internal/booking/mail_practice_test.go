package booking_test

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"regexp"
	"strings"
	"testing"

	"github.com/emersion/go-ical"

	"github.com/agendei/agendei/internal/mail/smtptest"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// header is a delivered message's header.
func header(t *testing.T, m smtptest.Message) netmail.Header {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	return msg.Header
}

// Every e-mail to a client carries Reply-To with the practice's e-mail —
// its public contact e-mail, else the owner's account e-mail — so that a
// client's reply reaches the practice, not the no-reply sender; the
// owner's own e-mails carry none.
func TestMail_ClientEmailsReplyToThePractice(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			smtp := smtptest.Start(t)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			s, _ := placeShop(t, e)
			owner := e.Client()
			owner.Login("ana@example.com", "segredo1")

			replyTo := func(from int) map[string]string {
				t.Helper()
				e.RunJobs()
				got := map[string]string{}
				for _, m := range smtp.Messages()[from:] {
					got[m.To[0]] = header(t, m).Get("Reply-To")
				}
				return got
			}

			// No contact e-mail on the profile: the owner's account e-mail.
			if r := bookAs(e, s, s.service, "09:00", "maria@example.com"); r.StatusCode != 201 {
				t.Fatalf("book: %d %s", r.StatusCode, r.Body)
			}
			got := replyTo(0)
			if got["maria@example.com"] != "<ana@example.com>" {
				t.Errorf("client's confirmation Reply-To = %q, want the owner's account e-mail (%v)", got["maria@example.com"], got)
			}
			if v, ok := got["ana@example.com"]; !ok || v != "" {
				t.Errorf("owner's own e-mail Reply-To = %q (sent: %v), want none", v, ok)
			}

			// The profile's contact e-mail wins.
			r := owner.Do("PUT", "/api/profile", map[string]any{"name": "Ana", "email": "ana@example.com", "area": "Psicologia", "publicUsername": "ana",
				"contactEmail": "contato@clinica-ana.com.br"})
			if r.StatusCode != 200 {
				t.Fatalf("profile: %d %s", r.StatusCode, r.Body)
			}
			before := len(smtp.Messages())
			var b struct{ ID string }
			r = bookAs(e, s, s.service, "10:00", "joao@example.com")
			if r.StatusCode != 201 {
				t.Fatalf("book: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &b)
			got = replyTo(before)
			if got["joao@example.com"] != "<contato@clinica-ana.com.br>" {
				t.Errorf("client's confirmation Reply-To = %q, want the contact e-mail", got["joao@example.com"])
			}
			if got["ana@example.com"] != "" {
				t.Errorf("owner's own e-mail Reply-To = %q, want none", got["ana@example.com"])
			}

			// The owner cancels, telling the client: the cancellation too.
			before = len(smtp.Messages())
			if r := owner.Do("PATCH", "/api/appointments/"+b.ID, map[string]any{"status": "cancelled", "notifyClient": true}); r.StatusCode != 200 {
				t.Fatalf("owner cancel: %d %s", r.StatusCode, r.Body)
			}
			got = replyTo(before)
			if got["joao@example.com"] != "<contato@clinica-ana.com.br>" {
				t.Errorf("client's cancellation Reply-To = %q, want the contact e-mail (%v)", got["joao@example.com"], got)
			}
		})
	}
}

// calendarPart is a delivered message's text/calendar part: its
// Content-Type and its file, parsed.
func calendarPart(t *testing.T, m smtptest.Message) (string, *ical.Calendar) {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(m.Data))
	if err != nil {
		t.Fatal(err)
	}
	var ct string
	var body []byte
	var walk func(r io.Reader, contentType string)
	walk = func(r io.Reader, contentType string) {
		mt, params, _ := mime.ParseMediaType(contentType)
		if !strings.HasPrefix(mt, "multipart/") {
			return
		}
		mr := multipart.NewReader(r, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return
			}
			pct := p.Header.Get("Content-Type")
			if strings.HasPrefix(pct, "text/calendar") {
				raw, _ := io.ReadAll(p)
				if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "base64") {
					raw, err = base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(string(raw)))
					if err != nil {
						t.Fatal(err)
					}
				}
				ct, body = pct, raw
				return
			}
			walk(p, pct)
		}
	}
	walk(msg.Body, msg.Header.Get("Content-Type"))
	if body == nil {
		t.Fatalf("no text/calendar part in the e-mail to %v", m.To)
	}
	cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
	if err != nil {
		t.Fatalf("invite does not parse: %v\n%s", err, body)
	}
	return ct, cal
}

// The calendar files e-mailed to a client follow RFC 5546/6047: the
// confirmation is a REQUEST and the cancellation a CANCEL, each with
// method= on the attachment's Content-Type, the practice as ORGANIZER and
// the client as ATTENDEE; and the client's cancellation raises SEQUENCE
// as the owner's does, so the cancellation outranks the invite.
func TestMail_InvitesAreFromThePracticeToTheClient(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			smtp := smtptest.Start(t)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			s, _ := placeShop(t, e)
			owner := e.Client()
			owner.Login("ana@example.com", "segredo1")
			if r := owner.Do("PUT", "/api/profile", map[string]any{"name": "Clínica Ana; Psicologia, \"Bem-estar\"", "email": "ana@example.com", "area": "Psicologia",
				"publicUsername": "ana", "contactEmail": "contato@clinica-ana.com.br"}); r.StatusCode != 200 {
				t.Fatalf("profile: %d %s", r.StatusCode, r.Body)
			}
			var b struct{ ID, Token string }
			r := bookAs(e, s, s.service, "09:00", "maria@example.com")
			if r.StatusCode != 201 {
				t.Fatalf("book: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &b)
			e.RunJobs()
			toMaria := func(from int) smtptest.Message {
				t.Helper()
				for _, m := range smtp.Messages()[from:] {
					if m.To[0] == "maria@example.com" {
						return m
					}
				}
				t.Fatal("no e-mail to the client")
				return smtptest.Message{}
			}
			check := func(m smtptest.Message, method string, sequence int) {
				t.Helper()
				ct, cal := calendarPart(t, m)
				mt, params, err := mime.ParseMediaType(ct)
				if err != nil || mt != "text/calendar" || params["method"] != method || !strings.EqualFold(params["charset"], "utf-8") {
					t.Errorf("attachment's Content-Type = %q, want text/calendar; charset=utf-8; method=%s", ct, method)
				}
				if got, _ := cal.Props.Text(ical.PropMethod); got != method {
					t.Errorf("METHOD:%s, want %s", got, method)
				}
				events := cal.Events()
				if len(events) != 1 {
					t.Fatalf("%d events", len(events))
				}
				ev := events[0]
				org := ev.Props.Get(ical.PropOrganizer)
				if org == nil || !strings.EqualFold(org.Value, "mailto:contato@clinica-ana.com.br") || org.Params.Get(ical.ParamCommonName) != "Clínica Ana; Psicologia, Bem-estar" {
					t.Errorf("ORGANIZER = %+v, want the practice", org)
				}
				att := ev.Props.Get(ical.PropAttendee)
				if att == nil || !strings.EqualFold(att.Value, "mailto:maria@example.com") || att.Params.Get(ical.ParamCommonName) != "Maria Silva" {
					t.Errorf("ATTENDEE = %+v, want the client", att)
				}
				if uid, _ := ev.Props.Text(ical.PropUID); uid != b.ID+"@agendei" {
					t.Errorf("UID %q", uid)
				}
				if seq, err := ev.Props.Get(ical.PropSequence).Int(); err != nil || seq != sequence {
					t.Errorf("SEQUENCE %d (%v), want %d", seq, err, sequence)
				}
			}
			check(toMaria(0), "REQUEST", 0)

			// The client cancels by the link: the downloaded cancellation is
			// the next revision, as the owner's cancellation e-mail would be.
			if r := e.Client().Do("POST", "/api/public/bookings/"+b.Token+"/cancel", nil); r.StatusCode != 200 {
				t.Fatalf("client cancel: %d %s", r.StatusCode, r.Body)
			}
			r = e.Client().Do("GET", "/api/public/bookings/"+b.Token+"/invite.ics", nil)
			cal, err := ical.NewDecoder(bytes.NewReader(r.Body)).Decode()
			if err != nil {
				t.Fatal(err)
			}
			if m, _ := cal.Props.Text(ical.PropMethod); m != "CANCEL" || len(cal.Events()) != 1 {
				t.Fatalf("client's cancellation: %s", r.Body)
			}
			ev := cal.Events()[0]
			if seq, _ := ev.Props.Get(ical.PropSequence).Int(); seq != 1 {
				t.Errorf("client's cancellation SEQUENCE %d, want 1 (raised)", seq)
			}
			if ev.Props.Get(ical.PropOrganizer) == nil || ev.Props.Get(ical.PropAttendee) == nil {
				t.Errorf("client's cancellation lacks ORGANIZER or ATTENDEE:\n%s", r.Body)
			}

			// The owner cancels another, telling the client: a CANCEL e-mail.
			var o struct{ ID string }
			r = bookAs(e, s, s.service, "10:00", "maria@example.com")
			if r.StatusCode != 201 {
				t.Fatalf("book: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &o)
			e.RunJobs()
			b.ID = o.ID
			before := len(smtp.Messages())
			if r := owner.Do("PATCH", "/api/appointments/"+o.ID, map[string]any{"status": "cancelled", "notifyClient": true}); r.StatusCode != 200 {
				t.Fatalf("owner cancel: %d %s", r.StatusCode, r.Body)
			}
			e.RunJobs()
			check(toMaria(before), "CANCEL", 1)
		})
	}
}

// The Pix e-mail shows the QR code in its body: an inline image part
// (multipart/related, Content-ID) that the HTML names by <img src="cid:…">,
// with the practice as Reply-To.
func TestMail_PixEmailShowsTheQRCodeInTheBody(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			smtp := smtptest.Start(t)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			s := openShop(t, e)
			withDeposit(t, e, s, 30)
			if r := book(e, s, nextMonday, "10:00"); r.StatusCode != 201 {
				t.Fatalf("book: %d %s", r.StatusCode, r.Body)
			}
			e.RunJobs()
			var pixMail *smtptest.Message
			for _, m := range smtp.Messages() {
				if m.To[0] == "maria@example.com" {
					pixMail = &m
				}
			}
			if pixMail == nil {
				t.Fatal("no Pix e-mail to the client")
			}
			if got := header(t, *pixMail).Get("Reply-To"); got != "<ana@example.com>" {
				t.Errorf("Reply-To = %q", got)
			}
			msg, err := netmail.ReadMessage(strings.NewReader(pixMail.Data))
			if err != nil {
				t.Fatal(err)
			}
			var html string
			var related bool
			images := map[string][]byte{} // by Content-ID
			var walk func(r io.Reader, ct string)
			walk = func(r io.Reader, ct string) {
				mt, params, _ := mime.ParseMediaType(ct)
				if mt == "multipart/related" {
					related = true
				}
				mr := multipart.NewReader(r, params["boundary"])
				for {
					p, err := mr.NextPart()
					if err != nil {
						return
					}
					pct := p.Header.Get("Content-Type")
					pmt, _, _ := mime.ParseMediaType(pct)
					body, _ := io.ReadAll(p) // quoted-printable is decoded by the reader
					if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "base64") {
						body, _ = base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(string(body)))
					}
					switch {
					case strings.HasPrefix(pmt, "multipart/"):
						walk(bytes.NewReader(body), pct)
					case pmt == "text/html":
						html = string(body)
					case pmt == "image/png" && related:
						if !strings.HasPrefix(p.Header.Get("Content-Disposition"), "inline") {
							t.Errorf("image part's Content-Disposition = %q, want inline", p.Header.Get("Content-Disposition"))
						}
						images[strings.Trim(p.Header.Get("Content-ID"), "<>")] = body
					}
				}
			}
			walk(msg.Body, msg.Header.Get("Content-Type"))
			if !related {
				t.Fatal("the Pix e-mail is not multipart/related")
			}
			m := regexp.MustCompile(`<img src="cid:([^"]+)"[^>]*alt="QR Code Pix do sinal de R\$ 30,00"`).FindStringSubmatch(html)
			if m == nil {
				t.Fatalf("no QR code image in the HTML:\n%s", html)
			}
			png, ok := images[m[1]]
			if !ok || !bytes.HasPrefix(png, []byte("\x89PNG")) {
				t.Errorf("no PNG part with Content-ID %q (parts: %d)", m[1], len(images))
			}
			if !strings.Contains(html, "QR Code abaixo") {
				t.Errorf("the text does not point to the QR code in the body:\n%s", html)
			}
		})
	}
}
