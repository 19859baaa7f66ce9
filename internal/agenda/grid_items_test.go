package agenda_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/agenda"
	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// The grid reads the appointments table itself (issue 40 §2: no derived
// copy to drift). After every kind of write a practice makes — a booking, a move to another
// time, date or professional, a status, a client's new name or notes (with
// quotes, accents, line breaks and emoji), a series, a cancellation, a
// deleted appointment, a deleted professional and a client's answer — the grid's appointments
// are exactly the appointments table's, field by field, on both engines.
func TestGrid_ItemsFollowEveryWriteToAppointments(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		ctx := context.Background()
		s := setup(t, e, "dona@example.com", "dona")
		pros := []string{s.pro}
		for _, name := range []string{"Bruno", "Carla"} {
			var p struct{ ID string }
			s.owner.Do("POST", "/api/professionals", map[string]string{"name": name, "specialization": "Psicóloga"}).JSON(t, &p)
			pros = append(pros, p.ID)
		}
		// Another owner's appointments on the same dates stay out of it.
		other := setup(t, e, "outra@example.com", "outra")
		rng := rand.New(rand.NewPCG(29, 3))
		first := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
		date := func() string { return first.AddDate(0, 0, rng.IntN(4)).Format("2006-01-02") }
		at := func() string { return fmt.Sprintf("%02d:%02d", 8+rng.IntN(10), 15*rng.IntN(4)) }
		notes := []string{"", `diz "olá" \ até já`, "linha 1\nlinha 2", "alergia a dipirona 💊", "<b>&amp;</b>", "tab\there"}
		var ids []string
		insert := func(owner, pro string) {
			id, name := uuid.NewString(), fmt.Sprintf("Cliente %d", rng.IntN(1000))
			var series any
			if rng.IntN(3) == 0 {
				series = uuid.NewString()
			}
			_, err := e.DB.ExecContext(ctx, `INSERT INTO appointments (id, user_id, professional_id, service_id, professional_name, service_name,
				duration, buffer_before, buffer_after, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time,
				starts_at, status, cancel_token_hash, search_key, client_key, series_id, created_at, updated_at)
				VALUES (?, ?, ?, ?, 'Ana', 'Sessão', ?, ?, ?, ?, ?, '', '11988887777', ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?, ?)`,
				id, owner, pro, s.svc, 30+15*rng.IntN(4), 5*rng.IntN(3), 5*rng.IntN(3), rng.IntN(30000), name, notes[rng.IntN(len(notes))],
				date(), at(), e.Clock.Now(), uuid.NewString(), booking.SearchKey(name, ""), booking.ClientKey("11988887777", ""), series,
				e.Clock.Now().Add(-time.Duration(rng.IntN(1e6))*time.Second), e.Clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			if owner == s.ownerID {
				ids = append(ids, id)
			}
		}
		for range 30 {
			insert(s.ownerID, pros[rng.IntN(len(pros))])
			insert(other.ownerID, other.pro)
		}
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := e.DB.ExecContext(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		statuses := []string{"confirmed", "cancelled", "completed", "no_show"}
		answers := []string{"", "confirmed", "reschedule", "cancelled"}
		for step := range 80 {
			id := ids[rng.IntN(len(ids))]
			switch rng.IntN(10) {
			case 0:
				insert(s.ownerID, pros[rng.IntN(len(pros))])
			case 1:
				exec(`UPDATE appointments SET appointment_time = ? WHERE id = ?`, at(), id)
			case 2:
				exec(`UPDATE appointments SET appointment_date = ?, appointment_time = ? WHERE id = ?`, date(), at(), id)
			case 3:
				exec(`UPDATE appointments SET professional_id = ?, professional_name = ? WHERE id = ?`, pros[rng.IntN(len(pros))], "Outro nome", id)
			case 4:
				exec(`UPDATE appointments SET status = ? WHERE id = ?`, statuses[rng.IntN(len(statuses))], id)
			case 5:
				exec(`UPDATE appointments SET client_name = ?, client_email = ?, notes = ? WHERE id = ?`, "Cliente "+strings.Repeat("é", rng.IntN(3)), "nova@example.com", notes[rng.IntN(len(notes))], id)
			case 6:
				exec(`UPDATE appointments SET duration = ?, buffer_before = ?, buffer_after = ?, price_cents = ?, series_id = NULL, service_id = NULL, service_name = 'Avulsa' WHERE id = ?`,
					45, 10, 0, 12345, id)
			case 7:
				exec(`DELETE FROM appointments WHERE id = ?`, id)
				ids = slices.DeleteFunc(ids, func(x string) bool { return x == id })
			case 9: // the client's answer to a reminder (issue 28)
				exec(`UPDATE appointments SET client_answer = ?, client_answer_channel = 'email' WHERE id = ?`, answers[rng.IntN(len(answers))], id)
			case 8:
				if step == 60 { // one professional deleted: their appointments go to "Sem profissional"
					if r := s.owner.Do("DELETE", "/api/professionals/"+pros[2], nil); r.StatusCode != 204 {
						t.Fatalf("delete professional: %d", r.StatusCode)
					}
					pros = pros[:2]
				}
			}
			from, to := first.Format("2006-01-02"), first.AddDate(0, 0, 3).Format("2006-01-02")
			got := gridAppointments(t, s, "from="+from+"&to="+to)
			if want := appointmentsAsGrid(t, e.DB, s.ownerID, from, to); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: the grid's appointments differ from the table's\n got %+v\nwant %+v", step, got, want)
			}
		}
	})
}

// gridAppointments are a grid's appointments, by id.
func gridAppointments(t *testing.T, s *shop, query string) []agenda.GridAppointment {
	t.Helper()
	r := s.owner.Do("GET", "/api/agenda/grid?"+query, nil)
	if r.StatusCode != 200 {
		t.Fatalf("grid %s: %d %s", query, r.StatusCode, r.Body)
	}
	var g struct{ Appointments []agenda.GridAppointment }
	r.JSON(t, &g)
	out := g.Appointments
	slices.SortFunc(out, func(a, b agenda.GridAppointment) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// appointmentsAsGrid reads the owner's appointments of the range from the
// table itself, as the grid should show them, by id.
func appointmentsAsGrid(t *testing.T, d *db.DB, ownerID, from, to string) []agenda.GridAppointment {
	t.Helper()
	rows, err := d.QueryContext(context.Background(), `SELECT id, professional_id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents,
		client_name, client_email, client_phone, notes, appointment_date, appointment_time, status, created_at, series_id, client_answer
		FROM appointments WHERE user_id = ? AND appointment_date >= ? AND appointment_date <= ? ORDER BY id`, ownerID, from, to)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := []agenda.GridAppointment{}
	for rows.Next() {
		var a agenda.GridAppointment
		var pro, svc, series sql.NullString
		if err := rows.Scan(&a.ID, &pro, &a.ProfessionalName, &svc, &a.ServiceName, &a.Duration, &a.BufferBefore, &a.BufferAfter, &a.PriceCents,
			&a.ClientName, &a.ClientEmail, &a.ClientPhone, &a.Notes, &a.Date, &a.Time, &a.Status, &a.CreatedAt, &series, &a.Answer); err != nil {
			t.Fatal(err)
		}
		a.ProfessionalID = pro.String
		if svc.Valid {
			a.ServiceID = &svc.String
		}
		if series.Valid {
			a.SeriesID = &series.String
		}
		a.CreatedAt = a.CreatedAt.UTC().Truncate(time.Second)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
