package booking_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// The schedules of issue 14 as a client meets them on the public pages: the
// clock stands at Monday 2026-11-23, 09:00 in São Paulo.

func setRules(t testing.TB, owner *servertest.Client, step, notice, window, cutoff int) {
	t.Helper()
	r := owner.Do("PUT", "/api/schedule-rules", map[string]int{"slotStep": step, "minNoticeMinutes": notice, "bookingWindowDays": window, "cancelCutoffHours": cutoff})
	if r.StatusCode != 200 {
		t.Fatalf("rules: %d %s", r.StatusCode, r.Body)
	}
}

// setWeek sets the practice's week: the same windows ("09:00-12:00") on the given weekdays.
func setWeek(t testing.TB, owner *servertest.Client, weekdays []int, windows ...[2]string) {
	t.Helper()
	if r := owner.Do("PUT", "/api/availability", map[string]any{"days": week(weekdays, windows...)}); r.StatusCode != 200 {
		t.Fatalf("availability: %d %s", r.StatusCode, r.Body)
	}
}

func week(weekdays []int, windows ...[2]string) []map[string]any {
	var ws []map[string]string
	for _, w := range windows {
		ws = append(ws, map[string]string{"start": w[0], "end": w[1]})
	}
	var days []map[string]any
	for d := range 7 {
		open := false
		for _, o := range weekdays {
			open = open || o == d
		}
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": open, "windows": ws})
	}
	return days
}

func monthDays(t *testing.T, e *servertest.Env, professional, service, month string) []string {
	t.Helper()
	var out struct{ Days []string }
	r := e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/ana/days?month=%s&professional=%s&service=%s", month, professional, service), nil)
	if r.StatusCode != 200 {
		t.Fatalf("days: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	return out.Days
}

func has(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestTimes_KeepTheLunchBreakAProfessionalsOwnWeekDaysOffAndHolidays(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e) // a 45-minute service
		owner := ownerOf(t, e)
		setWeek(t, owner, []int{1, 2, 3, 4, 5}, [2]string{"09:00", "12:00"}, [2]string{"13:00", "15:00"})
		want := []string{"09:00", "09:30", "10:00", "10:30", "11:00", "13:00", "13:30", "14:00"}
		if got := times(t, e, s, nextMonday); !reflect.DeepEqual(got, want) {
			t.Fatalf("a day with a lunch break: %v", got)
		}
		if got := refusal(t, book(e, s, nextMonday, "12:30")); got != "409 slot_outside_hours Horário fora do expediente ou inválido. Escolha um dos horários disponíveis." {
			t.Fatalf("in the break: %s", got)
		}
		if got := refusal(t, book(e, s, nextMonday, "11:30")); got != "409 slot_too_short O horário selecionado não tem 45 minutos disponíveis. Por favor, escolha outro." {
			t.Fatalf("into the break: %s", got)
		}

		// Her own Friday: 14:00–16:00 only, and no Monday at all.
		r := owner.Do("PUT", "/api/professionals/"+s.professional+"/hours", map[string]any{"ownHours": true, "days": week([]int{5}, [2]string{"14:00", "16:00"})})
		if r.StatusCode != 200 {
			t.Fatalf("own hours: %d %s", r.StatusCode, r.Body)
		}
		if got := times(t, e, s, "2026-12-04"); !reflect.DeepEqual(got, []string{"14:00", "14:30", "15:00"}) {
			t.Fatalf("her Friday: %v", got)
		}
		if got := times(t, e, s, nextMonday); len(got) != 0 {
			t.Fatalf("her Monday: %v", got)
		}
		if got := refusal(t, book(e, s, nextMonday, "09:00")); got != "409 day_closed O profissional não atende neste dia. Escolha outra data." {
			t.Fatalf("her closed Monday: %s", got)
		}
		if r := owner.Do("PUT", "/api/professionals/"+s.professional+"/hours", map[string]any{"ownHours": false}); r.StatusCode != 200 {
			t.Fatalf("back to the practice's week: %d %s", r.StatusCode, r.Body)
		}

		// A vacation closes her dates, labelled.
		r = owner.Do("POST", "/api/days-off", map[string]any{"professionalId": s.professional, "start": "2026-12-07", "end": "2026-12-11", "reason": "Férias"})
		if r.StatusCode != 201 {
			t.Fatalf("day off: %d %s", r.StatusCode, r.Body)
		}
		if got := times(t, e, s, "2026-12-09"); len(got) != 0 {
			t.Fatalf("on vacation: %v", got)
		}
		if got := refusal(t, book(e, s, "2026-12-09", "09:00")); got != "409 day_closed O profissional não atende neste dia (Folga: Férias). Escolha outra data." {
			t.Fatalf("booking on vacation: %s", got)
		}
		days := monthDays(t, e, s.professional, s.service, "2026-12")
		if has(days, "2026-12-07") || has(days, "2026-12-11") || !has(days, "2026-12-04") || !has(days, "2026-12-14") {
			t.Fatalf("December around the vacation: %v", days)
		}

		// Carnaval is closed unless the owner opens it.
		const carnaval = "2027-02-08"
		if got := times(t, e, s, carnaval); len(got) != 0 {
			t.Fatalf("Carnaval: %v", got)
		}
		if got := refusal(t, book(e, s, carnaval, "09:00")); got != "409 day_closed O profissional não atende neste dia (Carnaval (segunda-feira)). Escolha outra data." {
			t.Fatalf("booking on Carnaval: %s", got)
		}
		if has(monthDays(t, e, s.professional, s.service, "2027-02"), carnaval) {
			t.Fatal("Carnaval offered")
		}
		if r := owner.Do("PUT", "/api/holidays/carnaval-segunda", map[string]bool{"open": true}); r.StatusCode != 204 {
			t.Fatalf("open Carnaval: %d %s", r.StatusCode, r.Body)
		}
		if got := times(t, e, s, carnaval); !reflect.DeepEqual(got, want) {
			t.Fatalf("Carnaval opened: %v", got)
		}
		if !has(monthDays(t, e, s.professional, s.service, "2027-02"), carnaval) {
			t.Fatal("opened Carnaval not offered")
		}
		if has(monthDays(t, e, s.professional, s.service, "2027-02"), "2027-02-09") {
			t.Fatal("Carnaval's Tuesday stays closed")
		}
	})
}

