package whatsapp_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

// world is a server whose Graph API is the fake, an owner with a booked
// client who has a phone, and the owner's business on the fake.
type world struct {
	e       *servertest.Env
	fake    *graphtest.Fake
	biz     graphtest.Account
	owner   *servertest.Client
	ownerID string
	apptID  string
	at      string // the appointment's local "YYYY-MM-DD HH:MM"
}

func each(t *testing.T, fn func(t *testing.T, w *world)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			fake := graphtest.New()
			t.Cleanup(fake.Close)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.WhatsAppGraphURL = fake.URL() })
			fn(t, setup(t, e, fake))
		})
	}
}

func setup(t *testing.T, e *servertest.Env, fake *graphtest.Fake) *world {
	t.Helper()
	w := &world{e: e, fake: fake, biz: fake.AddAccount(graphtest.Account{VerifiedName: "Clínica Sorriso", DisplayPhoneNumber: "+55 11 3333-4444"})}
	w.owner = e.Client().As(t)
	w.owner.Signup("Dra. Ana", "ana@example.com", "senha-da-ana-1", "gato")
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "18:00"})
	}
	if r := w.owner.Do("POST", "/api/onboarding", map[string]any{"name": "Clínica Sorriso", "area": "Odontologia", "publicUsername": "sorriso",
		"services": []map[string]any{{"name": "Limpeza", "duration": 30, "priceCents": 15000}}, "days": days}); r.StatusCode != 200 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	var pro struct{ ID string }
	w.owner.Do("POST", "/api/professionals", map[string]string{"name": "Dra. Ana", "specialization": "Dentista"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
	if r := e.Client().Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{
		"professionalId": pro.ID, "serviceId": svcs[0].ID, "date": "2026-11-26", "time": "14:00",
		"clientName": "Bruno", "clientPhone": "(11) 98765-4321", "clientEmail": "bruno@example.com"}); r.StatusCode != 201 {
		t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
	}
	var appts struct {
		Appointments []struct{ ID, UserID string }
	}
	w.owner.Do("GET", "/api/appointments?from=2026-11-01&to=2026-12-31", nil).JSON(t, &appts)
	var me struct{ ID string }
	w.owner.Do("GET", "/api/profile", nil).JSON(t, &me)
	w.apptID, w.ownerID, w.at = appts.Appointments[0].ID, me.ID, "2026-11-26 14:00"
	e.RunJobs() // the booking's e-mails, out of the way
	return w
}

func (w *world) connect(t *testing.T) whatsapp.Status {
	t.Helper()
	var st whatsapp.Status
	r := w.owner.Do("PUT", "/api/whatsapp", map[string]string{"wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID,
		"accessToken": w.biz.Token, "appSecret": w.biz.AppSecret})
	if r.StatusCode != 200 {
		t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &st)
	return st
}

func (w *world) approve(t *testing.T) {
	t.Helper()
	for _, k := range whatsapp.Kinds {
		w.fake.SetTemplateStatus(w.biz.WABAID, whatsapp.TemplateFor(k).Name, "APPROVED")
	}
	w.e.Clock.Advance(time.Minute)
	var st whatsapp.Status
	w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
	for _, tp := range st.Templates {
		if tp.Status != "APPROVED" {
			t.Fatalf("template %s not approved after Meta approved it: %+v", tp.Name, st.Templates)
		}
	}
}

func (w *world) reminder(n int) whatsapp.Message {
	return whatsapp.Message{OwnerID: w.ownerID, AppointmentID: w.apptID, ClientPhone: "(11) 98765-4321", Kind: whatsapp.KindReminder, N: n, For: w.at}
}

func (w *world) deliveries(t *testing.T) []whatsapp.Delivery {
	t.Helper()
	var ds []whatsapp.Delivery
	w.owner.Do("GET", "/api/appointments/"+w.apptID+"/whatsapp", nil).JSON(t, &ds)
	return ds
}

