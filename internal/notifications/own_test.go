package notifications_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// ownBooking books through the owner's agenda (their own action).
func ownBooking(t *testing.T, c *servertest.Client, at string) {
	t.Helper()
	var pros []struct{ ID string }
	c.Do("GET", "/api/professionals", nil).JSON(t, &pros)
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	r := c.Do("POST", "/api/appointments", map[string]any{"professionalId": pros[0].ID, "serviceId": svcs[0].ID,
		"date": "2026-11-30", "time": at, "clientName": "Paciente do Telefone", "clientPhone": "11977776666"})
	if r.StatusCode != 201 {
		t.Fatalf("owner's booking: %d %s", r.StatusCode, r.Body)
	}
}

// TestNotifications_OwnersOwnBookingIsRecordedReadAClientsIsUnread: the
// badge counts what others did. The owner's own booking is in the list,
// already read; a client's public booking is unread.
func TestNotifications_OwnersOwnBookingIsRecordedReadAClientsIsUnread(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c, book := openShop(t, e)
		ownBooking(t, c, "09:00")
		var l list
		c.Do("GET", "/api/notifications", nil).JSON(t, &l)
		if l.Unread != 0 || len(l.Notifications) != 1 || l.Notifications[0].Title != "Agendamento criado" || !l.Notifications[0].Read {
			t.Fatalf("after the owner's own booking: %+v", l)
		}
		book(e, "10:00")
		c.Do("GET", "/api/notifications", nil).JSON(t, &l)
		// The test clock stands still: both were written at one instant, in either order.
		i := slices.IndexFunc(l.Notifications, func(n struct {
			ID, Type, Title string
			Read            bool
		}) bool {
			return n.Title == "Novo agendamento"
		})
		if l.Unread != 1 || len(l.Notifications) != 2 || i < 0 || l.Notifications[i].Read {
			t.Fatalf("after a client's booking: %+v", l)
		}
	})
}

type liveEvent struct {
	Name string
	Data struct {
		Self bool
		Note *struct{ ID, Title, Description string }
	}
}

// listenData opens the owner's event stream and returns its events with their data.
func listenData(t *testing.T, e *servertest.Env, token string) <-chan liveEvent {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", e.HTTP.URL+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", err, res)
	}
	out := make(chan liveEvent, 16)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		var ev liveEvent
		for sc.Scan() {
			line := sc.Text()
			if name, ok := strings.CutPrefix(line, "event: "); ok {
				ev = liveEvent{Name: name}
			} else if data, ok := strings.CutPrefix(line, "data: "); ok {
				if err := json.Unmarshal([]byte(data), &ev.Data); err != nil {
					t.Errorf("event %s: data %q: %v", ev.Name, data, err)
				}
			} else if line == "" && ev.Name != "" {
				out <- ev
				ev = liveEvent{}
			}
		}
	}()
	return out
}

func next(t *testing.T, ch <-chan liveEvent, name string) liveEvent {
	t.Helper()
	select {
	case ev := <-ch:
		if ev.Name != name {
			t.Fatalf("event %q, want %q", ev.Name, name)
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatalf("no %q event", name)
	}
	return liveEvent{}
}

// TestEvents_TheDeviceThatActedIsToldItWasItself: the owner signed in on two
// devices (two sign-ins) books on one. Both hear of it live, with the new
// notification; only the other device is told it was not itself, so only it
// announces it. A client's booking is news to every device. With PostgreSQL
// the second device listens on another server.
func TestEvents_TheDeviceThatActedIsToldItWasItself(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		phone, book := openShop(t, e)
		desk := e.Client()
		if r := desk.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("second sign-in: %d", r.StatusCode)
		}
		deskServer := e
		if e.DB.Dialect == db.Postgres {
			deskServer = e.Peer()
		}
		onPhone, onDesk := listenData(t, e, phone.Token), listenData(t, deskServer, desk.Token)
		next(t, onPhone, "ready")
		next(t, onDesk, "ready")

		ownBooking(t, phone, "09:00")
		mine, theirs := next(t, onPhone, "notifications"), next(t, onDesk, "notifications")
		if !mine.Data.Self || mine.Data.Note == nil || mine.Data.Note.Title != "Agendamento criado" {
			t.Fatalf("the device that booked: %+v", mine.Data)
		}
		if theirs.Data.Self || theirs.Data.Note == nil || theirs.Data.Note.Title != "Agendamento criado" || theirs.Data.Note.ID != mine.Data.Note.ID {
			t.Fatalf("the other device: %+v", theirs.Data)
		}
		next(t, onPhone, "agenda")
		next(t, onDesk, "agenda")

		book(e, "10:00")
		for _, ch := range []<-chan liveEvent{onPhone, onDesk} {
			ev := next(t, ch, "notifications")
			if ev.Data.Self || ev.Data.Note == nil || ev.Data.Note.Title != "Novo agendamento" {
				t.Fatalf("a client's booking: %+v", ev.Data)
			}
			next(t, ch, "agenda")
		}
	})
}
