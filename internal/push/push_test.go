package push_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/booking"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/push"
	"github.com/agendei/agendei/internal/push/pushtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// world is an owner with one appointment (26/11 14:00 in São Paulo,
// reminded 24 h before) of a client who gave only a phone, and the fake
// push service the server is pointed at.
type world struct {
	e       *servertest.Env
	fake    *pushtest.Service
	owner   *servertest.Client
	client  *servertest.Client
	apptID  string
	token   string // the client's private link's token
	key     string // the server's VAPID public key
	service string
	pro     string
}

func each(t *testing.T, fn func(t *testing.T, w *world)) {
	for _, dialect := range dbtest.Dialects(t) {
		t.Run(string(dialect), func(t *testing.T) {
			e := servertest.Start(t, dialect)
			fake := pushtest.New(t)
			e.Server.Push.Hosts = []string{fake.Host()}
			e.Server.Push.HTTP = fake.Client()
			fn(t, setup(t, e, fake))
			if r := fake.Refusals(); len(r) > 0 {
				t.Fatalf("the push service refused requests: %v", r)
			}
		})
	}
}

func setup(t *testing.T, e *servertest.Env, fake *pushtest.Service) *world {
	t.Helper()
	w := &world{e: e, fake: fake, owner: e.Client().As(t), client: e.Client().As(t)}
	w.owner.Signup("Dra. Ana", "ana@example.com", "senha-da-ana-1", "gato")
	var days []map[string]any
	for d := range 7 {
		days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "18:00"})
	}
	if r := w.owner.Do("POST", "/api/onboarding", map[string]any{"name": "Clínica Sorriso", "area": "Odontologia", "publicUsername": "sorriso",
		"services": []map[string]any{{"name": "Limpeza", "duration": 30, "priceCents": 15000}}, "days": days}); r.StatusCode != 200 {
		t.Fatalf("onboarding: %d %s", r.StatusCode, r.Body)
	}
	var pro struct{ ID string }
	w.owner.Do("POST", "/api/professionals", map[string]string{"name": "Dra. Ana", "specialization": "Dentista"}).JSON(t, &pro)
	var svcs []struct{ ID string }
	w.owner.Do("GET", "/api/services", nil).JSON(t, &svcs)
	w.service, w.pro = svcs[0].ID, pro.ID
	w.apptID, w.token = w.book(t, "2026-11-26", "14:00", "Bruno Souza", "(11) 98765-4321")
	var k struct{ PublicKey string }
	if r := w.client.Do("GET", "/api/public/push/key", nil); r.StatusCode != 200 {
		t.Fatalf("key: %d %s", r.StatusCode, r.Body)
	} else {
		r.JSON(t, &k)
	}
	want, err := push.PublicKey(e.Config.VAPIDPrivateKey)
	if err != nil || k.PublicKey != want {
		t.Fatalf("public key %q, want %q (%v)", k.PublicKey, want, err)
	}
	w.key = k.PublicKey
	e.RunJobs() // the booking's messages, out of the way
	return w
}

// book makes a public booking of a client with a phone only and returns
// the appointment's id and its private token.
func (w *world) book(t *testing.T, date, at, name, phone string) (string, string) {
	t.Helper()
	r := w.client.Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{
		"professionalId": w.pro, "serviceId": w.service, "date": date, "time": at, "clientName": name, "clientPhone": phone})
	if r.StatusCode != 201 {
		t.Fatalf("booking: %d %s", r.StatusCode, r.Body)
	}
	var b struct{ ID, Token string }
	r.JSON(t, &b)
	if b.ID == "" || b.Token == "" {
		t.Fatalf("booking answer without id or token: %s", r.Body)
	}
	return b.ID, b.Token
}

func (w *world) subscribe(t *testing.T, token string) *pushtest.Browser {
	t.Helper()
	b := w.fake.Subscribe(w.key)
	if r := w.client.Do("POST", "/api/public/bookings/"+token+"/push", b.JSON()); r.StatusCode != 200 {
		t.Fatalf("subscribe: %d %s", r.StatusCode, r.Body)
	}
	return b
}

