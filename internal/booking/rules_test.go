package booking_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// ownerOf signs in as openShop's owner.
func ownerOf(t testing.TB, e *servertest.Env) *servertest.Client {
	c := e.Client()
	if r := c.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
		t.Fatalf("login: %d %s", r.StatusCode, r.Body)
	}
	return c
}

// openEveryDay opens the shop 09:00–12:00 on every weekday.
func openEveryDay(t testing.TB, owner *servertest.Client) { openHours(t, owner, "09:00", "12:00") }

func openHours(t testing.TB, owner *servertest.Client, start, end string) {
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": start, "end": end})
	}
	if r := owner.Do("PUT", "/api/availability", map[string]any{"days": days}); r.StatusCode != 200 {
		t.Fatalf("availability: %d %s", r.StatusCode, r.Body)
	}
}

func refusal(t *testing.T, r *servertest.Response) string {
	t.Helper()
	e := r.Err(t)
	return fmt.Sprintf("%d %s %s", r.StatusCode, e.Error.Code, e.Error.Message)
}

// A refused time says what is wrong with it; 'slot_unavailable' is kept for a
// real collision with another appointment (the spec's text).
func TestBook_RefusalsSayWhatIsWrong(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e) // Mondays 09:00–12:00, 45 minutes; now Monday 2026-11-23 09:00
		if r := book(e, s, nextMonday, "10:00"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		const (
			past     = "409 slot_past Este horário já passou. Escolha outro horário."
			closed   = "409 day_closed O profissional não atende neste dia. Escolha outra data."
			offHours = "409 slot_outside_hours Horário fora do expediente ou inválido. Escolha um dos horários disponíveis."
			taken    = "409 slot_unavailable Este profissional já possui agendamento neste horário. Por favor, escolha outro horário."
			short    = "409 slot_too_short O horário selecionado não tem 45 minutos disponíveis. Por favor, escolha outro."
			invalid  = "400 validation_failed Data ou horário inválido."
		)
		for i, c := range []struct{ date, at, want string }{
			{"2026-11-16", "10:00", past},    // a past Monday
			{"2026-11-23", "08:30", past},    // today, before now (and before opening)
			{"2026-11-29", "10:00", closed},  // Sunday
			{"2026-12-01", "10:00", closed},  // Tuesday
			{nextMonday, "09:15", offHours},  // off the 30-minute grid
			{nextMonday, "08:30", offHours},  // before opening
			{nextMonday, "12:00", offHours},  // at closing
			{nextMonday, "18:00", offHours},  // after closing
			{nextMonday, "10:00", taken},     // the booked time itself
			{nextMonday, "10:30", taken},     // inside the booked 45 minutes
			{nextMonday, "09:30", short},     // would run into 10:00
			{nextMonday, "11:30", short},     // would run past closing
			{nextMonday, "+9:00", invalid},   // strconv.Atoi would read 9
			{nextMonday, "9:00", invalid},    // one digit
			{"9999-12-31", "23:00", invalid}, // year 10000 in UTC: never stored
			{"2026-11-30T10:00", "10:00", invalid},
		} {
			r := bookFrom(e, fmt.Sprintf("10.4.0.%d", i+1), s, c.date, c.at)
			if got := refusal(t, r); got != c.want {
				t.Errorf("%s %s: %s; want %s", c.date, c.at, got, c.want)
			}
		}
		var n int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d appointments, %v", n, err)
		}
	})
}

