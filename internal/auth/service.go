// Package auth is accounts and sessions: signup, login, rotating refresh
// tokens with reuse detection, sign-out, password reset by recovery keyword
// (rate limited and locked against guessing), recovery by an e-mailed one-time
// link, and account deletion.
package auth

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"time"

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
	// refreshLeeway is how long a just-rotated refresh token still trades for
	// a session instead of counting as stolen: the answer to a refresh can be
	// lost on its way (the owner taps a link while the app refreshes, a phone's
	// network drops), and the browser then presents the old cookie again. A
	// replay inside it mints a sibling in the same family; after it, the whole
	// family is revoked. Auth0's "reuse interval" and Okta's grace period work
	// the same way.
	refreshLeeway = 30 * time.Second
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
	errRecordsKept     = httpx.NewError(http.StatusConflict, "records_kept", "Esta conta guarda prontuários de clientes, que a lei manda manter por pelo menos 5 anos após a última anotação (CFP 001/2009; Lei 13.787/2018). A conta não pode ser excluída enquanto eles existirem.")
)

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
	// copyParts are the domains' parts of the owner's LGPD copy.
	copyParts []CopyPart
	sessions  sessionCache
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

// Me is who is signed in, as the header shows them: the owner, or a
// professional of the practice (Role "professional", with the practice's
// name and the professional of the team they are).
type Me struct {
	ID             string `json:"id"`
	Email          string `json:"email"`
	Name           string `json:"name"`
	Role           string `json:"role"` // owner, professional
	ProfessionalID string `json:"professionalId,omitempty"`
	Practice       string `json:"practice,omitempty"`
}

// Me returns who is signed in: the owner, or, when professionalID is set,
// that professional of the owner's practice.
func (s *Service) Me(ctx context.Context, ownerID, professionalID string) (*Me, error) {
	var m Me
	var err error
	if professionalID == "" {
		m.Role = "owner"
		err = s.db.QueryRowContext(ctx, `SELECT u.id, u.email, COALESCE(p.name, '') FROM users u LEFT JOIN profiles p ON p.id = u.id WHERE u.id = ?`,
			ownerID).Scan(&m.ID, &m.Email, &m.Name)
	} else {
		m.Role, m.ProfessionalID = "professional", professionalID
		err = s.db.QueryRowContext(ctx, `SELECT u.id, u.email, pr.name, COALESCE(p.name, '') FROM members m
			JOIN users u ON u.id = m.user_id JOIN professionals pr ON pr.id = m.professional_id LEFT JOIN profiles p ON p.id = m.owner_id
			WHERE m.professional_id = ? AND m.owner_id = ?`, professionalID, ownerID).Scan(&m.ID, &m.Email, &m.Name, &m.Practice)
	}
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
