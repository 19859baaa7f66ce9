// Package auth is accounts and sessions: signup, login, rotating refresh
// tokens with reuse detection, sign-out, password reset by recovery keyword
// (rate limited and locked against guessing), recovery by an e-mailed one-time
// link, and account deletion.
package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	agmail "github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

// Limits on guessing. The keyword is short (3+ letters), so it is protected
// three ways: per IP, per e-mail, and a lock on the account after 5 misses.
//
// Sign-in is limited per IP and per (e-mail, IP), never refused per e-mail
// alone: a stranger hammering the owner's address from elsewhere must not lock
// the owner out (OWASP ASVS 2.2.1). Once an e-mail has failed loginSlowAfter
// times in the window, every attempt at it waits a little longer before the
// password is checked instead (loginDelay), which slows a spread-out guesser
// down and still lets the owner in with the right password.
//
// The (e-mail, IP) limit counts failures: a good sign-in clears its pair, so
// people sharing one account on one network sign in as often as they need.
// Each attempt still counts when it arrives, before its password is checked,
// so a burst of parallel guesses cannot all slip in under the limit. The IP
// limit counts successes too: it bounds the password hashing (argon2id, 19
// MiB each) one address can ask for, and 50 in 15 minutes is more than a
// practice signs in.
var (
	ruleSignupIP     = ratelimit.Rule{Name: "signup:ip", Max: 20, Window: time.Hour}
	ruleSignupEmail  = ratelimit.Rule{Name: "signup:email", Max: 5, Window: time.Hour}
	ruleLoginIP      = ratelimit.Rule{Name: "login:ip", Max: 50, Window: 15 * time.Minute}
	ruleLoginEmailIP = ratelimit.Rule{Name: "login:email-ip", Max: 10, Window: 15 * time.Minute}                // attempts since the pair's last success
	ruleLoginFailed  = ratelimit.Rule{Name: "login:email-failed", Max: math.MaxInt32, Window: 15 * time.Minute} // counts, never refuses
	ruleResetIP      = ratelimit.Rule{Name: "reset:ip", Max: 20, Window: 15 * time.Minute}
	ruleResetEmail   = ratelimit.Rule{Name: "reset:email", Max: 10, Window: 15 * time.Minute}
	ruleRecoveryIP   = ratelimit.Rule{Name: "recovery:ip", Max: 10, Window: time.Hour}
	ruleRecoveryMail = ratelimit.Rule{Name: "recovery:email", Max: 3, Window: time.Hour}
	ruleDeleteUser   = ratelimit.Rule{Name: "delete:user", Max: 5, Window: 15 * time.Minute}
)

const (
	loginSlowAfter     = 5                      // failed sign-ins per e-mail and window after which attempts slow down
	loginBaseDelay     = 250 * time.Millisecond // the first slowed attempt's wait, doubling per failure
	loginMaxDelay      = 3 * time.Second
	keywordMaxFailures = 5
	keywordBaseLock    = 15 * time.Minute
	keywordMaxLock     = 24 * time.Hour
	minPassword        = 6
	minKeyword         = 3
	maxName            = 120
	maxSecret          = 200
)

