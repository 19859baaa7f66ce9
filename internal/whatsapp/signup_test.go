package whatsapp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

// Meta's Embedded Signup (issue 41 §2): the operator's Meta app with its
// sign-up configuration, the owner's number a business the sign-up shares
// with that app, all on the fake.

const signupAppID = "4455667788"

// eachSignup is each with the operator's number and Embedded Signup
// configured; w.biz is the owner's business as the sign-up window leaves
// it (a number just added, not registered yet).
func eachSignup(t *testing.T, fn func(t *testing.T, w *world, op graphtest.Account)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			fake := graphtest.New()
			t.Cleanup(fake.Close)
			op := fake.AddAccount(graphtest.Account{VerifiedName: "Agendei", DisplayPhoneNumber: "+55 11 4000-1234"})
			fake.SetApp(graphtest.App{ID: signupAppID, Secret: op.AppSecret})
			e := servertest.StartWith(t, dialect, func(c *config.Config) {
				c.WhatsAppGraphURL = fake.URL()
				c.WhatsAppOperator = config.WhatsAppOperator{WABAID: op.WABAID, PhoneNumberID: op.PhoneNumberID, Token: op.Token,
					AppSecret: op.AppSecret, VerifyToken: operatorVerify, Allowance: 200, AppID: signupAppID, SignupConfigID: "9988776655"}
			})
			w := setup(t, e, fake)
			w.biz = fake.AddAccount(graphtest.Account{VerifiedName: "Clínica Sorriso", DisplayPhoneNumber: "+55 11 3222-1000", Unregistered: true})
			fn(t, w, op)
		})
	}
}

func (w *world) signup(t *testing.T, in map[string]string) (int, string, whatsapp.Status) {
	t.Helper()
	r := w.owner.Do("POST", "/api/whatsapp/signup", in)
	var st whatsapp.Status
	if r.StatusCode == 200 {
		r.JSON(t, &st)
	}
	return r.StatusCode, string(r.Body), st
}

