package whatsapp_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/whatsapp"
	"github.com/agendei/agendei/internal/whatsapp/graphtest"
)

// sendOne connects, approves, and sends the first reminder; it returns the
// message as Meta has it and the owner's webhook URL.
func (w *world) sendOne(t *testing.T) (graphtest.Message, string) {
	t.Helper()
	st := w.connect(t)
	w.approve(t)
	if ok, err := w.e.Server.WhatsApp.Queue(context.Background(), w.e.DB, w.reminder(1)); !ok || err != nil {
		t.Fatalf("queue: %v %v", ok, err)
	}
	w.e.RunJobs()
	sent := w.fake.Messages()
	if len(sent) != 1 {
		t.Fatalf("sent %+v", sent)
	}
	return sent[0], st.WebhookURL
}

func TestWebhook_VerificationEchoesTheChallengeOnlyForTheOwnersToken(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		st := w.connect(t)
		get := func(rawURL string) (int, string) {
			res, err := http.Get(rawURL)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		q := url.Values{"hub.mode": {"subscribe"}, "hub.verify_token": {st.VerifyToken}, "hub.challenge": {"1158201444"}}
		if code, body := get(st.WebhookURL + "?" + q.Encode()); code != 200 || body != "1158201444" {
			t.Fatalf("verification: %d %q", code, body)
		}
		q.Set("hub.verify_token", st.VerifyToken+"x")
		if code, body := get(st.WebhookURL + "?" + q.Encode()); code != 403 || body == "1158201444" {
			t.Fatalf("wrong verify token: %d %q", code, body)
		}
		if code, _ := get(w.e.HTTP.URL + "/webhooks/whatsapp/desconhecido?" + q.Encode()); code != 404 {
			t.Fatalf("unknown key: %d", code)
		}
	})
}

func TestWebhook_ForgedSignatureIsRefusedAndChangesNothing(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		msg, hook := w.sendOne(t)
		body := w.biz.Statuses(graphtest.Status{MessageID: msg.ID, Status: "read", RecipientID: msg.To, At: w.e.Clock.Now()})
		for name, sig := range map[string]string{
			"none":                "",
			"another secret":      graphtest.Sign("outro-segredo", body),
			"not hex":             "sha256=zz",
			"sha1 form":           "sha1=" + graphtest.Sign(w.biz.AppSecret, body)[7:],
			"signed other bytes":  graphtest.Sign(w.biz.AppSecret, append([]byte(" "), body...)),
			"truncated signature": graphtest.Sign(w.biz.AppSecret, body)[:40],
		} {
			code, err := graphtest.PostSigned(hook, sig, body)
			if err != nil || code != http.StatusUnauthorized {
				t.Errorf("%s: %d %v", name, code, err)
			}
		}
		if ds := w.deliveries(t); ds[0].State != "sent" {
			t.Fatalf("a refused webhook changed the message: %+v", ds)
		}
		if code, err := graphtest.Post(hook, w.biz.AppSecret, body); err != nil || code != 200 {
			t.Fatalf("signed: %d %v", code, err)
		}
		if ds := w.deliveries(t); ds[0].State != "read" {
			t.Fatalf("the signed webhook did not apply: %+v", ds)
		}
	})
}

// Meta retries deliveries and does not order them: a late "sent" or
// "delivered" after "read", or the same webhook twice, changes nothing.
func TestWebhook_StatusesOutOfOrderAndReplaysChangeNothingTwice(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		msg, hook := w.sendOne(t)
		t0 := w.e.Clock.Now()
		post := func(s graphtest.Status) {
			t.Helper()
			s.MessageID, s.RecipientID = msg.ID, msg.To
			if code, err := graphtest.Post(hook, w.biz.AppSecret, w.biz.Statuses(s)); err != nil || code != 200 {
				t.Fatalf("%s: %d %v", s.Status, code, err)
			}
		}
		post(graphtest.Status{Status: "read", At: t0.Add(3 * time.Minute)})
		post(graphtest.Status{Status: "delivered", At: t0.Add(2 * time.Minute)})
		post(graphtest.Status{Status: "sent", At: t0.Add(1 * time.Minute)})
		post(graphtest.Status{Status: "read", At: t0.Add(3 * time.Minute)})
		ds := w.deliveries(t)
		if len(ds) != 1 || ds[0].State != "read" || !ds[0].UpdatedAt.Equal(t0.Add(3*time.Minute).Truncate(time.Second)) {
			t.Fatalf("after out-of-order statuses: %+v", ds)
		}
		// A status of a message that is not Agendei's is ignored.
		other := graphtest.Status{MessageID: "wamid.desconhecido", Status: "failed", RecipientID: msg.To, At: t0, ErrorCode: 131026, ErrorTitle: "x"}
		if code, _ := graphtest.Post(hook, w.biz.AppSecret, w.biz.Statuses(other)); code != 200 {
			t.Fatalf("unknown message: %d", code)
		}
	})
}

