package booking_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// The clock stands at Monday 2026-11-23, 09:00 in São Paulo (12:00 UTC).
const nextMonday = "2026-11-30"

type shop struct {
	professional, service, other string
}

// openShop sets up owner "ana": Mondays 09:00–12:00, a 45-minute service,
// one professional (and a second, inactive one).
func openShop(t testing.TB, e *servertest.Env) shop {
	c := e.Client()
	c.Signup("Ana", "ana@example.com", "segredo1", "gato")
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": d == 1, "start": "09:00", "end": "12:00"})
	}
	if r := c.Do("POST", "/api/onboarding", map[string]any{"name": "Ana", "area": "Psicologia", "publicUsername": "ana",
		"services": []map[string]any{{"name": "Sessão", "duration": 45, "priceCents": 15000}}, "days": days}); r.StatusCode != 200 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	var s shop
	var pro, off struct{ ID string }
	c.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga"}).JSON(t, &pro)
	c.Do("POST", "/api/professionals", map[string]string{"name": "Zeca", "specialization": "Estagiário"}).JSON(t, &off)
	c.Do("PATCH", "/api/professionals/"+off.ID, map[string]bool{"active": false})
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	s.professional, s.service, s.other = pro.ID, svcs[0].ID, off.ID
	return s
}

func times(t *testing.T, e *servertest.Env, s shop, date string) []string {
	var out struct{ Times []string }
	r := e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/ana/times?date=%s&professional=%s&service=%s", date, s.professional, s.service), nil)
	if r.StatusCode != 200 {
		t.Fatalf("times: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	return out.Times
}

func book(e *servertest.Env, s shop, date, at string) *servertest.Response {
	return bookFrom(e, "", s, date, at)
}

func bookFrom(e *servertest.Env, ip string, s shop, date, at string) *servertest.Response {
	c := e.Client()
	c.ForwardedFor = ip
	return c.Do("POST", "/api/public/profiles/ana/bookings", map[string]string{
		"professionalId": s.professional, "serviceId": s.service, "date": date, "time": at,
		"clientName": "  Maria   Silva ", "clientPhone": "(11) 98888-7777", "clientEmail": "maria@example.com"})
}

func TestTimes_FollowTheSlotRulesAndHideWhoBooked(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		if got := times(t, e, s, nextMonday); !reflect.DeepEqual(got, []string{"09:00", "09:30", "10:00", "10:30", "11:00"}) {
			t.Fatalf("empty day: %v", got)
		}
		r := book(e, s, nextMonday, "10:00")
		if r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		var b struct {
			ServiceName string
			Duration    int
			PriceCents  int
		}
		r.JSON(t, &b)
		if b.ServiceName != "Sessão" || b.Duration != 45 || b.PriceCents != 15000 {
			t.Fatalf("%+v", b)
		}
		if got := times(t, e, s, nextMonday); !reflect.DeepEqual(got, []string{"09:00", "11:00"}) {
			t.Fatalf("after a 10:00 booking: %v", got)
		}
		// Sundays (closed) and past dates offer nothing.
		if got := times(t, e, s, "2026-11-29"); len(got) != 0 {
			t.Fatalf("closed day: %v", got)
		}
		if got := times(t, e, s, "2026-11-16"); len(got) != 0 {
			t.Fatalf("past day: %v", got)
		}
		// Today: from now on only.
		e.Clock.Advance(time.Minute)
		if got := times(t, e, s, "2026-11-23"); !reflect.DeepEqual(got, []string{"09:30", "10:00", "10:30", "11:00"}) {
			t.Fatalf("today after 09:00: %v", got)
		}
		// A cancelled appointment frees its time.
		if _, err := e.DB.ExecContext(context.Background(), `UPDATE appointments SET status = 'cancelled'`); err != nil {
			t.Fatal(err)
		}
		if got := times(t, e, s, nextMonday); len(got) != 5 {
			t.Fatalf("after cancelling: %v", got)
		}
	})
}

