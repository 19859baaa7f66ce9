package agenda_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/server/servertest"
)

func (s *shop) create(body map[string]any) *servertest.Response {
	in := map[string]any{"professionalId": s.pro, "serviceId": s.svc, "clientName": "Paciente do Telefone", "clientPhone": "(11) 97777-6666"}
	for k, v := range body {
		in[k] = v
	}
	return s.owner.Do("POST", "/api/appointments", in)
}

func publicTimes(t *testing.T, e *servertest.Env, s *shop, date string) []string {
	t.Helper()
	var out struct{ Times []string }
	r := e.Client().Do("GET", fmt.Sprintf("/api/public/profiles/dona/times?date=%s&professional=%s&service=%s", date, s.pro, s.svc), nil)
	if r.StatusCode != 200 {
		t.Fatalf("times: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	return out.Times
}

// An owner writes a phone booking into the agenda: it holds its time (the
// public page stops offering it), never goes over another appointment, goes
// outside the hours only when the owner says so, and says what is wrong.
func TestCreate_OwnerBookingHoldsTimeLikeAClientsBooking(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona") // open every day 08:00–20:00, 60-minute service; now 2026-11-23 09:00
		if !slices.Contains(publicTimes(t, e, s, "2026-11-25"), "14:00") {
			t.Fatal("14:00 should be free before the owner writes it")
		}
		r := s.create(map[string]any{"date": "2026-11-25", "time": "14:00", "notes": "Ligou às 8h"})
		if r.StatusCode != 201 {
			t.Fatalf("create: %d %s", r.StatusCode, r.Body)
		}
		var a struct {
			ID, Status, ClientName, ClientPhone, ProfessionalName, ServiceName, Date, Time, Notes string
			PriceCents                                                                            int
		}
		r.JSON(t, &a)
		if a.Status != "confirmed" || a.ClientName != "Paciente do Telefone" || a.ClientPhone != "11977776666" || a.ProfessionalName != "Ana" ||
			a.ServiceName != "Sessão" || a.Date != "2026-11-25" || a.Time != "14:00" || a.Notes != "Ligou às 8h" || a.PriceCents != 10000 {
			t.Fatalf("created: %+v", a)
		}
		if slices.Contains(publicTimes(t, e, s, "2026-11-25"), "14:00") || slices.Contains(publicTimes(t, e, s, "2026-11-25"), "13:30") {
			t.Fatal("the owner's booking must take 14:00 (and 13:30, which would overlap) off the public page")
		}
		if r := s.publicBook(e, "dona", "10.9.0.1", "2026-11-25", "14:00"); r.StatusCode != 409 {
			t.Fatalf("a client over the owner's booking: %d", r.StatusCode)
		}
		// Never over another appointment, a partial overlap included.
		for _, at := range []string{"14:00", "13:30", "14:30"} {
			r := s.create(map[string]any{"date": "2026-11-25", "time": at, "outsideHours": true})
			if r.StatusCode != 409 || r.Err(t).Error.Code != "slot_unavailable" {
				t.Fatalf("over another at %s: %d %s", at, r.StatusCode, r.Body)
			}
		}
		// Outside the hours only with the owner's yes.
		r = s.create(map[string]any{"date": "2026-11-25", "time": "21:00"})
		if r.StatusCode != 409 || r.Err(t).Error.Code != "outside_hours" || !strings.HasPrefix(r.Err(t).Error.Message, "Fora do horário de atendimento") {
			t.Fatalf("outside hours without a yes: %d %s", r.StatusCode, r.Body)
		}
		if r := s.create(map[string]any{"date": "2026-11-25", "time": "21:00", "outsideHours": true}); r.StatusCode != 201 {
			t.Fatalf("outside hours with a yes: %d %s", r.StatusCode, r.Body)
		}
		// An owner may record what happened: a past time inside the hours (the
		// 20th is Consciência Negra, a national holiday: closed).
		if r := s.create(map[string]any{"date": "2026-11-19", "time": "10:00"}); r.StatusCode != 201 {
			t.Fatalf("a past time: %d %s", r.StatusCode, r.Body)
		}
		// Bad input says what is wrong and writes nothing.
		for _, c := range []struct {
			body map[string]any
			want string
		}{
			{map[string]any{"date": "2026-11-26", "time": "10:00", "clientName": ""}, "Por favor, preencha todos os campos obrigatórios."},
			{map[string]any{"date": "2026-11-26", "time": "10:00", "clientPhone": ""}, ""},
			{map[string]any{"date": "2026-11-26", "time": "10:00", "clientPhone": "123"}, ""},
			{map[string]any{"date": "2026-11-26", "time": "25:00"}, "Data ou horário inválido."},
			{map[string]any{"date": "2029-11-26", "time": "10:00"}, "Escolha uma data entre um ano atrás e dois anos à frente."},
			{map[string]any{"date": "2026-11-26", "time": "10:00", "serviceId": "nope"}, "Profissional ou serviço inválido. Escolha entre os ativos."},
		} {
			r := s.create(c.body)
			if r.StatusCode != 400 || (c.want != "" && r.Err(t).Error.Message != c.want) {
				t.Fatalf("%v: %d %s", c.body, r.StatusCode, r.Body)
			}
		}
		if slices.Contains(publicTimes(t, e, s, "2026-11-26"), "10:00") == false {
			t.Fatal("a refused create must not hold time")
		}
		// Another owner cannot write into this agenda with this professional.
		other := setup(t, e, "outra@example.com", "outra")
		if r := other.owner.Do("POST", "/api/appointments", map[string]any{"professionalId": s.pro, "serviceId": s.svc, "date": "2026-11-26",
			"time": "10:00", "clientName": "X", "clientPhone": "11988887777"}); r.StatusCode != 400 {
			t.Fatalf("another owner's professional: %d %s", r.StatusCode, r.Body)
		}
		// The client gets the confirmation only when the owner asks for it.
		if r := s.create(map[string]any{"date": "2026-11-27", "time": "10:00", "clientEmail": "calada@example.com"}); r.StatusCode != 201 {
			t.Fatalf("create without notice: %d %s", r.StatusCode, r.Body)
		}
		if r := s.create(map[string]any{"date": "2026-11-27", "time": "11:00", "clientEmail": "avisada@example.com", "notifyClient": true}); r.StatusCode != 201 {
			t.Fatalf("create with notice: %d %s", r.StatusCode, r.Body)
		}
		var told, silent bool
		for _, m := range e.Mails() {
			told = told || strings.Contains(m.Raw, "To: <avisada@example.com>") && strings.Contains(m.Raw, "agendamento.ics") && strings.Contains(m.Raw, "/cancel/")
			silent = silent || strings.Contains(m.Raw, "calada@example.com")
		}
		if !told || silent {
			t.Fatalf("confirmation sent to the notified client: %v; to the other: %v", told, silent)
		}
		// The owner is told, as with every new appointment.
		var notes struct{ Notifications []struct{ Title string } }
		s.owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		if len(notes.Notifications) != 5 || notes.Notifications[0].Title != "Agendamento criado" {
			t.Fatalf("notifications: %+v", notes)
		}
	})
}

