package booking_test

import (
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"net/url"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/mail/smtptest"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// A cancellation's e-mails say where the appointment would have happened,
// as the confirmation did: the client's (the owner cancelled) 'Local' with
// the address and 'Ver no mapa', or 'Atendimento online' with the link (no
// button into a call that no longer happens), and its .ics LOCATION; the
// owner's (the client cancelled by the link) the same row.
func TestPlace_CancellationEmailsSayWhere(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			smtp := smtptest.Start(t)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			s, online := placeShop(t, e)
			mapsURL := "https://www.google.com/maps/search/?api=1&query=" + url.QueryEscape(addressLine)
			book := func(service, date, at, email string) (id, token string) {
				t.Helper()
				var b struct{ ID, Token string }
				r := e.Client().Do("POST", "/api/public/profiles/ana/bookings", map[string]string{
					"professionalId": s.professional, "serviceId": service, "date": date, "time": at,
					"clientName": "Maria Silva", "clientPhone": "(11) 98888-7777", "clientEmail": email})
				if r.StatusCode != 201 {
					t.Fatalf("book %s: %d %s", at, r.StatusCode, r.Body)
				}
				r.JSON(t, &b)
				return b.ID, b.Token
			}
			here, _ := book(s.service, nextMonday, "09:00", "maria@example.com")
			there, _ := book(online, nextMonday, "10:00", "joao@example.com")
			_, hereToken := book(s.service, "2026-12-07", "09:00", "rita@example.com")
			_, thereToken := book(online, "2026-12-07", "10:00", "caio@example.com")
			e.RunJobs()
			before := len(smtp.Messages())

			// The owner cancels two, telling the clients.
			owner := e.Client()
			owner.Login("ana@example.com", "segredo1")
			for _, id := range []string{here, there} {
				if r := owner.Do("PATCH", "/api/appointments/"+id, map[string]any{"status": "cancelled", "notifyClient": true}); r.StatusCode != 200 {
					t.Fatalf("owner cancel: %d %s", r.StatusCode, r.Body)
				}
			}
			// Two clients cancel by their links, and the owner is told.
			for _, token := range []string{hereToken, thereToken} {
				if r := e.Client().Do("POST", "/api/public/bookings/"+token+"/cancel", nil); r.StatusCode != 200 {
					t.Fatalf("client cancel: %d %s", r.StatusCode, r.Body)
				}
			}
			e.RunJobs()
			sent := smtp.Messages()[before:]
			clients := map[string]string{}
			var owners []string
			for _, m := range sent {
				if m.To[0] == "ana@example.com" {
					owners = append(owners, plainText(t, m.Data))
				} else {
					clients[m.To[0]] = m.Data
				}
			}

			for _, c := range []struct {
				to, location string
				says, not    []string
			}{
				{"maria@example.com", `LOCATION:Rua das Flores\, 123\, Sala 4 - Centro\, São Paulo - SP\, 01001-000` + "\r\n",
					[]string{"cancelou o seu agendamento", "Local: " + addressLine, "Ver no mapa: " + mapsURL}, []string{roomLink}},
				{"joao@example.com", "LOCATION:" + roomLink + "\r\n",
					[]string{"cancelou o seu agendamento", "Atendimento online: " + roomLink}, []string{"Flores", "Entrar na videochamada"}},
			} {
				raw, ok := clients[c.to]
				if !ok {
					t.Fatalf("no cancellation to %s (got %v)", c.to, clients)
				}
				text := plainText(t, raw)
				for _, want := range c.says {
					if !strings.Contains(text, want) {
						t.Errorf("cancellation to %s lacks %q:\n%s", c.to, want, text)
					}
				}
				for _, not := range c.not {
					if strings.Contains(text, not) {
						t.Errorf("cancellation to %s says %q", c.to, not)
					}
				}
				ics := unfoldICS(servertest.Mail{Raw: raw}.Calendar(t))
				if !strings.Contains(ics, "METHOD:CANCEL") || !strings.Contains(ics, c.location) {
					t.Errorf("cancellation invite to %s lacks %q:\n%s", c.to, c.location, ics)
				}
			}

			if len(owners) != 2 {
				t.Fatalf("%d e-mails to the owner, want 2", len(owners))
			}
			var inPerson, onLine string
			for _, o := range owners {
				if strings.Contains(o, "Local: "+addressLine) {
					inPerson = o
				}
				if strings.Contains(o, "Atendimento online: "+roomLink) {
					onLine = o
				}
			}
			if inPerson == "" || onLine == "" || inPerson == onLine || strings.Contains(onLine, "Flores") {
				t.Errorf("the owner's cancellations do not say where:\n%s\n%s", owners[0], owners[1])
			}
		})
	}
}

// plainText is a delivered message's text/plain part, decoded.
func plainText(t *testing.T, raw string) string {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(r io.Reader, ct string) string
	walk = func(r io.Reader, ct string) string {
		mt, params, _ := mime.ParseMediaType(ct)
		if !strings.HasPrefix(mt, "multipart/") {
			return ""
		}
		mr := multipart.NewReader(r, params["boundary"])
		for {
			p, err := mr.NextPart() // undoes quoted-printable
			if err != nil {
				return ""
			}
			pct := p.Header.Get("Content-Type")
			if strings.HasPrefix(pct, "text/plain") {
				b, _ := io.ReadAll(p)
				return string(b)
			}
			if s := walk(p, pct); s != "" {
				return s
			}
		}
	}
	out := walk(msg.Body, msg.Header.Get("Content-Type"))
	if out == "" {
		t.Fatalf("no text/plain part:\n%s", raw)
	}
	return out
}