// From the button's POST to templates created, no id typed by the owner:
// the code is exchanged once, the shared WABA checked, the number
// registered (a PIN Agendei chose, kept sealed), the app subscribed to the
// WABA's webhooks and the templates created; the business token is sealed
// at rest, and the operator's app secret is not in the database.
func TestSignup_FromTheButtonToTemplatesCreated(t *testing.T) {
	eachSignup(t, func(t *testing.T, w *world, op graphtest.Account) {
		var before whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &before)
		if !before.Signup.Available || before.Signup.AppID != signupAppID || before.Signup.ConfigID != "9988776655" || before.Connected {
			t.Fatalf("card before: %+v", before)
		}
		code := w.fake.SignupCode(w.biz)
		status, body, st := w.signup(t, map[string]string{"code": code, "wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID})
		if status != 200 {
			t.Fatalf("signup: %d %s", status, body)
		}
		if !st.Connected || !st.SignedUp || st.WABAID != w.biz.WABAID || st.DisplayPhoneNumber != "+55 11 3222-1000" || len(st.Templates) != len(whatsapp.Kinds) {
			t.Fatalf("status after signup: %+v", st)
		}
		if got := w.fake.Templates(w.biz.WABAID); len(got) != len(whatsapp.Kinds) {
			t.Fatalf("templates at Meta: %+v", got)
		}
		if !w.fake.Subscribed(w.biz.WABAID) {
			t.Fatal("the app was not subscribed to the WABA's webhooks")
		}
		pin := w.fake.Registered(w.biz.PhoneNumberID)
		if len(pin) != 6 {
			t.Fatalf("number registered with pin %q", pin)
		}
		if strings.Contains(body, pin) || strings.Contains(body, w.biz.Token) || strings.Contains(body, op.AppSecret) {
			t.Fatal("a secret in the answer")
		}
		var tok, sec, pinSealed string
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT access_token_sealed, app_secret_sealed, pin_sealed FROM whatsapp_accounts WHERE user_id = ?`,
			w.ownerID).Scan(&tok, &sec, &pinSealed); err != nil {
			t.Fatal(err)
		}
		for _, v := range []string{tok, sec, pinSealed} {
			if strings.Contains(v, w.biz.Token) || strings.Contains(v, op.AppSecret) || strings.Contains(v, pin) || v == "" {
				t.Fatalf("stored unsealed or empty: %q", v)
			}
		}
		// The same code again: Meta refuses a used code, the owner is told.
		status, body, _ = w.signup(t, map[string]string{"code": code, "wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID})
		if status != 400 || !strings.Contains(body, "whatsapp_signup_code") || !strings.Contains(body, "expirou ou já foi usado") {
			t.Fatalf("reused code: %d %s", status, body)
		}
		if p := w.fake.Problems(); len(p) > 0 {
			t.Fatalf("requests not as Meta documents: %v", p)
		}
	})
}

// The signed-up number's events reach the operator app's webhook and are
// routed by phone_number_id to the owner: its reminder goes from the
// owner's number, the client's tap on Confirmar confirms; the owner's own
// webhook URL takes nothing (no app secret of theirs to check it with).
func TestSignup_EventsOfTheOwnersNumberAreRoutedFromTheOperatorsWebhook(t *testing.T) {
	eachSignup(t, func(t *testing.T, w *world, op graphtest.Account) {
		if status, body, _ := w.signup(t, map[string]string{"code": w.fake.SignupCode(w.biz), "wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID}); status != 200 {
			t.Fatalf("signup: %d %s", status, body)
		}
		w.approve(t)
		w.untilReminder(t)
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 || sent[0].PhoneNumberID != w.biz.PhoneNumberID || sent[0].Template != "agendei_lembrete_v1" {
			t.Fatalf("messages at Meta: %+v", sent)
		}
		tap := w.fake.ButtonReply(w.biz, "wamid.IN-SU", sent[0].To, sent[0].ID, sent[0].Payloads[0], "Confirmar", w.e.Clock.Now())
		var st whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if code, _ := graphtest.Post(st.WebhookURL, "", tap); code == 200 {
			t.Fatal("the signed-up account's own webhook took an event signed with an empty secret")
		}
		if code, _ := graphtest.Post(w.e.HTTP.URL+"/webhooks/whatsapp", w.biz.AppSecret, tap); code != 401 {
			t.Fatalf("operator's webhook, signed with another secret: %d", code)
		}
		if code, err := graphtest.Post(w.e.HTTP.URL+"/webhooks/whatsapp", op.AppSecret, tap); err != nil || code != 200 {
			t.Fatalf("operator's webhook: %d %v", code, err)
		}
		w.e.RunJobs()
		var appt struct{ Answer string }
		w.owner.Do("GET", "/api/appointments/"+w.apptID, nil).JSON(t, &appt)
		if appt.Answer != "confirmed" {
			t.Fatalf("answer after the tap: %q", appt.Answer)
		}
		replies := texts(w.fake)
		if len(replies) != 1 || replies[0].PhoneNumberID != w.biz.PhoneNumberID || !strings.Contains(replies[0].Text, "Presença confirmada") {
			t.Fatalf("replies: %+v", replies)
		}
		// A number nobody signed up with, in the same webhook: nothing.
		other := w.fake.AddAccount(graphtest.Account{})
		stray := w.fake.ButtonReply(other, "wamid.IN-X", sent[0].To, sent[0].ID, sent[0].Payloads[1], "Cancelar", w.e.Clock.Now())
		if code, _ := graphtest.Post(w.e.HTTP.URL+"/webhooks/whatsapp", op.AppSecret, stray); code != 200 {
			t.Fatalf("stray: %d", code)
		}
		w.owner.Do("GET", "/api/appointments/"+w.apptID, nil).JSON(t, &appt)
		if appt.Answer != "confirmed" {
			t.Fatalf("a stray number's tap answered: %q", appt.Answer)
		}
	})
}

// Failures the owner can act on, each in pt-BR and never a 500: the ids
// missing, a WABA the sign-up did not share, a number whose two-step
// verification PIN Meta asks for (the card asks the owner), a wrong PIN,
// and Embedded Signup not configured.
func TestSignup_FailuresAreExplained(t *testing.T) {
	eachSignup(t, func(t *testing.T, w *world, op graphtest.Account) {
		if status, body, _ := w.signup(t, map[string]string{"code": w.fake.SignupCode(w.biz)}); status != 400 || !strings.Contains(body, "Conectar meu WhatsApp") {
			t.Fatalf("no ids: %d %s", status, body)
		}
		// Meta's FINISH_ONLY_WABA: an account and no number. Said plainly, the code not spent.
		code := w.fake.SignupCode(w.biz)
		if status, body, _ := w.signup(t, map[string]string{"code": code, "wabaId": w.biz.WABAID}); status != 400 || !strings.Contains(body, "whatsapp_signup_no_number") || !strings.Contains(body, "sem um número de telefone") {
			t.Fatalf("no number: %d %s", status, body)
		}
		// Another business's WABA typed in: the token has no scope on it.
		stranger := w.fake.AddAccount(graphtest.Account{})
		if status, body, _ := w.signup(t, map[string]string{"code": w.fake.SignupCode(w.biz), "wabaId": stranger.WABAID, "phoneNumberId": w.biz.PhoneNumberID}); status != 400 || !strings.Contains(body, "whatsapp_signup_not_shared") {
			t.Fatalf("WABA not shared: %d %s", status, body)
		}
		if status, body, _ := w.signup(t, map[string]string{"code": "AQinventado", "wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID}); status != 400 || !strings.Contains(body, "whatsapp_signup_code") {
			t.Fatalf("made-up code: %d %s", status, body)
		}
		// A number with two-step verification already: Meta asks for its PIN.
		withPIN := w.fake.AddAccount(graphtest.Account{Unregistered: true, PIN: "246810"})
		in := map[string]string{"code": w.fake.SignupCode(withPIN), "wabaId": withPIN.WABAID, "phoneNumberId": withPIN.PhoneNumberID}
		status, body, _ := w.signup(t, in)
		if status != 409 || !strings.Contains(body, "whatsapp_pin_required") || !strings.Contains(body, "PIN de 6 dígitos") {
			t.Fatalf("PIN needed: %d %s", status, body)
		}
		if w.fake.Subscribed(withPIN.WABAID) {
			t.Fatal("subscribed before the number was registered")
		}
		in["code"], in["pin"] = w.fake.SignupCode(withPIN), "12345"
		if status, body, _ := w.signup(t, in); status != 400 || !strings.Contains(body, "6 dígitos") {
			t.Fatalf("short PIN: %d %s", status, body)
		}
		in["pin"] = "111111"
		if status, body, _ := w.signup(t, in); status != 400 || !strings.Contains(body, "whatsapp_pin_mismatch") {
			t.Fatalf("wrong PIN: %d %s", status, body)
		}
		in["code"], in["pin"] = w.fake.SignupCode(withPIN), "246810"
		status, body, st := w.signup(t, in)
		if status != 200 || !st.SignedUp || st.PhoneNumberID != withPIN.PhoneNumberID || w.fake.Registered(withPIN.PhoneNumberID) != "246810" {
			t.Fatalf("with the owner's PIN: %d %s", status, body)
		}
		var sealed string
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT pin_sealed FROM whatsapp_accounts WHERE user_id = ?`, w.ownerID).Scan(&sealed); err != nil || sealed != "" {
			t.Fatalf("the owner's own PIN kept: %q %v", sealed, err)
		}
	})
}

