package whatsapp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

// untilReminder moves the clock to the reminder of the setup's appointment
// (26/11 14:00 in São Paulo, reminded 24 h before) and signs the owner in
// again (the clock outran the access token).
func (w *world) untilReminder(t *testing.T) {
	t.Helper()
	w.e.Clock.Set(time.Date(2026, 11, 25, 17, 1, 0, 0, time.UTC))
	if r := w.owner.Login("ana@example.com", "senha-da-ana-1"); r.StatusCode != 200 {
		t.Fatalf("login: %d %s", r.StatusCode, r.Body)
	}
}

func (w *world) reminderMails(t *testing.T) int {
	t.Helper()
	n := 0
	for _, m := range w.e.Mails() {
		if strings.Contains(m.Raw, "Lembrete") && strings.Contains(m.Raw, "bruno@example.com") {
			n++
		}
	}
	return n
}

func texts(f *graphtest.Fake) []graphtest.Message {
	var out []graphtest.Message
	for _, m := range f.Messages() {
		if m.Text != "" {
			out = append(out, m)
		}
	}
	return out
}

// The whole path: the booking's reminder job hands the reminder to
// WhatsApp (no reminder e-mail), the client taps "Confirmar" in WhatsApp,
// the signed webhook confirms through the one-tap answers' entry point and
// tells the client; Meta's replay of the webhook changes nothing and
// replies nothing more.
func TestFlow_ReminderGoesByWhatsAppAndASignedTapConfirms(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		st := w.connect(t)
		w.approve(t)
		w.untilReminder(t)
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 || sent[0].Template != "agendei_lembrete_v1" || len(sent[0].Payloads) != 3 {
			t.Fatalf("messages at Meta: %+v", sent)
		}
		if n := w.reminderMails(t); n != 0 {
			t.Fatalf("%d reminder e-mails besides the WhatsApp one", n)
		}
		// A tap with a made-up reference finds nothing and changes nothing.
		forgedRef := w.fake.ButtonReply(w.biz, "wamid.IN-0", sent[0].To, sent[0].ID, "c:inventada", "Confirmar", w.e.Clock.Now())
		if code, _ := graphtest.Post(st.WebhookURL, w.biz.AppSecret, forgedRef); code != 200 {
			t.Fatalf("unknown reference: %d", code)
		}
		var appt struct{ Answer string }
		w.owner.Do("GET", "/api/appointments/"+w.apptID, nil).JSON(t, &appt)
		if appt.Answer != "" {
			t.Fatalf("a made-up reference answered: %q", appt.Answer)
		}
		// The signed tap on Confirmar, forged first.
		tap := w.fake.ButtonReply(w.biz, "wamid.IN-1", sent[0].To, sent[0].ID, sent[0].Payloads[0], "Confirmar", w.e.Clock.Now())
		if code, _ := graphtest.PostSigned(st.WebhookURL, graphtest.Sign("outro-segredo", tap), tap); code != 401 {
			t.Fatalf("forged tap: %d", code)
		}
		w.owner.Do("GET", "/api/appointments/"+w.apptID, nil).JSON(t, &appt)
		if appt.Answer != "" {
			t.Fatal("a forged tap answered")
		}
		for range 2 { // Meta delivers it twice
			if code, err := graphtest.Post(st.WebhookURL, w.biz.AppSecret, tap); err != nil || code != 200 {
				t.Fatalf("tap: %d %v", code, err)
			}
			w.e.RunJobs()
		}
		w.owner.Do("GET", "/api/appointments/"+w.apptID, nil).JSON(t, &appt)
		if appt.Answer != "confirmed" {
			t.Fatalf("answer after the tap: %q", appt.Answer)
		}
		replies := texts(w.fake)
		if len(replies) != 1 || replies[0].To != sent[0].To || !strings.Contains(replies[0].Text, "Presença confirmada") {
			t.Fatalf("replies to the client: %+v", replies)
		}
		if p := w.fake.Problems(); len(p) > 0 {
			t.Fatalf("requests not as Meta documents: %v", p)
		}
	})
}

// A reminder Meta refuses for good goes by e-mail, once, and the
// appointment says WhatsApp did not deliver it.
func TestFlow_ReminderWhatsAppCouldNotSendGoesByEmail(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		w.fake.FailNextSends(1, 400, 131026, "Message undeliverable")
		w.untilReminder(t)
		w.e.RunJobs()
		if n := w.reminderMails(t); n != 1 {
			t.Fatalf("%d reminder e-mails; want the one instead of WhatsApp", n)
		}
		ds := w.deliveries(t)
		if len(ds) != 1 || ds[0].State != "failed" || !ds[0].Emailed {
			t.Fatalf("deliveries: %+v", ds)
		}
	})
}

// Until the reminder template is approved, the reminder goes by e-mail.
func TestFlow_ReminderGoesByEmailWhileTheTemplateIsInReview(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.untilReminder(t)
		w.e.RunJobs()
		if n := w.reminderMails(t); n != 1 || len(w.fake.Messages()) != 0 {
			t.Fatalf("%d reminder e-mails, %d WhatsApp messages", n, len(w.fake.Messages()))
		}
	})
}

