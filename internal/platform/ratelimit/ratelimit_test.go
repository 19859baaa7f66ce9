package ratelimit_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/platform/clock"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/platform/ratelimit"
)

func TestLimiter_CountsConcurrentAttemptsExactlyAndResetsAfterWindow(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		clk := clock.NewManual(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
		l := ratelimit.New(d, clk)
		rule := ratelimit.Rule{Name: "test", Max: 5, Window: time.Minute}

		var mu sync.Mutex
		allowed := 0
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, _, err := l.Allow(ctx, rule, "k")
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if allowed != 5 {
			t.Fatalf("allowed %d of 20 concurrent attempts, want 5", allowed)
		}
		ok, wait, err := l.Allow(ctx, rule, "k")
		if err != nil || ok || wait != time.Minute {
			t.Fatalf("over limit: ok=%v wait=%v err=%v", ok, wait, err)
		}
		if ok, _, _ := l.Allow(ctx, rule, "other"); !ok {
			t.Fatal("another key must have its own window")
		}
		clk.Advance(time.Minute)
		if ok, _, _ := l.Allow(ctx, rule, "k"); !ok {
			t.Fatal("a new window must allow again")
		}
	})
}

// Reset clears one key's count on the database, so every instance sees it
// at once; other keys and other rules keep theirs.
func TestLimiter_ResetClearsOneKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		clk := clock.NewManual(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
		l, peer := ratelimit.New(d, clk), ratelimit.New(d, clk)
		rule := ratelimit.Rule{Name: "test", Max: 2, Window: time.Minute}
		other := ratelimit.Rule{Name: "test2", Max: 2, Window: time.Minute}
		for range 2 {
			for _, k := range []string{"k", "j"} {
				if ok, _, err := l.Allow(ctx, rule, k); !ok || err != nil {
					t.Fatal(ok, err)
				}
			}
			if ok, _, err := l.Allow(ctx, other, "k"); !ok || err != nil {
				t.Fatal(ok, err)
			}
		}
		if err := l.Reset(ctx, rule, "k"); err != nil {
			t.Fatal(err)
		}
		if ok, _, _ := peer.Allow(ctx, rule, "k"); !ok {
			t.Fatal("a reset key must allow again")
		}
		if ok, _, _ := peer.Allow(ctx, rule, "j"); ok {
			t.Fatal("another key keeps its count")
		}
		if ok, _, _ := peer.Allow(ctx, other, "k"); ok {
			t.Fatal("the same key under another rule keeps its count")
		}
		if err := l.Reset(ctx, rule, "nunca"); err != nil {
			t.Fatalf("resetting a key never counted: %v", err)
		}
	})
}

func TestHumanWait(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second: "1 minuto", 90 * time.Second: "2 minutos", 15 * time.Minute: "15 minutos",
		time.Hour: "1 hora", 3 * time.Hour: "3 horas",
	} {
		if got := ratelimit.HumanWait(d); got != want {
			t.Errorf("HumanWait(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestMemory_LimitsPerKeyAndResets(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	m := ratelimit.NewMemory(3, time.Minute, clk.Now)
	for i := range 3 {
		if ok, _ := m.Allow("a"); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	if ok, wait := m.Allow("a"); ok || wait != time.Minute {
		t.Fatalf("4th: ok=%v wait=%v", ok, wait)
	}
	if ok, _ := m.Allow("b"); !ok {
		t.Fatal("keys are separate")
	}
	clk.Advance(time.Minute)
	if ok, _ := m.Allow("a"); !ok {
		t.Fatal("new window")
	}
}

// A flood from ever new addresses never grows the counts past MemoryKeys:
// new keys then pass uncounted, keys already counted are still limited,
// and once the window is over the room is there again.
func TestMemory_KeepsAtMostMemoryKeys(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	m := ratelimit.NewMemory(1, time.Minute, clk.Now)
	m.Allow("first")
	for i := range ratelimit.MemoryKeys + 1000 {
		if ok, _ := m.Allow(fmt.Sprintf("10.%d", i)); !ok {
			t.Fatalf("address %d refused on its first request", i)
		}
	}
	if n := m.Len(); n != ratelimit.MemoryKeys {
		t.Fatalf("%d keys kept, want %d", n, ratelimit.MemoryKeys)
	}
	if ok, _ := m.Allow("first"); ok {
		t.Fatal("a key counted before the flood is no longer limited")
	}
	clk.Advance(time.Minute + time.Second)
	m.Allow("after")
	if n := m.Len(); n != 1 {
		t.Fatalf("after the window: %d keys kept, want 1", n)
	}
	if ok, _ := m.Allow("after"); ok {
		t.Fatal("a new key after the sweep is not counted")
	}
}
