package agenda_test

import (
	"context"
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

func statusOf(t *testing.T, e *servertest.Env, id string) string {
	t.Helper()
	var st string
	if err := e.DB.QueryRowContext(context.Background(), `SELECT status FROM appointments WHERE id = ?`, id).Scan(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

func countRows(t *testing.T, e *servertest.Env, q string, args ...any) int {
	t.Helper()
	var n int
	if err := e.DB.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The owner's choices for the appointments a block or a day off covers are
// a plan saved with it: nothing is cancelled before the save, the save
// applies block and cancellations in one transaction (a plan that cannot
// stand leaves no block and cancels nobody), and the answer says which
// channel carried each client's notice — e-mail, or none for a client
// without an address, never a claim that they were told.
func TestBlocksAndDaysOff_ThePlanIsSavedWithThemAllOrNothing(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		mailed := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "14:00", "clientName": "Com Email", "clientEmail": "cliente@example.com"}))
		phoneOnly := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "15:00", "clientName": "Só Telefone"}))
		kept := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "16:00", "clientName": "Fica Mantido"}))
		block := map[string]any{"professionalId": s.pro, "date": "2026-11-30", "start": "13:00", "end": "18:00", "reason": "congresso"}
		blocks := func() int {
			return countRows(t, e, `SELECT COUNT(*) FROM blocks WHERE user_id = ?`, s.ownerID)
		}
		before := len(e.Mails())

		// A plan that leaves one undecided: refused, naming it; nobody cancelled, no block.
		block["plan"] = []map[string]any{{"id": mailed, "action": "cancel", "notify": true}, {"id": phoneOnly, "action": "cancel", "notify": true}}
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 409 || r.Err(t).Error.Code != "appointments_affected" || !strings.Contains(r.Err(t).Error.Message, "Fica Mantido") {
			t.Fatalf("half a plan: %d %s", r.StatusCode, r.Body)
		}
		// A plan about an appointment the block does not cover (the list changed): refused whole.
		outside := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "09:00", "clientName": "Fora"}))
		block["plan"] = []map[string]any{{"id": mailed, "action": "cancel", "notify": true}, {"id": phoneOnly, "action": "cancel"}, {"id": kept, "action": "keep"}, {"id": outside, "action": "cancel"}}
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 409 || r.Err(t).Error.Code != "plan_changed" {
			t.Fatalf("stale plan: %d %s", r.StatusCode, r.Body)
		}
		// An action that is neither keep nor cancel: a clear 4xx.
		block["plan"] = []map[string]any{{"id": mailed, "action": "apagar"}}
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 422 && r.StatusCode != 400 {
			t.Fatalf("bad action: %d %s", r.StatusCode, r.Body)
		}
		for _, id := range []string{mailed, phoneOnly, kept, outside} {
			if st := statusOf(t, e, id); st != "confirmed" {
				t.Fatalf("%s is %s after refused saves", id, st)
			}
		}
		if n := blocks(); n != 0 {
			t.Fatalf("blocks after refused saves: %d", n)
		}
		if n := len(e.Mails()); n != before {
			t.Fatalf("mails after refused saves: %d, want %d", n, before)
		}

		// The whole plan: saved with the block, each outcome with its channel.
		block["plan"] = []map[string]any{{"id": mailed, "action": "cancel", "notify": true}, {"id": phoneOnly, "action": "cancel", "notify": true}, {"id": kept, "action": "keep"}}
		var saved struct {
			Kept     []string
			Outcomes []struct{ ID, Action, Channel string }
		}
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 201 {
			t.Fatalf("block: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &saved)
		}
		got := map[string]string{}
		for _, o := range saved.Outcomes {
			got[o.ID] = o.Action + "/" + o.Channel
		}
		if len(saved.Kept) != 1 || saved.Kept[0] != kept || got[mailed] != "cancelled/email" || got[phoneOnly] != "cancelled/none" || got[kept] != "kept/" {
			t.Fatalf("saved: %+v", saved)
		}
		if statusOf(t, e, mailed) != "cancelled" || statusOf(t, e, phoneOnly) != "cancelled" || statusOf(t, e, kept) != "confirmed" {
			t.Fatal("the plan was not applied")
		}
		mails := e.Mails()
		if len(mails) != before+1 || !strings.Contains(mails[len(mails)-1].Raw, "To: <cliente@example.com>") || !strings.Contains(mails[len(mails)-1].Raw, "cancelamento.ics") {
			t.Fatalf("cancellation mails: %d (before %d)", len(mails), before)
		}

		// A week of vacation over an appointment: the day off saves with its plan too.
		later := bookedID(t, s.create(map[string]any{"date": "2026-12-03", "time": "10:00", "clientName": "Na Semana"}))
		day := map[string]any{"professionalId": s.pro, "start": "2026-12-01", "end": "2026-12-07", "reason": "Férias",
			"plan": []map[string]any{{"id": later, "action": "cancel", "notify": false}}}
		var off struct {
			Outcomes []struct{ ID, Action, Channel string }
		}
		if r := s.owner.Do("POST", "/api/days-off", day); r.StatusCode != 201 {
			t.Fatalf("day off: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &off)
		}
		if len(off.Outcomes) != 1 || off.Outcomes[0].ID != later || off.Outcomes[0].Action != "cancelled" || off.Outcomes[0].Channel != "" || statusOf(t, e, later) != "cancelled" {
			t.Fatalf("day off outcomes: %+v", off)
		}
	})
}