// untilReminder moves the clock to the reminder (24 h before) and runs
// the jobs; the owner signs in again (the clock outran their token).
func (w *world) untilReminder(t *testing.T) {
	t.Helper()
	w.e.Clock.Set(time.Date(2026, 11, 25, 17, 1, 0, 0, time.UTC))
	if r := w.owner.Login("ana@example.com", "senha-da-ana-1"); r.StatusCode != 200 {
		t.Fatalf("login: %d %s", r.StatusCode, r.Body)
	}
	w.e.RunJobs()
}

func (w *world) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := w.e.DB.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func decode(t *testing.T, m pushtest.Received) push.Notification {
	t.Helper()
	var n push.Notification
	if err := json.Unmarshal(m.Plaintext, &n); err != nil {
		t.Fatalf("payload %q: %v", m.Plaintext, err)
	}
	return n
}

func tokenOf(link string) string { return link[strings.LastIndex(link, "/")+1:] }

// The whole path of issue 41 §4: a phone-only client subscribes on their
// private page; the reminder reaches the fake push service signed (VAPID)
// and encrypted to the browser's keys, the fake decrypts it, and its
// "Confirmar" action — the service worker's POST of its one-tap link —
// confirms the appointment by the push channel; the owner's bell says the
// reminder went by notification.
func TestPush_AReminderDecryptedByThePushServiceAndItsConfirmActionConfirms(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		b := w.subscribe(t, w.token)
		w.untilReminder(t)
		got := w.fake.For(b)
		if len(got) != 1 {
			t.Fatalf("%d messages at the push service, want the reminder", len(got))
		}
		m := got[0]
		if m.TTL < int((23*time.Hour).Seconds()) || m.TTL > int((24*time.Hour).Seconds()) || m.Topic == "" || m.Urgency != "normal" {
			t.Fatalf("headers: TTL %d (until the appointment, 24 h away), Topic %q, Urgency %q", m.TTL, m.Topic, m.Urgency)
		}
		n := decode(t, m)
		if !strings.Contains(n.Title, "Lembrete: Limpeza amanhã às 14:00") || !strings.Contains(n.Body, "Clínica Sorriso") || n.Tag == "" {
			t.Fatalf("notification: %+v", n)
		}
		if strings.Contains(string(m.Plaintext), "Bruno") || strings.Contains(string(m.Plaintext), "98765") {
			t.Fatalf("the payload names the client: %s", m.Plaintext)
		}
		if len(n.Actions) != 2 || n.Actions[0].Action != "confirm" || n.Actions[0].Title != "Confirmar" ||
			n.Actions[1].Action != "cancel" || n.Actions[1].Title != "Cancelar" || !strings.Contains(n.URL, "/resposta/") {
			t.Fatalf("actions: %+v, url %q", n.Actions, n.URL)
		}
		// The page a tap opens changes nothing; the action's POST confirms.
		if r := w.client.Do("GET", "/api/public/answers/"+tokenOf(n.URL), nil); r.StatusCode != 200 {
			t.Fatalf("the tapped page: %d %s", r.StatusCode, r.Body)
		}
		r := w.client.Do("POST", "/api/public/answers/"+tokenOf(n.Actions[0].URL), nil)
		if r.StatusCode != 200 {
			t.Fatalf("Confirmar: %d %s", r.StatusCode, r.Body)
		}
		var appt struct{ Answer, AnswerChannel string }
		w.owner.Do("GET", "/api/appointments/"+w.apptID, nil).JSON(t, &appt)
		if appt.Answer != "confirmed" {
			t.Fatalf("answer after Confirmar: %+v", appt)
		}
		var channel string
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT client_answer_channel FROM appointments WHERE id = ?`, w.apptID).Scan(&channel); err != nil || channel != "push" {
			t.Fatalf("answer channel %q (%v), want push", channel, err)
		}
		var notes struct {
			Notifications []struct{ Title, Description string }
		}
		w.owner.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		found := false
		for _, x := range notes.Notifications {
			if x.Title == "Lembrete enviado" {
				found = strings.Contains(x.Description, "por notificação no celular") && !strings.Contains(x.Description, "e-mail")
				if !found {
					t.Fatalf("bell note: %q", x.Description)
				}
			}
		}
		if !found {
			t.Fatalf("no bell note of the reminder: %+v", notes.Notifications)
		}
	})
}

// A subscription the push service answers 410 (gone: the browser
// unsubscribed) is deleted, with what was queued for it; the client's
// other browser still gets the reminder.
func TestPush_ASubscriptionThePushServiceSaysIsGoneIsDeleted(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		gone := w.subscribe(t, w.token)
		kept := w.subscribe(t, w.token)
		w.fake.Answer(gone, http.StatusGone)
		w.untilReminder(t)
		if n := w.count(t, `SELECT COUNT(*) FROM push_subscriptions WHERE endpoint = ?`, gone.Endpoint); n != 0 {
			t.Fatalf("the gone subscription is still there (%d)", n)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM push_subscriptions WHERE endpoint = ?`, kept.Endpoint); n != 1 {
			t.Fatalf("the other browser's subscription: %d rows", n)
		}
		if len(w.fake.For(kept)) != 1 || len(w.fake.For(gone)) != 0 {
			t.Fatalf("messages: kept %d, gone %d", len(w.fake.For(kept)), len(w.fake.For(gone)))
		}
		if n := w.count(t, `SELECT COUNT(*) FROM jobs WHERE kind = 'push.send' AND done_at IS NULL`); n != 0 {
			t.Fatalf("%d push jobs left to run", n)
		}
	})
}

