package booking_test

import (
	"io"
	"mime/quotedprintable"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/mail/smtptest"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

const (
	addressLine = "Rua das Flores, 123, Sala 4 - Centro, São Paulo - SP, 01001-000"
	roomLink    = "https://meet.example.com/sala-da-ana"
)

// placeShop is openShop with an address, a fixed video-call room and a
// second service held online (at the room: it has no link of its own).
func placeShop(t *testing.T, e *servertest.Env) (s shop, online string) {
	s = openShop(t, e)
	c := e.Client()
	c.Login("ana@example.com", "segredo1")
	r := c.Do("PUT", "/api/profile", map[string]any{"name": "Ana", "email": "ana@example.com", "area": "Psicologia", "publicUsername": "ana",
		"address": map[string]string{"street": " Rua das  Flores", "number": "123", "complement": "Sala 4", "district": "Centro",
			"city": "São Paulo", "state": "sp", "cep": "01001000"},
		"roomLink": roomLink})
	if r.StatusCode != 200 {
		t.Fatalf("profile: %d %s", r.StatusCode, r.Body)
	}
	var svc struct {
		ID     string
		Online bool
	}
	r = c.Do("POST", "/api/services", map[string]any{"name": "Sessão online", "duration": 45, "priceCents": 15000, "online": true})
	if r.StatusCode != 201 {
		t.Fatalf("service: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &svc)
	if !svc.Online {
		t.Fatalf("service not online: %s", r.Body)
	}
	return s, svc.ID
}

func bookAs(e *servertest.Env, s shop, service, at, email string) *servertest.Response {
	return e.Client().Do("POST", "/api/public/profiles/ana/bookings", map[string]string{
		"professionalId": s.professional, "serviceId": service, "date": nextMonday, "time": at,
		"clientName": "Maria Silva", "clientPhone": "(11) 98888-7777", "clientEmail": email})
}

type placeCard struct {
	GoogleCalendarURL string
	Token             string
	Place             struct {
		Online                 bool
		Link, Address, MapsURL string
	}
}

// unfoldICS joins an iCalendar file's folded lines (RFC 5545 §3.1).
func unfoldICS(s string) string { return strings.ReplaceAll(s, "\r\n ", "") }

// decoded is a delivered message's text as a person reads it.
func decoded(raw string) string {
	b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(raw)))
	if err != nil {
		return unfold(raw)
	}
	return string(b)
}

func TestPlace_AddressAndOnlineLinkReachThePublicPageCardEmailAndInvite(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			smtp := smtptest.Start(t)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.SMTPURL = "smtp://" + smtp.Addr })
			s, online := placeShop(t, e)

			// The public page: the address with its map; the online service
			// marked so, its link kept for who books.
			r := e.Client().Do("GET", "/api/public/profiles/ana", nil)
			var page struct {
				Address, MapsURL string
				Services         []struct {
					Name   string
					Online bool
				}
			}
			r.JSON(t, &page)
			if page.Address != addressLine || page.MapsURL != "https://www.google.com/maps/search/?api=1&query="+url.QueryEscape(addressLine) {
				t.Fatalf("public address: %q %q", page.Address, page.MapsURL)
			}
			for _, sv := range page.Services {
				if sv.Online != (sv.Name == "Sessão online") {
					t.Errorf("service %s online=%v", sv.Name, sv.Online)
				}
			}
			if strings.Contains(string(r.Body), roomLink) {
				t.Error("the public page shows the room link to every visitor")
			}

			// In person: the card, Google Agenda, the e-mail and the invite say the address.
			var here, there placeCard
			if r := bookAs(e, s, s.service, "09:00", "maria@example.com"); r.StatusCode != 201 {
				t.Fatalf("book: %d %s", r.StatusCode, r.Body)
			} else {
				r.JSON(t, &here)
			}
			if here.Place.Online || here.Place.Address != addressLine || here.Place.MapsURL != page.MapsURL {
				t.Fatalf("card place: %+v", here.Place)
			}
			if !strings.Contains(here.GoogleCalendarURL, "location="+url.QueryEscape(addressLine)) {
				t.Errorf("Google Agenda link without the address: %s", here.GoogleCalendarURL)
			}
			// Online: the room link instead, everywhere.
			if r := bookAs(e, s, online, "10:00", "joao@example.com"); r.StatusCode != 201 {
				t.Fatalf("book online: %d %s", r.StatusCode, r.Body)
			} else {
				r.JSON(t, &there)
			}
			if !there.Place.Online || there.Place.Link != roomLink || there.Place.Address != "" {
				t.Fatalf("online card place: %+v", there.Place)
			}
			if !strings.Contains(there.GoogleCalendarURL, "location="+url.QueryEscape(roomLink)) || strings.Contains(there.GoogleCalendarURL, "Flores") {
				t.Errorf("Google Agenda link of the online service: %s", there.GoogleCalendarURL)
			}

			e.RunJobs()
			mails := map[string]string{}
			for _, m := range smtp.Messages() {
				mails[m.To[0]] = m.Data
			}
			// The .ics LOCATION, escaped (RFC 5545: commas get a backslash).
			wantLocation := `LOCATION:Rua das Flores\, 123\, Sala 4 - Centro\, São Paulo - SP\, 01001-000` + "\r\n"
			for _, c := range []struct {
				to, location string
				says         []string
				not          string
			}{
				{"maria@example.com", wantLocation, []string{"Local", addressLine, "Ver no mapa", page.MapsURL}, roomLink},
				{"joao@example.com", "LOCATION:" + roomLink + "\r\n", []string{"Atendimento online", roomLink, "Entrar na videochamada"}, "Flores"},
			} {
				raw, ok := mails[c.to]
				if !ok {
					t.Fatalf("no e-mail to %s (got %d)", c.to, len(mails))
				}
				text := decoded(raw)
				for _, want := range c.says {
					if !strings.Contains(text, want) {
						t.Errorf("e-mail to %s lacks %q", c.to, want)
					}
				}
				ics := unfoldICS(servertest.Mail{Raw: raw}.Calendar(t))
				if !strings.Contains(ics, c.location) {
					t.Errorf("invite to %s lacks %q:\n%s", c.to, c.location, ics)
				}
				if strings.Contains(ics, c.not) {
					t.Errorf("invite to %s says %q", c.to, c.not)
				}
			}
			// The owner's e-mail says where too.
			if owner := decoded(mails["ana@example.com"]); !strings.Contains(owner, addressLine) && !strings.Contains(owner, roomLink) {
				t.Error("the owner's e-mail does not say where")
			}

			// The card's download is the same invite.
			res := e.Client().Do("GET", "/api/public/bookings/"+there.Token+"/invite.ics", nil)
			if res.StatusCode != 200 || !strings.Contains(unfoldICS(string(res.Body)), "LOCATION:"+roomLink+"\r\n") {
				t.Fatalf("invite download: %d %s", res.StatusCode, res.Body)
			}

			// The reminder, a day before, says where too.
			e.Clock.Set(time.Date(2026, 11, 29, 13, 30, 0, 0, time.UTC))
			e.RunJobs()
			reminded := 0
			for _, m := range smtp.Messages() {
				if text := decoded(m.Data); strings.Contains(text, "Lembrete") {
					reminded++
					if want := map[string]string{"maria@example.com": addressLine, "joao@example.com": roomLink}[m.To[0]]; !strings.Contains(text, want) {
						t.Errorf("reminder to %s lacks %q", m.To[0], want)
					}
				}
			}
			if reminded != 2 {
				t.Errorf("%d reminders, want 2", reminded)
			}

			// A service's own link wins over the room.
			c := e.Client()
			c.Login("ana@example.com", "segredo1")
			own := "https://meet.example.com/sessao-online?pwd=a,b;c"
			if r := c.Do("PUT", "/api/services/"+online, map[string]any{"name": "Sessão online", "duration": 45, "priceCents": 15000, "onlineLink": own}); r.StatusCode != 200 {
				t.Fatalf("service link: %d %s", r.StatusCode, r.Body)
			}
			res = e.Client().Do("GET", "/api/public/bookings/"+there.Token+"/invite.ics", nil)
			if !strings.Contains(unfoldICS(string(res.Body)), `LOCATION:https://meet.example.com/sessao-online?pwd=a\,b\;c`+"\r\n") {
				t.Fatalf("invite after the service's own link:\n%s", res.Body)
			}
		})
	}
}

func TestPlace_OnlineLinksMustBeHTTPS(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		openShop(t, e)
		c := e.Client()
		c.Login("ana@example.com", "segredo1")
		for _, link := range []string{"http://meet.example.com/x", "meet.example.com/x", "https://", "javascript:alert(1)", "https://a b.com"} {
			r := c.Do("POST", "/api/services", map[string]any{"name": "Online", "duration": 30, "priceCents": 0, "online": true, "onlineLink": link})
			if r.StatusCode != 400 || !strings.Contains(r.Err(t).Error.Message, "https://") {
				t.Errorf("service link %q: %d %s", link, r.StatusCode, r.Body)
			}
			r = c.Do("PUT", "/api/profile", map[string]any{"name": "Ana", "email": "ana@example.com", "area": "Psicologia", "publicUsername": "ana", "roomLink": link})
			if r.StatusCode != 400 {
				t.Errorf("room link %q: %d %s", link, r.StatusCode, r.Body)
			}
		}
	})
}