// The race, on each engine: the owner writes a phone booking and a
// client books the same time at once, 30 rounds: exactly one holds it.
func TestCreate_OwnerAndClientRacingForOneTimeOneWins(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		for i := range 30 {
			date := fmt.Sprintf("2026-12-%02d", 1+i/12)
			at := fmt.Sprintf("%02d:00", 8+i%12)
			var wg sync.WaitGroup
			var owner, client int
			start := make(chan struct{})
			wg.Add(2)
			go func() {
				defer wg.Done()
				<-start
				owner = s.create(map[string]any{"date": date, "time": at}).StatusCode
			}()
			go func() {
				defer wg.Done()
				<-start
				client = s.publicBook(e, "dona", fmt.Sprintf("10.4.%d.1", i), date, at).StatusCode
			}()
			close(start)
			wg.Wait()
			if n := holders(t, e, s.pro, date, at); n != 1 || (owner == 201) == (client == 201) {
				t.Fatalf("round %d (%s %s): %d holders (owner %d, client %d)", i, date, at, n, owner, client)
			}
		}
	})
}

// The type-ahead of the owner's form finds clients by name or e-mail
// (ignoring case and accents) or by phone digits, with their latest contacts.
func TestClientSearch_FindsByNameEmailOrPhone(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, seeds)
		find := func(c *servertest.Client, q string) []string {
			var out struct {
				Clients []struct{ Name, Email, Phone string }
			}
			r := c.Do("GET", "/api/clients/search?q="+q, nil)
			if r.StatusCode != 200 {
				t.Fatalf("search %q: %d %s", q, r.StatusCode, r.Body)
			}
			r.JSON(t, &out)
			var names []string
			for _, m := range out.Clients {
				names = append(names, m.Name+"|"+m.Email+"|"+m.Phone)
			}
			return names
		}
		for q, want := range map[string]string{
			"mar":         "Maria|MARIA2@x.com|11911111111", // the latest of her two appointments
			"ERI":         "Érica|erica@x.com|21922222222",
			"joao%40x":    "João|joao@x.com|",
			"(21)%209222": "Érica|erica@x.com|21922222222",
		} {
			if got := find(s.owner, q); len(got) != 1 || got[0] != want {
				t.Errorf("%q: %v", q, got)
			}
		}
		if got := find(s.owner, "a"); len(got) != 0 {
			t.Errorf("one letter finds nothing: %v", got)
		}
		if got := find(s.owner, "%25%25"); len(got) != 0 {
			t.Errorf("%% is not a wildcard: %v", got)
		}
		other := setup(t, e, "outra@example.com", "outra")
		if got := find(other.owner, "mar"); len(got) != 0 {
			t.Errorf("another owner's clients: %v", got)
		}
	})
}

