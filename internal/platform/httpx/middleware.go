package httpx

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
)

type requestKey struct{}

// request is what Observe attaches to a request's context: its id, and the
// logger carrying it, made on first use (most requests log nothing).
type request struct {
	id   string
	base *slog.Logger
	log  atomic.Pointer[slog.Logger]
}

func (q *request) logger() *slog.Logger {
	if l := q.log.Load(); l != nil {
		return l
	}
	l := q.base.With("request_id", q.id)
	q.log.Store(l)
	return l
}

// RequestID returns the request id the middleware gave this request.
func RequestID(ctx context.Context) string {
	if q, ok := ctx.Value(requestKey{}).(*request); ok {
		return q.id
	}
	return ""
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Flush lets streaming responses (Server-Sent Events) through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Hijack hands the connection to a handler that answers on it itself (the
// owner's event stream writes its own 200 head): it is logged and counted
// as a 200.
func (s *statusRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(s.ResponseWriter).Hijack()
	if err == nil && s.status == 0 {
		s.status = http.StatusOK
	}
	return conn, rw, err
}

// Observe gives each request an id (X-Request-Id, honoured when sane), a
// logger carrying it, a log line when it ends, Prometheus metrics, and turns a
// panic into a logged 500.
func Observe(log *slog.Logger, m *Metrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			id := r.Header.Get("X-Request-Id")
			if len(id) < 8 || len(id) > 64 || strings.ContainsFunc(id, func(c rune) bool { return c <= ' ' || c > '~' }) {
				id = newID()
			}
			w.Header()["X-Request-Id"] = []string{id}
			q := &request{id: id, base: log}
			r = r.WithContext(context.WithValue(r.Context(), requestKey{}, q))
			rec := &statusRecorder{ResponseWriter: w}
			defer func() {
				if p := recover(); p != nil {
					if p == http.ErrAbortHandler {
						panic(p)
					}
					q.logger().Error("panic", "panic", p, "stack", string(debug.Stack()))
					if rec.status == 0 {
						WriteError(rec, r, ErrInternal)
					}
				}
				route := r.Pattern
				if route == "" {
					route = "unmatched"
				}
				took := time.Since(start)
				if m != nil {
					m.requests.WithLabelValues(r.Method, route, strconv.Itoa(rec.status)).Inc()
					m.duration.WithLabelValues(r.Method, route).Observe(took.Seconds())
				}
				level := slog.LevelInfo
				if rec.status >= 500 {
					level = slog.LevelError
				} else if strings.HasPrefix(r.URL.Path, "/assets/") || r.URL.Path == "/healthz" || r.URL.Path == "/metrics" {
					level = slog.LevelDebug
				}
				if log.Enabled(r.Context(), level) {
					q.logger().Log(r.Context(), level, "request", "method", r.Method, "path", LogPath(r.URL.Path), "route", route,
						"status", rec.status, "bytes", rec.bytes, "took_ms", took.Milliseconds())
				}
			}()
			next.ServeHTTP(rec, r)
		})
	}
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Metrics are the HTTP metrics exported on /metrics.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewMetrics registers the HTTP metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "agendei_http_requests_total", Help: "HTTP requests by method, route and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "agendei_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// SecurityHeaders sets the strict headers every response carries. The CSP
// allows scripts only from our own origin (the SPA has no inline script);
// inline style attributes are allowed because positioning libraries set them.
//
// Only the pages mayFrame says yes to (the owner's booking widget, by its
// exact route) may be framed, by any site; every other page and answer
// refuses framing. mayFrame gets the escaped path, the form routes are
// matched in.
//
// meta (Meta's Embedded Signup configured, issue 41 §2) lets the app's
// pages — never the framed widget, never an /api answer — load Meta's JS
// SDK from connect.facebook.net, frame and reach facebook.com, and keep
// the link to the sign-up popup it opens (Cross-Origin-Opener-Policy
// same-origin-allow-popups: under same-origin the popup's message to
// its opener, the code and the ids, never arrives). Without it nothing of
// Meta's is allowed anywhere.
func SecurityHeaders(tls bool, mayFrame func(path string) bool, meta bool) func(http.Handler) http.Handler {
	const policy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
		"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
	const metaPolicy = "default-src 'self'; script-src 'self' https://connect.facebook.net; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob: https://*.facebook.com https://*.fbcdn.net; font-src 'self'; " +
		"connect-src 'self' https://*.facebook.com https://connect.facebook.net; frame-src https://*.facebook.com; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; "
	// Each value is one slice every response shares (the header map holds
	// it; nothing changes a value in place, and an append to a full slice
	// copies it): setting them allocates nothing, on every request.
	one := func(v string) []string { return []string{v}[:1:1] }
	framed, unframed, deny := one(policy+"frame-ancestors *"), one(policy+"frame-ancestors 'none'"), one("DENY")
	metaPage, popups := one(metaPolicy+"frame-ancestors 'none'"), one("same-origin-allow-popups")
	common := []struct {
		name  string // canonical
		value []string
	}{
		{"X-Content-Type-Options", one("nosniff")},
		{"Referrer-Policy", one("strict-origin-when-cross-origin")},
		{"Permissions-Policy", one("camera=(), microphone=(), geolocation=(), payment=()")},
		{"Cross-Origin-Opener-Policy", one("same-origin")},
	}
	hsts := one("max-age=63072000; includeSubDomains")
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			if mayFrame(r.URL.EscapedPath()) {
				h["Content-Security-Policy"] = framed
			} else {
				h["Content-Security-Policy"] = unframed
				h["X-Frame-Options"] = deny
			}
			for _, c := range common {
				h[c.name] = c.value
			}
			if meta && !mayFrame(r.URL.EscapedPath()) && !strings.HasPrefix(r.URL.Path, "/api/") && !strings.HasPrefix(r.URL.Path, "/webhooks/") {
				h["Content-Security-Policy"] = metaPage
				h["Cross-Origin-Opener-Policy"] = popups
			}
			if tls || r.TLS != nil {
				h["Strict-Transport-Security"] = hsts
			}
			next.ServeHTTP(w, r)
		})
	}
}

