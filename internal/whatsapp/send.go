package whatsapp

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/connect"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
)

const sendJob = "whatsapp.send"

// settleJob decides a message whose send timed out, once statusWait has
// passed: a status webhook carrying its key settled it meanwhile, or the
// e-mail goes instead.
const settleJob = "whatsapp.settle"

// statusWait is how long a message whose send timed out waits for a status
// webhook naming it (Meta's statuses come within seconds of a send it
// accepted) before its outcome counts as unknown and the e-mail goes.
const statusWait = 10 * time.Minute

// maxTries is how many times a message is tried before it counts as failed
// for good (and the e-mail goes instead); the job itself allows more, so
// that this count, kept with the message, is the one that decides.
const maxTries = 5

// sendLease is how long an attempt owns its message: a "sending" row older
// than this is an attempt that died between claiming and recording. Twice
// the Graph client's timeout (15 s): a live attempt has recorded by then.
// A job that finds the message still leased fails with errSending and
// looks again after its back-off (30 s), when the lease has ended.
const sendLease = 30 * time.Second

// errSending is a job's answer when another attempt holds the message's
// lease: not done; the job's back-off brings it back.
var errSending = errors.New("whatsapp: message being sent by another attempt")

// Fallback sends the e-mail of a message that WhatsApp will not carry
// (failed for good, or its outcome unknown after a crash).
type Fallback interface {
	EmailInstead(ctx context.Context, ownerID, appointmentID string, n int, at string) error
}

type sendPayload struct {
	OwnerID       string `json:"ownerId"`
	AppointmentID string `json:"appointmentId,omitempty"`
	OfferID       string `json:"offerId,omitempty"` // a waitlist offer's message (KindWaitlistOffer)
	Kind          string `json:"kind"`
	N             int    `json:"n,omitempty"` // which of the owner's reminders (1 or 2); 0 for a confirmation
	For           string `json:"for"`         // "YYYY-MM-DD HH:MM": the appointment time the message is about
	// Via is the number it goes from: "" or "own" the owner's, "operator"
	// the operator's (its outbox row written when it was queued).
	Via string `json:"via,omitempty"`
}

// idemKey names a message once: (appointment, kind and which one, the time
// it is about). The same for every retry and every instance; a move makes
// a new one.
func (p sendPayload) idemKey() string {
	if p.OfferID != "" {
		return "offer|" + p.OfferID // one offer is one entry offered one time
	}
	return p.AppointmentID + "|" + p.Kind + "|" + strconv.Itoa(p.N) + "|" + p.For
}

// Ready reports whether an owner's message of a kind can go by WhatsApp
// now: from the owner's own number (connected, its template APPROVED) or
// from the operator's (configured, switched on, its template APPROVED),
// and a client phone to send to. The operator's monthly allowance is
// checked only when the message is queued.
func (s *Service) Ready(ctx context.Context, q db.Querier, ownerID, kind, clientPhone string) (bool, error) {
	via, err := s.route(ctx, q, ownerID, kind, clientPhone)
	return via != "", err
}

// Message is one message to queue: the n-th reminder (or the
// confirmation, n 0) of an appointment at its local "YYYY-MM-DD HH:MM".
type Message struct {
	OwnerID, AppointmentID, ClientPhone string
	Kind                                string
	N                                   int
	For                                 string
}

// Queue writes the job that sends a message when WhatsApp can carry it
// (Ready), inside the caller's transaction when q is one — the outbox: the
// message exists exactly when the change that asked for it does — and
// reports whether it did; false means the e-mail is the channel.
func (s *Service) Queue(ctx context.Context, q db.Querier, m Message) (bool, error) {
	return s.queue(ctx, q, jobs.About{UserID: m.OwnerID, AppointmentID: m.AppointmentID}, m.ClientPhone,
		sendPayload{OwnerID: m.OwnerID, AppointmentID: m.AppointmentID, Kind: m.Kind, N: m.N, For: m.For})
}

