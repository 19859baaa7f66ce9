package config

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agendei/agendei/internal/platform/secretbox"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParse_FlagsOverrideEnvironmentWhichOverridesDefaults(t *testing.T) {
	c, err := Parse("t", nil, env(nil))
	if err != nil || c.Addr != ":8080" || c.DataDir != "./data" || c.DatabaseURL != "" || c.BaseURL != "http://localhost:8080" {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	if c.MetricsAddr != "" {
		t.Fatalf("metrics are served on the main address by default, got %q", c.MetricsAddr)
	}
	c, err = Parse("t", []string{"--metrics-addr", "127.0.0.1:9091"}, env(map[string]string{"AGENDEI_METRICS_ADDR": ":9090"}))
	if err != nil || c.MetricsAddr != "127.0.0.1:9091" {
		t.Fatalf("metrics addr: %+v %v", c, err)
	}
	c, err = Parse("t", []string{"--addr", ":9000"}, env(map[string]string{"AGENDEI_ADDR": ":7000", "AGENDEI_SUPPORT_WHATSAPP": "+55 (11) 4000-1234", "AGENDEI_BASE_URL": "https://agenda.example.com/"}))
	if err != nil || c.Addr != ":9000" || c.SupportWhatsApp != "551140001234" || c.BaseURL != "https://agenda.example.com" || !c.TLS() {
		t.Fatalf("%+v %v", c, err)
	}
}

func TestParse_RefusesBadValues(t *testing.T) {
	for _, e := range []map[string]string{
		{"DATABASE_URL": "mysql://x"},
		{"AGENDEI_BASE_URL": "localhost:8080"},
		{"AGENDEI_SMTP_URL": "mail.example.com"},
		{"AGENDEI_LOG_FORMAT": "xml"},
		{"AGENDEI_MAIL_FROM": "not an address"},
		{"AGENDEI_METRICS_ADDR": "9090"},
		// The operator's Mercado Pago application is all three or nothing.
		{"AGENDEI_MERCADOPAGO_CLIENT_ID": "123", "AGENDEI_MERCADOPAGO_CLIENT_SECRET": "s"},
		{"AGENDEI_MERCADOPAGO_AUTH_URL": "auth.mercadopago.com.br"},
		{"AGENDEI_METRICS_ADDR": ":8080"},
		// The operator's Google client is both or nothing; its endpoints are URLs.
		{"AGENDEI_GOOGLE_CLIENT_ID": "123.apps.googleusercontent.com"},
		{"AGENDEI_GOOGLE_CLIENT_SECRET": "GOCSPX-x"},
		{"AGENDEI_GOOGLE_TOKEN_URL": "oauth2.googleapis.com/token"},
		// The contract's bounds of a reminder lead (30 min–7 days).
		{"AGENDEI_REMINDER_LEAD": "2m"},
		{"AGENDEI_REMINDER_LEAD": "169h"},
	} {
		if _, err := Parse("t", nil, env(e)); err == nil {
			t.Errorf("%v accepted", e)
		}
	}
}

func TestParse_GoogleClient(t *testing.T) {
	c, err := Parse("t", nil, env(map[string]string{}))
	if err != nil || c.GoogleOAuth() || c.GoogleAPIURL != "https://www.googleapis.com/calendar/v3" || c.GoogleAuthURL != "https://accounts.google.com/o/oauth2/v2/auth" {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	c, err = Parse("t", nil, env(map[string]string{"AGENDEI_GOOGLE_CLIENT_ID": "123.apps.googleusercontent.com", "AGENDEI_GOOGLE_CLIENT_SECRET": "GOCSPX-x",
		"AGENDEI_GOOGLE_API_URL": "http://127.0.0.1:9/calendar/v3/"}))
	if err != nil || !c.GoogleOAuth() || c.GoogleAPIURL != "http://127.0.0.1:9/calendar/v3" {
		t.Fatalf("configured: %+v %v", c, err)
	}
}

func TestEnsureSecret_GeneratesOnceAndKeepsIt(t *testing.T) {
	dir := t.TempDir()
	a := &Config{DataDir: dir}
	if err := a.EnsureSecret(); err != nil || len(a.Secret) != 64 {
		t.Fatalf("%q %v", a.Secret, err)
	}
	b := &Config{DataDir: dir}
	if err := b.EnsureSecret(); err != nil || b.Secret != a.Secret {
		t.Fatal("a second start must reuse the key")
	}
	st, _ := os.Stat(filepath.Join(dir, "secret.key"))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v", st.Mode().Perm())
	}
	given := &Config{DataDir: t.TempDir(), Secret: "from-env"}
	if err := given.EnsureSecret(); err != nil || given.Secret != "from-env" {
		t.Fatal("a given secret wins")
	}
}

