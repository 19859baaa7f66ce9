package calendars_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/calendars"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/gcal"
	"github.com/agendei/agendei/internal/platform/gcal/gcaltest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// live are a fake calendar's events that are not cancelled.
func live(g *gcaltest.Google, cal string) map[string]gcaltest.Event {
	out := map[string]gcaltest.Event{}
	for id, ev := range g.Events(cal) {
		if !ev.Cancelled {
			out[id] = ev
		}
	}
	return out
}

// connectGoogleWriting connects the account and picks officeCal to receive
// the appointments, both calendars read as busy.
func (o *owner) connectGoogleWriting(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
	t.Helper()
	if r := o.finishGoogle(o.pressGoogle(t, e, g)); r.StatusCode != 200 {
		t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
	}
	if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/google", map[string]any{"calendars": []string{primaryCal, officeCal}}); r.StatusCode != 200 {
		t.Fatalf("choose: %d %s", r.StatusCode, r.Body)
	}
	if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/google/write", map[string]string{"calendar": officeCal}); r.StatusCode != 200 || !strings.Contains(string(r.Body), `"writeCalendar":"`+officeCal+`"`) {
		t.Fatalf("write to: %d %s", r.StatusCode, r.Body)
	}
	read(t, e)
}

func (o *owner) book(t *testing.T, e *servertest.Env, date, hhmm, name string) string {
	t.Helper()
	r := e.Client().Do("POST", "/api/public/profiles/dona/bookings", map[string]string{"professionalId": o.pro, "serviceId": o.svc,
		"date": date, "time": hhmm, "clientName": name, "clientPhone": "(11) 98888-7777"})
	if r.StatusCode != 201 {
		t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
	}
	var booked struct {
		ID          string
		Appointment struct{ ID string }
	}
	r.JSON(t, &booked)
	if booked.ID == "" {
		booked.ID = booked.Appointment.ID
	}
	return booked.ID
}