// CSRFHeader is the header every state-changing API request must carry. A
// cross-site form cannot set it, and a cross-site fetch that sets it needs a
// CORS preflight we never grant.
const CSRFHeader = "X-Agendei-Client"

// CSRF rejects state-changing /api requests that lack CSRFHeader or whose
// Origin is not this server (the request's own host, or the configured base URL).
func CSRF(baseURL string) func(http.Handler) http.Handler {
	base, _ := url.Parse(baseURL)
	rejected := NewError(http.StatusForbidden, "csrf_rejected", "Requisição recusada por segurança. Recarregue a página e tente novamente.")
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.Method {
			case http.MethodGet, http.MethodHead, http.MethodOptions:
				next.ServeHTTP(w, r)
				return
			}
			if !strings.HasPrefix(r.URL.Path, "/api/") {
				next.ServeHTTP(w, r)
				return
			}
			if r.Header.Get(CSRFHeader) == "" {
				WriteError(w, r, rejected)
				return
			}
			if origin := r.Header.Get("Origin"); origin != "" {
				o, err := url.Parse(origin)
				sameHost := err == nil && o.Host == r.Host
				sameBase := err == nil && base != nil && o.Scheme == base.Scheme && o.Host == base.Host
				if !sameHost && !sameBase {
					WriteError(w, r, rejected)
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// ClientIP is the address limits count against: the TCP peer, or with
// trustProxy the last address a proxy appended to X-Forwarded-For.
func ClientIP(r *http.Request, trustProxy bool) string {
	if trustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			parts := strings.Split(xff, ",")
			if ip := net.ParseIP(strings.TrimSpace(parts[len(parts)-1])); ip != nil {
				return ip.String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// ErrBadText refuses a path or query that holds NUL or bytes that are not
// UTF-8: no person types them, and PostgreSQL refuses such text outright
// (it would answer a 500), where SQLite merely finds nothing.
var ErrBadText = NewError(http.StatusBadRequest, "invalid_text",
	"O endereço tem caracteres inválidos. Confira o link e tente novamente.")

// RefuseBadText answers ErrBadText to a request whose path or any query
// name or value, decoded, holds NUL or is not valid UTF-8 — once, at the
// edge, so no handler and no database ever sees such text.
func RefuseBadText(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if badText(r.URL.Path) || badQuery(r.URL.RawQuery) {
			WriteError(w, r, ErrBadText)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func badText(s string) bool {
	return strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s)
}

// badQuery decodes each name and value as url.ParseQuery does (a malformed
// escape leaves that pair out, as Request.URL.Query does), without building
// the map on the common request.
func badQuery(raw string) bool {
	if raw == "" || (!strings.ContainsAny(raw, "%\x00") && utf8.ValidString(raw)) {
		return false // the common case: nothing escaped
	}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		name, value, _ := strings.Cut(pair, "=")
		for _, part := range []string{name, value} {
			if s, err := url.QueryUnescape(part); err == nil && badText(s) {
				return true
			}
		}
	}
	return false
}

// LogPath is a request's path as the log keeps it: a segment that is an
// opaque token (a client's private link, an invitation, a calendar feed's
// address: 32 or more URL-safe characters that are not a UUID) is masked,
// so reading the log gives no one a working link.
func LogPath(path string) string {
	parts := strings.Split(path, "/")
	masked := false
	for i, p := range parts {
		name, ext, _ := strings.Cut(p, ".")
		if len(name) >= 32 && !isUUID(name) && !strings.ContainsFunc(name, func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')
		}) {
			parts[i], masked = "…", true
			if ext != "" {
				parts[i] += "." + ext
			}
		}
	}
	if !masked {
		return path
	}
	return strings.Join(parts, "/")
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
