package mercadopago_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/mercadopago"
	"github.com/agendei/agendei/internal/mercadopago/mptest"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// world is a server whose Mercado Pago API is the fake, an owner with a
// booked client, and the owner's seller account on the fake.
type world struct {
	e       *servertest.Env
	fake    *mptest.Fake
	seller  mptest.Account
	owner   *servertest.Client
	ownerID string
	apptID  string
	proID   string
	svcID   string
}

func each(t *testing.T, fn func(t *testing.T, w *world)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			fake := mptest.New()
			t.Cleanup(fake.Close)
			e := servertest.StartWith(t, dialect, func(c *config.Config) { c.MercadoPagoAPIURL = fake.URL() })
			fake.Now = e.Clock.Now // the webhook's ts and the Pix expiry follow the server's clock
			fn(t, setup(t, e, fake))
		})
	}
}

func setup(t *testing.T, e *servertest.Env, fake *mptest.Fake) *world {
	t.Helper()
	w := &world{e: e, fake: fake, seller: fake.AddAccount(mptest.Account{Nickname: "CLINICASORRISO"})}
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
		Appointments []struct{ ID string }
	}
	w.owner.Do("GET", "/api/appointments?from=2026-11-01&to=2026-12-31", nil).JSON(t, &appts)
	var me struct{ ID string }
	w.owner.Do("GET", "/api/profile", nil).JSON(t, &me)
	w.apptID, w.ownerID, w.proID, w.svcID = appts.Appointments[0].ID, me.ID, pro.ID, svcs[0].ID
	return w
}