// queue writes a message's send job by the number route chooses; through
// the operator's, only when the owner's monthly allowance has room (its
// outbox row taken in the same transaction, under the owner's lock). It
// reports whether it did.
func (s *Service) queue(ctx context.Context, q db.Querier, about jobs.About, clientPhone string, p sendPayload) (bool, error) {
	via, err := s.route(ctx, q, p.OwnerID, p.Kind, clientPhone)
	if err != nil || via == "" {
		return false, err
	}
	if via == viaOwn {
		err = s.Jobs.Enqueue(ctx, q, about, sendJob, p, time.Time{}, maxTries+3)
		return err == nil, err
	}
	p.Via = viaOperator
	queued := false
	put := func(tx *db.Tx) error {
		ok, err := s.reserve(ctx, tx, p)
		if err != nil || !ok {
			return err
		}
		queued = true
		return s.Jobs.Enqueue(ctx, tx, about, sendJob, p, time.Time{}, maxTries+3)
	}
	if tx, ok := q.(*db.Tx); ok {
		err = put(tx)
	} else {
		err = s.DB.OwnerTx(ctx, p.OwnerID, put)
	}
	return queued && err == nil, err
}

// RegisterJobs teaches the queue to send WhatsApp messages.
func (s *Service) RegisterJobs() {
	queue := s.Jobs
	queue.Register(sendJob, func(ctx context.Context, payload []byte) error {
		var p sendPayload
		if err := json.Unmarshal(payload, &p); err != nil {
			return err
		}
		return s.deliver(ctx, p)
	})
	queue.Register(settleJob, func(ctx context.Context, payload []byte) error {
		var p sendPayload
		if err := json.Unmarshal(payload, &p); err != nil {
			return err
		}
		return s.settle(ctx, p)
	})
	queue.Register(replyJob, func(ctx context.Context, payload []byte) error {
		var p replyPayload
		if err := json.Unmarshal(payload, &p); err != nil {
			return err
		}
		return s.reply(ctx, p)
	})
}

// appointment is what a message says and whom it goes to.
type appointment struct {
	Status, Phone, Client, Service, Date, Time, Owner string
}

// deliver sends one message at most once per idempotency key:
//
//  1. the key is claimed by inserting the message row ("sending", with a
//     lease) before Meta is called — a second instance or a duplicate job
//     finds the row and stops;
//  2. Meta is called;
//  3. the answer is recorded (wamid and "sent"; "retry" for a temporary
//     fault, tried again with the job's back-off; "failed" for good, and
//     the e-mail goes; "unknown" when no answer came in time — Meta may
//     have accepted it — never sent again: the message carried its key as
//     biz_opaque_callback_data, which Meta echoes in its status webhooks,
//     and a status naming it settles it; with none within statusWait the
//     e-mail goes instead).
//
// The crash window is between 2 and 3: a process that dies after Meta
// accepted the message and before the row says so leaves a "sending" row
// whose lease ends. Its outcome is unknown, and Meta's API takes no
// idempotency key, so it is never sent again (that could be a second
// message): it becomes "unknown" and the e-mail goes instead. The window is
// one HTTP round trip; a duplicate is worse for a client than an e-mail.
func (s *Service) deliver(ctx context.Context, p sendPayload) error {
	if p.OfferID != "" {
		return s.deliverOffer(ctx, p)
	}
	var a appointment
	err := s.DB.QueryRowContext(ctx, `SELECT a.status, a.client_phone, a.client_name, a.service_name, a.appointment_date, a.appointment_time, p.name
		FROM appointments a JOIN profiles p ON p.id = a.user_id WHERE a.id = ? AND a.user_id = ?`, p.AppointmentID, p.OwnerID).Scan(
		&a.Status, &a.Phone, &a.Client, &a.Service, &a.Date, &a.Time, &a.Owner)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // deleted (or erased): nothing to send
	}
	if err != nil {
		return err
	}
	want := "confirmed" // a cancellation's notice goes only while it stands cancelled
	if p.Kind == KindCancellation {
		want = "cancelled"
	}
	if a.Status != want || (p.For != "" && p.For != a.Date+" "+a.Time) {
		// cancelled (or restored), or moved: the message of the new time is its own
		return s.drop(ctx, p, "o agendamento foi cancelado ou remarcado antes do envio")
	}
	snd, err := s.sender(ctx, p, a.Phone)
	if err != nil {
		return err
	}
	id, ref, attempt, owned, err := s.claim(ctx, p)
	if err != nil || !owned {
		return err
	}
	if !snd.ready {
		return s.giveUp(ctx, p, id, "failed", "WhatsApp indisponível para esta mensagem (desconectado, modelo não aprovado ou sem telefone)")
	}
	body := []string{a.Client, a.Owner, a.Service, brfmt.LongDate(a.Date), a.Time}
	if snd.operator {
		body = []string{a.Owner, a.Client, a.Service, brfmt.LongDate(a.Date), a.Time} // the practice first
	}
	msg := TemplateMessage{To: Recipient(a.Phone), Template: snd.template(p.Kind).Name, Language: Language, Body: body, CallbackData: p.idemKey()}
	if p.Kind == KindReminder {
		msg.QuickReply = []string{"c:" + ref, "r:" + ref, "n:" + ref}
	}
	wamid, sendErr := s.Graph.SendTemplate(ctx, snd.token, snd.phoneNumberID, msg)
	return s.record(ctx, p, id, attempt, wamid, sendErr)
}

