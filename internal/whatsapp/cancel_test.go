package whatsapp_test

import (
	"testing"

	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

// cancel cancels an appointment as the owner, telling the client, and
// returns the answer's notice (the channels that carried it).
func cancel(t *testing.T, p practice, apptID string) string {
	t.Helper()
	var a struct{ Status, Notice string }
	r := p.owner.Do("PATCH", "/api/appointments/"+apptID, map[string]any{"status": "cancelled", "notifyClient": true})
	if r.StatusCode != 200 {
		t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &a)
	if a.Status != "cancelled" {
		t.Fatalf("cancelled: %+v", a)
	}
	return a.Notice
}

// The owner's cancellation reaches the client by WhatsApp too (issue 41:
// the notice neither number had): from the owner's own number, besides
// the e-mail.
func TestCancellation_GoesFromTheOwnersNumberBesidesTheEmail(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		if n := cancel(t, w.practice(t), w.apptID); n != "email_whatsapp" {
			t.Fatalf("notice %q", n)
		}
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 || sent[0].PhoneNumberID != w.biz.PhoneNumberID || sent[0].Template != "agendei_cancelamento_v1" ||
			sent[0].Body[0] != "Bruno" || sent[0].Body[1] != "Clínica Sorriso" {
			t.Fatalf("the cancellation by WhatsApp: %+v", sent)
		}
		ds := w.deliveries(t)
		if len(ds) != 1 || ds[0].Kind != whatsapp.KindCancellation || ds[0].State != "sent" {
			t.Fatalf("deliveries: %+v", ds)
		}
	})
}

// A phone-only client of an owner on the Agendei number is told of the
// cancellation from it, naming the practice.
func TestCancellation_GoesFromTheAgendeiNumberToAPhoneOnlyClient(t *testing.T) {
	eachOperator(t, 200, func(t *testing.T, w *world, op graphtest.Account) {
		w.operatorReady(t, op)
		switchOperator(t, w.owner, true)
		p := w.practice(t)
		carla := p.book(t, w.e, "15:00", "Carla", "(21) 99888-7766", "")
		w.e.RunJobs()
		if n := cancel(t, p, carla); n != "whatsapp" {
			t.Fatalf("notice %q", n)
		}
		w.e.RunJobs()
		sent, _ := operatorSent(w.fake, op, whatsapp.Recipient("(21) 99888-7766"))
		if len(sent) != 2 || sent[1].Template != "agendei_operador_cancelamento_v1" || sent[1].Body[0] != "Clínica Sorriso" || sent[1].Body[1] != "Carla" {
			t.Fatalf("Carla's messages (confirmation, cancellation): %+v", sent)
		}
		if pr := w.fake.Problems(); len(pr) > 0 {
			t.Fatalf("requests not as Meta documents: %v", pr)
		}
	})
}
