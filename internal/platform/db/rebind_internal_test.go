package db

import (
	"strconv"
	"testing"
	"time"
)

// The benchmark's rebind-cache switch gives the plain path: the same
// PostgreSQL text, rewritten on every call, none kept.
func TestRebindCacheOff_RewritesEveryTimeAndKeepsNothing(t *testing.T) {
	RebindCacheOff.Store(true)
	defer RebindCacheOff.Store(false)
	q := "SELECT a FROM t WHERE b = ? AND c = ? -- off " + strconv.FormatInt(time.Now().UnixNano(), 10)
	kept := reboundCount.Load()
	for range 2 {
		if got := rebind(Postgres, q); got != rebindText(q) || got[len("SELECT a FROM t WHERE b = "):][:2] != "$1" {
			t.Fatalf("off: %q", got)
		}
	}
	if _, ok := rebound.Load(q); ok || reboundCount.Load() != kept {
		t.Fatal("a text was kept with the cache off")
	}
	RebindCacheOff.Store(false)
	rebind(Postgres, q)
	if _, ok := rebound.Load(q); !ok {
		t.Fatal("the text was not kept with the cache on")
	}
}