// A block takes time out of the agenda: the public page stops offering it,
// the owner cannot book over it (and is told why), the whole practice's
// blocks cover everyone, and removing it gives the time back.
func TestBlocks_TakeTimeOutOfTheAgendaAndGiveItBack(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		var second struct{ ID string }
		s.owner.Do("POST", "/api/professionals", map[string]string{"name": "Bia", "specialization": "Psicóloga"}).JSON(t, &second)
		block := func(body map[string]any) (*servertest.Response, string) {
			r := s.owner.Do("POST", "/api/blocks", body)
			var b struct{ ID string }
			if r.StatusCode == 201 {
				r.JSON(t, &b)
			}
			return r, b.ID
		}
		r, mine := block(map[string]any{"professionalId": s.pro, "date": "2026-11-25", "start": "14:00", "end": "16:00", "reason": "Supervisão"})
		if r.StatusCode != 201 {
			t.Fatalf("block: %d %s", r.StatusCode, r.Body)
		}
		free := publicTimes(t, e, s, "2026-11-25")
		for _, at := range []string{"13:30", "14:00", "15:00", "15:30"} {
			if slices.Contains(free, at) {
				t.Fatalf("%s offered inside or into the block: %v", at, free)
			}
		}
		if !slices.Contains(free, "13:00") || !slices.Contains(free, "16:00") {
			t.Fatalf("the edges of the block stay free: %v", free)
		}
		if r := s.publicBook(e, "dona", "10.8.0.1", "2026-11-25", "14:00"); r.StatusCode != 409 {
			t.Fatalf("a client over a block: %d", r.StatusCode)
		}
		r = s.create(map[string]any{"date": "2026-11-25", "time": "15:00", "outsideHours": true})
		if r.StatusCode != 409 || r.Err(t).Error.Code != "time_blocked" {
			t.Fatalf("the owner over a block: %d %s", r.StatusCode, r.Body)
		}
		// Bia is not blocked by Ana's block; the practice's block covers both.
		if r := s.create(map[string]any{"professionalId": second.ID, "date": "2026-11-25", "time": "14:00"}); r.StatusCode != 201 {
			t.Fatalf("another professional's time: %d %s", r.StatusCode, r.Body)
		}
		if r, _ := block(map[string]any{"date": "2026-11-26", "start": "08:00", "end": "12:00"}); r.StatusCode != 201 {
			t.Fatalf("practice block: %d %s", r.StatusCode, r.Body)
		}
		for _, pro := range []string{s.pro, second.ID} {
			if r := s.create(map[string]any{"professionalId": pro, "date": "2026-11-26", "time": "09:00"}); r.StatusCode != 409 {
				t.Fatalf("practice block for %s: %d %s", pro, r.StatusCode, r.Body)
			}
		}
		// Listed for the agenda; bad input says what is wrong.
		var list []struct{ Date, Start, End, Reason, ProfessionalName string }
		s.owner.Do("GET", "/api/blocks?from=2026-11-25&to=2026-11-26", nil).JSON(t, &list)
		if len(list) != 2 || list[0].Reason != "Supervisão" || list[0].ProfessionalName != "Ana" || list[1].ProfessionalName != "" {
			t.Fatalf("blocks: %+v", list)
		}
		for _, bad := range []map[string]any{
			{"date": "2026-11-25", "start": "16:00", "end": "14:00"},
			{"date": "2026-13-01", "start": "14:00", "end": "15:00"},
			{"date": "2026-11-25", "start": "14:00", "end": "15:00", "professionalId": "nope"},
		} {
			if r, _ := block(bad); r.StatusCode != 400 {
				t.Fatalf("%v: %d %s", bad, r.StatusCode, r.Body)
			}
		}
		// Another owner can neither see nor remove it.
		other := setup(t, e, "outra@example.com", "outra")
		if r := other.owner.Do("DELETE", "/api/blocks/"+mine, nil); r.StatusCode != 404 {
			t.Fatalf("another owner's delete: %d", r.StatusCode)
		}
		// Removed, the time is offered again.
		if r := s.owner.Do("DELETE", "/api/blocks/"+mine, nil); r.StatusCode != 204 {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}
		if !slices.Contains(publicTimes(t, e, s, "2026-11-25"), "14:00") {
			t.Fatal("14:00 should be free again")
		}
	})
}