// A message Meta accepted and then could not deliver shows as failed on the
// appointment; the webhook's replay changes nothing more.
func TestWebhook_FailedDeliveryShowsOnTheAppointmentOnce(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		msg, hook := w.sendOne(t)
		failed := w.biz.Statuses(graphtest.Status{MessageID: msg.ID, Status: "failed", RecipientID: msg.To, At: w.e.Clock.Now().Add(time.Minute),
			ErrorCode: 131026, ErrorTitle: "Message undeliverable"})
		for range 2 {
			if code, err := graphtest.Post(hook, w.biz.AppSecret, failed); err != nil || code != 200 {
				t.Fatalf("failed status: %d %v", code, err)
			}
		}
		ds := w.deliveries(t)
		if len(ds) != 1 || ds[0].State != "failed" || ds[0].Error != "131026 Message undeliverable" {
			t.Fatalf("deliveries: %+v", ds)
		}
		_ = whatsapp.KindReminder
	})
}

// lateAccept makes the next send accepted by Meta but answered past a
// short client time-out, and queues the first reminder.
func (w *world) lateAccept(t *testing.T) (graphtest.Message, string) {
	t.Helper()
	st := w.connect(t)
	w.approve(t)
	g := whatsapp.NewGraph(w.fake.URL())
	g.HTTP.Timeout = 300 * time.Millisecond
	w.e.Server.WhatsApp.Graph = g
	w.fake.AnswerLate(1)
	if ok, err := w.e.Server.WhatsApp.Queue(context.Background(), w.e.DB, w.reminder(1)); !ok || err != nil {
		t.Fatalf("queue: %v %v", ok, err)
	}
	w.e.RunJobs()
	sent := w.fake.Messages()
	if len(sent) != 1 || sent[0].CallbackData == "" {
		t.Fatalf("messages at Meta: %+v", sent)
	}
	if ds := w.deliveries(t); len(ds) != 1 || ds[0].State != "unknown" || ds[0].Emailed {
		t.Fatalf("after the time-out: %+v", ds)
	}
	// The job's back-off passes: it is not sent again.
	w.later(t, 5*time.Minute)
	if n := w.fake.Sends(); n != 1 {
		t.Fatalf("Meta was called %d times after a time-out; want 1", n)
	}
	return sent[0], st.WebhookURL
}

// Meta accepts a message but answers after the client's time-out: it is
// not sent again (that would be a second message, billed twice); the
// status webhook, which echoes the key the message carried
// (biz_opaque_callback_data), settles it, and no e-mail goes.
func TestWebhook_AMessageAcceptedLateIsSettledByItsStatusNotSentAgain(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		msg, hook := w.lateAccept(t)
		s := graphtest.Status{MessageID: msg.ID, Status: "sent", RecipientID: msg.To, At: w.e.Clock.Now(), CallbackData: msg.CallbackData}
		if code, err := graphtest.Post(hook, w.biz.AppSecret, w.biz.Statuses(s)); err != nil || code != 200 {
			t.Fatalf("status: %d %v", code, err)
		}
		if ds := w.deliveries(t); len(ds) != 1 || ds[0].State != "sent" || ds[0].SentAt == nil || ds[0].Error != "" {
			t.Fatalf("after its status: %+v", ds)
		}
		// Later statuses name it by its wamid, which it now keeps.
		s.Status, s.CallbackData = "delivered", ""
		if code, _ := graphtest.Post(hook, w.biz.AppSecret, w.biz.Statuses(s)); code != 200 {
			t.Fatalf("delivered: %d", code)
		}
		w.later(t, 20*time.Minute)
		if n, mails := w.fake.Sends(), w.reminderMails(t); n != 1 || mails != 0 {
			t.Fatalf("Meta called %d times, %d reminder e-mails; want 1 and 0", n, mails)
		}
		if ds := w.deliveries(t); len(ds) != 1 || ds[0].State != "delivered" || ds[0].Emailed {
			t.Fatalf("in the end: %+v", ds)
		}
		var st whatsapp.Status
		w.owner.Do("GET", "/api/whatsapp", nil).JSON(t, &st)
		if st.SentThisMonth != 1 {
			t.Fatalf("sent this month = %d", st.SentThisMonth)
		}
	})
}

// When no status names a message whose send timed out, its outcome stays
// unknown: after ten minutes the e-mail goes instead, once, and WhatsApp
// is never tried again.
func TestWebhook_AMessageWithNoAnswerNorStatusGoesByEmailAfterTheWait(t *testing.T) {
	each(t, func(t *testing.T, w *world) {
		w.lateAccept(t)
		if n := w.reminderMails(t); n != 0 {
			t.Fatalf("e-mails before the wait ended: %d", n)
		}
		w.later(t, 4*time.Minute)
		if n := w.reminderMails(t); n != 0 {
			t.Fatalf("e-mails before the wait ended: %d", n)
		}
		w.later(t, 2*time.Minute)
		if n, mails := w.fake.Sends(), w.reminderMails(t); n != 1 || mails != 1 {
			t.Fatalf("Meta called %d times, %d reminder e-mails; want 1 and 1", n, mails)
		}
		if ds := w.deliveries(t); len(ds) != 1 || ds[0].State != "unknown" || !ds[0].Emailed {
			t.Fatalf("in the end: %+v", ds)
		}
	})
}

// later moves the clock on, runs the jobs due, and signs the owner in again.
func (w *world) later(t *testing.T, d time.Duration) {
	t.Helper()
	w.e.Clock.Advance(d)
	w.e.RunJobs()
	if r := w.owner.Login("ana@example.com", "senha-da-ana-1"); r.StatusCode != 200 {
		t.Fatalf("login: %d %s", r.StatusCode, r.Body)
	}
}
