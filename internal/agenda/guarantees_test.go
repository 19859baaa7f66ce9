package agenda_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
	"github.com/agendei/agendei/internal/slots"
)

// held is one appointment that holds its professional's time, as stored.
type held struct {
	id, pro, date, at    string
	duration, bef, after int
}

// overlaps lists every pair of time-holding appointments of one owner's
// professionals whose intervals, buffers included, collide — by the slot
// engine's own rule (slots.Collides), computed here from the stored rows.
func overlaps(t *testing.T, e *servertest.Env, ownerID string) []string {
	t.Helper()
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	var all []held
	err := db.Each(context.Background(), e.DB, `SELECT id, professional_id, appointment_date, appointment_time, duration, buffer_before, buffer_after
		FROM appointments WHERE user_id = ? AND professional_id IS NOT NULL AND status IN ('confirmed', 'completed', 'no_show')`, []any{ownerID}, func(r *sql.Rows) error {
		var h held
		all = append(all, h)
		return r.Scan(&all[len(all)-1].id, &all[len(all)-1].pro, &all[len(all)-1].date, &all[len(all)-1].at,
			&all[len(all)-1].duration, &all[len(all)-1].bef, &all[len(all)-1].after)
	})
	if err != nil {
		t.Fatal(err)
	}
	start := func(h held) int64 {
		d, err1 := slots.ParseDate(h.date)
		m, err2 := slots.ParseHHMM(h.at)
		if err1 != nil || err2 != nil {
			t.Fatalf("unreadable time %s %s", h.date, h.at)
		}
		return slots.At(d, m, loc)
	}
	var out []string
	for i, a := range all {
		for _, b := range all[i+1:] {
			if a.pro == b.pro && slots.Collides(start(a), a.duration, a.bef, a.after,
				[]slots.Busy{{Start: start(b), Duration: b.duration, Before: b.bef, After: b.after}}) {
				out = append(out, fmt.Sprintf("%s %s (%d min) ~ %s %s (%d min)", a.date, a.at, a.duration, b.date, b.at, b.duration))
			}
		}
	}
	return out
}

type listed struct {
	ID, Date, Time, Status, SeriesID string
}

func (s *shop) listRange(t *testing.T, from, to string) []listed {
	t.Helper()
	var list struct{ Appointments []listed }
	if r := s.owner.Do("GET", "/api/appointments?from="+from+"&to="+to, nil); r.StatusCode != 200 {
		t.Fatalf("list: %d %s", r.StatusCode, r.Body)
	} else {
		r.JSON(t, &list)
	}
	return list.Appointments
}

// The repro: a weekly series of three at 10:00; the second session
// moves alone onto the third's date; then the first moves one day later
// with "the following" — sessions two and three would both land on the
// same date and time. The set being moved is checked against itself: the
// move is refused whole, naming the date, and nothing moves.
func TestSeries_SessionsMovedTogetherNeverCollideWithEachOther(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		if r := s.create(map[string]any{"date": "2026-12-01", "time": "10:00", "repeat": map[string]any{"every": "week", "count": 3}}); r.StatusCode != 201 {
			t.Fatalf("series: %d %s", r.StatusCode, r.Body)
		}
		list := s.listRange(t, "2026-12-01", "2026-12-31")
		if len(list) != 3 {
			t.Fatalf("sessions: %+v", list)
		}
		if r := s.move(list[1].ID, map[string]any{"date": "2026-12-15", "time": "14:00"}); r.StatusCode != 200 {
			t.Fatalf("move the second alone: %d %s", r.StatusCode, r.Body)
		}
		r := s.move(list[0].ID, map[string]any{"date": "2026-12-02", "time": "10:00", "following": true})
		if r.StatusCode != 409 || r.Err(t).Error.Code != "series_conflicts" {
			t.Fatalf("moving sessions onto each other: %d %s", r.StatusCode, r.Body)
		}
		if got := overlaps(t, e, s.ownerID); len(got) > 0 {
			t.Fatalf("overlaps: %v", got)
		}
		after := s.listRange(t, "2026-12-01", "2026-12-31")
		if after[0].Date != "2026-12-01" || after[0].Time != "10:00" {
			t.Fatalf("a refused move must move nothing: %+v", after)
		}
		// With the second session back on its own week, the same move keeps
		// the sessions apart and goes through.
		if r := s.move(list[1].ID, map[string]any{"date": "2026-12-08", "time": "14:00"}); r.StatusCode != 200 {
			t.Fatalf("move back: %d %s", r.StatusCode, r.Body)
		}
		if r := s.move(list[0].ID, map[string]any{"date": "2026-12-02", "time": "10:00", "following": true}); r.StatusCode != 200 {
			t.Fatalf("a move whose sessions keep apart: %d %s", r.StatusCode, r.Body)
		}
		if got := overlaps(t, e, s.ownerID); len(got) > 0 {
			t.Fatalf("overlaps: %v", got)
		}
	})
}

