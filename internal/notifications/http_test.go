package notifications_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// openShop sets up owner "ana" with a service and professional, and returns a
// function that books the next free hour through the public API.
func openShop(t *testing.T, e *servertest.Env) (*servertest.Client, func(on *servertest.Env, at string)) {
	c := e.Client()
	c.Signup("Ana", "ana@example.com", "segredo1", "gato")
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "20:00"})
	}
	c.Do("POST", "/api/onboarding", map[string]any{"name": "Ana", "area": "Psi", "publicUsername": "ana",
		"services": []map[string]any{{"name": "Sessão", "duration": 30, "priceCents": 100}}, "days": days})
	var pro struct{ ID string }
	c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psi"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	book := func(on *servertest.Env, at string) {
		r := on.Client().Do("POST", "/api/public/profiles/ana/bookings", map[string]string{"professionalId": pro.ID, "serviceId": svcs[0].ID,
			"date": "2026-11-30", "time": at, "clientName": "Maria", "clientPhone": "11988887777"})
		if r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
	}
	return c, book
}

type list struct {
	Unread        int
	Notifications []struct {
		ID, Type, Title string
		Read            bool
	}
}

func TestNotifications_ListReadAllDeleteAndTenancy(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c, book := openShop(t, e)
		book(e, "09:00")
		book(e, "10:00")
		var l list
		c.Do("GET", "/api/notifications", nil).JSON(t, &l)
		if l.Unread != 2 || len(l.Notifications) != 2 || l.Notifications[0].Type != "appointment" || l.Notifications[0].Title != "Novo agendamento" {
			t.Fatalf("%+v", l)
		}
		first := l.Notifications[0].ID
		other := e.Client()
		other.Signup("Bia", "bia@example.com", "segredo1", "gato")
		if r := other.Do("PATCH", "/api/notifications/"+first, map[string]bool{"read": true}); r.StatusCode != 404 {
			t.Fatalf("another owner marks: %d", r.StatusCode)
		}
		if r := other.Do("DELETE", "/api/notifications/"+first, nil); r.StatusCode != 404 {
			t.Fatalf("another owner deletes: %d", r.StatusCode)
		}
		c.Do("PATCH", "/api/notifications/"+first, map[string]bool{"read": true})
		c.Do("GET", "/api/notifications", nil).JSON(t, &l)
		if l.Unread != 1 {
			t.Fatalf("after one read: %d", l.Unread)
		}
		c.Do("POST", "/api/notifications/read-all", nil)
		c.Do("GET", "/api/notifications", nil).JSON(t, &l)
		if l.Unread != 0 {
			t.Fatalf("after read-all: %d", l.Unread)
		}
		if r := c.Do("DELETE", "/api/notifications/"+first, nil); r.StatusCode != 204 {
			t.Fatal(r.StatusCode)
		}
		c.Do("GET", "/api/notifications", nil).JSON(t, &l)
		if len(l.Notifications) != 1 {
			t.Fatalf("after delete: %d", len(l.Notifications))
		}
	})
}

// listen opens the owner's event stream on a server and returns its event names.
func listen(t *testing.T, e *servertest.Env, token string) <-chan string {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", e.HTTP.URL+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %v", res.StatusCode, res.Header)
	}
	out := make(chan string, 16)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				out <- name
			}
		}
	}()
	return out
}

func expect(t *testing.T, ch <-chan string, want string) {
	t.Helper()
	select {
	case got := <-ch:
		if got != want {
			t.Fatalf("event %q, want %q", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no %q event", want)
	}
}

func TestEvents_ABookingReachesTheOwnersOpenTab(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c, book := openShop(t, e)
		stream := listen(t, e, c.Token)
		expect(t, stream, "ready")
		book(e, "09:00")
		expect(t, stream, "notifications")
		expect(t, stream, "agenda") // a booking changes what the agenda, dashboard and reports count
		// Marking it read is a change too, of the notifications alone.
		var l list
		c.Do("GET", "/api/notifications", nil).JSON(t, &l)
		c.Do("PATCH", "/api/notifications/"+l.Notifications[0].ID, map[string]bool{"read": true})
		expect(t, stream, "notifications")
		// Anonymous visitors have no stream.
		if r := e.Client().Do("GET", "/api/events", nil); r.StatusCode != 401 {
			t.Fatalf("anonymous: %d", r.StatusCode)
		}
	})
}

func TestEvents_CrossServersThroughPostgres(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		if e.DB.Dialect != db.Postgres {
			t.Skip("with SQLite Agendei runs as one process; events stay in memory")
		}
		c, book := openShop(t, e)
		peer := e.Peer()
		stream := listen(t, peer, c.Token) // the tab is connected to the other server
		expect(t, stream, "ready")
		book(e, "11:00") // the booking goes through the first
		expect(t, stream, "notifications")
		expect(t, stream, "agenda")
	})
}
