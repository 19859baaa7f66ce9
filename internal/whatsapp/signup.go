package whatsapp

// Meta's Embedded Signup (issue 41 §2): "Conectar meu WhatsApp" opens
// Meta's own sign-up window (Facebook Login for Business with the
// operator's configuration id); the browser hands Agendei the returned
// code with the WABA and phone-number ids that the sign-up's session
// logging message gave it, and the rest is server to server, following
// Meta's "Onboarding business customers as a Tech Provider":
//
//  1. the code is exchanged for the business token at
//     GET /oauth/access_token (client_id, client_secret, code), once: Meta
//     refuses a code used before;
//  2. the token is checked (GET /debug_token with the app's token): it is
//     of the operator's app, valid, and its whatsapp_business_management
//     granular scope names the WABA the browser said — an id typed into
//     the request by hand gets nothing;
//  3. the number is registered for the Cloud API (POST
//     /{phone-number-id}/register {messaging_product, pin}); the pin sets
//     two-step verification when the number has none (a random one,
//     kept sealed), and must be the number's own when it has one — then
//     the card asks the owner for it;
//  4. the app is subscribed to the WABA's webhooks (POST
//     /{waba-id}/subscribed_apps): its events then reach the operator
//     app's webhook, which routes them by phone_number_id (webhook.go);
//  5. Agendei's templates are created (ensureTemplates), and the
//     connection is kept through connect.Accounts, the token sealed.
//
// The operator's app secret never goes to the database: a signed-up
// account's own app secret is empty, and its own webhook URL answers
// nothing (events come to the operator's).

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"

	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// SignupInput is what the card posts after Meta's sign-up window: the
// code of FB.login's answer, and the ids of the session logging message.
// PIN is the number's two-step verification PIN, only when Meta asked.
type SignupInput struct {
	Code          string `json:"code"`
	WABAID        string `json:"wabaId"`
	PhoneNumberID string `json:"phoneNumberId"`
	PIN           string `json:"pin"`
}

// SignupConfig is what the card needs to open Meta's sign-up window.
type SignupConfig struct {
	Available bool   `json:"available"`
	AppID     string `json:"appId,omitempty"`
	ConfigID  string `json:"configId,omitempty"`
	// GraphVersion is the Graph API version the SDK is initialised with.
	GraphVersion string `json:"graphVersion,omitempty"`
}

var (
	errSignupOff = httpx.NewError(http.StatusNotFound, "whatsapp_signup_unavailable",
		"A conexão com um clique não está disponível nesta instalação: use a configuração manual.")
	errSignupInput = httpx.Validation("O Meta não devolveu o código e os IDs da conta e do número. Clique em “Conectar meu WhatsApp” de novo e conclua a janela do Meta.")
	errSignupPIN   = httpx.Validation("O PIN da verificação em duas etapas tem 6 dígitos.")
	// Meta's FINISH_ONLY_WABA: the sign-up ended with an account and no number.
	errSignupNoNumber = httpx.NewError(http.StatusBadRequest, "whatsapp_signup_no_number",
		"Sua conta do WhatsApp Business foi criada no Meta, mas ainda sem um número de telefone, e é dele que as mensagens saem. Clique em “Conectar meu WhatsApp” de novo e, na janela do Meta, escolha ou cadastre o número da clínica.")
	errSignupCode = httpx.NewError(http.StatusBadRequest, "whatsapp_signup_code",
		"O código do Meta expirou ou já foi usado. Clique em “Conectar meu WhatsApp” de novo.")
	errSignupShared = httpx.NewError(http.StatusBadRequest, "whatsapp_signup_not_shared",
		"O Meta não compartilhou essa conta do WhatsApp Business com o Agendei. Clique em “Conectar meu WhatsApp” de novo e escolha a conta na janela do Meta.")
	errSignupPINNeeded = httpx.NewError(http.StatusConflict, "whatsapp_pin_required",
		"Este número já tem verificação em duas etapas: digite o PIN de 6 dígitos dele para concluir.")
	errSignupPINWrong = httpx.NewError(http.StatusBadRequest, "whatsapp_pin_mismatch",
		"O PIN não confere com o da verificação em duas etapas do número. Se não lembrar, redefina-o no Gerenciador do WhatsApp do Meta.")
)

// errPINMismatch is Meta's "Two step verification PIN Mismatch".
const errPINMismatch = 133005

