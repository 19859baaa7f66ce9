package agenda_test

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"github.com/agendei/agendei/internal/server/servertest"
)

// An owner's private calendar feed is a valid iCalendar that a calendar
// app reads without a session: the appointments that hold time from 30
// days ago to 90 ahead, in the owner's zone, with no client e-mail; a
// professional's feed has only theirs; a new link or a revoke ends the old.
func TestCalendarFeed_IsValidICalendarOfTheHoldingAppointments(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona") // now 2026-11-23 09:00 in São Paulo
		var bia struct{ ID string }
		s.owner.Do("POST", "/api/professionals", map[string]string{"name": "Bia", "specialization": "Nutricionista"}).JSON(t, &bia)
		id := func(r *servertest.Response) string {
			t.Helper()
			var a struct{ ID string }
			if r.StatusCode != 201 {
				t.Fatalf("create: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &a)
			return a.ID
		}
		ana := id(s.create(map[string]any{"date": "2026-11-25", "time": "14:30", "clientName": "Carla; Dias, Jr", "clientEmail": "carla@example.com", "notes": "Primeira consulta"}))
		cancelled := id(s.create(map[string]any{"date": "2026-11-26", "time": "10:00"}))
		s.owner.Do("PATCH", "/api/appointments/"+cancelled, map[string]any{"status": "cancelled"})
		done := id(s.create(map[string]any{"date": "2026-11-13", "time": "09:00"}))
		s.owner.Do("PATCH", "/api/appointments/"+done, map[string]any{"status": "completed"})
		id(s.create(map[string]any{"date": "2026-10-01", "time": "09:00"})) // more than 30 days ago
		id(s.create(map[string]any{"date": "2027-03-10", "time": "09:00"})) // more than 90 days ahead
		other := id(s.create(map[string]any{"professionalId": bia.ID, "date": "2026-11-27", "time": "11:00"}))

		var feed struct{ ID, URL string }
		r := s.owner.Do("POST", "/api/calendar-feeds", map[string]any{"professionalId": nil})
		if r.StatusCode != 201 {
			t.Fatalf("feed: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &feed)
		if !strings.Contains(feed.URL, "/calendar/") || !strings.HasSuffix(feed.URL, ".ics") {
			t.Fatalf("feed url %q", feed.URL)
		}
		fetch := func(url string) (int, []byte) {
			t.Helper()
			path := url[strings.Index(url, "/calendar/"):]
			res, err := http.Get(e.HTTP.URL + path) // a calendar app: no session, no headers
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var b bytes.Buffer
			_, _ = b.ReadFrom(res.Body)
			if res.StatusCode == 200 && !strings.HasPrefix(res.Header.Get("Content-Type"), "text/calendar") {
				t.Fatalf("content type %q", res.Header.Get("Content-Type"))
			}
			return res.StatusCode, b.Bytes()
		}
		parse := func(body []byte) map[string]*ical.Event {
			t.Helper()
			cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
			if err != nil {
				t.Fatalf("not iCalendar: %v\n%s", err, body)
			}
			if len(cal.Children) == 0 || cal.Children[0].Name != ical.CompTimezone {
				t.Fatalf("the zone comes first:\n%s", body)
			}
			out := map[string]*ical.Event{}
			for _, ev := range cal.Events() {
				uid, _ := ev.Props.Text(ical.PropUID)
				out[strings.TrimSuffix(uid, "@agendei")] = &ev
			}
			return out
		}
		status, body := fetch(feed.URL)
		if status != 200 {
			t.Fatalf("feed: %d %s", status, body)
		}
		if bytes.Contains(body, []byte("@example.com")) {
			t.Fatalf("a client's e-mail is in the feed:\n%s", body)
		}
		events := parse(body)
		var uids []string
		for uid := range events {
			uids = append(uids, uid)
		}
		if want := []string{ana, done, other}; !sameSet(uids, want) {
			t.Fatalf("events %v, want %v", uids, want)
		}
		loc, _ := time.LoadLocation("America/Sao_Paulo")
		start, err := events[ana].DateTimeStart(loc)
		if err != nil || !start.Equal(time.Date(2026, 11, 25, 14, 30, 0, 0, loc)) {
			t.Fatalf("start %v %v", start, err)
		}
		if p := events[ana].Props.Get(ical.PropDateTimeStart); p.Params.Get(ical.ParamTimezoneID) != "America/Sao_Paulo" {
			t.Fatalf("DTSTART without the zone: %+v", p)
		}
		summary, _ := events[ana].Props.Text(ical.PropSummary)
		desc, _ := events[ana].Props.Text(ical.PropDescription)
		if summary != "Sessão — Carla; Dias, Jr" || desc != "Cliente: Carla; Dias, Jr\nProfissional: Ana" {
			t.Fatalf("summary %q description %q", summary, desc)
		}

		// Bia's own feed has only hers.
		var biaFeed struct{ URL string }
		s.owner.Do("POST", "/api/calendar-feeds", map[string]any{"professionalId": bia.ID}).JSON(t, &biaFeed)
		_, body = fetch(biaFeed.URL)
		if got := parse(body); len(got) != 1 || got[other] == nil {
			t.Fatalf("Bia's feed: %v", got)
		}
		// The list names both, without their addresses.
		r = s.owner.Do("GET", "/api/calendar-feeds", nil)
		if strings.Contains(string(r.Body), "/calendar/") || strings.Count(string(r.Body), `"id"`) != 2 {
			t.Fatalf("list: %s", r.Body)
		}
		// A new link for the practice ends the old one; revoking ends the new one.
		var again struct{ ID, URL string }
		s.owner.Do("POST", "/api/calendar-feeds", map[string]any{}).JSON(t, &again)
		if st, _ := fetch(feed.URL); st != 404 {
			t.Fatalf("old link after a new one: %d", st)
		}
		if st, _ := fetch(again.URL); st != 200 {
			t.Fatalf("new link: %d", st)
		}
		stranger := setup(t, e, "outra@example.com", "outra")
		if r := stranger.owner.Do("DELETE", "/api/calendar-feeds/"+again.ID, nil); r.StatusCode != 404 {
			t.Fatalf("another owner's revoke: %d", r.StatusCode)
		}
		if r := stranger.owner.Do("POST", "/api/calendar-feeds", map[string]any{"professionalId": bia.ID}); r.StatusCode != 400 {
			t.Fatalf("another owner's professional: %d", r.StatusCode)
		}
		if r := s.owner.Do("DELETE", "/api/calendar-feeds/"+again.ID, nil); r.StatusCode != 204 {
			t.Fatalf("revoke: %d", r.StatusCode)
		}
		if st, _ := fetch(again.URL); st != 404 {
			t.Fatalf("revoked link: %d", st)
		}
		if st, _ := fetch(e.HTTP.URL + "/calendar/nada.ics"); st != 404 {
			t.Fatalf("unknown token: %d", st)
		}
	})
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// "Gerar link" pressed many times at once, on two instances of the server,
// answers every press as one press does (201 with a new address, the one
// before it replaced): the presses fall in some order, the scope keeps one
// row, and only the address of the last one works.
func TestCalendarFeed_ConcurrentCreatesOnTwoServersAnswerLikeOne(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		peer := e.Peer()
		other := peer.Client()
		other.Token = s.owner.Token
		const n = 12
		var wg sync.WaitGroup
		urls := make(chan string, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := s.owner
				if i%2 == 1 {
					c = other
				}
				r := c.Do("POST", "/api/calendar-feeds", map[string]any{"professionalId": nil})
				var f struct{ URL string }
				if r.StatusCode != 201 {
					t.Errorf("create %d: %d %s", i, r.StatusCode, r.Body)
					return
				}
				r.JSON(t, &f)
				urls <- f.URL
			}()
		}
		wg.Wait()
		close(urls)
		var rows int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM calendar_feeds WHERE user_id = ?`, s.ownerID).Scan(&rows); err != nil || rows != 1 {
			t.Fatalf("%d rows for the practice's scope, %v", rows, err)
		}
		working := 0
		for u := range urls {
			res, err := http.Get(e.HTTP.URL + u[strings.Index(u, "/calendar/"):])
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode == 200 {
				working++
			} else if res.StatusCode != 404 {
				t.Errorf("feed: %d", res.StatusCode)
			}
		}
		if working != 1 {
			t.Fatalf("%d addresses work, want the last one alone", working)
		}
	})
}

// A calendar provider keeps what it reads: a feed says the client's name,
// the service and the professional; the phone only once the owner ticks it
// for that feed (the address stays the same); the notes never.
func TestCalendarFeed_CarriesNoNotesAndThePhoneOnlyWhenTicked(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		if r := s.create(map[string]any{"date": "2026-11-25", "time": "14:30", "clientName": "Carla Dias", "notes": "Diagnóstico: ansiedade"}); r.StatusCode != 201 {
			t.Fatalf("create: %d %s", r.StatusCode, r.Body)
		}
		var feed struct {
			ID, URL      string
			IncludePhone bool
		}
		s.owner.Do("POST", "/api/calendar-feeds", map[string]any{}).JSON(t, &feed)
		fetch := func() string {
			t.Helper()
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
			return b.String()
		}
		unfold := func(ics string) string { return strings.ReplaceAll(ics, "\r\n ", "") }
		body := unfold(fetch())
		if feed.IncludePhone || !strings.Contains(body, "Cliente: Carla Dias") || !strings.Contains(body, "Profissional: Ana") || !strings.Contains(body, "Sessão") {
			t.Fatalf("feed %+v:\n%s", feed, body)
		}
		for _, secret := range []string{"ansiedade", "Observações", "Telefone", "97777", "7777-6666"} {
			if strings.Contains(body, secret) {
				t.Fatalf("%q in the default feed:\n%s", secret, body)
			}
		}

		r := s.owner.Do("PATCH", "/api/calendar-feeds/"+feed.ID, map[string]bool{"includePhone": true})
		var changed struct{ IncludePhone bool }
		if r.StatusCode != 200 {
			t.Fatalf("tick: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &changed)
		var list struct{ Feeds []struct{ IncludePhone bool } }
		s.owner.Do("GET", "/api/calendar-feeds", nil).JSON(t, &list)
		if !changed.IncludePhone || len(list.Feeds) != 1 || !list.Feeds[0].IncludePhone {
			t.Fatalf("ticked: %s, list %+v", r.Body, list)
		}
		body = unfold(fetch()) // the same address
		if !strings.Contains(body, "Telefone: 11977776666") || strings.Contains(body, "ansiedade") {
			t.Fatalf("ticked feed:\n%s", body)
		}
		// A new link is made with the owner's choice for it (the page sends the current one).
		s.owner.Do("POST", "/api/calendar-feeds", map[string]any{"includePhone": true}).JSON(t, &feed)
		if body = unfold(fetch()); !feed.IncludePhone || !strings.Contains(body, "Telefone: 11977776666") {
			t.Fatalf("new link with the phone %+v:\n%s", feed, body)
		}
		if r := s.owner.Do("PATCH", "/api/calendar-feeds/"+feed.ID, map[string]any{}); r.StatusCode != 400 {
			t.Fatalf("no choice: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("PATCH", "/api/calendar-feeds/nada", map[string]bool{"includePhone": false}); r.StatusCode != 404 {
			t.Fatalf("unknown feed: %d %s", r.StatusCode, r.Body)
		}
	})
}