func TestTimes_BuffersStepNoticeAndWindow(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e) // Mondays 09:00–12:00, 45 minutes
		owner := ownerOf(t, e)
		r := owner.Do("PUT", "/api/services/"+s.service, map[string]any{"name": "Sessão", "duration": 45, "priceCents": 15000, "bufferAfter": 15})
		if r.StatusCode != 200 {
			t.Fatalf("buffer: %d %s", r.StatusCode, r.Body)
		}
		setRules(t, owner, 15, 0, 90, 0)
		if r := book(e, s, nextMonday, "10:00"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		// 10:00–10:45 keeps 15 minutes after it, and whatever comes before
		// must end 15 minutes before 10:00.
		if got := times(t, e, s, nextMonday); !reflect.DeepEqual(got, []string{"09:00", "11:00", "11:15"}) {
			t.Fatalf("15-minute steps around a buffered appointment: %v", got)
		}
		if got := refusal(t, book(e, s, nextMonday, "10:45")); got != "409 slot_too_short O horário selecionado não tem 45 minutos disponíveis. Por favor, escolha outro." {
			t.Fatalf("inside the buffer: %s", got)
		}
		setRules(t, owner, 0, 0, 90, 0) // the service's duration as the step
		if got := times(t, e, s, nextMonday); !reflect.DeepEqual(got, []string{"09:00", "11:15"}) {
			t.Fatalf("45-minute steps: %v", got)
		}

		// Two hours of notice, on a day open from 09:00 (now).
		setWeek(t, owner, []int{0, 1, 2, 3, 4, 5, 6}, [2]string{"09:00", "12:00"})
		setRules(t, owner, 30, 120, 90, 0)
		if got := times(t, e, s, "2026-11-23"); !reflect.DeepEqual(got, []string{"11:00"}) {
			t.Fatalf("today with two hours of notice: %v", got)
		}
		if got := refusal(t, book(e, s, "2026-11-23", "10:00")); got != "409 slot_too_soon Agendamentos online precisam de pelo menos 2 horas de antecedência. Escolha um horário mais tarde." {
			t.Fatalf("too soon: %s", got)
		}

		// The default window: 90 days, to 2027-02-21.
		days := monthDays(t, e, s.professional, s.service, "2027-02")
		if len(days) == 0 || days[len(days)-1] != "2027-02-21" {
			t.Fatalf("February in a 90-day window: %v", days)
		}
		if got := refusal(t, book(e, s, "2027-02-22", "09:00")); got != "409 date_beyond_window Escolha uma data dentro dos próximos 90 dias." {
			t.Fatalf("beyond 90 days: %s", got)
		}
		var p struct{ FirstBookableDate, LastBookableDate string }
		e.Client().Do("GET", "/api/public/profiles/ana", nil).JSON(t, &p)
		if p.FirstBookableDate != "2026-11-23" || p.LastBookableDate != "2027-02-21" {
			t.Fatalf("public profile's dates: %+v", p)
		}
		setRules(t, owner, 30, 0, 30, 0)
		if got := refusal(t, book(e, s, "2026-12-24", "09:00")); got != "409 date_beyond_window Escolha uma data dentro dos próximos 30 dias." {
			t.Fatalf("beyond 30 days: %s", got)
		}
	})
}