// SignupConfig tells the card whether, and how, to offer the button.
func (s *Service) SignupConfig() SignupConfig {
	if !s.Operator.Signup() {
		return SignupConfig{}
	}
	return SignupConfig{Available: true, AppID: s.Operator.AppID, ConfigID: s.Operator.SignupConfigID, GraphVersion: GraphVersion}
}

// Signup finishes Meta's Embedded Signup for an owner (steps in the file's
// comment) and keeps the connection.
func (s *Service) Signup(ctx context.Context, userID string, in SignupInput) (*Status, error) {
	o := s.Operator
	if !o.Signup() {
		return nil, errSignupOff
	}
	if in.Code != "" && digits(in.WABAID) && in.PhoneNumberID == "" {
		return nil, errSignupNoNumber
	}
	if in.Code == "" || len(in.Code) > 2048 || !digits(in.WABAID) || !digits(in.PhoneNumberID) || len(in.WABAID) > 32 || len(in.PhoneNumberID) > 32 {
		return nil, errSignupInput
	}
	pin := in.PIN
	if pin != "" && (len(pin) != 6 || !digits(pin)) {
		return nil, errSignupPIN
	}
	token, err := s.Graph.ExchangeCode(ctx, o.AppID, o.AppSecret, in.Code)
	if err != nil {
		return nil, signupError(ctx, "code exchange", err, errSignupCode)
	}
	dbg, err := s.Graph.DebugToken(ctx, o.AppID+"|"+o.AppSecret, token)
	if err != nil {
		return nil, signupError(ctx, "debug_token", err, errSignupShared)
	}
	if !dbg.IsValid || dbg.AppID != o.AppID || !dbg.Grants("whatsapp_business_management", in.WABAID) {
		return nil, errSignupShared
	}
	phone, err := s.Graph.PhoneNumber(ctx, token, in.PhoneNumberID)
	if err != nil {
		return nil, connectError(ctx, err, errPhone)
	}
	chosen := pin == ""
	if chosen {
		if pin, err = randomPIN(); err != nil {
			return nil, err
		}
	}
	if err := s.Graph.Register(ctx, token, in.PhoneNumberID, pin); err != nil {
		var ge *GraphError
		if errors.As(err, &ge) && ge.Code == errPINMismatch {
			if chosen {
				return nil, errSignupPINNeeded
			}
			return nil, errSignupPINWrong
		}
		return nil, connectError(ctx, err, errPhone)
	}
	if err := s.Graph.SubscribeApp(ctx, token, in.WABAID); err != nil {
		return nil, connectError(ctx, err, errWABA)
	}
	list, err := s.Graph.Templates(ctx, token, in.WABAID)
	if err != nil {
		return nil, connectError(ctx, err, errWABA)
	}
	statuses, err := s.ensureTemplates(ctx, token, in.WABAID, list)
	if err != nil {
		return nil, connectError(ctx, err, errWABA)
	}
	sealedPIN := ""
	if chosen { // the owner's own PIN they know; the one Agendei chose is kept
		if sealedPIN, err = s.accounts().Seal(userID, "pin", pin); err != nil {
			return nil, err
		}
	}
	now := s.Clock.Now().UTC()
	err = s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		in := connect.Values{"waba_id": in.WABAID, "phone_number_id": in.PhoneNumberID, "token": token, "app_secret": ""}
		cols := map[string]any{"display_phone_number": phone.DisplayPhoneNumber, "verified_name": phone.VerifiedName,
			"templates_checked_at": now, "signup": 1, "pin_sealed": sealedPIN}
		if err := s.accounts().Save(ctx, tx, userID, in, cols); err != nil {
			return err
		}
		return saveTemplates(ctx, tx, userID, statuses, now)
	})
	if err != nil {
		return nil, err
	}
	return s.Status(ctx, userID)
}

// signupError is connectError for the exchange and the token check: a
// refused code or token is the owner's to redo (refused), Meta away is
// errMeta. The app's own credentials refused (a wrong app secret or id)
// is the operator's fault: logged, and the owner told Meta is away.
func signupError(ctx context.Context, step string, err error, refused error) error {
	var ge *GraphError
	if !errors.As(err, &ge) {
		httpx.Logger(ctx).Warn("whatsapp signup: graph api unreachable", "step", step, "err", err)
		return errMeta
	}
	switch {
	case ge.Code == 101 || ge.Code == 1 && ge.Type == "OAuthException":
		httpx.Logger(ctx).Error("whatsapp signup: Meta refused the operator's app id or secret", "step", step, "err", err)
		return errMeta
	case ge.Temporary():
		return errMeta
	case ge.Code == 100 || ge.Code == 190 || ge.Auth():
		return refused
	}
	httpx.Logger(ctx).Warn("whatsapp signup: graph api refused", "step", step, "err", err)
	return errMeta
}

