// Package graphtest is an in-process fake of the WhatsApp Cloud API
// endpoints of Meta's Graph API that Agendei calls (phone number info,
// create and list message templates, send a template message), for tests:
// no test reaches the internet. It checks each request as Meta documents
// it — method, path with the API version, the Bearer token of the account,
// the JSON body's fields, template component shapes, phone numbers as
// digits with country code and no "+" — answers as Meta does (including
// its error shape), keeps state (templates PENDING until the test approves
// them, messages with wamid.* ids), and sends webhooks signed as Meta
// signs them (X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body
// with the app secret>). It is independent of the client it tests.
package graphtest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agendei/agendei/internal/platform/connect/connecttest"
)

// Account is one business on the fake: a WhatsApp Business Account with
// one phone number, reached with Token.
type Account struct {
	WABAID, PhoneNumberID string
	Token                 string
	AppSecret             string
	DisplayPhoneNumber    string
	VerifiedName          string
	// PIN is the number's two-step verification PIN ("" : none yet; a
	// register sets it).
	PIN string
	// Unregistered: a number just added by Embedded Signup, which sends
	// nothing until registered (signup.go).
	Unregistered bool
	// AutoApprove: Meta approves this account's templates as it creates
	// them (its create answer says APPROVED, as Meta's may for a utility
	// template) — the operator's account of the browser tests, whose
	// server reads the review only every few minutes.
	AutoApprove bool
}

// Template is a template as the fake keeps it.
type Template struct {
	ID, Name, Language, Category, Status string
	Body                                 string
	Params                               int      // {{n}} placeholders in the body
	QuickReplies                         []string // button texts
}

// Message is a template message the fake accepted.
type Message struct {
	ID, PhoneNumberID, To, Template, Language string
	Text                                      string // a free-form text message's body ("" for a template)
	Body                                      []string
	Payloads                                  map[int]string // quick-reply payload by button index
	// CallbackData is the request's biz_opaque_callback_data, which Meta
	// echoes in the message's status webhooks.
	CallbackData string
	At           time.Time
}

// Fake is the Graph API double.
type Fake struct {
	// Base counts the requests, keeps the problems and the failures of the next sends.
	connecttest.Base[failure]
	Version string // the API version requests must name (default v21.0)

	mu        sync.Mutex
	accounts  []Account
	templates map[string][]*Template // by WABA id
	messages  []Message
	inbound   map[string]time.Time // phone number id|client → when the client last wrote (opens the 24 h window)
	late      int                  // sends to accept and then answer only after the caller gave up
	sends     int
	// Embedded Signup (signup.go): the operator's app, the codes issued,
	// the numbers registered (their PIN) and the apps subscribed to a WABA.
	app        App
	codes      map[string]*signupCode
	registered map[string]string
	subscribed map[string][]string
	// unsubscribeFail: the next unsubscribe calls answered with this error.
	unsubscribeFail []failure
}

type failure struct {
	status int
	code   int
	msg    string
}

// New starts a fake; it stops when the test ends (Close).
func New() *Fake {
	f := &Fake{Version: "v21.0", templates: map[string][]*Template{}, inbound: map[string]time.Time{}}
	f.Start(http.HandlerFunc(f.serve))
	return f
}

// NewHandler is the fake behind a handler the caller serves (cmd/graphfake,
// for the browser tests).
func NewHandler() (*Fake, http.Handler) {
	f := &Fake{Version: "v21.0", templates: map[string][]*Template{}, inbound: map[string]time.Time{}}
	return f, http.HandlerFunc(f.serve)
}