// The booking window at its widest: the last bookable date is the owner's
// today plus 365 days. What is booked on it reads back through the cancel link and the
// agenda on both engines; a day later is refused, and neither the times nor
// the days offer it.
func TestBook_DatesHaveAHorizonAndReadBack(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		owner := ownerOf(t, e)
		openEveryDay(t, owner)
		setRules(t, owner, 30, 0, 365, 0)
		const last, beyond = "2027-11-23", "2027-11-24"
		r := book(e, s, last, "11:00")
		if r.StatusCode != 201 {
			t.Fatalf("last day: %d %s", r.StatusCode, r.Body)
		}
		var b struct{ ID string }
		r.JSON(t, &b)
		sum := sha256.Sum256([]byte("link-do-ultimo-dia"))
		if _, err := e.DB.ExecContext(context.Background(), `UPDATE appointments SET cancel_token_hash = ? WHERE id = ?`, hex.EncodeToString(sum[:]), b.ID); err != nil {
			t.Fatal(err)
		}
		var link struct {
			Date, Time, Status string
			Cancellable        bool
		}
		lr := e.Client().Do("GET", "/api/public/bookings/link-do-ultimo-dia", nil)
		if lr.StatusCode != 200 {
			t.Fatalf("cancel link: %d %s", lr.StatusCode, lr.Body)
		}
		lr.JSON(t, &link)
		if link.Date != last || link.Time != "11:00" || link.Status != "confirmed" || !link.Cancellable {
			t.Fatalf("cancel link: %+v", link)
		}
		var agenda struct {
			Appointments []struct{ ID, Date, Time string }
		}
		ar := owner.Do("GET", "/api/appointments?from=2027-11-01&to=2027-11-30", nil)
		if ar.StatusCode != 200 {
			t.Fatalf("agenda: %d %s", ar.StatusCode, ar.Body)
		}
		ar.JSON(t, &agenda)
		if len(agenda.Appointments) != 1 || agenda.Appointments[0].ID != b.ID || agenda.Appointments[0].Date != last {
			t.Fatalf("agenda: %+v", agenda)
		}
		if ar := owner.Do("GET", "/api/appointments/"+b.ID, nil); ar.StatusCode != 200 {
			t.Fatalf("detail: %d %s", ar.StatusCode, ar.Body)
		}

		if got := refusal(t, book(e, s, beyond, "09:00")); got != "409 date_beyond_window Escolha uma data dentro dos próximos 365 dias." {
			t.Fatalf("a day past the window: %s", got)
		}
		if got := times(t, e, s, last); !reflect.DeepEqual(got, []string{"09:00", "09:30", "10:00"}) {
			t.Fatalf("times of the last day: %v", got)
		}
		for _, date := range []string{beyond, "2099-12-31", "2100-12-31"} {
			if got := times(t, e, s, date); len(got) != 0 {
				t.Fatalf("times of %s: %v", date, got)
			}
		}
		days := func(month string) (int, []string) {
			var out struct{ Days []string }
			r := e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/ana/days?month=%s&professional=%s&service=%s", month, s.professional, s.service), nil)
			if r.StatusCode == 200 {
				r.JSON(t, &out)
			}
			return r.StatusCode, out.Days
		}
		// All of November to the 23rd but its holidays (Finados, República, Consciência Negra).
		if code, got := days("2027-11"); code != 200 || len(got) != 20 || got[19] != last {
			t.Fatalf("days of the window's last month: %d %v", code, got)
		}
		if code, got := days("2027-12"); code != 200 || len(got) != 0 {
			t.Fatalf("days beyond the window: %d %v", code, got)
		}
		// Dates no database reads back are refused as input, not stored.
		for _, q := range []string{"/api/public/profiles/ana/days?month=9999-12", "/api/public/profiles/ana/times?date=9999-12-31",
			"/api/public/profiles/ana/times?date=1999-12-31", "/api/public/profiles/ana/days?month=2101-01"} {
			if r := e.Client().Do("GET", q+"&professional="+s.professional+"&service="+s.service, nil); r.StatusCode != 400 {
				t.Errorf("%s: %d %s", q, r.StatusCode, r.Body)
			}
		}
		for _, q := range []string{"from=9999-12-01&to=9999-12-31", "from=1999-12-01&to=2000-01-01", "from=2100-12-31&to=2101-01-01", "from=+2026-11-01&to=2026-11-30"} {
			if r := owner.Do("GET", "/api/appointments?"+q, nil); r.StatusCode != 400 {
				t.Errorf("agenda %s: %d %s", q, r.StatusCode, r.Body)
			}
		}
		if r := owner.Do("GET", "/api/appointments?from=2100-12-01&to=2100-12-31", nil); r.StatusCode != 200 {
			t.Errorf("agenda at the last readable year: %d %s", r.StatusCode, r.Body)
		}
	})
}

