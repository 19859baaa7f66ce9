package mercadopago

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/clock"
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
	errUnavailable = httpx.NewError(http.StatusBadGateway, "mercadopago_unavailable",
		"Não foi possível falar com o Mercado Pago agora. Tente novamente em alguns minutos.")
	errNotConnected = httpx.NewError(http.StatusNotFound, "mercadopago_not_connected", "O Mercado Pago não está conectado.")
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
}

// account is a stored connection with its secrets opened.
type account struct {
	UserID, MPUserID, Nickname string
	Token, WebhookSecret       string
	WebhookKey                 string
}

func sealCtx(userID, field string) string { return userID + ":mercadopago." + field }

// load reads an owner's connection (nil when none) and opens its secrets.
func (s *Service) load(ctx context.Context, userID string) (*account, error) {
	a := account{UserID: userID}
	var tok, sec string
	err := s.DB.QueryRowContext(ctx, `SELECT mp_user_id, nickname, access_token_sealed, webhook_secret_sealed, webhook_key
		FROM mercadopago_accounts WHERE user_id = ?`, userID).Scan(&a.MPUserID, &a.Nickname, &tok, &sec, &a.WebhookKey)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if a.Token, err = s.Box.Open(tok, sealCtx(userID, "token")); err != nil {
		return nil, err
	}
	if a.WebhookSecret, err = s.Box.Open(sec, sealCtx(userID, "webhook_secret")); err != nil {
		return nil, err
	}
	return &a, nil
}

// Connect verifies the token with Mercado Pago (GET /users/me, a Brazilian
// account) and keeps the connection with both secrets sealed.
func (s *Service) Connect(ctx context.Context, userID string, in ConnectInput) (*Status, error) {
	in.AccessToken, in.WebhookSecret = strings.TrimSpace(in.AccessToken), strings.TrimSpace(in.WebhookSecret)
	if rePublicKey.MatchString(in.AccessToken) {
		return nil, errPublicKey
	}
	if in.AccessToken != "" && !tokenLike(in.AccessToken) {
		return nil, errTokenFmt
	}
	if in.WebhookSecret != "" && !secretLike(in.WebhookSecret) {
		return nil, errSecret
	}
	old, err := s.load(ctx, userID)
	if err != nil && !errors.Is(err, secretbox.ErrOpen) {
		return nil, err
	}
	if old != nil {
		if in.AccessToken == "" {
			in.AccessToken = old.Token
		}
		if in.WebhookSecret == "" {
			in.WebhookSecret = old.WebhookSecret
		}
	}
	if in.AccessToken == "" || in.WebhookSecret == "" {
		return nil, errRequired
	}
	me, err := s.API.Me(ctx, in.AccessToken)
	if err != nil {
		var ae *APIError
		if errors.As(err, &ae) && ae.Auth() {
			return nil, errToken
		}
		httpx.Logger(ctx).Warn("mercadopago connect: api unreachable or refused", "err", err)
		return nil, errUnavailable
	}
	if me.SiteID != "MLB" {
		return nil, errSite
	}
	tok, err := s.Box.Seal(in.AccessToken, sealCtx(userID, "token"))
	if err != nil {
		return nil, err
	}
	sec, err := s.Box.Seal(in.WebhookSecret, sealCtx(userID, "webhook_secret"))
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now().UTC()
	key := randomToken(24)
	if old != nil {
		key = old.WebhookKey
	}
	err = s.DB.OwnerExec(ctx, userID, nil, `INSERT INTO mercadopago_accounts (user_id, mp_user_id, nickname, access_token_sealed, webhook_secret_sealed,
		webhook_key, connected_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET mp_user_id = excluded.mp_user_id, nickname = excluded.nickname,
		access_token_sealed = excluded.access_token_sealed, webhook_secret_sealed = excluded.webhook_secret_sealed, updated_at = excluded.updated_at`,
		userID, strconv.FormatInt(me.ID, 10), me.Nickname, tok, sec, key, now, now)
	if err != nil {
		return nil, err
	}
	// Refusals heard under the old secret say nothing about the new one.
	if _, err := s.DB.ExecContext(ctx, `UPDATE mercadopago_webhook_health SET last_refused_at = NULL WHERE user_id = ?`, userID); err != nil {
		return nil, err
	}
	return s.Status(ctx, userID)
}

// Status is the connection as the profile shows it, without secrets.
func (s *Service) Status(ctx context.Context, userID string) (*Status, error) {
	st := &Status{}
	var connected time.Time
	var key string
	err := s.DB.QueryRowContext(ctx, `SELECT mp_user_id, nickname, webhook_key, connected_at FROM mercadopago_accounts WHERE user_id = ?`, userID).Scan(
		&st.UserID, &st.Nickname, &key, &connected)
	if errors.Is(err, sql.ErrNoRows) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	st.Connected, st.ConnectedAt = true, &connected
	st.WebhookURL = s.webhookURL(key)
	var valid, refused sql.NullTime
	err = s.DB.QueryRowContext(ctx, `SELECT last_valid_at, last_refused_at FROM mercadopago_webhook_health WHERE user_id = ?`, userID).Scan(&valid, &refused)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if valid.Valid {
		t := valid.Time.UTC()
		st.LastNoticeAt = &t
	}
	if refused.Valid && (!valid.Valid || refused.Time.After(valid.Time)) {
		t := refused.Time.UTC()
		st.SignatureRefusedAt = &t
	}
	return st, nil
}

func (s *Service) webhookURL(key string) string { return s.BaseURL + "/webhooks/mercadopago/" + key }

// Connected reports whether an owner has a working connection (its
// secrets open under the configured keys).
func (s *Service) Connected(ctx context.Context, userID string) (bool, error) {
	a, err := s.load(ctx, userID)
	if errors.Is(err, secretbox.ErrOpen) {
		return false, nil
	}
	return a != nil, err
}

// Disconnect removes the connection and its sealed secrets; the payments
// already made stay on their bookings.
func (s *Service) Disconnect(ctx context.Context, userID string) error {
	return s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM mercadopago_webhook_health WHERE user_id = ?`, userID); err != nil {
			return err
		}
		return db.ExecOwned(ctx, tx, errNotConnected, `DELETE FROM mercadopago_accounts WHERE user_id = ?`, userID)
	})
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

func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