// 'Não compareceu': marked only once the appointment has begun, it keeps
// holding its time, leaves the revenue, and counts per client and in the
// reports' no-show rate (per professional and per month).
func TestNoShow_IsMarkedAfterTheStartHoldsItsTimeAndIsCounted(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona") // now: 2026-11-23 09:00 in São Paulo
		s.seed(t, e, seeds)
		// e1 (2026-11-25) has not begun.
		if r := s.setStatus(s.appointment["e1"], "no_show"); r.StatusCode != 409 || r.Err(t).Error.Code != "too_early" {
			t.Fatalf("a future no-show: %d %s", r.StatusCode, r.Body)
		}
		// m1 (2026-11-10 10:00, Maria, R$ 100) did not come.
		r := s.setStatus(s.appointment["m1"], "no_show")
		if r.StatusCode != 200 {
			t.Fatalf("no-show: %d %s", r.StatusCode, r.Body)
		}
		var a struct{ Status string }
		r.JSON(t, &a)
		if a.Status != "no_show" {
			t.Fatalf("status %q", a.Status)
		}
		// It keeps holding its time: a cancelled appointment of that time cannot come back over it.
		s.seed(t, e, []seed{{"twin", "2026-11-10", "10:00", "cancelled", "Outra", "o@x.com", "", 100}})
		if r := s.setStatus(s.appointment["twin"], "confirmed"); r.StatusCode != 409 {
			t.Fatalf("re-confirm over a no-show: %d %s", r.StatusCode, r.Body)
		}
		var list struct {
			Appointments []struct{ ClientName, Status string }
		}
		s.owner.Do("GET", "/api/appointments?from=2026-11-01&to=2026-11-30&status=no_show", nil).JSON(t, &list)
		if len(list.Appointments) != 1 || list.Appointments[0].ClientName != "Maria" {
			t.Fatalf("filter: %+v", list)
		}
		var clients struct {
			Clients []struct {
				Name                  string
				NoShows, RevenueCents int
			}
		}
		s.owner.Do("GET", "/api/clients", nil).JSON(t, &clients)
		found := false
		for _, c := range clients.Clients {
			if c.Name == "Maria" {
				found = true
				if c.NoShows != 1 || c.RevenueCents != 15000 {
					t.Fatalf("Maria: %+v", c)
				}
			}
		}
		if !found {
			t.Fatal("Maria missing")
		}
		var rep struct {
			ByStatus map[string]int
			Overview struct{ RealizedCents int }
			NoShows  struct {
				Due, Count, Rate int
				ByProfessional   []struct {
					Name             string
					Due, Count, Rate int
				}
				ByMonth []struct {
					Name             string
					Due, Count, Rate int
				}
			}
		}
		s.owner.Do("GET", "/api/reports?period=year", nil).JSON(t, &rep)
		// Due by now: m1 (no-show), m2, j0 (completed), j1 is today at 10:00 (not yet), a1 cancelled, e1 future, twin cancelled.
		// Realized: m2 and j0; a no-show earns nothing.
		if rep.ByStatus["no_show"] != 1 || rep.Overview.RealizedCents != 23000 || rep.NoShows.Due != 3 || rep.NoShows.Count != 1 || rep.NoShows.Rate != 33 {
			t.Fatalf("report: %+v", rep)
		}
		if len(rep.NoShows.ByProfessional) != 1 || rep.NoShows.ByProfessional[0].Name != "Ana" || rep.NoShows.ByProfessional[0].Rate != 33 {
			t.Fatalf("by professional: %+v", rep.NoShows.ByProfessional)
		}
		months := map[string][2]int{}
		for _, m := range rep.NoShows.ByMonth {
			months[m.Name] = [2]int{m.Due, m.Count}
		}
		if len(rep.NoShows.ByMonth) != 12 || months["2026-11"] != [2]int{2, 1} || months["2026-09"] != [2]int{1, 0} {
			t.Fatalf("by month: %+v", rep.NoShows.ByMonth)
		}
	})
}

func (s *shop) move(id string, body map[string]any) *servertest.Response {
	return s.owner.Do("POST", "/api/appointments/"+id+"/reschedule", body)
}

// A reschedule holds the new time with the same guarantees as a booking,
// frees the old one, and tells the client with the same invite UID and a
// higher SEQUENCE, so calendars move the event; a cancellation from the
// owner's side can remove it from the client's calendar.
func TestReschedule_MovesTheTimeAndTheClientsCalendar(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		r := s.create(map[string]any{"date": "2026-11-25", "time": "10:00", "clientEmail": "movida@example.com"})
		var a struct{ ID string }
		r.JSON(t, &a)
		other := s.create(map[string]any{"date": "2026-11-25", "time": "15:00"})
		var b struct{ ID string }
		other.JSON(t, &b)

		for _, c := range []struct {
			body map[string]any
			code string
		}{
			{map[string]any{"date": "2026-11-25", "time": "14:30"}, "slot_unavailable"},
			{map[string]any{"date": "2026-11-25", "time": "21:00"}, "outside_hours"},
		} {
			if r := s.move(a.ID, c.body); r.StatusCode != 409 || r.Err(t).Error.Code != c.code {
				t.Fatalf("%v: %d %s", c.body, r.StatusCode, r.Body)
			}
		}
		r = s.move(a.ID, map[string]any{"date": "2026-11-26", "time": "11:00", "notifyClient": true})
		if r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		var moved struct{ Date, Time, Status string }
		r.JSON(t, &moved)
		if moved.Date != "2026-11-26" || moved.Time != "11:00" || moved.Status != "confirmed" {
			t.Fatalf("moved: %+v", moved)
		}
		if !slices.Contains(publicTimes(t, e, s, "2026-11-25"), "10:00") || slices.Contains(publicTimes(t, e, s, "2026-11-26"), "11:00") {
			t.Fatal("the old time must be free and the new one taken")
		}
		var invite string
		for _, m := range e.Mails() {
			if ics := ""; strings.Contains(m.Raw, "To: <movida@example.com>") {
				if ics = unfoldICS(m.Calendar(t)); strings.Contains(ics, "SEQUENCE:1") {
					invite = ics
				}
			}
		}
		if !strings.Contains(invite, "UID:"+a.ID+"@agendei") || !strings.Contains(invite, "SEQUENCE:1") || !strings.Contains(invite, "20261126T110000") {
			t.Fatalf("the updated invite must keep the UID with SEQUENCE 1 at the new time:\n%s", invite)
		}
		// A cancelled appointment does not move; the owner's cancellation tells the client.
		if r := s.owner.Do("PATCH", "/api/appointments/"+a.ID, map[string]any{"status": "cancelled", "notifyClient": true}); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		if r := s.move(a.ID, map[string]any{"date": "2026-11-27", "time": "11:00"}); r.StatusCode != 409 || r.Err(t).Error.Code != "not_movable" {
			t.Fatalf("moving a cancelled one: %d %s", r.StatusCode, r.Body)
		}
		var cancel string
		for _, m := range e.Mails() {
			if ics := ""; strings.Contains(m.Raw, "To: <movida@example.com>") {
				if ics = unfoldICS(m.Calendar(t)); strings.Contains(ics, "METHOD:CANCEL") {
					cancel = ics
				}
			}
		}
		for _, want := range []string{"METHOD:CANCEL", "STATUS:CANCELLED", "SEQUENCE:2", "UID:" + a.ID + "@agendei"} {
			if !strings.Contains(cancel, want) {
				t.Fatalf("cancellation lacks %s:\n%s", want, cancel)
			}
		}
		// Another owner's appointment is not found.
		stranger := setup(t, e, "outra@example.com", "outra")
		if r := stranger.owner.Do("POST", "/api/appointments/"+b.ID+"/reschedule", map[string]any{"date": "2026-11-27", "time": "11:00"}); r.StatusCode != 404 {
			t.Fatalf("another owner's: %d", r.StatusCode)
		}
	})
}

