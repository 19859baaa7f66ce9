package mercadopago_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/mercadopago"
	"github.com/agendei/agendei/internal/mercadopago/mptest"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// eachOAuth is each with the operator's Mercado Pago application
// configured on the server and registered on the fake, whose
// authorization page logs in as the world's seller.
func eachOAuth(t *testing.T, fn func(t *testing.T, w *world, app mptest.App)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			fake := mptest.New()
			t.Cleanup(fake.Close)
			app := mptest.App{ClientID: "4934588586838432", ClientSecret: "app-client-secret-0123456789", WebhookSecret: "app-webhook-secret-0123456789abcdef"}
			e := servertest.StartWith(t, dialect, func(c *config.Config) {
				c.MercadoPagoAPIURL, c.MercadoPagoAuthURL = fake.URL(), fake.URL()
				c.MercadoPagoClientID, c.MercadoPagoClientSecret, c.MercadoPagoWebhookSecret = app.ClientID, app.ClientSecret, app.WebhookSecret
			})
			fake.Now = e.Clock.Now
			app.RedirectURI = e.HTTP.URL + "/profile/mercadopago"
			app = fake.SetApp(app)
			w := setup(t, e, fake)
			fake.AuthorizeAs(w.seller, false)
			fn(t, w, app)
		})
	}
}