// A booking made once the templates are approved gets WhatsApp's
// confirmation besides the e-mail.
func TestFlow_NewBookingGetsAWhatsAppConfirmation(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		var pros []struct{ ID string }
		w.owner.Do("GET", "/api/professionals", nil).JSON(t, &pros)
		var svcs []struct{ ID string }
		w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		if r := w.e.Client().Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{
			"professionalId": pros[0].ID, "serviceId": svcs[0].ID, "date": "2026-11-27", "time": "09:00",
			"clientName": "Carla", "clientPhone": "(21) 99876-5432"}); r.StatusCode != 201 {
			t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 || sent[0].Template != "agendei_confirmacao_v1" || sent[0].To != "5521998765432" || sent[0].Body[0] != "Carla" || len(sent[0].Payloads) != 0 {
			t.Fatalf("messages at Meta: %+v", sent)
		}
	})
}

// An appointment the owner writes into the agenda, or moves, with "notify
// the client" gets WhatsApp's confirmation as a public booking does (of its
// time as it now stands; a client with only a phone too), through the same
// outbox and limits; without "notify" the client hears nothing.
func TestFlow_OwnerMadeAndMovedAppointmentsGetTheWhatsAppConfirmation(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		var pros []struct{ ID string }
		w.owner.Do("GET", "/api/professionals", nil).JSON(t, &pros)
		var svcs []struct{ ID string }
		w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		create := func(at, name, phone string, notify bool) string {
			t.Helper()
			var out struct{ ID string }
			r := w.owner.Do("POST", "/api/appointments", map[string]any{"professionalId": pros[0].ID, "serviceId": svcs[0].ID, "date": "2026-11-27", "time": at,
				"clientName": name, "clientPhone": phone, "notifyClient": notify})
			if r.StatusCode != 201 {
				t.Fatalf("create: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &out)
			return out.ID
		}
		confirmations := func() []graphtest.Message {
			var out []graphtest.Message
			for _, m := range w.fake.Messages() {
				if m.Template == "agendei_confirmacao_v1" {
					out = append(out, m)
				}
			}
			return out
		}
		create("09:00", "Quieta", "(21) 91111-2222", false)
		id := create("10:00", "Carla Dias", "(21) 99876-5432", true)
		w.e.RunJobs()
		sent := confirmations()
		if len(sent) != 1 || sent[0].To != "5521998765432" || sent[0].Body[0] != "Carla Dias" || sent[0].Body[4] != "10:00" {
			t.Fatalf("confirmations at Meta: %+v", sent)
		}
		// The answer says the notice went by WhatsApp (the client has no e-mail).
		var moved struct{ Notice string }
		if r := w.owner.Do("POST", "/api/appointments/"+id+"/reschedule", map[string]any{"date": "2026-11-27", "time": "15:00", "notifyClient": true}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		} else if r.JSON(t, &moved); moved.Notice != "whatsapp" {
			t.Fatalf("move's notice: %q", moved.Notice)
		}
		w.e.RunJobs()
		sent = confirmations()
		if len(sent) != 2 || sent[1].To != "5521998765432" || sent[1].Body[4] != "15:00" {
			t.Fatalf("confirmations after the move: %+v", sent)
		}
		// A move without "notify" says nothing.
		if r := w.owner.Do("POST", "/api/appointments/"+id+"/reschedule", map[string]any{"date": "2026-11-27", "time": "16:00"}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
		if n := len(confirmations()); n != 2 {
			t.Fatalf("%d confirmations after a silent move", n)
		}
		// "Avisar cliente" after a drag: the confirmation of where it now stands.
		var told struct{ Channel string }
		if r := w.owner.Do("POST", "/api/appointments/"+id+"/tell-moved", nil); r.StatusCode != 200 {
			t.Fatalf("tell-moved: %d %s", r.StatusCode, r.Body)
		} else if r.JSON(t, &told); told.Channel != "whatsapp" {
			t.Fatalf("tell-moved's channel: %q", told.Channel)
		}
		w.e.RunJobs()
		if sent = confirmations(); len(sent) != 3 || sent[2].Body[4] != "16:00" {
			t.Fatalf("confirmations after tell-moved: %+v", sent)
		}
		if p := w.fake.Problems(); len(p) > 0 {
			t.Fatalf("requests not as Meta documents: %v", p)
		}
	})
}

// Meta refuses, for good (error 132018), a text parameter with a tab, a new
// line or more than four consecutive spaces: names saved that way before
// names were normalised (or a client's name typed so) still go, each as
// one line, instead of failing every confirmation over to e-mail.
func TestFlow_ParametersGoAsOneLineMetaAccepts(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		ctx := context.Background()
		if _, err := w.e.DB.ExecContext(ctx, "UPDATE services SET name = ? WHERE user_id = ?", "Clareamento\tdental", w.ownerID); err != nil {
			t.Fatal(err)
		}
		if _, err := w.e.DB.ExecContext(ctx, "UPDATE profiles SET name = ? WHERE id = ?", "Clínica     Sorriso\r\n", w.ownerID); err != nil {
			t.Fatal(err)
		}
		var pros []struct{ ID string }
		w.owner.Do("GET", "/api/professionals", nil).JSON(t, &pros)
		var svcs []struct{ ID string }
		w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		if r := w.e.Client().Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{
			"professionalId": pros[0].ID, "serviceId": svcs[0].ID, "date": "2026-11-27", "time": "09:00",
			"clientName": "Carla", "clientPhone": "(21) 99876-5432"}); r.StatusCode != 201 {
			t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 {
			t.Fatalf("messages at Meta: %+v (problems %v)", sent, w.fake.Problems())
		}
		if got := strings.Join(sent[0].Body[:3], "|"); got != "Carla|Clínica Sorriso|Clareamento dental" {
			t.Fatalf("parameters: %q", got)
		}
	})
}