// The race: two reschedules into one time, 20 rounds on each
// engine — exactly one moves.
func TestReschedule_TwoIntoOneTimeOneWins(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		for i := range 20 {
			date := fmt.Sprintf("2026-12-%02d", 1+i/6)
			var ids [2]string
			for k := range ids {
				var a struct{ ID string }
				s.create(map[string]any{"date": date, "time": fmt.Sprintf("%02d:00", 8+2*(i%6)+k)}).JSON(t, &a)
				ids[k] = a.ID
			}
			target := fmt.Sprintf("2026-12-%02d", 10+i/6)
			at := fmt.Sprintf("%02d:00", 8+i%6)
			var wg sync.WaitGroup
			codes := make([]int, 2)
			start := make(chan struct{})
			for k := range ids {
				wg.Go(func() {
					<-start
					codes[k] = s.move(ids[k], map[string]any{"date": target, "time": at}).StatusCode
				})
			}
			close(start)
			wg.Wait()
			if n := holders(t, e, s.pro, target, at); n != 1 || (codes[0] == 200) == (codes[1] == 200) {
				t.Fatalf("round %d: %d holders, codes %v", i, n, codes)
			}
		}
	})
}

// unfoldICS joins an iCalendar's folded lines.
func unfoldICS(ics string) string { return strings.ReplaceAll(ics, "\r\n ", "") }

// A weekly series of 8: the preview names the taken date, saving without
// skipping it is refused whole, skipping it saves the other 7 marked as one
// series; one session moves alone; "this and the following" cancels the rest.
func TestSeries_IsCheckedDateByDateAndSavedWhole(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		// A client already has 2026-12-16 (the fourth Wednesday) at 10:00.
		if r := s.publicBook(e, "dona", "10.7.0.1", "2026-12-16", "10:00"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		weekly := map[string]any{"date": "2026-11-25", "time": "10:00", "repeat": map[string]any{"every": "week", "count": 8}}
		var preview struct {
			Occurrences []struct {
				Date, Code string
				Skipped    bool
			}
		}
		r := s.owner.Do("POST", "/api/appointments/preview", mergeBody(s, weekly))
		if r.StatusCode != 200 {
			t.Fatalf("preview: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &preview)
		var taken []string
		for _, o := range preview.Occurrences {
			if o.Code != "" {
				taken = append(taken, o.Date+":"+o.Code)
			}
		}
		if len(preview.Occurrences) != 8 || preview.Occurrences[7].Date != "2027-01-13" || strings.Join(taken, " ") != "2026-12-16:slot_unavailable" {
			t.Fatalf("preview: %+v", preview.Occurrences)
		}
		before := countAppointments(t, e, s)
		r = s.create(weekly)
		if r.StatusCode != 409 || r.Err(t).Error.Code != "series_conflicts" || !strings.Contains(r.Err(t).Error.Message, "16/12/2026") {
			t.Fatalf("unskipped conflict: %d %s", r.StatusCode, r.Body)
		}
		if countAppointments(t, e, s) != before {
			t.Fatal("a refused series must save nothing")
		}
		weekly["repeat"] = map[string]any{"every": "week", "count": 8, "skip": []string{"2026-12-16"}}
		r = s.create(weekly)
		if r.StatusCode != 201 {
			t.Fatalf("series: %d %s", r.StatusCode, r.Body)
		}
		var first struct {
			ID       string
			SeriesID *string
		}
		r.JSON(t, &first)
		if first.SeriesID == nil || countAppointments(t, e, s) != before+7 {
			t.Fatalf("series saved: %+v, %d", first, countAppointments(t, e, s)-before)
		}
		var list struct {
			Appointments []struct {
				ID, Date, Status string
				SeriesID         *string
			}
		}
		s.owner.Do("GET", "/api/appointments?from=2026-11-25&to=2027-01-20&q=Paciente", nil).JSON(t, &list)
		if len(list.Appointments) != 7 {
			t.Fatalf("%d sessions listed", len(list.Appointments))
		}
		// Move the second session alone; then cancel the fourth and the following.
		if r := s.move(list.Appointments[1].ID, map[string]any{"date": "2026-12-03", "time": "15:00"}); r.StatusCode != 200 {
			t.Fatalf("move one: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("PATCH", "/api/appointments/"+list.Appointments[3].ID, map[string]any{"status": "cancelled", "following": true}); r.StatusCode != 200 {
			t.Fatalf("cancel following: %d %s", r.StatusCode, r.Body)
		}
		s.owner.Do("GET", "/api/appointments?from=2026-11-25&to=2027-01-20&q=Paciente", nil).JSON(t, &list)
		var states []string
		for _, a := range list.Appointments {
			states = append(states, a.Date+"="+a.Status)
		}
		want := "2026-11-25=confirmed 2026-12-03=confirmed 2026-12-09=confirmed 2026-12-23=cancelled 2026-12-30=cancelled 2027-01-06=cancelled 2027-01-13=cancelled"
		if strings.Join(states, " ") != want {
			t.Fatalf("after move and cancel:\n got %s\nwant %s", strings.Join(states, " "), want)
		}
		// Repetitions that make no series are refused in words.
		for _, bad := range []map[string]any{{"every": "day", "count": 3}, {"every": "week", "count": 53}, {"every": "week", "count": 1}, {"every": "week"}} {
			if r := s.create(map[string]any{"date": "2027-02-03", "time": "09:00", "repeat": bad}); r.StatusCode != 400 {
				t.Fatalf("%v: %d %s", bad, r.StatusCode, r.Body)
			}
		}
		// Monthly on the 31st passes over months without one.
		var months struct{ Occurrences []struct{ Date string } }
		s.owner.Do("POST", "/api/appointments/preview", mergeBody(s, map[string]any{"date": "2027-01-31", "time": "09:00", "repeat": map[string]any{"every": "month", "until": "2027-06-30"}})).JSON(t, &months)
		var got []string
		for _, o := range months.Occurrences {
			got = append(got, o.Date)
		}
		if strings.Join(got, " ") != "2027-01-31 2027-03-31 2027-05-31" {
			t.Fatalf("monthly: %v", got)
		}
	})
}

// The race: a weekly series and a public booking of one of its
// dates, 15 rounds on each engine — never an overlap, and exactly one of
// them takes that date.
func TestSeries_RacingAPublicBookingNeverOverlaps(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		for i := range 15 {
			at := fmt.Sprintf("%02d:00", 8+i%12)
			first := fmt.Sprintf("2026-12-%02d", 1+i/12)
			third := fmt.Sprintf("2026-12-%02d", 15+i/12)
			var wg sync.WaitGroup
			var series, client int
			start := make(chan struct{})
			wg.Add(2)
			go func() {
				defer wg.Done()
				<-start
				series = s.create(map[string]any{"date": first, "time": at, "clientName": fmt.Sprintf("Série %d", i), "repeat": map[string]any{"every": "week", "count": 4}}).StatusCode
			}()
			go func() {
				defer wg.Done()
				<-start
				client = s.publicBook(e, "dona", fmt.Sprintf("10.6.%d.1", i), third, at).StatusCode
			}()
			close(start)
			wg.Wait()
			if n := holders(t, e, s.pro, third, at); n != 1 || (series == 201) == (client == 201) {
				t.Fatalf("round %d: %d holders of %s %s (series %d, client %d)", i, n, third, at, series, client)
			}
		}
	})
}