// The window follows the owner's today: at 23:30 of 2026-11-23 in São Paulo
// (already the 24th in UTC) the last date of a 365-day window is still 2027-11-23.
func TestBook_HorizonIsCountedInTheOwnersZone(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		owner := ownerOf(t, e)
		openEveryDay(t, owner)
		setRules(t, owner, 30, 0, 365, 0)
		e.Clock.Advance(14*time.Hour + 30*time.Minute) // 2026-11-24 02:30 UTC
		if r := book(e, s, "2027-11-23", "09:00"); r.StatusCode != 201 {
			t.Fatalf("the owner's today + 365: %d %s", r.StatusCode, r.Body)
		}
		if got := refusal(t, book(e, s, "2027-11-24", "09:00")); got != "409 date_beyond_window Escolha uma data dentro dos próximos 365 dias." {
			t.Fatalf("UTC's today + 365: %s", got)
		}
	})
}

// FuzzBookingDates: whatever date and time a visitor sends, the answer is
// never a 500, and a booking that is accepted reads back on both engines
// through the cancel link and the owner's agenda (a booking for 9999-12-31
// 23:00 used to be stored as UTC year 10000, and its link answered 500).
// The shop is open all day, every day, so only the date rules decide.
func FuzzBookingDates(f *testing.F) {
	for _, c := range [][2]string{
		{"2027-11-23", "22:00"}, {"2027-11-23", "23:30"}, {"2027-11-24", "00:00"}, {"2026-11-23", "21:00"}, {"9999-12-31", "23:00"}, {"2100-12-31", "23:30"},
		{"2000-01-01", "00:00"}, {"2026-11-23", "09:00"}, {"2026-11-23", "23:30"}, {"2026-02-29", "10:00"}, {"+2026-11-24", "+9:00"},
	} {
		f.Add(c[0], c[1])
	}
	type env struct {
		e     *servertest.Env
		s     shop
		owner *servertest.Client
	}
	var envs []env
	for _, dialect := range dbtest.Dialects(f) {
		e := servertest.Start(f, dialect)
		s := openShop(f, e)
		owner := ownerOf(f, e)
		openHours(f, owner, "00:00", "23:59")
		setRules(f, owner, 30, 0, 365, 0)
		envs = append(envs, env{e, s, owner})
	}
	var visitor atomic.Int64
	f.Fuzz(func(t *testing.T, date, at string) {
		for _, v := range envs {
			n := visitor.Add(1)
			c := v.e.Client().As(t)
			c.ForwardedFor = fmt.Sprintf("10.%d.%d.%d", 100+n/65536%100, n/256%256, n%256)
			r := c.Do("POST", "/api/public/profiles/ana/bookings", map[string]string{
				"professionalId": v.s.professional, "serviceId": v.s.service, "date": date, "time": at, "clientName": "Maria", "clientPhone": "11988887777"})
			switch {
			case r.StatusCode >= 500:
				t.Fatalf("%s %s: %d %s", date, at, r.StatusCode, r.Body)
			case r.StatusCode != 201:
				continue
			}
			var b struct{ ID, Date, Time string }
			r.JSON(t, &b)
			if b.Date != date || b.Time != at || date > "2027-11-23" || date < "2026-11-23" {
				t.Fatalf("%s %s booked as %+v", date, at, b)
			}
			token := "fuzz-" + b.ID
			sum := sha256.Sum256([]byte(token))
			if _, err := v.e.DB.ExecContext(context.Background(), `UPDATE appointments SET cancel_token_hash = ? WHERE id = ?`, hex.EncodeToString(sum[:]), b.ID); err != nil {
				t.Fatal(err)
			}
			if lr := c.Do("GET", "/api/public/bookings/"+token, nil); lr.StatusCode != 200 {
				t.Fatalf("cancel link of %s %s: %d %s", date, at, lr.StatusCode, lr.Body)
			}
			if ar := v.owner.As(t).Do("GET", "/api/appointments?from="+date+"&to="+date, nil); ar.StatusCode != 200 || !strings.Contains(string(ar.Body), b.ID) {
				t.Fatalf("agenda of %s: %d %s", date, ar.StatusCode, ar.Body)
			}
		}
	})
}