func (w *world) connect(t *testing.T) mercadopago.Status {
	t.Helper()
	var st mercadopago.Status
	r := w.owner.Do("PUT", "/api/mercadopago", map[string]string{"accessToken": w.seller.Token, "webhookSecret": w.seller.WebhookSecret})
	if r.StatusCode != 200 {
		t.Fatalf("connect: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &st)
	return st
}

func (w *world) charge(t *testing.T) *mercadopago.Charge {
	t.Helper()
	c, err := w.e.Server.MercadoPago.Charge(context.Background(), mercadopago.ChargeInput{OwnerID: w.ownerID, AppointmentID: w.apptID,
		Reference: "AGD-" + w.apptID[:8], AmountCents: 3000, Description: "Sinal — Limpeza em 26/11 14:00", PayerEmail: "bruno@example.com",
		ExpiresAt: w.e.Clock.Now().Add(time.Hour)})
	if err != nil {
		t.Fatalf("charge: %v", err)
	}
	return c
}

func (w *world) noProblems(t *testing.T) {
	t.Helper()
	if pr := w.fake.Problems(); len(pr) > 0 {
		t.Fatalf("requests not as Mercado Pago documents them: %v", pr)
	}
}

func TestConnect_VerifiesTheTokenLiveNamesTheWrongFieldAndSealsTheSecrets(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		abroad := w.fake.AddAccount(mptest.Account{SiteID: "MLA"})
		for _, c := range []struct {
			name, code, says string
			in               map[string]string
		}{
			{"nothing", "validation_failed", "Preencha o Access Token de produção e a assinatura secreta", map[string]string{}},
			{"no secret", "validation_failed", "assinatura secreta", map[string]string{"accessToken": w.seller.Token}},
			{"token with spaces", "validation_failed", "Access Token inválido", map[string]string{"accessToken": "APP_USR 123 456 789 000 111", "webhookSecret": w.seller.WebhookSecret}},
			{"public key for a token", "validation_failed", "Isso é a Public Key", map[string]string{"accessToken": "APP_USR-5e6f7a8b-0c1d-4e2f-9a3b-4c5d6e7f8a9b", "webhookSecret": w.seller.WebhookSecret}},
			{"short secret", "validation_failed", "Assinatura secreta inválida", map[string]string{"accessToken": w.seller.Token, "webhookSecret": "short"}},
			{"secret with spaces", "validation_failed", "Assinatura secreta inválida", map[string]string{"accessToken": w.seller.Token, "webhookSecret": "a secret with spaces in it"}},
			{"token refused", "mercadopago_token_refused", "O Mercado Pago recusou o Access Token", map[string]string{"accessToken": "APP_USR-0000000000000000-000000-errado", "webhookSecret": w.seller.WebhookSecret}},
			{"account abroad", "mercadopago_not_brazil", "o Pix só funciona com uma conta brasileira", map[string]string{"accessToken": abroad.Token, "webhookSecret": abroad.WebhookSecret}},
		} {
			r := w.owner.Do("PUT", "/api/mercadopago", c.in)
			if e := r.Err(t); r.StatusCode != 400 || e.Error.Code != c.code || !strings.Contains(e.Error.Message, c.says) {
				t.Errorf("%s: %d %s", c.name, r.StatusCode, r.Body)
			}
		}
		w.fake.FailNext(1, 503)
		if r := w.owner.Do("PUT", "/api/mercadopago", map[string]string{"accessToken": w.seller.Token, "webhookSecret": w.seller.WebhookSecret}); r.StatusCode != 502 ||
			!strings.Contains(r.Err(t).Error.Message, "Não foi possível falar com o Mercado Pago") {
			t.Fatalf("Mercado Pago away: %d %s", r.StatusCode, r.Body)
		}
		var st mercadopago.Status
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if st.Connected {
			t.Fatalf("connected after refusals: %+v", st)
		}

		st = w.connect(t)
		if !st.Connected || st.Nickname != "CLINICASORRISO" || st.UserID != strconv.FormatInt(w.seller.UserID, 10) ||
			!strings.HasPrefix(st.WebhookURL, w.e.HTTP.URL+"/webhooks/mercadopago/") || strings.Contains(st.WebhookURL, w.ownerID) {
			t.Fatalf("connected: %+v", st)
		}
		// Write-only: neither secret comes back, and neither is stored in clear.
		r := w.owner.Do("GET", "/api/mercadopago", nil)
		if strings.Contains(string(r.Body), w.seller.Token) || strings.Contains(string(r.Body), w.seller.WebhookSecret) {
			t.Fatalf("a secret came back: %s", r.Body)
		}
		var tok, sec string
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT access_token_sealed, webhook_secret_sealed FROM mercadopago_accounts WHERE user_id = ?`, w.ownerID).Scan(&tok, &sec); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(tok, w.seller.Token) || strings.Contains(sec, w.seller.WebhookSecret) || !strings.HasPrefix(tok, "v1.") {
			t.Fatalf("stored in clear: %q %q", tok, sec)
		}
		// Replacing with the fields blank keeps the stored secrets (checked
		// live again) and the webhook URL.
		if r := w.owner.Do("PUT", "/api/mercadopago", map[string]string{}); r.StatusCode != 200 {
			t.Fatalf("replace keeping the secrets: %d %s", r.StatusCode, r.Body)
		}
		var again mercadopago.Status
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &again)
		if again.WebhookURL != st.WebhookURL {
			t.Fatalf("the webhook URL moved: %q → %q", st.WebhookURL, again.WebhookURL)
		}
		// Another owner sees nothing of it.
		other := w.e.Client().As(t)
		other.Signup("Rui", "rui@example.com", "senha-do-rui-1", "cao")
		var theirs mercadopago.Status
		other.Do("GET", "/api/mercadopago", nil).JSON(t, &theirs)
		if theirs.Connected {
			t.Fatal("another owner sees the connection")
		}
		if r := other.Do("DELETE", "/api/mercadopago", nil); r.StatusCode != 404 {
			t.Fatalf("another owner removes it: %d", r.StatusCode)
		}
		if r := w.owner.Do("DELETE", "/api/mercadopago", nil); r.StatusCode != 204 {
			t.Fatalf("remove: %d %s", r.StatusCode, r.Body)
		}
		if r := w.owner.Do("DELETE", "/api/mercadopago", nil); r.StatusCode != 404 || r.Err(t).Error.Code != "mercadopago_not_connected" {
			t.Fatalf("remove twice: %d %s", r.StatusCode, r.Body)
		}
		if _, err := w.e.Server.MercadoPago.Charge(context.Background(), mercadopago.ChargeInput{OwnerID: w.ownerID, AppointmentID: w.apptID,
			Reference: "r", AmountCents: 3000, PayerEmail: "bruno@example.com", ExpiresAt: w.e.Clock.Now().Add(time.Hour)}); err == nil ||
			!strings.Contains(err.Error(), mercadopago.ErrNotConnected.Error()) {
			t.Fatalf("charge without a connection: %v", err)
		}
		w.noProblems(t)
	})
}

func TestCharge_OnePixPerDepositWithTheHoldsExpiry(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		st := w.connect(t)
		c := w.charge(t)
		p, ok := w.fake.Payment(c.PaymentID)
		if !ok || p.AmountCents != 3000 || p.ExternalReference != "AGD-"+w.apptID[:8] || p.NotificationURL != st.WebhookURL ||
			!p.ExpiresAt.Equal(w.e.Clock.Now().Add(time.Hour)) || p.PayerEmail != "bruno@example.com" {
			t.Fatalf("payment at Mercado Pago: %+v (charge %+v)", p, c)
		}
		if c.QRCode != p.QRCode || c.QRCodeBase64 == "" || c.Status != "pending" || c.AmountCents != 3000 {
			t.Fatalf("charge %+v", c)
		}
		// Charged again (a retry, another instance): the same payment, no second call.
		before := w.fake.Requests()
		if again := w.charge(t); again.PaymentID != c.PaymentID || w.fake.Requests() != before {
			t.Fatalf("charged twice: %+v, requests %d → %d", again, before, w.fake.Requests())
		}
		// A create whose answer was lost is asked again with the same key and
		// body, and Mercado Pago answers the same payment.
		if _, err := w.e.DB.ExecContext(context.Background(), `UPDATE mercadopago_payments SET payment_id = NULL, status = 'creating'`); err != nil {
			t.Fatal(err)
		}
		if again := w.charge(t); again.PaymentID != c.PaymentID || w.fake.Creates() != 1 {
			t.Fatalf("a lost answer made another payment: %+v (creates %d)", again, w.fake.Creates())
		}
		got, err := w.e.Server.MercadoPago.ChargeOf(context.Background(), w.ownerID, w.apptID)
		if err != nil || got == nil || got.PaymentID != c.PaymentID {
			t.Fatalf("ChargeOf = %+v, %v", got, err)
		}
		w.noProblems(t)
	})
}

func TestCharge_AHoldShorterThanMercadoPagosMinimumGetsThirtyMinutes(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		c, err := w.e.Server.MercadoPago.Charge(context.Background(), mercadopago.ChargeInput{OwnerID: w.ownerID, AppointmentID: w.apptID,
			Reference: "AGD-short", AmountCents: 1050, PayerEmail: "bruno@example.com", ExpiresAt: w.e.Clock.Now().Add(10 * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		if want := w.e.Clock.Now().Add(mercadopago.MinPixLife); !c.ExpiresAt.Equal(want) {
			t.Fatalf("expiry %s, want %s", c.ExpiresAt, want)
		}
		w.noProblems(t)
	})
}

func TestWebhook_SignedIsReadThroughTheAPIForgedAndStaleAreRefusedReplaysChangeNothing(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		c := w.charge(t)
		w.fake.Approve(c.PaymentID)

		// Forged: signed with another secret, or for another payment.
		forged := w.fake.NotifyTo(mustPaymentURL(t, w, c), "not-the-owners-secret-0000", c.PaymentID, "payment.updated")
		if code, err := forged.Send(); err != nil || code != 401 {
			t.Fatalf("forged: %d %v", code, err)
		}
		// The profile says a notice was refused for its signature (the
		// usual cause: the secret kept is not the application's).
		var st mercadopago.Status
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if st.SignatureRefusedAt == nil || !st.SignatureRefusedAt.Equal(w.e.Clock.Now()) || st.LastNoticeAt != nil {
			t.Fatalf("after a refused notice: %+v", st)
		}
		swapped := w.fake.Notify(c.PaymentID)
		swapped.URL = strings.Replace(swapped.URL, "data.id="+c.PaymentID, "data.id=999"+c.PaymentID, 1)
		if code, _ := swapped.Send(); code != 401 {
			t.Fatalf("another data.id under the same signature: %d", code)
		}
		// Stale: signed right, six minutes ago.
		w.fake.Now = func() time.Time { return w.e.Clock.Now().Add(-6 * time.Minute) }
		stale := w.fake.Notify(c.PaymentID)
		w.fake.Now = w.e.Clock.Now
		if code, _ := stale.Send(); code != 401 {
			t.Fatalf("stale: %d", code)
		}
		got, _ := w.e.Server.MercadoPago.ChargeOf(context.Background(), w.ownerID, w.apptID)
		if got.Status != "pending" {
			t.Fatalf("a refused notification changed the charge: %+v", got)
		}
		// An unknown key is not found.
		bad := w.fake.Notify(c.PaymentID)
		bad.URL = strings.Replace(bad.URL, "/webhooks/mercadopago/", "/webhooks/mercadopago/x", 1)
		if code, _ := bad.Send(); code != 404 {
			t.Fatalf("unknown key: %d", code)
		}

		// Signed: the payment is read through the API and recorded approved.
		n := w.fake.Notify(c.PaymentID)
		if code, err := n.Send(); err != nil || code != 200 {
			t.Fatalf("signed: %d %v", code, err)
		}
		got, _ = w.e.Server.MercadoPago.ChargeOf(context.Background(), w.ownerID, w.apptID)
		if got.Status != "approved" {
			t.Fatalf("after the webhook: %+v", got)
		}
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if st.LastNoticeAt == nil || st.SignatureRefusedAt != nil {
			t.Fatalf("after a valid notice: %+v", st)
		}
		// Replayed: answered, and Mercado Pago's API is not asked again.
		before := w.fake.Requests()
		if code, _ := n.Send(); code != 200 || w.fake.Requests() != before {
			t.Fatalf("replay: %d, requests %d → %d", code, before, w.fake.Requests())
		}
		// A body that names another payment than the signed data.id is refused.
		odd := w.fake.Notify(c.PaymentID)
		odd.Body = []byte(`{"type":"payment","action":"payment.updated","data":{"id":"1"}}`)
		if code, _ := odd.Send(); code != 400 {
			t.Fatalf("body naming another payment: %d", code)
		}
		// A payment of the owner's that Agendei did not make is ignored.
		api := mercadopago.NewAPI(w.fake.URL())
		foreign, err := api.CreatePix(context.Background(), w.seller.Token, mercadopago.PixRequest{AmountCents: 500, Description: "loja", ExternalReference: "LOJA-1",
			PayerEmail: "x@example.com", ExpiresAt: w.e.Clock.Now().Add(time.Hour), NotificationURL: "https://loja.example/n", IdempotencyKey: "loja-1"})
		if err != nil {
			t.Fatal(err)
		}
		w.fake.Approve(foreign.ID)
		if code, _ := w.fake.NotifyTo(mustPaymentURL(t, w, c), w.seller.WebhookSecret, foreign.ID, "payment.updated").Send(); code != 200 {
			t.Fatalf("a payment not Agendei's: %d", code)
		}
		w.noProblems(t)
	})
}

// Mercado Pago also sends notifications without data.id (signed without
// that part) and older IPN notices that are never signed: neither is a sign
// that the stored secret is wrong, and an IPN is read back through the API.
func TestWebhook_UnsignedIPNAndNoticesWithoutDataIDNeverBlameTheSecret(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.connect(t)
		c := w.charge(t)
		to := mustPaymentURL(t, w, c)
		status := func() mercadopago.Status {
			var st mercadopago.Status
			w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
			return st
		}

		// Signed without data.id: accepted as valid, nothing to read.
		before := w.fake.Requests()
		if code, err := w.fake.NotifyWithoutID(to, w.seller.WebhookSecret, "payment").Send(); err != nil || code != 200 {
			t.Fatalf("signed without data.id: %d %v", code, err)
		}
		if st := status(); st.SignatureRefusedAt != nil || st.LastNoticeAt == nil {
			t.Fatalf("after a notice without data.id: %+v", st)
		}
		if w.fake.Requests() != before {
			t.Fatal("a notice naming no payment made Agendei call the API")
		}

		// An unsigned notice that is not an IPN is refused, but the secret
		// is not blamed for it.
		unsigned := w.fake.Notify(c.PaymentID)
		unsigned.Signature = ""
		if code, _ := unsigned.Send(); code != 401 {
			t.Fatalf("unsigned webhook: %d", code)
		}
		if st := status(); st.SignatureRefusedAt != nil {
			t.Fatalf("an unsigned notice blamed the secret: %+v", st)
		}

		// An IPN notice: the payment is read back through the API (its status
		// comes from there, never from the notice) and the booking confirmed.
		w.fake.Approve(c.PaymentID)
		if code, err := w.fake.IPN(to, c.PaymentID).Send(); err != nil || code != 200 {
			t.Fatalf("IPN: %d %v", code, err)
		}
		got, _ := w.e.Server.MercadoPago.ChargeOf(context.Background(), w.ownerID, w.apptID)
		if got.Status != "approved" {
			t.Fatalf("after the IPN: %+v", got)
		}
		if st := status(); st.SignatureRefusedAt != nil {
			t.Fatalf("an IPN blamed the secret: %+v", st)
		}
		// An IPN naming something that is not a payment id is refused.
		if code, _ := w.fake.IPN(to, "1 OR 1=1").Send(); code != 400 {
			t.Fatalf("IPN with a bad id: %d", code)
		}
		w.noProblems(t)
	})
}

// mustPaymentURL is the owner's webhook URL, as the charge named it.
func mustPaymentURL(t *testing.T, w *world, c *mercadopago.Charge) string {
	t.Helper()
	p, ok := w.fake.Payment(c.PaymentID)
	if !ok {
		t.Fatal("no payment at the fake")
	}
	return p.NotificationURL
}
