package calendars_test

import (
	"context"
	"strings"
	"testing"

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