// from is the number a message goes from, and whether it can carry it now.
type from struct {
	token, phoneNumberID string
	operator, ready      bool
}

func (f from) template(kind string) NewTemplate {
	if f.operator {
		return OperatorTemplateFor(kind)
	}
	return TemplateFor(kind)
}

// sender is the number a queued message goes from: the operator's for a
// message queued through it (its templates refreshed if stale), else the
// owner's own (a newly approved template used at once).
func (s *Service) sender(ctx context.Context, p sendPayload, phone string) (from, error) {
	if p.Via == viaOperator {
		if !s.Operator.On() {
			return from{operator: true}, nil // the operator's number was removed from the configuration
		}
		if err := s.RefreshOperatorTemplates(ctx, 10*time.Minute); err != nil {
			httpx.Logger(ctx).Warn("whatsapp: the operator's templates not refreshed", "err", err)
		}
		var status sql.NullString
		if err := s.DB.QueryRowContext(ctx, `SELECT status FROM whatsapp_operator_templates WHERE kind = ?`, p.Kind).Scan(&status); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return from{}, err
		}
		return from{token: s.Operator.Token, phoneNumberID: s.Operator.PhoneNumberID, operator: true,
			ready: status.String == "APPROVED" && Recipient(phone) != ""}, nil
	}
	acc, err := s.load(ctx, s.DB, p.OwnerID)
	if err != nil || acc == nil {
		return from{}, err
	}
	_ = s.RefreshTemplates(ctx, p.OwnerID, 10*time.Minute) // a newly approved template is used at once
	var status sql.NullString
	if err := s.DB.QueryRowContext(ctx, `SELECT status FROM whatsapp_templates WHERE user_id = ? AND kind = ?`, p.OwnerID, p.Kind).Scan(&status); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return from{}, err
	}
	return from{token: acc.Token, phoneNumberID: acc.PhoneNumberID, ready: status.String == "APPROVED" && Recipient(phone) != ""}, nil
}

// record keeps Meta's answer to an attempt: sent, a retry for a temporary
// fault (the job's back-off tries again), or failed for good (the e-mail
// goes instead).
func (s *Service) record(ctx context.Context, p sendPayload, id string, attempt int, wamid string, sendErr error) error {
	now := s.Clock.Now().UTC()
	if sendErr == nil {
		_, err := s.DB.ExecContext(ctx, `UPDATE whatsapp_messages SET state = 'sent', wamid = COALESCE(wamid, ?), sent_at = ?, status_at = COALESCE(status_at, ?),
			locked_until = NULL, error = '' WHERE id = ?`, wamid, now, now, id)
		return err
	}
	if connect.OutcomeUnknown(sendErr) {
		// Meta may have accepted it (and billed it): never sent again. Its
		// status webhook carries the key (biz_opaque_callback_data) and
		// settles it; if none comes within statusWait, the e-mail goes.
		httpx.Logger(ctx).Warn("whatsapp send: no answer in time, waiting for its status", "appointment", p.AppointmentID, "offer", p.OfferID, "attempt", attempt, "err", sendErr)
		return s.awaitStatus(ctx, p, id, "sem resposta da Meta a tempo; aguardando o status da mensagem")
	}
	if connect.Temporary(sendErr) && attempt < maxTries {
		httpx.Logger(ctx).Warn("whatsapp send: temporary failure, will retry", "appointment", p.AppointmentID, "offer", p.OfferID, "attempt", attempt, "err", sendErr)
		if _, err := s.DB.ExecContext(ctx, `UPDATE whatsapp_messages SET state = 'retry', locked_until = NULL, error = ? WHERE id = ? AND state = 'sending'`,
			truncate(sendErr.Error(), 300), id); err != nil {
			return err
		}
		return sendErr
	}
	httpx.Logger(ctx).Warn("whatsapp send: failed for good, e-mail instead", "appointment", p.AppointmentID, "offer", p.OfferID, "attempt", attempt, "err", sendErr)
	return s.giveUp(ctx, p, id, "failed", sendErr.Error())
}