// The key that encrypts owners' provider tokens is generated like the
// token secret: once, kept in the data dir (never in the database), and a
// configured key wins.
func TestEnsureSecret_GeneratesTheSecretsKeyOnceAndKeepsIt(t *testing.T) {
	dir := t.TempDir()
	a := &Config{DataDir: dir}
	if err := a.EnsureSecret(); err != nil {
		t.Fatal(err)
	}
	if _, err := secretbox.Parse(a.SecretKey); err != nil {
		t.Fatalf("generated key %q: %v", a.SecretKey, err)
	}
	b := &Config{DataDir: dir}
	if err := b.EnsureSecret(); err != nil || b.SecretKey != a.SecretKey {
		t.Fatal("a second start must reuse the secrets key")
	}
	st, _ := os.Stat(filepath.Join(dir, "secrets.key"))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v", st.Mode().Perm())
	}
	k, _ := secretbox.NewKey()
	c, err := Parse("agendei", nil, func(e string) string {
		if e == "AGENDEI_SECRET_KEY" {
			return k
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	c.DataDir = t.TempDir() // the default ./data would write secret.key into the source tree
	if c.EnsureSecret() != nil || c.SecretKey != k {
		t.Fatalf("a configured key must win: %v", err)
	}
	if _, err := Parse("agendei", nil, func(e string) string {
		if e == "AGENDEI_SECRET_KEY" {
			return "curta"
		}
		return ""
	}); err == nil {
		t.Fatal("a malformed AGENDEI_SECRET_KEY must be refused at start")
	}
}

// Without a public URL, links follow the address the server listens on.
func TestParse_BaseURLFollowsTheAddressWhenUnset(t *testing.T) {
	for addr, want := range map[string]string{":8080": "http://localhost:8080", ":9090": "http://localhost:9090", "127.0.0.1:9191": "http://127.0.0.1:9191", "0.0.0.0:7000": "http://localhost:7000"} {
		c, err := Parse("agendei", []string{"--addr", addr}, func(string) string { return "" })
		if err != nil || c.BaseURL != want {
			t.Fatalf("%s: %q, %v; want %q", addr, c.BaseURL, err, want)
		}
	}
	c, err := Parse("agendei", nil, func(k string) string { return map[string]string{"AGENDEI_ADDR": ":9090"}[k] })
	if err != nil || c.BaseURL != "http://localhost:9090" {
		t.Fatalf("from the environment: %q, %v", c.BaseURL, err)
	}
}

// The public read path's benchmark switch is off unless the bench sets it,
// is no flag, and takes only the mechanisms it knows.
func TestParse_BenchDisableIsOffByDefault(t *testing.T) {
	c, err := Parse("t", nil, env(nil))
	if err != nil || len(c.BenchDisable) != 0 {
		t.Fatalf("default: %v %v", c.BenchDisable, err)
	}
	if _, err := Parse("t", []string{"--bench-disable", "memo"}, env(nil)); err == nil {
		t.Fatal("the benchmark switch must not be a flag")
	}
	c, err = Parse("t", nil, env(map[string]string{"AGENDEI_BENCH_DISABLE": " memo"}))
	if err != nil || !c.BenchDisable["memo"] || c.BenchDisable["setup-cache"] || len(c.BenchDisable) != 1 {
		t.Fatalf("memo: %v %v", c.BenchDisable, err)
	}
	c, err = Parse("t", nil, env(map[string]string{"AGENDEI_BENCH_DISABLE": "memo, setup-cache"}))
	if err != nil || !c.BenchDisable["memo"] || !c.BenchDisable["setup-cache"] || len(c.BenchDisable) != 2 {
		t.Fatalf("memo,setup-cache: %v %v", c.BenchDisable, err)
	}
	if _, err := Parse("t", nil, env(map[string]string{"AGENDEI_BENCH_DISABLE": "cache"})); err == nil {
		t.Fatal("an unknown mechanism was accepted")
	}
	// Every speed mechanism issue 40 §3 names has its switch.
	for _, m := range []string{"memo", "setup-cache", "rebind-cache", "away-days", "near-buffer"} {
		c, err = Parse("t", nil, env(map[string]string{"AGENDEI_BENCH_DISABLE": m}))
		if err != nil || !c.BenchDisable[m] || len(c.BenchDisable) != 1 {
			t.Errorf("%s: %v %v", m, c.BenchDisable, err)
		}
	}
}

// The operator's WhatsApp number (issue 41 §1): off by default, all of it
// or none, its ids digits, an allowance that can be used; no secret of it
// in an error or in what a log prints of it.
func TestParse_WhatsAppOperator(t *testing.T) {
	c, err := Parse("t", nil, env(nil))
	if err != nil || c.WhatsAppOperator.On() || c.WhatsAppOperator.Allowance != 200 {
		t.Fatalf("default: %+v %v", c.WhatsAppOperator, err)
	}
	all := map[string]string{"AGENDEI_WHATSAPP_OPERATOR_WABA_ID": "1029384756", "AGENDEI_WHATSAPP_OPERATOR_PHONE_NUMBER_ID": "5647382910",
		"AGENDEI_WHATSAPP_OPERATOR_TOKEN": "EAAG-segredo-do-token", "AGENDEI_WHATSAPP_OPERATOR_APP_SECRET": "segredo-do-app",
		"AGENDEI_WHATSAPP_OPERATOR_VERIFY_TOKEN": "segredo-de-verificacao", "AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE": "50"}
	c, err = Parse("t", nil, env(all))
	if err != nil || !c.WhatsAppOperator.On() || c.WhatsAppOperator.Allowance != 50 || c.WhatsAppOperator.Token != "EAAG-segredo-do-token" {
		t.Fatalf("configured: %+v %v", c.WhatsAppOperator, err)
	}
	var buf strings.Builder
	slog.New(slog.NewTextHandler(&buf, nil)).Info("settings", "operator", c.WhatsAppOperator)
	if strings.Contains(buf.String(), "segredo") || !strings.Contains(buf.String(), "5647382910") {
		t.Fatalf("logged: %s", buf.String())
	}
	bad := []map[string]string{
		{"AGENDEI_WHATSAPP_OPERATOR_PHONE_NUMBER_ID": "5647382910"},
		{"AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE": "0"},
		{"AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE": "muitas"},
	}
	withLetters := map[string]string{}
	for k, v := range all {
		withLetters[k] = v
	}
	withLetters["AGENDEI_WHATSAPP_OPERATOR_WABA_ID"] = "waba-1"
	if c.WhatsAppOperator.Signup() {
		t.Fatal("Embedded Signup on without its app id")
	}
	signup := map[string]string{"AGENDEI_WHATSAPP_APP_ID": "4455667788", "AGENDEI_WHATSAPP_SIGNUP_CONFIG_ID": "9988776655"}
	for k, v := range all {
		signup[k] = v
	}
	if c, err := Parse("t", nil, env(signup)); err != nil || !c.WhatsAppOperator.Signup() || c.WhatsAppOperator.AppID != "4455667788" {
		t.Fatalf("Embedded Signup: %+v %v", c, err)
	}
	bad = append(bad,
		map[string]string{"AGENDEI_WHATSAPP_APP_ID": "4455667788", "AGENDEI_WHATSAPP_SIGNUP_CONFIG_ID": "9988776655"}, // without the operator's number
		map[string]string{"AGENDEI_WHATSAPP_APP_ID": "4455667788"})
	for _, e := range append(bad, withLetters) {
		_, err := Parse("t", nil, env(e))
		if err == nil {
			t.Errorf("%v: accepted", e)
		} else if strings.Contains(err.Error(), "segredo") {
			t.Errorf("%v: a secret in the error: %v", e, err)
		}
	}
}

// The web push signing key (issue 41 §4) is generated like the others:
// once into the data dir, kept, and a configured key wins; a key that is
// not a P-256 scalar is refused at start.
func TestEnsureSecret_GeneratesTheVAPIDKeyOnceAndKeepsIt(t *testing.T) {
	dir := t.TempDir()
	a := &Config{DataDir: dir}
	if err := a.EnsureSecret(); err != nil || !validVAPID(a.VAPIDPrivateKey) {
		t.Fatalf("generated VAPID key %q: %v", a.VAPIDPrivateKey, err)
	}
	b := &Config{DataDir: dir}
	if err := b.EnsureSecret(); err != nil || b.VAPIDPrivateKey != a.VAPIDPrivateKey {
		t.Fatal("a second start must reuse the VAPID key")
	}
	st, _ := os.Stat(filepath.Join(dir, "vapid.key"))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v", st.Mode().Perm())
	}
	k, _ := NewVAPIDKey()
	c, err := Parse("agendei", nil, env(map[string]string{"AGENDEI_VAPID_PRIVATE_KEY": k}))
	if err != nil {
		t.Fatal(err)
	}
	c.DataDir = t.TempDir()
	if c.EnsureSecret() != nil || c.VAPIDPrivateKey != k {
		t.Fatal("a configured VAPID key must win")
	}
	if _, err := Parse("agendei", nil, env(map[string]string{"AGENDEI_VAPID_PRIVATE_KEY": "not-a-key"})); err == nil || !strings.Contains(err.Error(), "AGENDEI_VAPID_PRIVATE_KEY") {
		t.Fatalf("a bad VAPID key must be refused, got %v", err)
	}
}
