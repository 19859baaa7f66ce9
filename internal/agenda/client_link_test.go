package agenda_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// bookByPhone books on dona's public page with a phone and no e-mail, and
// returns the appointment's id and the client's first private token (the
// confirmation card's link).
func bookByPhone(t *testing.T, e *servertest.Env, s *shop, date, at string) (id, token string) {
	t.Helper()
	c := e.Client()
	c.ForwardedFor = "10.9.9.9"
	var b struct{ ID, Token string }
	r := c.Do("POST", "/api/public/profiles/dona/bookings", map[string]string{"professionalId": s.pro, "serviceId": s.svc, "date": date, "time": at,
		"clientName": "Rosa Alves", "clientPhone": "(11) 96666-5555"})
	if r.StatusCode != 201 {
		t.Fatalf("book: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &b)
	if b.Token == "" {
		t.Fatalf("no private token in the booking's answer: %s", r.Body)
	}
	return b.ID, b.Token
}

// freshLink asks for a new private link as the owner would ({link_cliente})
// and returns its token.
func freshLink(t *testing.T, e *servertest.Env, owner *servertest.Client, id string) string {
	t.Helper()
	var out struct{ URL string }
	r := owner.Do("POST", "/api/appointments/"+id+"/client-link", nil)
	if r.StatusCode != 201 {
		t.Fatalf("client link: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	// The server's configured base URL (servertest's listener comes after it).
	_, token, ok := strings.Cut(out.URL, "/cancel/")
	if !ok || token == "" || !strings.HasPrefix(out.URL, "http") {
		t.Fatalf("client link %q is not <base URL>/cancel/<token>", out.URL)
	}
	return token
}

type page struct {
	Date, Time, Status string
	Cancellable        bool
	Code               string
}

// open reads the client's page behind a token.
func open(t *testing.T, e *servertest.Env, token string) (int, page) {
	t.Helper()
	var p page
	r := e.Client().Do("GET", "/api/public/bookings/"+token, nil)
	if r.StatusCode == 200 {
		r.JSON(t, &p)
	} else {
		p.Code = r.Err(t).Error.Code
	}
	return r.StatusCode, p
}

// A client who booked with a phone only manages the booking through links:
// the one the card showed, and fresh ones the owner sends; a fresh link
// never breaks the older ones, and each of them moves and cancels it.
func TestClientLink_ABookingWithoutEmailIsManagedThroughItsLinks(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		id, first := bookByPhone(t, e, s, "2026-11-26", "10:00")
		one := freshLink(t, e, s.owner, id)
		two := freshLink(t, e, s.owner, id)
		if one == two || one == first {
			t.Fatalf("links repeat: %s %s %s", first, one, two)
		}
		for _, tok := range []string{first, one, two} {
			if st, p := open(t, e, tok); st != 200 || p.Date != "2026-11-26" || !p.Cancellable {
				t.Fatalf("link %s: %d %+v", tok, st, p)
			}
		}
		// The first fresh link moves it; every link shows the new time.
		if r := e.Client().Do("POST", "/api/public/bookings/"+one+"/reschedule", map[string]string{"date": "2026-11-27", "time": "11:00"}); r.StatusCode != 200 {
			t.Fatalf("reschedule by a fresh link: %d %s", r.StatusCode, r.Body)
		}
		for _, tok := range []string{first, two} {
			if st, p := open(t, e, tok); st != 200 || p.Date != "2026-11-27" || p.Time != "11:00" {
				t.Fatalf("after the move, link %s: %d %+v", tok, st, p)
			}
		}
		if r := e.Client().Do("GET", "/api/public/bookings/"+two+"/invite.ics", nil); r.StatusCode != 200 || !strings.Contains(string(r.Body), "DTSTART") {
			t.Fatalf("invite by a fresh link: %d", r.StatusCode)
		}
		// The second one cancels it; the first link says so.
		if r := e.Client().Do("POST", "/api/public/bookings/"+two+"/cancel", nil); r.StatusCode != 200 {
			t.Fatalf("cancel by a fresh link: %d %s", r.StatusCode, r.Body)
		}
		if st, p := open(t, e, first); st != 200 || p.Status != "cancelled" {
			t.Fatalf("first link after the cancel: %d %+v", st, p)
		}
	})
}

// A fresh link works until the appointment ends (its start plus its
// duration), then says it expired; the booking's first link stays, and an
// ended appointment gets no new link.
func TestClientLink_ExpiresWhenTheAppointmentEnds(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		id, first := bookByPhone(t, e, s, "2026-11-26", "10:00") // 13:00–14:00 UTC
		fresh := freshLink(t, e, s.owner, id)
		e.Clock.Set(time.Date(2026, 11, 26, 13, 59, 0, 0, time.UTC))
		if st, _ := open(t, e, fresh); st != 200 {
			t.Fatalf("a minute before the end: %d", st)
		}
		e.Clock.Set(time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC))
		if st, p := open(t, e, fresh); st != 404 || p.Code != "link_expired" {
			t.Fatalf("at the end: %d %+v", st, p)
		}
		for _, path := range []string{"/invite.ics", "/times?date=2026-11-27"} {
			if r := e.Client().Do("GET", "/api/public/bookings/"+fresh+path, nil); r.StatusCode != 404 {
				t.Fatalf("%s after the end: %d", path, r.StatusCode)
			}
		}
		if r := e.Client().Do("POST", "/api/public/bookings/"+fresh+"/cancel", nil); r.StatusCode != 404 || r.Err(t).Error.Code != "link_expired" {
			t.Fatalf("cancel after the end: %d %s", r.StatusCode, r.Body)
		}
		if st, _ := open(t, e, first); st != 200 {
			t.Fatalf("the first link after the end: %d", st)
		}
		s.owner.Login("dona@example.com", "segredo1") // days later: a new session
		if r := s.owner.Do("POST", "/api/appointments/"+id+"/client-link", nil); r.StatusCode != 409 || r.Err(t).Error.Code != "appointment_ended" {
			t.Fatalf("a link to an ended appointment: %d %s", r.StatusCode, r.Body)
		}
	})
}

