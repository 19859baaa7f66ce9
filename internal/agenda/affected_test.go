package agenda_test

import (
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// A block or a day off over confirmed appointments says who is affected
// before it is saved, and saves only once the owner decided for each: the
// ones left in place are recorded with it; none is stranded silently.
func TestBlocksAndDaysOff_SayWhoIsAffectedAndStrandNobody(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		fernanda := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "15:00", "clientName": "Fernanda Vieira"}))
		edge := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "12:30", "clientName": "Borda Cliente"}))
		bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "10:00", "clientName": "Manhã Cliente"}))
		block := map[string]any{"professionalId": s.pro, "date": "2026-11-30", "start": "13:00", "end": "18:00", "reason": "congresso"}

		var preview struct {
			Appointments []struct{ ID, ClientName, Time, ServiceID string }
		}
		r := s.owner.Do("POST", "/api/blocks/preview", block)
		if r.StatusCode != 200 {
			t.Fatalf("preview: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &preview)
		if len(preview.Appointments) != 2 || preview.Appointments[0].ID != edge || preview.Appointments[1].ClientName != "Fernanda Vieira" {
			t.Fatalf("affected: %+v", preview.Appointments)
		}
		// Each names its service: the owner's WhatsApp notice tells by it
		// whether the place is the address or an online service's link.
		for _, a := range preview.Appointments {
			if a.ServiceID != s.svc {
				t.Fatalf("affected %s without its service: %q", a.ID, a.ServiceID)
			}
		}
		// Saved blind, it is refused, naming them.
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 409 || r.Err(t).Error.Code != "appointments_affected" || !strings.Contains(r.Err(t).Error.Message, "Fernanda Vieira") {
			t.Fatalf("blind block: %d %s", r.StatusCode, r.Body)
		}
		// Keeping one is not enough; the other is moved first, then the block saves with the kept one recorded.
		block["keep"] = []string{fernanda}
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 409 || !strings.Contains(r.Err(t).Error.Message, "Borda Cliente") {
			t.Fatalf("half decided: %d %s", r.StatusCode, r.Body)
		}
		if r := s.move(edge, map[string]any{"date": "2026-11-30", "time": "11:00"}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		var saved struct {
			ID   string
			Kept []string
		}
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 201 {
			t.Fatalf("block: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &saved)
		}
		if len(saved.Kept) != 1 || saved.Kept[0] != fernanda {
			t.Fatalf("kept: %+v", saved)
		}
		var listed []struct{ Kept []string }
		s.owner.Do("GET", "/api/blocks?from=2026-11-30&to=2026-11-30", nil).JSON(t, &listed)
		if len(listed) != 1 || len(listed[0].Kept) != 1 || listed[0].Kept[0] != fernanda {
			t.Fatalf("listed: %+v", listed)
		}

		// A whole day off: every confirmed appointment of its dates, the practice's too.
		day := map[string]any{"start": "2026-11-30", "end": "2026-12-01", "reason": "Viagem"}
		s.owner.Do("POST", "/api/days-off/preview", day).JSON(t, &preview)
		if len(preview.Appointments) != 3 {
			t.Fatalf("day off affects: %+v", preview.Appointments)
		}
		if r := s.owner.Do("POST", "/api/days-off", day); r.StatusCode != 409 || r.Err(t).Error.Code != "appointments_affected" {
			t.Fatalf("blind day off: %d %s", r.StatusCode, r.Body)
		}
		for _, a := range preview.Appointments {
			if r := s.setStatus(a.ID, "cancelled"); r.StatusCode != 200 {
				t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
			}
		}
		if r := s.owner.Do("POST", "/api/days-off", day); r.StatusCode != 201 {
			t.Fatalf("day off once all are decided: %d %s", r.StatusCode, r.Body)
		}
		if r := s.owner.Do("POST", "/api/blocks/preview", map[string]any{"date": "2026-11-30", "start": "18:00", "end": "13:00"}); r.StatusCode != 400 {
			t.Fatalf("a bad range: %d", r.StatusCode)
		}
	})
}
