package agenda_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/agenda"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/schedule"
	"github.com/agendei/agendei/internal/server/servertest"
)

// grid is GET /api/agenda/grid as the tests read it.
type grid struct {
	Today, Now    string
	Professionals []struct {
		ID, Name string
		Active   bool
	}
	Days []struct {
		Date    string
		Columns []struct {
			ProfessionalID string
			Windows        []struct{ Start, End string }
			Closed, Label  string
		}
	}
	Appointments []agenda.GridAppointment
	Blocks       []schedule.Block
}

func (s *shop) grid(t *testing.T, query string) grid {
	t.Helper()
	r := s.owner.Do("GET", "/api/agenda/grid?"+query, nil)
	if r.StatusCode != 200 {
		t.Fatalf("grid %s: %d %s", query, r.StatusCode, r.Body)
	}
	var g grid
	r.JSON(t, &g)
	return g
}

// everyAppointmentOnce checks a grid against the database: every
// appointment of the owner in the range (of the professional, when one was
// asked for) is in it exactly once, with its professional, in a column the
// grid has, and the appointments come by date, time and id.
func everyAppointmentOnce(t *testing.T, e *servertest.Env, s *shop, g grid, from, to, professional string) {
	t.Helper()
	want := map[string]string{} // id → professional id ("" when deleted)
	q := `SELECT id, COALESCE(professional_id, '') FROM appointments WHERE user_id = ? AND appointment_date >= ? AND appointment_date <= ?`
	args := []any{s.ownerID, from, to}
	if professional != "" {
		q += ` AND professional_id = ?`
		args = append(args, professional)
	}
	rows, err := e.DB.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, pro string
		if err := rows.Scan(&id, &pro); err != nil {
			t.Fatal(err)
		}
		want[id] = pro
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	columns := map[string]bool{}
	for _, p := range g.Professionals {
		columns[p.ID] = true
	}
	seen := map[string]int{}
	for i, a := range g.Appointments {
		seen[a.ID]++
		if pro, ok := want[a.ID]; !ok {
			t.Errorf("%s (%s %s) is not an appointment of the range", a.ID, a.Date, a.Time)
		} else if a.ProfessionalID != pro {
			t.Errorf("%s: professional %q, want %q", a.ClientName, a.ProfessionalID, pro)
		}
		if !columns[a.ProfessionalID] {
			t.Errorf("%s: no column for professional %q", a.ClientName, a.ProfessionalID)
		}
		if i > 0 {
			p := g.Appointments[i-1]
			if p.Date+p.Time+p.ID > a.Date+a.Time+a.ID {
				t.Errorf("out of order: %s %s before %s %s", p.Date, p.Time, a.Date, a.Time)
			}
		}
	}
	for id := range want {
		if seen[id] != 1 {
			t.Errorf("appointment %s appears %d times, want once", id, seen[id])
		}
	}
}

