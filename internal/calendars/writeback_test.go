package calendars_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/caldav/radicale"
	"github.com/agendei/agendei/internal/server/servertest"
)

// drain writes the pending calendar writes, as the background drain would.
func drain(t *testing.T, e *servertest.Env) {
	t.Helper()
	if _, err := e.Server.Calendars.DrainWrites(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func pendingWrites(t *testing.T, e *servertest.Env) int {
	t.Helper()
	var n int
	if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM calendar_writes`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The check against a real CalDAV server: an Agendei booking
// appears in the calendar written to, moves with a reschedule and
// disappears with a cancellation — once each; an appointment made before
// the calendar was connected is written too; a drain run twice writes
// nothing twice.
func TestCalDAV_AppointmentsAreWrittenMovedAndDeletedOnce(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rad := radicale.Start(t)
		personal := rad.Calendar(t, "pessoal", "Pessoal")
		written := rad.Calendar(t, "agendei", "Consultório")
		o := setup(t, e)
		// Made before the connection.
		var before struct{ ID string }
		r := o.c.Do("POST", "/api/appointments", map[string]any{"professionalId": o.pro, "serviceId": o.svc, "date": "2026-12-01", "time": "09:00",
			"clientName": "Joana Prado", "clientPhone": "11988887777"})
		if r.StatusCode != 201 {
			t.Fatalf("owner's appointment: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &before)
		if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/caldav", map[string]any{"url": rad.URL, "user": rad.User, "password": rad.Password,
			"calendars": []string{personal}, "writeCalendar": written}); r.StatusCode != 200 {
			t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		if n := rad.Objects(t, written); n != 1 || !strings.Contains(rad.Get(t, written, before.ID+"@agendei"), "SUMMARY:Sessão — Joana") {
			t.Fatalf("the earlier appointment: %d objects", n)
		}

		// A public booking appears, with the service and the client's first name only.
		var booked struct{ ID string }
		r = e.Client().Do("POST", "/api/public/profiles/dona/bookings", map[string]string{"professionalId": o.pro, "serviceId": o.svc,
			"date": "2026-12-02", "time": "10:00", "clientName": "Maria Silva", "clientPhone": "(11) 98888-7777"})
		if r.StatusCode != 201 {
			t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &booked)
		if booked.ID == "" {
			var full struct{ Appointment struct{ ID string } }
			r.JSON(t, &full)
			booked.ID = full.Appointment.ID
		}
		drain(t, e)
		drain(t, e)
		got := rad.Get(t, written, booked.ID+"@agendei")
		if rad.Objects(t, written) != 2 || !strings.Contains(got, "SUMMARY:Sessão — Maria\r\n") || strings.Contains(got, "Silva") || strings.Contains(got, "98888") ||
			!strings.Contains(got, "DTSTART;TZID=America/Sao_Paulo:20261202T100000") || !strings.Contains(got, "UID:"+booked.ID+"@agendei") {
			t.Fatalf("after the booking: %d objects\n%s", rad.Objects(t, written), got)
		}
		if pendingWrites(t, e) != 0 {
			t.Fatal("a write is still pending")
		}

		// A reschedule rewrites the same event.
		if r := o.c.Do("POST", "/api/appointments/"+booked.ID+"/reschedule", map[string]any{"date": "2026-12-03", "time": "11:00"}); r.StatusCode != 200 {
			t.Fatalf("reschedule: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		if got := rad.Get(t, written, booked.ID+"@agendei"); rad.Objects(t, written) != 2 || !strings.Contains(got, "DTSTART;TZID=America/Sao_Paulo:20261203T110000") {
			t.Fatalf("after the move: %d objects\n%s", rad.Objects(t, written), got)
		}
		// Moved to another professional (without a calendar): it leaves this one's; back: it returns.
		var other struct{ ID string }
		o.c.Do("POST", "/api/professionals", map[string]string{"name": "Bia", "specialization": "Psicóloga"}).JSON(t, &other)
		if r := o.c.Do("POST", "/api/appointments/"+booked.ID+"/reschedule", map[string]any{"date": "2026-12-03", "time": "11:00", "professionalId": other.ID, "outsideHours": true}); r.StatusCode != 200 {
			t.Fatalf("to another professional: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		if rad.Objects(t, written) != 1 || rad.Get(t, written, booked.ID+"@agendei") != "" {
			t.Fatalf("moved to another professional: %d objects", rad.Objects(t, written))
		}
		if r := o.c.Do("POST", "/api/appointments/"+booked.ID+"/reschedule", map[string]any{"date": "2026-12-03", "time": "11:00", "professionalId": o.pro}); r.StatusCode != 200 {
			t.Fatalf("back: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		if rad.Objects(t, written) != 2 {
			t.Fatalf("moved back: %d objects", rad.Objects(t, written))
		}
		// Agendei's own events never count as busy when read.
		due(t, e)
		if s := o.source(t); s.Events != 0 || s.LastError != "" {
			t.Fatalf("read: %+v", s)
		}

		// A cancellation deletes it.
		if r := o.c.Do("PATCH", "/api/appointments/"+booked.ID, map[string]string{"status": "cancelled"}); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		drain(t, e)
		if rad.Objects(t, written) != 1 || rad.Get(t, written, booked.ID+"@agendei") != "" || rad.Objects(t, personal) != 0 {
			t.Fatalf("after the cancellation: %d objects", rad.Objects(t, written))
		}
	})
}

// A write the server refuses waits its back-off and is tried again, and
// written once; a drain that died after its write (the pending row left)
// writes the same event again, never a second one; an erased client's name
// leaves the event; a wrong app password is said on the card in pt-BR; the
// account's deletion leaves no pending write behind.
func TestCalDAV_WritesRetryNeverDuplicateAndFollowEveryChange(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		rad := radicale.Start(t)
		personal := rad.Calendar(t, "pessoal", "Pessoal")
		written := rad.Calendar(t, "agendei", "Consultório")
		o := setup(t, e)
		if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/caldav", map[string]any{"url": rad.URL, "user": rad.User, "password": rad.Password,
			"calendars": []string{personal}, "writeCalendar": written}); r.StatusCode != 200 {
			t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
		}
		read(t, e)
		// The calendar written to is gone there: the write fails and waits.
		removeCollection(t, rad, written)
		var appt struct{ ID string }
		r := o.c.Do("POST", "/api/appointments", map[string]any{"professionalId": o.pro, "serviceId": o.svc, "date": "2026-12-01", "time": "09:00",
			"clientName": "Joana Prado", "clientPhone": "11988887777"})
		if r.StatusCode != 201 {
			t.Fatalf("appointment: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &appt)
		drain(t, e)
		var attempts int
		var lastError string
		if err := e.DB.QueryRowContext(context.Background(), `SELECT attempts, last_error FROM calendar_writes WHERE appointment_id = ?`, appt.ID).Scan(&attempts, &lastError); err != nil || attempts != 1 || lastError == "" {
			t.Fatalf("after a refused write: %d %q %v", attempts, lastError, err)
		}
		rad.Calendar(t, "agendei", "Consultório")
		drain(t, e) // not due yet
		if rad.Objects(t, written) != 0 {
			t.Fatal("written before its back-off")
		}
		e.Clock.Advance(31 * time.Second)
		drain(t, e)
		if rad.Objects(t, written) != 1 || pendingWrites(t, e) != 0 {
			t.Fatalf("after the back-off: %d objects, %d pending", rad.Objects(t, written), pendingWrites(t, e))
		}

		// A drainer killed after its PUT leaves the row: the repeat rewrites the same event.
		if _, err := e.DB.ExecContext(context.Background(), `INSERT INTO calendar_writes (appointment_id, user_id) VALUES (?, ?)`, appt.ID, o.id); err != nil {
			t.Fatal(err)
		}
		drain(t, e)
		if rad.Objects(t, written) != 1 {
			t.Fatalf("a repeated write made %d events", rad.Objects(t, written))
		}

		// The client's erasure (LGPD) rewrites the event without the name.
		if r := o.c.Do("POST", "/api/clients/erase", map[string]any{"identifier": "11988887777", "confirm": true}); r.StatusCode != 200 {
			t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		if got := rad.Get(t, written, appt.ID+"@agendei"); strings.Contains(got, "Joana") || rad.Objects(t, written) != 1 {
			t.Fatalf("after the erasure:\n%s", got)
		}

		// A wrong app password: the read says so on the card, the write waits.
		sealed, err := e.Server.Calendars.Box.Seal("senha-revogada", o.id+":calendars."+o.pro+".caldav.password")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.ExecContext(context.Background(), `UPDATE calendar_sources SET secret_sealed = ?`, sealed); err != nil {
			t.Fatal(err)
		}
		due(t, e)
		if s := o.source(t); s.LastError != "usuário ou senha de app recusados" || s.LastErrorAt == nil {
			t.Fatalf("a refused password: %+v", s)
		}
		if r := o.c.Do("POST", "/api/appointments/"+appt.ID+"/reschedule", map[string]any{"date": "2026-12-03", "time": "11:00"}); r.StatusCode != 200 {
			t.Fatalf("reschedule: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		if pendingWrites(t, e) != 1 {
			t.Fatal("a write refused for its password was dropped")
		}

		// The account goes: nothing of it is left to write.
		if r := o.c.Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "EXCLUIR"}); r.StatusCode != 200 {
			t.Fatalf("delete account: %d %s", r.StatusCode, r.Body)
		}
		e.Clock.Advance(time.Hour)
		drain(t, e)
		for _, table := range []string{"calendar_writes", "calendar_written", "calendar_sources"} {
			var n int
			if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%s after the account was deleted: %d %v", table, n, err)
			}
		}
	})
}

// removeCollection deletes a whole calendar, as the owner's calendar app would.
func removeCollection(t *testing.T, rad *radicale.Server, calendar string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, strings.TrimSuffix(rad.URL, "/")+calendar, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(rad.User, rad.Password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("DELETE %s: %d", calendar, resp.StatusCode)
	}
}
