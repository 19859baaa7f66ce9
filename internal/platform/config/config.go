// Package config reads Agendei's settings: each one a command-line flag whose
// default comes from an environment variable, which in turn has a built-in default.
// With nothing set, everything lives under ./data and the server listens on :8080.
package config

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/gcal"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

// Config is every setting of `agendei serve`.
type Config struct {
	Addr            string // AGENDEI_ADDR
	MetricsAddr     string // AGENDEI_METRICS_ADDR: serve /metrics there only (empty: on Addr)
	DataDir         string // AGENDEI_DATA_DIR
	DatabaseURL     string // DATABASE_URL: empty means SQLite in DataDir
	BaseURL         string // AGENDEI_BASE_URL: public origin, used in e-mail links and Origin checks
	SMTPURL         string // AGENDEI_SMTP_URL: empty means .eml files in DataDir/outbox
	S3URL           string // AGENDEI_S3_URL: empty means uploaded files in DataDir/files
	MailFrom        string // AGENDEI_MAIL_FROM
	SupportEmail    string // AGENDEI_SUPPORT_EMAIL
	SupportWhatsApp string // AGENDEI_SUPPORT_WHATSAPP (digits with country code)
	Secret          string // AGENDEI_SECRET: signs access tokens; generated into DataDir when absent
	// SecretKey encrypts owners' provider secrets at rest (AGENDEI_SECRET_KEY:
	// base64 of 32 bytes; several, comma-separated, while a key rotates — the
	// first seals, all open). Generated into DataDir when absent.
	SecretKey string
	// VAPIDPrivateKey signs web push requests (AGENDEI_VAPID_PRIVATE_KEY,
	// RFC 8292: base64url of a P-256 private scalar, 32 bytes). Generated
	// into DataDir when absent; browsers subscribe to its public key, so
	// changing it leaves every subscription unanswered.
	VAPIDPrivateKey string
	// PushHosts are hosts a browser's push endpoint may name besides the
	// push services' own (AGENDEI_PUSH_HOSTS, comma-separated; default none):
	// the server POSTs to those addresses, so only a test or the bench,
	// with its local push service, adds one.
	PushHosts string
	// OutboundAllow are networks an address an owner types (a calendar's
	// iCal address) may reach although they are inside ones — loopback,
	// private, link-local (AGENDEI_OUTBOUND_ALLOW, comma-separated CIDRs;
	// default none): the tests and the bench allow loopback, where their
	// calendar servers listen. connect.Guard refuses the rest.
	OutboundAllow string
	// CalendarEvery is how often each imported calendar is read
	// (AGENDEI_CALENDAR_READ_EVERY, default 5m, at least 1m).
	CalendarEvery time.Duration
	// WhatsAppGraphURL is the Graph API's origin for the WhatsApp Cloud API
	// (AGENDEI_WHATSAPP_GRAPH_URL, default https://graph.facebook.com; tests
	// point it at the in-process fake). The API version is pinned in code.
	WhatsAppGraphURL string
	// WhatsAppOperator is the operator's own WhatsApp Business Platform
	// number, used for every owner who turns it on and has not connected
	// their own (issue 41 §1). All of it or none: without it nothing changes.
	// The token, app secret and verify token are secrets: kept here, never
	// in the database, never logged.
	WhatsAppOperator WhatsAppOperator
	// MercadoPagoAPIURL is the origin of Mercado Pago's REST API for Pix
	// deposits (AGENDEI_MERCADOPAGO_API_URL, default
	// https://api.mercadopago.com; tests point it at the in-process fake).
	MercadoPagoAPIURL string
	TrustProxy        bool   // AGENDEI_TRUST_PROXY: take the client IP from X-Forwarded-For
	StripeSecretKey   string // STRIPE_SECRET_KEY: empty means the local test payment provider
	StripeWebhook     string // STRIPE_WEBHOOK_SECRET: verifies webhook signatures
	StripePriceID     string // STRIPE_PRICE_ID: the monthly R$ 21,90 price (BRL)
	StripeAPIBase     string // STRIPE_API_BASE: a Stripe API double, for tests
	LogLevel          string // AGENDEI_LOG_LEVEL: debug, info, warn, error
	LogFormat         string // AGENDEI_LOG_FORMAT: text or json
	// CEPURL is a ViaCEP-compatible service ({CEPURL}/{8 digits}/json/)
	// that fills the profile's address from its CEP (AGENDEI_CEP_URL, e.g.
	// https://viacep.com.br/ws). Empty: off — the owner types the address.
	CEPURL string
	// ReminderLead is how long before an appointment the client gets the
	// reminder (AGENDEI_REMINDER_LEAD, a Go duration; default 24h) when the
	// owner never chose their reminders on the profile (issue 28): the
	// owner's setting wins once saved.
	ReminderLead time.Duration
	// The operator's Mercado Pago application, for "Conectar Mercado Pago"
	// (OAuth with PKCE): its client id and secret, the signing secret of
	// its webhook (Suas integrações → Webhooks), and the authorization
	// page's origin (AGENDEI_MERCADOPAGO_AUTH_URL, default
	// https://auth.mercadopago.com.br; tests point it at the fake). Without
	// the first three the card offers only the manual form.
	MercadoPagoClientID      string
	MercadoPagoClientSecret  string
	MercadoPagoWebhookSecret string
	MercadoPagoAuthURL       string
	// The operator's Google OAuth client, for "Conectar Google Agenda"
	// (issue 42 §3): client id and secret (both or none; without them the
	// button is not shown), and Google's endpoints, which tests point at
	// gcaltest (AGENDEI_GOOGLE_AUTH_URL, _TOKEN_URL, _REVOKE_URL, _API_URL).
	GoogleClientID     string
	GoogleClientSecret string
	GoogleAuthURL      string
	GoogleTokenURL     string
	GoogleRevokeURL    string
	GoogleAPIURL       string
	// DepositMinute is a test switch, not for production: how long one
	// minute of a deposit's hold lasts (AGENDEI_DEPOSIT_MINUTE, a Go
	// duration; no flag, not in -h). The end-to-end tests set 1s so that a
	// hold of the policy's minimum (10 minutes) ends in 10 seconds. Unset, as
	// it must be in production: one minute.
	DepositMinute time.Duration
	// BenchDisable is a benchmark switch, not for production: speed
	// mechanisms turned off, so that
	// cmd/agendei-bench measures what each one pays (AGENDEI_BENCH_DISABLE,
	// a comma-separated subset of BenchMechanisms; no flag, not in -h).
	// Unset, as it must be in production, everything is on.
	BenchDisable map[string]bool
}