func randomPIN() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// ExchangeCode trades an Embedded Signup code for the business token (GET
// /oauth/access_token with client_id, client_secret and code → {access_token,
// token_type}). The secret travels in the query as Meta documents, so a
// transport fault's URL is cut from the error before anyone logs it.
func (g *Graph) ExchangeCode(ctx context.Context, appID, appSecret, code string) (string, error) {
	var out struct {
		AccessToken string `json:"access_token"`
	}
	q := url.Values{"client_id": {appID}, "client_secret": {appSecret}, "code": {code}}
	err := g.do(ctx, "", http.MethodGet, "/oauth/access_token", q, nil, &out)
	var ue *url.Error
	if errors.As(err, &ue) {
		return "", fmt.Errorf("graph api: oauth/access_token: %s: %w", ue.Op, ue.Err)
	}
	if err != nil {
		return "", err
	}
	if out.AccessToken == "" {
		return "", errors.New("graph api: code exchanged without an access_token")
	}
	return out.AccessToken, nil
}

// TokenInfo is what GET /debug_token tells of a token.
type TokenInfo struct {
	AppID          string `json:"app_id"`
	IsValid        bool   `json:"is_valid"`
	GranularScopes []struct {
		Scope     string   `json:"scope"`
		TargetIDs []string `json:"target_ids"`
	} `json:"granular_scopes"`
}

// Grants reports whether the token's scope names the object.
func (t *TokenInfo) Grants(scope, id string) bool {
	for _, g := range t.GranularScopes {
		if g.Scope == scope && slices.Contains(g.TargetIDs, id) {
			return true
		}
	}
	return false
}

// DebugToken reads a token's app, validity and granular scopes, asked with
// the app's own token ("app-id|app-secret"), which is cut from a transport
// fault's error as ExchangeCode's secret is.
func (g *Graph) DebugToken(ctx context.Context, appToken, token string) (*TokenInfo, error) {
	var out struct {
		Data json.RawMessage `json:"data"`
	}
	err := g.do(ctx, appToken, http.MethodGet, "/debug_token", url.Values{"input_token": {token}}, nil, &out)
	var ue *url.Error
	if errors.As(err, &ue) {
		return nil, fmt.Errorf("graph api: debug_token: %s: %w", ue.Op, ue.Err)
	}
	if err != nil {
		return nil, err
	}
	var info TokenInfo
	if err := json.Unmarshal(out.Data, &info); err != nil {
		return nil, fmt.Errorf("graph api: debug_token: %w", err)
	}
	return &info, nil
}

// Register registers a phone number for the Cloud API with its two-step
// verification PIN (POST /{phone-number-id}/register {messaging_product, pin}
// → {"success":true}).
func (g *Graph) Register(ctx context.Context, token, phoneNumberID, pin string) error {
	return g.success(ctx, token, http.MethodPost, "/"+url.PathEscape(phoneNumberID)+"/register", map[string]string{"messaging_product": "whatsapp", "pin": pin})
}

// SubscribeApp subscribes the token's app to a WABA's webhooks (POST
// /{waba-id}/subscribed_apps → {"success":true}).
func (g *Graph) SubscribeApp(ctx context.Context, token, wabaID string) error {
	return g.success(ctx, token, http.MethodPost, "/"+url.PathEscape(wabaID)+"/subscribed_apps", nil)
}

// UnsubscribeApp ends the token's app's subscription to a WABA's webhooks
// (DELETE /{waba-id}/subscribed_apps, no body → {"success":true}).
func (g *Graph) UnsubscribeApp(ctx context.Context, token, wabaID string) error {
	return g.success(ctx, token, http.MethodDelete, "/"+url.PathEscape(wabaID)+"/subscribed_apps", nil)
}

func (g *Graph) success(ctx context.Context, token, method, path string, in any) error {
	var out struct {
		Success bool `json:"success"`
	}
	if err := g.do(ctx, token, method, path, nil, in, &out); err != nil {
		return err
	}
	if !out.Success {
		return errors.New("graph api: " + path + " answered without success")
	}
	return nil
}
