// Package servertest runs the real Agendei server on a fresh database for HTTP
// tests, and checks every response against api/openapi.yaml, so the contract
// and the code cannot drift apart.
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/platform/redact"
	"github.com/agendei/agendei/internal/server"
)

// Env is one running server with its database, clock and mail outbox.
type Env struct {
	T      testing.TB
	DB     *db.DB
	DSN    string // where DB is, for Peer
	Clock  *clock.Manual
	Server *server.Server
	HTTP   *httptest.Server
	Outbox string // folder of .eml files
	Config *config.Config
	// Logs is what the server logged (info and above, redacted as in
	// production), for tests that a text never reaches the log.
	Logs *LogBuffer
}

// LogBuffer keeps a server's log lines; safe for the server's goroutines.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything logged so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Start runs a server on a fresh database of the given engine, with the clock
// at a fixed instant.
func Start(t testing.TB, dialect db.Dialect) *Env {
	t.Helper()
	return StartWith(t, dialect, nil)
}

// StartWith is Start with the configuration adjusted before the server is built.
func StartWith(t testing.TB, dialect db.Dialect, configure func(*config.Config)) *Env {
	t.Helper()
	d, dsn := dbtest.OpenDSN(t, dialect)
	return start(t, d, dsn, clock.NewManual(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)), "", configure)
}

// Peer starts a second server on the same database through its own
// connection pool, as another `agendei serve` instance would, sharing the clock.
func (e *Env) Peer() *Env {
	e.T.Helper()
	return start(e.T, dbtest.Reopen(e.T, e.DSN), e.DSN, e.Clock, e.Outbox, nil)
}

// start runs a server; outbox "" means a new folder, a peer shares its first's
// (as instances share one mail server).
func start(t testing.TB, d *db.DB, dsn string, clk *clock.Manual, outbox string, configure func(*config.Config)) *Env {
	t.Helper()
	dir := t.TempDir()
	cfg, err := config.Parse("test", nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = dir
	if strings.HasPrefix(dsn, "postgres") {
		cfg.DatabaseURL = dsn
	}
	cfg.Secret = "test-secret-test-secret-test-secret!"
	// 32 bytes, base64: seals owners' provider secrets.
	cfg.SecretKey = "dGVzdC1zZWNyZXRzLWtleS10ZXN0LXNlY3JldHMta2U="
	cfg.TrustProxy = true // so tests can pose as many visitors (Client.ForwardedFor)
	// Calendar addresses the tests serve listen on loopback (connect.Guard).
	cfg.OutboundAllow = "127.0.0.0/8,::1"
	// Signs web push; the fake push service (push/pushtest) checks it.
	cfg.VAPIDPrivateKey = vapidKey(t)
	if configure != nil {
		configure(cfg)
	}
	web := fstest.MapFS{
		"index.html":      {Data: []byte("<!doctype html><title>Agendei</title>")},
		"agende.html":     {Data: []byte(`<!doctype html><html><head><title>Agende</title></head><body data-page="agende"></body></html>`)},
		"assets/app-1.js": {Data: []byte("console.log(1)")},
		"assets/big.js":   {Data: bytes.Repeat([]byte("console.log('Agendei');\n"), 200)},
		"favicon.svg":     {Data: []byte("<svg/>")},
	}
	if outbox == "" {
		outbox = filepath.Join(dir, "outbox")
	}
	logs := &LogBuffer{}
	var logOut io.Writer = logs
	if testing.Verbose() {
		logOut = io.MultiWriter(logs, os.Stderr)
	}
	log := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: slog.LevelInfo, ReplaceAttr: redact.Attr}))
	var sender mail.Sender = &mail.Outbox{Dir: outbox, From: cfg.MailFrom}
	if cfg.SMTPURL != "" {
		sender = nil // the SMTP server the test configured (an smtptest.Server): the real sender
	}
	srv, err := server.New(cfg, server.Deps{DB: d, Clock: clk, Log: log, Web: web, Sender: sender})
	if err != nil {
		t.Fatal(err)
	}
	evCtx, stopEvents := context.WithCancel(context.Background())
	srv.StartEvents(evCtx)
	select {
	case <-srv.Events.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("live events did not start")
	}
	hs := httptest.NewServer(srv.Handler)
	t.Cleanup(func() {
		srv.Events.Close()
		hs.Close()
		stopEvents()
	})
	cfg.BaseURL = hs.URL
	srv.WhatsApp.BaseURL = hs.URL
	srv.MercadoPago.BaseURL = hs.URL
	if srv.Calendars.Google != nil {
		srv.Calendars.Google.App.RedirectURI = hs.URL + "/profile/google"
	}
	return &Env{T: t, DB: d, DSN: dsn, Clock: clk, Server: srv, HTTP: hs, Outbox: outbox, Config: cfg, Logs: logs}
}

