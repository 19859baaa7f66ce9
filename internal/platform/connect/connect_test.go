package connect_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

var (
	errRequired     = httpx.Validation("Preencha tudo.")
	errNotConnected = httpx.NewError(http.StatusNotFound, "kit_not_connected", "Não está conectado.")
)

// kit is a provider of the test's own: a table made here, so the kit is
// tested without any domain package.
var kit = connect.Provider{
	Name:  "kit",
	Table: "kit_accounts",
	Fields: []connect.Field{
		{Name: "account_id"},
		{Name: "token", Column: "token_sealed", Secret: true},
		{Name: "secret", Column: "secret_sealed", Secret: true},
	},
	Keys:         []string{"verify_token"},
	Owned:        []string{"kit_health"},
	Required:     errRequired,
	NotConnected: errNotConnected,
}

func setup(t *testing.T, d *db.DB) (*connect.Accounts, *connect.Health, *clock.Manual) {
	t.Helper()
	ctx := context.Background()
	ts := "TIMESTAMP"
	if d.Dialect == db.Postgres {
		ts = "TIMESTAMPTZ"
	}
	for _, q := range []string{
		`CREATE TABLE kit_accounts (user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE, account_id TEXT NOT NULL,
			token_sealed TEXT NOT NULL, secret_sealed TEXT NOT NULL, name TEXT NOT NULL, verify_token TEXT NOT NULL,
			webhook_key TEXT NOT NULL UNIQUE, connected_at ` + ts + ` NOT NULL, updated_at ` + ts + ` NOT NULL)`,
		`CREATE TABLE kit_health (user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE, last_valid_at ` + ts + `, last_refused_at ` + ts + `)`,
	} {
		if _, err := d.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	if _, err := d.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('u1', 'a@example.com', 'x', ?, ?)`, now, now); err != nil {
		t.Fatal(err)
	}
	box, err := secretbox.New(bytes.Repeat([]byte{7}, secretbox.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewManual(now)
	return &connect.Accounts{DB: d, Box: box, Clock: clk, BaseURL: "https://agendei.example", Provider: kit},
		&connect.Health{DB: d, Clock: clk, Table: "kit_health"}, clk
}

// verifyAs is a provider's check that records what it was given.
func verifyAs(seen *connect.Values, name string) func(context.Context, connect.Values) (connect.Verified, error) {
	return func(_ context.Context, in connect.Values) (connect.Verified, error) {
		*seen = in
		return connect.Verified{Columns: map[string]any{"name": name}}, nil
	}
}

func TestAccounts_ReplacingKeepsEachStoredSecretLeftEmpty(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		accounts, _, clk := setup(t, d)
		var seen connect.Values

		// A first connection needs every field.
		err := accounts.Connect(ctx, "u1", connect.Connection{In: connect.Values{"account_id": "1", "token": "tok-1"}, Verify: verifyAs(&seen, "A")})
		if !errors.Is(err, errRequired) || seen != nil {
			t.Fatalf("first connection without its secret: %v (verified %v)", err, seen)
		}
		if err := accounts.Connect(ctx, "u1", connect.Connection{In: connect.Values{"account_id": " 1 ", "token": " tok-1 ", "secret": "sec-1"},
			Verify: verifyAs(&seen, "A")}); err != nil {
			t.Fatal(err)
		}
		if seen["account_id"] != "1" || seen["token"] != "tok-1" {
			t.Fatalf("values not trimmed before the check: %q", seen)
		}
		first, err := accounts.Load(ctx, d, "u1")
		if err != nil || first == nil {
			t.Fatal(first, err)
		}
		var sealed string
		if err := d.QueryRowContext(ctx, `SELECT token_sealed FROM kit_accounts WHERE user_id = 'u1'`).Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(sealed, "tok-1") {
			t.Fatal("the token is stored in the clear")
		}

		// A replacement with the token left empty verifies and keeps the stored one; the keys and connected_at stay.
		clk.Advance(time.Hour)
		var name string
		if err := accounts.Connect(ctx, "u1", connect.Connection{In: connect.Values{"account_id": "2", "token": "", "secret": "sec-2"},
			Verify: verifyAs(&seen, "B")}); err != nil {
			t.Fatal(err)
		}
		if seen["token"] != "tok-1" || seen["secret"] != "sec-2" || seen["account_id"] != "2" {
			t.Fatalf("verified with %q", seen)
		}
		got, err := accounts.Load(ctx, d, "u1", connect.Col{Name: "name", Into: &name})
		if err != nil {
			t.Fatal(err)
		}
		if got.Values["token"] != "tok-1" || got.Values["secret"] != "sec-2" || got.Values["account_id"] != "2" || name != "B" {
			t.Fatalf("after the replacement: %q, name %q", got.Values, name)
		}
		if got.WebhookKey != first.WebhookKey || got.Values["verify_token"] != first.Values["verify_token"] || !got.ConnectedAt.Equal(first.ConnectedAt) {
			t.Fatalf("keys or connected_at changed: %+v vs %+v", got, first)
		}
		peek, err := accounts.Peek(ctx, "u1")
		if err != nil || peek.Values["token"] != "" || peek.Values["account_id"] != "2" {
			t.Fatalf("peek shows a secret or misses a field: %q %v", peek.Values, err)
		}
		if url := accounts.WebhookURL(got.WebhookKey); url != "https://agendei.example/webhooks/kit/"+got.WebhookKey {
			t.Fatal(url)
		}
		if hooked, err := accounts.Hooked(ctx, got.WebhookKey); err != nil || hooked.UserID != "u1" {
			t.Fatal(hooked, err)
		}
		if _, err := accounts.Hooked(ctx, "nope"); !errors.Is(err, connect.ErrHook) {
			t.Fatal(err)
		}

		// A refusal by the provider's check or its verification stores nothing.
		refused := errors.New("refused")
		err = accounts.Connect(ctx, "u1", connect.Connection{In: connect.Values{"account_id": "3"}, Verify: func(context.Context, connect.Values) (connect.Verified, error) {
			return connect.Verified{}, refused
		}})
		if !errors.Is(err, refused) {
			t.Fatal(err)
		}
		if again, _ := accounts.Load(ctx, d, "u1"); again.Values["account_id"] != "2" {
			t.Fatal("a refused connection was stored")
		}

		if err := accounts.Disconnect(ctx, "u1"); err != nil {
			t.Fatal(err)
		}
		if err := accounts.Disconnect(ctx, "u1"); !errors.Is(err, errNotConnected) {
			t.Fatalf("second disconnect: %v", err)
		}
		if ok, err := accounts.Connected(ctx, "u1"); ok || err != nil {
			t.Fatal(ok, err)
		}
	})
}

func TestKeepSecrets_OnlySecretsAndOnlyWhenEmpty(t *testing.T) {
	old := &connect.Account{Values: connect.Values{"account_id": "1", "token": "tok", "secret": "sec"}}
	got := connect.KeepSecrets(kit.Fields, connect.Values{"account_id": "", "token": "", "secret": "new"}, old)
	if got["account_id"] != "" || got["token"] != "tok" || got["secret"] != "new" {
		t.Fatalf("%q", got)
	}
	if got := connect.KeepSecrets(kit.Fields, connect.Values{"token": ""}, nil); got["token"] != "" {
		t.Fatalf("kept from nothing: %q", got)
	}
}

func TestHealth_ARefusalShowsOnlyWhenNewerThanTheLastValidNotice(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		_, health, clk := setup(t, d)
		if r, err := health.Read(ctx, "u1"); err != nil || r.LastValidAt != nil || r.RefusedAt != nil {
			t.Fatal(r, err)
		}
		health.Heard(ctx, "u1", false)
		clk.Advance(time.Minute)
		health.Heard(ctx, "u1", true)
		r, err := health.Read(ctx, "u1")
		if err != nil || r.LastValidAt == nil || !r.LastValidAt.Equal(clk.Now()) || r.RefusedAt != nil {
			t.Fatalf("valid after refused: %+v %v", r, err)
		}
		clk.Advance(time.Minute)
		health.Heard(ctx, "u1", false)
		if r, _ := health.Read(ctx, "u1"); r.RefusedAt == nil || !r.RefusedAt.Equal(clk.Now()) {
			t.Fatalf("refused after valid: %+v", r)
		}
		if err := health.Forget(ctx, d, "u1"); err != nil {
			t.Fatal(err)
		}
		if r, _ := health.Read(ctx, "u1"); r.RefusedAt != nil || r.LastValidAt == nil {
			t.Fatalf("after forget: %+v", r)
		}
	})
}

// apiFault is a provider's error shape: {"error": {"code": …}}.
type apiFault struct {
	Status int
	Code   int `json:"code"`
}

func (e *apiFault) Error() string   { return fmt.Sprintf("%d/%d", e.Status, e.Code) }
func (e *apiFault) Auth() bool      { return e.Code == 190 || connect.AuthStatus(e.Status) }
func (e *apiFault) Temporary() bool { return e.Code == 4 || connect.TemporaryStatus(e.Status) }

func TestClient_ErrorsFromRealAnswersSayAuthOrTemporary(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" || r.Header.Get("Accept") != "application/json" {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		status, body := http.StatusOK, `{"id": 12345678901234567890, "name": "ok"}`
		switch r.URL.Path {
		case "/expired":
			status, body = http.StatusBadRequest, `{"error": {"code": 190}}`
		case "/forbidden":
			status, body = http.StatusForbidden, `{"error": {"code": 10}}`
		case "/throttled":
			status, body = http.StatusBadRequest, `{"error": {"code": 4}}`
		case "/busy":
			status, body = http.StatusServiceUnavailable, `not json at all`
		case "/missing":
			status, body = http.StatusNotFound, `{"error": {"code": 100}}`
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			if r.Header.Get("Content-Type") != "application/json" || r.Header.Get("X-Idempotency-Key") != "k-1" {
				status = http.StatusTeapot
			}
			body = `{"got": ` + string(b) + `}`
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	defer srv.Close()
	ctx := context.Background()
	c := connect.NewClient("kit api", srv.URL+"/")
	c.Fault = func(status int, body []byte) error {
		var e struct {
			Error apiFault `json:"error"`
		}
		_ = json.Unmarshal(body, &e)
		e.Error.Status = status
		return &e.Error
	}
	for path, want := range map[string][2]bool{"/expired": {true, false}, "/forbidden": {true, false}, "/throttled": {false, true}, "/busy": {false, true}, "/missing": {false, false}} {
		err := c.Do(ctx, connect.Call{Method: http.MethodGet, Path: path, Token: "tok"})
		var f connect.Fault
		if !errors.As(err, &f) || f.Auth() != want[0] || f.Temporary() != want[1] || connect.Temporary(err) != want[1] {
			t.Errorf("%s: %v (auth/temporary want %v)", path, err, want)
		}
	}
	var out struct {
		ID   json.Number `json:"id"`
		Name string      `json:"name"`
	}
	if err := c.Do(ctx, connect.Call{Method: http.MethodGet, Path: "/ok", Token: "tok", Out: &out}); err != nil || out.ID != "12345678901234567890" {
		t.Fatalf("ok: %+v %v", out, err)
	}
	var echo struct {
		Got map[string]any `json:"got"`
	}
	if err := c.Do(ctx, connect.Call{Method: http.MethodPost, Path: "/echo", Token: "tok", IdempotencyKey: "k-1", In: map[string]int{"n": 3}, Out: &echo}); err != nil ||
		echo.Got["n"] != json.Number("3") {
		t.Fatalf("echo: %+v %v", echo, err)
	}

	// Without a provider's shape, the status alone decides.
	plain := connect.NewClient("plain", srv.URL)
	err := plain.Do(ctx, connect.Call{Method: http.MethodGet, Path: "/forbidden", Token: "tok"})
	var se *connect.StatusError
	if !errors.As(err, &se) || !se.Auth() || se.Temporary() {
		t.Fatalf("status error: %v", err)
	}
	if err := plain.Do(ctx, connect.Call{Method: http.MethodGet, Path: "/busy", Token: "tok"}); !connect.Temporary(err) {
		t.Fatalf("503 not temporary: %v", err)
	}

	// A transport fault is temporary; a time-out is also of unknown outcome.
	srv.Close()
	if err := c.Do(ctx, connect.Call{Method: http.MethodGet, Path: "/ok", Token: "tok"}); !connect.Temporary(err) || connect.OutcomeUnknown(err) {
		t.Fatalf("closed server: %v", err)
	}
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer slow.Close()
	sc := connect.NewClient("slow", slow.URL)
	sc.HTTP.Timeout = 50 * time.Millisecond
	if err := sc.Do(ctx, connect.Call{Method: http.MethodPost, Path: "/", Token: "tok"}); !connect.OutcomeUnknown(err) || !connect.Temporary(err) {
		t.Fatalf("time-out: %v", err)
	}
}

func TestClient_BoundsTheAnswer(t *testing.T) {
	const limit = 1024
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := limit
		if r.URL.Path == "/big" {
			n = limit + 1
		}
		// A JSON string whose whole answer is exactly n bytes.
		_, _ = io.WriteString(w, `"`+strings.Repeat("a", n-2)+`"`)
	}))
	defer srv.Close()
	c := connect.NewClient("kit api", srv.URL)
	c.MaxBody = limit
	var s string
	if err := c.Do(context.Background(), connect.Call{Method: http.MethodGet, Path: "/fits", Token: "t", Out: &s}); err != nil || len(s) != limit-2 {
		t.Fatalf("an answer of the limit: %d %v", len(s), err)
	}
	err := c.Do(context.Background(), connect.Call{Method: http.MethodGet, Path: "/big", Token: "t", Out: &s})
	if err == nil || !strings.Contains(err.Error(), "larger than 1024 bytes") {
		t.Fatalf("an answer over the limit: %v", err)
	}
}

func TestCard_MountsTheThreeRoutesBehindTheSignIn(t *testing.T) {
	type in struct {
		Token string `json:"token"`
	}
	var disconnected string
	card := connect.Card[in, map[string]string]{
		Status: func(_ context.Context, userID string) (map[string]string, error) {
			return map[string]string{"owner": userID}, nil
		},
		Connect: func(_ context.Context, userID string, v in) (map[string]string, error) {
			if v.Token == "" {
				return nil, errRequired
			}
			return map[string]string{"owner": userID, "token": "kept"}, nil
		},
		Disconnect: func(_ context.Context, userID string) error { disconnected = userID; return nil },
	}
	type ownerKey struct{}
	signedIn := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Owner") == "" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ownerKey{}, r.Header.Get("X-Owner"))))
		})
	}
	mux := http.NewServeMux()
	card.Register(mux, "/api/kit", signedIn, func(ctx context.Context) string { return ctx.Value(ownerKey{}).(string) })
	do := func(method, body, owner string) (int, string) {
		r := httptest.NewRequest(method, "/api/kit", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if owner != "" {
			r.Header.Set("X-Owner", owner)
		}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w.Code, strings.TrimSpace(w.Body.String())
	}
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		if code, _ := do(m, `{}`, ""); code != http.StatusUnauthorized {
			t.Errorf("%s without sign-in: %d", m, code)
		}
	}
	if code, body := do(http.MethodGet, "", "u1"); code != 200 || body != `{"owner":"u1"}` {
		t.Fatalf("GET: %d %s", code, body)
	}
	if code, body := do(http.MethodPut, `{"token":"t"}`, "u1"); code != 200 || !strings.Contains(body, `"token":"kept"`) {
		t.Fatalf("PUT: %d %s", code, body)
	}
	if code, body := do(http.MethodPut, `{}`, "u1"); code != http.StatusBadRequest || !strings.Contains(body, "Preencha tudo.") {
		t.Fatalf("PUT refused: %d %s", code, body)
	}
	if code, _ := do(http.MethodPut, `{"token":`, "u1"); code != http.StatusBadRequest {
		t.Fatalf("PUT of broken JSON: %d", code)
	}
	if code, _ := do(http.MethodDelete, "", "u1"); code != http.StatusNoContent || disconnected != "u1" {
		t.Fatalf("DELETE: %d (%q)", code, disconnected)
	}
}

func TestRowCard_MountsPutAndDeleteOfTheConnectionInThePath(t *testing.T) {
	type in struct {
		Token string `json:"token"`
	}
	var disconnected string
	card := connect.RowCard[in, map[string]string]{
		Connect: func(_ context.Context, userID, id string, v in) (map[string]string, error) {
			if v.Token == "" {
				return nil, errRequired
			}
			return map[string]string{"owner": userID, "id": id}, nil
		},
		Disconnect: func(_ context.Context, userID, id string) error { disconnected = userID + "/" + id; return nil },
	}
	type ownerKey struct{}
	signedIn := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Owner") == "" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ownerKey{}, r.Header.Get("X-Owner"))))
		})
	}
	mux := http.NewServeMux()
	card.Register(mux, "/api/kit/{id}/row", signedIn, func(ctx context.Context) string { return ctx.Value(ownerKey{}).(string) })
	do := func(method, body, owner string) (int, string) {
		r := httptest.NewRequest(method, "/api/kit/p1/row", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if owner != "" {
			r.Header.Set("X-Owner", owner)
		}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w.Code, strings.TrimSpace(w.Body.String())
	}
	for _, m := range []string{http.MethodPut, http.MethodDelete} {
		if code, _ := do(m, `{}`, ""); code != http.StatusUnauthorized {
			t.Errorf("%s without sign-in: %d", m, code)
		}
	}
	if code, body := do(http.MethodPut, `{"token":"t"}`, "u1"); code != 200 || body != `{"id":"p1","owner":"u1"}` {
		t.Fatalf("PUT: %d %s", code, body)
	}
	if code, body := do(http.MethodPut, `{}`, "u1"); code != http.StatusBadRequest || !strings.Contains(body, "Preencha tudo.") {
		t.Fatalf("PUT refused: %d %s", code, body)
	}
	if code, _ := do(http.MethodPut, `{"token":`, "u1"); code != http.StatusBadRequest {
		t.Fatalf("PUT of broken JSON: %d", code)
	}
	if code, _ := do(http.MethodDelete, "", "u1"); code != http.StatusNoContent || disconnected != "u1/p1" {
		t.Fatalf("DELETE: %d (%q)", code, disconnected)
	}
}
