package agenda_test

import (
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/server/servertest"
)

// Every owner's path that tells a client answers which channel carried the
// notice — e-mail when one was queued, "none" when no automatic message
// could leave (the screen then offers the WhatsApp message by hand) — and
// says nothing of a notice nobody asked for: never "avisado" by default.
func TestCancelAndMove_AnswerTheChannelThatToldTheClient(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		type answer struct{ Status, Date, Time, Notice string }
		do := func(method, path string, body any) answer {
			t.Helper()
			r := s.owner.Do(method, path, body)
			if r.StatusCode != 200 {
				t.Fatalf("%s %s: %d %s", method, path, r.StatusCode, r.Body)
			}
			var a answer
			r.JSON(t, &a)
			return a
		}
		mailed := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "09:00", "clientName": "Com Email", "clientEmail": "cliente@example.com"}))
		phoneOnly := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "10:00", "clientName": "Só Telefone"}))
		silent := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "11:00", "clientName": "Sem Aviso", "clientEmail": "quieta@example.com"}))

		// Moves.
		if a := do("POST", "/api/appointments/"+mailed+"/reschedule", map[string]any{"date": "2026-11-30", "time": "14:00", "notifyClient": true}); a.Notice != "email" || a.Time != "14:00" {
			t.Fatalf("move with e-mail: %+v", a)
		}
		if a := do("POST", "/api/appointments/"+phoneOnly+"/reschedule", map[string]any{"date": "2026-11-30", "time": "15:00", "notifyClient": true}); a.Notice != "none" {
			t.Fatalf("move of a client without e-mail nor WhatsApp: %+v", a)
		}
		before := len(e.Mails())
		if a := do("POST", "/api/appointments/"+silent+"/reschedule", map[string]any{"date": "2026-11-30", "time": "16:00"}); a.Notice != "" {
			t.Fatalf("move without a notice: %+v", a)
		}
		if n := len(e.Mails()); n != before {
			t.Fatalf("a silent move sent %d mails", n-before)
		}

		// A drag moves silently; "Avisar cliente" then tells where it stands.
		var told struct{ Channel string }
		r := s.owner.Do("POST", "/api/appointments/"+silent+"/tell-moved", nil)
		if r.StatusCode != 200 {
			t.Fatalf("tell-moved: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &told)
		mails := e.Mails()
		if told.Channel != "email" || len(mails) != before+1 || !strings.Contains(mails[len(mails)-1].Raw, "quieta@example.com") || !strings.Contains(mails[len(mails)-1].Raw, "16:00") {
			t.Fatalf("tell-moved: %+v, %d mails", told, len(mails)-before)
		}
		s.owner.Do("POST", "/api/appointments/"+phoneOnly+"/tell-moved", nil).JSON(t, &told)
		if told.Channel != "none" {
			t.Fatalf("tell-moved without a channel: %+v", told)
		}

		// Cancellations.
		if a := do("PATCH", "/api/appointments/"+mailed, map[string]any{"status": "cancelled", "notifyClient": true}); a.Notice != "email" || a.Status != "cancelled" {
			t.Fatalf("cancel with e-mail: %+v", a)
		}
		if a := do("PATCH", "/api/appointments/"+phoneOnly, map[string]any{"status": "cancelled", "notifyClient": true}); a.Notice != "none" {
			t.Fatalf("cancel of a client without e-mail: %+v", a)
		}
		if a := do("PATCH", "/api/appointments/"+silent, map[string]any{"status": "cancelled"}); a.Notice != "" {
			t.Fatalf("cancel without a notice: %+v", a)
		}
		// A cancelled appointment has nothing to be told of a move.
		if r := s.owner.Do("POST", "/api/appointments/"+silent+"/tell-moved", nil); r.StatusCode != 409 {
			t.Fatalf("tell-moved of a cancelled one: %d %s", r.StatusCode, r.Body)
		}
	})
}

