package ratelimit

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agendei/agendei/internal/platform/httpx"
)

// Memory counts attempts per key in fixed windows inside one process. It is
// for cheap reads (public pages' GETs): a flood is cut off per instance
// without a database write per request. Limits that must hold across
// instances (logins, bookings) use Limiter.
//
// It keeps at most maxKeys keys: past that, a new key passes uncounted until
// finished windows are dropped. Requests from that many addresses in one
// window are not one visitor's flood, and counting each of them would let
// anyone with many addresses (IPv6) grow the process without bound.
type Memory struct {
	max     int
	window  time.Duration
	now     func() time.Time
	maxKeys int
	mu      sync.Mutex
	counts  map[string]*memWindow
	swept   time.Time
}

// MemoryKeys is how many keys a Memory keeps at most (about 100 bytes each).
const MemoryKeys = 50_000

type memWindow struct {
	start time.Time
	n     int
}

// NewMemory allows max attempts per key per window.
func NewMemory(max int, window time.Duration, now func() time.Time) *Memory {
	return &Memory{max: max, window: window, now: now, maxKeys: MemoryKeys, counts: map[string]*memWindow{}}
}

// Allow counts one attempt and reports whether it is within the limit, and
// otherwise how long until the window resets.
func (m *Memory) Allow(key string) (bool, time.Duration) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.swept) > m.window { // drop finished windows now and then
		m.sweep(now)
	}
	w := m.counts[key]
	if w == nil && len(m.counts) >= m.maxKeys {
		return true, 0 // full: uncounted until the next sweep
	}
	if w == nil || now.Sub(w.start) >= m.window {
		w = &memWindow{start: now}
		m.counts[key] = w
	}
	w.n++
	if w.n > m.max {
		return false, w.start.Add(m.window).Sub(now)
	}
	return true, 0
}

// Len is how many keys are counted now.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.counts)
}

// sweep drops the finished windows into a new map: a Go map keeps the room
// it grew to, so deleting in place would hold a flood's peak for good.
func (m *Memory) sweep(now time.Time) {
	kept := make(map[string]*memWindow, len(m.counts)/2)
	for k, w := range m.counts {
		if now.Sub(w.start) < m.window {
			kept[k] = w
		}
	}
	m.counts, m.swept = kept, now
}

// PublicReads limits GETs under /api/public/ per client IP.
func PublicReads(m *Memory, trustProxy bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/public/") {
				if ok, wait := m.Allow(httpx.ClientIP(r, trustProxy)); !ok {
					httpx.WriteError(w, r, TooMany(wait))
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}
