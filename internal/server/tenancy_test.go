package server_test

import (
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// TestTenancy_NoOwnerReachesAnotherOwnersRecords proves that every owner
// endpoint of the setup screens keeps to the signed-in owner: the other's
// ids answer 404 (not 403, so ids do not leak) and change nothing.
func TestTenancy_NoOwnerReachesAnotherOwnersRecords(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a, b := e.Client(), e.Client()
		a.Signup("Ana", "ana@example.com", "segredo1", "gato")
		b.Signup("Bia", "bia@example.com", "segredo1", "gato")
		var pro, svc struct{ ID string }
		a.Do("POST", "/api/professionals", map[string]string{"name": "Ana", "specialization": "Psicóloga"}).JSON(t, &pro)
		a.Do("POST", "/api/services", map[string]any{"name": "Consulta", "duration": 50, "priceCents": 15000, "professionalIds": []string{pro.ID}}).JSON(t, &svc)

		attempts := []struct {
			method, path string
			body         any
		}{
			{"PUT", "/api/services/" + svc.ID, map[string]any{"name": "X", "duration": 10, "priceCents": 0}},
			{"DELETE", "/api/services/" + svc.ID, nil},
			{"PUT", "/api/professionals/" + pro.ID, map[string]string{"name": "X", "specialization": "Y"}},
			{"PATCH", "/api/professionals/" + pro.ID, map[string]bool{"active": false}},
			{"DELETE", "/api/professionals/" + pro.ID, nil},
		}
		for _, at := range attempts {
			if r := b.Do(at.method, at.path, at.body); r.StatusCode != 404 {
				t.Errorf("%s %s as another owner: %d %s", at.method, at.path, r.StatusCode, r.Body)
			}
		}
		// B cannot link A's professional to a service of B's.
		if r := b.Do("POST", "/api/services", map[string]any{"name": "S", "duration": 30, "priceCents": 0, "professionalIds": []string{pro.ID}}); r.StatusCode != 400 {
			t.Errorf("linking another owner's professional: %d %s", r.StatusCode, r.Body)
		}
		// B's lists show nothing of A's.
		for _, p := range []string{"/api/services", "/api/professionals"} {
			var items []map[string]any
			b.Do("GET", p, nil).JSON(t, &items)
			if len(items) != 0 {
				t.Errorf("%s as another owner shows %d items", p, len(items))
			}
		}
		// A's records are untouched.
		var svcs []struct {
			Name            string
			ProfessionalIDs []string
		}
		a.Do("GET", "/api/services", nil).JSON(t, &svcs)
		if len(svcs) != 1 || svcs[0].Name != "Consulta" || len(svcs[0].ProfessionalIDs) != 1 {
			t.Fatalf("owner's service changed: %+v", svcs)
		}
		var pros []struct{ Active bool }
		a.Do("GET", "/api/professionals", nil).JSON(t, &pros)
		if len(pros) != 1 || !pros[0].Active {
			t.Fatalf("owner's professional changed: %+v", pros)
		}
		// Anonymous visitors reach none of it.
		anon := e.Client()
		for _, p := range []string{"/api/services", "/api/professionals", "/api/profile", "/api/availability", "/api/setup-status"} {
			if r := anon.Do("GET", p, nil); r.StatusCode != 401 {
				t.Errorf("anonymous %s: %d", p, r.StatusCode)
			}
		}
	})
}
