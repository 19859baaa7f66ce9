package agenda_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// LGPD round trip: the owner exports everything stored about one client
// (JSON and CSV), then erases them: their name, contacts and notes are gone
// from every appointment and notification, the appointments' dates and
// amounts stay in the reports, another client is untouched, and the owner
// is told.
func TestLGPD_ExportThenEraseOneClient(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		c := e.Client()
		c.ForwardedFor = "10.7.7.7"
		if r := c.Do("POST", "/api/public/profiles/dona/bookings", map[string]string{"professionalId": s.pro, "serviceId": s.svc, "date": "2026-11-26", "time": "10:00",
			"clientName": "Marta Lima", "clientPhone": "(11) 95555-4444", "clientEmail": "marta.lima@example.com", "notes": "Alergia a látex"}); r.StatusCode != 201 {
			t.Fatalf("book: %d %s", r.StatusCode, r.Body)
		}
		if r := s.create(map[string]any{"date": "2026-11-19", "time": "09:00", "clientName": "Marta Lima", "clientPhone": "11955554444", "notes": "Pediu recibo"}); r.StatusCode != 201 {
			t.Fatalf("create: %d %s", r.StatusCode, r.Body)
		}
		s.create(map[string]any{"date": "2026-11-27", "time": "09:00", "clientName": "Outra Pessoa", "clientPhone": "11944443333"})
		key := clientKey("(11) 95555-4444", "")
		revenue := func() string {
			r := s.owner.Do("GET", "/api/reports", nil)
			var rep map[string]any
			r.JSON(t, &rep)
			b, _ := json.Marshal(rep["overview"])
			return string(b)
		}
		before := revenue()

		var data struct {
			Client       struct{ Name, Email, Phone string }
			Appointments []struct {
				Date, Notes, Email string
				PriceCents         int
			}
			Notifications []struct{ Description string }
		}
		r := s.owner.Do("GET", "/api/clients/data?key="+key, nil)
		if r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export: %d %v", r.StatusCode, r.Header)
		}
		r.JSON(t, &data)
		if data.Client.Name != "Marta Lima" || len(data.Appointments) != 2 || data.Appointments[0].Notes != "Alergia a látex" || len(data.Notifications) < 2 {
			t.Fatalf("export: %+v", data)
		}
		csv := s.owner.Do("GET", "/api/clients/data?key="+key+"&format=csv", nil)
		if !strings.HasPrefix(string(csv.Body), "\uFEFFData;Horário;Serviço") || !strings.Contains(string(csv.Body), "Pediu recibo") || !strings.Contains(csv.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("csv: %s", csv.Body)
		}

		if r := s.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": key, "confirm": false}); r.StatusCode != 400 {
			t.Fatalf("erase without confirmation: %d", r.StatusCode)
		}
		stranger := setup(t, e, "outra@example.com", "outra")
		if r := stranger.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": key, "confirm": true}); r.StatusCode != 404 {
			t.Fatalf("another owner's erase: %d", r.StatusCode)
		}
		r = s.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": key, "confirm": true})
		var erased struct{ Erased int }
		r.JSON(t, &erased)
		if r.StatusCode != 200 || erased.Erased != 2 {
			t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
		}

		// Nothing personal is left anywhere the owner's data lives.
		for _, q := range []string{
			`SELECT COUNT(*) FROM appointments WHERE client_name LIKE '%Marta%' OR client_email LIKE '%marta%' OR client_phone LIKE '%55554444%' OR notes LIKE '%látex%' OR notes LIKE '%recibo%'`,
			`SELECT COUNT(*) FROM notifications WHERE description LIKE '%Marta%'`,
			`SELECT COUNT(*) FROM jobs WHERE kind = 'mail.send' AND payload LIKE '%marta.lima%' AND attempts < max_attempts`,
		} {
			var n int
			if err := e.DB.QueryRowContext(context.Background(), q).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%s: %d %v", q, n, err)
			}
		}
		if r := s.owner.Do("GET", "/api/clients/data?key="+key, nil); r.StatusCode != 404 {
			t.Fatalf("export after erase: %d", r.StatusCode)
		}
		if got := revenue(); got != before {
			t.Fatalf("reports changed:\n%s\n%s", before, got)
		}
		var list struct {
			Appointments []struct{ ClientName, Date string }
		}
		s.owner.Do("GET", "/api/appointments?from=2026-11-01&to=2026-11-30", nil).JSON(t, &list)
		names := map[string]int{}
		for _, a := range list.Appointments {
			names[a.ClientName]++
		}
		if names["Cliente removido"] != 2 || names["Outra Pessoa"] != 1 {
			t.Fatalf("appointments after erase: %v", names)
		}
		var notes struct{ Notifications []struct{ Title string } }
		s.owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		found := false
		for _, n := range notes.Notifications {
			found = found || n.Title == "Dados de cliente excluídos (LGPD)"
		}
		if !found {
			t.Fatal("the owner is told of the erasure")
		}
	})
}