// The same reminder run again (a retry of its job after a crash, or a
// second instance) queues nothing more, and a push job run again after it
// sent sends nothing: one message per (appointment, reminder, time) and
// browser.
func TestPush_TheSameReminderTwiceSendsOnce(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		b := w.subscribe(t, w.token)
		w.untilReminder(t)
		ctx := context.Background()
		for _, kind := range []string{"booking.reminder", "push.send"} {
			if _, err := w.e.DB.ExecContext(ctx, `UPDATE jobs SET done_at = NULL, attempts = 0, locked_until = NULL WHERE kind = ?`, kind); err != nil {
				t.Fatal(err)
			}
			w.e.RunJobs()
		}
		if n := len(w.fake.For(b)); n != 1 {
			t.Fatalf("%d messages for one reminder", n)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM push_deliveries WHERE state = 'sent'`); n != 1 {
			t.Fatalf("%d deliveries sent", n)
		}
	})
}

// Subscribing is anonymous (a private link), so it is bounded: an https
// endpoint of a real push service only (the server POSTs to it: an open
// list would let anyone aim it at any address), well-formed keys, a known
// link, at most MaxPerClient browsers per client, a few a day per link.
// Each refusal is a clear pt-BR 4xx.
func TestPush_SubscribingIsBoundedAndOnlyToPushServices(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		b := w.fake.Subscribe(w.key)
		p256dh, auth := b.Keys()
		try := func(endpoint, p, a string) *servertest.Response {
			return w.client.Do("POST", "/api/public/bookings/"+w.token+"/push", map[string]any{"endpoint": endpoint, "keys": map[string]string{"p256dh": p, "auth": a}})
		}
		for _, c := range []struct {
			name, endpoint, p256dh, auth string
			status                       int
			says                         string
		}{
			{"http", strings.Replace(b.Endpoint, "https:", "http:", 1), p256dh, auth, 400, "Endereço de notificação inválido"},
			{"a host off the list", "https://169.254.169.254/latest/meta-data", p256dh, auth, 400, "serviço de notificações que não aceitamos"},
			{"a look-alike host", "https://fcm.googleapis.com.example.com/x", p256dh, auth, 400, "não aceitamos"},
			{"credentials in the URL", "https://user:pw@" + strings.TrimPrefix(b.Endpoint, "https://"), p256dh, auth, 400, "inválido"},
			{"a key that is no point", b.Endpoint, strings.Repeat("A", 87), auth, 400, "Chaves de notificação inválidas"},
			{"a short auth", b.Endpoint, p256dh, "AAAA", 400, "Chaves de notificação inválidas"},
		} {
			r := try(c.endpoint, c.p256dh, c.auth)
			if r.StatusCode != c.status || !strings.Contains(r.Err(t).Error.Message, c.says) {
				t.Fatalf("%s: %d %s", c.name, r.StatusCode, r.Body)
			}
		}
		if r := w.client.Do("POST", "/api/public/bookings/inventado/push", b.JSON()); r.StatusCode != 404 {
			t.Fatalf("unknown link: %d %s", r.StatusCode, r.Body)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM push_subscriptions`); n != 0 {
			t.Fatalf("%d subscriptions after refusals", n)
		}
		// The list of hosts: the real push services', and subdomains only where a "*." says so.
		for host, ok := range map[string]bool{"fcm.googleapis.com": true, "updates.push.services.mozilla.com": true, "web.push.apple.com": true,
			"wns2-bl2p.notify.windows.com": true, "notify.windows.com": false, "evil-fcm.googleapis.com": false, "localhost": false, "10.0.0.1": false} {
			if push.AllowedHost(push.DefaultHosts, host) != ok {
				t.Fatalf("AllowedHost(%q) = %v", host, !ok)
			}
		}
		// The same browser twice is one subscription; past MaxPerClient the oldest goes.
		first := w.subscribe(t, w.token)
		if r := w.client.Do("POST", "/api/public/bookings/"+w.token+"/push", first.JSON()); r.StatusCode != 200 {
			t.Fatalf("again: %d", r.StatusCode)
		}
		for range push.MaxPerClient {
			w.e.Clock.Advance(time.Second)
			w.subscribe(t, w.token)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM push_subscriptions`); n != push.MaxPerClient {
			t.Fatalf("%d subscriptions, want at most %d", n, push.MaxPerClient)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM push_subscriptions WHERE endpoint = ?`, first.Endpoint); n != 0 {
			t.Fatal("the oldest browser should have made way")
		}
		// A day's subscriptions per link are few (10, the 7 above included).
		var last *servertest.Response
		for range 5 {
			last = w.client.Do("POST", "/api/public/bookings/"+w.token+"/push", w.fake.Subscribe(w.key).JSON())
		}
		if last.StatusCode != 429 || !strings.Contains(last.Err(t).Error.Message, "Aguarde") {
			t.Fatalf("past the day's bound: %d %s", last.StatusCode, last.Body)
		}
		// Unsubscribing forgets the browser.
		var out struct{ Removed bool }
		kept := w.count(t, `SELECT COUNT(*) FROM push_subscriptions`)
		var anyEndpoint string
		_ = w.e.DB.QueryRowContext(context.Background(), `SELECT endpoint FROM push_subscriptions LIMIT 1`).Scan(&anyEndpoint)
		w.client.Do("POST", "/api/public/bookings/"+w.token+"/push/remove", map[string]string{"endpoint": anyEndpoint}).JSON(t, &out)
		if !out.Removed || w.count(t, `SELECT COUNT(*) FROM push_subscriptions`) != kept-1 {
			t.Fatalf("remove: %+v", out)
		}
	})
}