// Errors with the spec's texts (§5, §8).
var (
	errRequiredSignup  = httpx.Validation("Todos os campos são obrigatórios")
	errPasswordShort   = httpx.Validation("A senha deve ter pelo menos 6 caracteres.")
	errKeywordShort    = httpx.Validation("A palavra-chave de recuperação deve ter pelo menos 3 caracteres.")
	errEmailInvalid    = httpx.Validation("Informe um e-mail válido.")
	errNameLong        = httpx.Validation("O nome deve ter no máximo 120 caracteres.")
	errSecretLong      = httpx.Validation("A senha e a palavra-chave devem ter no máximo 200 caracteres.")
	errLoginRequired   = httpx.Validation("Por favor, preencha e-mail e senha.")
	errResetRequired   = httpx.Validation("Por favor, preencha todos os campos.")
	errResetShort      = httpx.Validation("A nova senha deve ter pelo menos 6 caracteres.")
	errEmailTaken      = httpx.NewError(http.StatusConflict, "email_taken", "Já existe uma conta com este e-mail. Entre com sua senha ou use \"Esqueceu sua senha?\" para recuperar o acesso.")
	errBadCredentials  = httpx.NewError(http.StatusUnauthorized, "invalid_credentials", "E-mail ou senha incorretos. Verifique seus dados e tente novamente.")
	errSessionInvalid  = httpx.NewError(http.StatusUnauthorized, "unauthorized", "Sessão inválida. Faça login novamente.")
	errEmailNotFound   = httpx.NewError(http.StatusNotFound, "email_not_found", "E-mail não encontrado. Verifique o endereço digitado ou crie uma conta.")
	errKeywordNotSet   = httpx.NewError(http.StatusConflict, "keyword_not_configured", "Esta conta não tem palavra-chave de recuperação configurada. Use as opções alternativas para recuperar o acesso.")
	errKeywordWrong    = httpx.NewError(http.StatusUnauthorized, "keyword_incorrect", "A palavra-chave de recuperação está incorreta.")
	errInvalidToken    = httpx.NewError(http.StatusBadRequest, "invalid_token", "Este link de recuperação é inválido, já foi usado ou expirou. Peça um novo link.")
	errConfirmation    = httpx.NewError(http.StatusBadRequest, "confirmation_invalid", "Digite 'EXCLUIR' para confirmar")
	errPasswordNeeded  = httpx.NewError(http.StatusBadRequest, "password_required", "Digite sua senha para confirmar a exclusão")
	errPasswordWrong   = httpx.NewError(http.StatusForbidden, "password_incorrect", "Senha incorreta. Verifique e tente novamente.")
	errAccountNotFound = httpx.NewError(http.StatusNotFound, "not_found", "Usuário não encontrado")
)

func keywordLocked(wait time.Duration) *httpx.Error {
	e := httpx.NewError(http.StatusTooManyRequests, "keyword_locked", fmt.Sprintf(
		"Muitas tentativas com a palavra-chave incorreta. Por segurança, a redefinição por palavra-chave desta conta está bloqueada por %s. Use as opções alternativas.",
		ratelimit.HumanWait(wait)))
	e.RetryAfter = int(wait.Seconds() + 0.999)
	return e
}

// Service implements accounts and sessions.
type Service struct {
	db      *db.DB
	clock   clock.Clock
	limiter *ratelimit.Limiter
	mailer  *agmail.Mailer
	signer  *tokenSigner
	baseURL string
	log     *slog.Logger
	// deleteHooks run after an account's rows are gone (e.g. removing its photo).
	deleteHooks []func(ctx context.Context, userID string) error
	sessions    sessionCache
	// sleep waits d unless ctx ends first (the sign-in slowdown); tests
	// replace it through SetSleep.
	sleep func(ctx context.Context, d time.Duration) error
}

// Config wires a Service.
type Config struct {
	DB      *db.DB
	Clock   clock.Clock
	Limiter *ratelimit.Limiter
	Mailer  *agmail.Mailer
	Secret  string
	BaseURL string
	Log     *slog.Logger
}

// NewService returns a Service.
func NewService(c Config) *Service {
	return &Service{db: c.DB, clock: c.Clock, limiter: c.Limiter, mailer: c.Mailer,
		signer: &tokenSigner{key: []byte(c.Secret), clock: c.Clock}, baseURL: c.BaseURL, log: c.Log, sleep: sleepCtx}
}

// SetSleep replaces how the sign-in slowdown waits (tests record the waits
// instead of sleeping). Call it before serving requests.
func (s *Service) SetSleep(fn func(ctx context.Context, d time.Duration) error) { s.sleep = fn }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// loginDelay is the wait before checking a password for an e-mail that has
// failed failures times in the window: none before loginSlowAfter failures,
// then loginBaseDelay doubling with each further failure, up to loginMaxDelay.
func loginDelay(failures int) time.Duration {
	n := failures - loginSlowAfter
	switch {
	case n < 0:
		return 0
	case n >= 8:
		return loginMaxDelay
	}
	return min(loginBaseDelay<<n, loginMaxDelay)
}

// OnDelete adds work to do after an account is deleted (its files, say).
func (s *Service) OnDelete(fn func(ctx context.Context, userID string) error) {
	s.deleteHooks = append(s.deleteHooks, fn)
}

// Session is what a successful sign-in returns: the access token for the
// JSON body and the refresh token for the cookie.
type Session struct {
	UserID, Email string
	AccessToken   string
	ExpiresAt     time.Time
	RefreshToken  string
}