// The repro, on the server: a practice of three professionals (one
// with a day off that date, one with a lunch break), appointments at the
// same times across them, two in one column at once (a cancelled one under
// its replacement), one booked outside the hours, one left inside a block,
// one inside a day off, and appointments of an inactive and of a deleted
// professional. The day's grid has every one of them once, in its column,
// with the buffers it was booked with; the columns come in the team's
// order with the slot engine's hours and labels.
func TestGrid_EveryAppointmentOfTheDayInItsColumn(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona") // Ana follows the practice: every day 08:00–20:00
		const day = "2026-11-30"                     // a Monday; now is 2026-11-23 09:00
		pros := map[string]string{"Ana": s.pro}
		for _, name := range []string{"Bruno", "Carla", "Diego", "Elisa"} {
			e.Clock.Advance(time.Minute) // newest first is then not the order of the ids
			var p struct{ ID string }
			s.owner.Do("POST", "/api/professionals", map[string]string{"name": name, "specialization": "Psicóloga"}).JSON(t, &p)
			pros[name] = p.ID
		}
		ws := []map[string]string{{"start": "08:00", "end": "12:00"}, {"start": "13:00", "end": "18:00"}}
		var week []map[string]any
		for d := range 7 {
			week = append(week, map[string]any{"dayOfWeek": d, "enabled": d != 0, "windows": ws})
		}
		if r := s.owner.Do("PUT", "/api/professionals/"+pros["Carla"]+"/hours", map[string]any{"ownHours": true, "days": week}); r.StatusCode != 200 {
			t.Fatalf("Carla's hours: %d %s", r.StatusCode, r.Body)
		}

		ids := map[string]string{} // client → appointment id
		book := func(client, pro, date, at string, outside bool) {
			t.Helper()
			r := s.create(map[string]any{"professionalId": pros[pro], "date": date, "time": at, "clientName": client, "outsideHours": outside})
			if r.StatusCode != 201 {
				t.Fatalf("%s with %s at %s: %d %s", client, pro, at, r.StatusCode, r.Body)
			}
			var a struct{ ID string }
			r.JSON(t, &a)
			ids[client] = a.ID
		}
		book("Alice", "Ana", day, "09:00", false)
		book("Beatriz", "Ana", day, "10:00", false)
		if r := s.setStatus(ids["Beatriz"], "cancelled"); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		book("Camila", "Ana", day, "10:00", false) // over the cancelled one, in the same column
		book("Fábio", "Bruno", day, "09:00", false)
		book("Helena", "Carla", day, "09:00", false)
		book("Karina", "Diego", day, "11:00", false)
		book("Lívia", "Elisa", day, "13:00", false)
		s.setService(t, 60, 10, 15) // from now on the service keeps margins
		book("Daniela", "Ana", day, "15:00", false)
		book("Eva", "Ana", day, "21:00", true)      // after closing, with the owner's yes
		book("Isabel", "Carla", day, "12:00", true) // in Carla's lunch break
		book("Júlia", "Carla", day, "14:00", false)
		book("Mônica", "Ana", "2026-12-01", "10:00", false) // the next day: not in the day's grid
		book("Nina", "Ana", "2026-11-29", "10:00", false)   // the day before

		if r := s.owner.Do("POST", "/api/days-off", map[string]any{"professionalId": pros["Bruno"], "start": day, "end": day, "reason": "Curso",
			"keep": []string{ids["Fábio"]}}); r.StatusCode != 201 {
			t.Fatalf("day off: %d %s", r.StatusCode, r.Body)
		}
		book("Gabi", "Bruno", day, "10:30", true) // on the day off, with the owner's yes
		var block struct{ ID string }
		if r := s.owner.Do("POST", "/api/blocks", map[string]any{"professionalId": s.pro, "date": day, "start": "14:00", "end": "17:00",
			"reason": "Reunião", "keep": []string{ids["Daniela"]}}); r.StatusCode != 201 {
			t.Fatalf("block: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &block)
		}
		if r := s.owner.Do("PATCH", "/api/professionals/"+pros["Elisa"], map[string]bool{"active": false}); r.StatusCode != 200 {
			t.Fatalf("deactivate: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("DELETE", "/api/professionals/"+pros["Diego"], nil); r.StatusCode != 204 {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}

		g := s.grid(t, "from="+day+"&to="+day)
		everyAppointmentOnce(t, e, s, g, day, day, "")
		if g.Today != "2026-11-23" || g.Now != "09:04" {
			t.Errorf("today %s now %s, want 2026-11-23 09:04", g.Today, g.Now)
		}

		// Columns: the active professionals in the team's order, then the
		// inactive one with an appointment, then the deleted one's.
		var team []struct {
			ID     string
			Active bool
		}
		s.owner.Do("GET", "/api/professionals", nil).JSON(t, &team)
		var want []string
		for _, p := range team {
			if p.Active {
				want = append(want, p.ID)
			}
		}
		want = append(want, pros["Elisa"], "")
		var got []string
		for _, p := range g.Professionals {
			got = append(got, p.ID)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("columns %v, want %v", got, want)
		}
		if last := g.Professionals[len(g.Professionals)-1]; last.Name != "Sem profissional" || last.Active {
			t.Errorf("last column: %+v", last)
		}
		if elisa := g.Professionals[len(g.Professionals)-2]; elisa.Name != "Elisa" || elisa.Active {
			t.Errorf("inactive column: %+v", elisa)
		}

		// Each column's hours are the slot engine's plan of the date.
		if len(g.Days) != 1 || g.Days[0].Date != day || len(g.Days[0].Columns) != len(want) {
			t.Fatalf("days: %+v", g.Days)
		}
		plans := map[string]string{}
		for i, c := range g.Days[0].Columns {
			if c.ProfessionalID != want[i] {
				t.Errorf("column %d is %q, want %q", i, c.ProfessionalID, want[i])
			}
			plans[c.ProfessionalID] = fmt.Sprintf("%v %s %s", c.Windows, c.Closed, c.Label)
		}
		for pro, plan := range map[string]string{
			pros["Ana"]:   "[{08:00 20:00}]  ",
			pros["Bruno"]: "[] day_off Folga: Curso",
			pros["Carla"]: "[{08:00 12:00} {13:00 18:00}]  ",
			pros["Elisa"]: "[{08:00 20:00}]  ",
			"":            "[{08:00 20:00}]  ",
		} {
			if plans[pro] != plan {
				t.Errorf("plan of %s: %q, want %q", pro, plans[pro], plan)
			}
		}

		// Every appointment in its column, with its status and buffers.
		type placed struct {
			pro, at, status       string
			before, after, length int
		}
		wantAppts := map[string]placed{
			"Alice":   {pros["Ana"], "09:00", "confirmed", 0, 0, 60},
			"Beatriz": {pros["Ana"], "10:00", "cancelled", 0, 0, 60},
			"Camila":  {pros["Ana"], "10:00", "confirmed", 0, 0, 60},
			"Fábio":   {pros["Bruno"], "09:00", "confirmed", 0, 0, 60},
			"Helena":  {pros["Carla"], "09:00", "confirmed", 0, 0, 60},
			"Karina":  {"", "11:00", "confirmed", 0, 0, 60},
			"Lívia":   {pros["Elisa"], "13:00", "confirmed", 0, 0, 60},
			"Daniela": {pros["Ana"], "15:00", "confirmed", 10, 15, 60},
			"Eva":     {pros["Ana"], "21:00", "confirmed", 10, 15, 60},
			"Isabel":  {pros["Carla"], "12:00", "confirmed", 10, 15, 60},
			"Júlia":   {pros["Carla"], "14:00", "confirmed", 10, 15, 60},
			"Gabi":    {pros["Bruno"], "10:30", "confirmed", 10, 15, 60},
		}
		gotAppts := map[string]placed{}
		for _, a := range g.Appointments {
			gotAppts[a.ClientName] = placed{a.ProfessionalID, a.Time, a.Status, a.BufferBefore, a.BufferAfter, a.Duration}
		}
		if !reflect.DeepEqual(gotAppts, wantAppts) {
			t.Errorf("appointments:\n got %v\nwant %v", gotAppts, wantAppts)
		}
		if len(g.Blocks) != 1 || g.Blocks[0].ID != block.ID || g.Blocks[0].Start != "14:00" || !reflect.DeepEqual(g.Blocks[0].Kept, []string{ids["Daniela"]}) {
			t.Errorf("blocks: %+v", g.Blocks)
		}

		// The week: the next day's appointment too, a day per date, and the
		// day before left out.
		w := s.grid(t, "from="+day+"&to=2026-12-06")
		everyAppointmentOnce(t, e, s, w, day, "2026-12-06", "")
		if len(w.Days) != 7 || w.Days[6].Date != "2026-12-06" || len(w.Appointments) != len(g.Appointments)+1 {
			t.Errorf("week: %d days, %d appointments", len(w.Days), len(w.Appointments))
		}
		for _, c := range w.Days[6].Columns { // Sunday: the practice opens, Carla's own week does not
			if closed := c.ProfessionalID == pros["Carla"]; closed != (c.Closed == "weekday" && c.Label == "Fechado" && len(c.Windows) == 0) {
				t.Errorf("Sunday of %s: %+v", c.ProfessionalID, c)
			}
		}

		// One professional: that column alone, their appointments, and the
		// blocks that shade it.
		for _, name := range []string{"Carla", "Ana", "Elisa"} {
			one := s.grid(t, "from="+day+"&to="+day+"&professional="+pros[name])
			everyAppointmentOnce(t, e, s, one, day, day, pros[name])
			if len(one.Professionals) != 1 || one.Professionals[0].ID != pros[name] || len(one.Days[0].Columns) != 1 || one.Days[0].Columns[0].ProfessionalID != pros[name] {
				t.Errorf("%s alone: %+v %+v", name, one.Professionals, one.Days)
			}
			if blocks := len(one.Blocks); (name == "Ana") != (blocks == 1) {
				t.Errorf("%s alone: %d blocks", name, blocks)
			}
		}
	})
}

// A grid is at most a week of real dates, of the owner's own professionals,
// for the signed-in owner only.
func TestGrid_RefusesBadRangesOtherOwnersProfessionalsAndStrangers(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		other := setup(t, e, "outra@example.com", "outra")
		for _, q := range []string{
			"from=2026-11-30&to=2026-12-07", // eight dates
			"from=2026-11-30&to=2026-11-29", // backwards
			"from=2026-02-30&to=2026-03-01", // no such date
			"from=2026-11-30",
			"from=30/11/2026&to=30/11/2026",
			"",
		} {
			r := s.owner.Do("GET", "/api/agenda/grid?"+q, nil)
			if r.StatusCode != 400 || r.Err(t).Error.Code != "validation_failed" || r.Err(t).Error.Message != "Informe um período válido (até 7 dias)." {
				t.Errorf("%q: %d %s", q, r.StatusCode, r.Body)
			}
		}
		for _, pro := range []string{other.pro, "nao-existe"} {
			if r := s.owner.Do("GET", "/api/agenda/grid?from=2026-11-30&to=2026-11-30&professional="+pro, nil); r.StatusCode != 404 || r.Err(t).Error.Code != "not_found" {
				t.Errorf("professional %s: %d %s", pro, r.StatusCode, r.Body)
			}
		}
		if r := e.Client().Do("GET", "/api/agenda/grid?from=2026-11-30&to=2026-11-30", nil); r.StatusCode != 401 {
			t.Errorf("signed out: %d %s", r.StatusCode, r.Body)
		}
		if g := s.grid(t, "from=2026-11-30&to=2026-12-06"); len(g.Days) != 7 {
			t.Errorf("a whole week: %d days", len(g.Days))
		}
	})
}

