package mptest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/connect/connecttest"
)

// The fake's OAuth side, written from Mercado Pago's documentation
// (Segurança → OAuth, and the reference of POST /oauth/token):
//
//   - GET /authorization (the auth origin, auth.mercadopago.com.br) takes
//     client_id, response_type=code, platform_id=mp, state, redirect_uri
//     (the one registered in the application, exactly), and — PKCE being
//     on in the application — code_challenge with code_challenge_method
//     S256. The seller logs in and authorizes (here: the account set by
//     AuthorizeAs), and is sent back to redirect_uri?code=TG-…&state=…;
//     a refusal goes back with error=access_denied.
//   - POST /oauth/token (the API origin) takes a JSON body (or a form)
//     with client_id and client_secret (400 invalid_client when wrong) and
//     grant_type authorization_code (code valid 10 minutes and once,
//     redirect_uri equal to the authorization's, code_verifier whose S256
//     is the challenge; else 400 invalid_grant) or refresh_token (a refresh
//     token is good once: each answers a new one); any other grant is
//     unsupported_grant_type. It answers {access_token, token_type:"bearer",
//     expires_in:15552000, scope:"offline_access read write", user_id,
//     refresh_token, public_key, live_mode:true}.
//
// An access token it issues works for the account's API calls until it
// expires (expires_in after issue, on the fake's clock).

// App is the integrator's application on the fake.
type App struct {
	ClientID      string
	ClientSecret  string
	RedirectURI   string // the one registered in the application
	WebhookSecret string // signs the notices of payments made with its tokens
}

// TokenLife is expires_in of the tokens the fake issues (180 days).
const TokenLife = 15552000 * time.Second

type grantCode struct {
	userID    int64
	redirect  string
	challenge string
	expires   time.Time
	used      bool
}

type issued struct {
	userID  int64
	expires time.Time
}

// SetApp registers the application OAuth calls must name. Zero fields get
// plausible values (RedirectURI must be given).
func (f *Fake) SetApp(a App) App {
	if a.ClientID == "" {
		a.ClientID = connecttest.RandDigits(16)
	}
	if a.ClientSecret == "" {
		a.ClientSecret = connecttest.RandHex(16)
	}
	if a.WebhookSecret == "" {
		a.WebhookSecret = connecttest.RandHex(32)
	}
	f.mu.Lock()
	f.app = &a
	f.mu.Unlock()
	return a
}

// AuthorizeAs makes the authorization page log in as the account (the
// seller who authorizes); deny makes them refuse.
func (f *Fake) AuthorizeAs(a Account, deny bool) {
	f.mu.Lock()
	f.authorizer, f.deny = a.UserID, deny
	f.mu.Unlock()
}

// RevokeGrants removes the account's authorization of the application, as
// the seller can in their Mercado Pago panel: its refresh tokens are then
// refused (invalid_grant).
func (f *Fake) RevokeGrants(a Account) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for rt, id := range f.refresh {
		if id == a.UserID {
			delete(f.refresh, rt)
		}
	}
}

// Grants counts the tokens answered by POST /oauth/token.
func (f *Fake) Grants() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.grants
}

// Authorize follows an authorization URL as the seller's browser would,
// up to Mercado Pago's redirect: it answers where the seller is sent back
// (redirect_uri with code and state), or the error page's status.
func (f *Fake) Authorize(authURL string) (string, int, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(authURL)
	if err != nil {
		return "", 0, err
	}
	res.Body.Close()
	return res.Header.Get("Location"), res.StatusCode, nil
}

