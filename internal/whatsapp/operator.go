package whatsapp

// The operator's WhatsApp number (issue 41 §1): whoever runs Agendei
// configures one WhatsApp Business Platform number for the whole
// installation, and every owner who turns it on (one switch on the
// profile's WhatsApp card) and has not connected their own number gets
// their confirmations, reminders and waitlist offers sent from it. Each
// message names the practice first ("Mensagem de Clínica Bem Viver: …").
//
//   - Its templates (OperatorTemplateFor) are created and tracked in the
//     operator's account in the background (KeepOperatorTemplates, and
//     lazily by the send job), never by a request or at start.
//   - A message through it gets its outbox row (via 'operator', state
//     'queued') in the transaction that queues it, under the owner's lock:
//     the monthly allowance is counted from those rows, in the owner's time
//     zone, so two bookings at once cannot both take the last message. Past
//     it the message goes by e-mail (or waits for the owner's one-tap
//     WhatsApp), and the owner is told once a month.
//   - Replies come to one webhook (/webhooks/whatsapp), checked with the
//     operator's app secret; a reply is routed by the message it answers
//     (context.id, the wamid of the message sent), never by the client's
//     number alone.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/tz"
	"github.com/agendei/agendei/internal/schedule"
)

// Operator is the operator's number, from the server's configuration.
type Operator struct {
	WABAID, PhoneNumberID, Token, AppSecret, VerifyToken string
	Allowance                                            int // messages a month per owner
	// AppID and SignupConfigID: the operator's Meta app and its Embedded
	// Signup configuration, for owners' "Conectar meu WhatsApp" (signup.go);
	// empty: the card offers only the manual form.
	AppID, SignupConfigID string
}

// Signup reports whether owners may connect with Meta's Embedded Signup.
func (o *Operator) Signup() bool { return o.On() && o.AppID != "" && o.SignupConfigID != "" }

// On reports whether the operator's number is configured.
func (o *Operator) On() bool { return o != nil && o.PhoneNumberID != "" }

// The number a message goes from.
const (
	viaOwn      = "own"
	viaOperator = "operator"
)

// OperatorStatus is what the owner's card shows of the operator's number.
type OperatorStatus struct {
	// Available: this installation has the operator's number.
	Available bool `json:"available"`
	// Enabled: the owner turned it on. Inert while the owner's own number
	// is connected (their own is used; the card does not show the switch).
	Enabled bool `json:"enabled"`
	// Ready: Meta approved its reminder template, so messages go now.
	Ready bool `json:"ready"`
	// SentThisMonth counts the owner's messages through it this calendar
	// month (their time zone), of Allowance.
	SentThisMonth int `json:"sentThisMonth"`
	Allowance     int `json:"allowance"`
}

// OperatorInput is the card's switch.
type OperatorInput struct {
	Enabled *bool `json:"enabled"`
}

var (
	errOperatorOff = httpx.NewError(http.StatusNotFound, "whatsapp_operator_unavailable",
		"O número de WhatsApp do Agendei não está disponível nesta instalação.")
	errOperatorOwn = httpx.NewError(http.StatusConflict, "whatsapp_own_number",
		"Você conectou o seu próprio número: as mensagens já saem dele. Para usar o número do Agendei, desconecte o seu.")
	errOperatorInput = httpx.Validation("Diga se o número do Agendei fica ligado (enabled: true ou false).")
)

// SetOperator turns the operator's number on or off for an owner.
func (s *Service) SetOperator(ctx context.Context, userID string, in OperatorInput) (*Status, error) {
	if !s.Operator.On() {
		return nil, errOperatorOff
	}
	if in.Enabled == nil {
		return nil, errOperatorInput
	}
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		if !*in.Enabled {
			_, err := tx.ExecContext(ctx, `DELETE FROM whatsapp_operator_owners WHERE user_id = ?`, userID)
			return err
		}
		var own int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM whatsapp_accounts WHERE user_id = ?`, userID).Scan(&own); err != nil {
			return err
		}
		if own > 0 {
			return errOperatorOwn
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO whatsapp_operator_owners (user_id, enabled_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING`,
			userID, s.Clock.Now().UTC())
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.Status(ctx, userID)
}