func (s *Service) newSession(ctx context.Context, q db.Querier, u *user, family string) (*Session, error) {
	refresh, family, err := insertRefresh(ctx, q, u.ID, family, s.clock.Now())
	if err != nil {
		return nil, err
	}
	access, exp, err := s.signer.issue(u.ID, family, u.SessionGen)
	if err != nil {
		return nil, err
	}
	return &Session{UserID: u.ID, Email: u.Email, AccessToken: access, ExpiresAt: exp, RefreshToken: refresh}, nil
}

// NormalizeEmail trims and lowercases an address and checks that it is one:
// a bare address as RFC 5322 writes it, whose domain is a host name
// (emailDomain). Every e-mail Agendei stores (accounts, profiles,
// professionals, clients) comes through here.
func NormalizeEmail(raw string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(raw))
	addr, err := mail.ParseAddress(e)
	if err != nil || addr.Address != e || len(e) > 254 || !emailDomain(e[strings.LastIndexByte(e, '@')+1:]) {
		return "", errEmailInvalid
	}
	return e, nil
}

// emailDomain reports whether d is a host name mail can be sent to: two or
// more labels of letters (accented ones too), digits and inner hyphens, of
// at most 63 characters, the last one a top-level name (two or more
// letters, or an xn-- name). RFC 5322 alone lets a domain be any atoms,
// so "%@%.%" passed as an address.
func emailDomain(d string) bool {
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || utf8.RuneCountInString(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if strings.HasPrefix(tld, "xn--") {
		return true
	}
	for _, r := range tld {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return utf8.RuneCountInString(tld) >= 2
}

// SignupInput is the signup payload.
type SignupInput struct {
	Name            string `json:"name"`
	Email           string `json:"email"`
	Password        string `json:"password"`
	RecoveryKeyword string `json:"recoveryKeyword"`
}

// Signup creates a confirmed account with its profile and signs it in. An
// existing e-mail is refused; it never replaces that account.
func (s *Service) Signup(ctx context.Context, in SignupInput, ip string) (*Session, error) {
	name := strings.TrimSpace(in.Name)
	password := strings.TrimSpace(in.Password)
	keyword := strings.TrimSpace(in.RecoveryKeyword)
	if name == "" || strings.TrimSpace(in.Email) == "" || password == "" || keyword == "" {
		return nil, errRequiredSignup
	}
	email, err := NormalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	switch {
	case utf8.RuneCountInString(name) > maxName:
		return nil, errNameLong
	case utf8.RuneCountInString(password) < minPassword:
		return nil, errPasswordShort
	case utf8.RuneCountInString(keyword) < minKeyword:
		return nil, errKeywordShort
	case len(password) > maxSecret || len(keyword) > maxSecret:
		return nil, errSecretLong
	}
	if err := s.limiter.Check(ctx, ruleSignupIP, ip); err != nil {
		return nil, err
	}
	if err := s.limiter.Check(ctx, ruleSignupEmail, email); err != nil {
		return nil, err
	}
	if existing, err := userByEmail(ctx, s.db, email); err != nil {
		return nil, err
	} else if existing != nil {
		return nil, errEmailTaken
	}
	pwHash, err := HashSecret(password)
	if err != nil {
		return nil, err
	}
	kwHash, err := HashSecret(normalizeKeyword(keyword))
	if err != nil {
		return nil, err
	}
	u := &user{ID: uuid.NewString(), Email: email}
	var sess *Session
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, password_hash, keyword_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			u.ID, email, pwHash, kwHash, now, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO profiles (id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			u.ID, name, email, now, now); err != nil {
			return err
		}
		var err error
		sess, err = s.newSession(ctx, tx, u, "")
		return err
	})
	if db.IsUniqueViolation(err) {
		return nil, errEmailTaken // lost a race with a signup for the same e-mail
	}
	return sess, err
}

