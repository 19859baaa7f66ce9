package billing_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

type status struct {
	Subscribed        bool
	SubscriptionTier  *string
	SubscriptionEnd   *time.Time
	CancelAtPeriodEnd bool
	PriceCents        int
}

func checkoutID(t *testing.T, c *servertest.Client) string {
	var out struct{ URL string }
	r := c.Do("POST", "/api/subscription/checkout", nil)
	if r.StatusCode != 200 {
		t.Fatalf("checkout: %d %s", r.StatusCode, r.Body)
	}
	r.JSON(t, &out)
	i := strings.LastIndex(out.URL, "/checkout/test/")
	if i < 0 {
		t.Fatalf("url %q", out.URL)
	}
	return out.URL[i+len("/checkout/test/"):]
}

func TestLocalProvider_SubscribeCancelAndExpire(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var st status
		c.Do("GET", "/api/subscription", nil).JSON(t, &st)
		if st.Subscribed || st.SubscriptionTier != nil || st.PriceCents != 2190 {
			t.Fatalf("fresh: %+v", st)
		}
		id := checkoutID(t, c)
		// Nobody else can pay (or see) this checkout.
		other := e.Client()
		other.Signup("Bia", "bia@example.com", "segredo1", "gato")
		if r := other.Do("POST", "/api/billing/test-checkout/"+id+"/pay", nil); r.StatusCode != 404 {
			t.Fatalf("another owner pays: %d", r.StatusCode)
		}
		for range 2 { // paying twice changes nothing
			if r := c.Do("POST", "/api/billing/test-checkout/"+id+"/pay", nil); r.StatusCode != 200 {
				t.Fatalf("pay: %d %s", r.StatusCode, r.Body)
			}
		}
		c.Do("GET", "/api/subscription", nil).JSON(t, &st)
		want := e.Clock.Now().AddDate(0, 1, 0)
		if !st.Subscribed || *st.SubscriptionTier != "Premium" || !st.SubscriptionEnd.Equal(want) || st.CancelAtPeriodEnd {
			t.Fatalf("subscribed: %+v", st)
		}
		var cancel struct{ CancellationDate time.Time }
		c.Do("POST", "/api/subscription/cancel", nil).JSON(t, &cancel)
		if !cancel.CancellationDate.Equal(want) {
			t.Fatalf("cancellation date %v, want %v", cancel.CancellationDate, want)
		}
		c.Do("GET", "/api/subscription", nil).JSON(t, &st)
		if !st.Subscribed || !st.CancelAtPeriodEnd {
			t.Fatalf("access lasts until the end: %+v", st)
		}
		e.Clock.Set(want)
		c.Login("ana@example.com", "segredo1")
		c.Do("GET", "/api/subscription", nil).JSON(t, &st)
		if st.Subscribed {
			t.Fatalf("after the period: %+v", st)
		}
		if r := c.Do("POST", "/api/subscription/cancel", nil); r.StatusCode != 409 {
			t.Fatalf("cancel without subscription: %d", r.StatusCode)
		}
		var notes struct {
			Notifications []struct{ Type, Title string }
		}
		c.Do("GET", "/api/notifications", nil).JSON(t, &notes)
		if len(notes.Notifications) != 1 || notes.Notifications[0].Type != "system" || notes.Notifications[0].Title != "Assinatura ativada" {
			t.Fatalf("notifications %+v", notes)
		}
	})
}

