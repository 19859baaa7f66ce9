package auth

import (
	"fmt"
	"testing"
	"time"
)

func TestSessionCache_ForgetsAndStaysBounded(t *testing.T) {
	var c sessionCache
	now := time.Now()
	c.put("u1", "f1", sessionEntry{found: true, live: true, read: now})
	c.put("u1", "f2", sessionEntry{found: true, live: true, read: now})
	c.put("u2", "f3", sessionEntry{found: true, live: true, read: now})
	if _, ok := c.get("u1", "f1"); !ok {
		t.Fatal("fresh entry not found")
	}
	c.forget("u1", "f1")
	if _, ok := c.get("u1", "f1"); ok {
		t.Fatal("forgotten family still cached")
	}
	c.forget("u1", "")
	if _, ok := c.get("u1", "f2"); ok || c.n != 1 {
		t.Fatalf("forgotten user still cached (n=%d)", c.n)
	}
	// Stale entries are not served, and are what a full cache drops first.
	c.put("old", "f", sessionEntry{read: now.Add(-2 * SessionCheckTTL)})
	if _, ok := c.get("old", "f"); ok {
		t.Fatal("stale entry served")
	}
	for i := range maxSessionCache + 10 {
		c.put(fmt.Sprint("user", i), "f", sessionEntry{read: now})
	}
	if c.n > maxSessionCache {
		t.Fatalf("cache holds %d entries, bound %d", c.n, maxSessionCache)
	}
	if _, ok := c.users["old"]; ok {
		t.Fatal("a full cache must drop stale entries")
	}
}

func TestLoginDelay_GrowsThenStops(t *testing.T) {
	want := map[int]time.Duration{0: 0, 4: 0, 5: 250 * time.Millisecond, 6: 500 * time.Millisecond,
		7: time.Second, 8: 2 * time.Second, 9: 3 * time.Second, 40: 3 * time.Second, 1 << 30: 3 * time.Second}
	for failures, d := range want {
		if got := loginDelay(failures); got != d {
			t.Errorf("loginDelay(%d) = %v, want %v", failures, got, d)
		}
	}
}
