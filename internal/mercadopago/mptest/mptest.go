// Package mptest is an in-process fake of the Mercado Pago API endpoints
// Agendei calls (GET /users/me, POST /v1/payments for Pix, GET
// /v1/payments/{id}), for tests: no test reaches the internet. It checks
// each request as Mercado Pago documents it — the Bearer token of a known
// account, the X-Idempotency-Key a POST must carry (the same key answers
// the same payment, never a second one), a JSON body with only known
// fields (error 8 otherwise), transaction_amount a positive number with at
// most two decimals, payment_method_id "pix", a payer e-mail, a valid
// notification_url (error 4020), date_of_expiration in
// "yyyy-MM-dd'T'HH:mm:ss.SSSz" (error 23) between 30 minutes and 30 days
// ahead — answers as Mercado Pago does (including its error shape), keeps
// the payments, lets a test approve one, and sends the payment webhook
// signed as Mercado Pago signs it: x-signature "ts=<unix seconds>,v1=<hex
// HMAC-SHA256 of "id:<data.id>;request-id:<x-request-id>;ts:<ts>;" under
// the account's secret>", x-request-id, the notification URL with
// ?data.id=…&type=payment, and the body {"type":"payment","action":…,"data":{"id":…}}.
// It also plays the OAuth side of an integrator's application (oauth.go):
// the authorization page and POST /oauth/token, with PKCE and rotating
// refresh tokens. It is independent of the client it tests.
package mptest

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agendei/agendei/internal/pix"
	"github.com/agendei/agendei/internal/platform/connect/connecttest"
)

// Account is one Mercado Pago seller on the fake, reached with Token; its
// webhook notifications are signed with WebhookSecret.
type Account struct {
	UserID        int64
	Token         string
	WebhookSecret string
	Nickname      string
	Email         string
	SiteID        string // MLB for Brazil

	viaApp bool // the request's token was issued by the application's OAuth
}

// Payment is a Pix payment as the fake keeps it.
type Payment struct {
	ID                int64
	UserID            int64  // the seller's
	Token             string // the token it was made with
	ViaApp            bool   // made with a token the application's OAuth issued
	IdempotencyKey    string
	AmountCents       int64
	Description       string
	ExternalReference string
	PayerEmail        string
	NotificationURL   string
	Status            string
	StatusDetail      string
	CreatedAt         time.Time
	ExpiresAt         time.Time
	ApprovedAt        time.Time
	QRCode            string
}

// Fake is the Mercado Pago API double.
type Fake struct {
	// Now is the fake's clock (expiry checks and the webhook's ts); it
	// defaults to time.Now and follows the server's clock when a test sets it.
	Now func() time.Time
	// Base counts the requests, keeps the problems and the statuses the
	// next requests fail with.
	connecttest.Base[int]

	mu       sync.Mutex
	accounts []Account
	payments map[int64]*Payment
	idem     map[string]idemEntry // token|key → payment and the body it answered
	nextID   int64
	creates  int
	slowNext []time.Duration

	// OAuth (oauth.go)
	app        *App
	authorizer int64
	deny       bool
	codes      map[string]*grantCode
	issued     map[string]issued // access tokens issued by /oauth/token
	refresh    map[string]int64  // refresh token → account, good once
	grants     int
}

type idemEntry struct {
	id   int64
	body string
}

// New starts a fake; Close stops it.
func New() *Fake {
	f, h := NewHandler()
	f.Start(h)
	return f
}

// NewHandler is the fake behind a handler the caller serves (cmd/mpfake,
// for the browser tests).
func NewHandler() (*Fake, http.Handler) {
	f := &Fake{Now: time.Now, payments: map[int64]*Payment{}, idem: map[string]idemEntry{}, nextID: 1310000000 + randInt(1e6),
		codes: map[string]*grantCode{}, issued: map[string]issued{}, refresh: map[string]int64{}}
	return f, http.HandlerFunc(f.serve)
}