// WhatsAppOperator is the operator's WhatsApp number (AGENDEI_WHATSAPP_OPERATOR_*).
type WhatsAppOperator struct {
	WABAID        string // AGENDEI_WHATSAPP_OPERATOR_WABA_ID
	PhoneNumberID string // AGENDEI_WHATSAPP_OPERATOR_PHONE_NUMBER_ID
	Token         string // AGENDEI_WHATSAPP_OPERATOR_TOKEN: a system user's permanent token
	AppSecret     string // AGENDEI_WHATSAPP_OPERATOR_APP_SECRET: checks the webhook's X-Hub-Signature-256
	VerifyToken   string // AGENDEI_WHATSAPP_OPERATOR_VERIFY_TOKEN: echoed by Meta on the webhook's GET
	// Allowance is how many messages a month each owner may send through
	// the operator's number (AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE, default 200).
	Allowance int
	// AppID and SignupConfigID turn on Meta's Embedded Signup (issue 41 §2,
	// "Conectar meu WhatsApp"): the operator's Meta app id
	// (AGENDEI_WHATSAPP_APP_ID) and its Facebook Login for Business
	// configuration id (AGENDEI_WHATSAPP_SIGNUP_CONFIG_ID). Both or none,
	// and only with the operator's number: the code is exchanged with its
	// app secret, and the signed-up numbers' events reach its webhook.
	AppID, SignupConfigID string
}