// operatorStatus is the card's view of the operator's number for an owner.
func (s *Service) operatorStatus(ctx context.Context, userID string) (OperatorStatus, error) {
	st := OperatorStatus{Available: s.Operator.On()}
	if !st.Available {
		return st, nil
	}
	st.Allowance = s.Operator.Allowance
	var enabled int
	var status sql.NullString
	if err := s.DB.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM whatsapp_operator_owners WHERE user_id = ?),
		(SELECT status FROM whatsapp_operator_templates WHERE kind = ?)`, userID, KindReminder).Scan(&enabled, &status); err != nil {
		return st, err
	}
	st.Enabled, st.Ready = enabled > 0, status.String == "APPROVED"
	_, n, err := s.operatorUsed(ctx, s.DB, userID)
	st.SentThisMonth = n
	return st, err
}

// operatorUsed counts an owner's messages through the operator's number
// since the first of their month (their time zone), from the outbox rows:
// every one queued, sent or whose outcome is unknown — not those Meta
// refused (never billed) nor those dropped before sending. month is
// "YYYY-MM".
func (s *Service) operatorUsed(ctx context.Context, q db.Querier, userID string) (month string, n int, err error) {
	loc, err := schedule.Zone(ctx, q, userID)
	if err != nil {
		loc = tz.Load("")
	}
	now := s.Clock.Now().In(loc)
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
	err = q.QueryRowContext(ctx, `SELECT COUNT(*) FROM whatsapp_messages WHERE user_id = ? AND via = 'operator' AND created_at >= ?
		AND state <> 'dropped' AND (state <> 'failed' OR wamid IS NOT NULL)`, userID, first.UTC()).Scan(&n)
	return now.Format("2006-01"), n, err
}

// route says which number a message of a kind to this phone goes from
// now: the owner's own (connected, its template APPROVED), else the
// operator's (configured, switched on by the owner, its template
// APPROVED), else none ("": the e-mail is the channel). An owner who
// connected their own number uses theirs, whatever the switch.
func (s *Service) route(ctx context.Context, q db.Querier, ownerID, kind, clientPhone string) (string, error) {
	if Recipient(clientPhone) == "" {
		return "", nil
	}
	return s.RouteOf(ctx, q, ownerID, kind)
}

// RouteOf is route for every client with a phone at once: "own",
// "operator" or "" (what the reminders card counts by; the operator's
// allowance is checked only as each message is queued).
func (s *Service) RouteOf(ctx context.Context, q db.Querier, ownerID, kind string) (string, error) {
	var own int
	var status sql.NullString
	if err := q.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM whatsapp_accounts WHERE user_id = ?),
		(SELECT status FROM whatsapp_templates WHERE user_id = ? AND kind = ?)`, ownerID, ownerID, kind).Scan(&own, &status); err != nil {
		return "", err
	}
	if own > 0 {
		if status.String == "APPROVED" {
			return viaOwn, nil
		}
		return "", nil
	}
	if !s.Operator.On() {
		return "", nil
	}
	var enabled int
	if err := q.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM whatsapp_operator_owners WHERE user_id = ?),
		(SELECT status FROM whatsapp_operator_templates WHERE kind = ?)`, ownerID, kind).Scan(&enabled, &status); err != nil {
		return "", err
	}
	if enabled > 0 && status.String == "APPROVED" {
		return viaOperator, nil
	}
	return "", nil
}

// reserve takes one of the owner's monthly messages through the operator's
// number for message p: under the owner's lock, it counts the month's
// outbox rows and, below the allowance, writes p's row ('queued') — all in
// the caller's transaction, so two transactions at once cannot both take
// the last one. At the allowance it reports false, and the owner is told
// (once a month).
func (s *Service) reserve(ctx context.Context, tx *db.Tx, p sendPayload) (bool, error) {
	if err := tx.LockOwner(ctx, p.OwnerID); err != nil {
		return false, err
	}
	month, used, err := s.operatorUsed(ctx, tx, p.OwnerID)
	if err != nil {
		return false, err
	}
	if used >= s.Operator.Allowance {
		return false, s.tellAllowance(ctx, tx, p.OwnerID, month)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO whatsapp_messages (id, idem_key, user_id, appointment_id, offer_id, kind, state, via, attempts, created_at)
		VALUES (?, ?, ?, ?, ?, ?, 'queued', 'operator', 0, ?) ON CONFLICT (idem_key) DO NOTHING`,
		uuid.NewString(), p.idemKey(), p.OwnerID, db.OrNull(p.AppointmentID), db.OrNull(p.OfferID), p.Kind, s.Clock.Now().UTC())
	return err == nil, err
}

