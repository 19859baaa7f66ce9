package server_test

import (
	"context"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// TestText_ControlCharactersAreNeverStored: free text sent to the API is
// stored without NUL and other control characters, with every line break as
// "\n", and without bidi overrides — whichever handler takes it.
func TestText_ControlCharactersAreNeverStored(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a := e.Client()
		d := seedOwner(t, e, a)
		pro := d.ids["/api/professionals/"]
		var svc struct{ ID, Name string }
		r := a.Do("POST", "/api/services", map[string]any{"name": "A\x00B\x07C", "description": "linha 1\r\nlinha 2\rlinha 3\u202Efim\x7f\u0085\tok",
			"duration": 30, "priceCents": 1000, "professionalIds": []string{pro}})
		if r.StatusCode != 201 && r.StatusCode != 200 {
			t.Fatalf("service: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &svc)
		if svc.Name != "ABC" {
			t.Errorf("service answered with name %q", svc.Name)
		}
		b := e.Client().Do("POST", "/api/public/profiles/anabela/bookings", map[string]string{
			"professionalId": pro, "serviceId": svc.ID, "date": "2026-11-25", "time": "15:00",
			"clientName": "Maria\x00 \x1b[31mSilva", "clientPhone": "11955554444", "notes": "A\x00B\x07C\r\nD"})
		if b.StatusCode != 201 {
			t.Fatalf("booking: %d %s", b.StatusCode, b.Body)
		}
		ctx := context.Background()
		var name, desc, client, notes string
		if err := e.DB.QueryRowContext(ctx, `SELECT name, description FROM services WHERE id = ?`, svc.ID).Scan(&name, &desc); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.QueryRowContext(ctx, `SELECT client_name, notes FROM appointments WHERE service_id = ?`, svc.ID).Scan(&client, &notes); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ what, got, want string }{
			{"service name", name, "ABC"},
			{"service description", desc, "linha 1\nlinha 2\nlinha 3fim\tok"},
			{"client name", client, "Maria [31mSilva"},
			{"booking notes", notes, "ABC\nD"},
		} {
			if c.got != c.want {
				t.Errorf("%s stored as %q, want %q", c.what, c.got, c.want)
			}
		}
	})
}