// Signup reports whether owners may connect their number with Meta's
// Embedded Signup.
func (o WhatsAppOperator) Signup() bool { return o.On() && o.AppID != "" && o.SignupConfigID != "" }

// On reports whether the operator's number is configured.
func (o WhatsAppOperator) On() bool { return o.PhoneNumberID != "" }

// LogValue keeps the secrets out of any log that prints the settings.
func (o WhatsAppOperator) LogValue() slog.Value {
	return slog.GroupValue(slog.String("waba_id", o.WABAID), slog.String("phone_number_id", o.PhoneNumberID), slog.Int("allowance", o.Allowance),
		slog.String("app_id", o.AppID), slog.String("signup_config_id", o.SignupConfigID))
}

// BenchMechanisms are the names AGENDEI_BENCH_DISABLE takes, each a
// mechanism kept for speed that the switch replaces with the plain path:
// the answer cache (memo), the per-owner setup cache (schedule.Cache) and
// PostgreSQL's rebound query texts (db), the imported busy time split by
// date once per setup (schedule.AwayByDayOff) and a month of bookable
// days' one buffer of busy time (booking.NearBufferOff), issue 42. Each has its record in
// docs/decisions/; those measured under 1.2× went (issue 40: the verified
// tokens' cache, the pooled busy slices, GOGC=400 and the soft memory
// limit the binary set itself).
var BenchMechanisms = []string{"memo", "setup-cache", "rebind-cache", "away-days", "near-buffer"}

type setting struct {
	flag, env, def, usage string
	dst                   *string
}

