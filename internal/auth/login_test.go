package auth_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/server/servertest"
)

// waits records the sign-in slowdown instead of sleeping.
type waits struct {
	mu  sync.Mutex
	all []time.Duration
}

func (w *waits) sleep(_ context.Context, d time.Duration) error {
	w.mu.Lock()
	w.all = append(w.all, d)
	w.mu.Unlock()
	return nil
}

func (w *waits) take() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.all
	w.all = nil
	return out
}

// Issue 12, item 6b: a stranger hammering the owner's e-mail from one address
// is stopped at that address (10 per 15 minutes, then 429), and does not lock
// the owner out: from their own address, with the right password, the owner
// signs in — slowed down a little, never refused. On the old code the owner's
// attempt answered 429 for 15 minutes.
func TestLogin_StrangerCannotLockTheOwnerOut(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := &waits{}
		e.Server.Auth.SetSleep(w.sleep)
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		stranger := e.Client()
		stranger.ForwardedFor = "203.0.113.7"
		codes := map[int]int{}
		for range 30 {
			r := stranger.Login("ana@example.com", fmt.Sprintf("chute-%d", len(codes)))
			codes[r.StatusCode]++
			if r.StatusCode == 429 && r.Err(t).Error.Code != "rate_limited" {
				t.Fatalf("429 without the limiter's message: %s", r.Body)
			}
		}
		if codes[401] != 10 || codes[429] != 20 {
			t.Fatalf("stranger's 30 attempts from one address: %v, want 10×401 then 20×429", codes)
		}
		w.take()

		owner := e.Client()
		owner.ForwardedFor = "198.51.100.20"
		if r := owner.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("the owner, from their own address, with the right password: %d %s", r.StatusCode, r.Body)
		}
		if got := w.take(); len(got) != 1 || got[0] <= 0 || got[0] > 3*time.Second {
			t.Fatalf("the owner's sign-in should be slowed (a few seconds at most), waits %v", got)
		}
		if r := owner.Do("GET", "/api/me", nil); r.StatusCode != 200 {
			t.Fatalf("owner's session: %d", r.StatusCode)
		}
	})
}

// A guesser spread over many addresses is never refused per e-mail either,
// but every attempt at that e-mail waits longer, up to a few seconds; the
// owner still gets in. Successful sign-ins do not count toward the slowdown.
func TestLogin_SpreadOutGuessingSlowsDownWithoutLocking(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		w := &waits{}
		e.Server.Auth.SetSleep(w.sleep)
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		for i := range 8 {
			c := e.Client()
			c.ForwardedFor = fmt.Sprintf("198.51.100.%d", i+1)
			if r := c.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
				t.Fatalf("sign-in %d: %d", i, r.StatusCode)
			}
		}
		if got := w.take(); len(got) != 0 {
			t.Fatalf("successful sign-ins were slowed: %v", got)
		}
		for i := range 40 {
			c := e.Client()
			c.ForwardedFor = fmt.Sprintf("203.0.113.%d", i+1)
			if r := c.Login("ana@example.com", "errada1"); r.StatusCode != 401 {
				t.Fatalf("guess %d from a new address: %d %s", i, r.StatusCode, r.Body)
			}
		}
		got := w.take()
		if len(got) != 40-5 {
			t.Fatalf("%d guesses slowed, want every one after the first 5 failures: %v", len(got), got)
		}
		for i := 1; i < len(got); i++ {
			if got[i] < got[i-1] || got[i] > 3*time.Second {
				t.Fatalf("waits must grow up to 3 s: %v", got)
			}
		}
		if got[len(got)-1] != 3*time.Second {
			t.Fatalf("the slowdown stops growing at 3 s: %v", got)
		}
		owner := e.Client()
		owner.ForwardedFor = "198.51.100.1"
		if r := owner.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("owner after 40 spread-out guesses: %d %s", r.StatusCode, r.Body)
		}
		if got := w.take(); len(got) != 1 || got[0] != 3*time.Second {
			t.Fatalf("the owner's sign-in waits like any other: %v", got)
		}
		// The same holds for an e-mail without an account: the answer's timing
		// does not tell which e-mails exist.
		for i := range 7 {
			c := e.Client()
			c.ForwardedFor = fmt.Sprintf("192.0.2.%d", i+1)
			c.Login("ninguem@example.com", "errada1")
		}
		if got := w.take(); len(got) != 2 {
			t.Fatalf("unknown e-mail: %d slowed attempts, want 2", len(got))
		}
		// The window passes: no more waiting.
		e.Clock.Advance(16 * time.Minute)
		w.take()
		if r := owner.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatal(r.StatusCode)
		}
		if got := w.take(); len(got) != 0 {
			t.Fatalf("slowed after the window: %v", got)
		}
	})
}

