package mercadopago

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// App is the operator's Mercado Pago application, through which an owner
// connects with one button ("Conectar Mercado Pago"): Mercado Pago's OAuth
// authorization code flow with PKCE (S256) and state, as its developer
// documentation gives it (Segurança → OAuth): the owner is sent to
//
//	{AuthURL}/authorization?client_id=…&response_type=code&platform_id=mp&state=…&redirect_uri=…&code_challenge=…&code_challenge_method=S256
//
// and comes back to redirect_uri?code=…&state=…; the code (valid ten
// minutes, once) is exchanged at POST {API}/oauth/token with
// {client_id, client_secret, grant_type:"authorization_code", code,
// redirect_uri, code_verifier} for {access_token, token_type:"bearer",
// expires_in (seconds, 15552000 = 180 days), scope, user_id,
// refresh_token, public_key, live_mode}; before it expires the token is
// renewed with {client_id, client_secret, grant_type:"refresh_token",
// refresh_token}, which answers a new pair (the refresh token rotates).
// Errors are 400 {"error":"invalid_grant"|"invalid_client"|…}.
//
// Payments made with such a token carry the application's webhook
// (/webhooks/mercadopago), signed with the application's secret.
type App struct {
	ClientID, ClientSecret string
	WebhookSecret          string // the application's webhook signing secret
	AuthURL                string // https://auth.mercadopago.com.br
}

// Auth is how a connection was made.
const (
	AuthManual = "manual" // the owner pasted an Access Token and a webhook secret
	AuthOAuth  = "oauth"  // "Conectar Mercado Pago"
)

// StateLife is how long a started connection may take to come back.
const StateLife = 10 * time.Minute

// RenewBefore is how long before its expiry an OAuth token is renewed
// (they last 180 days; an hourly sweep renews those within this).
const RenewBefore = 30 * 24 * time.Hour

var (
	errOAuthOff = httpx.NewError(http.StatusNotFound, "mercadopago_oauth_off",
		"A conexão com um botão não está disponível neste Agendei: use a configuração manual.")
	errState = httpx.NewError(http.StatusBadRequest, "mercadopago_oauth_state",
		"Este retorno do Mercado Pago não vale mais (expirou, já foi usado ou é de outra conta). Clique em “Conectar Mercado Pago” de novo.")
	errGrant = httpx.NewError(http.StatusBadRequest, "mercadopago_oauth_refused",
		"O Mercado Pago não aceitou a autorização (ela vale só alguns minutos e uma vez). Clique em “Conectar Mercado Pago” de novo.")
	errDenied = httpx.NewError(http.StatusBadRequest, "mercadopago_oauth_denied",
		"A conexão não foi autorizada no Mercado Pago. Para conectar, clique em “Conectar Mercado Pago” e autorize o Agendei.")
)

// oauthProvider is the same table seen by an OAuth connection: the access
// token and the refresh token sealed, the webhook secret sealed empty (its
// notices are signed with the application's secret).
var oauthProvider = connect.Provider{
	Name:  provider.Name,
	Table: provider.Table,
	Fields: []connect.Field{
		{Name: "token", Column: "access_token_sealed", Secret: true},
		{Name: "webhook_secret", Column: "webhook_secret_sealed", Secret: true},
		{Name: "refresh_token", Column: "refresh_token_sealed", Secret: true},
	},
	Owned:        provider.Owned,
	Required:     errRequired,
	NotConnected: errNotConnected,
}

func (s *Service) oauthAccounts() *connect.Accounts {
	return &connect.Accounts{DB: s.DB, Box: s.Box, Clock: s.Clock, BaseURL: s.BaseURL, Provider: oauthProvider}
}

// RedirectURI is the page of the web app Mercado Pago sends the owner back
// to; it must be the one registered in the application.
func (s *Service) RedirectURI() string { return s.BaseURL + "/profile/mercadopago" }

// AppWebhookURL is the application's webhook, where the notices of every
// OAuth-connected owner's payments arrive.
func (s *Service) AppWebhookURL() string { return s.BaseURL + "/webhooks/mercadopago" }

// OAuthStart is where to send the owner.
type OAuthStart struct {
	URL string `json:"url"`
}

// OAuthFinish is what Mercado Pago sent back to the redirect page.
type OAuthFinish struct {
	Code  string `json:"code"`
	State string `json:"state"`
	// Error is Mercado Pago's error parameter when the owner did not
	// authorize (access_denied); then there is no code.
	Error string `json:"error"`
}

func stateHash(state string) string {
	sum := sha256.Sum256([]byte(state))
	return hex.EncodeToString(sum[:])
}

// Challenge is PKCE's S256: BASE64URL(SHA256(verifier)), unpadded.
func Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// maxStarts is how many unfinished "Conectar Mercado Pago" an owner may
// have at once; starting another forgets the oldest.
const maxStarts = 5