func (c *Config) settings() []setting {
	return []setting{
		{"addr", "AGENDEI_ADDR", ":8080", "address to listen on", &c.Addr},
		{"metrics-addr", "AGENDEI_METRICS_ADDR", "", "serve /metrics only on this address, e.g. 127.0.0.1:9090 (default: on the main address)", &c.MetricsAddr},
		{"data-dir", "AGENDEI_DATA_DIR", "./data", "folder for the SQLite file, photos, outbox and generated secrets", &c.DataDir},
		{"database-url", "DATABASE_URL", "", "postgres://… to use PostgreSQL (default: SQLite in the data dir)", &c.DatabaseURL},
		{"base-url", "AGENDEI_BASE_URL", "", "public URL of the app, for links in e-mails (default: http://localhost and the port of the address)", &c.BaseURL},
		{"smtp-url", "AGENDEI_SMTP_URL", "", "smtp://user:pass@host:port or smtps://… (default: write .eml files to <data dir>/outbox)", &c.SMTPURL},
		{"s3-url", "AGENDEI_S3_URL", "", "https://KEY:SECRET@host/bucket?region=… to keep uploads in an S3-compatible bucket (default: <data dir>/files)", &c.S3URL},
		{"mail-from", "AGENDEI_MAIL_FROM", "Agendei <nao-responda@agendei.app>", "sender of outgoing e-mail", &c.MailFrom},
		{"support-email", "AGENDEI_SUPPORT_EMAIL", "suporte@agendei.app", "support e-mail shown on the pages", &c.SupportEmail},
		{"support-whatsapp", "AGENDEI_SUPPORT_WHATSAPP", "5511999999999", "support WhatsApp number, digits with country code", &c.SupportWhatsApp},
		{"secret", "AGENDEI_SECRET", "", "key that signs access tokens (default: generated once into the data dir)", &c.Secret},
		{"secret-key", "AGENDEI_SECRET_KEY", "", "base64 of 32 bytes that encrypts owners' provider tokens at rest; comma-separated while rotating, new key first (default: generated once into the data dir)", &c.SecretKey},
		{"push-hosts", "AGENDEI_PUSH_HOSTS", "", "hosts a push endpoint may name besides the browsers' push services, comma-separated (tests and the bench: a local push service)", &c.PushHosts},
		{"outbound-allow", "AGENDEI_OUTBOUND_ALLOW", "", "networks an address an owner types (a calendar's iCal address) may reach although inside (loopback, private), comma-separated CIDRs; default none", &c.OutboundAllow},
		{"vapid-private-key", "AGENDEI_VAPID_PRIVATE_KEY", "", "base64url of a P-256 private key that signs web push notifications (default: generated once into the data dir)", &c.VAPIDPrivateKey},
		{"whatsapp-graph-url", "AGENDEI_WHATSAPP_GRAPH_URL", "https://graph.facebook.com", "origin of Meta's Graph API for the WhatsApp Cloud API (tests: a fake)", &c.WhatsAppGraphURL},
		{"whatsapp-operator-waba-id", "AGENDEI_WHATSAPP_OPERATOR_WABA_ID", "", "the operator's WhatsApp Business Account id, for owners without their own number (default: off)", &c.WhatsAppOperator.WABAID},
		{"whatsapp-operator-phone-number-id", "AGENDEI_WHATSAPP_OPERATOR_PHONE_NUMBER_ID", "", "the operator's WhatsApp phone-number id", &c.WhatsAppOperator.PhoneNumberID},
		{"whatsapp-operator-token", "AGENDEI_WHATSAPP_OPERATOR_TOKEN", "", "the operator's permanent WhatsApp access token (secret)", &c.WhatsAppOperator.Token},
		{"whatsapp-operator-app-secret", "AGENDEI_WHATSAPP_OPERATOR_APP_SECRET", "", "the operator's Meta app secret, checks the webhook's signature (secret)", &c.WhatsAppOperator.AppSecret},
		{"whatsapp-operator-verify-token", "AGENDEI_WHATSAPP_OPERATOR_VERIFY_TOKEN", "", "the token Meta echoes when verifying the operator's webhook (secret)", &c.WhatsAppOperator.VerifyToken},
		{"whatsapp-app-id", "AGENDEI_WHATSAPP_APP_ID", "", "the operator's Meta app id, for owners' Embedded Signup (needs the operator's number)", &c.WhatsAppOperator.AppID},
		{"whatsapp-signup-config-id", "AGENDEI_WHATSAPP_SIGNUP_CONFIG_ID", "", "the Embedded Signup (Facebook Login for Business) configuration id of the operator's Meta app", &c.WhatsAppOperator.SignupConfigID},
		{"mercadopago-api-url", "AGENDEI_MERCADOPAGO_API_URL", "https://api.mercadopago.com", "origin of Mercado Pago's API for automatic Pix deposits (tests: a fake)", &c.MercadoPagoAPIURL},
		{"mercadopago-client-id", "AGENDEI_MERCADOPAGO_CLIENT_ID", "", "client id of the operator's Mercado Pago application, for owners to connect with one button (OAuth)", &c.MercadoPagoClientID},
		{"mercadopago-client-secret", "AGENDEI_MERCADOPAGO_CLIENT_SECRET", "", "client secret of the operator's Mercado Pago application", &c.MercadoPagoClientSecret},
		{"mercadopago-webhook-secret", "AGENDEI_MERCADOPAGO_WEBHOOK_SECRET", "", "signing secret of the operator's Mercado Pago application's webhook", &c.MercadoPagoWebhookSecret},
		{"mercadopago-auth-url", "AGENDEI_MERCADOPAGO_AUTH_URL", "https://auth.mercadopago.com.br", "origin of Mercado Pago's authorization page (tests: a fake)", &c.MercadoPagoAuthURL},
		{"google-client-id", "AGENDEI_GOOGLE_CLIENT_ID", "", "client id of the operator's Google OAuth client (Web application), for owners to connect Google Calendar with one button", &c.GoogleClientID},
		{"google-client-secret", "AGENDEI_GOOGLE_CLIENT_SECRET", "", "client secret of the operator's Google OAuth client (secret)", &c.GoogleClientSecret},
		{"google-auth-url", "AGENDEI_GOOGLE_AUTH_URL", gcal.Google.AuthURL, "Google's OAuth consent page (tests: a fake)", &c.GoogleAuthURL},
		{"google-token-url", "AGENDEI_GOOGLE_TOKEN_URL", gcal.Google.TokenURL, "Google's OAuth token endpoint (tests: a fake)", &c.GoogleTokenURL},
		{"google-revoke-url", "AGENDEI_GOOGLE_REVOKE_URL", gcal.Google.RevokeURL, "Google's OAuth revocation endpoint (tests: a fake)", &c.GoogleRevokeURL},
		{"google-api-url", "AGENDEI_GOOGLE_API_URL", gcal.Google.API, "Google Calendar API v3's base URL (tests: a fake)", &c.GoogleAPIURL},
		{"stripe-secret-key", "STRIPE_SECRET_KEY", "", "Stripe secret key (default: the local test payment provider)", &c.StripeSecretKey},
		{"stripe-webhook-secret", "STRIPE_WEBHOOK_SECRET", "", "Stripe webhook signing secret", &c.StripeWebhook},
		{"stripe-price-id", "STRIPE_PRICE_ID", "", "Stripe price of the monthly plan (R$ 21,90, BRL)", &c.StripePriceID},
		{"stripe-api-base", "STRIPE_API_BASE", "", "Stripe API base URL (tests: stripe-mock)", &c.StripeAPIBase},
		{"log-level", "AGENDEI_LOG_LEVEL", "info", "debug, info, warn or error", &c.LogLevel},
		{"log-format", "AGENDEI_LOG_FORMAT", "text", "text or json", &c.LogFormat},
		{"cep-url", "AGENDEI_CEP_URL", "", "ViaCEP-compatible address lookup, e.g. https://viacep.com.br/ws (default: off, the owner types the address)", &c.CEPURL},
	}
}

