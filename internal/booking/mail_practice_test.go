package booking_test

import (
	netmail "net/mail"
	"strings"
	"testing"

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