// awaitStatus marks a message being sent whose outcome is unknown (its
// send timed out, or its attempt died before recording Meta's answer) and
// queues the job that settles it after statusWait — once: only the caller
// that made the change.
func (s *Service) awaitStatus(ctx context.Context, p sendPayload, id, reason string) error {
	return s.DB.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE whatsapp_messages SET state = 'unknown', locked_until = NULL, error = ? WHERE id = ? AND state = 'sending'`, reason, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return err
		}
		return s.Jobs.Enqueue(ctx, tx, jobs.About{UserID: p.OwnerID, AppointmentID: p.AppointmentID}, settleJob, p, s.Clock.Now().Add(statusWait), 5)
	})
}

// settle ends the wait of a message whose send timed out: when no status
// webhook named it within statusWait its outcome stays unknown, and the
// e-mail goes instead (once; never a second WhatsApp message).
func (s *Service) settle(ctx context.Context, p sendPayload) error {
	emails := s.emailsInstead(p)
	res, err := s.DB.ExecContext(ctx, `UPDATE whatsapp_messages SET emailed = ?, error = ?
		WHERE idem_key = ? AND state = 'unknown' AND wamid IS NULL AND NOT emailed`,
		emails, "resultado desconhecido (a Meta não respondeu a tempo nem enviou o status); enviado por e-mail", p.idemKey())
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 || !emails {
		return nil
	}
	return s.emailInstead(ctx, p)
}

// claim takes the message's idempotency key for this attempt. owned is
// false when the message was sent, is being sent, or was given up.
func (s *Service) claim(ctx context.Context, p sendPayload) (id, ref string, attempt int, owned bool, err error) {
	now := s.Clock.Now().UTC()
	ref = connect.RandomToken(18)
	id = uuid.NewString()
	res, err := s.DB.ExecContext(ctx, `INSERT INTO whatsapp_messages (id, idem_key, user_id, appointment_id, offer_id, kind, state, ref_hash, attempts, locked_until, created_at)
		VALUES (?, ?, ?, ?, ?, ?, 'sending', ?, 1, ?, ?) ON CONFLICT (idem_key) DO NOTHING`,
		id, p.idemKey(), p.OwnerID, db.OrNull(p.AppointmentID), db.OrNull(p.OfferID), p.Kind, RefHash(ref), now.Add(sendLease), now)
	if err != nil {
		return "", "", 0, false, err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return id, ref, 1, true, nil
	}
	var state string
	var locked sql.NullTime
	if err := s.DB.QueryRowContext(ctx, `SELECT id, state, attempts, locked_until FROM whatsapp_messages WHERE idem_key = ?`, p.idemKey()).Scan(
		&id, &state, &attempt, &locked); err != nil {
		return "", "", 0, false, err
	}
	switch {
	case state == "retry" || state == "queued": // queued: an operator's message, its row written when it was queued
		res, err = s.DB.ExecContext(ctx, `UPDATE whatsapp_messages SET state = 'sending', attempts = attempts + 1, ref_hash = ?, locked_until = ?
			WHERE id = ? AND state = ?`, RefHash(ref), now.Add(sendLease), id, state)
		if err != nil {
			return "", "", 0, false, err
		}
		n, _ := res.RowsAffected()
		return id, ref, attempt + 1, n == 1, nil
	case state == "sending" && locked.Valid && !locked.Time.After(now):
		// An attempt died between claiming and recording: its outcome is
		// unknown, and a second message would be worse than an e-mail. Its
		// status webhook (carrying the key) may still settle it; else the
		// e-mail goes after statusWait.
		return "", "", 0, false, s.awaitStatus(ctx, p, id, "resultado desconhecido (o envio foi interrompido); aguardando o status da mensagem")
	case state == "sending":
		// Another attempt holds it (alive, or killed less than a lease
		// ago): this job must not end as done, or a killed attempt's
		// message would be left "sending" for good.
		return "", "", 0, false, errSending
	}
	return "", "", 0, false, nil
}

// giveUp marks a message failed (or unknown) once, and then — only the
// caller that made that change — sends the e-mail instead.
func (s *Service) giveUp(ctx context.Context, p sendPayload, id, state, reason string) error {
	emails := s.emailsInstead(p)
	res, err := s.DB.ExecContext(ctx, `UPDATE whatsapp_messages SET state = ?, error = ?, locked_until = NULL, emailed = ?
		WHERE id = ? AND state IN ('sending', 'retry')`, state, truncate(reason, 300), emails, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 || !emails {
		return nil
	}
	return s.emailInstead(ctx, p)
}

// emailsInstead reports whether a message WhatsApp did not deliver goes by
// e-mail: a reminder or a waitlist offer. The confirmation e-mail (with
// its invite) always went at booking: only those need one in its place.
func (s *Service) emailsInstead(p sendPayload) bool {
	switch p.Kind {
	case KindReminder:
		return s.Fallback != nil
	case KindWaitlistOffer:
		return s.Offers != nil
	}
	return false
}

func (s *Service) emailInstead(ctx context.Context, p sendPayload) error {
	if p.Kind == KindWaitlistOffer {
		return s.Offers.EmailOffer(ctx, p.OwnerID, p.OfferID)
	}
	return s.Fallback.EmailInstead(ctx, p.OwnerID, p.AppointmentID, p.N, p.For)
}

// RefHash is how a quick-reply reference is kept: its SHA-256.
func RefHash(ref string) string {
	sum := sha256.Sum256([]byte(ref))
	return hex.EncodeToString(sum[:])
}

// Recipient is a client's phone as the Cloud API takes it: digits with the
// country code and no "+" (E.164 without the plus). A number written
// without "+" is Brazilian: DDD and number get 55, and one with 55 already
// stays; with "+" any country is taken (a Brazilian one checked for length).
// "" when it cannot be a WhatsApp number.
func Recipient(phone string) string {
	phone = strings.TrimSpace(phone)
	d := make([]byte, 0, len(phone))
	for i := 0; i < len(phone); i++ {
		if c := phone[i]; c >= '0' && c <= '9' {
			d = append(d, c)
		}
	}
	s := string(d)
	brazil := func(s string) bool { return len(s) >= 12 && len(s) <= 13 && s[2] != '0' }
	switch {
	case s == "":
		return ""
	case strings.HasPrefix(phone, "+") && strings.HasPrefix(s, "55"):
		if brazil(s) {
			return s
		}
	case strings.HasPrefix(phone, "+"):
		if len(s) >= 8 && len(s) <= 15 && s[0] != '0' {
			return s
		}
	case (len(s) == 10 || len(s) == 11) && s[0] != '0':
		return "55" + s
	case strings.HasPrefix(s, "55") && brazil(s):
		return s
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// Delivery is a message as the appointment shows it.
type Delivery struct {
	Kind      string     `json:"kind"`
	State     string     `json:"state"` // sending, retry, sent, delivered, read, failed, unknown
	Error     string     `json:"error"`
	Emailed   bool       `json:"emailed"` // the e-mail went instead
	SentAt    *time.Time `json:"sentAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
}