// Only the appointment's owner issues its links: another owner's
// appointment, or none, is not found.
func TestClientLink_OnlyTheOwnersAppointments(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		id, _ := bookByPhone(t, e, s, "2026-11-26", "10:00")
		other := setup(t, e, "outra@example.com", "outra")
		for _, path := range []string{"/api/appointments/" + id + "/client-link", "/api/appointments/nenhum/client-link"} {
			if r := other.owner.Do("POST", path, nil); r.StatusCode != 404 {
				t.Fatalf("%s as another owner: %d %s", path, r.StatusCode, r.Body)
			}
		}
		var n int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointment_links`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("links written: %d %v", n, err)
		}
	})
}

// A move by the owner keeps the client's links (the one on their phone
// still opens the moved appointment).
func TestClientLink_OwnersMoveKeepsTheClientsLink(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		id, first := bookByPhone(t, e, s, "2026-11-26", "10:00")
		fresh := freshLink(t, e, s.owner, id)
		if r := s.owner.Do("POST", "/api/appointments/"+id+"/reschedule", map[string]any{"date": "2026-11-27", "time": "15:00", "notifyClient": true}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		for _, tok := range []string{first, fresh} {
			if st, p := open(t, e, tok); st != 200 || p.Date != "2026-11-27" || p.Time != "15:00" {
				t.Fatalf("link %s after the owner's move: %d %+v", tok, st, p)
			}
		}
	})
}

// Erasing a client (LGPD) deletes the fresh links to their appointments,
// found by the appointments' ids, and no other client's.
func TestClientLink_EraseDeletesTheClientsLinks(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		id, _ := bookByPhone(t, e, s, "2026-11-26", "10:00")
		fresh := freshLink(t, e, s.owner, id)
		r := s.create(map[string]any{"date": "2026-11-27", "time": "09:00", "clientName": "Outra Pessoa", "clientPhone": "11944443333"})
		var other struct{ ID string }
		r.JSON(t, &other)
		kept := freshLink(t, e, s.owner, other.ID)
		if r := s.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": clientKey("(11) 96666-5555", ""), "confirm": true}); r.StatusCode != 200 {
			t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
		}
		if st, p := open(t, e, fresh); st != 404 || p.Code != "not_found" {
			t.Fatalf("the erased client's fresh link: %d %+v", st, p)
		}
		if st, _ := open(t, e, kept); st != 200 {
			t.Fatalf("another client's link: %d", st)
		}
		var n int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointment_links WHERE appointment_id = ?`, id).Scan(&n); err != nil || n != 0 {
			t.Fatalf("links left: %d %v", n, err)
		}
	})
}

// Deleting the owner's account deletes every link to its appointments.
func TestClientLink_AccountDeletionDeletesTheLinks(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		id, first := bookByPhone(t, e, s, "2026-11-26", "10:00")
		fresh := freshLink(t, e, s.owner, id)
		if r := s.owner.Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "EXCLUIR"}); r.StatusCode != 200 {
			t.Fatalf("delete account: %d %s", r.StatusCode, r.Body)
		}
		for _, tok := range []string{first, fresh} {
			if st, _ := open(t, e, tok); st != 404 {
				t.Fatalf("link after the account's deletion: %d", st)
			}
		}
		var n int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointment_links`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("links left: %d %v", n, err)
		}
	})
}