func TestSubscription_ReopensBookingAfterTheTrial(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		var days []map[string]any
		for d := range 7 {
			days = append(days, map[string]any{"dayOfWeek": d, "enabled": true, "start": "08:00", "end": "20:00"})
		}
		c.Do("POST", "/api/onboarding", map[string]any{"name": "Ana", "area": "Psi", "publicUsername": "ana",
			"services": []map[string]any{{"name": "Sessão", "duration": 30}}, "days": days})
		open := func() bool {
			var p struct{ BookingOpen bool }
			e.Client().Do("GET", "/api/public/profiles/ana", nil).JSON(t, &p)
			return p.BookingOpen
		}
		if !open() {
			t.Fatal("open during the trial")
		}
		e.Clock.Advance(8 * 24 * time.Hour)
		if open() {
			t.Fatal("closed after the trial")
		}
		c.Login("ana@example.com", "segredo1")
		c.Do("POST", "/api/billing/test-checkout/"+checkoutID(t, c)+"/pay", nil)
		if !open() {
			t.Fatal("paying reopens booking at once")
		}
	})
}

// onboardedForSweep signs Ana up and through onboarding (her trial starts),
// and returns her notification titles and a sweep.
func onboardedForSweep(t *testing.T, e *servertest.Env, c *servertest.Client) (titles func() []string, sweep func()) {
	t.Helper()
	c.Signup("Ana", "ana@example.com", "segredo1", "gato")
	c.Do("POST", "/api/onboarding", map[string]any{"name": "Ana", "area": "Psi", "publicUsername": "ana",
		"services": []map[string]any{{"name": "Sessão", "duration": 30}}, "days": []map[string]any{
			{"dayOfWeek": 0, "enabled": false, "start": "09:00", "end": "12:00"}, {"dayOfWeek": 1, "enabled": true, "start": "09:00", "end": "12:00"},
			{"dayOfWeek": 2, "enabled": false, "start": "09:00", "end": "12:00"}, {"dayOfWeek": 3, "enabled": false, "start": "09:00", "end": "12:00"},
			{"dayOfWeek": 4, "enabled": false, "start": "09:00", "end": "12:00"}, {"dayOfWeek": 5, "enabled": false, "start": "09:00", "end": "12:00"},
			{"dayOfWeek": 6, "enabled": false, "start": "09:00", "end": "12:00"}}})
	titles = func() []string {
		c.Login("ana@example.com", "segredo1")
		var n struct{ Notifications []struct{ Title string } }
		c.Do("GET", "/api/notifications", nil).JSON(t, &n)
		var out []string
		for _, x := range n.Notifications {
			out = append(out, x.Title)
		}
		return out
	}
	sweep = func() {
		if err := e.Server.Billing.Sweep(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return titles, sweep
}

func TestSweep_DoesNotTellASubscriberOfTheTrialsEnd(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		titles, sweep := onboardedForSweep(t, e, c)
		c.Do("POST", "/api/billing/test-checkout/"+checkoutID(t, c)+"/pay", nil)
		e.Clock.Advance(4*24*time.Hour + time.Minute) // just under 3 days of trial left
		sweep()
		if got := titles(); len(got) != 1 || got[0] != "Assinatura ativada" {
			t.Fatalf("a subscriber got: %v", got)
		}
	})
}

func TestSweep_TellsOfTheTrialsEndOnceAndOfAnEndedPlan(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		titles, sweep := onboardedForSweep(t, e, c)
		e.Clock.Advance(3 * 24 * time.Hour) // 4 days left
		sweep()
		if got := titles(); len(got) != 0 {
			t.Fatalf("too early: %v", got)
		}
		e.Clock.Advance(24*time.Hour + time.Minute) // just under 3 days left
		sweep()
		sweep() // a second sweep (or instance) sends nothing more
		if got := titles(); len(got) != 1 || got[0] != "Seu teste gratuito está acabando" {
			t.Fatalf("trial notice: %v", got)
		}
		c.Do("POST", "/api/billing/test-checkout/"+checkoutID(t, c)+"/pay", nil)
		e.Clock.Advance(32 * 24 * time.Hour)
		sweep()
		sweep()
		got := titles()
		if len(got) != 3 || got[0] != "Assinatura encerrada" || !strings.Contains(strings.Join(got, "|"), "Assinatura ativada") {
			t.Fatalf("plan end: %v", got)
		}
	})
}
