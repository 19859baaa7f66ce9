package mercadopago

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/secretbox"
)

// Service is the Mercado Pago connection of each owner: credentials, the
// Pix charges made through it and their webhook.
type Service struct {
	DB      *db.DB
	Clock   clock.Clock
	Box     *secretbox.Box
	API     *API
	BaseURL string // the public origin the webhook URL is made with
	// Jobs runs the check of each payment before its hold ends (nil: the
	// webhook alone confirms).
	Jobs *jobs.Queue
	// Confirmer confirms a booking whose Pix was paid (the deposit model's
	// confirm path); nil: payments are recorded and confirm nothing.
	Confirmer Confirmer
	// App is the operator's Mercado Pago application (nil: owners connect
	// only by pasting their token, the manual form).
	App *App
	// Notes tells the owner what needs them (a renewal refused for good).
	Notes *notifications.Service
}

var (
	errRequired  = httpx.Validation("Preencha o Access Token de produção e a assinatura secreta do webhook.")
	errTokenFmt  = httpx.Validation("Access Token inválido: copie o Access Token de produção (começa com APP_USR-) em Suas integrações → Credenciais de produção, sem espaços.")
	errPublicKey = httpx.Validation("Isso é a Public Key: no campo Access Token cole o Access Token de produção, que fica logo abaixo dela em Suas integrações → Credenciais de produção.")
	errSecret    = httpx.Validation("Assinatura secreta inválida: copie a assinatura secreta em Suas integrações → Webhooks → Configurar notificações, sem espaços.")
	errToken     = httpx.NewError(http.StatusBadRequest, "mercadopago_token_refused",
		"O Mercado Pago recusou o Access Token: use o Access Token de produção da sua aplicação (Suas integrações → Credenciais de produção).")
	errSite = httpx.NewError(http.StatusBadRequest, "mercadopago_not_brazil",
		"O Access Token é de uma conta do Mercado Pago de fora do Brasil: o Pix só funciona com uma conta brasileira.")
	errUnavailable  = connect.Unavailable("mercadopago_unavailable", "o Mercado Pago")
	errNotConnected = connect.NotConnected("mercadopago_not_connected", "O Mercado Pago")
)

// ConnectInput is the connect form. Either secret may be left empty when
// replacing a connection: the stored one stays.
type ConnectInput struct {
	AccessToken   string `json:"accessToken"`
	WebhookSecret string `json:"webhookSecret"`
}

// Status is what the profile shows of the connection. Secrets are never in it.
type Status struct {
	Connected   bool       `json:"connected"`
	UserID      string     `json:"userId"`   // the Mercado Pago account's id
	Nickname    string     `json:"nickname"` // as Mercado Pago shows it
	WebhookURL  string     `json:"webhookUrl"`
	ConnectedAt *time.Time `json:"connectedAt"`
	// LastNoticeAt is when a notice with a valid signature last arrived.
	LastNoticeAt *time.Time `json:"lastNoticeAt"`
	// SignatureRefusedAt is when a notice was last refused for its
	// signature, when that is newer than the last valid one: the secret
	// kept here is probably not the application's.
	SignatureRefusedAt *time.Time `json:"signatureRefusedAt"`
	// Auth is how the connection was made: "manual" (a pasted token) or
	// "oauth" ("Conectar Mercado Pago"); "" when not connected.
	Auth string `json:"auth"`
	// Reconnect: Mercado Pago refused to renew the OAuth access for good;
	// the owner must press the button again ("Reconecte o Mercado Pago").
	Reconnect bool `json:"reconnect"`
	// OAuthAvailable: the operator's application is configured, so the
	// card offers "Conectar Mercado Pago" (else only the manual form).
	OAuthAvailable bool `json:"oauthAvailable"`
}

// provider is Mercado Pago described for the connection kit: both fields
// are secrets, sealed at rest.
var provider = connect.Provider{
	Name:  "mercadopago",
	Table: "mercadopago_accounts",
	Fields: []connect.Field{
		{Name: "token", Column: "access_token_sealed", Secret: true},
		{Name: "webhook_secret", Column: "webhook_secret_sealed", Secret: true},
	},
	Owned:        []string{"mercadopago_webhook_health"},
	Required:     errRequired,
	NotConnected: errNotConnected,
}

// account is a stored connection with its secrets opened.
type account struct {
	UserID, MPUserID, Nickname string
	Token, WebhookSecret       string
	WebhookKey                 string
	Auth                       string // AuthManual or AuthOAuth
}

// accounts is the kit's life-cycle of the owners' connections.
func (s *Service) accounts() *connect.Accounts {
	return &connect.Accounts{DB: s.DB, Box: s.Box, Clock: s.Clock, BaseURL: s.BaseURL, Provider: provider}
}

// health is what the webhook last heard of each owner.
func (s *Service) health() *connect.Health {
	return &connect.Health{DB: s.DB, Clock: s.Clock, Table: "mercadopago_webhook_health"}
}

