package server_test

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// teamRoutes are the owner's routes a professional's own sign-in may use
// (issue 43 §0), each narrowed to the professional's own appointments and
// clients. Every other owner route answers them 403; a route added to the
// team (auth.RequireTeam) must be added here, on purpose.
var teamRoutes = map[string]bool{
	"GET /api/me":                             true,
	"GET /api/events":                         true,
	"GET /api/appointments":                   true,
	"POST /api/appointments":                  true,
	"POST /api/appointments/preview":          true,
	"GET /api/appointments/{id}":              true,
	"PATCH /api/appointments/{id}":            true,
	"POST /api/appointments/{id}/reschedule":  true,
	"POST /api/appointments/{id}/tell-moved":  true,
	"GET /api/agenda/grid":                    true,
	"GET /api/agenda/free-times":              true,
	"GET /api/clients":                        true,
	"GET /api/clients/search":                 true,
	"GET /api/clients/history":                true,
	"GET /api/services":                       true,
	"GET /api/professionals":                  true,
	"GET /api/whatsapp/confirms":              true,
	"GET /api/records":                        true,
	"POST /api/records/entries":               true,
	"POST /api/records/entries/{id}/versions": true,
	"GET /api/records/{id}/log":               true,
	"GET /api/record-templates":               true,
	"GET /api/records/{id}/copy":              true,
	"GET /api/records/list":                   true,
	"POST /api/records/{id}/destroy":          true,
	"POST /api/records/{id}/files":            true,
	"GET /api/records/{id}/files/{file}":      true,
	"GET /api/records/shared":                 true,
	"GET /api/records/team":                   true,
	"POST /api/records/{id}/documents":        true,
	"PUT /api/records/{id}/share":             true,
	"PUT /api/records/versions/{id}/cosign":   true,
	"POST /api/records/versions/{id}/cosign":  true,
	"PUT /api/records/{id}/client-copy":       true,
}

// TestSecurityMatrix_AProfessionalReachesOnlyTheirOwn is the security
// matrix for the professional's role: every owner operation of
// api/openapi.yaml is called by a professional of the practice, signed in
// as themself, with a colleague's ids and filters. The owner's routes answer
// 403; the team's answer the colleague's records 404 and carry nothing of
// the colleague's clients, blocks or days off; afterwards the owner's data
// reads exactly as before.
func TestSecurityMatrix_AProfessionalReachesOnlyTheirOwn(t *testing.T) {
	ops := ownerOps(t)
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Client()
		d := seedOwner(t, e, a)
		_, p := e.Invite(a, "Paula Própria", "paula.propria@example.com")
		var me struct{ Role, Name, Practice string }
		p.Do("GET", "/api/me", nil).JSON(t, &me)
		if me.Role != "professional" || me.Name != "Paula Própria" || me.Practice != "Anabela Sigilo" {
			t.Fatalf("me: %+v", me)
		}
		// What is the colleague's (Doutora Escondida's) and never the
		// professional's to read.
		secrets := []string{"Cliente Confidencial", "97531", "confidencial@example.com", "Recesso Sigiloso", "Reunião Sigilosa", "private-sigilo", "Anotação Sigilosa 7731",
			d.ids["/api/appointments/"]}
		reads := []string{"/api/appointments?from=2026-11-01&to=2026-12-31", "/api/appointments/" + d.ids["/api/appointments/"],
			"/api/clients", "/api/clients/history?key=" + d.clientKey, "/api/professionals", "/api/agenda/grid?from=2026-11-23&to=2026-11-29"}
		snapshot := func() map[string]string {
			out := map[string]string{}
			for _, path := range reads {
				out[path] = string(a.Do("GET", path, nil).Body)
			}
			return out
		}
		before := snapshot()
		for _, o := range ops {
			if o[1] == "/api/events" {
				continue // a stream: below
			}
			path, body := matrixRequest(t, o[0], o[1], d)
			r := p.Do(o[0], path, body)
			key := o[0] + " " + o[1]
			switch {
			case !teamRoutes[key]:
				if r.StatusCode != http.StatusForbidden || r.Err(t).Error.Code != "owner_only" {
					t.Errorf("%s as a professional: %d %s, want 403 owner_only", key, r.StatusCode, r.Body)
				}
			case strings.Contains(o[1], "{id}"):
				if r.StatusCode != http.StatusNotFound {
					t.Errorf("%s with a colleague's appointment: %d %s, want 404", key, r.StatusCode, r.Body)
				}
			case o[0] != "GET":
				// Writing for the colleague (matrixRequest's bodies name the
				// colleague): refused.
				if r.StatusCode < 400 || r.StatusCode >= 500 {
					t.Errorf("%s for a colleague: %d %s, want it refused", key, r.StatusCode, r.Body)
				}
			case o[1] == "/api/clients/history" || o[1] == "/api/records":
				if r.StatusCode != http.StatusNotFound {
					t.Errorf("a colleague's client's history: %d %s, want 404", r.StatusCode, r.Body)
				}
			case r.StatusCode == http.StatusForbidden || r.StatusCode == http.StatusUnauthorized || r.StatusCode >= 500:
				t.Errorf("%s as a professional: %d %s", key, r.StatusCode, r.Body)
			}
			for _, s := range secrets {
				if bytes.Contains(r.Body, []byte(s)) {
					t.Errorf("LEAK: %s as a professional answers %q: %s", key, s, r.Body)
				}
			}
		}
		after := snapshot()
		for _, path := range reads {
			if before[path] != after[path] {
				t.Errorf("the owner's %s changed:\nbefore %s\nafter  %s", path, before[path], after[path])
			}
		}
	})
}