// The check against the Google fake: only a calendar the account
// may write is offered and accepted; a public booking appears once in the
// chosen calendar (service and first name, the owner's zone), moves with a
// reschedule and disappears with a cancellation; a drain repeated, or one
// whose drainer died after its insert (lease expired), never makes a second
// event; and Agendei's own events never count as busy when read back.
func TestGoogle_AppointmentsAreWrittenMovedAndDeletedOnce(t *testing.T) {
	eachGoogle(t, func(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
		g.AddCalendar("feriados@group.v.calendar.google.com", "Feriados", "reader", false)
		o := setup(t, e)
		if r := o.finishGoogle(o.pressGoogle(t, e, g)); r.StatusCode != 200 {
			t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
		}
		var acc calendars.GoogleAccount
		o.c.Do("GET", "/api/calendars/"+o.pro+"/google", nil).JSON(t, &acc)
		if len(acc.Calendars) != 3 || !acc.Calendars[0].Writable || !acc.Calendars[1].Writable || acc.Calendars[2].Writable {
			t.Fatalf("writable: %+v", acc.Calendars)
		}
		for _, cal := range []string{"feriados@group.v.calendar.google.com", "intrusa@gmail.com"} {
			if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/google/write", map[string]string{"calendar": cal}); r.StatusCode != 400 || !strings.Contains(string(r.Body), "possa gravar") {
				t.Fatalf("write to %s: %d %s", cal, r.StatusCode, r.Body)
			}
		}
		o.connectGoogleWriting(t, e, g)

		id := o.book(t, e, "2026-12-02", "10:00", "Maria Silva")
		drain(t, e)
		drain(t, e)
		evs := live(g, officeCal)
		ev, ok := evs[gcal.EventID(id)]
		if len(evs) != 1 || !ok || ev.Summary != "Sessão — Maria" || ev.Zone != "America/Sao_Paulo" || !ev.Start.Equal(sp(t, "2026-12-02 10:00")) || !ev.End.Equal(sp(t, "2026-12-02 11:00")) {
			t.Fatalf("after the booking: %+v", evs)
		}
		if strings.Contains(ev.Summary+ev.Description+ev.Location, "Silva") || strings.Contains(ev.Summary+ev.Description+ev.Location, "98888") {
			t.Fatalf("the event tells more than the first name: %+v", ev)
		}
		if len(g.Events(primaryCal)) != 0 || pendingWrites(t, e) != 0 {
			t.Fatalf("primary %d events, %d pending", len(g.Events(primaryCal)), pendingWrites(t, e))
		}
		// Read back: Agendei's own event is not busy time (nor flagged over its appointment).
		due(t, e)
		if s := o.source(t); s.Events != 0 || s.LastError != "" {
			t.Fatalf("read back: %+v", s)
		}

		// A reschedule moves the same event.
		if r := o.c.Do("POST", "/api/appointments/"+id+"/reschedule", map[string]any{"date": "2026-12-03", "time": "11:00"}); r.StatusCode != 200 {
			t.Fatalf("reschedule: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		if evs := live(g, officeCal); len(evs) != 1 || !evs[gcal.EventID(id)].Start.Equal(sp(t, "2026-12-03 11:00")) {
			t.Fatalf("after the move: %+v", evs)
		}

		// Crash-repeat: a drainer died after its insert, before it recorded
		// it (its lease still running): nothing until the lease ends, then
		// the same event again — patched, not a second one.
		if _, err := e.DB.ExecContext(context.Background(), `DELETE FROM calendar_written WHERE appointment_id = ?`, id); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.ExecContext(context.Background(), `INSERT INTO calendar_writes (appointment_id, user_id, next_at) VALUES (?, ?, ?)`,
			id, o.id, e.Clock.Now().Add(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		before := g.Requests()
		drain(t, e)
		if g.Requests() != before {
			t.Fatal("a leased write was taken by another drainer")
		}
		e.Clock.Advance(2*time.Minute + time.Second)
		drain(t, e)
		drain(t, e)
		if evs := g.Events(officeCal); len(evs) != 1 || evs[gcal.EventID(id)].Cancelled || pendingWrites(t, e) != 0 {
			t.Fatalf("after the repeat: %+v, %d pending", evs, pendingWrites(t, e))
		}

		// A cancellation deletes it, once.
		if r := o.c.Do("PATCH", "/api/appointments/"+id, map[string]string{"status": "cancelled"}); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e)
		drain(t, e)
		if evs := g.Events(officeCal); len(evs) != 1 || !evs[gcal.EventID(id)].Cancelled || pendingWrites(t, e) != 0 {
			t.Fatalf("after the cancellation: %+v", evs)
		}
		// Another calendar chosen: the next booking goes there.
		if r := o.c.Do("PUT", "/api/calendars/"+o.pro+"/google/write", map[string]string{"calendar": primaryCal}); r.StatusCode != 200 {
			t.Fatalf("write to primary: %d %s", r.StatusCode, r.Body)
		}
		other := o.book(t, e, "2026-12-04", "09:00", "Rita")
		drain(t, e)
		if evs := live(g, primaryCal); len(evs) != 1 || evs[gcal.EventID(other)].Summary != "Sessão — Rita" || len(live(g, officeCal)) != 0 {
			t.Fatalf("into the primary: %+v / %+v", evs, live(g, officeCal))
		}
	})
}

// Google's trouble makes a write wait its back-off; a revoked grant stops
// the writes and says so on the card as the read does ("conecte de novo"),
// calls Google no more, and the writes that waited go once the owner
// connects again — none lost.
func TestGoogle_RevokedGrantStopsWritesAndSaysSo(t *testing.T) {
	eachGoogle(t, func(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
		o := setup(t, e)
		o.connectGoogleWriting(t, e, g)

		g.Fail(1, gcaltest.Failure{Status: 503, Reason: "backendError"})
		first := o.book(t, e, "2026-12-02", "10:00", "Maria Silva")
		drain(t, e)
		if pendingWrites(t, e) != 1 || len(live(g, officeCal)) != 0 {
			t.Fatal("a write Google failed was not kept")
		}
		drain(t, e) // not due yet
		if len(live(g, officeCal)) != 0 {
			t.Fatal("written before its back-off")
		}
		e.Clock.Advance(31 * time.Second)
		drain(t, e)
		if pendingWrites(t, e) != 0 || len(live(g, officeCal)) != 1 {
			t.Fatalf("after the back-off: %d pending", pendingWrites(t, e))
		}

		g.RevokeAll()
		second := o.book(t, e, "2026-12-03", "10:00", "Joana Prado")
		o.c.Login("dona@example.com", "segredo1")
		drain(t, e)
		if s := o.source(t); s.LastError != calendars.RefusedGoogle {
			t.Fatalf("revoked: %+v", s)
		}
		if pendingWrites(t, e) != 1 {
			t.Fatal("a write refused for its grant was dropped")
		}
		before := g.Requests()
		e.Clock.Advance(time.Hour)
		drain(t, e)
		if g.Requests() != before || pendingWrites(t, e) != 1 {
			t.Fatal("a refused grant still calls Google to write")
		}
		o.c.Login("dona@example.com", "segredo1")

		if r := o.finishGoogle(o.pressGoogle(t, e, g)); r.StatusCode != 200 {
			t.Fatalf("again: %d %s", r.StatusCode, r.Body)
		}
		drain(t, e) // due at once, not after its back-off
		evs := live(g, officeCal)
		if len(evs) != 2 || evs[gcal.EventID(first)].Summary == "" || evs[gcal.EventID(second)].Summary != "Sessão — Joana" || pendingWrites(t, e) != 0 {
			t.Fatalf("after connecting again: %+v, %d pending", evs, pendingWrites(t, e))
		}
	})
}

// An owner's own event over an appointment, in the calendar Agendei writes into: it counts whole and flags the
// appointment, while Agendei's event beside it never counts — the calendar is read by events.list, whose ids tell
// them apart (freeBusy merges both into one interval, and taking the appointment's time out of it lost the owner's).
func TestGoogle_AnOwnersEventOverAnAppointmentCountsWholeInTheCalendarWrittenTo(t *testing.T) {
	eachGoogle(t, func(t *testing.T, e *servertest.Env, g *gcaltest.Google) {
		o := setup(t, e)
		o.connectGoogleWriting(t, e, g)
		id := o.book(t, e, "2026-12-02", "10:00", "Maria Silva")
		drain(t, e)
		if len(live(g, officeCal)) != 1 {
			t.Fatalf("written: %+v", live(g, officeCal))
		}
		flagged := func() int {
			t.Helper()
			var n int
			if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM busy_flags WHERE appointment_id = ?`, id).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		busy := func() []string {
			t.Helper()
			var out []string
			err := db.Each(context.Background(), e.DB, `SELECT starts_at, ends_at FROM busy_imported WHERE user_id = ? ORDER BY starts_at`, []any{o.id}, func(r *sql.Rows) error {
				var from, to time.Time
				if err := r.Scan(&from, &to); err != nil {
					return err
				}
				out = append(out, from.In(sp(t, "2026-12-02 00:00").Location()).Format("15:04")+"–"+to.In(sp(t, "2026-12-02 00:00").Location()).Format("15:04"))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		due(t, e)
		if b := busy(); len(b) != 0 || flagged() != 0 {
			t.Fatalf("Agendei's own event read back: busy %v, flagged %d", b, flagged())
		}
		// Inside the appointment, and one straddling its end.
		g.AddEvent(officeCal, gcaltest.Event{ID: "dentista0001", Summary: "Dentista", Start: sp(t, "2026-12-02 10:15"), End: sp(t, "2026-12-02 10:45")})
		g.AddEvent(officeCal, gcaltest.Event{ID: "escola00001", Summary: "Escola", Start: sp(t, "2026-12-02 10:30"), End: sp(t, "2026-12-02 11:30")})
		due(t, e)
		if b := busy(); len(b) != 2 || b[0] != "10:15–10:45" || b[1] != "10:30–11:30" || flagged() != 1 {
			t.Fatalf("the owner's events over the appointment: busy %v, flagged %d", b, flagged())
		}
		if p := g.Problems(); len(p) != 0 {
			t.Fatalf("requests Google would refuse: %v", p)
		}
	})
}