// setService changes the service's duration and buffers.
func (s *shop) setService(t *testing.T, duration, before, after int) {
	t.Helper()
	r := s.owner.Do("PUT", "/api/services/"+s.svc, map[string]any{"name": "Sessão", "duration": duration, "priceCents": 10000, "bufferBefore": before, "bufferAfter": after})
	if r.StatusCode != 200 {
		t.Fatalf("service: %d %s", r.StatusCode, r.Body)
	}
}

// privateLink gives an appointment a known private (cancel) link.
func privateLink(t *testing.T, e *servertest.Env, id string) string {
	t.Helper()
	token, hash := auth.OpaqueToken()
	if _, err := e.DB.ExecContext(context.Background(), `UPDATE appointments SET cancel_token_hash = ? WHERE id = ?`, hash, id); err != nil {
		t.Fatal(err)
	}
	return token
}

// The repro: a 60-minute booking at 09:00; the owner shortens the
// service to 30 minutes; another client books 11:30; the first client moves
// to 11:00 from the private link. The appointment keeps its 60 minutes, so
// 11:00–12:00 would overlap 11:30: refused. A lowered buffer, the same.
// Every move decides with the shape the appointment will have.
func TestMoves_DecideWithTheDurationAndBuffersTheAppointmentKeeps(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		first := bookedID(t, s.publicBook(e, "dona", "10.1.0.1", "2026-11-30", "09:00"))
		s.setService(t, 30, 0, 0)
		bookedID(t, s.publicBook(e, "dona", "10.1.0.2", "2026-11-30", "11:30"))
		link := privateLink(t, e, first)
		move := func(at string) *servertest.Response {
			return e.Client().Do("POST", "/api/public/bookings/"+link+"/reschedule", map[string]string{"date": "2026-11-30", "time": at})
		}
		// The times the private link offers are decided the same way: 11:00
		// is not one of them, 10:30 is, and the booking does not stand in
		// its own way (09:30 keeps clear of nothing but itself).
		var offered struct{ Times []string }
		if r := e.Client().Do("GET", "/api/public/bookings/"+link+"/times?date=2026-11-30", nil); r.StatusCode != 200 {
			t.Fatalf("times: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &offered)
		}
		if slices.Contains(offered.Times, "11:00") || !slices.Contains(offered.Times, "10:30") || !slices.Contains(offered.Times, "09:30") {
			t.Fatalf("times offered to the link: %v", offered.Times)
		}
		if r := e.Client().Do("GET", "/api/public/bookings/nao-existe/times?date=2026-11-30", nil); r.StatusCode != 404 {
			t.Fatalf("times of an unknown link: %d", r.StatusCode)
		}
		if r := move("11:00"); r.StatusCode != 409 {
			t.Fatalf("client move over another with the old duration: %d %s", r.StatusCode, r.Body)
		}
		// The owner's move of the same appointment decides the same way.
		if r := s.move(first, map[string]any{"date": "2026-11-30", "time": "11:00"}); r.StatusCode != 409 {
			t.Fatalf("owner move over another with the old duration: %d %s", r.StatusCode, r.Body)
		}
		if r := move("10:30"); r.StatusCode != 200 {
			t.Fatalf("client move that keeps clear: %d %s", r.StatusCode, r.Body)
		}
		if got := overlaps(t, e, s.ownerID); len(got) > 0 {
			t.Fatalf("overlaps: %v", got)
		}

		// Buffers: booked with 60 minutes kept free after, then lowered to 0.
		s.setService(t, 60, 0, 60)
		buffered := bookedID(t, s.publicBook(e, "dona", "10.1.0.3", "2026-12-01", "09:00"))
		s.setService(t, 60, 0, 0)
		bookedID(t, s.publicBook(e, "dona", "10.1.0.4", "2026-12-01", "12:30"))
		link = privateLink(t, e, buffered)
		if r := e.Client().Do("POST", "/api/public/bookings/"+link+"/reschedule", map[string]string{"date": "2026-12-01", "time": "11:00"}); r.StatusCode != 409 {
			t.Fatalf("client move whose kept buffer reaches the next: %d %s", r.StatusCode, r.Body)
		}
		if got := overlaps(t, e, s.ownerID); len(got) > 0 {
			t.Fatalf("overlaps: %v", got)
		}
	})
}