var reVerifier = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// authorize is GET /authorization.
func (f *Fake) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.mu.Lock()
	app := f.app
	acc, deny := f.authorizer, f.deny
	if acc == 0 && len(f.accounts) > 0 {
		acc = f.accounts[len(f.accounts)-1].UserID
	}
	f.mu.Unlock()
	refuse := func(format string, args ...any) {
		f.Problem("GET /authorization: "+format, args...)
		http.Error(w, "Mercado Pago: "+fmt.Sprintf(format, args...), http.StatusBadRequest)
	}
	dup := ""
	for k, v := range q {
		if len(v) > 1 {
			dup = k
		}
	}
	switch {
	case app == nil:
		refuse("no application on the fake (SetApp)")
	case dup != "":
		refuse("parameter %s given more than once", dup)
	case q.Get("client_id") != app.ClientID:
		refuse("client_id %q is not the application's", q.Get("client_id"))
	case q.Get("response_type") != "code":
		refuse("response_type %q, want code", q.Get("response_type"))
	case q.Get("platform_id") != "mp":
		refuse("platform_id %q, want mp", q.Get("platform_id"))
	case q.Get("redirect_uri") != app.RedirectURI:
		refuse("redirect_uri %q is not the application's %q", q.Get("redirect_uri"), app.RedirectURI)
	case len(q.Get("state")) < 16:
		refuse("state %q: a random value is needed", q.Get("state"))
	case q.Get("code_challenge_method") != "S256":
		refuse("code_challenge_method %q, want S256", q.Get("code_challenge_method"))
	case !regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`).MatchString(q.Get("code_challenge")):
		refuse("code_challenge %q is not BASE64URL(SHA256(verifier))", q.Get("code_challenge"))
	case acc == 0:
		refuse("no seller to log in (AddAccount)")
	default:
		back, _ := url.Parse(app.RedirectURI)
		bq := back.Query()
		if deny {
			bq.Set("error", "access_denied")
		} else {
			code := fmt.Sprintf("TG-%s-%d", connecttest.RandHex(12), acc)
			f.mu.Lock()
			f.codes[code] = &grantCode{userID: acc, redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge"), expires: f.Now().Add(10 * time.Minute)}
			f.mu.Unlock()
			bq.Set("code", code)
		}
		bq.Set("state", q.Get("state"))
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	}
}

type tokenBody struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	GrantType    string `json:"grant_type"`
	Code         string `json:"code"`
	RedirectURI  string `json:"redirect_uri"`
	CodeVerifier string `json:"code_verifier"`
	RefreshToken string `json:"refresh_token"`
	TestToken    string `json:"test_token"`
}

// token is POST /oauth/token.
func (f *Fake) token(w http.ResponseWriter, r *http.Request) {
	oauthErr := func(status int, code, msg string) {
		writeJSON(w, status, map[string]any{"error": code, "message": msg, "status": status, "cause": []any{}})
	}
	var b tokenBody
	var raw bytes.Buffer
	if _, err := raw.ReadFrom(http.MaxBytesReader(w, r.Body, 64<<10)); err != nil {
		oauthErr(http.StatusBadRequest, "invalid_request", "body")
		return
	}
	switch ct := r.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "application/json"):
		dec := json.NewDecoder(&raw)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&b); err != nil {
			f.Problem("POST /oauth/token body: %v", err)
			oauthErr(http.StatusBadRequest, "invalid_request", err.Error())
			return
		}
	case strings.HasPrefix(ct, "application/x-www-form-urlencoded"):
		v, _ := url.ParseQuery(raw.String())
		b = tokenBody{ClientID: v.Get("client_id"), ClientSecret: v.Get("client_secret"), GrantType: v.Get("grant_type"), Code: v.Get("code"),
			RedirectURI: v.Get("redirect_uri"), CodeVerifier: v.Get("code_verifier"), RefreshToken: v.Get("refresh_token")}
	default:
		f.Problem("POST /oauth/token with Content-Type %q", ct)
		oauthErr(http.StatusBadRequest, "invalid_request", "unsupported content type")
		return
	}
	if connecttest.Bearer(r) != "" {
		f.Problem("POST /oauth/token with an Authorization header: the application's credentials go in the body")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	app := f.app
	if app == nil || b.ClientID != app.ClientID || b.ClientSecret != app.ClientSecret {
		f.Problem("POST /oauth/token with client_id %q and a client_secret that are not the application's", b.ClientID)
		oauthErr(http.StatusBadRequest, "invalid_client", "The provided client_id and/or client_secret of your app is invalid.")
		return
	}
	var userID int64
	switch b.GrantType {
	case "authorization_code":
		c, ok := f.codes[b.Code]
		switch {
		case b.Code == "":
			f.Problem("POST /oauth/token authorization_code without code")
			oauthErr(http.StatusBadRequest, "invalid_request", "code is required")
			return
		case !ok || c.used || !f.Now().Before(c.expires):
			oauthErr(http.StatusBadRequest, "invalid_grant", "the authorization_code is invalid, expired or already used")
			return
		}
		c.used = true // once, whatever follows
		if b.RedirectURI != c.redirect {
			f.Problem("POST /oauth/token redirect_uri %q differs from the authorization's %q", b.RedirectURI, c.redirect)
			oauthErr(http.StatusBadRequest, "invalid_grant", "the redirect_uri does not match the one of the authorization")
			return
		}
		if !reVerifier.MatchString(b.CodeVerifier) {
			f.Problem("POST /oauth/token code_verifier %q is not 43 to 128 unreserved characters", b.CodeVerifier)
			oauthErr(http.StatusBadRequest, "invalid_grant", "invalid code_verifier")
			return
		}
		sum := sha256.Sum256([]byte(b.CodeVerifier))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge {
			oauthErr(http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
			return
		}
		userID = c.userID
	case "refresh_token":
		id, ok := f.refresh[b.RefreshToken]
		if b.RefreshToken == "" || !ok {
			oauthErr(http.StatusBadRequest, "invalid_grant", "the refresh_token is invalid, expired or revoked")
			return
		}
		delete(f.refresh, b.RefreshToken) // rotates: good once
		userID = id
	default:
		oauthErr(http.StatusBadRequest, "unsupported_grant_type", "Allowed values for grant_type are authorization_code or refresh_token.")
		return
	}
	now := f.Now()
	access := fmt.Sprintf("APP_USR-%s-%s-%s-%d", app.ClientID, now.Format("010215"), connecttest.RandHex(16), userID)
	refresh := fmt.Sprintf("TG-%s-%d", connecttest.RandHex(12), userID)
	f.issued[access] = issued{userID: userID, expires: now.Add(TokenLife)}
	f.refresh[refresh] = userID
	f.grants++
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "bearer", "expires_in": int64(TokenLife / time.Second),
		"scope": "offline_access read write", "user_id": userID, "refresh_token": refresh,
		"public_key": "APP_USR-" + uuid(), "live_mode": true})
}
