package whatsapp_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

// The operator's number (issue 41 §1): one WhatsApp Business Platform
// number of whoever runs Agendei, on the same fake as the owners' own.

const operatorVerify = "verifica-o-numero-do-agendei"

// eachOperator is each with the operator's number configured (its
// account on the fake, allowance messages a month per owner); the
// setup's owner has not connected their own number.
func eachOperator(t *testing.T, allowance int, fn func(t *testing.T, w *world, op graphtest.Account)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			fake := graphtest.New()
			t.Cleanup(fake.Close)
			op := fake.AddAccount(graphtest.Account{VerifiedName: "Agendei", DisplayPhoneNumber: "+55 11 4000-1234"})
			e := servertest.StartWith(t, dialect, func(c *config.Config) {
				c.WhatsAppGraphURL = fake.URL()
				c.WhatsAppOperator = config.WhatsAppOperator{WABAID: op.WABAID, PhoneNumberID: op.PhoneNumberID, Token: op.Token,
					AppSecret: op.AppSecret, VerifyToken: operatorVerify, Allowance: allowance}
			})
			fn(t, setup(t, e, fake), op)
		})
	}
}

// operatorReady has the operator's templates created in its account (as
// the background refresh does) and approved by Meta.
func (w *world) operatorReady(t *testing.T, op graphtest.Account) {
	t.Helper()
	ctx := context.Background()
	if err := w.e.Server.WhatsApp.RefreshOperatorTemplates(ctx, 0); err != nil {
		t.Fatal(err)
	}
	created := w.fake.Templates(op.WABAID)
	if len(created) != len(whatsapp.Kinds) {
		t.Fatalf("templates in the operator's account: %+v", created)
	}
	for _, k := range whatsapp.Kinds {
		w.fake.SetTemplateStatus(op.WABAID, whatsapp.OperatorTemplateFor(k).Name, "APPROVED")
	}
	if err := w.e.Server.WhatsApp.RefreshOperatorTemplates(ctx, 0); err != nil {
		t.Fatal(err)
	}
}

