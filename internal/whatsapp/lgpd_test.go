package whatsapp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/server/servertest"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

// otherPractice is a second owner, "outra", with her own business on the
// fake, who also booked Bruno (the same phone and e-mail) at the same time.
func otherPractice(t *testing.T, w *world) (*servertest.Client, graphtest.Account) {
	t.Helper()
	c := w.e.Client().As(t)
	c.Signup("Dra. Bia", "bia@example.com", "senha-da-bia-1", "gato")
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "18:00"})
	}
	if r := c.Do("POST", "/api/onboarding", map[string]any{"name": "Clínica Outra", "area": "Odontologia", "publicUsername": "outra",
		"services": []map[string]any{{"name": "Canal", "duration": 60, "priceCents": 30000}}, "days": days}); r.StatusCode != 200 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	var pro struct{ ID string }
	c.Do("POST", "/api/professionals", map[string]string{"name": "Dra. Bia", "specialization": "Dentista"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	c.Do("GET", "/api/services", nil).JSON(t, &svcs)
	if r := w.e.Client().Do("POST", "/api/public/profiles/outra/bookings", map[string]string{
		"professionalId": pro.ID, "serviceId": svcs[0].ID, "date": "2026-11-26", "time": "14:00",
		"clientName": "Bruno", "clientPhone": "(11) 98765-4321", "clientEmail": "bruno@example.com"}); r.StatusCode != 201 {
		t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
	}
	join(t, w.e, "outra", svcs[0].ID)
	biz := w.fake.AddAccount(graphtest.Account{VerifiedName: "Clínica Outra"})
	if r := c.Do("PUT", "/api/whatsapp", map[string]string{"wabaId": biz.WABAID, "phoneNumberId": biz.PhoneNumberID,
		"accessToken": biz.Token, "appSecret": biz.AppSecret}); r.StatusCode != 200 {
		t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
	}
	for _, tpl := range w.fake.Templates(biz.WABAID) {
		w.fake.SetTemplateStatus(biz.WABAID, tpl.Name, "APPROVED")
	}
	return c, biz
}

// join puts Bruno on a practice's waitlist.
func join(t *testing.T, e *servertest.Env, username, svc string) {
	t.Helper()
	if r := e.Client().Do("POST", "/api/public/profiles/"+username+"/waitlist", map[string]string{"serviceId": svc, "professionalId": "any",
		"firstDate": "2026-11-27", "lastDate": "2026-11-28", "partOfDay": "qualquer", "clientName": "Bruno",
		"clientPhone": "(11) 98765-4321", "clientEmail": "bruno@example.com"}); r.StatusCode != 201 {
		t.Fatalf("join: %d %s", r.StatusCode, r.Body)
	}
}

type clientData struct {
	Appointments []struct{ Answer, AnswerChannel string }
	Waitlist     []struct{ Phone string }
	AnswerLinks  []struct {
		AppointmentDate, AppointmentTime, Action, Channel string
	}
	WhatsappMessages []struct {
		AppointmentTime, Kind, State string
		SentAt                       *string
	}
}

// The LGPD copy of a client holds what was sent to them besides their
// appointments and waitlist entries — the one-tap answer links and the
// WhatsApp messages with their status — and their answer (also in the
// spreadsheet); the erase takes the links and messages with the rest, for
// that owner only: another practice that has the same phone and e-mail
// keeps its appointment, messages, links and waitlist entry untouched.
func TestLGPD_ExportAndEraseCoverAnswersAndWhatsAppMessagesOfOneOwner(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		st := w.connect(t)
		w.approve(t)
		var svcs []struct{ ID string }
		w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
		join(t, w.e, "sorriso", svcs[0].ID)
		other, _ := otherPractice(t, w)
		w.untilReminder(t)
		if r := other.Login("bia@example.com", "senha-da-bia-1"); r.StatusCode != 200 {
			t.Fatalf("login: %d", r.StatusCode)
		}
		other.Do("GET", "/api/whatsapp", nil) // reads the templates Meta approved
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 2 {
			t.Fatalf("%d reminders at Meta, want one from each practice", len(sent))
		}
		var mine graphtest.Message
		for _, m := range sent {
			if m.PhoneNumberID == w.biz.PhoneNumberID {
				mine = m
			}
		}
		tap := w.fake.ButtonReply(w.biz, "wamid.IN-1", mine.To, mine.ID, mine.Payloads[0], "Confirmar", w.e.Clock.Now())
		if code, err := graphtest.Post(st.WebhookURL, w.biz.AppSecret, tap); err != nil || code != 200 {
			t.Fatalf("tap: %d %v", code, err)
		}
		w.e.RunJobs()

		phone, _ := booking.NormalizePhone("(11) 98765-4321")
		key := booking.ClientKey(phone, "bruno@example.com")
		export := func(c *servertest.Client) clientData {
			t.Helper()
			var d clientData
			r := c.Do("GET", "/api/clients/data?key="+key, nil)
			if r.StatusCode != 200 {
				t.Fatalf("export: %d %s", r.StatusCode, r.Body)
			}
			r.JSON(t, &d)
			return d
		}
		d := export(w.owner)
		if len(d.Appointments) != 1 || d.Appointments[0].Answer != "confirmed" || d.Appointments[0].AnswerChannel != "whatsapp" {
			t.Fatalf("appointments: %+v", d.Appointments)
		}
		if len(d.Waitlist) != 1 {
			t.Fatalf("waitlist: %+v", d.Waitlist)
		}
		if len(d.WhatsappMessages) != 1 || d.WhatsappMessages[0].Kind != "reminder" || d.WhatsappMessages[0].State != "sent" ||
			d.WhatsappMessages[0].SentAt == nil || d.WhatsappMessages[0].AppointmentTime != "14:00" {
			t.Fatalf("WhatsApp messages: %+v", d.WhatsappMessages)
		}
		actions := map[string]bool{}
		for _, l := range d.AnswerLinks {
			if l.Channel != "whatsapp" || l.AppointmentDate != "2026-11-26" {
				t.Fatalf("answer link: %+v", l)
			}
			actions[l.Action] = true
		}
		if len(actions) != 3 {
			t.Fatalf("answer links: %+v", d.AnswerLinks)
		}
		csv := string(w.owner.Do("GET", "/api/clients/data?key="+key+"&format=csv", nil).Body)
		if !strings.Contains(csv, "Resposta do cliente") || !strings.Contains(csv, "confirmado pelo cliente") || !strings.Contains(csv, "WhatsApp") {
			t.Fatalf("csv: %s", csv)
		}
		before := export(other)

		if r := w.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": key, "confirm": true}); r.StatusCode != 200 {
			t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
		}
		count := func(q string, args ...any) int {
			t.Helper()
			var n int
			if err := w.e.DB.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, table := range []string{"whatsapp_messages", "answer_tokens", "waitlist_entries"} {
			if n := count(`SELECT COUNT(*) FROM `+table+` WHERE user_id = ?`, w.ownerID); n != 0 {
				t.Fatalf("%d rows of %s left for the erased client", n, table)
			}
		}
		if r := w.owner.Do("GET", "/api/clients/data?key="+key, nil); r.StatusCode != 404 {
			t.Fatalf("export after erase: %d", r.StatusCode)
		}
		// The other practice's copy of the same person is as it was.
		after := export(other)
		if len(after.Appointments) != 1 || len(after.Waitlist) != 1 || after.Waitlist[0].Phone != before.Waitlist[0].Phone ||
			len(after.WhatsappMessages) != 1 || len(after.AnswerLinks) != 3 || len(after.AnswerLinks) != len(before.AnswerLinks) ||
			after.WhatsappMessages[0].State != before.WhatsappMessages[0].State {
			t.Fatalf("the other practice's client changed:\nbefore %+v\nafter  %+v", before, after)
		}
		var appts struct {
			Appointments []struct{ ClientName, ClientEmail, ClientPhone string }
		}
		other.Do("GET", "/api/appointments?from=2026-11-01&to=2026-11-30", nil).JSON(t, &appts)
		if len(appts.Appointments) != 1 || appts.Appointments[0].ClientName != "Bruno" || appts.Appointments[0].ClientEmail != "bruno@example.com" {
			t.Fatalf("the other practice's appointment: %+v", appts.Appointments)
		}
	})
}