// sseEvents reads an open event stream's events ("name data") on a channel.
func sseEvents(body io.Reader) <-chan string {
	out := make(chan string, 32)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(body)
		name := ""
		for sc.Scan() {
			if n, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				name = n
			} else if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				out <- name + " " + data
			}
		}
	}()
	return out
}

// TestMembers_AProfessionalsTabHearsTheirOwnAgenda: a professional signed
// in as themself keeps their agenda live like the owner's: their tab hears
// the changes of their own agenda — "agenda" events without a note — and
// none of a colleague's nor any notification. What they do reaches the
// owner's bell unread: to the owner it is someone else's doing. A revoke
// ends their stream.
func TestMembers_AProfessionalsTabHearsTheirOwnAgenda(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Client()
		d := seedOwner(t, e, a)
		colleague := d.ids["/api/professionals/"]
		proID, p := e.Invite(a, "Paula Própria", "paula.propria@example.com")
		body, stop := openStream(t, p)
		defer stop()
		heard := sseEvents(body)
		ownerBody, stopOwner := openStream(t, a)
		defer stopOwner()
		ownerHeard := sseEvents(ownerBody)
		var before struct{ Unread int }
		a.Do("GET", "/api/notifications", nil).JSON(t, &before)

		book := func(c *servertest.Client, professional, time, name string) {
			t.Helper()
			if r := c.Do("POST", "/api/appointments", map[string]any{"professionalId": professional, "serviceId": d.ids["/api/services/"],
				"date": "2026-12-03", "time": time, "clientName": name, "clientPhone": "(11) 91234-5678", "outsideHours": true}); r.StatusCode != 201 {
				t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
			}
		}
		next := func(ch <-chan string, who string) string {
			t.Helper()
			select {
			case ev := <-ch:
				return ev
			case <-time.After(5 * time.Second):
				t.Fatalf("%s's tab heard nothing", who)
				return ""
			}
		}
		book(a, colleague, "09:00", "Cliente do Colega")
		for want := range 2 { // the owner hears it: the notification and the agenda
			if ev := next(ownerHeard, "the owner"); !strings.HasPrefix(ev, "notifications ") && !strings.HasPrefix(ev, "agenda ") {
				t.Fatalf("the owner's event %d: %q", want, ev)
			}
		}
		book(a, proID, "10:00", "Cliente da Paula")
		// The first event the professional hears is their own agenda's: the
		// colleague's booking before it never reached them.
		if ev := next(heard, "the professional"); ev != `agenda {"self":false}` {
			t.Fatalf("the professional's first event: %q", ev)
		}
		book(p, proID, "11:00", "Outra da Paula")
		if ev := next(heard, "the professional"); ev != `agenda {"self":true}` {
			t.Fatalf("the professional's own booking: %q", ev)
		}
		var after struct{ Unread int }
		a.Do("GET", "/api/notifications", nil).JSON(t, &after)
		if after.Unread != before.Unread+1 {
			t.Fatalf("the owner's unread after the professional's booking: %d, before %d", after.Unread, before.Unread)
		}
		select {
		case ev := <-heard:
			t.Fatalf("the professional heard more: %q", ev)
		case <-time.After(300 * time.Millisecond):
		}
		if r := a.Do("DELETE", "/api/members/"+proID, nil); r.StatusCode != 200 {
			t.Fatalf("revoke: %d %s", r.StatusCode, r.Body)
		}
		deadline := time.After(4 * time.Second)
		for open := true; open; {
			select {
			case _, open = <-heard:
			case <-deadline:
				t.Fatal("the revoked professional's stream is still open")
			}
		}
	})
}