// "Remarcar" in the plan of a block or a day off moves nothing before the
// save: the moves are applied with the block in one transaction, through
// the booking's hold, and one that cannot stand — a time taken, or inside
// the very block — refuses the whole save: no block, no cancellation, no
// move, no message. Saved, the outcome says "moved" and the channel.
func TestBlocksAndDaysOff_PlannedMovesSaveWithThemAllOrNothing(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		s := setup(t, e, "dona@example.com", "dona")
		moving := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "14:00", "clientName": "Vai Mudar", "clientEmail": "muda@example.com"}))
		cancelled := bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "15:00", "clientName": "Vai Cancelar", "clientEmail": "cancela@example.com"}))
		bookedID(t, s.create(map[string]any{"date": "2026-11-30", "time": "10:00", "clientName": "Ocupa Manhã"}))
		block := map[string]any{"professionalId": s.pro, "date": "2026-11-30", "start": "13:00", "end": "18:00", "reason": "congresso"}
		plan := func(date, at string) []map[string]any {
			return []map[string]any{{"id": moving, "action": "move", "date": date, "time": at, "notify": true}, {"id": cancelled, "action": "cancel", "notify": true}}
		}
		unchanged := func(when string) {
			t.Helper()
			if n := countRows(t, e, `SELECT COUNT(*) FROM blocks WHERE user_id = ?`, s.ownerID); n != 0 {
				t.Fatalf("%s: %d blocks", when, n)
			}
			if n := countRows(t, e, `SELECT COUNT(*) FROM appointments WHERE id = ? AND status = 'confirmed' AND appointment_time = '14:00'`, moving); n != 1 {
				t.Fatalf("%s: the planned move happened", when)
			}
			if statusOf(t, e, cancelled) != "confirmed" {
				t.Fatalf("%s: the planned cancellation happened", when)
			}
		}
		before := len(e.Mails())

		// Onto another appointment's time: refused whole, naming the client.
		block["plan"] = plan("2026-11-30", "10:00")
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 409 || r.Err(t).Error.Code != "slot_unavailable" || !strings.Contains(r.Err(t).Error.Message, "Vai Mudar") {
			t.Fatalf("move onto a taken time: %d %s", r.StatusCode, r.Body)
		}
		unchanged("a taken time")
		// Into the block itself: refused whole.
		block["plan"] = plan("2026-11-30", "16:00")
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 409 || r.Err(t).Error.Code != "plan_move_inside" {
			t.Fatalf("move into the block: %d %s", r.StatusCode, r.Body)
		}
		unchanged("inside the block")
		// A move without its new time: a clear 400.
		block["plan"] = []map[string]any{{"id": moving, "action": "move"}, {"id": cancelled, "action": "cancel"}}
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 400 {
			t.Fatalf("move without a time: %d %s", r.StatusCode, r.Body)
		}
		unchanged("no time")
		if n := len(e.Mails()); n != before {
			t.Fatalf("refused saves sent %d mails", n-before)
		}

		// Onto the time the plan's own cancellation frees: the cancellations go first.
		block["plan"] = []map[string]any{{"id": moving, "action": "move", "date": "2026-12-01", "time": "15:00", "notify": true}, {"id": cancelled, "action": "cancel", "notify": true}}
		var saved struct {
			Outcomes []struct{ ID, Action, Channel, Date, Time string }
		}
		if r := s.owner.Do("POST", "/api/blocks", block); r.StatusCode != 201 {
			t.Fatalf("block: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &saved)
		}
		got := map[string]string{}
		for _, o := range saved.Outcomes {
			got[o.ID] = o.Action + "/" + o.Channel + "/" + o.Date + "/" + o.Time
		}
		if got[moving] != "moved/email/2026-12-01/15:00" || got[cancelled] != "cancelled/email//" {
			t.Fatalf("outcomes: %+v", saved.Outcomes)
		}
		if n := countRows(t, e, `SELECT COUNT(*) FROM appointments WHERE id = ? AND status = 'confirmed' AND appointment_date = '2026-12-01' AND appointment_time = '15:00'`, moving); n != 1 {
			t.Fatal("the planned move was not applied")
		}
		var moved bool
		for _, m := range e.Mails()[before:] {
			moved = moved || (strings.Contains(m.Raw, "muda@example.com") && strings.Contains(m.Raw, "remarcado"))
		}
		if !moved {
			t.Fatal("the moved client was not e-mailed")
		}

		// A day off's plan moves too, and never into the days it closes.
		later := bookedID(t, s.create(map[string]any{"date": "2026-12-03", "time": "10:00", "clientName": "Na Semana"}))
		day := map[string]any{"professionalId": s.pro, "start": "2026-12-02", "end": "2026-12-04", "reason": "Férias",
			"plan": []map[string]any{{"id": later, "action": "move", "date": "2026-12-04", "time": "10:00", "notify": true}}}
		if r := s.owner.Do("POST", "/api/days-off", day); r.StatusCode != 409 || r.Err(t).Error.Code != "plan_move_inside" {
			t.Fatalf("move into the days off: %d %s", r.StatusCode, r.Body)
		}
		day["plan"] = []map[string]any{{"id": later, "action": "move", "date": "2026-12-07", "time": "10:00", "notify": true}}
		var off struct {
			Outcomes []struct{ ID, Action, Channel string }
		}
		if r := s.owner.Do("POST", "/api/days-off", day); r.StatusCode != 201 {
			t.Fatalf("day off: %d %s", r.StatusCode, r.Body)
		} else {
			r.JSON(t, &off)
		}
		if len(off.Outcomes) != 1 || off.Outcomes[0].Action != "moved" || off.Outcomes[0].Channel != "none" {
			t.Fatalf("day off outcomes: %+v", off.Outcomes)
		}
	})
}
