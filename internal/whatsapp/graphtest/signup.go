package graphtest

// Embedded Signup's endpoints, as Meta documents them for Tech Providers
// (embedded-signup/onboarding-customers-as-a-tech-provider and
// solution-providers/registering-phone-numbers):
//
//   - GET /{v}/oauth/access_token?client_id&client_secret&code, no
//     Authorization: the code (valid once) for the business token
//     {"access_token","token_type":"bearer"}; a wrong app id is code 101, a
//     wrong secret code 1 ("Error validating client secret"), an unknown
//     code 100, a code used before 100/36009;
//   - GET /{v}/debug_token?input_token, with the app's token
//     ("app-id|app-secret") as Bearer: {"data":{app_id, is_valid, scopes,
//     granular_scopes:[{scope, target_ids}]}} — the WABAs the business
//     shared with the app during the sign-up;
//   - POST /{v}/{phone-number-id}/register {messaging_product:"whatsapp",
//     pin:6 digits}: sets the two-step verification PIN of a number that has
//     none, and must match the one it has (else 133005, "Two step
//     verification PIN Mismatch"); a number not registered cannot send
//     (133010, "Account not registered");
//   - POST /{v}/{waba-id}/subscribed_apps: the token's app gets the WABA's
//     webhooks → {"success":true}; DELETE on the same path, no body, ends
//     that subscription → {"success":true} (webhooks/overview, "Subscribe
//     to a WhatsApp Business Account").

import (
	"net/http"
	"regexp"
	"slices"

	"github.com/agendei/agendei/internal/platform/connect/connecttest"
)

// App is the operator's Meta app on the fake.
type App struct{ ID, Secret string }

type signupCode struct {
	token string
	waba  string
	used  bool
}

var rePIN = regexp.MustCompile(`^[0-9]{6}$`)

// SetApp makes app the Meta app that exchanges codes and asks debug_token.
func (f *Fake) SetApp(app App) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.app = app
}

// SignupCode is what FB.login gives the browser once the business finishes
// Meta's sign-up window sharing account a with the app: a one-time code for
// a's token. a should have been added with Unregistered (a number the
// sign-up just added) and, when it has two-step verification, its PIN.
func (f *Fake) SignupCode(a Account) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	code := "AQ" + connecttest.RandHex(40)
	if f.codes == nil {
		f.codes = map[string]*signupCode{}
	}
	f.codes[code] = &signupCode{token: a.Token, waba: a.WABAID}
	return code
}

// Subscribed reports whether the app was subscribed to the WABA's webhooks.
func (f *Fake) Subscribed(wabaID string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Contains(f.subscribed[wabaID], f.app.ID)
}

// Registered reports the PIN a number was registered with ("" if not).
func (f *Fake) Registered(phoneNumberID string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.registered[phoneNumberID]
}

// serveApp answers the app's own calls (no business token); false: not one.
func (f *Fake) serveApp(w http.ResponseWriter, r *http.Request, rest string) bool {
	q := r.URL.Query()
	switch {
	case rest == "oauth/access_token" && r.Method == http.MethodGet:
		if r.Header.Get("Authorization") != "" {
			f.Problem("code exchanged with an Authorization header")
		}
		switch {
		case q.Get("client_id") != f.app.ID:
			f.refuse(w, http.StatusBadRequest, 101, "OAuthException", "Error validating application. Invalid application ID.")
		case q.Get("client_secret") != f.app.Secret:
			f.refuse(w, http.StatusBadRequest, 1, "OAuthException", "Error validating client secret.")
		case f.codes[q.Get("code")] == nil:
			f.refuse(w, http.StatusBadRequest, 100, "OAuthException", "Invalid verification code format.")
		case f.codes[q.Get("code")].used:
			f.refuseSub(w, http.StatusBadRequest, 100, 36009, "OAuthException", "This authorization code has been used.")
		default:
			c := f.codes[q.Get("code")]
			c.used = true
			writeJSON(w, http.StatusOK, map[string]string{"access_token": c.token, "token_type": "bearer"})
		}
		return true
	case rest == "debug_token" && r.Method == http.MethodGet:
		if r.Header.Get("Authorization") != "Bearer "+f.app.ID+"|"+f.app.Secret {
			f.refuse(w, http.StatusBadRequest, 190, "OAuthException", "Invalid OAuth access token signature.")
			return true
		}
		var shared []string
		for _, c := range f.codes {
			if c.used && c.token == q.Get("input_token") {
				shared = append(shared, c.waba)
			}
		}
		if shared == nil {
			writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"is_valid": false,
				"error": map[string]any{"code": 190, "message": "Invalid OAuth access token."}}})
			return true
		}
		scopes := []map[string]any{
			{"scope": "whatsapp_business_management", "target_ids": shared},
			{"scope": "whatsapp_business_messaging", "target_ids": shared},
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"app_id": f.app.ID, "type": "USER", "application": "Agendei",
			"is_valid": true, "scopes": []string{"whatsapp_business_management", "whatsapp_business_messaging"}, "granular_scopes": scopes}})
		return true
	}
	return false
}

func (f *Fake) register(w http.ResponseWriter, r *http.Request, a *Account) {
	var in struct {
		MessagingProduct string `json:"messaging_product"`
		PIN              string `json:"pin"`
	}
	if !f.decode(w, r, &in) {
		return
	}
	if in.MessagingProduct != "whatsapp" {
		f.invalid(w, "messaging_product must be whatsapp")
		return
	}
	if !rePIN.MatchString(in.PIN) {
		f.invalid(w, "pin must be 6 digits")
		return
	}
	if a.PIN != "" && a.PIN != in.PIN {
		f.refuse(w, http.StatusBadRequest, 133005, "OAuthException", "Two step verification PIN Mismatch")
		return
	}
	a.PIN = in.PIN // register sets two-step verification on a number without it
	if f.registered == nil {
		f.registered = map[string]string{}
	}
	f.registered[a.PhoneNumberID] = in.PIN
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}

func (f *Fake) subscribe(w http.ResponseWriter, a *Account) {
	if f.subscribed == nil {
		f.subscribed = map[string][]string{}
	}
	if !slices.Contains(f.subscribed[a.WABAID], f.app.ID) {
		f.subscribed[a.WABAID] = append(f.subscribed[a.WABAID], f.app.ID)
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}

// FailNextUnsubscribe makes the next n unsubscribe calls answer an error
// with the HTTP status and Graph error code given (e.g. 503/2 for Meta
// away, 400/200 for a permission the token lost).
func (f *Fake) FailNextUnsubscribe(n, status, code int, message string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range n {
		f.unsubscribeFail = append(f.unsubscribeFail, failure{status, code, message})
	}
}

// unsubscribe ends the token's app's subscription to the WABA's webhooks.
// Meta documents no body for it; one sent is a problem.
func (f *Fake) unsubscribe(w http.ResponseWriter, r *http.Request, a *Account) {
	if r.ContentLength > 0 {
		f.Problem("DELETE subscribed_apps with a body")
	}
	if len(f.unsubscribeFail) > 0 {
		e := f.unsubscribeFail[0]
		f.unsubscribeFail = f.unsubscribeFail[1:]
		f.refuse(w, e.status, e.code, "OAuthException", e.msg)
		return
	}
	if f.subscribed == nil {
		f.subscribed = map[string][]string{}
	}
	f.subscribed[a.WABAID] = slices.DeleteFunc(f.subscribed[a.WABAID], func(id string) bool { return id == f.app.ID })
	writeJSON(w, http.StatusOK, map[string]bool{"success": true})
}