// Parse reads flags from args, falling back to getenv and then to the defaults.
//
// Each adjust changes the command's flags before they are parsed (the demo
// says its own defaults in its help).
func Parse(name string, args []string, getenv func(string) string, adjust ...func(*flag.FlagSet)) (*Config, error) {
	c := &Config{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	for _, s := range c.settings() {
		def := s.def
		if v := getenv(s.env); v != "" {
			def = v
		}
		fs.StringVar(s.dst, s.flag, def, fmt.Sprintf("%s (env %s)", s.usage, s.env))
	}
	lead := 24 * time.Hour
	if v := getenv("AGENDEI_REMINDER_LEAD"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, fmt.Errorf("AGENDEI_REMINDER_LEAD must be a duration such as 24h, got %q", v)
		}
		lead = d
	}
	fs.DurationVar(&c.ReminderLead, "reminder-lead", lead, "how long before an appointment the client is reminded, for owners who never chose their reminders (env AGENDEI_REMINDER_LEAD)")
	every := 5 * time.Minute
	if v := getenv("AGENDEI_CALENDAR_READ_EVERY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute {
			return nil, fmt.Errorf("AGENDEI_CALENDAR_READ_EVERY must be a duration of at least 1m, such as 5m, got %q", v)
		}
		every = d
	}
	fs.DurationVar(&c.CalendarEvery, "calendar-read-every", every, "how often each owner's imported calendar is read (env AGENDEI_CALENDAR_READ_EVERY)")
	c.DepositMinute = time.Minute
	if v := getenv("AGENDEI_DEPOSIT_MINUTE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("AGENDEI_DEPOSIT_MINUTE must be a positive duration such as 1s, got %q", v)
		}
		c.DepositMinute = d
	}
	allowance := 200
	if v := getenv("AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE must be a whole number of messages, got %q", v)
		}
		allowance = n
	}
	fs.IntVar(&c.WhatsAppOperator.Allowance, "whatsapp-operator-allowance", allowance, "messages a month each owner may send through the operator's WhatsApp number (env AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE)")
	trust := getenv("AGENDEI_TRUST_PROXY") == "true" || getenv("AGENDEI_TRUST_PROXY") == "1"
	fs.BoolVar(&c.TrustProxy, "trust-proxy", trust, "take the client IP from X-Forwarded-For (env AGENDEI_TRUST_PROXY)")
	for _, a := range adjust {
		a(fs)
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	for _, m := range strings.Split(getenv("AGENDEI_BENCH_DISABLE"), ",") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		if !slices.Contains(BenchMechanisms, m) {
			return nil, fmt.Errorf("AGENDEI_BENCH_DISABLE takes %s, got %q", strings.Join(BenchMechanisms, ","), m)
		}
		if c.BenchDisable == nil {
			c.BenchDisable = map[string]bool{}
		}
		c.BenchDisable[m] = true
	}
	return c, c.validate()
}

