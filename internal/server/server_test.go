package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

func TestCSRF_StateChangingRequestsNeedHeaderAndSameOrigin(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		body := map[string]string{"name": "Ana", "email": "ana@example.com", "password": "segredo1", "recoveryKeyword": "gato"}
		c := e.Client()
		c.NoCSRF = true
		if r := c.Do("POST", "/api/auth/signup", body); r.StatusCode != 403 || r.Err(t).Error.Code != "csrf_rejected" {
			t.Fatalf("without header: %d %s", r.StatusCode, r.Body)
		}
		evil := e.Client()
		evil.Origin = "https://evil.example"
		if r := evil.Do("POST", "/api/auth/signup", body); r.StatusCode != 403 {
			t.Fatalf("foreign origin: %d %s", r.StatusCode, r.Body)
		}
		same := e.Client()
		same.Origin = e.HTTP.URL
		if r := same.Do("POST", "/api/auth/signup", body); r.StatusCode != 201 {
			t.Fatalf("same origin: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestSPA_ClientRoutesFallBackToIndexAndUnknownAPIIsJSON404(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		for _, p := range []string{"/", "/dashboard", "/preview/ana", "/agende", "/rota-que-nao-existe"} {
			r := c.Do("GET", p, nil)
			if r.StatusCode != 200 || !strings.Contains(string(r.Body), "<title>Agendei</title>") || r.Header.Get("Cache-Control") != "no-cache" {
				t.Errorf("%s: %d %q cache=%q", p, r.StatusCode, r.Body, r.Header.Get("Cache-Control"))
			}
		}
		// The public booking pages come from the light build (a profile
		// nobody has is 404, with the page that says so).
		for p, status := range map[string]int{"/agende/ana": 404, "/agende/ana/form": 404, "/booking": 200, "/cancel/abc": 200} {
			r := c.Do("GET", p, nil)
			if r.StatusCode != status || !strings.Contains(string(r.Body), `data-page="agende"`) || r.Header.Get("Cache-Control") != "no-cache" {
				t.Errorf("%s: %d %q cache=%q", p, r.StatusCode, r.Body, r.Header.Get("Cache-Control"))
			}
		}
		// Assets travel compressed to browsers that accept it.
		if r := c.Do("GET", "/assets/big.js", nil); r.StatusCode != 200 || !r.Uncompressed || !strings.Contains(string(r.Body), "Agendei") {
			t.Errorf("big asset: %d compressed=%v", r.StatusCode, r.Uncompressed)
		}
		if r := c.Do("GET", "/assets/app-1.js", nil); r.StatusCode != 200 || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("asset: %d %v", r.StatusCode, r.Header)
		}
		if r := c.Do("GET", "/assets/missing.js", nil); r.StatusCode != 404 {
			t.Errorf("missing asset: %d", r.StatusCode)
		}
		r := c.Do("GET", "/api/nada-aqui", nil)
		if r.StatusCode != 404 || r.Err(t).Error.Code != "not_found" || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Errorf("unknown api: %d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("POST", "/dashboard", nil); r.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST to a page: %d", r.StatusCode)
		}
	})
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		for _, p := range []string{"/", "/api/config", "/api/nada"} {
			h := c.Do("GET", p, nil).Header
			csp := h.Get("Content-Security-Policy")
			if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("%s CSP: %q", p, csp)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" || h.Get("X-Request-Id") == "" {
				t.Errorf("%s headers: %v", p, h)
			}
			if h.Get("Strict-Transport-Security") != "" {
				t.Errorf("%s: no HSTS over plain HTTP", p)
			}
		}
	})
}

