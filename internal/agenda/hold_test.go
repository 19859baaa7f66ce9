package agenda_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// publicBook books (professional, service) of the shop's page as a visitor at ip.
func (s *shop) publicBook(e *servertest.Env, username, ip, date, at string) *servertest.Response {
	c := e.Client()
	c.ForwardedFor = ip
	return c.Do("POST", "/api/public/profiles/"+username+"/bookings", map[string]string{
		"professionalId": s.pro, "serviceId": s.svc, "date": date, "time": at, "clientName": "Cliente", "clientPhone": "11988887777"})
}

func (s *shop) setStatus(id, status string) *servertest.Response {
	return s.owner.Do("PATCH", "/api/appointments/"+id, map[string]string{"status": status})
}

// holders counts the professional's appointments that hold time overlapping
// [at, at+60min) of a date (every appointment of these tests lasts 60 minutes
// and starts on the hour).
func holders(t *testing.T, e *servertest.Env, pro, date, at string) int {
	t.Helper()
	var n int
	if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments
		WHERE professional_id = ? AND appointment_date = ? AND appointment_time = ? AND status IN ('confirmed', 'completed')`, pro, date, at).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func bookedID(t *testing.T, r *servertest.Response) string {
	t.Helper()
	if r.StatusCode != 201 {
		t.Fatalf("book: %d %s", r.StatusCode, r.Body)
	}
	var b struct{ ID string }
	r.JSON(t, &b)
	return b.ID
}

// The story: cancel X, a client books the freed time, X back to
// confirmed (or completed) must not make two holders.
func TestSetStatus_BringingBackACancelledAppointmentNeverOverlaps(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, []seed{
			{"past", "2026-11-20", "09:00", "cancelled", "Paula", "p@x.com", "", 100},   // a past time
			{"late", "2026-11-24", "22:00", "cancelled", "Lia", "l@x.com", "", 100},     // outside the opening hours
			{"legacy", "2026-11-26", "10:00", "confirmed", "Leo", "leo@x.com", "", 100}, // two holders of one time:
			{"twin", "2026-11-26", "10:00", "confirmed", "Gêmeo", "g@x.com", "", 100},   // data from before the rule
		})
		x := bookedID(t, s.publicBook(e, "dona", "10.1.0.1", "2026-11-24", "14:00"))
		if r := s.setStatus(x, "cancelled"); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		y := bookedID(t, s.publicBook(e, "dona", "10.1.0.2", "2026-11-24", "14:00"))
		if r := s.setStatus(x, "confirmed"); r.StatusCode != 409 || r.Err(t).Error.Code != "slot_unavailable" ||
			r.Err(t).Error.Message != "Não é possível confirmar: o profissional já tem outro agendamento neste horário." {
			t.Fatalf("confirmed over a taken time: %d %s", r.StatusCode, r.Body)
		}
		if n := holders(t, e, s.pro, "2026-11-24", "14:00"); n != 1 {
			t.Fatalf("%d holders of 14:00", n)
		}
		// A partial overlap counts too: a 60-minute X at 13:30 against Y at 14:00.
		z := bookedID(t, s.publicBook(e, "dona", "10.1.0.3", "2026-11-24", "12:30"))
		s.setStatus(z, "cancelled")
		bookedID(t, s.publicBook(e, "dona", "10.1.0.4", "2026-11-24", "13:00"))
		if r := s.setStatus(z, "confirmed"); r.StatusCode != 409 {
			t.Fatalf("partial overlap: %d %s", r.StatusCode, r.Body)
		}
		// Completed is only possible from the start on: on 2026-11-27 every
		// appointment here has begun, and X still cannot be completed over Y.
		e.Clock.Set(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
		s.owner.Login("dona@example.com", "segredo1") // the session of four days ago has expired
		if r := s.setStatus(x, "completed"); r.StatusCode != 409 || r.Err(t).Error.Code != "slot_unavailable" ||
			r.Err(t).Error.Message != "Não é possível concluir: o profissional já tem outro agendamento neste horário." {
			t.Fatalf("completed over a taken time: %d %s", r.StatusCode, r.Body)
		}
		// Once the time is free again, X comes back.
		s.setStatus(y, "cancelled")
		if r := s.setStatus(x, "confirmed"); r.StatusCode != 200 {
			t.Fatalf("re-confirm on a free time: %d %s", r.StatusCode, r.Body)
		}
		// Only the overlap is checked: a past or out-of-hours appointment that
		// takes nobody's time may be re-confirmed or completed.
		if r := s.setStatus(s.appointment["past"], "completed"); r.StatusCode != 200 {
			t.Fatalf("past: %d %s", r.StatusCode, r.Body)
		}
		if r := s.setStatus(s.appointment["late"], "confirmed"); r.StatusCode != 200 {
			t.Fatalf("outside hours: %d %s", r.StatusCode, r.Body)
		}
		// An appointment that holds its time already takes nothing new when
		// completed, even beside an overlap it did not make.
		if r := s.setStatus(s.appointment["legacy"], "completed"); r.StatusCode != 200 {
			t.Fatalf("completing a holder: %d %s", r.StatusCode, r.Body)
		}
		// Unknown and another owner's appointments stay 404.
		if r := s.setStatus("nope", "confirmed"); r.StatusCode != 404 {
			t.Fatalf("unknown: %d", r.StatusCode)
		}
	})
}

// The race of the issue, 50 times on each engine: X is cancelled, then its
// re-confirm and a public booking of the same time are fired together.
// Exactly one wins each round and the time never has two holders.
func TestSetStatus_ReconfirmRacingAPublicBookingNeverMakesTwoHolders(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		const rounds = 50
		for i := range rounds {
			date := fmt.Sprintf("2026-12-%02d", 1+i/12)
			at := fmt.Sprintf("%02d:00", 8+i%12)
			x := bookedID(t, s.publicBook(e, "dona", fmt.Sprintf("10.2.%d.1", i), date, at))
			if r := s.setStatus(x, "cancelled"); r.StatusCode != 200 {
				t.Fatalf("round %d cancel: %d %s", i, r.StatusCode, r.Body)
			}
			var wg sync.WaitGroup
			var reconfirm, book int
			start := make(chan struct{})
			wg.Add(2)
			go func() {
				defer wg.Done()
				<-start
				reconfirm = s.setStatus(x, "confirmed").StatusCode
			}()
			go func() {
				defer wg.Done()
				<-start
				book = s.publicBook(e, "dona", fmt.Sprintf("10.3.%d.1", i), date, at).StatusCode
			}()
			close(start)
			wg.Wait()
			if n := holders(t, e, s.pro, date, at); n != 1 {
				t.Fatalf("round %d (%s %s): %d holders (re-confirm %d, booking %d)", i, date, at, n, reconfirm, book)
			}
			if won := (reconfirm == 200) != (book == 201); !won || reconfirm != 200 && reconfirm != 409 || book != 201 && book != 409 {
				t.Fatalf("round %d: re-confirm %d, booking %d; want exactly one winner and a 409", i, reconfirm, book)
			}
		}
	})
}

// 'Marcar como concluído' is refused before the appointment's start, for the
// API's callers as for the screen (issue 39), and works from its first minute.
func TestSetStatus_CompletedOnlyFromTheStartOn(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona") // now: 2026-11-23 09:00 in São Paulo
		s.seed(t, e, seeds)
		// j1: today at 10:00, an hour ahead.
		r := s.setStatus(s.appointment["j1"], "completed")
		if r.StatusCode != 409 || r.Err(t).Error.Code != "too_early" ||
			r.Err(t).Error.Message != "Só é possível marcar como concluído a partir do horário do agendamento." {
			t.Fatalf("completed before the start: %d %s", r.StatusCode, r.Body)
		}
		var a struct{ Status string }
		s.owner.Do("GET", "/api/appointments/"+s.appointment["j1"], nil).JSON(t, &a)
		if a.Status != "confirmed" {
			t.Fatalf("refused, yet %s", a.Status)
		}
		e.Clock.Set(time.Date(2026, 11, 23, 12, 59, 0, 0, time.UTC)) // 09:59 in São Paulo
		s.owner.Login("dona@example.com", "segredo1")
		if r := s.setStatus(s.appointment["j1"], "completed"); r.StatusCode != 409 {
			t.Fatalf("a minute before: %d %s", r.StatusCode, r.Body)
		}
		e.Clock.Set(time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC)) // 10:00
		if r := s.setStatus(s.appointment["j1"], "completed"); r.StatusCode != 200 {
			t.Fatalf("at the start: %d %s", r.StatusCode, r.Body)
		}
	})
}