func TestDays_AreTheOpenFutureDatesWithAFreeTimeAndFullOnesApart(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		var out struct{ Days, Full []string }
		e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/ana/days?month=2026-11&professional=%s&service=%s", s.professional, s.service), nil).JSON(t, &out)
		if !reflect.DeepEqual(out.Days, []string{"2026-11-23", nextMonday}) || len(out.Full) != 0 {
			t.Fatalf("%v full %v", out.Days, out.Full)
		}
		for _, at := range []string{"09:00", "10:00", "11:00"} { // fill next Monday
			if r := book(e, s, nextMonday, at); r.StatusCode != 201 {
				t.Fatalf("%s: %d %s", at, r.StatusCode, r.Body)
			}
		}
		e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/ana/days?month=2026-11&professional=%s&service=%s", s.professional, s.service), nil).JSON(t, &out)
		if !reflect.DeepEqual(out.Days, []string{"2026-11-23"}) {
			t.Fatalf("a full day is not bookable: %v", out.Days)
		}
		// It is "Lotado", not closed: the calendar offers its waitlist. The
		// closed days between (no hours) are in neither list.
		if !reflect.DeepEqual(out.Full, []string{nextMonday}) {
			t.Fatalf("the full day is listed as full: %v", out.Full)
		}
		// Once today's hours have passed, today is neither free nor full.
		e.Clock.Advance(12 * time.Hour)
		e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/ana/days?month=2026-11&professional=%s&service=%s", s.professional, s.service), nil).JSON(t, &out)
		if len(out.Days) != 0 || !reflect.DeepEqual(out.Full, []string{nextMonday}) {
			t.Fatalf("after today's hours: %v full %v", out.Days, out.Full)
		}
	})
}

func TestBook_ConflictsAndValidationSpeakPortuguese(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		book(e, s, nextMonday, "10:00")
		r := book(e, s, nextMonday, "10:00")
		if r.StatusCode != 409 || r.Err(t).Error.Message != "Este profissional já possui agendamento neste horário. Por favor, escolha outro horário." {
			t.Fatalf("same time: %d %s", r.StatusCode, r.Body)
		}
		r = book(e, s, nextMonday, "09:30")
		if r.StatusCode != 409 || r.Err(t).Error.Message != "O horário selecionado não tem 45 minutos disponíveis. Por favor, escolha outro." {
			t.Fatalf("too short: %d %s", r.StatusCode, r.Body)
		}
		if r := book(e, s, nextMonday, "11:30"); r.StatusCode != 409 || r.Err(t).Error.Code != "slot_too_short" {
			t.Fatalf("past closing: %d %s", r.StatusCode, r.Body)
		}
		if r := book(e, s, "2026-11-29", "10:00"); r.StatusCode != 409 {
			t.Fatalf("closed day: %d", r.StatusCode)
		}
		bad := func(mut func(m map[string]string)) *servertest.Response {
			m := map[string]string{"professionalId": s.professional, "serviceId": s.service, "date": nextMonday, "time": "09:00", "clientName": "Maria", "clientPhone": "11988887777"}
			mut(m)
			return e.Client().Do("POST", "/api/public/profiles/ana/bookings", m)
		}
		for name, c := range map[string]struct {
			mut  func(m map[string]string)
			code int
		}{
			"no name":              {func(m map[string]string) { m["clientName"] = " " }, 400},
			"no contact":           {func(m map[string]string) { m["clientPhone"] = "" }, 400},
			"bad phone":            {func(m map[string]string) { m["clientPhone"] = "123" }, 400},
			"bad e-mail":           {func(m map[string]string) { m["clientEmail"] = "x@" }, 400},
			"bad time":             {func(m map[string]string) { m["time"] = "9h" }, 400},
			"inactive pro":         {func(m map[string]string) { m["professionalId"] = s.other }, 400},
			"unknown service":      {func(m map[string]string) { m["serviceId"] = "nope" }, 400},
			"long name":            {func(m map[string]string) { m["clientName"] = string(make([]byte, 121)) }, 400},
			"unknown profile page": {func(m map[string]string) {}, 0},
		} {
			if c.code == 0 {
				continue
			}
			if r := bad(c.mut); r.StatusCode != c.code {
				t.Errorf("%s: %d %s", name, r.StatusCode, r.Body)
			}
		}
		if r := e.Client().Do("POST", "/api/public/profiles/ninguem/bookings", map[string]string{"professionalId": "x", "serviceId": "y", "date": nextMonday, "time": "09:00", "clientName": "M", "clientPhone": "11988887777"}); r.StatusCode != 404 {
			t.Fatalf("unknown profile: %d", r.StatusCode)
		}
	})
}