// A client's subscriptions are in their LGPD copy (the push service's host
// and what was sent, never the browser's address or keys) and an erase
// leaves none of them, nor what was sent.
func TestPush_SubscriptionsAreInTheClientsCopyAndErasedWithThem(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		b := w.subscribe(t, w.token)
		w.untilReminder(t)
		var key string
		if err := w.e.DB.QueryRowContext(context.Background(), `SELECT client_key FROM appointments WHERE id = ?`, w.apptID).Scan(&key); err != nil {
			t.Fatal(err)
		}
		r := w.owner.Do("GET", "/api/clients/data?key="+key, nil)
		if r.StatusCode != 200 {
			t.Fatalf("data: %d %s", r.StatusCode, r.Body)
		}
		var d struct {
			PushSubscriptions []struct {
				Service  string
				Messages []struct{ Kind, State string }
			}
		}
		r.JSON(t, &d)
		if len(d.PushSubscriptions) != 1 || d.PushSubscriptions[0].Service != w.fake.Host() || len(d.PushSubscriptions[0].Messages) != 1 ||
			d.PushSubscriptions[0].Messages[0].Kind != "reminder" || d.PushSubscriptions[0].Messages[0].State != "sent" {
			t.Fatalf("copy: %s", r.Body)
		}
		p256dh, auth := b.Keys()
		if strings.Contains(string(r.Body), b.Endpoint) || strings.Contains(string(r.Body), p256dh) || strings.Contains(string(r.Body), auth) {
			t.Fatal("the copy carries the browser's address or keys")
		}
		if r := w.owner.Do("POST", "/api/clients/erase", map[string]any{"identifier": key, "confirm": true}); r.StatusCode != 200 {
			t.Fatalf("erase: %d %s", r.StatusCode, r.Body)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM push_subscriptions`) + w.count(t, `SELECT COUNT(*) FROM push_deliveries`); n != 0 {
			t.Fatalf("%d push rows left after the erase", n)
		}
	})
}

// An owner's cancellation reaches the client's browser too (besides the
// e-mail a client with an address gets), once.
func TestPush_TheOwnersCancellationIsPushed(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		b := w.subscribe(t, w.token)
		r := w.owner.Do("PATCH", "/api/appointments/"+w.apptID, map[string]any{"status": "cancelled", "notifyClient": true})
		var a struct{ Notice string }
		if r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		// A phone-only client of an owner without WhatsApp: the notification
		// alone carried it, and the owner is told so.
		if r.JSON(t, &a); a.Notice != "push" {
			t.Fatalf("notice %q, want push", a.Notice)
		}
		w.e.RunJobs()
		got := w.fake.For(b)
		if len(got) != 1 {
			t.Fatalf("%d messages after the cancellation", len(got))
		}
		if n := decode(t, got[0]); n.Title != "Agendamento cancelado" || !strings.Contains(n.Body, "Clínica Sorriso cancelou Limpeza em 26/11") {
			t.Fatalf("notification: %+v", n)
		}
	})
}

// A waitlist offer reaches the waiting client's browser (a client known by
// the same phone: the key of their entry is their booking's), urgent, with
// the claim link a tap opens; and an owner's move pushes the new time with
// the private page to open.
func TestPush_AWaitlistOfferAndAMoveArePushed(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		b := w.subscribe(t, w.token)
		if r := w.client.Do("POST", "/api/public/profiles/sorriso/waitlist", map[string]string{"serviceId": w.service, "professionalId": w.pro,
			"firstDate": "2026-11-27", "lastDate": "2026-11-27", "partOfDay": "qualquer", "clientName": "Bruno Souza", "clientPhone": "(11) 98765-4321"}); r.StatusCode != 201 {
			t.Fatalf("join: %d %s", r.StatusCode, r.Body)
		}
		other := w.e.Client().As(t)
		other.ForwardedFor = "10.7.0.1"
		r := other.Do("POST", "/api/public/profiles/sorriso/bookings", map[string]string{"professionalId": w.pro, "serviceId": w.service,
			"date": "2026-11-27", "time": "10:00", "clientName": "Carla Dias", "clientPhone": "(11) 91234-5678"})
		if r.StatusCode != 201 {
			t.Fatalf("other booking: %d %s", r.StatusCode, r.Body)
		}
		var ob struct{ ID string }
		r.JSON(t, &ob)
		w.e.RunJobs()
		if r := w.owner.Do("PATCH", "/api/appointments/"+ob.ID, map[string]any{"status": "cancelled"}); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
		got := w.fake.For(b)
		if len(got) != 1 || got[0].Urgency != "high" {
			t.Fatalf("messages after the freed time: %+v", got)
		}
		n := decode(t, got[0])
		if n.Title != "Vagou um horário: Limpeza em 27/11/2026 às 10:00" || !strings.Contains(n.URL, "/lista-de-espera/oferta/") || len(n.Actions) != 0 {
			t.Fatalf("offer notification: %+v", n)
		}
		if r := w.client.Do("GET", "/api/public/waitlist-offers/"+tokenOf(n.URL), nil); r.StatusCode != 200 {
			t.Fatalf("the offer's link: %d %s", r.StatusCode, r.Body)
		}
		// The owner moves Bruno's appointment and tells him.
		r = w.owner.Do("POST", "/api/appointments/"+w.apptID+"/reschedule", map[string]any{"date": "2026-11-26", "time": "16:00",
			"professionalId": w.pro, "serviceId": w.service, "notifyClient": true})
		var moved struct{ Notice string }
		if r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		if r.JSON(t, &moved); moved.Notice != "push" {
			t.Fatalf("notice of the move %q, want push", moved.Notice)
		}
		w.e.RunJobs()
		got = w.fake.For(b)
		if len(got) != 2 {
			t.Fatalf("%d messages after the move", len(got))
		}
		n = decode(t, got[1])
		if n.Title != "Agendamento remarcado" || !strings.Contains(n.Body, "26/11/2026 às 16:00") || !strings.Contains(n.URL, "/cancel/") {
			t.Fatalf("move notification: %+v", n)
		}
		if r := w.client.Do("GET", "/api/public/bookings/"+tokenOf(n.URL), nil); r.StatusCode != 200 {
			t.Fatalf("the private page of the move: %d %s", r.StatusCode, r.Body)
		}
	})
}

// A push service's fault (503) only delays push: the reminder itself is
// done, the send is tried again after the queue's back-off, and the
// message goes once.
func TestPush_APushServiceFaultIsTriedAgain(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		b := w.subscribe(t, w.token)
		w.fake.Answer(b, http.StatusServiceUnavailable)
		w.untilReminder(t)
		if n := w.count(t, `SELECT COUNT(*) FROM push_deliveries WHERE state = 'queued'`); n != 1 || len(w.fake.For(b)) != 0 {
			t.Fatalf("after a 503: %d queued, %d accepted", n, len(w.fake.For(b)))
		}
		if n := w.count(t, `SELECT COUNT(*) FROM jobs WHERE kind = 'booking.reminder' AND done_at IS NULL`); n != 0 {
			t.Fatalf("the reminder waits on the push service (%d not done)", n)
		}
		w.fake.Answer(b, 0)
		w.e.Clock.Advance(time.Minute)
		w.e.RunJobs()
		if len(w.fake.For(b)) != 1 || w.count(t, `SELECT COUNT(*) FROM push_deliveries WHERE state = 'sent'`) != 1 {
			t.Fatalf("after the back-off: %d accepted", len(w.fake.For(b)))
		}
	})
}

// A reminder whose send waits for a retry says nothing once the
// appointment has moved: the retry finds another time and stays quiet.
func TestPush_ARetryAfterAMoveStaysQuiet(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		b := w.subscribe(t, w.token)
		w.fake.Answer(b, http.StatusServiceUnavailable)
		w.untilReminder(t)
		if r := w.owner.Do("POST", "/api/appointments/"+w.apptID+"/reschedule", map[string]any{"date": "2026-11-26", "time": "16:00",
			"professionalId": w.pro, "serviceId": w.service}); r.StatusCode != 200 {
			t.Fatalf("move: %d %s", r.StatusCode, r.Body)
		}
		w.fake.Answer(b, 0)
		w.e.Clock.Advance(time.Minute)
		w.e.RunJobs()
		if n := len(w.fake.For(b)); n != 0 {
			t.Fatalf("%d messages: the reminder of 14:00 went after the move", n)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM push_deliveries WHERE state = 'failed' AND error = 'cancelado ou remarcado antes do envio'`); n != 1 {
			t.Fatalf("the stale reminder's delivery: %d failed", n)
		}
	})
}

