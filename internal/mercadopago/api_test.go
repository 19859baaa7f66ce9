package mercadopago_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/mercadopago"
	"github.com/agendei/agendei/internal/mercadopago/mptest"
	"github.com/agendei/agendei/internal/platform/connect"
)

func TestReaisAndCentsAreExact(t *testing.T) {
	for _, c := range []struct {
		cents int64
		text  string
	}{{3000, "30.00"}, {5, "0.05"}, {1999, "19.99"}, {10, "0.10"}, {123456789, "1234567.89"}, {0, "0.00"}} {
		if got := mercadopago.Reais(c.cents); got != c.text {
			t.Errorf("Reais(%d) = %q, want %q", c.cents, got, c.text)
		}
		if got, err := mercadopago.Cents(c.text); err != nil || got != c.cents {
			t.Errorf("Cents(%q) = %d, %v; want %d", c.text, got, err, c.cents)
		}
	}
	for in, want := range map[string]int64{"30": 3000, "30.5": 3050, "0.1": 10, "19.990": 1999} {
		if got, err := mercadopago.Cents(in); err != nil || got != want {
			t.Errorf("Cents(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1.00", "1.005", "abc", "1e3", ".5", "+3"} {
		if _, err := mercadopago.Cents(bad); err == nil {
			t.Errorf("Cents(%q) took it", bad)
		}
	}
}

func TestClientAgainstTheFake(t *testing.T) {
	fake := mptest.New()
	t.Cleanup(fake.Close)
	acc := fake.AddAccount(mptest.Account{Nickname: "CLINICASORRISO"})
	api := mercadopago.NewAPI(fake.URL())
	ctx := context.Background()

	me, err := api.Me(ctx, acc.Token)
	if err != nil || me.ID != acc.UserID || me.SiteID != "MLB" || me.Nickname != "CLINICASORRISO" {
		t.Fatalf("Me = %+v, %v", me, err)
	}
	_, err = api.Me(ctx, "APP_USR-not-a-token")
	var ae *mercadopago.APIError
	if !errors.As(err, &ae) || !ae.Auth() || ae.Temporary() {
		t.Fatalf("Me with a wrong token: %v", err)
	}

	exp := time.Now().Add(45 * time.Minute).Truncate(time.Second)
	req := mercadopago.PixRequest{AmountCents: 3000, Description: "Sinal — Limpeza", ExternalReference: "AGD-7F3K9", PayerEmail: "bruno@example.com",
		ExpiresAt: exp, NotificationURL: "https://agendei.example/webhooks/mercadopago/k", IdempotencyKey: "agendei-1"}
	p, err := api.CreatePix(ctx, acc.Token, req)
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != "pending" || p.AmountCents != 3000 || p.ExternalReference != "AGD-7F3K9" || !p.ExpiresAt.Equal(exp) ||
		!strings.HasPrefix(p.QRCode, "000201") || p.QRCodeBase64 == "" || p.PaymentMethodID != "pix" {
		t.Fatalf("created %+v", p)
	}
	// The same key is the same payment; a new key is a new one.
	again, err := api.CreatePix(ctx, acc.Token, req)
	if err != nil || again.ID != p.ID || fake.Creates() != 1 {
		t.Fatalf("same key: %+v, %v (creates %d)", again, err, fake.Creates())
	}
	req.IdempotencyKey = "agendei-2"
	other, err := api.CreatePix(ctx, acc.Token, req)
	if err != nil || other.ID == p.ID {
		t.Fatalf("new key: %+v, %v", other, err)
	}

	fake.Approve(p.ID)
	got, err := api.Payment(ctx, acc.Token, p.ID)
	if err != nil || got.Status != "approved" || got.ApprovedAt.IsZero() || got.AmountCents != 3000 {
		t.Fatalf("Payment = %+v, %v", got, err)
	}
	// Another account does not see it.
	stranger := fake.AddAccount(mptest.Account{})
	if _, err := api.Payment(ctx, stranger.Token, p.ID); !errors.As(err, &ae) || ae.Status != 404 {
		t.Fatalf("another account's payment: %v", err)
	}
	if pr := fake.Problems(); len(pr) > 0 {
		t.Fatalf("the fake saw requests not as documented: %v", pr)
	}

	// A Pix shorter than 30 minutes is refused, as Mercado Pago does; so is a
	// temporary fault, which the caller may retry.
	req.IdempotencyKey, req.ExpiresAt = "agendei-3", time.Now().Add(10*time.Minute)
	if _, err := api.CreatePix(ctx, acc.Token, req); !errors.As(err, &ae) || ae.Status != 400 {
		t.Fatalf("10-minute pix: %v", err)
	}
	fake.FailNext(1, 503)
	req.ExpiresAt = exp
	if _, err := api.CreatePix(ctx, acc.Token, req); !connect.Temporary(err) {
		t.Fatalf("503 is temporary: %v", err)
	}
}

// The fake refuses what Mercado Pago refuses, so the client's shape is
// really checked: a request without an idempotency key or with an unknown
// field is a problem.
func TestFakeRefusesUndocumentedRequests(t *testing.T) {
	fake := mptest.New()
	t.Cleanup(fake.Close)
	acc := fake.AddAccount(mptest.Account{})
	api := mercadopago.NewAPI(fake.URL())
	_, err := api.CreatePix(context.Background(), acc.Token, mercadopago.PixRequest{AmountCents: 100, ExternalReference: "r", PayerEmail: "not-an-email",
		ExpiresAt: time.Now().Add(time.Hour), NotificationURL: "https://x.example/h", IdempotencyKey: "k"})
	var ae *mercadopago.APIError
	if !errors.As(err, &ae) || ae.Status != 400 || len(fake.Problems()) != 1 {
		t.Fatalf("bad payer e-mail: %v, problems %v", err, fake.Problems())
	}
}

// The fake's OAuth refuses what Mercado Pago's documentation refuses: a
// wrong client secret (invalid_client), a verifier that is not the
// challenge's, another redirect_uri, a code or a refresh token used twice
// (invalid_grant), and an authorization request without PKCE or with
// another redirect_uri.
func TestFakeOAuthRefusesWhatTheDocumentationRefuses(t *testing.T) {
	fake := mptest.New()
	t.Cleanup(fake.Close)
	seller := fake.AddAccount(mptest.Account{})
	app := fake.SetApp(mptest.App{RedirectURI: "https://agendei.example/profile/mercadopago"})
	api := mercadopago.NewAPI(fake.URL())
	ctx := context.Background()
	verifier := strings.Repeat("v", 50)
	code := func(challenge string) string {
		t.Helper()
		loc, status, err := fake.Authorize(fake.URL() + "/authorization?client_id=" + app.ClientID + "&response_type=code&platform_id=mp&state=0123456789abcdef0123" +
			"&redirect_uri=" + app.RedirectURI + "&code_challenge=" + challenge + "&code_challenge_method=S256")
		if err != nil || status != 302 || !strings.Contains(loc, "code=TG-") {
			t.Fatalf("authorize: %d %s %v", status, loc, err)
		}
		return loc[strings.Index(loc, "code=")+5 : strings.Index(loc, "&")]
	}
	grant := func(r mercadopago.TokenRequest) (*mercadopago.Token, string) {
		t.Helper()
		r.ClientID, r.RedirectURI = app.ClientID, app.RedirectURI
		if r.ClientSecret == "" {
			r.ClientSecret = app.ClientSecret
		}
		tok, err := api.Token(ctx, r)
		var ae *mercadopago.APIError
		if errors.As(err, &ae) {
			return nil, ae.Code
		}
		if err != nil {
			t.Fatal(err)
		}
		return tok, ""
	}
	c := code(mercadopago.Challenge(verifier))
	if _, e := grant(mercadopago.TokenRequest{GrantType: "authorization_code", Code: c, CodeVerifier: verifier, ClientSecret: "wrong"}); e != "invalid_client" {
		t.Fatalf("wrong secret: %q", e)
	}
	if _, e := grant(mercadopago.TokenRequest{GrantType: "authorization_code", Code: code(mercadopago.Challenge(verifier)), CodeVerifier: strings.Repeat("w", 50)}); e != "invalid_grant" {
		t.Fatalf("wrong verifier: %q", e)
	}
	tok, e := grant(mercadopago.TokenRequest{GrantType: "authorization_code", Code: c, CodeVerifier: verifier})
	if e != "" || tok.UserID != seller.UserID || tok.ExpiresIn != 15552000 || !strings.HasPrefix(tok.AccessToken, "APP_USR-") {
		t.Fatalf("grant: %+v %q", tok, e)
	}
	if me, err := api.Me(ctx, tok.AccessToken); err != nil || me.ID != seller.UserID {
		t.Fatalf("the granted token: %+v %v", me, err)
	}
	if _, e := grant(mercadopago.TokenRequest{GrantType: "authorization_code", Code: c, CodeVerifier: verifier}); e != "invalid_grant" {
		t.Fatalf("code used twice: %q", e)
	}
	next, e := grant(mercadopago.TokenRequest{GrantType: "refresh_token", RefreshToken: tok.RefreshToken})
	if e != "" || next.RefreshToken == tok.RefreshToken {
		t.Fatalf("refresh: %+v %q", next, e)
	}
	if _, e := grant(mercadopago.TokenRequest{GrantType: "refresh_token", RefreshToken: tok.RefreshToken}); e != "invalid_grant" {
		t.Fatalf("refresh token used twice: %q", e)
	}
	if _, e := grant(mercadopago.TokenRequest{GrantType: "client_secret"}); e != "unsupported_grant_type" {
		t.Fatalf("grant type: %q", e)
	}
	if len(fake.Problems()) != 1 { // the wrong client secret
		t.Fatalf("problems: %v", fake.Problems())
	}
	for _, bad := range []string{"&redirect_uri=" + app.RedirectURI + "&code_challenge_method=plain&code_challenge=" + verifier,
		"&redirect_uri=" + app.RedirectURI + "&platform_id=ml&code_challenge_method=S256&code_challenge=" + mercadopago.Challenge(verifier), "&code_challenge_method=S256&code_challenge=" + mercadopago.Challenge(verifier) + "&redirect_uri=https://evil.example/cb"} {
		_, status, _ := fake.Authorize(fake.URL() + "/authorization?client_id=" + app.ClientID + "&response_type=code&platform_id=mp&state=0123456789abcdef0123" + bad)
		if status != 400 {
			t.Fatalf("authorize %s: %d", bad, status)
		}
	}
	if len(fake.Problems()) != 4 {
		t.Fatalf("problems: %v", fake.Problems())
	}
}
