package whatsapp

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/secretbox"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/schedule"
)

// Service is the WhatsApp connection of each owner: credentials, templates,
// sending and the webhook.
type Service struct {
	DB      *db.DB
	Clock   clock.Clock
	Box     *secretbox.Box
	Graph   *Graph
	BaseURL string // the public origin the webhook URL is shown with
	Jobs    *jobs.Queue
	// Answers acts on a client's quick-reply answer (the one-tap answers'
	// entry point); nil: answers are recorded as received and not acted on.
	Answers Answerer
	// Fallback sends the e-mail of a message WhatsApp could not deliver.
	Fallback Fallback
	// Offers is the waitlist: what an offer's message says, and its
	// e-mail when WhatsApp could not deliver it (nil: no offers by WhatsApp).
	Offers Offers
	// Operator is the operator's number for owners without their own
	// (issue 41 §1); nil or not configured: none.
	Operator *Operator
	// Notes tells an owner that the operator's allowance ran out.
	Notes *notifications.Service
}

var (
	errRequired = httpx.Validation("Preencha o ID da conta do WhatsApp Business, o ID do número de telefone, o token de acesso permanente e a chave secreta do app.")
	errIDs      = httpx.Validation("Os IDs da conta e do número de telefone têm só dígitos, como o Meta mostra em WhatsApp > Configuração da API.")
	errTooLong  = httpx.Validation("O token de acesso e a chave secreta do app têm no máximo 1024 caracteres.")
	errToken    = httpx.NewError(http.StatusBadRequest, "whatsapp_token_refused",
		"O Meta recusou o token de acesso: use o token permanente de um usuário do sistema com as permissões whatsapp_business_messaging e whatsapp_business_management.")
	errPhone = httpx.NewError(http.StatusBadRequest, "whatsapp_phone_not_found",
		"O Meta não encontrou esse ID do número de telefone com esse token. Confira o ID (não é o número em si) em WhatsApp > Configuração da API.")
	errWABA = httpx.NewError(http.StatusBadRequest, "whatsapp_account_not_found",
		"O Meta não deu acesso à conta do WhatsApp Business com esse ID. Confira o ID da conta em WhatsApp > Configuração da API.")
	errMeta         = connect.Unavailable("whatsapp_unavailable", "o Meta")
	errNotConnected = connect.NotConnected("whatsapp_not_connected", "O WhatsApp Business")
)

// ConnectInput is the connect form. AccessToken and AppSecret may be left
// empty when replacing the other fields of a connection: the stored ones stay.
type ConnectInput struct {
	WABAID        string `json:"wabaId"`
	PhoneNumberID string `json:"phoneNumberId"`
	AccessToken   string `json:"accessToken"`
	AppSecret     string `json:"appSecret"`
}

// TemplateStatus is one of Agendei's templates as Meta reviewed it.
type TemplateStatus struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Status string `json:"status"`
}

// Status is what the profile shows of the connection. Secrets are never in it.
type Status struct {
	Connected          bool             `json:"connected"`
	WABAID             string           `json:"wabaId"`
	PhoneNumberID      string           `json:"phoneNumberId"`
	DisplayPhoneNumber string           `json:"displayPhoneNumber"`
	VerifiedName       string           `json:"verifiedName"`
	WebhookURL         string           `json:"webhookUrl"`
	VerifyToken        string           `json:"verifyToken"`
	Templates          []TemplateStatus `json:"templates"`
	SentThisMonth      int              `json:"sentThisMonth"`
	ConnectedAt        *time.Time       `json:"connectedAt"`
	// Operator is the operator's number, for an owner without their own.
	Operator OperatorStatus `json:"operator"`
	// Signup: whether (and how) the card offers "Conectar meu WhatsApp".
	Signup SignupConfig `json:"signup"`
	// SignedUp: the number was connected through Meta's Embedded Signup
	// (its events come to the operator's webhook: no URL to give Meta).
	SignedUp bool `json:"signedUp"`
}

// provider is WhatsApp described for the connection kit: the form's
// fields (the token and the app secret sealed) and what its table keeps.
var provider = connect.Provider{
	Name:  "whatsapp",
	Table: "whatsapp_accounts",
	Fields: []connect.Field{
		{Name: "waba_id"},
		{Name: "phone_number_id"},
		{Name: "token", Column: "access_token_sealed", Secret: true},
		{Name: "app_secret", Column: "app_secret_sealed", Secret: true},
	},
	Keys:         []string{"verify_token"},
	Owned:        []string{"whatsapp_templates"},
	Required:     errRequired,
	NotConnected: errNotConnected,
}

// account is a stored connection with its secrets opened.
type account struct {
	UserID, WABAID, PhoneNumberID, Display, Name string
	Token, AppSecret                             string
	VerifyToken, WebhookKey                      string
	// SignedUp: connected by Embedded Signup (its events come to the
	// operator app's webhook, which is subscribed to its WABA).
	SignedUp    bool
	ConnectedAt time.Time
	CheckedAt   sql.NullTime
}