// AddAccount registers a business. Zero fields get plausible values.
func (f *Fake) AddAccount(a Account) Account {
	if a.WABAID == "" {
		a.WABAID = connecttest.RandDigits(15)
	}
	if a.PhoneNumberID == "" {
		a.PhoneNumberID = connecttest.RandDigits(15)
	}
	if a.Token == "" {
		a.Token = "EAAG" + connecttest.RandDigits(40)
	}
	if a.AppSecret == "" {
		a.AppSecret = randHex(16)
	}
	if a.DisplayPhoneNumber == "" {
		a.DisplayPhoneNumber = "+55 11 3333-4444"
	}
	if a.VerifiedName == "" {
		a.VerifiedName = "Clínica Teste"
	}
	f.mu.Lock()
	f.accounts = append(f.accounts, a)
	f.mu.Unlock()
	return a
}

// SetTemplateStatus sets a template's review status (APPROVED, REJECTED, …),
// as Meta's review would.
func (f *Fake) SetTemplateStatus(wabaID, name, status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.templates[wabaID] {
		if t.Name == name {
			t.Status = status
		}
	}
}

// Templates lists the templates created in an account.
func (f *Fake) Templates(wabaID string) []Template {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Template
	for _, t := range f.templates[wabaID] {
		out = append(out, *t)
	}
	return out
}

// Messages lists the messages accepted so far.
func (f *Fake) Messages() []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Message(nil), f.messages...)
}

// AccountOf is the account of a phone-number id.
func (f *Fake) AccountOf(phoneNumberID string) (Account, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if a := f.byPhone(phoneNumberID); a != nil {
		return *a, true
	}
	return Account{}, false
}

// FailNextSends makes the next n send calls answer an error with the HTTP
// status and Graph error code given (e.g. 503/131000 for Meta's fault,
// 400/131026 for an undeliverable number).
func (f *Fake) FailNextSends(n, status, code int, message string) {
	f.Fail(n, failure{status, code, message})
}

// AnswerLate makes the next n template sends accepted (the message goes,
// and is billed) but answered only after the caller stopped waiting: the
// answer is held until the request's connection ends, as when Meta
// accepts a message and answers past the client's time-out.
func (f *Fake) AnswerLate(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.late += n
}

// Sends counts the send-message calls that reached an account, answered or
// failed.
func (f *Fake) Sends() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sends
}

var (
	reName  = regexp.MustCompile(`^[a-z0-9_]{1,512}$`)
	reParam = regexp.MustCompile(`\{\{(\d+)\}\}`)
	// a body that starts or ends with a parameter.
	reEdgeParam = regexp.MustCompile(`^\{\{\d+\}\}|\{\{\d+\}\}$`)
	reDigits    = regexp.MustCompile(`^[1-9][0-9]{7,14}$`)
	// a body parameter Meta refuses (error 132018).
	reBadParam = regexp.MustCompile(`[\t\n\r]|     `)
	reLang     = regexp.MustCompile(`^[a-z]{2,3}(_[A-Z]{2})?$`)
)

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Count()
	rest, ok := strings.CutPrefix(r.URL.Path, "/"+f.Version+"/")
	if !ok {
		f.refuse(w, http.StatusBadRequest, 2500, "OAuthException", "Unknown path components: "+r.URL.Path+" (want /"+f.Version+"/…)")
		return
	}
	if f.serveApp(w, r, rest) {
		return
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || token == "" {
		f.refuse(w, http.StatusUnauthorized, 190, "OAuthException", "An access token is required to request this resource.")
		return
	}
	parts := strings.Split(rest, "/")
	switch {
	case len(parts) == 1 && r.Method == http.MethodGet:
		a := f.byPhone(parts[0])
		if !f.reach(w, a, parts[0], token) {
			return
		}
		if r.URL.Query().Get("fields") != "display_phone_number,verified_name" {
			f.Problem("phone number read without fields=display_phone_number,verified_name: %q", r.URL.RawQuery)
		}
		writeJSON(w, http.StatusOK, map[string]string{"display_phone_number": a.DisplayPhoneNumber, "verified_name": a.VerifiedName, "id": a.PhoneNumberID})
	case len(parts) == 2 && parts[1] == "message_templates":
		a := f.byWABA(parts[0])
		if !f.reach(w, a, parts[0], token) {
			return
		}
		switch r.Method {
		case http.MethodGet:
			f.listTemplates(w, a)
		case http.MethodPost:
			f.createTemplate(w, r, a)
		default:
			f.refuse(w, http.StatusBadRequest, 100, "OAuthException", "Unsupported method")
		}
	case len(parts) == 2 && parts[1] == "messages" && r.Method == http.MethodPost:
		a := f.byPhone(parts[0])
		if !f.reach(w, a, parts[0], token) {
			return
		}
		f.sends++
		if a.Unregistered && f.registered[a.PhoneNumberID] == "" {
			f.refuse(w, http.StatusBadRequest, 133010, "OAuthException", "Account not registered")
			return
		}
		f.send(w, r, a)
	case len(parts) == 2 && parts[1] == "register" && r.Method == http.MethodPost:
		a := f.byPhone(parts[0])
		if !f.reach(w, a, parts[0], token) {
			return
		}
		f.register(w, r, a)
	case len(parts) == 2 && parts[1] == "subscribed_apps" && (r.Method == http.MethodPost || r.Method == http.MethodDelete):
		a := f.byWABA(parts[0])
		if !f.reach(w, a, parts[0], token) {
			return
		}
		if r.Method == http.MethodDelete {
			f.unsubscribe(w, r, a)
			return
		}
		f.subscribe(w, a)
	default:
		f.refuse(w, http.StatusBadRequest, 100, "GraphMethodException", "Unsupported "+r.Method+" request: "+r.URL.Path)
	}
}