// Login signs in with e-mail and password.
func (s *Service) Login(ctx context.Context, rawEmail, rawPassword, ip string) (*Session, error) {
	password := strings.TrimSpace(rawPassword)
	if strings.TrimSpace(rawEmail) == "" || password == "" {
		return nil, errLoginRequired
	}
	email, err := NormalizeEmail(rawEmail)
	if err != nil {
		return nil, errBadCredentials
	}
	if err := s.limiter.Check(ctx, ruleLoginIP, ip); err != nil {
		return nil, err
	}
	if err := s.limiter.Check(ctx, ruleLoginEmailIP, email+" "+ip); err != nil {
		return nil, err
	}
	// Slow down, do not lock: the wait comes before the answer for everyone
	// trying this e-mail (known or not, so it reveals nothing), so a guesser
	// cannot cut it short and read the result from the timing.
	failures, err := recentFailures(ctx, s.db, ruleLoginFailed, email, s.clock.Now())
	if err != nil {
		return nil, err
	}
	if d := loginDelay(failures); d > 0 {
		if err := s.sleep(ctx, d); err != nil {
			return nil, httpx.ErrUnavailable // the caller left; nobody reads this
		}
	}
	u, err := userByEmail(ctx, s.db, email)
	if err != nil {
		return nil, err
	}
	hash := dummyHash
	if u != nil {
		hash = u.PasswordHash
	}
	ok, err := VerifySecret(hash, password)
	if err != nil {
		return nil, err
	}
	if u == nil || !ok {
		if _, _, err := s.limiter.Allow(ctx, ruleLoginFailed, email); err != nil {
			return nil, err
		}
		return nil, errBadCredentials
	}
	if err := s.limiter.Reset(ctx, ruleLoginEmailIP, email+" "+ip); err != nil {
		return nil, err
	}
	return s.newSession(ctx, s.db, u, "")
}

// Refresh trades a refresh token for a new session in the same family. A token
// presented a second time means it was stolen or replayed: the whole family is
// revoked, signing out both the thief and the owner.
func (s *Service) Refresh(ctx context.Context, token string) (*Session, error) {
	if token == "" {
		return nil, errSessionInvalid
	}
	var sess *Session
	reused := false
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		var id, userID, family string
		var expires time.Time
		var used, revoked sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT id, user_id, family_id, expires_at, used_at, revoked_at FROM refresh_tokens WHERE token_hash = ?`,
			HashToken(token)).Scan(&id, &userID, &family, &expires, &used, &revoked)
		if errors.Is(err, sql.ErrNoRows) {
			return errSessionInvalid
		}
		if err != nil {
			return err
		}
		if used.Valid && !revoked.Valid {
			reused = true
			return revokeFamily(ctx, tx, family, now)
		}
		if revoked.Valid || !now.Before(expires) {
			return errSessionInvalid
		}
		// A token minted by a rotation that raced a revoke of its family is
		// not revoked itself, but its sign-in has ended.
		if ended, err := familyRevoked(ctx, tx, family); err != nil {
			return err
		} else if ended {
			return errSessionInvalid
		}
		if _, err := tx.ExecContext(ctx, `UPDATE refresh_tokens SET used_at = ? WHERE id = ?`, now, id); err != nil {
			return err
		}
		u, err := userByID(ctx, tx, userID)
		if err != nil {
			return err
		}
		if u == nil {
			return errSessionInvalid
		}
		sess, err = s.newSession(ctx, tx, u, family)
		return err
	})
	if err != nil {
		return nil, err
	}
	if reused {
		s.log.Warn("refresh token reuse detected; session family revoked")
		return nil, errSessionInvalid
	}
	return sess, nil
}

// Logout ends the sign-in of this refresh token (local), or every sign-in of
// its user (global), access tokens included. Without a refresh token, the
// access token (signature checked) says which sign-in. Unknown tokens are
// ignored: signing out always succeeds.
func (s *Service) Logout(ctx context.Context, refreshToken string, access accessToken, global bool) error {
	now := s.clock.Now()
	userID, family := access.UserID, access.Family
	if refreshToken != "" {
		err := s.db.QueryRowContext(ctx, `SELECT user_id, family_id FROM refresh_tokens WHERE token_hash = ?`, HashToken(refreshToken)).Scan(&userID, &family)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
	switch {
	case global && userID != "":
		if err := s.db.InTx(ctx, func(tx *db.Tx) error { return endAllSessions(ctx, tx, userID, now) }); err != nil {
			return err
		}
		s.sessions.forget(userID, "")
	case family != "":
		if err := revokeFamily(ctx, s.db, family, now); err != nil {
			return err
		}
		if userID != "" {
			s.sessions.forget(userID, family)
		}
	}
	return nil
}

// ResetInput is the password-reset payload.
type ResetInput struct {
	Email           string `json:"email"`
	RecoveryKeyword string `json:"recoveryKeyword"`
	NewPassword     string `json:"newPassword"`
}

// ResetPassword sets a new password when the recovery keyword matches. Every
// evaluated attempt e-mails the owner; 5 misses lock the keyword reset for
// 15 minutes, doubling with each lock (up to a day).
func (s *Service) ResetPassword(ctx context.Context, in ResetInput, ip string) error {
	keyword := strings.TrimSpace(in.RecoveryKeyword)
	password := strings.TrimSpace(in.NewPassword)
	if strings.TrimSpace(in.Email) == "" || keyword == "" || password == "" {
		return errResetRequired
	}
	if utf8.RuneCountInString(password) < minPassword {
		return errResetShort
	}
	if len(password) > maxSecret || len(keyword) > maxSecret {
		return errSecretLong
	}
	email, err := NormalizeEmail(in.Email)
	if err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleResetIP, ip); err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleResetEmail, email); err != nil {
		return err
	}
	u, err := userByEmail(ctx, s.db, email)
	if err != nil {
		return err
	}
	if u == nil {
		return errEmailNotFound
	}
	now := s.clock.Now()
	if u.ResetLockedUntil.Valid && now.Before(u.ResetLockedUntil.Time) {
		return keywordLocked(u.ResetLockedUntil.Time.Sub(now))
	}
	if !u.KeywordHash.Valid {
		return errKeywordNotSet
	}
	ok, err := VerifySecret(u.KeywordHash.String, normalizeKeyword(keyword))
	if err != nil {
		return err
	}
	if !ok {
		return s.keywordMiss(ctx, u, ip)
	}
	pwHash, err := HashSecret(password)
	if err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, reset_failures = 0, reset_lockouts = 0, reset_locked_until = NULL, updated_at = ? WHERE id = ?`,
			pwHash, now, u.ID); err != nil {
			return err
		}
		if err := endAllSessions(ctx, tx, u.ID, now); err != nil {
			return err
		}
		return s.queueMail(ctx, tx, u.Email, resetSucceededEmail(now, ip, s.baseURL))
	})
	if err == nil {
		s.sessions.forget(u.ID, "")
	}
	return err
}