// accounts is the kit's life-cycle of the owners' connections.
func (s *Service) accounts() *connect.Accounts {
	return &connect.Accounts{DB: s.DB, Box: s.Box, Clock: s.Clock, BaseURL: s.BaseURL, Provider: provider}
}

// load reads an owner's connection (nil when none) and opens its secrets.
func (s *Service) load(ctx context.Context, q db.Querier, userID string) (*account, error) {
	a := account{UserID: userID}
	got, err := s.accounts().Load(ctx, q, userID, connect.Col{Name: "display_phone_number", Into: &a.Display},
		connect.Col{Name: "verified_name", Into: &a.Name}, connect.Col{Name: "templates_checked_at", Into: &a.CheckedAt},
		connect.Col{Name: "signup", Into: &a.SignedUp})
	if got == nil || err != nil {
		return nil, err
	}
	v := got.Values
	a.WABAID, a.PhoneNumberID, a.Token, a.AppSecret = v["waba_id"], v["phone_number_id"], v["token"], v["app_secret"]
	a.VerifyToken, a.WebhookKey, a.ConnectedAt = v["verify_token"], got.WebhookKey, got.ConnectedAt
	return &a, nil
}

// Connect verifies the credentials with Meta (the phone number's display
// name, the account's templates), creates Agendei's templates where
// missing, and keeps the connection with its secrets sealed.
func (s *Service) Connect(ctx context.Context, userID string, in ConnectInput) (*Status, error) {
	err := s.accounts().Connect(ctx, userID, connect.Connection{
		In: connect.Values{"waba_id": in.WABAID, "phone_number_id": in.PhoneNumberID, "token": in.AccessToken, "app_secret": in.AppSecret},
		Check: func(in connect.Values) error {
			waba, phone := in["waba_id"], in["phone_number_id"]
			if waba == "" || phone == "" {
				return errRequired
			}
			if !digits(waba) || !digits(phone) || len(waba) > 32 || len(phone) > 32 {
				return errIDs
			}
			if len(in["token"]) > 1024 || len(in["app_secret"]) > 1024 {
				return errTooLong
			}
			return nil
		},
		Verify: func(ctx context.Context, in connect.Values) (connect.Verified, error) {
			token, waba := in["token"], in["waba_id"]
			phone, err := s.Graph.PhoneNumber(ctx, token, in["phone_number_id"])
			if err != nil {
				return connect.Verified{}, connectError(ctx, err, errPhone)
			}
			list, err := s.Graph.Templates(ctx, token, waba)
			if err != nil {
				return connect.Verified{}, connectError(ctx, err, errWABA)
			}
			statuses, err := s.ensureTemplates(ctx, token, waba, list)
			if err != nil {
				return connect.Verified{}, connectError(ctx, err, errWABA)
			}
			now := s.Clock.Now().UTC()
			return connect.Verified{
				Columns: map[string]any{"display_phone_number": phone.DisplayPhoneNumber, "verified_name": phone.VerifiedName, "templates_checked_at": now,
					"signup": 0, "pin_sealed": ""}, // typed by hand: events come to the owner's own webhook
				Save: func(ctx context.Context, tx *db.Tx) error { return saveTemplates(ctx, tx, userID, statuses, now) },
			}, nil
		},
	})
	if err != nil {
		return nil, err
	}
	return s.Status(ctx, userID)
}

// connectError turns a Graph failure into the owner's pt-BR error: a
// refused token, the object not found (notFound says which), or Meta away.
func connectError(ctx context.Context, err error, notFound error) error {
	var ge *GraphError
	if !errors.As(err, &ge) {
		httpx.Logger(ctx).Warn("whatsapp connect: graph api unreachable", "err", err)
		return errMeta
	}
	switch {
	case ge.Code == 190:
		return errToken
	case ge.Temporary():
		return errMeta
	case ge.Code == 100 || ge.Auth():
		return notFound
	}
	httpx.Logger(ctx).Warn("whatsapp connect: graph api refused", "err", err)
	return errMeta
}

// ensureTemplates creates each of Agendei's templates the account lacks
// and returns every template's status.
func (s *Service) ensureTemplates(ctx context.Context, token, wabaID string, list []Template) ([]TemplateStatus, error) {
	return s.ensureTemplatesOf(ctx, token, wabaID, list, TemplateFor)
}

// ensureTemplatesOf is ensureTemplates with the templates of an account
// (the owners' TemplateFor, the operator's OperatorTemplateFor).
func (s *Service) ensureTemplatesOf(ctx context.Context, token, wabaID string, list []Template, templateFor func(kind string) NewTemplate) ([]TemplateStatus, error) {
	var out []TemplateStatus
	for _, kind := range Kinds {
		want := templateFor(kind)
		status := ""
		for _, t := range list {
			if t.Name == want.Name && t.Language == want.Language {
				status = t.Status
			}
		}
		if status == "" {
			created, err := s.Graph.CreateTemplate(ctx, token, wabaID, want)
			var ge *GraphError
			switch {
			case errors.As(err, &ge) && ge.Subcode == 2388024: // already exists (created meanwhile)
				status = "PENDING"
			case err != nil:
				return nil, err
			default:
				status = created.Status
			}
		}
		out = append(out, TemplateStatus{Kind: kind, Name: want.Name, Status: strings.ToUpper(status)})
	}
	return out, nil
}

