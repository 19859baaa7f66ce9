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
type Memory struct {
	max    int
	window time.Duration
	now    func() time.Time
	mu     sync.Mutex
	counts map[string]*memWindow
	swept  time.Time
}

type memWindow struct {
	start time.Time
	n     int
}

// NewMemory allows max attempts per key per window.
func NewMemory(max int, window time.Duration, now func() time.Time) *Memory {
	return &Memory{max: max, window: window, now: now, counts: map[string]*memWindow{}}
}

// Allow counts one attempt and reports whether it is within the limit, and
// otherwise how long until the window resets.
func (m *Memory) Allow(key string) (bool, time.Duration) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.swept) > m.window { // drop finished windows now and then
		for k, w := range m.counts {
			if now.Sub(w.start) >= m.window {
				delete(m.counts, k)
			}
		}
		m.swept = now
	}
	w := m.counts[key]
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