// keywordMiss counts a wrong keyword, locking the reset at the fifth, and
// tells the owner.
func (s *Service) keywordMiss(ctx context.Context, u *user, ip string) error {
	var answer error = errKeywordWrong
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		var failures, lockouts int
		if err := tx.QueryRowContext(ctx, `SELECT reset_failures, reset_lockouts FROM users WHERE id = ?`, u.ID).Scan(&failures, &lockouts); err != nil {
			return err
		}
		failures++
		var lockedUntil sql.NullTime
		if failures >= keywordMaxFailures {
			lock := keywordBaseLock << lockouts
			if lock > keywordMaxLock || lock <= 0 {
				lock = keywordMaxLock
			}
			lockouts++
			failures = 0
			lockedUntil = sql.NullTime{Time: now.Add(lock), Valid: true}
			answer = keywordLocked(lock)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET reset_failures = ?, reset_lockouts = ?, reset_locked_until = ?, updated_at = ? WHERE id = ?`,
			failures, lockouts, lockedUntil, now, u.ID); err != nil {
			return err
		}
		return s.queueMail(ctx, tx, u.Email, resetFailedEmail(now, ip, lockedUntil, s.baseURL))
	})
	if err != nil {
		return err
	}
	return answer
}

// RequestRecovery e-mails a one-time link to the owner of email, if there is
// one. It answers the same either way.
func (s *Service) RequestRecovery(ctx context.Context, rawEmail, ip string) error {
	email, err := NormalizeEmail(rawEmail)
	if err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleRecoveryIP, ip); err != nil {
		return err
	}
	if err := s.limiter.Check(ctx, ruleRecoveryMail, email); err != nil {
		return err
	}
	u, err := userByEmail(ctx, s.db, email)
	if err != nil || u == nil {
		return err
	}
	token, hash := OpaqueToken()
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO recovery_tokens (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)`,
			hash, u.ID, now.Add(RecoveryTTL), now); err != nil {
			return err
		}
		return s.queueMail(ctx, tx, u.Email, recoveryLinkEmail(s.baseURL+"/forgot-password?token="+token, ip))
	})
}

// RecoveryInput is the payload that completes a recovery link.
type RecoveryInput struct {
	Token           string `json:"token"`
	Password        string `json:"password"`
	RecoveryKeyword string `json:"recoveryKeyword"`
}