// Deliveries lists an appointment's WhatsApp messages, oldest first.
func (s *Service) Deliveries(ctx context.Context, ownerID, appointmentID string) ([]Delivery, error) {
	var exists int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM appointments WHERE id = ? AND user_id = ?`, appointmentID, ownerID).Scan(&exists); err != nil {
		return nil, err
	}
	if exists == 0 {
		return nil, errAppointment
	}
	out := []Delivery{}
	err := db.Each(ctx, s.DB, `SELECT kind, state, error, emailed, sent_at, status_at, created_at FROM whatsapp_messages
		WHERE user_id = ? AND appointment_id = ? ORDER BY created_at`, []any{ownerID, appointmentID}, func(r *sql.Rows) error {
		var d Delivery
		var sent, status sql.NullTime
		if err := r.Scan(&d.Kind, &d.State, &d.Error, &d.Emailed, &sent, &status, &d.UpdatedAt); err != nil {
			return err
		}
		if status.Valid {
			d.UpdatedAt = status.Time
		}
		if sent.Valid {
			t := sent.Time.UTC()
			d.SentAt = &t
		}
		d.UpdatedAt = d.UpdatedAt.UTC()
		out = append(out, d)
		return nil
	})
	return out, err
}

var errAppointment = httpx.NewError(404, "not_found", "Agendamento não encontrado.")