// tellAllowance puts on the owner's bell, once a month, that the month's
// messages through the operator's number ran out.
func (s *Service) tellAllowance(ctx context.Context, tx *db.Tx, ownerID, month string) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO whatsapp_allowance_notices (user_id, month, told_at) VALUES (?, ?, ?) ON CONFLICT (user_id, month) DO NOTHING`,
		ownerID, month, s.Clock.Now().UTC())
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 || s.Notes == nil {
		return nil
	}
	return s.Notes.Create(ctx, tx, ownerID, notifications.System, "Mensagens de WhatsApp do mês esgotadas",
		fmt.Sprintf("As %d mensagens deste mês pelo número de WhatsApp do Agendei já foram usadas. Até o fim do mês, lembretes e avisos vão por e-mail; "+
			"para quem não deu e-mail, use o botão de WhatsApp da agenda. No dia 1º a contagem recomeça.", s.Operator.Allowance), "")
}

// drop marks an operator's message that will not be sent (its appointment
// was cancelled or moved, its offer closed, before the send): it no longer
// counts against the allowance.
func (s *Service) drop(ctx context.Context, p sendPayload, reason string) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE whatsapp_messages SET state = 'dropped', error = ? WHERE idem_key = ? AND state = 'queued'`, reason, p.idemKey())
	return err
}

// OperatorTemplateFor is the template of a kind of message in the
// operator's account: the owner's (TemplateFor) with the practice named
// first, since the message comes from a number that is not the
// practice's. Body parameters: {{1}} the practice, {{2}} the client's
// name, {{3}} the service, {{4}} the date, {{5}} the time (an offer's
// {{6}} until when the link holds it, {{7}} the link). Meta refuses a
// body that starts or ends with a parameter: fixed text opens and closes it.
func OperatorTemplateFor(kind string) NewTemplate {
	ex := func(v ...string) *TemplateExample { return &TemplateExample{BodyText: [][]string{v}} }
	switch kind {
	case KindCancellation:
		return NewTemplate{Name: "agendei_operador_cancelamento_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
			{Type: "BODY", Text: "Mensagem de {{1}}: olá, {{2}}. Seu agendamento foi cancelado: {{3}} em {{4}} às {{5}}. Para marcar outro horário, fale com a clínica ou use a página de agendamento.",
				Example: ex("Clínica Bem Viver", "Ana", "Limpeza", "quinta-feira, 26/11", "14:00")},
		}}
	case KindReminder:
		return NewTemplate{Name: "agendei_operador_lembrete_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
			{Type: "BODY", Text: "Mensagem de {{1}}: olá, {{2}}! Lembrete do seu horário: {{3}} em {{4}} às {{5}}. Você confirma presença?",
				Example: ex("Clínica Bem Viver", "Ana", "Limpeza", "quinta-feira, 26/11", "14:00")},
			{Type: "BUTTONS", Buttons: []TemplateButton{{Type: "QUICK_REPLY", Text: ButtonConfirm}, {Type: "QUICK_REPLY", Text: ButtonReschedule}, {Type: "QUICK_REPLY", Text: ButtonCancel}}},
		}}
	case KindWaitlistOffer:
		return NewTemplate{Name: "agendei_operador_lista_espera_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
			{Type: "BODY", Text: "Mensagem de {{1}}: olá, {{2}}! Vagou um horário que combina com a sua lista de espera: {{3}} em {{4}} às {{5}}. " +
				"Para ficar com ele, confirme até as {{6}} pelo link {{7}} . O horário fica com quem confirmar primeiro; se não quiser, ignore: você continua na lista.",
				Example: ex("Clínica Bem Viver", "Ana", "Limpeza", "quinta-feira, 26/11", "14:00", "10:15", "https://agendei.example.com/lista-de-espera/oferta/abc123")},
		}}
	}
	return NewTemplate{Name: "agendei_operador_confirmacao_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
		{Type: "BODY", Text: "Mensagem de {{1}}: olá, {{2}}! Seu agendamento está confirmado: {{3}} em {{4}} às {{5}}.",
			Example: ex("Clínica Bem Viver", "Ana", "Limpeza", "quinta-feira, 26/11", "14:00")},
	}}
}