// With Meta's Embedded Signup configured, the app's pages may load Meta's
// JS SDK and keep the link to its sign-up popup; the framed widget and the
// API answers allow nothing of Meta's, and without it no page does.
func TestSecurityHeaders_MetaOnlyWhereEmbeddedSignupIsConfigured(t *testing.T) {
	metaCSP := func(h http.Header) bool {
		return strings.Contains(h.Get("Content-Security-Policy"), "https://connect.facebook.net") || h.Get("Cross-Origin-Opener-Policy") != "same-origin"
	}
	plain := servertest.StartWith(t, db.SQLite, nil).Client()
	for _, p := range []string{"/", "/profile"} {
		if metaCSP(plain.Do("GET", p, nil).Header) {
			t.Errorf("%s allows Meta without Embedded Signup", p)
		}
	}
	e := servertest.StartWith(t, db.SQLite, func(c *config.Config) {
		c.WhatsAppOperator = config.WhatsAppOperator{WABAID: "1", PhoneNumberID: "2", Token: "t", AppSecret: "s", VerifyToken: "v", Allowance: 10,
			AppID: "4455667788", SignupConfigID: "9988776655"}
	})
	c := e.Client()
	h := c.Do("GET", "/profile", nil).Header
	csp := h.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' https://connect.facebook.net;") || !strings.Contains(csp, "frame-ancestors 'none'") ||
		h.Get("Cross-Origin-Opener-Policy") != "same-origin-allow-popups" {
		t.Errorf("profile page: CSP %q, COOP %q", csp, h.Get("Cross-Origin-Opener-Policy"))
	}
	for _, p := range []string{"/api/config", "/embed/ana-souza"} {
		if metaCSP(c.Do("GET", p, nil).Header) {
			t.Errorf("%s allows Meta", p)
		}
	}
}

// TestSecurityHeaders_BehindTLS: when Agendei is served over HTTPS (its base
// URL, typically behind a TLS-terminating proxy), responses add HSTS and the
// refresh cookie becomes Secure with the __Host- prefix.
func TestSecurityHeaders_BehindTLS(t *testing.T) {
	e := servertest.StartWith(t, db.SQLite, func(c *config.Config) { c.BaseURL = "https://agendei.example" })
	c := e.Client()
	for _, p := range []string{"/", "/api/config", "/agende/ana"} {
		h := c.Do("GET", p, nil).Header
		if got := h.Get("Strict-Transport-Security"); !strings.HasPrefix(got, "max-age=63072000") {
			t.Errorf("%s HSTS: %q", p, got)
		}
		if h.Get("X-Frame-Options") != "DENY" || h.Get("Referrer-Policy") != "strict-origin-when-cross-origin" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s headers: %v", p, h)
		}
	}
	r := c.Signup("Ana", "ana@example.com", "segredo1", "gato")
	var found bool
	for _, ck := range r.Cookies() {
		if ck.Name == "__Host-agendei_refresh" {
			found = true
			if !ck.Secure || !ck.HttpOnly || ck.Path != "/" || ck.Domain != "" || ck.SameSite != http.SameSiteStrictMode {
				t.Errorf("refresh cookie attributes: %+v", ck)
			}
		}
	}
	if !found {
		t.Errorf("no __Host- refresh cookie under TLS: %v", r.Header.Values("Set-Cookie"))
	}
}

func TestConfig_ServesContactPoints(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		var cfg struct{ SupportEmail, SupportWhatsapp string }
		e.Client().Do("GET", "/api/config", nil).JSON(t, &cfg)
		if cfg.SupportEmail != "suporte@agendei.app" || cfg.SupportWhatsapp != "5511999999999" {
			t.Fatalf("%+v", cfg)
		}
	})
}

func TestHealth_ReadyzFailsWhenDatabaseIsGoneButHealthzStaysUp(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		if r := c.Do("GET", "/readyz", nil); r.StatusCode != 200 {
			t.Fatalf("ready: %d", r.StatusCode)
		}
		e.DB.Close()
		if r := c.Do("GET", "/readyz", nil); r.StatusCode != 503 {
			t.Fatalf("db closed: %d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("GET", "/healthz", nil); r.StatusCode != 200 {
			t.Fatalf("healthz must not depend on the database: %d", r.StatusCode)
		}
		// A feature that needs the database fails alone, with a clear answer.
		r := c.Do("POST", "/api/auth/login", map[string]string{"email": "a@b.com", "password": "123456"})
		if r.StatusCode/100 != 5 || r.Err(t).Error.Message == "" || strings.Contains(string(r.Body), "sql") {
			t.Fatalf("login with db down: %d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("GET", "/", nil); r.StatusCode != 200 {
			t.Fatalf("the web app must still load: %d", r.StatusCode)
		}
	})
}

func TestMetricsAreExported(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Do("GET", "/api/config", nil)
		r := c.Do("GET", "/metrics", nil)
		if r.StatusCode != 200 || !strings.Contains(string(r.Body), `agendei_http_requests_total{method="GET",route="GET /api/config",status="200"}`) {
			t.Fatalf("metrics: %d\n%s", r.StatusCode, r.Body)
		}
	})
}