// The reminders card (issue 41 §5) counts a phone-only client as reached
// once their browser is subscribed: nobody before, push after — and
// another appointment of the same client is reached too.
func TestPush_TheRemindersCardCountsASubscribedClient(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.book(t, "2026-11-27", "09:00", "Bruno Souza", "(11) 98765-4321") // the same client again
		reach := func() booking.Reach {
			t.Helper()
			var r booking.Reach
			if resp := w.owner.Do("GET", "/api/reminders/reach", nil); resp.StatusCode != 200 {
				t.Fatalf("reach: %d %s", resp.StatusCode, resp.Body)
			} else {
				resp.JSON(t, &r)
			}
			return r
		}
		if r := reach(); r.Total != 2 || r.Push != 0 || r.None != 2 || len(r.Unreached) != 2 {
			t.Fatalf("before subscribing: %+v", r)
		}
		w.subscribe(t, w.token)
		if r := reach(); r.Total != 2 || r.Push != 2 || r.None != 0 || len(r.Unreached) != 0 || r.Email != 0 {
			t.Fatalf("subscribed: %+v, want both appointments reached by push alone", r)
		}
	})
}

// The owner's waitlist says how each client hears of an offer (issue 41):
// a phone-only client whose browser is subscribed is reached by push —
// their offer is sent, not "sem e-mail: avise o cliente" —, a client with
// an e-mail by e-mail, and only the one nothing reaches is left to the
// owner; the join's answer told each of them the same.
func TestPush_TheOwnersWaitlistSaysWhoPushReaches(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.subscribe(t, w.token)
		// Each is told at joining how a freed time will reach them.
		for i, c := range []map[string]string{
			{"clientName": "Bruno Souza", "clientPhone": "(11) 98765-4321", "notice": "push"},
			{"clientName": "Dora Lima", "clientPhone": "(11) 97777-1111", "notice": "owner"},
			{"clientName": "Elis Reis", "clientEmail": "elis@example.com", "notice": "email"},
		} {
			notice := c["notice"]
			delete(c, "notice")
			c["serviceId"], c["professionalId"], c["firstDate"], c["lastDate"], c["partOfDay"] = w.service, w.pro, "2026-11-26", "2026-11-26", "qualquer"
			cl := w.e.Client()
			cl.ForwardedFor = fmt.Sprintf("10.41.2.%d", i)
			r := cl.Do("POST", "/api/public/profiles/sorriso/waitlist", c)
			if r.StatusCode != 201 {
				t.Fatalf("join of %s: %d %s", c["clientName"], r.StatusCode, r.Body)
			}
			var joined struct{ Notice string }
			if r.JSON(t, &joined); joined.Notice != notice {
				t.Fatalf("%s is told %q at joining, want %q", c["clientName"], joined.Notice, notice)
			}
		}
		type offer struct {
			Sent     bool
			Channels []string
		}
		list := func() map[string]string {
			t.Helper()
			var day struct {
				Entries []struct {
					ClientName string
					Channels   []string
					LastOffer  *offer
				}
			}
			if r := w.owner.Do("GET", "/api/waitlist?date=2026-11-26", nil); r.StatusCode != 200 {
				t.Fatalf("list: %d %s", r.StatusCode, r.Body)
			} else {
				r.JSON(t, &day)
			}
			out := map[string]string{}
			for _, e := range day.Entries {
				s := fmt.Sprint(e.Channels)
				if e.LastOffer != nil {
					s += fmt.Sprintf(" offer %v sent=%v", e.LastOffer.Channels, e.LastOffer.Sent)
				}
				out[e.ClientName] = s
			}
			return out
		}
		want := map[string]string{"Bruno Souza": "[push]", "Dora Lima": "[]", "Elis Reis": "[email]"}
		if got := list(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("before any offer: %v, want %v", got, want)
		}
		// Bruno's 14:00 is cancelled by the owner: the three are offered it.
		if r := w.owner.Do("PATCH", "/api/appointments/"+w.apptID, map[string]any{"status": "cancelled"}); r.StatusCode != 200 {
			t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
		}
		w.e.RunJobs()
		want = map[string]string{"Bruno Souza": "[push] offer [push] sent=true", "Dora Lima": "[] offer [] sent=false", "Elis Reis": "[email] offer [email] sent=true"}
		if got := list(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("after the offers: %v, want %v", got, want)
		}
	})
}