// CompleteRecovery uses a recovery link's token once to set a new password and
// keyword, ending every session of the account.
func (s *Service) CompleteRecovery(ctx context.Context, in RecoveryInput, ip string) error {
	password := strings.TrimSpace(in.Password)
	keyword := strings.TrimSpace(in.RecoveryKeyword)
	if strings.TrimSpace(in.Token) == "" || password == "" || keyword == "" {
		return errResetRequired
	}
	switch {
	case utf8.RuneCountInString(password) < minPassword:
		return errPasswordShort
	case utf8.RuneCountInString(keyword) < minKeyword:
		return errKeywordShort
	case len(password) > maxSecret || len(keyword) > maxSecret:
		return errSecretLong
	}
	if err := s.limiter.Check(ctx, ruleRecoveryIP, ip); err != nil {
		return err
	}
	pwHash, err := HashSecret(password)
	if err != nil {
		return err
	}
	kwHash, err := HashSecret(normalizeKeyword(keyword))
	if err != nil {
		return err
	}
	var userID string
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := s.clock.Now()
		var expires time.Time
		var used sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT user_id, expires_at, used_at FROM recovery_tokens WHERE token_hash = ?`,
			HashToken(strings.TrimSpace(in.Token))).Scan(&userID, &expires, &used)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (used.Valid || !now.Before(expires))) {
			return errInvalidToken
		}
		if err != nil {
			return err
		}
		// Using one link spends every outstanding link of the account.
		if _, err := tx.ExecContext(ctx, `UPDATE recovery_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL`, now, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, keyword_hash = ?, reset_failures = 0, reset_lockouts = 0, reset_locked_until = NULL, updated_at = ? WHERE id = ?`,
			pwHash, kwHash, now, userID); err != nil {
			return err
		}
		if err := endAllSessions(ctx, tx, userID, now); err != nil {
			return err
		}
		u, err := userByID(ctx, tx, userID)
		if err != nil || u == nil {
			return err
		}
		return s.queueMail(ctx, tx, u.Email, resetSucceededEmail(now, ip, s.baseURL))
	})
	if err == nil {
		s.sessions.forget(userID, "")
	}
	return err
}

// DeleteInput confirms an account deletion.
type DeleteInput struct {
	Password     string `json:"password"`
	Confirmation string `json:"confirmation"`
}

// DeleteAccount removes the account and, through the schema's cascades, every
// row it owns; then runs the delete hooks (files).
func (s *Service) DeleteAccount(ctx context.Context, userID string, in DeleteInput) error {
	if strings.TrimSpace(in.Confirmation) != "EXCLUIR" {
		return errConfirmation
	}
	password := strings.TrimSpace(in.Password)
	if password == "" {
		return errPasswordNeeded
	}
	if err := s.limiter.Check(ctx, ruleDeleteUser, userID); err != nil {
		return err
	}
	u, err := userByID(ctx, s.db, userID)
	if err != nil {
		return err
	}
	if u == nil {
		return errAccountNotFound
	}
	ok, err := VerifySecret(u.PasswordHash, password)
	if err != nil {
		return err
	}
	if !ok {
		return errPasswordWrong
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, userID); err != nil {
			return err
		}
		// Jobs name their owner without a foreign key (jobs.About); queued
		// or sent, their mail may name the owner's clients.
		if _, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE user_id = ?`, userID); err != nil {
			return err
		}
		// The cascade bumped the data version (a row without a foreign key): drop it too.
		_, err := tx.ExecContext(ctx, `DELETE FROM data_versions WHERE user_id = ?`, userID)
		return err
	})
	if err != nil {
		return err
	}
	s.sessions.forget(userID, "")
	// The request's own context ends once its session is found gone (it just
	// was): the files must go anyway.
	ctx = context.WithoutCancel(ctx)
	for _, hook := range s.deleteHooks {
		if err := hook(ctx, userID); err != nil {
			// The account is gone already; a leftover file is logged, not fatal.
			s.log.Error("account deletion hook", "user_id", userID, "err", err)
		}
	}
	return nil
}

// Me is the signed-in owner as the header shows them.
type Me struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

// Me returns the owner behind userID.
func (s *Service) Me(ctx context.Context, userID string) (*Me, error) {
	var m Me
	err := s.db.QueryRowContext(ctx, `SELECT u.id, u.email, COALESCE(p.name, '') FROM users u LEFT JOIN profiles p ON p.id = u.id WHERE u.id = ?`,
		userID).Scan(&m.ID, &m.Email, &m.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errSessionInvalid
	}
	return &m, err
}

func (s *Service) queueMail(ctx context.Context, q db.Querier, to string, c agmail.Content) error {
	msg, err := agmail.Compose(to, c)
	if err != nil {
		return err
	}
	return s.mailer.Queue(ctx, q, msg)
}