func mergeBody(s *shop, body map[string]any) map[string]any {
	in := map[string]any{"professionalId": s.pro, "serviceId": s.svc, "clientName": "Paciente do Telefone", "clientPhone": "(11) 97777-6666"}
	for k, v := range body {
		in[k] = v
	}
	return in
}

func countAppointments(t *testing.T, e *servertest.Env, s *shop) int {
	t.Helper()
	var n int
	if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM appointments WHERE user_id = ?`, s.ownerID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// 'Ver histórico': a client's every appointment, what they spent and their
// no-shows; correcting the client's contacts rewrites all their appointments.
func TestClientHistory_ListsEverythingAndEditsAcrossAppointments(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		s.seed(t, e, seeds)
		s.setStatus(s.appointment["m1"], "no_show")
		var h struct {
			Client                                                      struct{ Identifier, Name, Email, Phone string }
			Appointments                                                []struct{ Date, Status string }
			Count, NoShows, AttendedCount, RevenueCents, ScheduledCount int
			LastAttended, NextAppointment                               string
		}
		r := s.owner.Do("GET", "/api/clients/history?key=11911111111", nil)
		if r.StatusCode != 200 {
			t.Fatalf("history: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &h)
		if h.Client.Name != "Maria" || h.Client.Email != "MARIA2@x.com" || h.Count != 2 || h.NoShows != 1 || h.AttendedCount != 1 || h.RevenueCents != 15000 ||
			h.LastAttended != "2026-11-20" || h.ScheduledCount != 0 || h.NextAppointment != "" ||
			len(h.Appointments) != 2 || h.Appointments[0].Date != "2026-11-20" || h.Appointments[1].Status != "no_show" {
			t.Fatalf("history: %+v", h)
		}
		if r := s.owner.Do("GET", "/api/clients/history?key=nobody", nil); r.StatusCode != 404 {
			t.Fatalf("unknown client: %d", r.StatusCode)
		}
		// A new phone: every appointment follows, under the new identifier.
		r = s.owner.Do("PUT", "/api/clients/contact", map[string]string{"identifier": "11911111111", "name": " Maria  Souza ", "phone": "(11) 95555-0000", "email": "maria@novo.com"})
		if r.StatusCode != 200 {
			t.Fatalf("update: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &h)
		if h.Client.Identifier != "11955550000" || h.Client.Name != "Maria Souza" || h.Count != 2 {
			t.Fatalf("after the update: %+v", h.Client)
		}
		if r := s.owner.Do("GET", "/api/clients/history?key=11911111111", nil); r.StatusCode != 404 {
			t.Fatalf("the old identifier: %d", r.StatusCode)
		}
		var list struct{ Appointments []struct{ ClientName string } }
		s.owner.Do("GET", "/api/appointments?from=2026-11-01&to=2026-11-30&q=souza", nil).JSON(t, &list)
		if len(list.Appointments) != 2 {
			t.Fatalf("search finds the new name on %d appointments", len(list.Appointments))
		}
		for _, bad := range []map[string]string{
			{"identifier": "11955550000", "name": "", "phone": "11955550000"},
			{"identifier": "11955550000", "name": "Maria", "phone": "123"},
			{"identifier": "11955550000", "name": "Maria"},
		} {
			if r := s.owner.Do("PUT", "/api/clients/contact", bad); r.StatusCode != 400 {
				t.Fatalf("%v: %d %s", bad, r.StatusCode, r.Body)
			}
		}
		other := setup(t, e, "outra@example.com", "outra")
		if r := other.owner.Do("GET", "/api/clients/history?key=11955550000", nil); r.StatusCode != 404 {
			t.Fatalf("another owner's client: %d", r.StatusCode)
		}
	})
}

// "This and the following": moving a session of a series with Following
// moves every later confirmed session by the same days to the same time,
// all or none, and tells the client once with the moved invite.
func TestSeries_MovesThisAndTheFollowingTogether(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		r := s.create(map[string]any{"date": "2026-12-02", "time": "10:00", "clientEmail": "serie@example.com", "repeat": map[string]any{"every": "week", "count": 5}})
		if r.StatusCode != 201 {
			t.Fatalf("series: %d %s", r.StatusCode, r.Body)
		}
		sessions := func() (ids, states []string) {
			var list struct {
				Appointments []struct{ ID, Date, Time, Status string }
			}
			s.owner.Do("GET", "/api/appointments?from=2026-12-01&to=2027-01-31&q=Paciente", nil).JSON(t, &list)
			for _, a := range list.Appointments {
				ids = append(ids, a.ID)
				states = append(states, a.Date+" "+a.Time+" "+a.Status)
			}
			return ids, states
		}
		ids, before := sessions()
		if len(ids) != 5 {
			t.Fatalf("sessions: %v", before)
		}
		// A client holds Thursday 24/12 at 16:00: the third of the moved sessions would land on it.
		if r := s.publicBook(e, "dona", "10.8.0.1", "2026-12-24", "16:00"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		r = s.move(ids[1], map[string]any{"date": "2026-12-10", "time": "16:00", "following": true})
		if r.StatusCode != 409 || r.Err(t).Error.Code != "series_conflicts" || !strings.Contains(r.Err(t).Error.Message, "24/12/2026") {
			t.Fatalf("conflicting move: %d %s", r.StatusCode, r.Body)
		}
		if _, now := sessions(); !slices.Equal(now, before) {
			t.Fatalf("a refused move must move nothing: %v", now)
		}
		r = s.move(ids[1], map[string]any{"date": "2026-12-10", "time": "17:00", "following": true, "notifyClient": true})
		if r.StatusCode != 200 {
			t.Fatalf("move following: %d %s", r.StatusCode, r.Body)
		}
		_, after := sessions()
		want := []string{"2026-12-02 10:00 confirmed", "2026-12-10 17:00 confirmed", "2026-12-17 17:00 confirmed", "2026-12-24 17:00 confirmed", "2026-12-31 17:00 confirmed"}
		if !slices.Equal(after, want) {
			t.Fatalf("after the move:\n got %v\nwant %v", after, want)
		}
		if !slices.Contains(publicTimes(t, e, s, "2026-12-16"), "10:00") || slices.Contains(publicTimes(t, e, s, "2026-12-17"), "17:00") {
			t.Fatal("the old times must be free and the new ones taken")
		}
		moved := 0
		for _, m := range e.Mails() {
			if strings.Contains(m.Raw, "To: <serie@example.com>") && strings.Contains(m.Raw, "remarcado") {
				moved++
				if ics := unfoldICS(m.Calendar(t)); !strings.Contains(ics, "UID:"+ids[1]+"@agendei") || !strings.Contains(ics, "20261210T170000") {
					t.Fatalf("the e-mail carries the moved session's invite:\n%s", ics)
				}
			}
		}
		if moved != 1 {
			t.Fatalf("%d reschedule e-mails, want one", moved)
		}
		var reminders int
		if err := e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM jobs WHERE kind = 'booking.reminder' AND payload LIKE '%17:00%'`).Scan(&reminders); err != nil {
			t.Fatal(err)
		}
		if reminders != 4 {
			t.Fatalf("%d reminders at the new time, want 4", reminders)
		}
		var note struct {
			Notifications []struct{ Title, Description string }
		}
		s.owner.Do("GET", "/api/notifications", nil).JSON(t, &note)
		if !slices.ContainsFunc(note.Notifications, func(n struct{ Title, Description string }) bool {
			return n.Title == "Série remarcada" && strings.Contains(n.Description, "4 sessões")
		}) {
			t.Fatalf("notifications: %+v", note.Notifications)
		}
	})
}

