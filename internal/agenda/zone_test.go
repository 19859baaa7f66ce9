package agenda_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// A zone change keeps the book as written: an appointment booked at 10:00
// in São Paulo is at 10:00 in Manaus after the owner picks Manaus, and
// every reader says so — the agenda, the public free times, the calendar
// feed, the invite of a confirmation e-mailed afterwards and the reminder,
// which goes out 24 hours before 10:00 Manaus time (14:00 UTC), not before
// 10:00 São Paulo time.
func TestZoneChange_AppointmentsKeepTheirLocalTimeAndEveryReaderAgrees(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona") // now 2026-11-23 09:00 in São Paulo (12:00 UTC)
		book := func(date, ip, email string) string {
			t.Helper()
			c := e.Client()
			c.ForwardedFor = ip
			return bookedID(t, c.Do("POST", "/api/public/profiles/dona/bookings", map[string]string{
				"professionalId": s.pro, "serviceId": s.svc, "date": date, "time": "10:00", "clientName": "Carla", "clientPhone": "11988887777", "clientEmail": email}))
		}
		first := book("2026-11-25", "10.9.0.1", "carla@example.com")
		var feed struct{ URL string }
		s.owner.Do("POST", "/api/calendar-feeds", map[string]any{}).JSON(t, &feed)

		var profile map[string]any
		s.owner.Do("GET", "/api/profile", nil).JSON(t, &profile)
		profile["timeZone"] = "America/Manaus"
		if r := s.owner.Do("PUT", "/api/profile", profile); r.StatusCode != 200 {
			t.Fatalf("zone change: %d %s", r.StatusCode, r.Body)
		}
		manaus, _ := time.LoadLocation("America/Manaus")
		at10 := time.Date(2026, 11, 25, 10, 0, 0, 0, manaus) // 14:00 UTC

		// The agenda: still 10:00.
		if got := names(t, s.owner, "from=2026-11-25&to=2026-11-25"); !slices.Equal(got, []string{"Carla@11-25T10:00"}) {
			t.Fatalf("agenda: %v", got)
		}
		// The public page: 10:00 is taken, the hours around it are free.
		if times := publicTimes(t, e, s, "2026-11-25"); slices.Contains(times, "10:00") || slices.Contains(times, "09:30") ||
			!slices.Contains(times, "09:00") || !slices.Contains(times, "11:00") {
			t.Fatalf("public times: %v", times)
		}
		// The feed: 10:00 in Manaus.
		res, err := http.Get(e.HTTP.URL + feed.URL[strings.Index(feed.URL, "/calendar/"):])
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		_, _ = body.ReadFrom(res.Body)
		res.Body.Close()
		cal, err := ical.NewDecoder(&body).Decode()
		if err != nil {
			t.Fatal(err)
		}
		events := cal.Events()
		if len(events) != 1 {
			t.Fatalf("%d events in the feed", len(events))
		}
		if start, err := events[0].DateTimeStart(time.UTC); err != nil || !start.Equal(at10) ||
			events[0].Props.Get(ical.PropDateTimeStart).Params.Get(ical.ParamTimezoneID) != "America/Manaus" {
			t.Fatalf("feed starts %v (%v): %+v", start, err, events[0].Props.Get(ical.PropDateTimeStart))
		}
		// A confirmation e-mailed now invites to 10:00 in Manaus.
		second := book("2026-11-26", "10.9.0.2", "bruno@example.com")
		var invite string
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "bruno@example.com") && strings.Contains(m.Raw, "text/calendar") {
				invite = m.Calendar(t)
			}
		}
		if !strings.Contains(invite, "DTSTART;TZID=America/Manaus:20261126T100000\r\n") || !strings.Contains(invite, "TZOFFSETTO:-0400\r\n") {
			t.Fatalf("invite:\n%s", invite)
		}
		// Both reminders are due a day before 10:00 in Manaus.
		for id, want := range map[string]time.Time{first: at10.AddDate(0, 0, -1), second: at10} {
			var due time.Time
			if err := e.DB.QueryRowContext(context.Background(), `SELECT run_at FROM jobs WHERE kind = 'booking.reminder' AND appointment_id = ? AND done_at IS NULL`,
				id).Scan(&due); err != nil || !due.Equal(want) {
				t.Fatalf("reminder of %s due %v (%v), want %v", id, due.UTC(), err, want.UTC())
			}
		}
		reminded := func() bool {
			for _, m := range e.Mails() {
				if strings.Contains(m.Raw, "Lembrete") && strings.Contains(m.Raw, "carla@example.com") {
					return true
				}
			}
			return false
		}
		e.Clock.Set(time.Date(2026, 11, 24, 13, 30, 0, 0, time.UTC)) // past 10:00 São Paulo's reminder time
		if reminded() {
			t.Fatal("reminded by São Paulo's clock")
		}
		e.Clock.Set(at10.AddDate(0, 0, -1).Add(time.Second))
		if !reminded() {
			t.Fatal("no reminder a day before 10:00 in Manaus")
		}
		// Setting the same zone again changes nothing.
		s.owner.Login("dona@example.com", "segredo1") // a day later: the access token has expired
		var before, after time.Time
		e.DB.QueryRowContext(context.Background(), `SELECT updated_at FROM appointments WHERE id = ?`, first).Scan(&before)
		if r := s.owner.Do("PUT", "/api/profile", profile); r.StatusCode != 200 {
			t.Fatalf("save again: %d %s", r.StatusCode, r.Body)
		}
		e.DB.QueryRowContext(context.Background(), `SELECT updated_at FROM appointments WHERE id = ?`, first).Scan(&after)
		if !before.Equal(after) {
			t.Fatalf("an unchanged zone touched the appointment: %v → %v", before, after)
		}
	})
}