func TestCancelLink_StopsAtTheCutoff(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		setRules(t, ownerOf(t, e), 30, 0, 90, 24)
		if r := book(e, s, nextMonday, "10:00"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		token := cancelToken(t, e)
		var c struct {
			Cancellable bool
			CancelUntil *time.Time
		}
		e.Client().Do("GET", "/api/public/bookings/"+token, nil).JSON(t, &c)
		if !c.Cancellable || c.CancelUntil == nil || !c.CancelUntil.Equal(time.Date(2026, 11, 29, 13, 0, 0, 0, time.UTC)) {
			t.Fatalf("before the cutoff: %+v", c)
		}
		e.Clock.Advance(6*24*time.Hour + time.Hour) // Sunday 10:00 in São Paulo: 24 hours before
		e.Client().Do("GET", "/api/public/bookings/"+token, nil).JSON(t, &c)
		if c.Cancellable {
			t.Fatalf("at the cutoff: %+v", c)
		}
		r := e.Client().Do("POST", "/api/public/bookings/"+token+"/cancel", nil)
		if got := refusal(t, r); got != "409 cancel_cutoff O prazo para cancelar pelo link terminou: cancelamentos só até 24 horas antes do horário. Entre em contato com o profissional." {
			t.Fatalf("cancel after the cutoff: %s", got)
		}
		// With the practice's contact on its profile, the refusal gives it.
		if _, err := e.DB.ExecContext(context.Background(), `UPDATE profiles SET whatsapp = '11976543210', contact_email = 'contato@ana.example'`); err != nil {
			t.Fatal(err)
		}
		r = e.Client().Do("POST", "/api/public/bookings/"+token+"/cancel", nil)
		if got := refusal(t, r); got != "409 cancel_cutoff O prazo para cancelar pelo link terminou: cancelamentos só até 24 horas antes do horário. "+
			"Entre em contato com Ana: WhatsApp (11) 97654-3210 ou e-mail contato@ana.example." {
			t.Fatalf("cancel after the cutoff, with the practice's contact: %s", got)
		}
	})
}

// cancelToken gives the only appointment a known cancel link.
func cancelToken(t *testing.T, e *servertest.Env) string {
	t.Helper()
	const token = "link-de-teste"
	if _, err := e.DB.ExecContext(context.Background(), `UPDATE appointments SET cancel_token_hash = ?`, hashOf(token)); err != nil {
		t.Fatal(err)
	}
	return token
}

func hashOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// team adds two more professionals to openShop's, all three active and
// performing the service: "Ana" (openShop's), "Bia" and "Caio".
func team(t *testing.T, e *servertest.Env, s shop) map[string]string {
	owner := ownerOf(t, e)
	byName := map[string]string{"Ana": s.professional}
	for _, name := range []string{"Caio", "Bia"} {
		var p struct{ ID string }
		owner.Do("POST", "/api/professionals", map[string]string{"name": name, "specialization": "Psicólogo(a)"}).JSON(t, &p)
		byName[name] = p.ID
	}
	return byName
}

func bookAny(e *servertest.Env, ip string, s shop, date, at string) *servertest.Response {
	c := e.Client()
	c.ForwardedFor = ip
	return c.Do("POST", "/api/public/profiles/ana/bookings", map[string]string{
		"professionalId": "any", "serviceId": s.service, "date": date, "time": at, "clientName": "Maria", "clientPhone": "11988887777"})
}

func TestAnyProfessional_OffersTheUnionAndBooksTheLeastBusy(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		pros := team(t, e, s)
		anyone := shop{professional: "any", service: s.service}
		if r := book(e, shop{professional: pros["Ana"], service: s.service}, nextMonday, "10:00"); r.StatusCode != 201 {
			t.Fatalf("Ana at 10:00: %d %s", r.StatusCode, r.Body)
		}
		owner := ownerOf(t, e)
		r := owner.Do("PUT", "/api/professionals/"+pros["Caio"]+"/hours", map[string]any{"ownHours": true, "days": week([]int{1}, [2]string{"11:00", "12:00"})})
		if r.StatusCode != 200 {
			t.Fatalf("Caio's hours: %d %s", r.StatusCode, r.Body)
		}
		if got := times(t, e, anyone, nextMonday); !reflect.DeepEqual(got, []string{"09:00", "09:30", "10:00", "10:30", "11:00"}) {
			t.Fatalf("the union: %v", got)
		}
		// At 11:00 Ana (1 appointment), Bia and Caio (none) are free: Bia, by name.
		var b struct{ ProfessionalName string }
		r = bookAny(e, "10.9.0.1", s, nextMonday, "11:00")
		if r.StatusCode != 201 {
			t.Fatalf("any at 11:00: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &b)
		if b.ProfessionalName != "Bia" {
			t.Fatalf("any at 11:00 went to %s", b.ProfessionalName)
		}
		// At 11:00 again: Ana and Caio are free, Caio has fewer appointments.
		bookAny(e, "10.9.0.2", s, nextMonday, "11:00").JSON(t, &b)
		if b.ProfessionalName != "Caio" {
			t.Fatalf("second any at 11:00 went to %s", b.ProfessionalName)
		}
		bookAny(e, "10.9.0.3", s, nextMonday, "11:00").JSON(t, &b)
		if b.ProfessionalName != "Ana" {
			t.Fatalf("third any at 11:00 went to %s", b.ProfessionalName)
		}
		if got := refusal(t, bookAny(e, "10.9.0.4", s, nextMonday, "11:00")); got != "409 slot_unavailable Este profissional já possui agendamento neste horário. Por favor, escolha outro horário." {
			t.Fatalf("nobody left at 11:00: %s", got)
		}
		if got := times(t, e, anyone, nextMonday); has(got, "11:00") {
			t.Fatalf("11:00 still offered: %v", got)
		}
	})
}