// The repro: a 24-hour service with 240 minutes kept free after,
// booked at 22:00 on one date, reaches 02:00 two dates later: those early
// times are not offered, cannot be booked, and the long booking itself
// cannot be made over an appointment two dates on.
func TestBusy_ALongServiceReachesTwoDatesLater(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		var days []map[string]any
		for d := range 7 {
			days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "windows": []map[string]string{{"start": "00:00", "end": "23:59"}}})
		}
		if r := s.owner.Do("PUT", "/api/availability", map[string]any{"days": days}); r.StatusCode != 200 {
			t.Fatalf("hours: %d %s", r.StatusCode, r.Body)
		}
		s.setService(t, 24*60, 0, 240)
		if r := s.create(map[string]any{"date": "2026-11-30", "time": "22:00", "outsideHours": true}); r.StatusCode != 201 {
			t.Fatalf("long appointment: %d %s", r.StatusCode, r.Body)
		}
		s.setService(t, 30, 0, 0)
		for _, at := range publicTimes(t, e, s, "2026-12-02") {
			if at < "02:00" {
				t.Fatalf("%s on 02/12 is offered inside the long appointment's buffer", at)
			}
		}
		if r := s.publicBook(e, "dona", "10.2.0.1", "2026-12-02", "00:30"); r.StatusCode != 409 {
			t.Fatalf("booking inside the buffer: %d %s", r.StatusCode, r.Body)
		}
		bookedID(t, s.publicBook(e, "dona", "10.2.0.2", "2026-12-05", "01:00"))
		s.setService(t, 24*60, 0, 240)
		if r := s.create(map[string]any{"date": "2026-12-03", "time": "22:00", "outsideHours": true}); r.StatusCode != 409 {
			t.Fatalf("a long appointment over one two dates on: %d %s", r.StatusCode, r.Body)
		}
		if got := overlaps(t, e, s.ownerID); len(got) > 0 {
			t.Fatalf("overlaps: %v", got)
		}
	})
}

// A property of every path that holds time: random series creates, single
// moves, moves with the following sessions, cancels and re-confirms, by
// the owner, in any order — afterwards no two time-holding appointments of
// the professional collide, buffers included.
func TestSeries_RandomEditsNeverLeaveAnOverlap(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.setService(t, 60, 0, 15)
		rng := rand.New(rand.NewPCG(24, 1))
		// Few dates and times, so that sessions keep meeting each other.
		date := func() string { return fmt.Sprintf("2026-12-%02d", 1+rng.IntN(10)) }
		at := func() string { return fmt.Sprintf("%02d:%02d", 10+rng.IntN(2), 30*rng.IntN(2)) }
		everys := []string{"week", "2weeks"}
		ok := 0
		for i := range 120 {
			var r *servertest.Response
			list := s.listRange(t, "2026-12-01", "2027-01-31")
			pick := func() string { return list[rng.IntN(len(list))].ID }
			switch op := rng.IntN(6); {
			case op == 0 || len(list) == 0:
				r = s.create(map[string]any{"date": date(), "time": at(), "clientName": fmt.Sprintf("Série %d", i),
					"repeat": map[string]any{"every": everys[rng.IntN(2)], "count": 2 + rng.IntN(4)}})
			case op == 1:
				// Often onto the date of another session of its series, at
				// another time: how sessions of one series come to share a date.
				a, to := list[rng.IntN(len(list))], date()
				for _, b := range list {
					if b.SeriesID != "" && b.SeriesID == a.SeriesID && b.Date > a.Date && rng.IntN(2) == 0 {
						to = b.Date
					}
				}
				r = s.move(a.ID, map[string]any{"date": to, "time": fmt.Sprintf("%02d:00", 14+rng.IntN(5))})
			case op == 2 || op == 5:
				r = s.move(pick(), map[string]any{"date": date(), "time": at(), "following": true})
			case op == 3:
				r = s.setStatus(pick(), "cancelled")
			default:
				r = s.setStatus(pick(), "confirmed")
			}
			if r.StatusCode >= 500 {
				t.Fatalf("step %d: %d %s", i, r.StatusCode, r.Body)
			}
			if r.StatusCode < 300 {
				ok++
			}
			if got := overlaps(t, e, s.ownerID); len(got) > 0 {
				t.Fatalf("step %d left overlaps: %v", i, got)
			}
		}
		if ok < 30 {
			t.Fatalf("only %d of 120 edits went through: the property says little", ok)
		}
	})
}