func TestConnect_VerifiesWithMetaExplainsRefusalsAndSealsTheSecrets(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		cases := []struct {
			name, code, says string
			in               map[string]string
		}{
			{"missing token", "validation_failed", "token de acesso permanente", map[string]string{"wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID, "appSecret": "x"}},
			{"ids with letters", "validation_failed", "só dígitos", map[string]string{"wabaId": "abc", "phoneNumberId": w.biz.PhoneNumberID, "accessToken": "t", "appSecret": "x"}},
			{"wrong token", "whatsapp_token_refused", "O Meta recusou o token de acesso", map[string]string{"wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID, "accessToken": "EAAGerrado", "appSecret": "x"}},
			{"wrong phone number id", "whatsapp_phone_not_found", "ID do número de telefone", map[string]string{"wabaId": w.biz.WABAID, "phoneNumberId": "123456", "accessToken": w.biz.Token, "appSecret": "x"}},
			{"wrong account id", "whatsapp_account_not_found", "conta do WhatsApp Business", map[string]string{"wabaId": "999999", "phoneNumberId": w.biz.PhoneNumberID, "accessToken": w.biz.Token, "appSecret": "x"}},
		}
		for _, c := range cases {
			r := w.owner.Do("PUT", "/api/whatsapp", c.in)
			if e := r.Err(t); r.StatusCode != 400 || e.Error.Code != c.code || !strings.Contains(e.Error.Message, c.says) {
				t.Errorf("%s: %d %s", c.name, r.StatusCode, r.Body)
			}
		}
		st := w.connect(t)
		if !st.Connected || st.VerifiedName != "Clínica Sorriso" || st.DisplayPhoneNumber != "+55 11 3333-4444" || len(st.Templates) != len(whatsapp.Kinds) {
			t.Fatalf("connected: %+v", st)
		}
		if !strings.HasPrefix(st.WebhookURL, w.e.HTTP.URL+"/webhooks/whatsapp/") || strings.Contains(st.WebhookURL, w.ownerID) || len(st.VerifyToken) < 20 {
			t.Fatalf("webhook URL %q / verify token %q", st.WebhookURL, st.VerifyToken)
		}
		created := w.fake.Templates(w.biz.WABAID)
		if len(created) != len(whatsapp.Kinds) || created[0].Status != "PENDING" {
			t.Fatalf("templates in the owner's account: %+v", created)
		}
		var reminder graphtest.Template
		for _, tp := range created {
			if tp.Name == whatsapp.ReminderTemplate().Name {
				reminder = tp
			}
		}
		if reminder.Category != "UTILITY" || reminder.Language != "pt_BR" || strings.Join(reminder.QuickReplies, ",") != "Confirmar,Remarcar,Cancelar" {
			t.Fatalf("reminder template: %+v", reminder)
		}
		// Never returned, and only sealed at rest.
		body := string(w.owner.Do("GET", "/api/whatsapp", nil).Body)
		if strings.Contains(body, w.biz.Token) || strings.Contains(body, w.biz.AppSecret) {
			t.Fatal("the API returned a secret")
		}
		var tok, sec string
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT access_token_sealed, app_secret_sealed FROM whatsapp_accounts WHERE user_id = ?`, w.ownerID).Scan(&tok, &sec); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(tok, w.biz.Token) || strings.Contains(sec, w.biz.AppSecret) || !strings.HasPrefix(tok, "v1.") {
			t.Fatalf("secrets stored in the clear: %q %q", tok, sec)
		}
		// Replacing keeps the stored secrets when left empty; the webhook address stays.
		var again whatsapp.Status
		w.owner.Do("PUT", "/api/whatsapp", map[string]string{"wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID}).JSON(t, &again)
		if !again.Connected || again.WebhookURL != st.WebhookURL || again.VerifyToken != st.VerifyToken {
			t.Fatalf("replace: %+v", again)
		}
		if len(w.fake.Templates(w.biz.WABAID)) != len(whatsapp.Kinds) {
			t.Fatal("connecting again created the templates twice")
		}
		// Someone else cannot see or remove it.
		other := w.e.Client().As(t)
		other.Signup("Outra", "outra@example.com", "senha-da-outra-1", "cao")
		var theirs whatsapp.Status
		other.Do("GET", "/api/whatsapp", nil).JSON(t, &theirs)
		if theirs.Connected {
			t.Fatal("another owner sees the connection")
		}
		if r := other.Do("DELETE", "/api/whatsapp", nil); r.StatusCode != 404 {
			t.Fatalf("another owner's delete: %d", r.StatusCode)
		}
		if r := w.owner.Do("DELETE", "/api/whatsapp", nil); r.StatusCode != 204 {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}
		var gone whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &gone)
		if gone.Connected {
			t.Fatal("still connected after removal")
		}
		if p := w.fake.Problems(); len(p) > 0 {
			t.Fatalf("requests not as Meta documents: %v", p)
		}
	})
}

// Until Meta approves the reminder template, the reminder is not WhatsApp's
// to send (the e-mail goes); once approved, viewing the profile shows it and
// the reminder is queued.
func TestTemplates_ApprovalIsTrackedAndGatesSending(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		ctx := context.Background()
		if ok, err := w.e.Server.WhatsApp.Queue(ctx, w.e.DB, w.reminder(1)); ok || err != nil {
			t.Fatalf("queued with a pending template: %v %v", ok, err)
		}
		w.approve(t)
		if ok, err := w.e.Server.WhatsApp.Queue(ctx, w.e.DB, w.reminder(1)); !ok || err != nil {
			t.Fatalf("not queued with the template approved: %v %v", ok, err)
		}
		noPhone := w.reminder(1)
		noPhone.ClientPhone = ""
		if ok, _ := w.e.Server.WhatsApp.Queue(ctx, w.e.DB, noPhone); ok {
			t.Fatal("queued for a client without a phone")
		}
	})
}

// Two instances on one database both queue the same reminder (as two
// reminder jobs might), their runners race, and Meta fails the first call:
// the client gets exactly one message, after a retry.
func TestReminder_SentOnceAcrossTwoInstancesAndRetried(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		peer := w.e.Peer()
		peer.Server.WhatsApp.Graph = whatsapp.NewGraph(w.fake.URL())
		ctx := context.Background()
		for _, inst := range []*servertest.Env{w.e, peer} {
			if ok, err := inst.Server.WhatsApp.Queue(ctx, inst.DB, w.reminder(1)); !ok || err != nil {
				t.Fatalf("queue: %v %v", ok, err)
			}
		}
		w.fake.FailNextSends(1, 503, 131000, "Something went wrong")
		runBoth := func() {
			var wg sync.WaitGroup
			for _, inst := range []*servertest.Env{w.e, peer} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						found, err := inst.Server.Queue.RunOnce(ctx)
						if err != nil {
							t.Error(err)
						}
						if !found || err != nil {
							return
						}
					}
				}()
			}
			wg.Wait()
		}
		runBoth()
		// The second job may have taken the retry at once; either way at
		// most one message, and one row.
		if n := len(w.fake.Messages()); n > 1 {
			t.Fatalf("%d messages", n)
		}
		if ds := w.deliveries(t); len(ds) != 1 {
			t.Fatalf("after the failure: %+v", ds)
		}
		w.e.Clock.Advance(5 * time.Minute) // past the back-off
		runBoth()
		runBoth()
		if n := w.fake.Sends(); n != 2 {
			t.Fatalf("Meta was called %d times; want the failure and one retry", n)
		}
		sent := w.fake.Messages()
		if len(sent) != 1 || sent[0].To != "5511987654321" || sent[0].Template != "agendei_lembrete_v1" || sent[0].Body[0] != "Bruno" || len(sent[0].Payloads) != 3 {
			t.Fatalf("messages at Meta: %+v", sent)
		}
		for i, p := range sent[0].Payloads {
			if strings.Contains(p, w.apptID) {
				t.Fatalf("button %d carries the appointment id: %q", i, p)
			}
		}
		if ds := w.deliveries(t); len(ds) != 1 || ds[0].State != "sent" || ds[0].SentAt == nil {
			t.Fatalf("after the retry: %+v", ds)
		}
		var st whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.SentThisMonth != 1 {
			t.Fatalf("sent this month = %d", st.SentThisMonth)
		}
		// The second reminder is its own message.
		if ok, _ := w.e.Server.WhatsApp.Queue(ctx, w.e.DB, w.reminder(2)); !ok {
			t.Fatal("second reminder not queued")
		}
		runBoth()
		if n := len(w.fake.Messages()); n != 2 {
			t.Fatalf("%d messages after the second reminder", n)
		}
	})
}

func TestReminder_UndeliverableNumberFailsForGood(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		w.fake.FailNextSends(1, 400, 131026, "Message undeliverable")
		if ok, _ := w.e.Server.WhatsApp.Queue(context.Background(), w.e.DB, w.reminder(1)); !ok {
			t.Fatal("not queued")
		}
		w.e.RunJobs()
		if ds := w.deliveries(t); len(ds) != 1 || ds[0].State != "failed" || !strings.Contains(ds[0].Error, "131026") {
			t.Fatalf("deliveries: %+v", ds)
		}
		if n := len(w.fake.Messages()); n != 0 {
			t.Fatalf("%d messages", n)
		}
	})
}

// An attempt that claimed the message and died before recording Meta's
// answer (the crash window) leaves a "sending" row; once its lease ends the
// retry cannot know whether Meta sent it, so it never calls Meta again: the
// message is "unknown" and the client is not messaged twice.
func TestReminder_AnAttemptThatDiedMidSendIsNeverSentAgain(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		w.approve(t)
		ctx := context.Background()
		if ok, err := w.e.Server.WhatsApp.Queue(ctx, w.e.DB, w.reminder(1)); !ok || err != nil {
			t.Fatalf("queue: %v %v", ok, err)
		}
		// The dead attempt's claim, as deliver writes it, its lease still running.
		now := w.e.Clock.Now().UTC()
		if _, err := w.e.DB.ExecContext(ctx, `INSERT INTO whatsapp_messages (id, idem_key, user_id, appointment_id, kind, state, ref_hash, attempts, locked_until, created_at)
			VALUES ('dead', ?, ?, ?, 'reminder', 'sending', 'x', 1, ?, ?)`, w.apptID+"|reminder|1|"+w.at, w.ownerID, w.apptID, now.Add(time.Minute), now); err != nil {
			t.Fatal(err)
		}
		w.e.RunJobs() // while the lease runs, the other attempt owns it
		if ds := w.deliveries(t); len(ds) != 1 || ds[0].State != "sending" {
			t.Fatalf("during the lease: %+v", ds)
		}
		// The job is not done: it comes back after its back-off (a job that
		// ended here would leave the message "sending" for good).
		var pending int
		if err := w.e.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = 'whatsapp.send' AND done_at IS NULL`).Scan(&pending); err != nil || pending != 1 {
			t.Fatalf("pending send jobs: %d %v", pending, err)
		}
		w.e.Clock.Advance(2 * time.Minute)
		w.e.RunJobs()
		if n := w.fake.Sends(); n != 0 {
			t.Fatalf("Meta was called %d times for a message that may have gone", n)
		}
		if ds := w.deliveries(t); len(ds) != 1 || ds[0].State != "unknown" {
			t.Fatalf("after the lease: %+v", ds)
		}
		// Its status webhook may still name it (it carried its key): the
		// e-mail waits, and goes once when none came.
		if n := w.reminderMails(t); n != 0 {
			t.Fatalf("reminder e-mails before the wait ended: %d", n)
		}
		w.later(t, 11*time.Minute)
		if n, mails := w.fake.Sends(), w.reminderMails(t); n != 0 || mails != 1 {
			t.Fatalf("Meta called %d times, %d reminder e-mails; want 0 and 1", n, mails)
		}
	})
}