// Fifty clients ask for the same time from "any professional" of three: each
// professional gets exactly one of them, on both engines.
func TestAnyProfessional_FiftyRacersFillThreeProfessionalsOnce(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		team(t, e, s)
		var wg sync.WaitGroup
		codes := make(chan int, 50)
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes <- bookAny(e, fmt.Sprintf("10.8.%d.%d", i/200, i%200+1), s, nextMonday, "10:00").StatusCode
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
		var rows, pros int
		err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*), COUNT(DISTINCT professional_id) FROM appointments WHERE status = 'confirmed'`).Scan(&rows, &pros)
		if err != nil || created != 3 || rows != 3 || pros != 3 {
			t.Fatalf("created %d, rows %d on %d professionals, %v", created, rows, pros, err)
		}
	})
}

// Every time the public page offers can be booked, and what gets booked
// never comes closer to another appointment than their buffers allow: a
// random practice (windows, step, buffers, notice), random clients taking
// random offered times until the day is full.
func TestOfferedTimes_AlwaysBookAndNeverCrowd(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := openShop(t, e)
		pros := team(t, e, s)
		owner := ownerOf(t, e)
		rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 14))
		for round := range 4 {
			open := 7*60 + rng.IntN(4)*30
			mid := open + 120 + rng.IntN(5)*15
			resume := mid + 15*rng.IntN(6)
			close := resume + 60 + rng.IntN(8)*15
			hm := func(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }
			setWeek(t, owner, []int{0, 1, 2, 3, 4, 5, 6}, [2]string{hm(open), hm(mid)}, [2]string{hm(resume), hm(close)})
			setRules(t, owner, []int{0, 15, 30, 60}[rng.IntN(4)], 0, 90, 0)
			duration, before, after := 15+15*rng.IntN(5), 5*rng.IntN(4), 5*rng.IntN(4)
			r := owner.Do("PUT", "/api/services/"+s.service, map[string]any{"name": "Sessão", "duration": duration, "priceCents": 100, "bufferBefore": before, "bufferAfter": after})
			if r.StatusCode != 200 {
				t.Fatalf("service: %d %s", r.StatusCode, r.Body)
			}
			date := time.Date(2026, 12, 1+round, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
			who := []string{"any", pros["Ana"], pros["Bia"]}
			for i := 0; i < 60; i++ {
				pick := shop{professional: who[rng.IntN(len(who))], service: s.service}
				offered := times(t, e, pick, date)
				if len(offered) == 0 {
					continue
				}
				at := offered[rng.IntN(len(offered))]
				r := bookFrom(e, fmt.Sprintf("10.6.%d.%d", round, i+1), pick, date, at)
				if r.StatusCode != 201 {
					t.Fatalf("round %d: offered %s at %s for %s, booking answered %d %s", round, date, at, pick.professional, r.StatusCode, r.Body)
				}
			}
			rows, err := e.DB.QueryContext(context.Background(), `SELECT professional_id, appointment_time, duration, buffer_before, buffer_after FROM appointments
				WHERE appointment_date = ? AND status = 'confirmed' ORDER BY professional_id, appointment_time`, date)
			if err != nil {
				t.Fatal(err)
			}
			type appt struct {
				pro, at                 string
				duration, before, after int
			}
			var all []appt
			for rows.Next() {
				var a appt
				if err := rows.Scan(&a.pro, &a.at, &a.duration, &a.before, &a.after); err != nil {
					t.Fatal(err)
				}
				all = append(all, a)
			}
			rows.Close()
			if len(all) == 0 {
				t.Fatalf("round %d: nothing booked", round)
			}
			minutes := func(s string) int { var h, m int; fmt.Sscanf(s, "%d:%d", &h, &m); return h*60 + m }
			for i := 1; i < len(all); i++ {
				a, b := all[i-1], all[i]
				if a.pro != b.pro {
					continue
				}
				if gap := minutes(b.at) - (minutes(a.at) + a.duration); gap < max(a.after, b.before) {
					t.Fatalf("round %d: %+v and %+v are %d minutes apart", round, a, b, gap)
				}
			}
			for _, a := range all {
				start := minutes(a.at)
				inFirst := start >= open && start+a.duration <= mid
				inSecond := start >= resume && start+a.duration <= close
				if !inFirst && !inSecond {
					t.Fatalf("round %d: %+v outside %s–%s, %s–%s", round, a, hm(open), hm(mid), hm(resume), hm(close))
				}
			}
		}
	})
}