func (c *Config) validate() error {
	var errs []error
	if c.BaseURL == "" {
		c.BaseURL = localURL(c.Addr)
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("AGENDEI_BASE_URL must be an http(s) URL, got %q", c.BaseURL))
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		errs = append(errs, errors.New("DATABASE_URL must start with postgres:// (leave it empty for SQLite)"))
	}
	if c.SMTPURL != "" {
		if u, err := url.Parse(c.SMTPURL); err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
			errs = append(errs, errors.New("AGENDEI_SMTP_URL must look like smtp://user:pass@host:587 or smtps://host:465"))
		}
	}
	if _, err := mail.ParseAddress(c.MailFrom); err != nil {
		errs = append(errs, fmt.Errorf("AGENDEI_MAIL_FROM is not an e-mail address: %q", c.MailFrom))
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			errs = append(errs, fmt.Errorf("AGENDEI_METRICS_ADDR must be host:port or :port, got %q", c.MetricsAddr))
		} else if c.MetricsAddr == c.Addr {
			errs = append(errs, errors.New("AGENDEI_METRICS_ADDR must differ from AGENDEI_ADDR (leave it empty to serve /metrics on the main address)"))
		}
	}
	c.SupportWhatsApp = digitsOnly(c.SupportWhatsApp)
	if c.CEPURL != "" {
		if u, err := url.Parse(c.CEPURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("AGENDEI_CEP_URL must be an http(s) URL such as https://viacep.com.br/ws, got %q", c.CEPURL))
		}
	}
	if u, err := url.Parse(c.WhatsAppGraphURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("AGENDEI_WHATSAPP_GRAPH_URL must be an http(s) URL, got %q", c.WhatsAppGraphURL))
	}
	c.WhatsAppGraphURL = strings.TrimRight(c.WhatsAppGraphURL, "/")
	if _, err := connect.ParseAllow(c.OutboundAllow); err != nil {
		errs = append(errs, fmt.Errorf("AGENDEI_OUTBOUND_ALLOW must be comma-separated networks such as 127.0.0.0/8: %v", err))
	}
	errs = append(errs, c.WhatsAppOperator.validate()...)
	if u, err := url.Parse(c.MercadoPagoAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("AGENDEI_MERCADOPAGO_API_URL must be an http(s) URL, got %q", c.MercadoPagoAPIURL))
	}
	c.MercadoPagoAPIURL = strings.TrimRight(c.MercadoPagoAPIURL, "/")
	if u, err := url.Parse(c.MercadoPagoAuthURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("AGENDEI_MERCADOPAGO_AUTH_URL must be an http(s) URL, got %q", c.MercadoPagoAuthURL))
	}
	c.MercadoPagoAuthURL = strings.TrimRight(c.MercadoPagoAuthURL, "/")
	if n := nonEmpty(c.MercadoPagoClientID, c.MercadoPagoClientSecret, c.MercadoPagoWebhookSecret); n != 0 && n != 3 {
		errs = append(errs, errors.New("AGENDEI_MERCADOPAGO_CLIENT_ID, AGENDEI_MERCADOPAGO_CLIENT_SECRET and AGENDEI_MERCADOPAGO_WEBHOOK_SECRET go together: set all three or none"))
	}
	if (c.GoogleClientID == "") != (c.GoogleClientSecret == "") {
		errs = append(errs, errors.New("AGENDEI_GOOGLE_CLIENT_ID and AGENDEI_GOOGLE_CLIENT_SECRET go together: set both or none"))
	}
	for _, g := range []struct{ name, value string }{{"AGENDEI_GOOGLE_AUTH_URL", c.GoogleAuthURL}, {"AGENDEI_GOOGLE_TOKEN_URL", c.GoogleTokenURL},
		{"AGENDEI_GOOGLE_REVOKE_URL", c.GoogleRevokeURL}, {"AGENDEI_GOOGLE_API_URL", c.GoogleAPIURL}} {
		if u, err := url.Parse(g.value); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%s must be an http(s) URL, got %q", g.name, g.value))
		}
	}
	c.GoogleAPIURL = strings.TrimRight(c.GoogleAPIURL, "/")
	if c.SecretKey != "" {
		if _, err := secretbox.Parse(c.SecretKey); err != nil {
			errs = append(errs, fmt.Errorf("AGENDEI_SECRET_KEY: %w", err))
		}
	}
	if c.VAPIDPrivateKey != "" && !validVAPID(c.VAPIDPrivateKey) {
		errs = append(errs, errors.New("AGENDEI_VAPID_PRIVATE_KEY must be base64url of a P-256 private key (32 bytes); leave it empty to generate one"))
	}
	if c.StripeSecretKey != "" && (c.StripeWebhook == "" || c.StripePriceID == "") {
		errs = append(errs, errors.New("with STRIPE_SECRET_KEY set, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID are needed too"))
	}
	// The same bounds an owner's own leads have (the contract's Reminders:
	// 30 minutes to 7 days), so what the API answers for an owner who never
	// chose (the lead in whole minutes) is a lead they could have chosen.
	if c.ReminderLead < 30*time.Minute || c.ReminderLead > 7*24*time.Hour {
		errs = append(errs, fmt.Errorf("AGENDEI_REMINDER_LEAD must be from 30m to 168h (7 days), got %s", c.ReminderLead))
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		errs = append(errs, fmt.Errorf("AGENDEI_LOG_FORMAT must be text or json, got %q", c.LogFormat))
	}
	return errors.Join(errs...)
}