// AddAccount registers a seller. Zero fields get plausible values.
func (f *Fake) AddAccount(a Account) Account {
	if a.UserID == 0 {
		a.UserID = 100000000 + randInt(9e8)
	}
	if a.Token == "" {
		a.Token = fmt.Sprintf("APP_USR-%d-%s-%s-%d", randInt(9e15), connecttest.RandHex(3), connecttest.RandHex(16), a.UserID)
	}
	if a.WebhookSecret == "" {
		a.WebhookSecret = connecttest.RandHex(32)
	}
	if a.Nickname == "" {
		a.Nickname = "CLINICATESTE"
	}
	if a.Email == "" {
		a.Email = "financeiro@clinica.example"
	}
	if a.SiteID == "" {
		a.SiteID = "MLB"
	}
	f.mu.Lock()
	f.accounts = append(f.accounts, a)
	f.mu.Unlock()
	return a
}

// Payment returns a payment by id.
func (f *Fake) Payment(id string) (Payment, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, _ := strconv.ParseInt(id, 10, 64)
	p, ok := f.payments[n]
	if !ok {
		return Payment{}, false
	}
	return *p, true
}

// Payments lists the payments created so far.
func (f *Fake) Payments() []Payment {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Payment
	for _, p := range f.payments {
		out = append(out, *p)
	}
	return out
}

// Approve marks a payment paid, as when the client pays the Pix.
func (f *Fake) Approve(id string) { f.setStatus(id, "approved", "accredited") }

// Cancel marks a payment cancelled, as when its Pix expires unpaid.
func (f *Fake) Cancel(id string) { f.setStatus(id, "cancelled", "expired") }

func (f *Fake) setStatus(id, status, detail string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, _ := strconv.ParseInt(id, 10, 64)
	if p, ok := f.payments[n]; ok {
		p.Status, p.StatusDetail = status, detail
		if status == "approved" {
			p.ApprovedAt = f.Now()
		}
	}
}

// FailNext makes the next n requests answer the HTTP status given (e.g.
// 503 for Mercado Pago's fault, 429 for throttling).
func (f *Fake) FailNext(n, status int) { f.Fail(n, status) }

// SlowNext makes the next n payment creations answer only after d — the
// payment is still made, as Mercado Pago makes one whose answer the caller
// stopped waiting for.
func (f *Fake) SlowNext(n int, d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range n {
		f.slowNext = append(f.slowNext, d)
	}
}

// Creates counts the POST /v1/payments that made a new payment.
func (f *Fake) Creates() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.creates
}