// A booking racing a zone change never writes an instant of the old zone:
// the change takes the professionals' locks and a hold checks the zone it
// computed in under them (refused with settings_changed when it moved).
func TestZoneChange_RacingBookingsKeepEveryInstantInTheCurrentZone(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		var profile map[string]any
		s.owner.Do("GET", "/api/profile", nil).JSON(t, &profile)
		zones := []string{"America/Manaus", "America/Sao_Paulo"}
		for i := range 12 {
			profile["timeZone"] = zones[i%2]
			var change, booked int
			var wg sync.WaitGroup
			start := make(chan struct{})
			wg.Go(func() {
				<-start
				change = s.owner.Do("PUT", "/api/profile", profile).StatusCode
			})
			wg.Go(func() {
				<-start
				c := e.Client()
				c.ForwardedFor = fmt.Sprintf("10.7.%d.1", i)
				booked = c.Do("POST", "/api/public/profiles/dona/bookings", map[string]string{
					"professionalId": s.pro, "serviceId": s.svc, "date": "2026-12-01", "time": fmt.Sprintf("%02d:00", 8+i), "clientName": "Corrida", "clientPhone": "11988887777"}).StatusCode
			})
			close(start)
			wg.Wait()
			if change != 200 || (booked != 201 && booked != 409) {
				t.Fatalf("round %d: zone change %d, booking %d", i, change, booked)
			}
			loc, _ := time.LoadLocation(zones[i%2])
			err := db.Each(context.Background(), e.DB, `SELECT appointment_date, appointment_time, starts_at FROM appointments WHERE user_id = ?`, []any{s.ownerID}, func(r *sql.Rows) error {
				var date, at string
				var starts time.Time
				if err := r.Scan(&date, &at, &starts); err != nil {
					return err
				}
				want, _ := time.ParseInLocation("2006-01-02 15:04", date+" "+at, loc)
				if !starts.Equal(want) {
					t.Errorf("round %d: %s %s stored at %s, want %s in %s", i, date, at, starts.UTC(), want.UTC(), loc)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	})
}