// load reads an owner's working connection (nil when none, or when its
// OAuth access could not be renewed) and opens its secrets.
func (s *Service) load(ctx context.Context, userID string) (*account, error) {
	a := account{UserID: userID}
	var failed sql.NullTime
	got, err := s.accounts().Load(ctx, s.DB, userID, connect.Col{Name: "mp_user_id", Into: &a.MPUserID}, connect.Col{Name: "nickname", Into: &a.Nickname},
		connect.Col{Name: "auth", Into: &a.Auth}, connect.Col{Name: "refresh_failed_at", Into: &failed})
	if got == nil || err != nil || failed.Valid {
		return nil, err
	}
	a.Token, a.WebhookSecret, a.WebhookKey = got.Values["token"], got.Values["webhook_secret"], got.WebhookKey
	return &a, nil
}

// Connect verifies the token with Mercado Pago (GET /users/me, a Brazilian
// account) and keeps the connection with both secrets sealed.
func (s *Service) Connect(ctx context.Context, userID string, in ConnectInput) (*Status, error) {
	if strings.TrimSpace(in.AccessToken) == "" {
		// A connection made by the button keeps no token of the owner's to
		// reuse: the manual form replacing it needs its own.
		var auth string
		if err := s.DB.QueryRowContext(ctx, `SELECT auth FROM mercadopago_accounts WHERE user_id = ?`, userID).Scan(&auth); err == nil && auth == AuthOAuth {
			return nil, errRequired
		}
	}
	err := s.accounts().Connect(ctx, userID, connect.Connection{
		In: connect.Values{"token": in.AccessToken, "webhook_secret": in.WebhookSecret},
		Check: func(in connect.Values) error {
			token, secret := in["token"], in["webhook_secret"]
			switch {
			case rePublicKey.MatchString(token):
				return errPublicKey
			case token != "" && !tokenLike(token):
				return errTokenFmt
			case secret != "" && !secretLike(secret):
				return errSecret
			}
			return nil
		},
		Verify: func(ctx context.Context, in connect.Values) (connect.Verified, error) {
			me, err := s.API.Me(ctx, in["token"])
			if err != nil {
				var ae *APIError
				if errors.As(err, &ae) && ae.Auth() {
					return connect.Verified{}, errToken
				}
				httpx.Logger(ctx).Warn("mercadopago connect: api unreachable or refused", "err", err)
				return connect.Verified{}, errUnavailable
			}
			if me.SiteID != "MLB" {
				return connect.Verified{}, errSite
			}
			return connect.Verified{
				// A pasted token replaces an OAuth grant, whose refresh token goes.
				Columns: map[string]any{"mp_user_id": strconv.FormatInt(me.ID, 10), "nickname": me.Nickname,
					"auth": AuthManual, "refresh_token_sealed": "", "token_expires_at": nil, "public_key": "", "refresh_failed_at": nil},
				// Refusals heard under the old secret say nothing about the new one.
				Save: func(ctx context.Context, tx *db.Tx) error { return s.health().Forget(ctx, tx, userID) },
			}, nil
		},
	})
	if err != nil {
		return nil, err
	}
	return s.Status(ctx, userID)
}

// Status is the connection as the profile shows it, without secrets.
func (s *Service) Status(ctx context.Context, userID string) (*Status, error) {
	st := &Status{OAuthAvailable: s.App != nil}
	var failed sql.NullTime
	acc, err := s.accounts().Peek(ctx, userID, connect.Col{Name: "mp_user_id", Into: &st.UserID}, connect.Col{Name: "nickname", Into: &st.Nickname},
		connect.Col{Name: "auth", Into: &st.Auth}, connect.Col{Name: "refresh_failed_at", Into: &failed})
	if acc == nil || err != nil {
		return st, err
	}
	st.Connected, st.ConnectedAt, st.Reconnect = true, &acc.ConnectedAt, failed.Valid
	if st.Auth == AuthManual {
		// An OAuth connection's notices come to the application's webhook:
		// there is nothing for the owner to paste anywhere.
		st.WebhookURL = s.webhookURL(acc.WebhookKey)
	}
	h, err := s.health().Read(ctx, userID)
	if err != nil {
		return nil, err
	}
	st.LastNoticeAt, st.SignatureRefusedAt = h.LastValidAt, h.RefusedAt
	return st, nil
}

func (s *Service) webhookURL(key string) string { return s.accounts().WebhookURL(key) }

// Connected reports whether an owner has a working connection (its
// secrets open under the configured keys).
func (s *Service) Connected(ctx context.Context, userID string) (bool, error) {
	return s.accounts().Connected(ctx, userID)
}

// Disconnect removes the connection, its sealed secrets and its webhook's
// health; the payments already made stay on their bookings.
func (s *Service) Disconnect(ctx context.Context, userID string) error {
	return s.accounts().Disconnect(ctx, userID)
}

// rePublicKey is the shape of a Mercado Pago public key (a prefix and a
// UUID), which sits beside the access token and is easily pasted instead.
var rePublicKey = regexp.MustCompile(`^(APP_USR|TEST)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// tokenLike accepts what Mercado Pago issues as access tokens
// (APP_USR-…, or TEST-… for the sandbox): letters, digits, '-' and '_'.
func tokenLike(s string) bool {
	if len(s) < 20 || len(s) > 256 || !(strings.HasPrefix(s, "APP_USR-") || strings.HasPrefix(s, "TEST-")) {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// secretLike accepts a webhook secret: printable ASCII without spaces.
func secretLike(s string) bool {
	if len(s) < 16 || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r > '~' {
			return false
		}
	}
	return true
}
