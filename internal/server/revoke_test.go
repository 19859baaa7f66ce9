package server_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// Issue 12, item 3: revoked means revoked, at once. After account deletion,
// "sair de todos os dispositivos", a password reset by keyword, a recovery
// link, or signing this device out, the old access token gets 401 on every
// owner endpoint of api/openapi.yaml (never 500, never 200 — a deleted
// account's token used to upload a photo that stayed public), its open event
// stream ends within a second or two, and a new sign-in works.

// ownerOps lists every operation of the contract that needs a signed-in owner.
func ownerOps(t *testing.T) [][2]string {
	t.Helper()
	doc, err := servertest.Spec()
	if err != nil {
		t.Fatal(err)
	}
	var ops [][2]string
	for path, item := range doc.Paths.Map() {
		for method, o := range item.Operations() {
			if o.Security != nil && len(*o.Security) == 0 {
				continue
			}
			ops = append(ops, [2]string{method, path})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i][1]+ops[i][0] < ops[j][1]+ops[j][0] })
	if len(ops) < 30 {
		t.Fatalf("only %d owner operations found in the spec", len(ops))
	}
	return ops
}

func revokePNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for x := range 64 {
		for y := range 64 {
			img.Set(x, y, color.RGBA{200, uint8(x * 4), uint8(y * 4), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// openStream opens the owner's event stream and waits for its "ready" event.
func openStream(t *testing.T, c *servertest.Client) (io.ReadCloser, func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	res, err := c.Open(ctx, "GET", "/api/events")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("event stream: %d", res.StatusCode)
	}
	buf := make([]byte, 256)
	n, _ := res.Body.Read(buf)
	if !strings.Contains(string(buf[:n]), "event: ready") {
		cancel()
		t.Fatalf("stream did not start: %q", buf[:n])
	}
	return res.Body, func() { res.Body.Close(); cancel() }
}

// streamEnds fails unless the stream ends (EOF from the server) within limit.
func streamEnds(t *testing.T, body io.Reader, limit time.Duration) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, body)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("stream ended with %v after %v, want the server to end it", err, time.Since(start))
		}
		t.Logf("open event stream ended %v after the revoke", time.Since(start).Round(10*time.Millisecond))
	case <-time.After(limit):
		t.Errorf("the revoked session's event stream is still open after %v", limit)
	}
}

// allRefused calls every owner operation with the client's (revoked) token.
func allRefused(t *testing.T, c *servertest.Client, d ownerData, ops [][2]string) {
	t.Helper()
	for _, o := range ops {
		if o[1] == "/api/events" {
			continue // a stream: checked apart
		}
		path, body := matrixRequest(t, o[0], o[1], d)
		r := c.Do(o[0], path, body)
		if r.StatusCode != http.StatusUnauthorized || r.Err(t).Error.Message != "Sessão inválida. Faça login novamente." {
			t.Errorf("revoked token %s %s: %d %s", o[0], path, r.StatusCode, r.Body)
		}
	}
	if r := c.Upload("/api/profile/photo", "photo", "foto.png", revokePNG(t)); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("revoked token uploads a photo: %d %s", r.StatusCode, r.Body)
	}
}

var recoveryLinkRE = regexp.MustCompile(`/forgot-password\?token=(?:3D)?([A-Za-z0-9_\-]+)`)

