package agenda_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/emersion/go-ical"

	"github.com/agendei/agendei/internal/server/servertest"
)

// Each event of an owner's calendar feed says where its appointment
// happens, by the rule of every other message (internal/place): the
// practice's address, or — for a service held online — its own video-call
// link or else the owner's room; RFC 5545 escaped as the client's invite
// is. A deleted service leaves the address, and a practice without an
// address writes no LOCATION.
func TestCalendarFeed_EventsSayWhereTheAppointmentHappens(t *testing.T) {
	const (
		addressLine = "Rua das Flores, 123, Sala 4 - Centro, São Paulo - SP, 01001-000"
		room        = "https://meet.example.com/sala-da-dona"
		ownLink     = "https://meet.example.com/grupo?pwd=a,b;c"
	)
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona") // now 2026-11-23 09:00 in São Paulo
		if r := s.owner.Do("PUT", "/api/profile", map[string]any{"name": "Dona", "email": "dona@example.com", "area": "Psi", "publicUsername": "dona",
			"address": map[string]string{"street": "Rua das Flores", "number": "123", "complement": "Sala 4", "district": "Centro",
				"city": "São Paulo", "state": "SP", "cep": "01001-000"},
			"roomLink": room}); r.StatusCode != 200 {
			t.Fatalf("profile: %d %s", r.StatusCode, r.Body)
		}
		service := func(body map[string]any) string {
			t.Helper()
			var svc struct{ ID string }
			r := s.owner.Do("POST", "/api/services", body)
			if r.StatusCode != 201 {
				t.Fatalf("service: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &svc)
			return svc.ID
		}
		atRoom := service(map[string]any{"name": "Sessão online", "duration": 60, "priceCents": 10000, "online": true})
		withLink := service(map[string]any{"name": "Grupo online", "duration": 60, "priceCents": 5000, "online": true, "onlineLink": ownLink})
		gone := service(map[string]any{"name": "Avaliação online", "duration": 60, "priceCents": 5000, "online": true})
		book := func(svc, date, at string) string {
			t.Helper()
			var a struct{ ID string }
			r := s.create(map[string]any{"serviceId": svc, "date": date, "time": at})
			if r.StatusCode != 201 {
				t.Fatalf("create: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &a)
			return a.ID
		}
		here := book(s.svc, "2026-11-25", "09:00")
		onRoom := book(atRoom, "2026-11-25", "11:00")
		onLink := book(withLink, "2026-11-25", "13:00")
		deleted := book(gone, "2026-11-25", "15:00")
		if r := s.owner.Do("DELETE", "/api/services/"+gone, nil); r.StatusCode/100 != 2 {
			t.Fatalf("delete service: %d %s", r.StatusCode, r.Body)
		}

		fetch := func(owner *servertest.Client) []byte {
			t.Helper()
			var feed struct{ URL string }
			owner.Do("POST", "/api/calendar-feeds", map[string]any{"professionalId": nil}).JSON(t, &feed)
			res, err := http.Get(e.HTTP.URL + feed.URL[strings.Index(feed.URL, "/calendar/"):])
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var b bytes.Buffer
			_, _ = b.ReadFrom(res.Body)
			if res.StatusCode != 200 {
				t.Fatalf("feed: %d %s", res.StatusCode, b.Bytes())
			}
			return b.Bytes()
		}
		body := fetch(s.owner)
		cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
		if err != nil {
			t.Fatalf("not iCalendar: %v\n%s", err, body)
		}
		got := map[string]string{}
		for _, ev := range cal.Events() {
			uid, _ := ev.Props.Text(ical.PropUID)
			got[strings.TrimSuffix(uid, "@agendei")], _ = ev.Props.Text(ical.PropLocation)
		}
		for id, want := range map[string]string{here: addressLine, onRoom: room, onLink: ownLink, deleted: addressLine} {
			if got[id] != want {
				t.Errorf("LOCATION of %s: %q, want %q\n%s", id, got[id], want, body)
			}
		}
		// Escaped as the client's invite escapes it (commas and semicolons
		// get a backslash), line by line as written.
		unfolded := strings.ReplaceAll(string(body), "\r\n ", "")
		for _, line := range []string{
			`LOCATION:Rua das Flores\, 123\, Sala 4 - Centro\, São Paulo - SP\, 01001-000` + "\r\n",
			"LOCATION:" + room + "\r\n",
			`LOCATION:https://meet.example.com/grupo?pwd=a\,b\;c` + "\r\n",
		} {
			if !strings.Contains(unfolded, line) {
				t.Errorf("the feed lacks %q:\n%s", line, unfolded)
			}
		}

		// A practice with no address and no room: no LOCATION at all.
		other := setup(t, e, "outra@example.com", "outra")
		other.create(map[string]any{"date": "2026-11-25", "time": "09:00"})
		if body := fetch(other.owner); bytes.Contains(body, []byte("LOCATION")) || !bytes.Contains(body, []byte("BEGIN:VEVENT")) {
			t.Fatalf("a feed without an address:\n%s", body)
		}
	})
}