// TestMembers_InviteSignInRevokeAndDelete is a professional's access from
// the invitation to its end: they book and move their own appointments and
// see their own clients; the owner sees theirs too; a revoke ends their
// sessions at once and refuses their sign-in; a new invitation gives the
// access back with new secrets; deleting the professional deletes the account.
func TestMembers_InviteSignInRevokeAndDelete(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Client()
		d := seedOwner(t, e, a)
		colleague := d.ids["/api/professionals/"]
		proID, p := e.Invite(a, "Paula Própria", "paula.propria@example.com")

		// An e-mail that already has an account is refused.
		var other struct{ ID string }
		a.Do("POST", "/api/professionals", map[string]string{"name": "Outra", "specialization": "Nutricionista"}).JSON(t, &other)
		if r := a.Do("PUT", "/api/members/"+other.ID, map[string]string{"email": "anabela.sigilo@example.com"}); r.StatusCode != 409 {
			t.Fatalf("inviting the owner's own e-mail: %d %s", r.StatusCode, r.Body)
		}

		book := map[string]any{"professionalId": proID, "serviceId": d.ids["/api/services/"], "date": "2026-12-03", "time": "10:00",
			"clientName": "Cliente da Paula", "clientPhone": "(11) 91234-5678", "outsideHours": true}
		var mine struct{ ID string }
		if r := p.Do("POST", "/api/appointments", book); r.StatusCode != 201 {
			t.Fatalf("a professional's own booking: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &mine)
		}
		book["professionalId"], book["time"] = colleague, "11:00"
		if r := p.Do("POST", "/api/appointments", book); r.StatusCode != 403 {
			t.Fatalf("booking for a colleague: %d %s", r.StatusCode, r.Body)
		}
		if r := p.Do("POST", "/api/appointments/"+mine.ID+"/reschedule", map[string]any{"professionalId": colleague, "date": "2026-12-04", "time": "10:00", "outsideHours": true}); r.StatusCode != 403 {
			t.Fatalf("moving to a colleague: %d %s", r.StatusCode, r.Body)
		}
		if r := p.Do("POST", "/api/appointments/"+mine.ID+"/reschedule", map[string]any{"professionalId": proID, "date": "2026-12-04", "time": "10:00", "outsideHours": true}); r.StatusCode != 200 {
			t.Fatalf("moving their own: %d %s", r.StatusCode, r.Body)
		}
		var list struct{ Appointments []struct{ ID string } }
		p.Do("GET", "/api/appointments?from=2026-11-01&to=2026-12-31", nil).JSON(t, &list)
		if len(list.Appointments) != 1 || list.Appointments[0].ID != mine.ID {
			t.Fatalf("a professional's list: %+v", list)
		}
		a.Do("GET", "/api/appointments?from=2026-11-01&to=2026-12-31", nil).JSON(t, &list)
		if len(list.Appointments) != 2 {
			t.Fatalf("the owner sees every agenda: %+v", list)
		}
		var clients struct {
			Clients []struct{ Name string }
			Total   int
		}
		p.Do("GET", "/api/clients", nil).JSON(t, &clients)
		if clients.Total != 1 || len(clients.Clients) != 1 || clients.Clients[0].Name != "Cliente da Paula" {
			t.Fatalf("a professional's clients: %+v", clients)
		}
		// The same client with a colleague: the professional's page of them
		// shows their own sessions only, and nothing of what was paid or owed.
		shared := map[string]any{"professionalId": colleague, "serviceId": d.ids["/api/services/"], "date": "2026-11-20", "time": "15:00",
			"clientName": "Cliente da Paula", "clientPhone": "(11) 91234-5678", "outsideHours": true}
		if r := a.Do("POST", "/api/appointments", shared); r.StatusCode != 201 {
			t.Fatalf("the colleague's session with the same client: %d %s", r.StatusCode, r.Body)
		}
		var h struct {
			Appointments []struct{ ProfessionalID string }
			Payments     []any
			DueCents     int
		}
		p.Do("GET", "/api/clients/history?key="+mine.ID, nil).JSON(t, &h)
		if len(h.Appointments) != 1 || h.Appointments[0].ProfessionalID != proID || len(h.Payments) != 0 || h.DueCents != 0 {
			t.Fatalf("a professional's page of a shared client: %+v", h)
		}

		// A second device of the professional, then the revoke.
		p2 := e.Client()
		p2.ForwardedFor = "203.0.113.9"
		if r := p2.Login("paula.propria@example.com", "senha-propria-1"); r.StatusCode != 200 {
			t.Fatalf("the professional's sign-in: %d %s", r.StatusCode, r.Body)
		}
		if r := a.Do("DELETE", "/api/members/"+proID, nil); r.StatusCode != 200 {
			t.Fatalf("revoke: %d %s", r.StatusCode, r.Body)
		}
		for _, c := range []*servertest.Client{p, p2} {
			if r := c.Do("GET", "/api/me", nil); r.StatusCode != 401 {
				t.Fatalf("a revoked professional's session: %d %s", r.StatusCode, r.Body)
			}
			if r := c.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
				t.Fatalf("a revoked professional's refresh: %d %s", r.StatusCode, r.Body)
			}
		}
		if r := e.Client().Login("paula.propria@example.com", "senha-propria-1"); r.StatusCode != 403 || r.Err(t).Error.Code != "member_revoked" {
			t.Fatalf("a revoked professional's sign-in: %d %s", r.StatusCode, r.Body)
		}
		var ms struct {
			Members []struct{ ProfessionalID, State string }
		}
		a.Do("GET", "/api/members", nil).JSON(t, &ms)
		if len(ms.Members) != 1 || ms.Members[0].State != "revoked" {
			t.Fatalf("members: %+v", ms)
		}

		// Invited again: the same account, new secrets.
		_ = e.Mails() // the earlier invitation's e-mail out of the way
		if r := a.Do("PUT", "/api/members/"+proID, map[string]string{"email": "paula.propria@example.com"}); r.StatusCode != 200 {
			t.Fatalf("invite again: %d %s", r.StatusCode, r.Body)
		}
		token := ""
		for _, m := range e.Mails() {
			if t := m.InviteToken(); t != "" {
				token = t
			}
		}
		if r := e.Client().Do("POST", "/api/invites/"+token, map[string]string{"password": "senha-nova-3", "recoveryKeyword": "tatu"}); r.StatusCode != 200 {
			t.Fatalf("accept again: %d %s", r.StatusCode, r.Body)
		}
		if r := e.Client().Login("paula.propria@example.com", "senha-propria-1"); r.StatusCode != 401 {
			t.Fatalf("the old password after a new invitation: %d %s", r.StatusCode, r.Body)
		}
		p3 := e.Client()
		if r := p3.Login("paula.propria@example.com", "senha-nova-3"); r.StatusCode != 200 {
			t.Fatalf("the new password: %d %s", r.StatusCode, r.Body)
		}
		p3.Do("GET", "/api/appointments?from=2026-11-01&to=2026-12-31", nil).JSON(t, &list)
		if len(list.Appointments) != 1 {
			t.Fatalf("the professional's appointments after a new invitation: %+v", list)
		}

		// Deleting the professional deletes the account.
		if r := a.Do("DELETE", "/api/professionals/"+proID, nil); r.StatusCode != 204 {
			t.Fatalf("delete professional: %d %s", r.StatusCode, r.Body)
		}
		if r := p3.Do("GET", "/api/me", nil); r.StatusCode != 401 {
			t.Fatalf("a deleted professional's session: %d %s", r.StatusCode, r.Body)
		}
		if r := e.Client().Login("paula.propria@example.com", "senha-nova-3"); r.StatusCode != 401 {
			t.Fatalf("a deleted professional's sign-in: %d %s", r.StatusCode, r.Body)
		}
	})
}