// Each runs fn against a fresh server on every engine.
func Each(t *testing.T, fn func(t *testing.T, e *Env)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) { fn(t, Start(t, dialect)) })
	}
}

// Client is a browser-like client: a cookie jar, the CSRF header, and the
// access token of the last sign-in.
type Client struct {
	env   *Env
	http  *http.Client
	Token string
	// NoCSRF drops the CSRF header, to test that it is required.
	NoCSRF bool
	Origin string
	// ForwardedFor poses as a visitor at that address (the test server trusts the proxy header).
	ForwardedFor string
	// Headers are added to every request (e.g. Stripe-Signature).
	Headers map[string]string
}

// Client returns a new client with an empty cookie jar.
func (e *Env) Client() *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{env: e, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// As returns a copy of the client that reports failures to t (the inner
// *testing.T of a fuzz target, which may not use the *testing.F).
func (c *Client) As(t testing.TB) *Client {
	env := *c.env
	env.T = t
	cp := *c
	cp.env = &env
	return &cp
}

// Response is a finished response with its body read.
type Response struct {
	*http.Response
	Body []byte
}

// JSON decodes the body into v.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// ErrorBody is the one error shape.
type ErrorBody struct {
	Error struct {
		Code       string `json:"code"`
		Message    string `json:"message"`
		RetryAfter int    `json:"retryAfter"`
	} `json:"error"`
}

// Err decodes the error body.
func (r *Response) Err(t testing.TB) ErrorBody {
	t.Helper()
	var e ErrorBody
	r.JSON(t, &e)
	return e
}

// Do sends a request (body marshalled as JSON unless it is nil or []byte) and
// validates the response against the contract.
func (c *Client) Do(method, path string, body any) *Response {
	t := c.env.T
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatal(err)
		}
	}
	contentType := ""
	if raw != nil {
		contentType = "application/json"
	}
	return c.send(method, path, contentType, raw)
}

// Open sends a bodiless request and returns the response unread (for event
// streams); the caller closes the body, and ctx ends the request.
func (c *Client) Open(ctx context.Context, method, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.env.HTTP.URL+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Agendei-Client", "test")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	return c.http.Do(req)
}

// Upload posts one file as multipart/form-data.
func (c *Client) Upload(path, field, filename string, data []byte) *Response {
	c.env.T.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile(field, filename)
	if err != nil {
		c.env.T.Fatal(err)
	}
	_, _ = fw.Write(data)
	_ = mw.Close()
	return c.send("POST", path, mw.FormDataContentType(), buf.Bytes())
}

func (c *Client) send(method, path, contentType string, raw []byte) *Response {
	t := c.env.T
	t.Helper()
	var rd io.Reader
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.env.HTTP.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if !c.NoCSRF {
		req.Header.Set("X-Agendei-Client", "test")
	}
	if c.Origin != "" {
		req.Header.Set("Origin", c.Origin)
	}
	if c.ForwardedFor != "" {
		req.Header.Set("X-Forwarded-For", c.ForwardedFor)
	}
	for k, v := range c.Headers {
		req.Header.Set(k, v)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	resp := &Response{Response: res, Body: out}
	if strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/webhooks/") || path == "/healthz" || path == "/readyz" {
		req.Body = io.NopCloser(bytes.NewReader(raw))
		validate(t, req, resp)
	}
	return resp
}

// Signup creates an account and keeps its access token.
func (c *Client) Signup(name, email, password, keyword string) *Response {
	c.env.T.Helper()
	r := c.Do("POST", "/api/auth/signup", map[string]string{"name": name, "email": email, "password": password, "recoveryKeyword": keyword})
	if r.StatusCode != http.StatusCreated {
		c.env.T.Fatalf("signup %s: %d %s", email, r.StatusCode, r.Body)
	}
	c.keepToken(r)
	return r
}

// Login signs in and keeps the access token when it succeeds.
func (c *Client) Login(email, password string) *Response {
	c.env.T.Helper()
	r := c.Do("POST", "/api/auth/login", map[string]string{"email": email, "password": password})
	c.keepToken(r)
	return r
}