// Issue 24, item 12: the (e-mail, address) limit counts failures, not
// sign-ins. Three people sharing one account on one network sign in as often
// as they need; before, the eleventh good sign-in in 15 minutes answered
// "Aguarde 6 minutos".
func TestLogin_GoodSignInsFromOneAddressAreNotLimited(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		for i := range 15 {
			c := e.Client()
			c.ForwardedFor = "198.51.100.20"
			if r := c.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
				t.Fatalf("good sign-in %d from one address: %d %s", i+1, r.StatusCode, r.Body)
			}
		}
	})
}

// A good sign-in clears its pair's failures (nine typos, then the right
// password, then nine more typos are all answered), while ten failures in a
// row still lock the pair, the right password included.
func TestLogin_AGoodSignInClearsThePairsFailures(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Server.Auth.SetSleep(func(context.Context, time.Duration) error { return nil })
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		c := e.Client()
		c.ForwardedFor = "198.51.100.20"
		fail := func(n int) {
			t.Helper()
			for i := range n {
				if r := c.Login("ana@example.com", "errada1"); r.StatusCode != 401 {
					t.Fatalf("failure %d: %d %s", i+1, r.StatusCode, r.Body)
				}
			}
		}
		fail(9)
		if r := c.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("the right password after 9 failures: %d %s", r.StatusCode, r.Body)
		}
		fail(10)
		r := c.Login("ana@example.com", "segredo1")
		if r.StatusCode != 429 || r.Err(t).Error.Code != "rate_limited" {
			t.Fatalf("after 10 failures in a row the pair is locked: %d %s", r.StatusCode, r.Body)
		}
		// The lock is the pair's: the same e-mail from another address gets in.
		other := e.Client()
		other.ForwardedFor = "198.51.100.21"
		if r := other.Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("another address: %d %s", r.StatusCode, r.Body)
		}
	})
}

// The address's own cap still holds, whatever mixes the attempts: 50 in 15
// minutes, good sign-ins included (each one hashes a password), spread over
// any e-mails; the 51st waits, even with the right password.
func TestLogin_TheAddressCapStillHolds(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Server.Auth.SetSleep(func(context.Context, time.Duration) error { return nil })
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		c := e.Client()
		c.ForwardedFor = "203.0.113.7"
		for i := range 50 {
			want, r := 200, (*servertest.Response)(nil)
			if i%2 == 0 {
				r = c.Login("ana@example.com", "segredo1")
			} else {
				want, r = 401, c.Login(fmt.Sprintf("chute%d@example.com", i), "errada1")
			}
			if r.StatusCode != want {
				t.Fatalf("attempt %d: %d %s, want %d", i+1, r.StatusCode, r.Body, want)
			}
		}
		r := c.Login("ana@example.com", "segredo1")
		if r.StatusCode != 429 || r.Err(t).Error.Code != "rate_limited" {
			t.Fatalf("51st attempt from one address: %d %s", r.StatusCode, r.Body)
		}
	})
}