var (
	reEmail = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	reDate  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?([+-]\d{2}:\d{2}|Z)$`)
	reAmt   = regexp.MustCompile(`^\d+(\.\d{1,2})?$`)
	rePath  = regexp.MustCompile(`^/v1/payments/(\d+)$`)
)

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	f.Count()
	if st, ok := f.NextFailure(); ok {
		writeErr(w, st, "internal_error", "fake failure", 0, "")
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/authorization" {
		f.authorize(w, r)
		return
	}
	if r.Method == http.MethodPost && r.URL.Path == "/oauth/token" {
		f.token(w, r)
		return
	}
	a := f.auth(r)
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/users/me":
		if a == nil {
			writeErr(w, http.StatusUnauthorized, "unauthorized", "invalid access token", 0, "")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": a.UserID, "nickname": a.Nickname, "email": a.Email, "site_id": a.SiteID,
			"first_name": "Clínica", "last_name": "Teste", "country_id": countryOf(a.SiteID)})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/payments":
		if a == nil {
			writeErr(w, http.StatusUnauthorized, "unauthorized", "invalid access token", 0, "")
			return
		}
		f.mu.Lock()
		var wait time.Duration
		if len(f.slowNext) > 0 {
			wait, f.slowNext = f.slowNext[0], f.slowNext[1:]
		}
		f.mu.Unlock()
		time.Sleep(wait)
		f.create(w, r, a)
	case r.Method == http.MethodGet && rePath.MatchString(r.URL.Path):
		if a == nil {
			writeErr(w, http.StatusUnauthorized, "unauthorized", "invalid access token", 0, "")
			return
		}
		id, _ := strconv.ParseInt(rePath.FindStringSubmatch(r.URL.Path)[1], 10, 64)
		f.mu.Lock()
		p, ok := f.payments[id]
		var out map[string]any
		if ok && p.UserID == a.UserID {
			out = f.render(p)
		}
		f.mu.Unlock()
		if out == nil {
			writeErr(w, http.StatusNotFound, "not_found", "Payment not found", 2000, "Payment not found")
			return
		}
		writeJSON(w, http.StatusOK, out)
	default:
		f.Problem("unexpected request %s %s", r.Method, r.URL.Path)
		writeErr(w, http.StatusNotFound, "not_found", "resource not found", 0, "")
	}
}

// auth finds the account of the request's "Authorization: Bearer <token>".
func (f *Fake) auth(r *http.Request) *Account {
	tok := connecttest.Bearer(r)
	if tok == "" {
		f.Problem("%s %s without Authorization: Bearer", r.Method, r.URL.Path)
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id := int64(0)
	if is, ok := f.issued[tok]; ok && f.Now().Before(is.expires) {
		id = is.userID
	}
	for i := range f.accounts {
		if f.accounts[i].Token == tok || (id != 0 && f.accounts[i].UserID == id) {
			a := f.accounts[i]
			a.viaApp = id != 0
			return &a
		}
	}
	return nil
}

type pixBody struct {
	TransactionAmount json.Number `json:"transaction_amount"`
	Description       *string     `json:"description"`
	PaymentMethodID   string      `json:"payment_method_id"`
	Payer             *struct {
		Email string `json:"email"`
	} `json:"payer"`
	ExternalReference *string `json:"external_reference"`
	NotificationURL   *string `json:"notification_url"`
	DateOfExpiration  *string `json:"date_of_expiration"`
}

func (f *Fake) create(w http.ResponseWriter, r *http.Request, a *Account) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		f.Problem("POST /v1/payments with Content-Type %q", ct)
		writeErr(w, http.StatusBadRequest, "bad_request", "Content-Type must be application/json", 1, "Params Error")
		return
	}
	key := r.Header.Get("X-Idempotency-Key")
	if key == "" {
		f.Problem("POST /v1/payments without X-Idempotency-Key")
		writeErr(w, http.StatusBadRequest, "bad_request", "Header X-Idempotency-Key can't be null", 1, "Params Error")
		return
	}
	var raw bytes.Buffer
	if _, err := raw.ReadFrom(http.MaxBytesReader(w, r.Body, 1<<20)); err != nil {
		writeErr(w, http.StatusBadRequest, "bad_request", "Params Error", 1, "Params Error")
		return
	}
	var b pixBody
	dec := json.NewDecoder(bytes.NewReader(raw.Bytes()))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		f.Problem("POST /v1/payments body: %v", err)
		if strings.Contains(err.Error(), "unknown field") {
			writeErr(w, http.StatusBadRequest, "bad_request", "The name of the following parameters is wrong : "+err.Error(), 8, "The name of the following parameters is wrong")
		} else {
			writeErr(w, http.StatusBadRequest, "bad_request", "Params Error", 1, "Params Error")
		}
		return
	}
	f.mu.Lock()
	if e, ok := f.idem[strconv.FormatInt(a.UserID, 10)+"|"+key]; ok {
		p := f.payments[e.id]
		if e.body != raw.String() {
			f.Problem("X-Idempotency-Key %s reused with a different body", key)
		}
		out := f.render(p)
		f.mu.Unlock()
		writeJSON(w, http.StatusCreated, out)
		return
	}
	f.mu.Unlock()
	now := f.Now()
	amount := string(b.TransactionAmount)
	var exp time.Time
	var err error
	switch {
	case !reAmt.MatchString(amount) || strings.Trim(strings.ReplaceAll(amount, ".", ""), "0") == "":
		f.invalid(w, 4037, "Invalid transaction_amount", "transaction_amount %q", amount)
	case b.PaymentMethodID != "pix":
		f.invalid(w, 4020, "payment_method_id must be pix", "payment_method_id %q", b.PaymentMethodID)
	case b.Payer == nil || !reEmail.MatchString(b.Payer.Email):
		f.invalid(w, 4050, "payer.email must be a valid email", "payer %+v", b.Payer)
	case b.Description == nil || len(*b.Description) > 600:
		f.invalid(w, 1, "description must be a string of at most 600 characters", "description %v", b.Description)
	case b.ExternalReference == nil || *b.ExternalReference == "" || len(*b.ExternalReference) > 64:
		f.invalid(w, 1, "external_reference must be a string of at most 64 characters", "external_reference %v", b.ExternalReference)
	case b.NotificationURL == nil || !validURL(*b.NotificationURL):
		f.invalid(w, 4020, "notification_url attribute must be url valid", "notification_url %v", b.NotificationURL)
	case b.DateOfExpiration == nil || !reDate.MatchString(*b.DateOfExpiration):
		f.invalid(w, 23, "The following parameters must be valid date and format (yyyy-MM-dd'T'HH:mm:ssz) date_of_expiration", "date_of_expiration %v", b.DateOfExpiration)
	default:
		if exp, err = time.Parse(time.RFC3339, *b.DateOfExpiration); err != nil {
			f.invalid(w, 23, "The following parameters must be valid date and format (yyyy-MM-dd'T'HH:mm:ssz) date_of_expiration", "date_of_expiration %v", b.DateOfExpiration)
			return
		}
		if exp.Before(now.Add(30*time.Minute-time.Minute)) || exp.After(now.Add(30*24*time.Hour)) {
			f.invalid(w, 4023, "date_of_expiration for pix must be between 30 minutes and 30 days ahead", "date_of_expiration %s (now %s)", exp, now)
			return
		}
		cents := centsOf(amount)
		f.mu.Lock()
		f.nextID++
		p := &Payment{ID: f.nextID, UserID: a.UserID, ViaApp: a.viaApp, Token: connecttest.Bearer(r), IdempotencyKey: key, AmountCents: cents, Description: *b.Description,
			ExternalReference: *b.ExternalReference, PayerEmail: b.Payer.Email, NotificationURL: *b.NotificationURL,
			Status: "pending", StatusDetail: "pending_waiting_transfer", CreatedAt: now, ExpiresAt: exp}
		p.QRCode = brCode(p)
		f.payments[p.ID] = p
		f.idem[strconv.FormatInt(a.UserID, 10)+"|"+key] = idemEntry{p.ID, raw.String()}
		f.creates++
		out := f.render(p)
		f.mu.Unlock()
		writeJSON(w, http.StatusCreated, out)
	}
}

func (f *Fake) invalid(w http.ResponseWriter, code int, msg, format string, args ...any) {
	f.Problem("POST /v1/payments: "+format, args...)
	writeErr(w, http.StatusBadRequest, "bad_request", msg, code, msg)
}

// render is the payment object as the API answers it (f.mu held).
func (f *Fake) render(p *Payment) map[string]any {
	out := map[string]any{
		"id":                 p.ID,
		"status":             p.Status,
		"status_detail":      p.StatusDetail,
		"transaction_amount": json.Number(reais(p.AmountCents)),
		"currency_id":        "BRL",
		"description":        p.Description,
		"external_reference": p.ExternalReference,
		"payment_method_id":  "pix",
		"payment_type_id":    "bank_transfer",
		"date_created":       p.CreatedAt.Format(layout),
		"date_of_expiration": p.ExpiresAt.Format(layout),
		"date_approved":      nil,
		"notification_url":   p.NotificationURL,
		"payer":              map[string]any{"email": p.PayerEmail},
		"point_of_interaction": map[string]any{"type": "PIX", "transaction_data": map[string]any{
			"qr_code":        p.QRCode,
			"qr_code_base64": qrPNG(p.QRCode),
			"ticket_url":     fmt.Sprintf("https://www.mercadopago.com.br/payments/%d/ticket?caller_id=%d", p.ID, p.ID%1000),
		}},
	}
	if !p.ApprovedAt.IsZero() {
		out["date_approved"] = p.ApprovedAt.Format(layout)
	}
	return out
}

const layout = "2006-01-02T15:04:05.000-07:00"

// Notification is a webhook the fake is about to send: a test may change
// any part (to forge, replay or age it) before Send.
type Notification struct {
	URL       string // the notification URL with ?data.id=…&type=payment
	RequestID string // x-request-id
	Signature string // x-signature
	Body      []byte
}

// Notify is the payment webhook for a payment, to its notification_url,
// signed with the account's secret at the fake's clock.
func (f *Fake) Notify(paymentID string) *Notification {
	f.mu.Lock()
	n, _ := strconv.ParseInt(paymentID, 10, 64)
	p, ok := f.payments[n]
	var secret, to string
	if ok {
		to = p.NotificationURL
		for _, a := range f.accounts {
			if a.UserID == p.UserID {
				secret = a.WebhookSecret
			}
		}
		if p.ViaApp && f.app != nil {
			// A payment made with the application's OAuth token notifies
			// signed with the application's secret.
			secret = f.app.WebhookSecret
		}
	}
	f.mu.Unlock()
	if !ok {
		panic("mptest: no payment " + paymentID)
	}
	return f.NotifyTo(to, secret, paymentID, "payment.updated")
}

// NotifyTo is a payment webhook to any URL (the one set in the panel),
// signed with secret as Mercado Pago signs it.
func (f *Fake) NotifyTo(to, secret, paymentID, action string) *Notification {
	u, err := url.Parse(to)
	if err != nil {
		panic(err)
	}
	q := u.Query()
	q.Set("data.id", paymentID)
	q.Set("type", "payment")
	u.RawQuery = q.Encode()
	reqID := uuid()
	ts := strconv.FormatInt(f.Now().Unix(), 10)
	body, _ := json.Marshal(map[string]any{
		"id": randInt(1e11), "live_mode": true, "type": "payment", "date_created": f.Now().Format(layout),
		"user_id": "0", "api_version": "v1", "action": action, "data": map[string]string{"id": paymentID},
	})
	return &Notification{URL: u.String(), RequestID: reqID, Signature: "ts=" + ts + ",v1=" + Sign(secret, paymentID, reqID, ts), Body: body}
}

// Sign is the v1 of an x-signature: hex HMAC-SHA256 under secret of
// "id:<data.id lowercased>;request-id:<x-request-id>;ts:<ts>;", where — as
// the documentation says — a value the notification does not carry is
// removed from the template, with its name.
func Sign(secret, dataID, requestID, ts string) string {
	m := hmac.New(sha256.New, []byte(secret))
	if dataID != "" {
		fmt.Fprintf(m, "id:%s;", strings.ToLower(dataID))
	}
	if requestID != "" {
		fmt.Fprintf(m, "request-id:%s;", requestID)
	}
	if ts != "" {
		fmt.Fprintf(m, "ts:%s;", ts)
	}
	return hex.EncodeToString(m.Sum(nil))
}

// NotifyWithoutID is a signed notification whose URL carries no data.id
// (Mercado Pago sends some that way): signed without that part.
func (f *Fake) NotifyWithoutID(to, secret, kind string) *Notification {
	u, err := url.Parse(to)
	if err != nil {
		panic(err)
	}
	q := u.Query()
	q.Set("type", kind)
	u.RawQuery = q.Encode()
	reqID := uuid()
	ts := strconv.FormatInt(f.Now().Unix(), 10)
	body, _ := json.Marshal(map[string]any{
		"id": randInt(1e11), "live_mode": true, "type": kind, "date_created": f.Now().Format(layout),
		"user_id": "0", "api_version": "v1", "action": kind + ".updated", "data": map[string]string{},
	})
	return &Notification{URL: u.String(), RequestID: reqID, Signature: "ts=" + ts + ",v1=" + Sign(secret, "", reqID, ts), Body: body}
}

// IPN is the older notice format for a payment: ?topic=payment&id=…, with no
// body of note and, as Mercado Pago's documentation says, no signature.
func (f *Fake) IPN(to, paymentID string) *Notification {
	u, err := url.Parse(to)
	if err != nil {
		panic(err)
	}
	q := u.Query()
	q.Set("topic", "payment")
	q.Set("id", paymentID)
	u.RawQuery = q.Encode()
	return &Notification{URL: u.String(), Body: []byte(`{"resource":"` + paymentID + `","topic":"payment"}`)}
}

// Send delivers the notification and returns the HTTP status answered.
func (n *Notification) Send() (int, error) {
	req, err := http.NewRequest(http.MethodPost, n.URL, bytes.NewReader(n.Body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if n.RequestID != "" {
		req.Header.Set("x-request-id", n.RequestID)
	}
	if n.Signature != "" {
		req.Header.Set("x-signature", n.Signature)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

func writeErr(w http.ResponseWriter, status int, code, msg string, causeCode int, causeDesc string) {
	cause := []map[string]any{}
	if causeCode != 0 {
		cause = append(cause, map[string]any{"code": causeCode, "description": causeDesc, "data": nil})
	}
	writeJSON(w, status, map[string]any{"message": msg, "error": code, "status": status, "cause": cause})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	connecttest.WriteJSON(w, status, "application/json;charset=UTF-8", v)
}

func validURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && len(s) <= 500
}

func countryOf(site string) string {
	if site == "MLB" {
		return "BR"
	}
	return "AR"
}

func centsOf(amount string) int64 {
	whole, frac, _ := strings.Cut(amount, ".")
	frac = (frac + "00")[:2]
	w, _ := strconv.ParseInt(whole, 10, 64)
	c, _ := strconv.ParseInt(frac, 10, 64)
	return w*100 + c
}

func reais(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }

// brCode is a dynamic Pix BR Code (EMV) for the payment, closed with the
// CRC16 of the BR Code manual as internal/pix computes it.
func brCode(p *Payment) string {
	f := func(id, v string) string { return fmt.Sprintf("%s%02d%s", id, len(v), v) }
	mai := f("00", "br.gov.bcb.pix") + f("25", fmt.Sprintf("qr.mercadopago.example/pix/v2/%s", uuid()))
	return pix.WithCRC(f("00", "01") + f("01", "12") + f("26", mai) + f("52", "0000") + f("53", "986") + f("54", reais(p.AmountCents)) +
		f("58", "BR") + f("59", "CLINICA TESTE") + f("60", "SAO PAULO") + f("62", f("05", "***")))
}

// qrPNG is a small PNG standing for the QR image (base64, as the API
// sends it); its pattern comes from the text, it is not a scannable QR.
func qrPNG(text string) string {
	sum := sha256.Sum256([]byte(text))
	img := image.NewGray(image.Rect(0, 0, 25, 25))
	for y := range 25 {
		for x := range 25 {
			bit := sum[(y*25+x)/8%32] >> ((y*25 + x) % 8) & 1
			img.SetGray(x, y, color.Gray{Y: 255 * (1 - bit)})
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

func randInt(max int64) int64 {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	var n uint64
	for _, c := range b {
		n = n<<8 | uint64(c)
	}
	return int64(n % uint64(max))
}

func uuid() string {
	h := connecttest.RandHex(16)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