// Refresh trades the refresh cookie for a new access token (after the
// test's clock moved past the old one's life) and keeps it.
func (c *Client) Refresh() *Response {
	c.env.T.Helper()
	r := c.Do("POST", "/api/auth/refresh", nil)
	if r.StatusCode != http.StatusOK {
		c.env.T.Fatalf("refresh: %d %s", r.StatusCode, r.Body)
	}
	c.keepToken(r)
	return r
}

func (c *Client) keepToken(r *Response) {
	if r.StatusCode/100 == 2 {
		var s struct {
			AccessToken string `json:"accessToken"`
		}
		r.JSON(c.env.T, &s)
		c.Token = s.AccessToken
	}
}

// Cookie returns the value of the named cookie in the jar ("" if none).
func (c *Client) Cookie(name string) string {
	u, _ := http.NewRequest("GET", c.env.HTTP.URL+"/", nil)
	for _, ck := range c.http.Jar.Cookies(u.URL) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

// SetCookie puts a cookie in the jar (to replay an old refresh token).
func (c *Client) SetCookie(name, value string) {
	u, _ := http.NewRequest("GET", c.env.HTTP.URL+"/", nil)
	c.http.Jar.SetCookies(u.URL, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// RunJobs runs every due background job (mail delivery) now.
func (e *Env) RunJobs() {
	e.T.Helper()
	for {
		found, err := e.Server.Queue.RunOnce(context.Background())
		if err != nil {
			e.T.Fatal(err)
		}
		if !found {
			return
		}
	}
}

// Mail is a delivered .eml file.
type Mail struct {
	Name string
	Raw  string
}

// Mails delivers due mail and returns the outbox, oldest first.
func (e *Env) Mails() []Mail {
	e.T.Helper()
	e.RunJobs()
	entries, _ := os.ReadDir(e.Outbox)
	var out []Mail
	for _, en := range entries {
		if !strings.HasSuffix(en.Name(), ".eml") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(e.Outbox, en.Name()))
		if err != nil {
			e.T.Fatal(err)
		}
		out = append(out, Mail{Name: en.Name(), Raw: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

var (
	specOnce   sync.Once
	specRouter routers.Router
	specDoc    *openapi3.T
	specErr    error
)

// Spec is api/openapi.yaml as loaded and validated, for tests derived from it.
func Spec() (*openapi3.T, error) {
	_, err := loadSpec()
	return specDoc, err
}

func loadSpec() (routers.Router, error) {
	specOnce.Do(func() {
		dir, _ := os.Getwd()
		for dir != "/" && dir != "." {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
			dir = filepath.Dir(dir)
		}
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(filepath.Join(dir, "api", "openapi.yaml"))
		if err != nil {
			specErr = err
			return
		}
		if err := doc.Validate(context.Background()); err != nil {
			specErr = err
			return
		}
		doc.Servers = nil // match any host
		specDoc = doc
		// Our CSV is ';'-separated for Brazilian spreadsheets, and an invite is
		// iCalendar: check them as text (their own tests read them).
		asText := func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
			b, err := io.ReadAll(body)
			return string(b), err
		}
		openapi3filter.RegisterBodyDecoder("text/csv", asText)
		openapi3filter.RegisterBodyDecoder("text/calendar", asText)
		specRouter, specErr = gorillamux.NewRouter(doc)
	})
	return specRouter, specErr
}

// validate fails the test when the response is not what api/openapi.yaml
// says that operation answers (status, headers, body schema).
func validate(t testing.TB, req *http.Request, resp *Response) {
	t.Helper()
	router, err := loadSpec()
	if err != nil {
		t.Fatalf("api/openapi.yaml: %v", err)
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			return // unknown paths: checked by their own tests
		}
		t.Fatalf("%s %s is not in api/openapi.yaml: %v", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(resp.Body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Fatalf("%s %s answered %d %s, which breaks api/openapi.yaml: %v", req.Method, req.URL.Path, resp.StatusCode, resp.Body, err)
	}
}

var vapid struct {
	once sync.Once
	key  string
	err  error
}

// vapidKey is one VAPID key for the process's servers (a peer shares it,
// as instances share their configuration).
func vapidKey(t testing.TB) string {
	vapid.once.Do(func() { vapid.key, vapid.err = config.NewVAPIDKey() })
	if vapid.err != nil {
		t.Fatal(vapid.err)
	}
	return vapid.key
}