// nonEmpty counts the values that are not empty.
func nonEmpty(vs ...string) int {
	n := 0
	for _, v := range vs {
		if v != "" {
			n++
		}
	}
	return n
}

// MercadoPagoOAuth reports whether the operator's Mercado Pago application
// is configured: owners may then connect with one button.
func (c *Config) MercadoPagoOAuth() bool { return c.MercadoPagoClientID != "" }

// GoogleOAuth reports whether the operator's Google OAuth client is set:
// then the calendar card offers "Conectar Google Agenda".
func (c *Config) GoogleOAuth() bool { return c.GoogleClientID != "" }

// validate: all five settings or none, ids of digits, an allowance of 1
// to 100000. The secrets are never put in an error.
func (o *WhatsAppOperator) validate() []error {
	set := 0
	for _, v := range []*string{&o.WABAID, &o.PhoneNumberID, &o.Token, &o.AppSecret, &o.VerifyToken} {
		*v = strings.TrimSpace(*v)
		if *v != "" {
			set++
		}
	}
	var errs []error
	if set != 0 && set != 5 {
		errs = append(errs, errors.New("the operator's WhatsApp number needs all of AGENDEI_WHATSAPP_OPERATOR_WABA_ID, _PHONE_NUMBER_ID, _TOKEN, _APP_SECRET and _VERIFY_TOKEN (or none)"))
	}
	if o.WABAID != "" && digitsOnly(o.WABAID) != o.WABAID || o.PhoneNumberID != "" && digitsOnly(o.PhoneNumberID) != o.PhoneNumberID {
		errs = append(errs, errors.New("AGENDEI_WHATSAPP_OPERATOR_WABA_ID and _PHONE_NUMBER_ID are digits, as Meta shows them"))
	}
	o.AppID, o.SignupConfigID = strings.TrimSpace(o.AppID), strings.TrimSpace(o.SignupConfigID)
	if (o.AppID == "") != (o.SignupConfigID == "") {
		errs = append(errs, errors.New("Embedded Signup needs both AGENDEI_WHATSAPP_APP_ID and AGENDEI_WHATSAPP_SIGNUP_CONFIG_ID (or neither)"))
	}
	if o.AppID != "" && set != 5 {
		errs = append(errs, errors.New("Embedded Signup (AGENDEI_WHATSAPP_APP_ID) needs the operator's number too: its app secret exchanges the code and checks the webhook the signed-up numbers' events reach"))
	}
	if o.AppID != "" && digitsOnly(o.AppID) != o.AppID || o.SignupConfigID != "" && digitsOnly(o.SignupConfigID) != o.SignupConfigID {
		errs = append(errs, errors.New("AGENDEI_WHATSAPP_APP_ID and AGENDEI_WHATSAPP_SIGNUP_CONFIG_ID are digits, as Meta shows them"))
	}
	if o.Allowance < 1 || o.Allowance > 100000 {
		errs = append(errs, fmt.Errorf("AGENDEI_WHATSAPP_OPERATOR_ALLOWANCE must be from 1 to 100000 messages a month, got %d", o.Allowance))
	}
	return errs
}