// Without the operator's Meta app the card offers only the manual form,
// and the endpoint says so.
func TestSignup_NotConfigured(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		r := w.owner.Do("POST", "/api/whatsapp/signup", map[string]string{"code": "x", "wabaId": "1", "phoneNumberId": "2"})
		if r.StatusCode != 404 || !strings.Contains(string(r.Body), "configuração manual") {
			t.Fatalf("not configured: %d %s", r.StatusCode, r.Body)
		}
		var st whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.Signup.Available || st.Signup.AppID != "" {
			t.Fatalf("card offers the button unconfigured: %+v", st.Signup)
		}
	})
}

// A wrong app secret in the configuration is the operator's fault: the
// owner is told Meta is unavailable (not that their code was bad), and
// the code is not spent.
func TestSignup_TheOperatorsWrongAppSecret(t *testing.T) {
	eachSignup(t, func(t *testing.T, w *world, op graphtest.Account) {
		w.fake.SetApp(graphtest.App{ID: signupAppID, Secret: "outro-segredo"})
		in := map[string]string{"code": w.fake.SignupCode(w.biz), "wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID}
		status, body, _ := w.signup(t, in)
		if status != 502 || !strings.Contains(body, "whatsapp_unavailable") || strings.Contains(body, "expirou") || strings.Contains(body, op.AppSecret) {
			t.Fatalf("wrong app secret: %d %s", status, body)
		}
		w.fake.SetApp(graphtest.App{ID: signupAppID, Secret: op.AppSecret}) // the operator fixed it
		if status, body, _ := w.signup(t, in); status != 200 {
			t.Fatalf("the same code once the secret is right: %d %s", status, body)
		}
	})
}

// Disconnecting a number connected by the button unsubscribes the
// operator's app from its WABA's webhooks with the business token, before
// the token is erased: nothing of that business reaches Agendei afterwards.
// A number connected by hand (the owner's own app) is left as it is at Meta.
func TestSignup_DisconnectUnsubscribesTheAppFromTheWABA(t *testing.T) {
	eachSignup(t, func(t *testing.T, w *world, op graphtest.Account) {
		if status, body, _ := w.signup(t, map[string]string{"code": w.fake.SignupCode(w.biz), "wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID}); status != 200 {
			t.Fatalf("signup: %d %s", status, body)
		}
		if !w.fake.Subscribed(w.biz.WABAID) {
			t.Fatal("not subscribed after the signup")
		}
		if r := w.owner.Do("DELETE", "/api/whatsapp", nil); r.StatusCode != 204 {
			t.Fatalf("disconnect: %d %s", r.StatusCode, r.Body)
		}
		if w.fake.Subscribed(w.biz.WABAID) {
			t.Fatal("the app is still subscribed to the WABA's webhooks after the disconnect")
		}
		var n int
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM whatsapp_accounts WHERE user_id = ?`, w.ownerID).Scan(&n); err != nil || n != 0 {
			t.Fatalf("account rows after the disconnect: %d %v", n, err)
		}

		// Connected by hand: the owner's own app's subscription is theirs.
		manual := w.fake.AddAccount(graphtest.Account{})
		if r := w.owner.Do("PUT", "/api/whatsapp", map[string]string{"wabaId": manual.WABAID, "phoneNumberId": manual.PhoneNumberID,
			"accessToken": manual.Token, "appSecret": manual.AppSecret}); r.StatusCode != 200 {
			t.Fatalf("manual connect: %d %s", r.StatusCode, r.Body)
		}
		before := w.fake.Requests()
		if r := w.owner.Do("DELETE", "/api/whatsapp", nil); r.StatusCode != 204 {
			t.Fatalf("manual disconnect: %d %s", r.StatusCode, r.Body)
		}
		if after := w.fake.Requests(); after != before {
			t.Fatalf("a number connected by hand: %d calls to Meta on disconnect", after-before)
		}
		if p := w.fake.Problems(); len(p) > 0 {
			t.Fatalf("requests not as Meta documents: %v", p)
		}
	})
}

// Meta refusing the unsubscribe, or away, does not keep the owner
// connected: the token is erased all the same, and an event of that
// business that still comes to the operator's webhook goes nowhere.
func TestSignup_DisconnectGoesThroughWhenTheUnsubscribeFails(t *testing.T) {
	eachSignup(t, func(t *testing.T, w *world, op graphtest.Account) {
		if status, body, _ := w.signup(t, map[string]string{"code": w.fake.SignupCode(w.biz), "wabaId": w.biz.WABAID, "phoneNumberId": w.biz.PhoneNumberID}); status != 200 {
			t.Fatalf("signup: %d %s", status, body)
		}
		w.approve(t)
		w.untilReminder(t)
		w.e.RunJobs()
		sent := w.fake.Messages()
		if len(sent) != 1 {
			t.Fatalf("messages: %+v", sent)
		}
		w.fake.FailNextUnsubscribe(1, 503, 2, "Service temporarily unavailable")
		if r := w.owner.Do("DELETE", "/api/whatsapp", nil); r.StatusCode != 204 {
			t.Fatalf("disconnect with Meta away: %d %s", r.StatusCode, r.Body)
		}
		var st whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.Connected || st.SignedUp {
			t.Fatalf("still connected: %+v", st)
		}
		if !w.fake.Subscribed(w.biz.WABAID) {
			t.Fatal("the fake did not keep the subscription it refused to end")
		}
		tap := w.fake.ButtonReply(w.biz, "wamid.IN-GONE", sent[0].To, sent[0].ID, sent[0].Payloads[2], "Cancelar", w.e.Clock.Now())
		if code, err := graphtest.Post(w.e.HTTP.URL+"/webhooks/whatsapp", op.AppSecret, tap); err != nil || code != 200 {
			t.Fatalf("a late event: %d %v", code, err)
		}
		w.e.RunJobs()
		var appt struct{ Answer string }
		w.owner.Do("GET", "/api/appointments/"+w.apptID, nil).JSON(t, &appt)
		if appt.Answer != "" {
			t.Fatalf("a tap after the disconnect answered: %q", appt.Answer)
		}
	})
}