func saveTemplates(ctx context.Context, tx db.Querier, userID string, ts []TemplateStatus, now time.Time) error {
	for _, t := range ts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO whatsapp_templates (user_id, kind, name, language, status, updated_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id, kind) DO UPDATE SET name = excluded.name, language = excluded.language, status = excluded.status, updated_at = excluded.updated_at`,
			userID, t.Kind, t.Name, Language, t.Status, now); err != nil {
			return err
		}
	}
	return nil
}

// RefreshTemplates reads the templates' review status from Meta when the
// last read is older than every (and some template is not yet approved),
// creating any that went missing. A Graph fault is returned; callers that
// only show a status log it and show what they had.
func (s *Service) RefreshTemplates(ctx context.Context, userID string, every time.Duration) error {
	a, err := s.load(ctx, s.DB, userID)
	if err != nil || a == nil {
		return err
	}
	now := s.Clock.Now().UTC()
	if a.CheckedAt.Valid && now.Sub(a.CheckedAt.Time) < every {
		return nil
	}
	var pending int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM whatsapp_templates WHERE user_id = ? AND status = 'APPROVED'`, userID).Scan(&pending); err != nil {
		return err
	}
	if pending == len(Kinds) && a.CheckedAt.Valid && now.Sub(a.CheckedAt.Time) < 24*time.Hour {
		return nil // all approved: looked at daily (Meta may pause or disable one)
	}
	list, err := s.Graph.Templates(ctx, a.Token, a.WABAID)
	if err != nil {
		return err
	}
	statuses, err := s.ensureTemplates(ctx, a.Token, a.WABAID, list)
	if err != nil {
		return err
	}
	return s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE whatsapp_accounts SET templates_checked_at = ? WHERE user_id = ?`, now, userID); err != nil {
			return err
		}
		return saveTemplates(ctx, tx, userID, statuses, now)
	})
}

// Status is the connection as the profile shows it, without secrets.
func (s *Service) Status(ctx context.Context, userID string) (*Status, error) {
	st := &Status{Templates: []TemplateStatus{}, Signup: s.SignupConfig()}
	var err error
	if st.Operator, err = s.operatorStatus(ctx, userID); err != nil {
		return nil, err
	}
	acc, err := s.accounts().Peek(ctx, userID, connect.Col{Name: "display_phone_number", Into: &st.DisplayPhoneNumber},
		connect.Col{Name: "verified_name", Into: &st.VerifiedName}, connect.Col{Name: "signup", Into: &st.SignedUp})
	if acc == nil || err != nil {
		return st, err
	}
	st.Connected, st.ConnectedAt = true, &acc.ConnectedAt
	st.WABAID, st.PhoneNumberID, st.VerifyToken = acc.Values["waba_id"], acc.Values["phone_number_id"], acc.Values["verify_token"]
	st.WebhookURL = s.accounts().WebhookURL(acc.WebhookKey)
	err = db.Each(ctx, s.DB, `SELECT kind, name, status FROM whatsapp_templates WHERE user_id = ? ORDER BY kind`, []any{userID}, func(r *sql.Rows) error {
		var t TemplateStatus
		if err := r.Scan(&t.Kind, &t.Name, &t.Status); err != nil {
			return err
		}
		st.Templates = append(st.Templates, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	st.SentThisMonth, err = s.sentThisMonth(ctx, userID)
	return st, err
}

// sentThisMonth counts the template messages Meta accepted since the first
// of the owner's month: what Meta bills the owner for.
func (s *Service) sentThisMonth(ctx context.Context, userID string) (int, error) {
	loc, err := schedule.Zone(ctx, s.DB, userID)
	if err != nil {
		loc = tz.Load("")
	}
	now := s.Clock.Now().In(loc)
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
	var n int
	err = s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM whatsapp_messages WHERE user_id = ? AND via = 'own' AND sent_at >= ?`, userID, first.UTC()).Scan(&n)
	return n, err
}

// Disconnect removes the connection, its sealed secrets and template
// records; the message history stays on the appointments. A number
// connected by "Conectar meu WhatsApp" first has the operator's app
// unsubscribed from its WABA's webhooks, with the business token that is
// about to be erased: nothing of that business reaches Agendei afterwards.
// Meta refusing or out of reach does not keep the owner connected: it is
// logged (no owner's data in it), and the events that still come find no
// account to go to (routeSignedUp).
func (s *Service) Disconnect(ctx context.Context, userID string) error {
	acc, err := s.load(ctx, s.DB, userID)
	if err != nil {
		return err
	}
	if acc != nil && acc.SignedUp {
		if err := s.Graph.UnsubscribeApp(ctx, acc.Token, acc.WABAID); err != nil {
			httpx.Logger(ctx).Warn("whatsapp disconnect: the app could not be unsubscribed from the business's webhooks at Meta; disconnected anyway", "err", err)
		}
	}
	return s.accounts().Disconnect(ctx, userID)
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