func switchOperator(t *testing.T, owner *servertest.Client, on bool) whatsapp.Status {
	t.Helper()
	var st whatsapp.Status
	r := owner.Do("PUT", "/api/whatsapp/operator", map[string]bool{"enabled": on})
	if r.StatusCode != 200 {
		t.Fatalf("switch: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &st)
	if st.Operator.Enabled != on {
		t.Fatalf("switch %v: %+v", on, st.Operator)
	}
	return st
}

// practice is a second owner with a public page, a professional and a
// service, like the setup's.
type practice struct {
	owner           *servertest.Client
	id              string
	username        string
	proID, svcID    string
	email, password string
}

func newPractice(t *testing.T, e *servertest.Env, name, email, username string) practice {
	t.Helper()
	p := practice{owner: e.Client().As(t), username: username, email: email, password: "senha-de-" + username + "-1"}
	p.owner.Signup(name, email, p.password, "gato")
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "18:00"})
	}
	if r := p.owner.Do("POST", "/api/onboarding", map[string]any{"name": name, "area": "Saúde", "publicUsername": username,
		"services": []map[string]any{{"name": "Consulta", "duration": 30, "priceCents": 10000}}, "days": days}); r.StatusCode != 200 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	var pro struct{ ID string }
	p.owner.Do("POST", "/api/professionals", map[string]string{"name": name, "specialization": "Geral"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	p.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
	var me struct{ ID string }
	p.owner.Do("GET", "/api/profile", nil).JSON(t, &me)
	p.id, p.proID, p.svcID = me.ID, pro.ID, svcs[0].ID
	return p
}

// setupPractice is the setup's owner as a practice.
func (w *world) practice(t *testing.T) practice {
	t.Helper()
	p := practice{owner: w.owner, id: w.ownerID, username: "sorriso", email: "ana@example.com", password: "senha-da-ana-1"}
	var pros []struct{ ID string }
	w.owner.Do("GET", "/api/professionals", nil).JSON(t, &pros)
	var svcs []struct{ ID string }
	w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
	p.proID, p.svcID = pros[0].ID, svcs[0].ID
	return p
}

// book books a client on the practice's public page on 26/11 at hhmm and
// returns the appointment's id.
func (p practice) book(t *testing.T, e *servertest.Env, hhmm, name, phone, email string) string {
	t.Helper()
	in := map[string]string{"professionalId": p.proID, "serviceId": p.svcID, "date": "2026-11-26", "time": hhmm, "clientName": name, "clientPhone": phone}
	if email != "" {
		in["clientEmail"] = email
	}
	if r := e.Client().Do("POST", "/api/public/profiles/"+p.username+"/bookings", in); r.StatusCode != 201 {
		t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
	}
	var appts struct {
		Appointments []struct{ ID, Time, ClientName string }
	}
	p.owner.Do("GET", "/api/appointments?from=2026-11-26&to=2026-11-26", nil).JSON(t, &appts)
	for _, a := range appts.Appointments {
		if a.Time == hhmm && a.ClientName == name {
			return a.ID
		}
	}
	t.Fatalf("booked %s at %s: not in the agenda %+v", name, hhmm, appts)
	return ""
}

func (p practice) answer(t *testing.T, apptID string) string {
	t.Helper()
	var appt struct{ Answer string }
	p.owner.Do("GET", "/api/appointments/"+apptID, nil).JSON(t, &appt)
	return appt.Answer
}

// operatorSent is what the operator's number sent, templates and texts.
func operatorSent(f *graphtest.Fake, op graphtest.Account, to string) (templates, texts []graphtest.Message) {
	for _, m := range f.Messages() {
		if m.PhoneNumberID != op.PhoneNumberID || (to != "" && m.To != to) {
			continue
		}
		if m.Text != "" {
			texts = append(texts, m)
		} else {
			templates = append(templates, m)
		}
	}
	return templates, texts
}

// The check: a phone-only client of an owner who did nothing but
// flip the switch gets the confirmation and the reminder from the
// operator's number, each naming the practice first; their tap on
// "Confirmar" comes to the operator's webhook, is routed by the message it
// answers, and confirms; the card counts the month's messages.
func TestOperator_PhoneOnlyClientIsRemindedFromTheAgendeiNumberAndATapConfirms(t *testing.T) {
	eachOperator(t, 200, func(t *testing.T, w *world, op graphtest.Account) {
		var st whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.Connected || !st.Operator.Available || st.Operator.Enabled || st.Operator.Allowance != 200 {
			t.Fatalf("before the switch: %+v", st)
		}
		w.operatorReady(t, op)
		switchOperator(t, w.owner, true)
		p := w.practice(t)
		carla := p.book(t, w.e, "15:00", "Carla", "(21) 99888-7766", "")
		w.e.RunJobs()
		to := whatsapp.Recipient("(21) 99888-7766")
		sent, _ := operatorSent(w.fake, op, to)
		if len(sent) != 1 || sent[0].Template != "agendei_operador_confirmacao_v1" || sent[0].Body[0] != "Clínica Sorriso" || sent[0].Body[1] != "Carla" {
			t.Fatalf("the confirmation from the operator's number: %+v", sent)
		}
		// The reminders: Carla's (15:00) and Bruno's (14:00, booked before the switch).
		w.e.Clock.Set(time.Date(2026, 11, 25, 18, 1, 0, 0, time.UTC))
		if r := w.owner.Login("ana@example.com", "senha-da-ana-1"); r.StatusCode != 200 {
			t.Fatalf("login: %d", r.StatusCode)
		}
		w.e.RunJobs()
		sent, _ = operatorSent(w.fake, op, to)
		if len(sent) != 2 {
			t.Fatalf("messages to Carla: %+v", sent)
		}
		rem := sent[1]
		if rem.Template != "agendei_operador_lembrete_v1" || rem.Body[0] != "Clínica Sorriso" || len(rem.Payloads) != 3 {
			t.Fatalf("the reminder: %+v", rem)
		}
		var tpl graphtest.Template
		for _, x := range w.fake.Templates(op.WABAID) {
			if x.Name == rem.Template {
				tpl = x
			}
		}
		if !strings.HasPrefix(tpl.Body, "Mensagem de {{1}}:") || len(tpl.QuickReplies) != 3 {
			t.Fatalf("the reminder's template names the practice first: %+v", tpl)
		}
		hook := w.e.HTTP.URL + "/webhooks/whatsapp"
		tap := w.fake.ButtonReply(op, "wamid.IN-C1", to, rem.ID, rem.Payloads[0], "Confirmar", w.e.Clock.Now())
		// Signed with another secret (the owner's, say): refused, nothing read.
		if code, _ := graphtest.Post(hook, w.biz.AppSecret, tap); code != 401 {
			t.Fatalf("a tap not signed by the operator's app: %d", code)
		}
		// Carla's message with a payload that is not its button's: nothing.
		forged := w.fake.ButtonReply(op, "wamid.IN-C0", to, rem.ID, "c:inventada", "Confirmar", w.e.Clock.Now())
		// A tap answering no known message: nothing.
		stray := w.fake.ButtonReply(op, "wamid.IN-C9", to, "wamid.DESCONHECIDO", rem.Payloads[0], "Confirmar", w.e.Clock.Now())
		for _, b := range [][]byte{forged, stray} {
			if code, _ := graphtest.Post(hook, op.AppSecret, b); code != 200 {
				t.Fatalf("webhook: %d", code)
			}
		}
		w.e.RunJobs()
		if a := p.answer(t, carla); a != "" {
			t.Fatalf("answered by a tap that is not the message's: %q", a)
		}
		for range 2 { // Meta delivers it twice
			if code, err := graphtest.Post(hook, op.AppSecret, tap); err != nil || code != 200 {
				t.Fatalf("tap: %d %v", code, err)
			}
			w.e.RunJobs()
		}
		if a := p.answer(t, carla); a != "confirmed" {
			t.Fatalf("Carla's answer after her tap: %q", a)
		}
		if a := p.answer(t, w.apptID); a != "" {
			t.Fatalf("Bruno's appointment answered by Carla's tap: %q", a)
		}
		_, replies := operatorSent(w.fake, op, to)
		if len(replies) != 1 || !strings.HasPrefix(replies[0].Text, "Mensagem de Clínica Sorriso: Presença confirmada") {
			t.Fatalf("replies from the operator's number: %+v", replies)
		}
		// A status of the operator's message updates its row.
		status := op.Statuses(graphtest.Status{MessageID: rem.ID, Status: "read", RecipientID: to, At: w.e.Clock.Now()})
		if code, _ := graphtest.Post(hook, op.AppSecret, status); code != 200 {
			t.Fatalf("status: %d", code)
		}
		var ds []whatsapp.Delivery
		p.owner.Do("GET", "/api/appointments/"+carla+"/whatsapp", nil).JSON(t, &ds)
		if len(ds) != 2 || ds[1].Kind != "reminder" || ds[1].State != "read" {
			t.Fatalf("Carla's messages: %+v", ds)
		}
		// The card: Carla's confirmation and reminder, Bruno's reminder.
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.Operator.SentThisMonth != 3 || st.Operator.Allowance != 200 || !st.Operator.Ready || st.SentThisMonth != 0 {
			t.Fatalf("the card's count: %+v (own %d)", st.Operator, st.SentThisMonth)
		}
		if pr := w.fake.Problems(); len(pr) > 0 {
			t.Fatalf("requests not as Meta documents: %v", pr)
		}
	})
}

// The operator's webhook is verified with the operator's verify token.
func TestOperator_WebhookVerification(t *testing.T) {
	eachOperator(t, 200, func(t *testing.T, w *world, op graphtest.Account) {
		get := func(token string) (int, string) {
			res, err := http.Get(w.e.HTTP.URL + "/webhooks/whatsapp?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=" + token)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		if code, body := get(operatorVerify); code != 200 || body != "1158201444" {
			t.Fatalf("verify: %d %q", code, body)
		}
		if code, _ := get("outro"); code != 403 {
			t.Fatalf("wrong token: %d", code)
		}
	})
}

// One client books with two practices on the Agendei number: a tap goes to
// the practice whose message it answers, never by the phone alone.
func TestOperator_OneClientOfTwoPracticesTheReplyGoesToTheMessagesPractice(t *testing.T) {
	eachOperator(t, 200, func(t *testing.T, w *world, op graphtest.Account) {
		w.operatorReady(t, op)
		a := w.practice(t)
		b := newPractice(t, w.e, "Clínica Bem Viver", "bia@example.com", "bemviver")
		switchOperator(t, a.owner, true)
		switchOperator(t, b.owner, true)
		phone := "(31) 98888-1111"
		inA := a.book(t, w.e, "15:00", "Duda", phone, "")
		inB := b.book(t, w.e, "15:00", "Duda", phone, "")
		w.e.Clock.Set(time.Date(2026, 11, 25, 18, 1, 0, 0, time.UTC))
		for _, p := range []practice{a, b} {
			if r := p.owner.Login(p.email, p.password); r.StatusCode != 200 {
				t.Fatalf("login: %d", r.StatusCode)
			}
		}
		w.e.RunJobs()
		to := whatsapp.Recipient(phone)
		sent, _ := operatorSent(w.fake, op, to)
		var fromB *graphtest.Message
		for i, m := range sent {
			if m.Template == "agendei_operador_lembrete_v1" && m.Body[0] == "Clínica Bem Viver" {
				fromB = &sent[i]
			}
		}
		if len(sent) != 4 || fromB == nil {
			t.Fatalf("Duda's messages (two confirmations, two reminders): %+v", sent)
		}
		tap := w.fake.ButtonReply(op, "wamid.IN-D1", to, fromB.ID, fromB.Payloads[0], "Confirmar", w.e.Clock.Now())
		if code, _ := graphtest.Post(w.e.HTTP.URL+"/webhooks/whatsapp", op.AppSecret, tap); code != 200 {
			t.Fatalf("tap: %d", code)
		}
		w.e.RunJobs()
		if got := b.answer(t, inB); got != "confirmed" {
			t.Fatalf("Bem Viver's appointment after Duda's tap on its message: %q", got)
		}
		if got := a.answer(t, inA); got != "" {
			t.Fatalf("Sorriso's appointment answered by a tap on Bem Viver's message: %q", got)
		}
	})
}

func bellNotices(t *testing.T, owner *servertest.Client, title string) int {
	t.Helper()
	var notes struct {
		Notifications []struct{ Title, Description string }
	}
	owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
	n := 0
	for _, x := range notes.Notifications {
		if x.Title == title {
			n++
		}
	}
	return n
}

// Past the allowance the next reminders go by e-mail (a client with no
// e-mail waits for the owner's one-tap WhatsApp), the owner is told once,
// and the card shows the month's count.
func TestOperator_PastTheAllowanceRemindersGoByEmailAndTheOwnerIsToldOnce(t *testing.T) {
	eachOperator(t, 2, func(t *testing.T, w *world, op graphtest.Account) {
		w.operatorReady(t, op)
		switchOperator(t, w.owner, true)
		routeOnCard := func() string {
			t.Helper()
			var r booking.Reach
			w.owner.Do("GET", "/api/reminders/reach", nil).JSON(t, &r)
			return r.WhatsAppRoute
		}
		if via := routeOnCard(); via != "agendei" {
			t.Fatalf("the reminders card's number: %q, want agendei", via)
		}
		p := w.practice(t)
		p.book(t, w.e, "15:00", "Carla", "(21) 99888-7766", "")                // confirmation: 1
		p.book(t, w.e, "16:00", "Dani", "(21) 97777-5555", "dani@example.com") // confirmation: 2
		w.e.RunJobs()
		// All three reminders due (Bruno 14:00, Carla 15:00, Dani 16:00).
		w.e.Clock.Set(time.Date(2026, 11, 25, 19, 1, 0, 0, time.UTC))
		if r := w.owner.Login("ana@example.com", "senha-da-ana-1"); r.StatusCode != 200 {
			t.Fatalf("login: %d", r.StatusCode)
		}
		w.e.RunJobs()
		sent, _ := operatorSent(w.fake, op, "")
		if len(sent) != 2 {
			t.Fatalf("messages from the operator's number: %d (%+v); want the allowance's 2", len(sent), sent)
		}
		mails := map[string]int{}
		for _, m := range w.e.Mails() {
			for _, who := range []string{"bruno@example.com", "dani@example.com"} {
				if strings.Contains(m.Raw, "Lembrete") && strings.Contains(m.Raw, who) {
					mails[who]++
				}
			}
		}
		if mails["bruno@example.com"] != 1 || mails["dani@example.com"] != 1 {
			t.Fatalf("reminder e-mails past the allowance: %v", mails)
		}
		if n := bellNotices(t, w.owner, "Mensagens de WhatsApp do mês esgotadas"); n != 1 {
			t.Fatalf("the owner was told %d times", n)
		}
		if via := routeOnCard(); via != "" {
			t.Fatalf("the reminders card's number with the allowance used up: %q, want none", via)
		}
		var st whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.Operator.SentThisMonth != 2 || st.Operator.Allowance != 2 {
			t.Fatalf("the card: %+v", st.Operator)
		}
		// In December the count starts again.
		w.e.Clock.Set(time.Date(2026, 12, 1, 3, 30, 0, 0, time.UTC)) // 00:30 in São Paulo
		if r := w.owner.Login("ana@example.com", "senha-da-ana-1"); r.StatusCode != 200 {
			t.Fatalf("login: %d", r.StatusCode)
		}
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.Operator.SentThisMonth != 0 {
			t.Fatalf("December's count: %+v", st.Operator)
		}
	})
}

// The allowance's last messages, taken by many transactions at once:
// exactly the allowance is queued, on both engines (on PostgreSQL the
// owner's lock orders them).
func TestOperator_AllowanceRaceQueuesExactlyTheAllowance(t *testing.T) {
	const allowance, tries = 3, 8
	eachOperator(t, allowance, func(t *testing.T, w *world, op graphtest.Account) {
		w.operatorReady(t, op)
		switchOperator(t, w.owner, true)
		ctx := context.Background()
		svc := w.e.Server.WhatsApp
		var wg sync.WaitGroup
		start := make(chan struct{})
		queued := make([]bool, tries)
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				err := w.e.DB.InTx(ctx, func(tx *db.Tx) error {
					ok, err := svc.Queue(ctx, tx, whatsapp.Message{OwnerID: w.ownerID, AppointmentID: w.apptID, ClientPhone: "(11) 98765-4321",
						Kind: whatsapp.KindReminder, N: i + 1, For: w.at})
					queued[i] = ok
					return err
				})
				if err != nil {
					t.Error(err)
				}
			}()
		}
		close(start)
		wg.Wait()
		n := 0
		for _, ok := range queued {
			if ok {
				n++
			}
		}
		var rows int
		if err := w.e.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM whatsapp_messages WHERE user_id = ? AND via = 'operator'`, w.ownerID).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if n != allowance || rows != allowance {
			t.Fatalf("%d queued, %d outbox rows; want the allowance, %d", n, rows, allowance)
		}
		if n := bellNotices(t, w.owner, "Mensagens de WhatsApp do mês esgotadas"); n != 1 {
			t.Fatalf("the owner was told %d times", n)
		}
		w.e.RunJobs()
		if sent, _ := operatorSent(w.fake, op, ""); len(sent) != allowance {
			t.Fatalf("%d messages sent", len(sent))
		}
	})
}

// The switch: off where the installation has no operator's number; inert
// (refused to turn on) for an owner with their own number, whose messages
// go from theirs.
func TestOperator_TheSwitchIsOffWithoutTheOperatorsNumber(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		var st whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.Operator.Available {
			t.Fatalf("no operator's number configured: %+v", st.Operator)
		}
		r := w.owner.Do("PUT", "/api/whatsapp/operator", map[string]bool{"enabled": true})
		if e := r.Err(t); r.StatusCode != 404 || e.Error.Code != "whatsapp_operator_unavailable" {
			t.Fatalf("switch without the operator's number: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestOperator_TheSwitchIsInertForAnOwnerWithTheirOwnNumber(t *testing.T) {
	eachOperator(t, 200, func(t *testing.T, w *world, op graphtest.Account) {
		r := w.owner.Do("PUT", "/api/whatsapp/operator", map[string]any{})
		if e := r.Err(t); r.StatusCode != 400 || !strings.Contains(e.Error.Message, "enabled") {
			t.Fatalf("no enabled: %d %s", r.StatusCode, r.Body)
		}
		switchOperator(t, w.owner, true)
		switchOperator(t, w.owner, false)
		w.connect(t)
		w.approve(t)
		w.operatorReady(t, op)
		r = w.owner.Do("PUT", "/api/whatsapp/operator", map[string]bool{"enabled": true})
		if e := r.Err(t); r.StatusCode != 409 || e.Error.Code != "whatsapp_own_number" {
			t.Fatalf("switch with the owner's own number: %d %s", r.StatusCode, r.Body)
		}
		// Their own number carries the reminder.
		if ok, err := w.e.Server.WhatsApp.Queue(context.Background(), w.e.DB, w.reminder(1)); !ok || err != nil {
			t.Fatalf("queue: %v %v", ok, err)
		}
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 || sent[0].PhoneNumberID != w.biz.PhoneNumberID || sent[0].Template != "agendei_lembrete_v1" {
			t.Fatalf("the reminder of an owner with their own number: %+v", sent)
		}
	})
}

// A text a client writes in reply to one of the operator's messages
// reaches the owner's bell (they cannot read the operator's number), once,
// by the message it answers; a text answering no known message, or none,
// reaches nobody.
func TestOperator_ATextReplyReachesTheOwnersBellOnce(t *testing.T) {
	eachOperator(t, 200, func(t *testing.T, w *world, op graphtest.Account) {
		w.operatorReady(t, op)
		switchOperator(t, w.owner, true)
		p := w.practice(t)
		p.book(t, w.e, "15:00", "Carla", "(21) 99888-7766", "")
		w.e.RunJobs()
		to := whatsapp.Recipient("(21) 99888-7766")
		sent, _ := operatorSent(w.fake, op, to)
		if len(sent) != 1 {
			t.Fatalf("Carla's confirmation: %+v", sent)
		}
		hook := w.e.HTTP.URL + "/webhooks/whatsapp"
		reply := w.fake.TextReply(op, "wamid.IN-T1", to, sent[0].ID, "Vou me atrasar 10 minutos", w.e.Clock.Now())
		for _, b := range [][]byte{
			reply, reply, // Meta delivers it twice
			w.fake.TextReply(op, "wamid.IN-T2", to, "wamid.DESCONHECIDO", "Oi?", w.e.Clock.Now()),
			w.fake.TextReply(op, "wamid.IN-T3", to, "", "Bom dia", w.e.Clock.Now()),
		} {
			if code, _ := graphtest.Post(hook, op.AppSecret, b); code != 200 {
				t.Fatalf("webhook: %d", code)
			}
		}
		var notes struct {
			Notifications []struct{ Title, Description string }
		}
		w.owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		var got []string
		for _, n := range notes.Notifications {
			if n.Title == "Resposta do cliente no WhatsApp do Agendei" {
				got = append(got, n.Description)
			}
		}
		if len(got) != 1 || !strings.Contains(got[0], "“Vou me atrasar 10 minutos”") {
			t.Fatalf("the owner's bell: %q", got)
		}
	})
}