func TestRevokedAccessTokenIsRefusedAtOnce(t *testing.T) {
	ops := ownerOps(t)
	const email, password = "anabela.sigilo@example.com", "senha-da-ana-1"
	cases := []struct {
		name   string
		revoke func(t *testing.T, e *servertest.Env, a *servertest.Client)
		// after checks a new sign-in (or signup) works after the revoke.
		after func(t *testing.T, e *servertest.Env)
	}{
		{"delete account", func(t *testing.T, e *servertest.Env, a *servertest.Client) {
			// The seeded health record, destroyed (signed) first: an account
			// that keeps one is not deleted (internal/records).
			if _, err := e.DB.ExecContext(context.Background(), `INSERT INTO record_destructions (record_id, owner_id, by_account, by_name, by_council, entries, destroyed_at)
				SELECT id, owner_id, owner_id, 'Anabela Sigilo', '', 1, created_at FROM records`); err != nil {
				t.Fatal(err)
			}
			if r := a.Do("DELETE", "/api/account", map[string]string{"password": password, "confirmation": "EXCLUIR"}); r.StatusCode != 200 {
				t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
			}
		}, func(t *testing.T, e *servertest.Env) {
			c := e.Client()
			c.Signup("Anabela de novo", email, "outra-senha-1", "peixe")
			if r := c.Do("GET", "/api/professionals", nil); r.StatusCode != 200 {
				t.Fatalf("new account: %d %s", r.StatusCode, r.Body)
			}
		}},
		{"sign out everywhere", func(t *testing.T, e *servertest.Env, a *servertest.Client) {
			other := e.Client()
			other.Login(email, password)
			if r := other.Do("POST", "/api/auth/logout", map[string]string{"scope": "global"}); r.StatusCode != 204 {
				t.Fatalf("logout: %d %s", r.StatusCode, r.Body)
			}
			if r := other.Do("GET", "/api/me", nil); r.StatusCode != 401 {
				t.Errorf("the device that signed out everywhere keeps its access: %d", r.StatusCode)
			}
		}, func(t *testing.T, e *servertest.Env) { loginWorks(t, e, email, password) }},
		{"password reset", func(t *testing.T, e *servertest.Env, a *servertest.Client) {
			r := e.Client().Do("POST", "/api/auth/password-reset", map[string]string{"email": email, "recoveryKeyword": "gato", "newPassword": "nova-senha-1"})
			if r.StatusCode != 200 {
				t.Fatalf("reset: %d %s", r.StatusCode, r.Body)
			}
		}, func(t *testing.T, e *servertest.Env) { loginWorks(t, e, email, "nova-senha-1") }},
		{"recovery link", func(t *testing.T, e *servertest.Env, a *servertest.Client) {
			anon := e.Client()
			if r := anon.Do("POST", "/api/auth/account-recovery", map[string]string{"email": email}); r.StatusCode != 202 {
				t.Fatalf("recovery: %d %s", r.StatusCode, r.Body)
			}
			var token string
			for _, m := range e.Mails() {
				if sub := recoveryLinkRE.FindStringSubmatch(strings.ReplaceAll(m.Raw, "=\r\n", "")); sub != nil {
					token = sub[1]
				}
			}
			if token == "" {
				t.Fatal("no recovery link mailed")
			}
			r := anon.Do("POST", "/api/auth/account-recovery/complete", map[string]string{"token": token, "password": "nova-senha-2", "recoveryKeyword": "cachorro"})
			if r.StatusCode != 200 {
				t.Fatalf("complete: %d %s", r.StatusCode, r.Body)
			}
		}, func(t *testing.T, e *servertest.Env) { loginWorks(t, e, email, "nova-senha-2") }},
		{"sign out this device", func(t *testing.T, e *servertest.Env, a *servertest.Client) {
			other := e.Client()
			other.Login(email, password)
			if r := a.Do("POST", "/api/auth/logout", map[string]string{"scope": "local"}); r.StatusCode != 204 {
				t.Fatalf("logout: %d %s", r.StatusCode, r.Body)
			}
			if r := other.Do("GET", "/api/dashboard", nil); r.StatusCode != 200 {
				t.Errorf("signing one device out ended another: %d %s", r.StatusCode, r.Body)
			}
		}, func(t *testing.T, e *servertest.Env) { loginWorks(t, e, email, password) }},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			servertest.Each(t, func(t *testing.T, e *servertest.Env) {
				a := e.Client()
				d := seedOwner(t, e, a)
				stream, stop := openStream(t, a)
				defer stop()
				tc.revoke(t, e, a)
				allRefused(t, a, d, ops)
				streamEnds(t, stream, 4*time.Second)
				if r := a.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 && tc.name != "sign out this device" {
					t.Errorf("the revoked device refreshes: %d", r.StatusCode)
				}
				tc.after(t, e)
				// Whatever happened, the old token stays refused.
				if r := a.Do("GET", "/api/professionals", nil); r.StatusCode != 401 {
					t.Errorf("old token after a new sign-in: %d %s", r.StatusCode, r.Body)
				}
			})
		})
	}
}

func loginWorks(t *testing.T, e *servertest.Env, email, password string) {
	t.Helper()
	c := e.Client()
	if r := c.Login(email, password); r.StatusCode != 200 {
		t.Fatalf("sign in after the revoke: %d %s", r.StatusCode, r.Body)
	}
	for _, p := range []string{"/api/me", "/api/professionals", "/api/services", "/api/availability", "/api/dashboard", "/api/reports"} {
		if r := c.Do("GET", p, nil); r.StatusCode != 200 {
			t.Errorf("new session %s: %d %s", p, r.StatusCode, r.Body)
		}
	}
}

// TestRevokeOnOneInstanceHoldsOnAnother: two servers on one database (on
// PostgreSQL, two `agendei serve` processes behind a load balancer). A signs
// everyone out; B, which had just served the token, refuses it within about a
// second and ends its open stream; a new sign-in on A works on B at once.
func TestRevokeOnOneInstanceHoldsOnAnother(t *testing.T) {
	servertest.Each(t, func(t *testing.T, a *servertest.Env) {
		b := a.Peer()
		onA := a.Client()
		onA.Signup("Ana", "ana@example.com", "segredo1", "gato")
		onB := b.Client()
		onB.Token = onA.Token
		if r := onB.Do("GET", "/api/professionals", nil); r.StatusCode != 200 {
			t.Fatalf("token on B: %d %s", r.StatusCode, r.Body)
		}
		stream, stop := openStream(t, onB)
		defer stop()

		if r := onA.Do("POST", "/api/auth/logout", nil); r.StatusCode != 204 {
			t.Fatalf("logout on A: %d %s", r.StatusCode, r.Body)
		}
		start := time.Now()
		for {
			r := onB.Do("GET", "/api/professionals", nil)
			if r.StatusCode == 401 {
				break
			}
			if r.StatusCode != 200 {
				t.Fatalf("B answered %d %s", r.StatusCode, r.Body)
			}
			if time.Since(start) > 2*time.Second {
				t.Fatal("B still accepts the revoked token 2 s after the revoke on A")
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("B refused the token %v after the revoke on A", time.Since(start).Round(10*time.Millisecond))
		streamEnds(t, stream, 3*time.Second)

		fresh := a.Client()
		if r := fresh.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("new sign-in on A: %d", r.StatusCode)
		}
		onB.Token = fresh.Token
		if r := onB.Do("GET", "/api/professionals", nil); r.StatusCode != 200 {
			t.Fatalf("the new sign-in's token on B right away: %d %s", r.StatusCode, r.Body)
		}
	})
}

// TestSessionCheckWithDatabaseDownIsUnavailable: when the database cannot
// say whether a session stands, owners get 503 — not 500, and not a 401 that
// would sign every tab out.
func TestSessionCheckWithDatabaseDownIsUnavailable(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		time.Sleep(1100 * time.Millisecond) // past the per-process session cache
		e.DB.Close()
		r := c.Do("GET", "/api/professionals", nil)
		if r.StatusCode != http.StatusServiceUnavailable || r.Err(t).Error.Code != "unavailable" {
			t.Fatalf("db down: %d %s", r.StatusCode, r.Body)
		}
	})
}