// RefreshOperatorTemplates creates Agendei's templates in the operator's
// account where missing and reads their review status, when the last read
// is older than every (daily once all are approved: Meta may pause one).
func (s *Service) RefreshOperatorTemplates(ctx context.Context, every time.Duration) error {
	if !s.Operator.On() {
		return nil
	}
	var rows, approved int
	var checked time.Time // the oldest read
	err := db.Each(ctx, s.DB, `SELECT status, checked_at FROM whatsapp_operator_templates`, nil, func(r *sql.Rows) error {
		var status string
		var at time.Time
		if err := r.Scan(&status, &at); err != nil {
			return err
		}
		if rows++; rows == 1 || at.Before(checked) {
			checked = at
		}
		if status == "APPROVED" {
			approved++
		}
		return nil
	})
	if err != nil {
		return err
	}
	now := s.Clock.Now().UTC()
	if rows == len(Kinds) {
		age := now.Sub(checked)
		if age < every || (approved == len(Kinds) && age < 24*time.Hour) {
			return nil
		}
	}
	o := s.Operator
	list, err := s.Graph.Templates(ctx, o.Token, o.WABAID)
	if err != nil {
		return err
	}
	statuses, err := s.ensureTemplatesOf(ctx, o.Token, o.WABAID, list, OperatorTemplateFor)
	if err != nil {
		return err
	}
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		for _, t := range statuses {
			if _, err := tx.ExecContext(ctx, `INSERT INTO whatsapp_operator_templates (kind, name, language, status, checked_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (kind) DO UPDATE SET name = excluded.name, language = excluded.language, status = excluded.status, checked_at = excluded.checked_at`,
				t.Kind, t.Name, Language, t.Status, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// KeepOperatorTemplates keeps the operator's templates created and their
// review status fresh, every few minutes until ctx ends: in the
// background, so neither the start nor a request waits for Meta.
func (s *Service) KeepOperatorTemplates(ctx context.Context, every time.Duration) {
	if !s.Operator.On() {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := s.RefreshOperatorTemplates(ctx, every); err != nil && ctx.Err() == nil {
			httpx.Logger(ctx).Warn("whatsapp: the operator's templates not refreshed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// operatorMessage finds the operator's message a client's reply answers,
// by its wamid (the reply's context.id): its owner, appointment and the
// hash of its buttons' reference. ok is false when no message of the
// operator's number has that id.
func (s *Service) operatorMessage(ctx context.Context, wamid string) (ownerID, appointmentID, refHash string, ok bool, err error) {
	if wamid == "" {
		return "", "", "", false, nil
	}
	err = s.DB.QueryRowContext(ctx, `SELECT user_id, COALESCE(appointment_id, ''), COALESCE(ref_hash, '') FROM whatsapp_messages
		WHERE wamid = ? AND via = 'operator'`, wamid).Scan(&ownerID, &appointmentID, &refHash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", "", false, nil
	}
	return ownerID, appointmentID, refHash, err == nil, err
}

// validPayload reports whether a button's payload carries the reference of
// the message it answers (a tap on that message's own button).
func validPayload(payload, refHash string) bool {
	_, ref, _ := strings.Cut(payload, ":")
	return ref != "" && refHash != "" && RefHash(ref) == refHash
}
