package billing_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	stripe "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

const whsec = "whsec_test_secret"

// startStripeMock runs stripe-mock (Stripe's API double) for the test.
func startStripeMock(t *testing.T) string {
	bin, err := exec.LookPath("stripe-mock")
	if err != nil {
		out, _ := exec.Command("go", "env", "GOPATH").Output()
		bin = filepath.Join(strings.TrimSpace(string(out)), "bin", "stripe-mock")
		if _, err := os.Stat(bin); err != nil {
			t.Fatal("stripe-mock is not installed: go install github.com/stripe/stripe-mock@v0.203.0 (make test installs it)")
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "-http-addr", addr, "-https-addr", "127.0.0.1:0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	for range 100 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("stripe-mock did not start")
	return ""
}

func stripeEnv(t *testing.T, dialect string, api string) *servertest.Env {
	for _, d := range dbtest.Dialects(t) {
		if string(d) == dialect {
			return servertest.StartWith(t, d, func(c *config.Config) {
				c.StripeSecretKey, c.StripeWebhook, c.StripePriceID, c.StripeAPIBase = "sk_test_123", whsec, "price_123", api
			})
		}
	}
	return nil
}

func event(id, kind, userID, status string, cancelAtEnd bool, end time.Time) []byte {
	return []byte(fmt.Sprintf(`{"id":%q,"object":"event","api_version":%q,"type":%q,"data":{"object":{"id":"sub_1","object":"subscription",
		"status":%q,"cancel_at_period_end":%t,"customer":"cus_1","metadata":{"user_id":%q},
		"items":{"object":"list","data":[{"id":"si_1","object":"subscription_item","current_period_end":%d}]}}}}`,
		id, stripe.APIVersion, kind, status, cancelAtEnd, userID, end.Unix()))
}

func send(t *testing.T, e *servertest.Env, body []byte, secret string) int {
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: time.Now()})
	c := e.Client()
	c.NoCSRF = true // Stripe sends no CSRF header; its signature is the proof
	c.Headers = map[string]string{"Stripe-Signature": signed.Header}
	return c.Do("POST", "/webhooks/stripe", body).StatusCode
}

func TestStripe_CheckoutPortalCancelAndSignedIdempotentWebhooks(t *testing.T) {
	api := startStripeMock(t)
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			e := stripeEnv(t, dialect, api)
			if e == nil {
				t.Skip("engine not in this run")
			}
			c := e.Client()
			var me struct{ User struct{ ID string } }
			c.Signup("Ana", "ana@example.com", "segredo1", "gato").JSON(t, &me)
			uid := me.User.ID

			var out struct{ URL string }
			if r := c.Do("POST", "/api/subscription/checkout", nil); r.StatusCode != 200 {
				t.Fatalf("checkout through stripe-mock: %d %s", r.StatusCode, r.Body)
			} else {
				r.JSON(t, &out)
			}
			if !strings.HasPrefix(out.URL, "https://") {
				t.Fatalf("checkout url %q", out.URL)
			}
			// The local provider's test payment is not available with Stripe.
			if r := c.Do("POST", "/api/billing/test-checkout/x/pay", nil); r.StatusCode != 404 {
				t.Fatalf("test checkout with stripe: %d", r.StatusCode)
			}

			end := e.Clock.Now().AddDate(0, 1, 0).Truncate(time.Second)
			created := event("evt_1", "customer.subscription.created", uid, "active", false, end)
			// A forged event changes nothing.
			if code := send(t, e, created, "whsec_wrong"); code != 400 {
				t.Fatalf("forged webhook: %d", code)
			}
			var st status
			c.Do("GET", "/api/subscription", nil).JSON(t, &st)
			if st.Subscribed {
				t.Fatal("a forged event activated the plan")
			}
			// The real one activates; the same event twice changes it once.
			for range 2 {
				if code := send(t, e, created, whsec); code != 200 {
					t.Fatalf("webhook: %d", code)
				}
			}
			c.Do("GET", "/api/subscription", nil).JSON(t, &st)
			if !st.Subscribed || !st.SubscriptionEnd.Equal(end) {
				t.Fatalf("after created: %+v", st)
			}
			var notes struct{ Notifications []struct{ Title string } }
			c.Do("GET", "/api/notifications", nil).JSON(t, &notes)
			if len(notes.Notifications) != 1 || notes.Notifications[0].Title != "Assinatura ativada" {
				t.Fatalf("notified %+v", notes)
			}
			// Portal and cancel go through Stripe's API (the double answers).
			if r := c.Do("POST", "/api/subscription/portal", nil); r.StatusCode != 200 {
				t.Fatalf("portal: %d %s", r.StatusCode, r.Body)
			}
			if r := c.Do("POST", "/api/subscription/cancel", nil); r.StatusCode != 200 {
				t.Fatalf("cancel: %d %s", r.StatusCode, r.Body)
			}
			// Stripe then says the renewal is off, and later that it ended.
			send(t, e, event("evt_2", "customer.subscription.updated", uid, "active", true, end), whsec)
			c.Do("GET", "/api/subscription", nil).JSON(t, &st)
			if !st.Subscribed || !st.CancelAtPeriodEnd {
				t.Fatalf("after updated: %+v", st)
			}
			e.Clock.Advance(time.Minute)
			send(t, e, event("evt_3", "customer.subscription.deleted", uid, "canceled", true, end), whsec)
			c.Do("GET", "/api/subscription", nil).JSON(t, &st)
			if st.Subscribed {
				t.Fatalf("after deleted: %+v", st)
			}
			c.Do("GET", "/api/notifications", nil).JSON(t, &notes)
			if len(notes.Notifications) != 2 || notes.Notifications[0].Title != "Assinatura encerrada" {
				t.Fatalf("notified %+v", notes)
			}
		})
	}
}