// reach answers as Meta does for an object the token cannot reach: a token
// no account has is invalid (190); a valid token and an id it does not
// know, "does not exist" (100).
func (f *Fake) reach(w http.ResponseWriter, a *Account, id, token string) bool {
	if a != nil && a.Token == token {
		return true
	}
	known := false
	for _, o := range f.accounts {
		known = known || o.Token == token
	}
	if !known {
		f.refuse(w, http.StatusUnauthorized, 190, "OAuthException", "Invalid OAuth access token - Cannot parse access token")
		return false
	}
	f.refuse(w, http.StatusBadRequest, 100, "GraphMethodException", "Unsupported request. Object with ID '"+id+"' does not exist, cannot be loaded due to missing permissions, or does not support this operation.")
	return false
}

func (f *Fake) listTemplates(w http.ResponseWriter, a *Account) {
	data := []map[string]string{}
	for _, t := range f.templates[a.WABAID] {
		data = append(data, map[string]string{"name": t.Name, "language": t.Language, "status": t.Status, "category": t.Category, "id": t.ID})
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data, "paging": map[string]any{"cursors": map[string]string{"before": "MAZDZD", "after": "MjQZD"}}})
}

// createTemplate checks a template as the Message Templates API documents it.
func (f *Fake) createTemplate(w http.ResponseWriter, r *http.Request, a *Account) {
	var in struct {
		Name       string `json:"name"`
		Language   string `json:"language"`
		Category   string `json:"category"`
		Components []struct {
			Type    string `json:"type"`
			Text    string `json:"text"`
			Example *struct {
				BodyText [][]string `json:"body_text"`
			} `json:"example"`
			Buttons []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"buttons"`
		} `json:"components"`
	}
	if !f.decode(w, r, &in) {
		return
	}
	bad := func(msg string) { f.invalid(w, msg) }
	switch {
	case !reName.MatchString(in.Name):
		bad("name must be lowercase letters, digits and underscores: " + in.Name)
		return
	case !reLang.MatchString(in.Language):
		bad("language must be a locale code such as pt_BR: " + in.Language)
		return
	}
	switch strings.ToUpper(in.Category) {
	case "UTILITY", "MARKETING", "AUTHENTICATION":
	default:
		bad("category must be UTILITY, MARKETING or AUTHENTICATION: " + in.Category)
		return
	}
	t := &Template{ID: connecttest.RandDigits(16), Name: in.Name, Language: in.Language, Category: strings.ToUpper(in.Category), Status: "PENDING"}
	if a.AutoApprove {
		t.Status = "APPROVED"
	}
	bodies := 0
	for _, c := range in.Components {
		switch strings.ToUpper(c.Type) {
		case "BODY":
			bodies++
			if strings.TrimSpace(c.Text) == "" || len(c.Text) > 1024 {
				bad("body text must have 1 to 1024 characters")
				return
			}
			t.Body = c.Text
			// Meta's template guidelines: a variable parameter may not
			// open or close the body (fixed text must frame it).
			if body := strings.TrimSpace(c.Text); reEdgeParam.MatchString(body) {
				bad("body text must not start or end with a parameter")
				return
			}
			nums := reParam.FindAllStringSubmatch(c.Text, -1)
			for i, m := range nums {
				if m[1] != fmt.Sprint(i+1) {
					bad("body parameters must be {{1}}, {{2}}, … in order")
					return
				}
			}
			t.Params = len(nums)
			if t.Params > 0 && (c.Example == nil || len(c.Example.BodyText) != 1 || len(c.Example.BodyText[0]) != t.Params) {
				bad("body with parameters needs example.body_text with one value per parameter")
				return
			}
		case "BUTTONS":
			if len(c.Buttons) == 0 || len(c.Buttons) > 10 {
				bad("a BUTTONS component has 1 to 10 buttons")
				return
			}
			for _, b := range c.Buttons {
				if b.Type != "QUICK_REPLY" {
					bad("unexpected button type " + b.Type + " (the fake knows QUICK_REPLY)")
					return
				}
				if n := len([]rune(b.Text)); n == 0 || n > 25 {
					bad("a quick-reply button's text has 1 to 25 characters")
					return
				}
				t.QuickReplies = append(t.QuickReplies, b.Text)
			}
		case "HEADER", "FOOTER":
		default:
			bad("unknown component type " + c.Type)
			return
		}
	}
	if bodies != 1 {
		bad("a template has exactly one BODY component")
		return
	}
	for _, o := range f.templates[a.WABAID] {
		if o.Name == t.Name && o.Language == t.Language {
			f.refuseSub(w, http.StatusBadRequest, 100, 2388024, "OAuthException", "Message template already exists: there is already "+t.Language+" content for this template.")
			return
		}
	}
	f.templates[a.WABAID] = append(f.templates[a.WABAID], t)
	writeJSON(w, http.StatusOK, map[string]string{"id": t.ID, "status": t.Status, "category": t.Category})
}

// send checks a template message as the messages reference documents it.
func (f *Fake) send(w http.ResponseWriter, r *http.Request, a *Account) {
	var in struct {
		MessagingProduct string `json:"messaging_product"`
		RecipientType    string `json:"recipient_type"`
		To               string `json:"to"`
		Type             string `json:"type"`
		Text             *struct {
			Body       string `json:"body"`
			PreviewURL bool   `json:"preview_url"`
		} `json:"text"`
		CallbackData *string `json:"biz_opaque_callback_data"`
		Template     *struct {
			Name     string `json:"name"`
			Language struct {
				Code string `json:"code"`
			} `json:"language"`
			Components []struct {
				Type       string `json:"type"`
				SubType    string `json:"sub_type"`
				Index      any    `json:"index"`
				Parameters []struct {
					Type    string `json:"type"`
					Text    string `json:"text"`
					Payload string `json:"payload"`
				} `json:"parameters"`
			} `json:"components"`
		} `json:"template"`
	}
	if !f.decode(w, r, &in) {
		return
	}
	switch {
	case in.MessagingProduct != "whatsapp":
		f.invalid(w, `messaging_product must be "whatsapp"`)
		return
	case in.RecipientType != "" && in.RecipientType != "individual":
		f.invalid(w, `recipient_type must be "individual"`)
		return
	case !reDigits.MatchString(in.To):
		f.invalid(w, "to must be the phone number in E.164 digits without '+': "+in.To)
		return
	case in.Type == "text":
		f.sendText(w, a, in.To, in.Text)
		return
	case in.Type != "template" || in.Template == nil:
		f.invalid(w, `type must be "template" (with a template object) or "text"`)
		return
	}
	if e, ok := f.NextFailure(); ok {
		f.refuse(w, e.status, e.code, "OAuthException", e.msg)
		return
	}
	var t *Template
	for _, o := range f.templates[a.WABAID] {
		if o.Name == in.Template.Name && o.Language == in.Template.Language.Code {
			t = o
		}
	}
	if t == nil {
		f.refuse(w, http.StatusNotFound, 132001, "OAuthException", "(#132001) Template name does not exist in the translation")
		return
	}
	if t.Status != "APPROVED" {
		f.refuse(w, http.StatusBadRequest, 132015, "OAuthException", "(#132015) Template is not approved: "+t.Status)
		return
	}
	m := Message{ID: "wamid." + randHex(24), PhoneNumberID: a.PhoneNumberID, To: in.To, Template: t.Name, Language: t.Language, Payloads: map[int]string{}, At: time.Now()}
	for _, c := range in.Template.Components {
		switch c.Type {
		case "body":
			for _, p := range c.Parameters {
				if p.Type != "text" {
					f.invalid(w, "body parameters must be of type text")
					return
				}
				if reBadParam.MatchString(p.Text) {
					// Meta refuses a text parameter with a new line, a tab or
					// more than four consecutive spaces, for good.
					f.refuse(w, http.StatusBadRequest, 132018, "OAuthException", "(#132018) There was an issue with the parameters in your template. Param text cannot have new-line/tab characters or more than 4 consecutive spaces")
					return
				}
				m.Body = append(m.Body, p.Text)
			}
		case "button":
			idx, ok := c.Index.(string)
			var n int
			if _, err := fmt.Sscan(idx, &n); !ok || err != nil || n < 0 || n >= len(t.QuickReplies) {
				f.invalid(w, fmt.Sprintf("button index must be a string from \"0\" to \"%d\"", len(t.QuickReplies)-1))
				return
			}
			if c.SubType != "quick_reply" || len(c.Parameters) != 1 || c.Parameters[0].Type != "payload" || c.Parameters[0].Payload == "" {
				f.invalid(w, `a quick-reply button needs sub_type "quick_reply" and one parameter {type:"payload",payload}`)
				return
			}
			if _, dup := m.Payloads[n]; dup {
				f.invalid(w, "button index repeated")
				return
			}
			m.Payloads[n] = c.Parameters[0].Payload
		default:
			f.invalid(w, "unexpected component type "+c.Type+" (want body or button)")
			return
		}
	}
	if len(m.Body) != t.Params {
		f.refuse(w, http.StatusBadRequest, 132000, "OAuthException", fmt.Sprintf("(#132000) Number of parameters does not match the expected number of params: got %d, want %d", len(m.Body), t.Params))
		return
	}
	if in.CallbackData != nil {
		// Meta documents it as an arbitrary string of at most 512 characters.
		if len(*in.CallbackData) > 512 {
			f.invalid(w, "biz_opaque_callback_data must be at most 512 characters")
			return
		}
		m.CallbackData = *in.CallbackData
	}
	f.messages = append(f.messages, m)
	if f.late > 0 {
		f.late--
		f.mu.Unlock()
		<-r.Context().Done() // accepted; the answer comes after the caller gave up
		f.mu.Lock()
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"messaging_product": "whatsapp",
		"contacts":          []map[string]string{{"input": in.To, "wa_id": in.To}},
		"messages":          []map[string]string{{"id": m.ID, "message_status": "accepted"}},
	})
}

// sendText accepts a free-form text only inside the customer service
// window: within 24 hours of an inbound message from that number (Meta
// answers 131047 "Re-engagement message" otherwise).
func (f *Fake) sendText(w http.ResponseWriter, a *Account, to string, text *struct {
	Body       string `json:"body"`
	PreviewURL bool   `json:"preview_url"`
}) {
	if text == nil || strings.TrimSpace(text.Body) == "" || len(text.Body) > 4096 {
		f.invalid(w, "a text message needs text.body of 1 to 4096 characters")
		return
	}
	if last, ok := f.inbound[a.PhoneNumberID+"|"+to]; !ok || time.Since(last) > 24*time.Hour {
		f.refuse(w, http.StatusBadRequest, 131047, "OAuthException", "(#131047) Re-engagement message: more than 24 hours have passed since the recipient last replied")
		return
	}
	m := Message{ID: "wamid." + randHex(24), PhoneNumberID: a.PhoneNumberID, To: to, Text: text.Body, At: time.Now()}
	f.messages = append(f.messages, m)
	writeJSON(w, http.StatusOK, map[string]any{
		"messaging_product": "whatsapp",
		"contacts":          []map[string]string{{"input": to, "wa_id": to}},
		"messages":          []map[string]string{{"id": m.ID}},
	})
}

func (f *Fake) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		f.invalid(w, "Content-Type must be application/json, got "+ct)
		return false
	}
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		f.invalid(w, "body is not JSON: "+err.Error())
		return false
	}
	return true
}

func (f *Fake) invalid(w http.ResponseWriter, msg string) {
	f.Problem("%s", msg)
	f.refuse(w, http.StatusBadRequest, 100, "OAuthException", "(#100) Invalid parameter: "+msg)
}

func (f *Fake) refuse(w http.ResponseWriter, status, code int, typ, msg string) {
	f.refuseSub(w, status, code, 0, typ, msg)
}

func (f *Fake) refuseSub(w http.ResponseWriter, status, code, sub int, typ, msg string) {
	e := map[string]any{"message": msg, "type": typ, "code": code, "fbtrace_id": "A" + randHex(10)}
	if sub != 0 {
		e["error_subcode"] = sub
	}
	writeJSON(w, status, map[string]any{"error": e})
}

func (f *Fake) byPhone(id string) *Account {
	for i := range f.accounts {
		if f.accounts[i].PhoneNumberID == id {
			return &f.accounts[i]
		}
	}
	return nil
}

func (f *Fake) byWABA(id string) *Account {
	for i := range f.accounts {
		if f.accounts[i].WABAID == id {
			return &f.accounts[i]
		}
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	connecttest.WriteJSON(w, status, "application/json; charset=UTF-8", v)
}

func randHex(n int) string { return strings.ToUpper(connecttest.RandHex(n)) }

// --- webhooks, as Meta sends them ---

// Sign is the X-Hub-Signature-256 value of body under an app secret.
func Sign(appSecret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(appSecret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Post delivers a webhook body to url signed with the account's app secret,
// as Meta does, and returns the answer's status.
func Post(url, appSecret string, body []byte) (int, error) {
	return PostSigned(url, Sign(appSecret, body), body)
}

// PostSigned delivers a body with the given signature header (a forged one
// in tests that must be refused).
func PostSigned(url, signature string, body []byte) (int, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "facebookexternalua")
	if signature != "" {
		req.Header.Set("X-Hub-Signature-256", signature)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, nil
}

// envelope wraps a change value as the messages webhook does:
// {"object":"whatsapp_business_account","entry":[{"id":WABA,"changes":[{"value":…,"field":"messages"}]}]}.
func (a Account) envelope(value map[string]any) []byte {
	value["messaging_product"] = "whatsapp"
	value["metadata"] = map[string]string{"display_phone_number": digitsOf(a.DisplayPhoneNumber), "phone_number_id": a.PhoneNumberID}
	b, _ := json.Marshal(map[string]any{
		"object": "whatsapp_business_account",
		"entry":  []any{map[string]any{"id": a.WABAID, "changes": []any{map[string]any{"value": value, "field": "messages"}}}},
	})
	return b
}

// ButtonReply is the webhook of a client tapping a template's quick-reply
// button: a message of type "button" whose context names the message
// tapped, with the button's payload and text. The fake notes it: the tap
// opens the 24-hour window in which free-form replies may go.
func (f *Fake) ButtonReply(a Account, inboundID, from, context, payload, text string, at time.Time) []byte {
	f.mu.Lock()
	f.inbound[a.PhoneNumberID+"|"+from] = time.Now()
	f.mu.Unlock()
	return a.buttonReply(inboundID, from, context, payload, text, at)
}

func (a Account) buttonReply(inboundID, from, context, payload, text string, at time.Time) []byte {
	return a.envelope(map[string]any{
		"contacts": []any{map[string]any{"profile": map[string]string{"name": "Cliente"}, "wa_id": from}},
		"messages": []any{map[string]any{
			"context":   map[string]string{"from": digitsOf(a.DisplayPhoneNumber), "id": context},
			"from":      from,
			"id":        inboundID,
			"timestamp": fmt.Sprint(at.Unix()),
			"type":      "button",
			"button":    map[string]string{"payload": payload, "text": text},
		}},
	})
}

// TextReply is the webhook of a client writing a text in reply to a
// message (WhatsApp's "reply" on it): a message of type "text" whose
// context names the message answered ("" for a text that answers none).
// Like a tap, it opens the 24-hour window.
func (f *Fake) TextReply(a Account, inboundID, from, context, body string, at time.Time) []byte {
	f.mu.Lock()
	f.inbound[a.PhoneNumberID+"|"+from] = time.Now()
	f.mu.Unlock()
	m := map[string]any{"from": from, "id": inboundID, "timestamp": fmt.Sprint(at.Unix()), "type": "text", "text": map[string]string{"body": body}}
	if context != "" {
		m["context"] = map[string]string{"from": digitsOf(a.DisplayPhoneNumber), "id": context}
	}
	return a.envelope(map[string]any{
		"contacts": []any{map[string]any{"profile": map[string]string{"name": "Cliente"}, "wa_id": from}},
		"messages": []any{m},
	})
}

// Status is one status change of a sent message.
type Status struct {
	MessageID, Status, RecipientID string // status: sent, delivered, read, failed
	At                             time.Time
	ErrorCode                      int // failed only, e.g. 131026
	ErrorTitle                     string
	// CallbackData is the sent message's biz_opaque_callback_data, which
	// Meta echoes in its statuses.
	CallbackData string
}

// Statuses is the webhook of status changes of sent messages.
func (a Account) Statuses(ss ...Status) []byte {
	var list []any
	for _, s := range ss {
		st := map[string]any{"id": s.MessageID, "status": s.Status, "timestamp": fmt.Sprint(s.At.Unix()), "recipient_id": s.RecipientID}
		if s.Status != "failed" {
			st["conversation"] = map[string]any{"id": randHex(16), "origin": map[string]string{"type": "utility"}}
			st["pricing"] = map[string]any{"billable": true, "pricing_model": "PMP", "category": "utility"}
		}
		if s.CallbackData != "" {
			st["biz_opaque_callback_data"] = s.CallbackData
		}
		if s.ErrorCode != 0 {
			st["errors"] = []any{map[string]any{"code": s.ErrorCode, "title": s.ErrorTitle, "message": s.ErrorTitle}}
		}
		list = append(list, st)
	}
	return a.envelope(map[string]any{"statuses": list})
}

func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