// TLS reports whether the public URL is https, which makes cookies Secure and
// turns on HSTS.
func (c *Config) TLS() bool { return strings.HasPrefix(c.BaseURL, "https://") }

// EnsureSecret fills Secret from <data dir>/secret.key, SecretKey from
// <data dir>/secrets.key and VAPIDPrivateKey from <data dir>/vapid.key, creating each file with a random key the first
// time. Several instances must share the keys: set AGENDEI_SECRET and
// AGENDEI_SECRET_KEY, or share the data dir.
func (c *Config) EnsureSecret() error {
	if c.Secret == "" {
		key, err := ensureFile(filepath.Join(c.DataDir, "secret.key"), c.DataDir, func() (string, error) {
			buf := make([]byte, 32)
			if _, err := rand.Read(buf); err != nil {
				return "", err
			}
			return hex.EncodeToString(buf), nil
		}, func(s string) bool { return len(s) >= 32 })
		if err != nil {
			return err
		}
		c.Secret = key
	}
	if c.SecretKey == "" {
		key, err := ensureFile(filepath.Join(c.DataDir, "secrets.key"), c.DataDir, secretbox.NewKey,
			func(s string) bool { _, err := secretbox.Parse(s); return err == nil })
		if err != nil {
			return err
		}
		c.SecretKey = key
	}
	if c.VAPIDPrivateKey == "" {
		key, err := ensureFile(filepath.Join(c.DataDir, "vapid.key"), c.DataDir, NewVAPIDKey, validVAPID)
		if err != nil {
			return err
		}
		c.VAPIDPrivateKey = key
	}
	return nil
}

// NewVAPIDKey is a new web push signing key: base64url of a P-256 private
// scalar (the form AGENDEI_VAPID_PRIVATE_KEY takes).
func NewVAPIDKey() (string, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(k.Bytes()), nil
}

func validVAPID(s string) bool {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return false
	}
	_, err = ecdh.P256().NewPrivateKey(raw)
	return err == nil
}

// ensureFile reads a key kept in path, or writes a new one from gen the
// first time.
func ensureFile(path, dir string, gen func() (string, error), ok func(string) bool) (string, error) {
	if b, err := os.ReadFile(path); err == nil && ok(strings.TrimSpace(string(b))) {
		return strings.TrimSpace(string(b)), nil
	}
	key, err := gen()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	// O_EXCL: if another process won the race, read its key instead.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		// The winner may not have written it yet.
		for range 100 {
			if b, rerr := os.ReadFile(path); rerr == nil && ok(strings.TrimSpace(string(b))) {
				return strings.TrimSpace(string(b)), nil
			}
			time.Sleep(10 * time.Millisecond)
		}
		return "", fmt.Errorf("%s exists but holds no valid key", path)
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.WriteString(key + "\n"); err != nil {
		return "", err
	}
	return key, nil
}

func digitsOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// localURL is the address as a browser on this machine reaches it, for a
// server started without a public URL (a newcomer's `make run` or a demo on
// another port): links in e-mails and the printed URLs then work.
func localURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return "http://localhost:8080"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