func TestBook_IsRateLimitedPerVisitor(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		for i := range 30 {
			if r := bookFrom(e, "10.9.9.9", s, "2026-11-16", "09:00"); r.StatusCode != 409 { // a past date: refused, but counted
				t.Fatalf("attempt %d: %d", i+1, r.StatusCode)
			}
		}
		if r := bookFrom(e, "10.9.9.9", s, nextMonday, "09:00"); r.StatusCode != 429 {
			t.Fatalf("31st booking from one visitor: %d", r.StatusCode)
		}
		if r := bookFrom(e, "10.9.9.10", s, nextMonday, "09:00"); r.StatusCode != 201 {
			t.Fatalf("another visitor: %d %s", r.StatusCode, r.Body)
		}
		big := make([]byte, 9<<10)
		for i := range big {
			big[i] = 'a'
		}
		r := e.Client().Do("POST", "/api/public/profiles/ana/bookings", map[string]string{"clientName": string(big)})
		if r.StatusCode != 413 {
			t.Fatalf("oversized body: %d", r.StatusCode)
		}
	})
}

func TestBook_ClosedWhenTheTrialHasEnded(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		e.Clock.Advance(8 * 24 * time.Hour)
		r := book(e, s, "2026-12-07", "09:00")
		if r.StatusCode != 403 || r.Err(t).Error.Code != "booking_closed" {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
	})
}

// race fires n concurrent bookings for one slot, spread over the servers,
// and returns how many were created.
func race(t *testing.T, servers []*servertest.Env, s shop, n int) int {
	var wg sync.WaitGroup
	codes := make(chan int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- bookFrom(servers[i%len(servers)], fmt.Sprintf("10.0.%d.%d", i/200, i%200+1), s, nextMonday, "10:00").StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	created := 0
	for c := range codes {
		switch c {
		case 201:
			created++
		case 409:
		default:
			t.Errorf("unexpected status %d", c)
		}
	}
	return created
}

func TestBook_FiftyRacersForOneSlotOneWins(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		if created := race(t, []*servertest.Env{e}, s, 50); created != 1 {
			t.Fatalf("%d bookings created for one slot", created)
		}
		var n int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments WHERE status = 'confirmed'`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d rows, %v", n, err)
		}
	})
}

func TestBook_RacersAcrossTwoServersOnOneDatabaseOneWins(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		peer := e.Peer()
		if created := race(t, []*servertest.Env{e, peer}, s, 40); created != 1 {
			t.Fatalf("%d bookings created for one slot across two servers", created)
		}
	})
}

func TestPublicReads_AreLimitedPerVisitor(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.ForwardedFor = "10.7.7.7"
		limited := 0
		for range 310 {
			if c.Do("GET", "/api/public/profiles/ninguem", nil).StatusCode == 429 {
				limited++
			}
		}
		if limited != 10 {
			t.Fatalf("%d of 310 reads limited, want 10", limited)
		}
		other := e.Client()
		other.ForwardedFor = "10.7.7.8"
		if r := other.Do("GET", "/api/public/profiles/ninguem", nil); r.StatusCode != 404 {
			t.Fatalf("another visitor: %d", r.StatusCode)
		}
	})
}
