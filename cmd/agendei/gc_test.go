package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// The collector's settings are the binary's own unless the environment or
// the benchmark's switch (gogc, memory-limit) says otherwise: each switch
// leaves its setting as the runtime had it.
func TestTuneGC_EachSwitchLeavesItsSettingAlone(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	noEnv := func(string) string { return "" }
	read := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1) // a negative limit only reads it
	}
	reset := func() { debug.SetGCPercent(100); debug.SetMemoryLimit(math.MaxInt64) }
	for _, c := range []struct {
		name    string
		off     map[string]bool
		env     func(string) string
		percent int
		limit   int64
	}{
		{"all on", nil, noEnv, 400, 64 << 20},
		{"gogc off", map[string]bool{"gogc": true}, noEnv, 100, 64 << 20},
		{"memory-limit off", map[string]bool{"memory-limit": true}, noEnv, 400, math.MaxInt64},
		{"both off", map[string]bool{"gogc": true, "memory-limit": true}, noEnv, 100, math.MaxInt64},
		{"the environment's", nil, func(k string) string { return map[string]string{"GOGC": "200", "GOMEMLIMIT": "1GiB"}[k] }, 100, math.MaxInt64},
	} {
		reset()
		tuneGC(c.env, c.off)
		if p, l := read(); p != c.percent || l != c.limit {
			t.Errorf("%s: GOGC %d, limit %d; want %d, %d", c.name, p, l, c.percent, c.limit)
		}
	}
}