// StartOAuth begins "Conectar Mercado Pago" for the owner: a random state
// (kept as its hash, bound to the owner, for StateLife, good once) and a
// PKCE verifier (kept sealed), and the authorization URL to send them to.
func (s *Service) StartOAuth(ctx context.Context, userID string) (*OAuthStart, error) {
	if s.App == nil {
		return nil, errOAuthOff
	}
	state, verifier := connect.RandomToken(32), connect.RandomToken(48) // 43 and 64 characters of [A-Za-z0-9_-]
	now := s.Clock.Now().UTC()
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		sealed, err := s.accounts().Seal(userID, "oauth_verifier", verifier)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM mercadopago_oauth_states WHERE user_id = ? AND expires_at < ?`, userID, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO mercadopago_oauth_states (state_hash, user_id, verifier_sealed, expires_at, created_at) VALUES (?, ?, ?, ?, ?)`,
			stateHash(state), userID, sealed, now.Add(StateLife), now); err != nil {
			return err
		}
		// Bounded: an owner's few newest starts stay good (a few tabs), older ones go.
		_, err = tx.ExecContext(ctx, `DELETE FROM mercadopago_oauth_states WHERE user_id = ? AND state_hash NOT IN
			(SELECT state_hash FROM mercadopago_oauth_states WHERE user_id = ? ORDER BY created_at DESC, state_hash LIMIT ?)`, userID, userID, maxStarts)
		return err
	})
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("client_id", s.App.ClientID)
	q.Set("response_type", "code")
	q.Set("platform_id", "mp")
	q.Set("state", state)
	q.Set("redirect_uri", s.RedirectURI())
	q.Set("code_challenge", Challenge(verifier))
	q.Set("code_challenge_method", "S256")
	return &OAuthStart{URL: s.App.AuthURL + "/authorization?" + q.Encode()}, nil
}

// FinishOAuth ends "Conectar Mercado Pago": the state must be one this
// owner started, unexpired and unused (it is used up here whatever
// follows); the code is exchanged with the verifier for the owner's
// tokens, the account is checked (a Brazilian one), and the connection is
// kept with the tokens sealed.
func (s *Service) FinishOAuth(ctx context.Context, userID string, in OAuthFinish) (*Status, error) {
	if s.App == nil {
		return nil, errOAuthOff
	}
	if in.State == "" || len(in.State) > 200 || len(in.Code) > 500 {
		return nil, errState
	}
	now := s.Clock.Now().UTC()
	var sealed string
	var expires time.Time
	found := false
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var owner string
		err := tx.QueryRowContext(ctx, `SELECT user_id, verifier_sealed, expires_at FROM mercadopago_oauth_states WHERE state_hash = ?`,
			stateHash(in.State)).Scan(&owner, &sealed, &expires)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && owner != userID) {
			return nil // unknown, used, or another owner's: theirs stays theirs
		}
		if err != nil {
			return err
		}
		found = true
		_, err = tx.ExecContext(ctx, `DELETE FROM mercadopago_oauth_states WHERE state_hash = ?`, stateHash(in.State))
		return err
	})
	if err != nil {
		return nil, err
	}
	if !found || !now.Before(expires) {
		return nil, errState
	}
	if in.Error != "" || in.Code == "" {
		return nil, errDenied
	}
	verifier, err := s.accounts().Open(userID, "oauth_verifier", sealed)
	if err != nil {
		return nil, err
	}
	tok, err := s.API.Token(ctx, TokenRequest{ClientID: s.App.ClientID, ClientSecret: s.App.ClientSecret, GrantType: "authorization_code",
		Code: in.Code, RedirectURI: s.RedirectURI(), CodeVerifier: verifier})
	if err != nil {
		var ae *APIError
		if errors.As(err, &ae) && ae.Code == "invalid_grant" {
			return nil, errGrant
		}
		httpx.Logger(ctx).Warn("mercadopago oauth: code not exchanged", "err", err)
		return nil, errUnavailable
	}
	me, err := s.API.Me(ctx, tok.AccessToken)
	if err != nil {
		httpx.Logger(ctx).Warn("mercadopago oauth: account not read", "err", err)
		return nil, errUnavailable
	}
	if me.SiteID != "MLB" {
		return nil, errSite
	}
	err = s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if err := s.saveGrant(ctx, tx, userID, tok, strconv.FormatInt(me.ID, 10), me.Nickname); err != nil {
			return err
		}
		return s.health().Forget(ctx, tx, userID)
	})
	if err != nil {
		return nil, err
	}
	return s.Status(ctx, userID)
}

// saveGrant keeps an OAuth grant's tokens, sealed, in the owner's tx.
func (s *Service) saveGrant(ctx context.Context, tx *db.Tx, userID string, tok *Token, mpUserID, nickname string) error {
	return s.oauthAccounts().Save(ctx, tx, userID,
		connect.Values{"token": tok.AccessToken, "webhook_secret": "", "refresh_token": tok.RefreshToken},
		map[string]any{"auth": AuthOAuth, "mp_user_id": mpUserID, "nickname": nickname, "public_key": tok.PublicKey,
			"token_expires_at": s.Clock.Now().UTC().Add(time.Duration(tok.ExpiresIn) * time.Second), "refresh_failed_at": nil, "renewing_until": nil})
}

