// Package push sends web push notifications (issue 41, point 4) to a
// client's own phone: reminders with their one-tap answers, waitlist offers
// and cancellation or move notices, besides e-mail and WhatsApp (push costs
// nothing, so it never replaces them).
//
// A client's browser subscribes on the confirmation card or their private
// page (POST /api/public/bookings/{token}/push, authorised by that private
// token); the subscription is the push service's endpoint and the browser's
// keys, kept with the owner and the client's key. A message is a job of the
// outbox per (subscription, idempotency key), the key e-mail and WhatsApp
// use for the same message; the payload is encrypted to the browser's keys
// (RFC 8291, aes128gcm) and the request signed with the server's VAPID key
// (RFC 8292), by github.com/SherClockHolmes/webpush-go. The server POSTs to
// the endpoint, so only hosts of the real push services are accepted
// (Service.Hosts): an open list would let anyone aim the server at any URL.
// A subscription the push service answers 404 or 410 is deleted.
package push

import (
	"context"
	"crypto/ecdh"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/google/uuid"

	"github.com/agendei/agendei/internal/jobs"
	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/httpx"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

const sendJob = "push.send"

// maxTries bounds the attempts of one message to one browser (429 and 5xx
// are tried again with the queue's back-off).
const maxTries = 6

// maxTTL is the longest a push service is asked to keep a message for an
// offline phone (FCM keeps one 28 days at most).
const maxTTL = 28 * 24 * time.Hour

// MaxPerClient is how many browsers one client of an owner may have
// subscribed; a new one past it replaces the oldest.
const MaxPerClient = 5

// DefaultHosts are the push services' hosts an endpoint may name:
// Chrome's (FCM), Firefox's, Safari's and Edge's. A leading "*." matches
// any subdomain.
var DefaultHosts = []string{"fcm.googleapis.com", "updates.push.services.mozilla.com", "*.push.services.mozilla.com",
	"web.push.apple.com", "*.notify.windows.com"}

// The bounds of what an anonymous visitor holding a private link can do.
var (
	subscribesPerOwner       = ratelimit.Rule{Name: "push:subscribe:owner", Max: 300, Window: 24 * time.Hour}
	subscribesPerAppointment = ratelimit.Rule{Name: "push:subscribe:appointment", Max: 10, Window: 24 * time.Hour}
	ruleIP                   = ratelimit.Rule{Name: "push:ip", Max: 30, Window: time.Hour}
)

// Tokens finds the appointment a client's private token opens (booking's
// private links): its owner and id; an unknown or expired token is an
// *httpx.Error (404).
type Tokens interface {
	TokenAppointment(ctx context.Context, token string) (ownerID, appointmentID string, err error)
}

// Service keeps subscriptions and sends messages.
type Service struct {
	DB    *db.DB
	Clock clock.Clock
	Jobs  *jobs.Queue
	// Subject is the VAPID contact (RFC 8292 §2.1): an e-mail address
	// (sent as mailto:) or an https URL.
	Subject string
	// Hosts is the allow-list of endpoints' hosts (DefaultHosts when nil;
	// tests put their fake's).
	Hosts []string
	// HTTP sends to the push services (nil: a client with a 15 s timeout).
	HTTP    *http.Client
	private string // VAPID private key, base64url of the P-256 scalar
	public  string // its public key, base64url of the uncompressed point
}

// New returns a Service signing with the VAPID private key (base64url of a
// P-256 scalar, as config.EnsureSecret generates it).
func New(d *db.DB, c clock.Clock, q *jobs.Queue, vapidPrivate, subject string) (*Service, error) {
	public, err := PublicKey(vapidPrivate)
	if err != nil {
		return nil, err
	}
	return &Service{DB: d, Clock: c, Jobs: q, Subject: subject, private: vapidPrivate, public: public}, nil
}

// PublicKey is the VAPID public key (base64url, uncompressed P-256 point)
// of a private one: the applicationServerKey a browser subscribes with.
func PublicKey(private string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(private, "="))
	if err != nil {
		return "", fmt.Errorf("VAPID private key: not base64url: %w", err)
	}
	k, err := ecdh.P256().NewPrivateKey(raw)
	if err != nil {
		return "", fmt.Errorf("VAPID private key: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()), nil
}

// PublicKeyOf is the server's VAPID public key.
func (s *Service) PublicKeyOf() string { return s.public }

// Subscription is what a browser's PushSubscription.toJSON() gives.
type Subscription struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

var (
	errEndpoint = httpx.Validation("Endereço de notificação inválido: use o do serviço de notificações do navegador (https).")
	errHost     = httpx.Validation("Este navegador usa um serviço de notificações que não aceitamos. Use o Chrome, o Firefox, o Edge ou o Safari.")
	errKeys     = httpx.Validation("Chaves de notificação inválidas. Tente ativar os lembretes de novo.")
	errNoClient = httpx.NewError(http.StatusNotFound, "not_found", "Agendamento não encontrado.")
)

// check validates a subscription: an https endpoint on an allowed host,
// a P-256 public key and a 16-byte auth secret.
func (s *Service) check(sub Subscription) error {
	if len(sub.Endpoint) > 2048 {
		return errEndpoint
	}
	u, err := url.Parse(sub.Endpoint)
	if err != nil || u.Scheme != "https" || u.User != nil || u.Hostname() == "" || u.Fragment != "" {
		return errEndpoint
	}
	if !AllowedHost(s.hosts(), u.Hostname()) {
		return errHost
	}
	pub, err := decodeKey(sub.Keys.P256dh)
	if err != nil || len(pub) != 65 {
		return errKeys
	}
	if _, err := ecdh.P256().NewPublicKey(pub); err != nil {
		return errKeys
	}
	if auth, err := decodeKey(sub.Keys.Auth); err != nil || len(auth) != 16 {
		return errKeys
	}
	return nil
}

func (s *Service) hosts() []string {
	if s.Hosts == nil {
		return DefaultHosts
	}
	return s.Hosts
}

// AllowedHost reports whether host is on the list ("*.example.com" matches
// its subdomains, not example.com itself).
func AllowedHost(list []string, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, h := range list {
		if suffix, ok := strings.CutPrefix(h, "*."); ok {
			if strings.HasSuffix(host, "."+suffix) {
				return true
			}
		} else if host == h {
			return true
		}
	}
	return false
}

// decodeKey reads a browser key: base64url, with or without padding (the
// standard alphabet is taken too, as some browsers' JSON has it).
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if b, err := base64.RawURLEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// Subscribe keeps a browser's subscription for the client of the
// appointment the private token opens. The same browser again updates its
// keys; a client's browsers past MaxPerClient replace the oldest. Bounded
// per appointment and per owner a day.
func (s *Service) Subscribe(ctx context.Context, tokens Tokens, token string, sub Subscription) error {
	if err := s.check(sub); err != nil {
		return err
	}
	ownerID, appointmentID, err := tokens.TokenAppointment(ctx, token)
	if err != nil {
		return err
	}
	return s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		key, err := clientKey(ctx, tx, ownerID, appointmentID)
		if err != nil {
			return err
		}
		now := s.Clock.Now()
		for _, b := range []struct {
			rule ratelimit.Rule
			key  string
		}{{subscribesPerAppointment, appointmentID}, {subscribesPerOwner, ownerID}} {
			ok, wait, err := ratelimit.AllowTx(ctx, tx, now, b.rule, b.key)
			if err != nil {
				return err
			}
			if !ok {
				return ratelimit.TooMany(wait)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO push_subscriptions (id, user_id, client_key, appointment_id, endpoint, p256dh, auth, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id, endpoint) DO UPDATE SET client_key = excluded.client_key, appointment_id = excluded.appointment_id,
				p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at`,
			uuid.NewString(), ownerID, key, appointmentID, sub.Endpoint, sub.Keys.P256dh, sub.Keys.Auth, now); err != nil {
			return err
		}
		// The client's oldest browsers past the bound go.
		_, err = tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE user_id = ? AND client_key = ? AND id NOT IN (
			SELECT id FROM push_subscriptions WHERE user_id = ? AND client_key = ? ORDER BY created_at DESC, id LIMIT ?)`,
			ownerID, key, ownerID, key, MaxPerClient)
		return err
	})
}

// Unsubscribe forgets a browser of the client of the appointment the
// private token opens; it reports whether there was one.
func (s *Service) Unsubscribe(ctx context.Context, tokens Tokens, token, endpoint string) (bool, error) {
	ownerID, appointmentID, err := tokens.TokenAppointment(ctx, token)
	if err != nil {
		return false, err
	}
	var removed bool
	err = s.DB.OwnerTx(ctx, ownerID, func(tx *db.Tx) error {
		key, err := clientKey(ctx, tx, ownerID, appointmentID)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE user_id = ? AND client_key = ? AND endpoint = ?`, ownerID, key, endpoint)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		removed = n > 0
		return err
	})
	return removed, err
}

func clientKey(ctx context.Context, q db.Querier, ownerID, appointmentID string) (string, error) {
	var key string
	err := q.QueryRowContext(ctx, `SELECT client_key FROM appointments WHERE id = ? AND user_id = ?`, appointmentID, ownerID).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && key == "") {
		return "", errNoClient
	}
	return key, err
}

// Action is a button of a notification: the one-tap answer link it
// answers (the service worker POSTs it; the page opens when that fails).
type Action struct {
	Action string `json:"action"` // confirm, cancel
	Title  string `json:"title"`
	URL    string `json:"url"`
}

// Message is one message to a client's browsers.
type Message struct {
	OwnerID string
	// AppointmentID is the appointment it is about: its client's browsers
	// get it. ClientKey names the client instead when there is no
	// appointment (a waitlist offer).
	AppointmentID, ClientKey string
	// Kind is what it is (reminder, offer, cancelled, moved) and Key its
	// idempotency key: the same for each retry, as e-mail's and WhatsApp's.
	Kind, Key string
	// For is the appointment's local "YYYY-MM-DD HH:MM" the message is
	// about ("" for none): a send that finds the appointment moved since
	// stays quiet.
	For         string
	Title, Body string
	// URL is the page a tap on the notification opens.
	URL     string
	Actions []Action
	// Until is when the message is no use any more (the push service keeps
	// it for an offline phone until then; TTL); zero: a day.
	Until time.Time
	// Urgent asks the push service to wake the phone at once (Urgency high).
	Urgent bool
}

// payload is a send job's: one message to one browser.
type payload struct {
	SubscriptionID string   `json:"subscriptionId"`
	Key            string   `json:"key"`
	For            string   `json:"for,omitempty"`
	Title          string   `json:"title"`
	Body           string   `json:"body"`
	URL            string   `json:"url"`
	Actions        []Action `json:"actions,omitempty"`
	Until          int64    `json:"until"` // Unix seconds
	Urgent         bool     `json:"urgent,omitempty"`
}

// Notification is what the service worker receives (the decrypted
// payload): it shows Title and Body with the Actions; Tag makes a second
// copy of the same message replace the first.
type Notification struct {
	Title   string   `json:"title"`
	Body    string   `json:"body"`
	URL     string   `json:"url"`
	Tag     string   `json:"tag"`
	Actions []Action `json:"actions,omitempty"`
}

// Reaches reports whether the client of the owner's appointment has a
// browser subscribed.
func (s *Service) Reaches(ctx context.Context, q db.Querier, ownerID, appointmentID string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM push_subscriptions WHERE user_id = ? AND client_key =
		(SELECT client_key FROM appointments WHERE id = ? AND user_id = ?)`, ownerID, appointmentID, ownerID).Scan(&n)
	return n > 0, err
}

// SubscribedClients are the owner's clients (their client keys) with a
// browser subscribed: the reminders card counts a month of appointments
// against them in one read.
func (s *Service) SubscribedClients(ctx context.Context, q db.Querier, ownerID string) (map[string]bool, error) {
	out := map[string]bool{}
	err := db.Each(ctx, q, `SELECT DISTINCT client_key FROM push_subscriptions WHERE user_id = ?`, []any{ownerID}, func(r *sql.Rows) error {
		var key string
		if err := r.Scan(&key); err != nil {
			return err
		}
		out[key] = true
		return nil
	})
	return out, err
}

// Queue writes, in the caller's transaction (the outbox), one send job per
// browser of the client that has not had this message (its key) yet, and
// reports how many it queued.
func (s *Service) Queue(ctx context.Context, tx db.Querier, m Message) (int, error) {
	var ids []string
	match := `client_key = (SELECT client_key FROM appointments WHERE id = ? AND user_id = ?)`
	args := []any{m.OwnerID, m.AppointmentID, m.OwnerID}
	if m.AppointmentID == "" {
		match, args = `client_key = ?`, []any{m.OwnerID, m.ClientKey}
	}
	err := db.Each(ctx, tx, `SELECT id FROM push_subscriptions WHERE user_id = ? AND `+match+` ORDER BY created_at, id`, args, func(r *sql.Rows) error {
		var id string
		ids = append(ids, id)
		return r.Scan(&ids[len(ids)-1])
	})
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	now := s.Clock.Now()
	until := m.Until
	if until.IsZero() {
		until = now.Add(24 * time.Hour)
	}
	queued := 0
	for _, id := range ids {
		res, err := tx.ExecContext(ctx, `INSERT INTO push_deliveries (subscription_id, idem_key, user_id, appointment_id, kind, state, created_at)
			VALUES (?, ?, ?, ?, ?, 'queued', ?) ON CONFLICT (subscription_id, idem_key) DO NOTHING`, id, m.Key, m.OwnerID, db.OrNull(m.AppointmentID), m.Kind, now)
		if err != nil {
			return queued, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // this browser had it: a retry of the same message
		}
		p := payload{SubscriptionID: id, Key: m.Key, For: m.For, Title: m.Title, Body: m.Body, URL: m.URL, Actions: m.Actions, Until: until.Unix(), Urgent: m.Urgent}
		if err := s.Jobs.Enqueue(ctx, tx, jobs.About{UserID: m.OwnerID, AppointmentID: m.AppointmentID, ClientKey: m.ClientKey}, sendJob, p, time.Time{}, maxTries); err != nil {
			return queued, err
		}
		queued++
	}
	return queued, nil
}

// RegisterJobs teaches the queue to send push messages.
func (s *Service) RegisterJobs() {
	s.Jobs.Register(sendJob, func(ctx context.Context, body []byte) error {
		var p payload
		if err := json.Unmarshal(body, &p); err != nil {
			return err
		}
		return s.deliver(ctx, p)
	})
}

// errTemporary is a push service's "try later" (429, 5xx): the job's
// back-off tries again.
var errTemporary = errors.New("push: the push service asked to try again later")

// deliver sends one message to one browser, once: a delivery already sent
// (or given up, or whose browser is gone) stops here. Each message carries
// a Topic of its key, so should a send whose answer was lost be repeated,
// the push service replaces the copy it still holds, and the notification's
// tag makes the phone show one.
func (s *Service) deliver(ctx context.Context, p payload) error {
	var sub webpush.Subscription
	var state, ownerID, kind string
	var status, at sql.NullString
	err := s.DB.QueryRowContext(ctx, `SELECT s.endpoint, s.p256dh, s.auth, d.state, s.user_id, d.kind, a.status, a.appointment_date || ' ' || a.appointment_time
		FROM push_subscriptions s JOIN push_deliveries d ON d.subscription_id = s.id LEFT JOIN appointments a ON a.id = d.appointment_id
		WHERE s.id = ? AND d.idem_key = ?`, p.SubscriptionID, p.Key).Scan(
		&sub.Endpoint, &sub.Keys.P256dh, &sub.Keys.Auth, &state, &ownerID, &kind, &status, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // unsubscribed, gone or erased since
	}
	if err != nil || state != "queued" {
		return err
	}
	now := s.Clock.Now()
	until := time.Unix(p.Until, 0)
	if !until.After(now) {
		return s.mark(ctx, p, "failed", "expirou antes do envio")
	}
	// A message waiting for a retry says nothing of a time the appointment
	// has left since, nor a reminder of one cancelled since.
	if (p.For != "" && at.String != p.For) || (kind == "reminder" && status.String != "confirmed") {
		return s.mark(ctx, p, "failed", "cancelado ou remarcado antes do envio")
	}
	ttl := min(until.Sub(now), maxTTL)
	if u, err := url.Parse(sub.Endpoint); err != nil || u.Scheme != "https" || !AllowedHost(s.hosts(), u.Hostname()) {
		return s.mark(ctx, p, "failed", "serviço de notificações não permitido")
	}
	body, err := json.Marshal(Notification{Title: p.Title, Body: p.Body, URL: p.URL, Tag: tag(p.Key), Actions: p.Actions})
	if err != nil {
		return err
	}
	urgency := webpush.UrgencyNormal
	if p.Urgent {
		urgency = webpush.UrgencyHigh
	}
	client := s.HTTP
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second}
	}
	resp, err := webpush.SendNotificationWithContext(ctx, body, &sub, &webpush.Options{HTTPClient: client, Subscriber: s.Subject,
		VAPIDPublicKey: s.public, VAPIDPrivateKey: s.private, TTL: int(ttl.Seconds()), Urgency: urgency, Topic: tag(p.Key)})
	if err != nil {
		// The network, or a payload too long: never the endpoint in the log
		// (its path is the browser's secret address).
		httpx.Logger(ctx).Warn("push send failed", "kind", "push", "err", redactURL(err, sub.Endpoint))
		if errors.Is(err, webpush.ErrMaxPadExceeded) {
			return s.mark(ctx, p, "failed", "mensagem longa demais")
		}
		return errTemporary
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	_ = resp.Body.Close()
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return s.mark(ctx, p, "sent", "")
	case code == http.StatusNotFound || code == http.StatusGone:
		// The browser unsubscribed or the subscription expired: it goes,
		// with its deliveries.
		_, err := s.DB.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE id = ? AND user_id = ?`, p.SubscriptionID, ownerID)
		return err
	case code == http.StatusTooManyRequests || code >= 500:
		httpx.Logger(ctx).Warn("push service busy, will retry", "status", code)
		return errTemporary
	default:
		httpx.Logger(ctx).Warn("push service refused a message", "status", code)
		return s.mark(ctx, p, "failed", fmt.Sprintf("o serviço de notificações recusou (%d)", code))
	}
}

func (s *Service) mark(ctx context.Context, p payload, state, reason string) error {
	sent := any(nil)
	if state == "sent" {
		sent = s.Clock.Now().UTC()
	}
	_, err := s.DB.ExecContext(ctx, `UPDATE push_deliveries SET state = ?, error = ?, sent_at = ? WHERE subscription_id = ? AND idem_key = ? AND state = 'queued'`,
		state, reason, sent, p.SubscriptionID, p.Key)
	return err
}

// tag is a message's short name from its key: the notification's tag and
// the push service's Topic (RFC 8030 §5.4: at most 32 base64url characters).
func tag(key string) string {
	sum := sha256.Sum256([]byte(key))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:32]
}

// redactURL drops the endpoint from an error's text.
func redactURL(err error, endpoint string) string {
	return strings.ReplaceAll(err.Error(), endpoint, "[endpoint]")
}