// The grid is kept by the answer cache, and a change made elsewhere — a
// client's booking, the owner's cancellation — shows at once.
func TestGrid_ShowsABookingMadeElsewhereAtOnce(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		const q = "from=2026-11-25&to=2026-11-25"
		if g := s.grid(t, q); len(g.Appointments) != 0 {
			t.Fatalf("before: %+v", g.Appointments)
		}
		if r := s.publicBook(e, "dona", "10.9.0.1", "2026-11-25", "14:00"); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		g := s.grid(t, q)
		if len(g.Appointments) != 1 || g.Appointments[0].Time != "14:00" || g.Appointments[0].Status != "confirmed" {
			t.Fatalf("after the booking: %+v", g.Appointments)
		}
		if r := s.setStatus(g.Appointments[0].ID, "cancelled"); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		if g := s.grid(t, q); len(g.Appointments) != 1 || g.Appointments[0].Status != "cancelled" {
			t.Fatalf("after the cancellation: %+v", g.Appointments)
		}
	})
}

// Nothing of the range is ever left out: a week of appointments written as
// years of data leave them — any status, overlapping, at any time of the
// day, of active, inactive and deleted professionals — is in the week's
// grid, in each day's and in each professional's, once each.
func TestGrid_NoAppointmentOfTheRangeIsLeftOut(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		pros := []string{s.pro}
		for _, name := range []string{"Bruno", "Carla", "Diego"} {
			var p struct{ ID string }
			s.owner.Do("POST", "/api/professionals", map[string]string{"name": name, "specialization": "Psicóloga"}).JSON(t, &p)
			pros = append(pros, p.ID)
		}
		if r := s.owner.Do("PATCH", "/api/professionals/"+pros[2], map[string]bool{"active": false}); r.StatusCode != 200 {
			t.Fatalf("deactivate: %d", r.StatusCode)
		}
		rng := rand.New(rand.NewPCG(25, 7))
		statuses := []string{"confirmed", "cancelled", "completed", "no_show"}
		first := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
		for i := range 120 {
			date := first.AddDate(0, 0, rng.IntN(9)-1).Format("2006-01-02") // the week and a date either side
			pro := pros[rng.IntN(len(pros))]
			at := fmt.Sprintf("%02d:%02d", rng.IntN(24), 15*rng.IntN(4))
			name, email := fmt.Sprintf("Cliente %d", i), fmt.Sprintf("cliente%d@example.com", i)
			_, err := e.DB.ExecContext(context.Background(), `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
				duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash,
				search_key, client_key, created_at, updated_at) VALUES (?, ?, ?, ?, 'X', 'Sessão', 60, 100, ?, ?, '', '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				uuid.NewString(), s.ownerID, pro, s.svc, name, email, date, at, e.Clock.Now(), statuses[rng.IntN(len(statuses))], uuid.NewString(),
				booking.SearchKey(name, email), booking.ClientKey("", email), e.Clock.Now(), e.Clock.Now())
			if err != nil {
				t.Fatal(err)
			}
		}
		if r := s.owner.Do("DELETE", "/api/professionals/"+pros[3], nil); r.StatusCode != 204 {
			t.Fatalf("delete: %d", r.StatusCode)
		}
		g := s.grid(t, "from=2026-11-30&to=2026-12-06")
		everyAppointmentOnce(t, e, s, g, "2026-11-30", "2026-12-06", "")
		if !slices.ContainsFunc(g.Professionals, func(p struct {
			ID, Name string
			Active   bool
		}) bool {
			return p.ID == ""
		}) {
			t.Error("no column for the deleted professional's appointments")
		}
		for d := first; d.Before(first.AddDate(0, 0, 7)); d = d.AddDate(0, 0, 1) {
			date := d.Format("2006-01-02")
			everyAppointmentOnce(t, e, s, s.grid(t, "from="+date+"&to="+date), date, date, "")
		}
		for _, pro := range pros[:3] {
			everyAppointmentOnce(t, e, s, s.grid(t, "from=2026-11-30&to=2026-12-06&professional="+pro), "2026-11-30", "2026-12-06", pro)
		}
	})
}

// The grid draws its blocks from the owner's schedule setup, kept once per
// data version: a block saved, a professional renamed and a block removed
// each show in the next grid at once, and a block of another date or
// another owner never does.
func TestGrid_BlocksFollowEveryChangeAtOnce(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		other := setup(t, e, "outra@example.com", "outra")
		const q = "from=2026-11-25&to=2026-11-25"
		blocks := func(sh *shop, q string) []schedule.Block {
			t.Helper()
			return sh.grid(t, q).Blocks
		}
		if got := blocks(s, q); len(got) != 0 {
			t.Fatalf("before: %+v", got)
		}
		block := func(sh *shop, pro *string, date, start, end string) string {
			t.Helper()
			var b struct{ ID string }
			r := sh.owner.Do("POST", "/api/blocks", map[string]any{"professionalId": pro, "date": date, "start": start, "end": end, "reason": "Reunião"})
			if r.StatusCode != 201 {
				t.Fatalf("block: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &b)
			return b.ID
		}
		afternoon := block(s, &s.pro, "2026-11-25", "14:00", "17:00")
		morning := block(s, nil, "2026-11-25", "08:00", "09:00")
		block(s, nil, "2026-11-26", "08:00", "09:00")
		block(other, nil, "2026-11-25", "10:00", "11:00")
		got := blocks(s, q)
		if len(got) != 2 || got[0].ID != morning || got[0].ProfessionalID != nil || got[1].ID != afternoon || got[1].Start != "14:00" || got[1].ProfessionalName != "Ana" {
			t.Fatalf("after two blocks of the day: %+v", got)
		}
		if got := blocks(s, "from=2026-11-20&to=2026-11-26"); len(got) != 3 {
			t.Fatalf("the week: %+v", got)
		}
		if r := s.owner.Do("PUT", "/api/professionals/"+s.pro, map[string]string{"name": "Ana Lúcia", "specialization": "Psicóloga"}); r.StatusCode != 200 {
			t.Fatalf("rename: %d %s", r.StatusCode, r.Body)
		}
		if got := blocks(s, q+"&professional="+s.pro); len(got) != 2 || got[1].ProfessionalName != "Ana Lúcia" {
			t.Fatalf("after the rename: %+v", got)
		}
		if r := s.owner.Do("DELETE", "/api/blocks/"+afternoon, nil); r.StatusCode != 204 {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}
		if got := blocks(s, q); len(got) != 1 || got[0].ID != morning {
			t.Fatalf("after the removal: %+v", got)
		}
	})
}