// RenewDue renews every OAuth token within RenewBefore of its expiry; a
// failure of one owner's does not stop the others'.
func (s *Service) RenewDue(ctx context.Context) error {
	if s.App == nil {
		return nil
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT user_id FROM mercadopago_accounts WHERE auth = 'oauth' AND refresh_failed_at IS NULL
		AND token_expires_at < ? ORDER BY token_expires_at`, s.Clock.Now().UTC().Add(RenewBefore))
	if err != nil {
		return err
	}
	var owners []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		owners = append(owners, id)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	var errs []error
	for _, id := range owners {
		if err := s.Renew(ctx, id); err != nil && ctx.Err() == nil {
			errs = append(errs, err) // logged once by the caller; tried again within the hour
		}
	}
	return errors.Join(errs...)
}

// renewClaim is how long an instance's claim to renew an owner's token
// lasts: longer than the call (renewTimeout) and the two short writes.
const (
	renewClaim   = 30 * time.Second
	renewTimeout = 10 * time.Second
)

// Renew renews one owner's OAuth token when it is due, in three steps, so
// that no transaction — on SQLite, the one writer every booking waits for —
// is held open while Mercado Pago answers:
//
//  1. under the owner's lock (the first lock of PostgreSQL's order), claim
//     the renewal (renewing_until): a second instance finds the claim, or
//     the token renewed, and leaves it — one grant, and the rotated refresh
//     token is never overwritten by an older one;
//  2. call Mercado Pago, outside any transaction;
//  3. under the owner's lock again, keep the new pair — only if the row
//     still holds the refresh token that was used (a reconnection or a
//     disconnection meanwhile wins).
//
// A renewal Mercado Pago refuses for good (invalid_grant: revoked,
// expired) marks the connection as needing the owner and tells them in
// the bell; a temporary failure leaves the claim to end, and the next
// sweep tries again. A process killed between 2 and 3 loses the rotated
// token: its next renewal is refused and the owner is told to reconnect.
func (s *Service) Renew(ctx context.Context, userID string) error {
	if s.App == nil {
		return nil
	}
	var sealed, mpUserID, nickname string
	claimed := false
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var auth string
		var expires, failed, renewing sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT auth, refresh_token_sealed, token_expires_at, refresh_failed_at, renewing_until, mp_user_id, nickname
			FROM mercadopago_accounts WHERE user_id = ?`, userID).Scan(&auth, &sealed, &expires, &failed, &renewing, &mpUserID, &nickname)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // disconnected meanwhile
		}
		if err != nil {
			return err
		}
		now := s.Clock.Now().UTC()
		if auth != AuthOAuth || failed.Valid || (expires.Valid && !expires.Time.Before(now.Add(RenewBefore))) ||
			(renewing.Valid && now.Before(renewing.Time)) {
			return nil // manual, waiting for the owner, renewed or being renewed by another instance
		}
		claimed = true
		_, err = tx.ExecContext(ctx, `UPDATE mercadopago_accounts SET renewing_until = ? WHERE user_id = ?`, now.Add(renewClaim), userID)
		return err
	})
	if err != nil || !claimed {
		return err
	}
	refresh, err := s.oauthAccounts().Open(userID, "refresh_token", sealed)
	if err != nil {
		return err
	}
	call, cancel := context.WithTimeout(ctx, renewTimeout)
	defer cancel()
	tok, callErr := s.API.Token(call, TokenRequest{ClientID: s.App.ClientID, ClientSecret: s.App.ClientSecret, GrantType: "refresh_token", RefreshToken: refresh})
	var ae *APIError
	refused := errors.As(callErr, &ae) && (ae.Code == "invalid_grant" || ae.Code == "unauthorized_client")
	if callErr != nil && !refused {
		return callErr // temporary: the claim ends, the next sweep tries again
	}
	return s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var now = s.Clock.Now().UTC()
		var current string
		err := tx.QueryRowContext(ctx, `SELECT refresh_token_sealed FROM mercadopago_accounts WHERE user_id = ?`, userID).Scan(&current)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && current != sealed) {
			return nil // disconnected or connected again meanwhile: that connection stands
		}
		if err != nil {
			return err
		}
		if !refused {
			return s.saveGrant(ctx, tx, userID, tok, mpUserID, nickname)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE mercadopago_accounts SET refresh_failed_at = ?, renewing_until = NULL, updated_at = ? WHERE user_id = ?`,
			now, now, userID); err != nil {
			return err
		}
		if s.Notes == nil {
			return nil
		}
		return s.Notes.Create(ctx, tx, userID, notifications.System, "Reconecte o Mercado Pago",
			"O Mercado Pago não renovou o acesso do Agendei à sua conta (a autorização foi removida ou expirou). Enquanto você não reconectar, os sinais usam a sua chave Pix. Vá em Perfil → Mercado Pago e clique em “Conectar Mercado Pago”.", "")
	})
}