// A client who gave only a phone and paid the deposit is confirmed by the
// channels a booking without a deposit uses: WhatsApp's confirmation once
// paid (never while the Pix is due), then the reminder by WhatsApp.
func TestFlow_APaidDepositConfirmsAPhoneOnlyClientByWhatsAppAndReminds(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		var pros []struct{ ID string }
		w.owner.Do("GET", "/api/professionals", nil).JSON(t, &pros)
		var svcs []struct{ ID string }
		w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		if r := w.owner.Do("PUT", "/api/pix", map[string]string{"keyType": "cpf", "key": "529.982.247-25", "name": "Clínica Sorriso", "city": "São Paulo"}); r.StatusCode != 200 {
			t.Fatalf("pix: %d %s", r.StatusCode, r.Body)
		}
		if r := w.owner.Do("PUT", "/api/services/"+svcs[0].ID, map[string]any{"name": "Limpeza", "duration": 30, "priceCents": 15000,
			"deposit": map[string]any{"kind": "fixed", "value": 3000, "holdMinutes": 60}}); r.StatusCode != 200 {
			t.Fatalf("policy: %d %s", r.StatusCode, r.Body)
		}
		var b struct{ ID string }
		r := w.e.Client().Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{
			"professionalId": pros[0].ID, "serviceId": svcs[0].ID, "date": "2026-11-27", "time": "09:00",
			"clientName": "Carla", "clientPhone": "(21) 99876-5432"})
		if r.StatusCode != 201 {
			t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
		}
		r.JSON(t, &b)
		w.e.RunJobs()
		if sent := w.fake.Messages(); len(sent) != 0 {
			t.Fatalf("messages while the deposit is due: %+v", sent)
		}
		if r := w.owner.Do("POST", "/api/appointments/"+b.ID+"/deposit/received", nil); r.StatusCode != 200 {
			t.Fatalf("Sinal recebido: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 || sent[0].Template != "agendei_confirmacao_v1" || sent[0].To != "5521998765432" {
			t.Fatalf("after the payment, messages at Meta: %+v", sent)
		}
		// The day before, the reminder goes by WhatsApp too.
		w.e.Clock.Set(time.Date(2026, 11, 26, 12, 1, 0, 0, time.UTC))
		w.e.RunJobs()
		var reminders int
		for _, m := range w.fake.Messages() {
			if m.Template == "agendei_lembrete_v1" && m.To == "5521998765432" {
				reminders++
			}
		}
		if reminders != 1 {
			t.Fatalf("%d reminders to the paid phone-only client: %+v", reminders, w.fake.Messages())
		}
	})
}

// A reminder's buttons answer for the time it was about: once the owner
// moves the appointment, a tap on the old reminder's "Confirmar" confirms
// nothing and the client is told the new time.
func TestFlow_AnOldReminderTapDoesNotAnswerForTheNewTime(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		st := w.connect(t)
		w.approve(t)
		w.untilReminder(t)
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 || len(sent[0].Payloads) != 3 {
			t.Fatalf("messages at Meta: %+v", sent)
		}
		if r := w.owner.Do("POST", "/api/appointments/"+w.apptID+"/reschedule", map[string]any{"date": "2026-11-26", "time": "16:00"}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		tap := w.fake.ButtonReply(w.biz, "wamid.IN-OLD", sent[0].To, sent[0].ID, sent[0].Payloads[0], "Confirmar", w.e.Clock.Now())
		if code, err := graphtest.Post(st.WebhookURL, w.biz.AppSecret, tap); err != nil || code != 200 {
			t.Fatalf("tap: %d %v", code, err)
		}
		w.e.RunJobs()
		var appt struct{ Answer string }
		w.owner.Do("GET", "/api/appointments/"+w.apptID, nil).JSON(t, &appt)
		if appt.Answer != "" {
			t.Fatalf("an old reminder's tap answered %q for the new time", appt.Answer)
		}
		var told bool
		for _, m := range texts(w.fake) {
			told = told || (m.To == sent[0].To && strings.Contains(m.Text, "mudou de horário") && strings.Contains(m.Text, "26/11/2026 às 16:00"))
		}
		if !told {
			t.Fatalf("the client was not told of the new time: %+v", texts(w.fake))
		}
	})
}
