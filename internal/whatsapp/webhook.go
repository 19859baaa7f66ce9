package whatsapp

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/notifications"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// Answer is what a client's tap on a reminder's quick-reply button asks.
type Answer string

// The three answers; each button's payload is "<letter>:<reference>".
const (
	AnswerConfirm    Answer = "confirm"
	AnswerReschedule Answer = "reschedule"
	AnswerCancel     Answer = "cancel"
)

var answerOf = map[string]Answer{"c": AnswerConfirm, "r": AnswerReschedule, "n": AnswerCancel}

// Answerer acts on a client's answer through the one-tap answers' entry
// point (issue 28 point 1: same path, same cutoff rules, same race-free
// moves as the e-mail's links). It must be idempotent: a second call for
// the same answer changes nothing. It returns what to tell the client back
// in WhatsApp ("" for nothing): what was done, the link to pick a new
// time, or why not and how to reach the practice. A refusal by the rules
// (past the cutoff, already cancelled) is a reply, not an error; an error
// makes Meta deliver the webhook again.
type Answerer interface {
	AnswerFromWhatsApp(ctx context.Context, ownerID, appointmentID string, a Answer) (reply string, err error)
}

var (
	errVerify = httpx.NewError(http.StatusForbidden, "verify_token_mismatch", "Token de verificação não confere.")
)

// VerifyHandler answers Meta's subscription check: GET with
// hub.mode=subscribe, hub.verify_token equal to the owner's, and
// hub.challenge echoed back as plain text.
func (h *Handlers) VerifyHandler(w http.ResponseWriter, r *http.Request) error {
	var verify string
	err := h.Svc.DB.QueryRowContext(r.Context(), `SELECT verify_token FROM whatsapp_accounts WHERE webhook_key = ?`, r.PathValue("key")).Scan(&verify)
	if errors.Is(err, sql.ErrNoRows) {
		return connect.ErrHook
	}
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if q.Get("hub.mode") != "subscribe" || subtle.ConstantTimeCompare([]byte(q.Get("hub.verify_token")), []byte(verify)) != 1 {
		return errVerify
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, q.Get("hub.challenge"))
	return nil
}

// EventHandler takes Meta's POSTs: the raw body's X-Hub-Signature-256 is
// checked with the owner's app secret before anything in it is read.
func (h *Handlers) EventHandler(w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return httpx.ErrTooLarge
		}
		return err
	}
	userID, err := h.Svc.accounts().Owner(r.Context(), r.PathValue("key"))
	if err != nil {
		return err
	}
	acc, err := h.Svc.load(r.Context(), h.Svc.DB, userID)
	if err != nil || acc == nil {
		return errors.Join(err, connect.ErrHook)
	}
	if acc.AppSecret == "" { // signed up: its events come to the operator's webhook, never here
		return connect.ErrHook
	}
	if !ValidSignature(acc.AppSecret, body, r.Header.Get("X-Hub-Signature-256")) {
		return connect.ErrSignature
	}
	if err := h.Svc.handleEvent(r.Context(), acc, body); err != nil {
		return err // 5xx: Meta delivers it again, and every step is idempotent
	}
	return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, nil)
}