// A series moved with its following sessions racing a public booking of
// one of the new dates: never an overlap, exactly one of them takes it.
func TestSeries_MoveFollowingRacingAPublicBookingNeverOverlaps(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		for i := range 10 {
			at := fmt.Sprintf("%02d:00", 8+i)
			var a struct{ ID string }
			s.create(map[string]any{"date": "2026-12-01", "time": at, "clientName": fmt.Sprintf("Série %d", i), "repeat": map[string]any{"every": "week", "count": 3}}).JSON(t, &a)
			var move, client int
			var wg sync.WaitGroup
			start := make(chan struct{})
			wg.Go(func() {
				<-start
				move = s.move(a.ID, map[string]any{"date": "2026-12-02", "time": at, "following": true}).StatusCode
			})
			wg.Go(func() {
				<-start
				client = s.publicBook(e, "dona", fmt.Sprintf("10.9.%d.1", i), "2026-12-16", at).StatusCode
			})
			close(start)
			wg.Wait()
			if n := holders(t, e, s.pro, "2026-12-16", at); n != 1 || (move == 200) == (client == 201) {
				t.Fatalf("round %d: %d holders (move %d, client %d)", i, n, move, client)
			}
		}
	})
}

// Every change an owner makes to the book is told in the notifications and
// reaches the owner's open tabs as an "agenda" event (which makes them read
// the agenda, dashboard, clients and reports again); a change to nothing is
// not told.
func TestOwnerChanges_AreToldAndReachOpenTabs(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		var a struct{ ID string }
		s.create(map[string]any{"date": "2026-11-22", "time": "10:00", "clientEmail": "nota@example.com"}).JSON(t, &a)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", e.HTTP.URL+"/api/events", nil)
		req.Header.Set("Authorization", "Bearer "+s.owner.Token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		events := make(chan string, 64)
		go func() {
			defer res.Body.Close()
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
					events <- name
				}
			}
		}()
		awaitAgenda := func(what string) {
			t.Helper()
			for {
				select {
				case ev := <-events:
					if ev == "agenda" {
						return
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("%s: no agenda event", what)
				}
			}
		}
		latest := func() (string, int) {
			var l struct {
				Notifications []struct{ Title, Description string }
			}
			s.owner.Do("GET", "/api/notifications", nil).JSON(t, &l)
			titles := make([]string, len(l.Notifications))
			for i, n := range l.Notifications {
				titles[i] = n.Title + ": " + n.Description
			}
			return strings.Join(titles, "\n"), len(l.Notifications)
		}
		var block struct{ ID string }
		var day struct{ ID string }
		steps := []struct {
			what, title string
			do          func() *servertest.Response
		}{
			{"no-show", "Cliente não compareceu: Paciente do Telefone: Sessão com Ana em 22/11/2026 às 10:00.", func() *servertest.Response {
				return s.owner.Do("PATCH", "/api/appointments/"+a.ID, map[string]any{"status": "no_show"})
			}},
			{"completed", "Agendamento concluído", func() *servertest.Response {
				return s.owner.Do("PATCH", "/api/appointments/"+a.ID, map[string]any{"status": "completed"})
			}},
			{"block", "Horário bloqueado: Ana: 30/11/2026, das 13:00 às 18:00 (congresso).", func() *servertest.Response {
				r := s.owner.Do("POST", "/api/blocks", map[string]any{"professionalId": s.pro, "date": "2026-11-30", "start": "13:00", "end": "18:00", "reason": "congresso"})
				r.JSON(t, &block)
				return r
			}},
			{"unblock", "Bloqueio removido: Ana: 30/11/2026, das 13:00 às 18:00 (congresso).", func() *servertest.Response {
				return s.owner.Do("DELETE", "/api/blocks/"+block.ID, nil)
			}},
			{"day off", "Folga registrada: Toda a clínica: de 24/12/2026 a 26/12/2026 (Natal).", func() *servertest.Response {
				r := s.owner.Do("POST", "/api/days-off", map[string]any{"start": "2026-12-24", "end": "2026-12-26", "reason": "Natal"})
				r.JSON(t, &day)
				return r
			}},
			{"day back", "Folga removida", func() *servertest.Response { return s.owner.Do("DELETE", "/api/days-off/"+day.ID, nil) }},
			{"contact", "Dados do cliente atualizados: Paciente Corrigida: nome e contatos corrigidos em 1 agendamento(s).", func() *servertest.Response {
				return s.owner.Do("PUT", "/api/clients/contact", map[string]any{"identifier": clientKey("(11) 97777-6666", "nota@example.com"), "name": "Paciente Corrigida", "phone": "(11) 97777-6666", "email": "nota@example.com"})
			}},
		}
		for _, step := range steps {
			_, before := latest()
			if r := step.do(); r.StatusCode >= 300 {
				t.Fatalf("%s: %d %s", step.what, r.StatusCode, r.Body)
			}
			awaitAgenda(step.what)
			if all, n := latest(); n != before+1 || !strings.Contains(all, step.title) {
				t.Fatalf("%s: %d new notifications, want one titled %q:\n%s", step.what, n-before, step.title, all)
			}
		}
		// Setting the status it already has changes nothing, and says nothing.
		_, before := latest()
		s.owner.Do("PATCH", "/api/appointments/"+a.ID, map[string]any{"status": "completed"})
		if _, n := latest(); n != before {
			t.Fatalf("a status set again was told (%d new)", n-before)
		}
	})
}

func clientKey(phone, email string) string {
	p, _ := booking.NormalizePhone(phone)
	return booking.ClientKey(p, email)
}