// start presses "Conectar Mercado Pago": the authorization URL.
func (w *world) start(t *testing.T) *url.URL {
	t.Helper()
	var st struct{ URL string }
	r := w.owner.Do("POST", "/api/mercadopago/oauth/start", nil)
	if r.StatusCode != 200 {
		t.Fatalf("start: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &st)
	u, err := url.Parse(st.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// authorize goes through Mercado Pago's page: the code and state sent back.
func (w *world) authorize(t *testing.T, u *url.URL) (code, state string) {
	t.Helper()
	loc, status, err := w.fake.Authorize(u.String())
	if err != nil || status != 302 {
		t.Fatalf("authorize: %d %v %v", status, err, w.fake.Problems())
	}
	back, err := url.Parse(loc)
	if err != nil || !strings.HasPrefix(loc, w.e.HTTP.URL+"/profile/mercadopago?") {
		t.Fatalf("sent back to %q", loc)
	}
	return back.Query().Get("code"), back.Query().Get("state")
}

func (w *world) finish(code, state string) *servertest.Response {
	return w.owner.Do("POST", "/api/mercadopago/oauth/finish", map[string]string{"code": code, "state": state})
}

// connectOAuth connects the owner by the button, end to end.
func (w *world) connectOAuth(t *testing.T) mercadopago.Status {
	t.Helper()
	code, state := w.authorize(t, w.start(t))
	r := w.finish(code, state)
	if r.StatusCode != 200 {
		t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
	}
	var st mercadopago.Status
	r.JSON(t, &st)
	return st
}

func TestOAuth_OneButtonConnectsWithNoTokenTypedAndKeepsTheGrantSealed(t *testing.T) {
	eachOAuth(t, func(t *testing.T, w *world, app mptest.App) {
		var before mercadopago.Status
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &before)
		if before.Connected || !before.OAuthAvailable {
			t.Fatalf("before: %+v", before)
		}
		u := w.start(t)
		q := u.Query()
		if u.Path != "/authorization" || q.Get("client_id") != app.ClientID || q.Get("response_type") != "code" || q.Get("platform_id") != "mp" ||
			q.Get("redirect_uri") != app.RedirectURI || q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 || len(q.Get("state")) < 32 {
			t.Fatalf("authorization URL %s", u)
		}
		code, state := w.authorize(t, u)
		var stored int
		w.e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM mercadopago_oauth_states WHERE state_hash = ? OR verifier_sealed LIKE ?`, state, "%"+state+"%").Scan(&stored)
		if stored != 0 {
			t.Fatal("the state is kept in clear")
		}
		r := w.finish(code, state)
		if r.StatusCode != 200 {
			t.Fatalf("finish: %d %s", r.StatusCode, r.Body)
		}
		var st mercadopago.Status
		r.JSON(t, &st)
		if !st.Connected || st.Auth != "oauth" || st.Nickname != "CLINICASORRISO" || st.Reconnect || st.WebhookURL != "" {
			t.Fatalf("status %+v", st)
		}
		// Sealed at rest: no token in clear in the row.
		var access, refresh, secret, pk, authKind string
		var expires time.Time
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT access_token_sealed, refresh_token_sealed, webhook_secret_sealed, public_key, auth, token_expires_at
			FROM mercadopago_accounts WHERE user_id = ?`, w.ownerID).Scan(&access, &refresh, &secret, &pk, &authKind, &expires); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(access, "APP_USR") || strings.Contains(refresh, "TG-") || refresh == "" || authKind != "oauth" || !strings.HasPrefix(pk, "APP_USR-") ||
			!expires.Equal(w.e.Clock.Now().Add(mptest.TokenLife)) {
			t.Fatalf("row: %q %q %q %s %s", access, refresh, pk, authKind, expires)
		}
		// The state was good once: the same return again is refused, in pt-BR.
		r = w.finish(code, state)
		if e := r.Err(t); r.StatusCode != 400 || e.Error.Code != "mercadopago_oauth_state" || !strings.Contains(e.Error.Message, "Clique em “Conectar Mercado Pago” de novo") {
			t.Fatalf("replayed: %d %s", r.StatusCode, r.Body)
		}
		// The connection works: a Pix is made with the granted token.
		if c := w.charge(t); c.PaymentID == "" {
			t.Fatal("no payment")
		}
		// The manual form may replace it, but with a token of its own: the grant's is not reused.
		if r := w.owner.Do("PUT", "/api/mercadopago", map[string]string{"webhookSecret": w.seller.WebhookSecret}); r.StatusCode != 400 {
			t.Fatalf("manual over OAuth without a token: %d %s", r.StatusCode, r.Body)
		}
		if st := w.connect(t); st.Auth != "manual" || st.WebhookURL == "" {
			t.Fatalf("manual over OAuth: %+v", st)
		}
		w.e.DB.QueryRowContext(context.Background(), `SELECT refresh_token_sealed FROM mercadopago_accounts WHERE user_id = ?`, w.ownerID).Scan(&refresh)
		if refresh != "" {
			t.Fatal("the grant's refresh token outlived a manual replacement")
		}
		// Disconnecting works as for a manual connection.
		if r := w.owner.Do("DELETE", "/api/mercadopago", nil); r.StatusCode != 204 {
			t.Fatalf("disconnect: %d", r.StatusCode)
		}
		w.connectOAuth(t)
		if r := w.owner.Do("DELETE", "/api/mercadopago", nil); r.StatusCode != 204 {
			t.Fatalf("disconnect after OAuth: %d", r.StatusCode)
		}
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if st.Connected {
			t.Fatalf("after disconnect: %+v", st)
		}
		w.noProblems(t)
	})
}

func TestOAuth_WrongExpiredOthersAndDeniedReturnsAreRefusedInPortuguese(t *testing.T) {
	eachOAuth(t, func(t *testing.T, w *world, app mptest.App) {
		refused := func(r *servertest.Response, code string) {
			t.Helper()
			if e := r.Err(t); r.StatusCode != 400 || e.Error.Code != code || !strings.Contains(e.Error.Message, "Conectar Mercado Pago") {
				t.Fatalf("want %s: %d %s", code, r.StatusCode, r.Body)
			}
		}
		code, state := w.authorize(t, w.start(t))
		refused(w.finish(code, "not-a-state-we-made-0000000000000000"), "mercadopago_oauth_state")
		refused(w.finish(code, ""), "mercadopago_oauth_state")
		// Another owner cannot finish this owner's connection, nor spend it.
		other := w.e.Client().As(t)
		other.Signup("Bia", "bia@example.com", "senha-da-bia-1", "gato")
		refused(other.Do("POST", "/api/mercadopago/oauth/finish", map[string]string{"code": code, "state": state}), "mercadopago_oauth_state")
		var st mercadopago.Status
		other.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if st.Connected {
			t.Fatal("the other owner got connected")
		}
		// Past ten minutes the state is dead.
		w.e.Clock.Advance(mercadopago.StateLife + time.Second)
		refused(w.finish(code, state), "mercadopago_oauth_state")
		// The seller refuses on Mercado Pago's page.
		w.fake.AuthorizeAs(w.seller, true)
		u := w.start(t)
		loc, _, _ := w.fake.Authorize(u.String())
		back, _ := url.Parse(loc)
		if back.Query().Get("error") != "access_denied" {
			t.Fatalf("denied: %s", loc)
		}
		r := w.owner.Do("POST", "/api/mercadopago/oauth/finish", map[string]string{"error": "access_denied", "state": back.Query().Get("state")})
		refused(r, "mercadopago_oauth_denied")
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if st.Connected {
			t.Fatal("connected after every refusal")
		}
		if w.fake.Grants() != 0 {
			t.Fatalf("%d grants", w.fake.Grants())
		}
		w.noProblems(t)
	})
}

func TestOAuth_ADepositIsConfirmedByTheApplicationsSignedWebhook(t *testing.T) {
	eachOAuth(t, func(t *testing.T, w *world, app mptest.App) {
		w.withDepositPolicy(t, 30)
		w.connectOAuth(t)
		b, code := w.bookAt(t, "15:00", "Carla", "carla@example.com")
		if code != 201 || b.Deposit == nil || b.Deposit.State != "pending" {
			t.Fatalf("booking: %d %+v", code, b.Deposit)
		}
		p := w.paymentOf(t, b.ID)
		if p.NotificationURL != w.e.HTTP.URL+"/webhooks/mercadopago" || !p.ViaApp {
			t.Fatalf("payment %+v", p)
		}
		w.fake.Approve(itoa(p.ID))
		// Signed with anything but the application's secret: refused before anything is read.
		reads := w.fake.Requests()
		if code, _ := w.fake.NotifyTo(p.NotificationURL, w.seller.WebhookSecret, itoa(p.ID), "payment.updated").Send(); code != 401 {
			t.Fatalf("forged: %d", code)
		}
		if w.fake.Requests() != reads {
			t.Fatal("a forged notice made Agendei read the payment")
		}
		if dep, st, _ := w.state(t, b.ID); dep != "pending" || st != "awaiting_deposit" {
			t.Fatalf("after a forged notice: %s %s", dep, st)
		}
		// Signed by the application: the payment is found by its id, read with the owner's token, confirmed.
		n := w.fake.Notify(itoa(p.ID))
		if code, err := n.Send(); err != nil || code != 200 {
			t.Fatalf("signed: %d %v", code, err)
		}
		if dep, st, _ := w.state(t, b.ID); dep != "paid" || st != "confirmed" {
			t.Fatalf("after payment: %s %s", dep, st)
		}
		var st mercadopago.Status
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if st.LastNoticeAt == nil || st.SignatureRefusedAt != nil {
			t.Fatalf("the card's last notice: %+v", st)
		}
		// A payment Agendei never made changes nothing.
		if code, _ := w.fake.NotifyTo(p.NotificationURL, app.WebhookSecret, "999999999", "payment.updated").Send(); code != 200 {
			t.Fatalf("unknown payment: %d", code)
		}
		// The owner's own webhook route is no way in for an OAuth connection.
		var key string
		w.e.DB.QueryRowContext(context.Background(), `SELECT webhook_key FROM mercadopago_accounts WHERE user_id = ?`, w.ownerID).Scan(&key)
		if code, _ := w.fake.NotifyTo(w.e.HTTP.URL+"/webhooks/mercadopago/"+key, "", itoa(p.ID), "payment.updated").Send(); code != 404 {
			t.Fatalf("owner route: %d", code)
		}
		w.noProblems(t)
	})
}

func TestOAuth_TokensAreRenewedBeforeExpiryOnceAcrossInstancesAndARefusalTellsTheOwner(t *testing.T) {
	eachOAuth(t, func(t *testing.T, w *world, app mptest.App) {
		ctx := context.Background()
		w.connectOAuth(t)
		svc := w.e.Server.MercadoPago
		refreshOf := func() string {
			var s string
			w.e.DB.QueryRowContext(ctx, `SELECT refresh_token_sealed FROM mercadopago_accounts WHERE user_id = ?`, w.ownerID).Scan(&s)
			return s
		}
		// Far from expiry: nothing to renew.
		if err := svc.RenewDue(ctx); err != nil || w.fake.Grants() != 1 {
			t.Fatalf("early renewal: %v, %d grants", err, w.fake.Grants())
		}
		// Within 30 days of expiry: renewed, the refresh token rotated.
		old := refreshOf()
		w.e.Clock.Advance(mptest.TokenLife - mercadopago.RenewBefore + time.Hour)
		if err := svc.RenewDue(ctx); err != nil || w.fake.Grants() != 2 || refreshOf() == old {
			t.Fatalf("renewal: %v, %d grants", err, w.fake.Grants())
		}
		// Two instances renewing at once: one grant, and the refresh token kept is the newest.
		peer := w.e.Peer()
		peer.Server.MercadoPago.App, peer.Server.MercadoPago.API = svc.App, svc.API
		w.e.Clock.Advance(mptest.TokenLife - mercadopago.RenewBefore + time.Hour)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, s := range []*mercadopago.Service{svc, peer.Server.MercadoPago} {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = s.Renew(ctx, w.ownerID) }()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil || w.fake.Grants() != 3 {
			t.Fatalf("concurrent renewal: %v, %d grants", err, w.fake.Grants())
		}
		w.e.Clock.Advance(mptest.TokenLife - mercadopago.RenewBefore + time.Hour)
		if err := svc.RenewDue(ctx); err != nil || w.fake.Grants() != 4 {
			t.Fatalf("renewal after the concurrent one (its refresh token lost?): %v, %d grants", err, w.fake.Grants())
		}
		if c := w.charge(t); c.PaymentID == "" {
			t.Fatal("the renewed token does not work")
		}
		// The seller removes the authorization: the next renewal is refused for good.
		w.fake.RevokeGrants(w.seller)
		w.e.Clock.Advance(mptest.TokenLife - mercadopago.RenewBefore + time.Hour)
		if err := svc.RenewDue(ctx); err != nil {
			t.Fatal(err)
		}
		// Two years have passed on the clock: the owner signs in again.
		if r := w.owner.Login("ana@example.com", "senha-da-ana-1"); r.StatusCode != 200 {
			t.Fatalf("login: %d %s", r.StatusCode, r.Body)
		}
		var st mercadopago.Status
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if !st.Connected || !st.Reconnect {
			t.Fatalf("status after a refused renewal: %+v", st)
		}
		var notes struct {
			Unread        int
			Notifications []struct{ Type, Title, Description string }
		}
		w.owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		told := 0
		for _, n := range notes.Notifications {
			if n.Title == "Reconecte o Mercado Pago" && n.Type == "system" {
				told++
			}
		}
		if told != 1 || notes.Unread < 1 {
			t.Fatalf("the owner was told %d times: %+v", told, notes)
		}
		// Once refused, no more tries until the owner reconnects; the bell rings once.
		if err := svc.RenewDue(ctx); err != nil || w.fake.Grants() != 4 {
			t.Fatalf("after refusal: %v, %d grants", err, w.fake.Grants())
		}
		// Deposits no longer go through the dead grant.
		if _, err := svc.Charge(ctx, mercadopago.ChargeInput{OwnerID: w.ownerID, AppointmentID: w.apptID, Reference: "AGD-X", Key: "other",
			AmountCents: 3000, PayerEmail: "bruno@example.com", ExpiresAt: w.e.Clock.Now().Add(time.Hour)}); !errors.Is(err, mercadopago.ErrNotConnected) {
			t.Fatalf("charge on a dead grant: %v", err)
		}
		// Pressing the button again heals it.
		w.fake.AuthorizeAs(w.seller, false)
		if st := w.connectOAuth(t); !st.Connected || st.Reconnect {
			t.Fatalf("reconnected: %+v", st)
		}
		w.noProblems(t)
	})
}

func TestOAuth_WithoutTheApplicationOnlyTheManualFormExists(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		var st mercadopago.Status
		w.owner.Do("GET", "/api/mercadopago", nil).JSON(t, &st)
		if st.OAuthAvailable {
			t.Fatal("the button is offered without an application")
		}
		if r := w.owner.Do("POST", "/api/mercadopago/oauth/start", nil); r.StatusCode != 404 || r.Err(t).Error.Code != "mercadopago_oauth_off" {
			t.Fatalf("start: %d %s", r.StatusCode, r.Body)
		}
		if code, _ := w.fake.NotifyTo(w.e.HTTP.URL+"/webhooks/mercadopago", "x", "1", "payment.updated").Send(); code != 404 {
			t.Fatalf("application webhook without an application: %d", code)
		}
	})
}

// An owner's unfinished starts are bounded: a sixth forgets the oldest,
// whose return is then refused, while the newest still connects.
func TestOAuth_AnOwnersUnfinishedStartsAreBounded(t *testing.T) {
	eachOAuth(t, func(t *testing.T, w *world, app mptest.App) {
		var first *url.URL
		var last *url.URL
		for i := range 6 {
			u := w.start(t)
			if i == 0 {
				first = u
			}
			last = u
			w.e.Clock.Advance(time.Second)
		}
		var n int
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM mercadopago_oauth_states WHERE user_id = ?`, w.ownerID).Scan(&n); err != nil || n != 5 {
			t.Fatalf("%d states kept (%v), want 5", n, err)
		}
		code, state := w.authorize(t, first)
		if r := w.finish(code, state); r.StatusCode != 400 {
			t.Fatalf("the oldest start: %d %s, want refused", r.StatusCode, r.Body)
		}
		code, state = w.authorize(t, last)
		if r := w.finish(code, state); r.StatusCode != 200 {
			t.Fatalf("the newest start: %d %s", r.StatusCode, r.Body)
		}
	})
}