// ValidSignature checks an X-Hub-Signature-256 header ("sha256=<hex>")
// against the HMAC-SHA256 of the raw body with the app secret, in constant time.
func ValidSignature(appSecret string, body []byte, header string) bool {
	hexSig, ok := strings.CutPrefix(header, "sha256=")
	if !ok {
		return false
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil {
		return false
	}
	m := hmac.New(sha256.New, []byte(appSecret))
	m.Write(body)
	return hmac.Equal(got, m.Sum(nil))
}

// event is the part of Meta's messages webhook Agendei reads
// (webhooks/reference/messages): statuses of the messages it sent, and
// clients' quick-reply taps.
type event struct {
	Object string `json:"object"`
	Entry  []struct {
		ID      string `json:"id"`
		Changes []struct {
			Field string `json:"field"`
			Value struct {
				Metadata struct {
					PhoneNumberID string `json:"phone_number_id"`
				} `json:"metadata"`
				Statuses []struct {
					ID        string `json:"id"`
					Status    string `json:"status"`
					Timestamp string `json:"timestamp"`
					// The sent message's biz_opaque_callback_data: its key.
					CallbackData string `json:"biz_opaque_callback_data"`
					Errors       []struct {
						Code  int    `json:"code"`
						Title string `json:"title"`
					} `json:"errors"`
				} `json:"statuses"`
				Messages []struct {
					ID   string `json:"id"`
					From string `json:"from"`
					Type string `json:"type"`
					// Context names the message this one answers (a
					// button tap's, or a reply's): its id is the wamid of
					// the message Agendei sent.
					Context *struct {
						ID string `json:"id"`
					} `json:"context"`
					Text *struct {
						Body string `json:"body"`
					} `json:"text"`
					Button *struct {
						Payload string `json:"payload"`
					} `json:"button"`
					Interactive *struct {
						ButtonReply *struct {
							ID string `json:"id"`
						} `json:"button_reply"`
					} `json:"interactive"`
				} `json:"messages"`
			} `json:"value"`
		} `json:"changes"`
	} `json:"entry"`
}

// rank orders delivery states: a status applies only over a lower one, so
// a late or replayed webhook never moves a message back.
var rank = map[string]int{"sent": 1, "delivered": 2, "read": 3, "failed": 4}

const rankSQL = `CASE state WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 WHEN 'failed' THEN 4 ELSE 0 END`

func (s *Service) handleEvent(ctx context.Context, acc *account, body []byte) error {
	var ev event
	if err := json.Unmarshal(body, &ev); err != nil {
		return httpx.Validation("Corpo do webhook inválido.")
	}
	for _, e := range ev.Entry {
		for _, c := range e.Changes {
			v := c.Value
			if v.Metadata.PhoneNumberID != acc.PhoneNumberID {
				continue // another number of the account: not Agendei's
			}
			for _, st := range v.Statuses {
				if err := s.applyStatus(ctx, acc.UserID, st.ID, st.CallbackData, st.Status, st.Timestamp, statusError(st.Errors)); errors.Is(err, db.ErrOwnerGone) {
					return nil // the account was deleted meanwhile: nothing of it to update
				} else if err != nil {
					return err
				}
			}
			for _, m := range v.Messages {
				payload := ""
				switch {
				case m.Type == "button" && m.Button != nil:
					payload = m.Button.Payload
				case m.Type == "interactive" && m.Interactive != nil && m.Interactive.ButtonReply != nil:
					payload = m.Interactive.ButtonReply.ID
				default:
					continue // free text and the rest: the owner reads them in WhatsApp
				}
				if err := s.answer(ctx, acc.UserID, m.ID, m.From, payload, viaOwn); errors.Is(err, db.ErrOwnerGone) {
					return nil // the account was deleted meanwhile
				} else if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func statusError(errs []struct {
	Code  int    `json:"code"`
	Title string `json:"title"`
}) string {
	if len(errs) == 0 {
		return ""
	}
	return strconv.Itoa(errs[0].Code) + " " + errs[0].Title
}

// applyStatus records a delivery status over a lower one; a message that
// failed after Meta accepted it gets the e-mail instead, once. A message
// whose send timed out has no wamid yet: its key (the status's
// biz_opaque_callback_data) finds it, and it keeps the wamid.
func (s *Service) applyStatus(ctx context.Context, userID, wamid, key, status, ts, reason string) error {
	r, ok := rank[status]
	if !ok || wamid == "" {
		return nil
	}
	at := s.Clock.Now().UTC()
	if sec, err := strconv.ParseInt(ts, 10, 64); err == nil {
		at = time.Unix(sec, 0).UTC()
	}
	var res sql.Result
	var p sendPayload
	err := s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id, idem_key, COALESCE(appointment_id, ''), COALESCE(offer_id, ''), kind FROM whatsapp_messages
			WHERE user_id = ? AND (wamid = ? OR (wamid IS NULL AND idem_key = ?))`,
			userID, wamid, key).Scan(&id, &key, &p.AppointmentID, &p.OfferID, &p.Kind)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // not a message of Agendei's
		}
		if err != nil {
			return err
		}
		p.OwnerID = userID
		if parts := strings.SplitN(key, "|", 4); len(parts) == 4 {
			p.N, _ = strconv.Atoi(parts[2])
			p.For = parts[3]
		}
		emailed := status == "failed" && s.emailsInstead(p)
		res, err = tx.ExecContext(ctx, `UPDATE whatsapp_messages SET state = ?, status_at = ?, error = CASE WHEN ? = '' THEN '' ELSE ? END,
			emailed = CASE WHEN ? THEN ? ELSE emailed END, wamid = COALESCE(wamid, ?), sent_at = COALESCE(sent_at, ?)
			WHERE id = ? AND `+rankSQL+` < ? AND NOT (emailed AND ?)`, status, at, reason, reason, emailed, emailed, wamid, at, id, r, emailed)
		return err
	})
	if err != nil || res == nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 && status == "failed" && s.emailsInstead(p) {
		return s.emailInstead(ctx, p)
	}
	return nil
}

// answer acts on a quick-reply tap once per inbound message id; the
// payload's reference (never the appointment id) finds the appointment
// among this owner's messages. The reply to the client is queued with the
// inbound id's record, so a replay neither acts nor replies twice.
func (s *Service) answer(ctx context.Context, userID, inboundID, from, payload, via string) error {
	if inboundID == "" {
		return nil
	}
	var seen int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM whatsapp_inbound WHERE wamid = ?`, inboundID).Scan(&seen); err != nil || seen > 0 {
		return err // a replay: already acted on
	}
	letter, ref, _ := strings.Cut(payload, ":")
	a, ok := answerOf[letter]
	var apptID, reply string
	moved := false
	if ok && ref != "" {
		var key, now string
		err := s.DB.QueryRowContext(ctx, `SELECT m.appointment_id, m.idem_key, a.appointment_date || ' ' || a.appointment_time FROM whatsapp_messages m
			JOIN appointments a ON a.id = m.appointment_id WHERE m.ref_hash = ? AND m.user_id = ?`, RefHash(ref), userID).Scan(&apptID, &key, &now)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		// A message answers for the time it was about (its key ends with
		// it): after a move, its buttons do not answer for the new time.
		if sentFor := key[strings.LastIndex(key, "|")+1:]; apptID != "" && sentFor != "" && sentFor != now {
			moved, reply = true, movedReply(now)
		}
	}
	if apptID != "" && !moved && s.Answers != nil {
		// The answers' entry point is idempotent, so a replay racing this
		// one (before the row below exists) changes nothing twice.
		var err error
		if reply, err = s.Answers.AnswerFromWhatsApp(ctx, userID, apptID, a); err != nil {
			return err
		}
	}
	if reply != "" && via == viaOperator {
		// From the Agendei number, the reply names the practice as its messages do.
		var practice string
		if err := s.DB.QueryRowContext(ctx, `SELECT name FROM profiles WHERE id = ?`, userID).Scan(&practice); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if practice != "" {
			reply = "Mensagem de " + practice + ": " + reply
		}
	}
	return s.DB.OwnerTx(ctx, userID, func(tx *db.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO whatsapp_inbound (wamid, user_id, received_at) VALUES (?, ?, ?) ON CONFLICT (wamid) DO NOTHING`,
			inboundID, userID, s.Clock.Now().UTC())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 || reply == "" || from == "" || s.Jobs == nil {
			return nil
		}
		return s.Jobs.Enqueue(ctx, tx, jobs.About{UserID: userID, AppointmentID: apptID}, replyJob,
			replyPayload{OwnerID: userID, To: from, Text: reply, Via: via}, time.Time{}, 5)
	})
}

const replyJob = "whatsapp.reply"

// movedReply answers a tap on a message about a time the appointment has
// since left: now is its "YYYY-MM-DD HH:MM".
func movedReply(now string) string {
	date, at, _ := strings.Cut(now, " ")
	return "Este agendamento mudou de horário depois desta mensagem: agora é em " + brfmt.Date(date) + " às " + at +
		". Esta resposta não vale para o novo horário; use a mensagem mais recente ou fale com a clínica."
}

type replyPayload struct {
	OwnerID string `json:"ownerId"`
	To      string `json:"to"`
	Text    string `json:"text"`
	Via     string `json:"via,omitempty"` // "operator": the reply goes from the operator's number
}

// reply sends the answer's confirmation back to the client as text, inside
// the 24-hour window their tap opened. A final refusal is logged, not
// retried: the answer itself is already recorded.
func (s *Service) reply(ctx context.Context, p replyPayload) error {
	var token, phoneNumberID string
	if p.Via == viaOperator {
		if !s.Operator.On() {
			return nil
		}
		token, phoneNumberID = s.Operator.Token, s.Operator.PhoneNumberID
	} else {
		acc, err := s.load(ctx, s.DB, p.OwnerID)
		if err != nil || acc == nil {
			return err
		}
		token, phoneNumberID = acc.Token, acc.PhoneNumberID
	}
	if _, err := s.Graph.SendText(ctx, token, phoneNumberID, p.To, p.Text); err != nil {
		if connect.Temporary(err) {
			return err
		}
		httpx.Logger(ctx).Warn("whatsapp reply not sent", "owner", p.OwnerID, "err", err)
	}
	return nil
}

// OperatorVerifyHandler answers Meta's subscription check of the
// operator's webhook, with the operator's verify token.
func (h *Handlers) OperatorVerifyHandler(w http.ResponseWriter, r *http.Request) error {
	o := h.Svc.Operator
	if !o.On() {
		return connect.ErrHook
	}
	q := r.URL.Query()
	if q.Get("hub.mode") != "subscribe" || subtle.ConstantTimeCompare([]byte(q.Get("hub.verify_token")), []byte(o.VerifyToken)) != 1 {
		return errVerify
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, q.Get("hub.challenge"))
	return nil
}

// OperatorEventHandler takes Meta's POSTs to the operator's webhook: the
// raw body's X-Hub-Signature-256 is checked with the operator's app
// secret before anything in it is read.
func (h *Handlers) OperatorEventHandler(w http.ResponseWriter, r *http.Request) error {
	o := h.Svc.Operator
	if !o.On() {
		return connect.ErrHook
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return httpx.ErrTooLarge
		}
		return err
	}
	if !ValidSignature(o.AppSecret, body, r.Header.Get("X-Hub-Signature-256")) {
		return connect.ErrSignature
	}
	if err := h.Svc.handleOperatorEvent(r.Context(), body); err != nil {
		return err // 5xx: Meta delivers it again, and every step is idempotent
	}
	return httpx.Respond(w, http.StatusOK, map[string]bool{"received": true}, nil)
}

// handleOperatorEvent applies the operator's number's webhook: a status
// to the message it names (found by wamid, or by its key while a timed-out
// send has none yet), and a button tap to the appointment of the message
// it answers — found by the tap's context.id (the wamid Agendei got when
// it sent that message), its payload's reference checked against that
// message's. Never by the client's number: one client may book with two
// practices. A tap that answers no known message, or whose payload is not
// that message's, changes nothing.
func (s *Service) handleOperatorEvent(ctx context.Context, body []byte) error {
	var ev event
	if err := json.Unmarshal(body, &ev); err != nil {
		return httpx.Validation("Corpo do webhook inválido.")
	}
	routed := map[string]bool{}
	for _, e := range ev.Entry {
		for _, c := range e.Changes {
			v := c.Value
			if v.Metadata.PhoneNumberID != s.Operator.PhoneNumberID {
				// An owner's number connected by Embedded Signup: the
				// operator's app is subscribed to its WABA (the entry's id).
				if err := s.routeSignedUp(ctx, e.ID, v.Metadata.PhoneNumberID, body, routed); err != nil {
					return err
				}
				continue
			}
			for _, st := range v.Statuses {
				var owner string
				err := s.DB.QueryRowContext(ctx, `SELECT user_id FROM whatsapp_messages WHERE via = 'operator' AND (wamid = ? OR (wamid IS NULL AND idem_key = ?))`,
					st.ID, st.CallbackData).Scan(&owner)
				if errors.Is(err, sql.ErrNoRows) {
					continue // not a message of Agendei's
				}
				if err != nil {
					return err
				}
				if err := s.applyStatus(ctx, owner, st.ID, st.CallbackData, st.Status, st.Timestamp, statusError(st.Errors)); err != nil && !errors.Is(err, db.ErrOwnerGone) {
					return err
				}
			}
			for _, m := range v.Messages {
				payload := ""
				switch {
				case m.Type == "button" && m.Button != nil:
					payload = m.Button.Payload
				case m.Type == "interactive" && m.Interactive != nil && m.Interactive.ButtonReply != nil:
					payload = m.Interactive.ButtonReply.ID
				case m.Type == "text" && m.Text != nil && m.Context != nil:
					// A reply written to one of our messages: the owner
					// cannot read the operator's number, so their bell does.
					if err := s.forwardReply(ctx, m.ID, m.Context.ID, m.Text.Body); err != nil && !errors.Is(err, db.ErrOwnerGone) {
						return err
					}
					continue
				default:
					continue // the rest: no action
				}
				if m.Context == nil {
					continue // answers no message: no action
				}
				owner, _, refHash, ok, err := s.operatorMessage(ctx, m.Context.ID)
				if err != nil {
					return err
				}
				if !ok || !validPayload(payload, refHash) {
					continue // not a message of Agendei's, or not its button
				}
				if err := s.answer(ctx, owner, m.ID, m.From, payload, viaOperator); err != nil && !errors.Is(err, db.ErrOwnerGone) {
					return err
				}
			}
		}
	}
	return nil
}

// routeSignedUp hands an event of a signed-up owner's number — found by
// its phone_number_id, in the WABA the entry names — to that owner's
// account, once per owner and body. A number no owner signed up with is
// not Agendei's: nothing happens.
func (s *Service) routeSignedUp(ctx context.Context, wabaID, phoneNumberID string, body []byte, routed map[string]bool) error {
	if phoneNumberID == "" || routed[phoneNumberID] {
		return nil
	}
	routed[phoneNumberID] = true
	var owner string
	err := s.DB.QueryRowContext(ctx, `SELECT user_id FROM whatsapp_accounts WHERE phone_number_id = ? AND waba_id = ? AND signup = 1`,
		phoneNumberID, wabaID).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	acc, err := s.load(ctx, s.DB, owner)
	if err != nil || acc == nil {
		return err // gone meanwhile: nothing of it to update
	}
	return s.handleEvent(ctx, acc, body)
}

// forwardReply puts on the owner's bell, once per inbound message, a text a
// client wrote in reply to one of the operator's messages (found by the
// message it answers, context.id): the owner has no access to the
// operator's number, and a "vou me atrasar" must not be lost. A text that
// answers no known message gets no action.
func (s *Service) forwardReply(ctx context.Context, inboundID, contextID, text string) error {
	owner, apptID, _, ok, err := s.operatorMessage(ctx, contextID)
	if err != nil || !ok || inboundID == "" || apptID == "" || s.Notes == nil {
		return err
	}
	return s.DB.OwnerTx(ctx, owner, func(tx *db.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO whatsapp_inbound (wamid, user_id, received_at) VALUES (?, ?, ?) ON CONFLICT (wamid) DO NOTHING`,
			inboundID, owner, s.Clock.Now().UTC())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // a replay
		}
		return s.Notes.Create(ctx, tx, owner, notifications.Client, "Resposta do cliente no WhatsApp do Agendei",
			"O cliente respondeu à mensagem automática: “"+clip(httpx.CleanText(text), 500)+"”. Para conversar, use o botão de WhatsApp do agendamento.", apptID)
	})
}

// clip keeps at most n characters (runes) of s, with "…" when cut.
func clip(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n]) + "…"
}
