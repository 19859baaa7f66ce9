// Package clock lets code ask for "now" through an injectable value, so tests can
// put the whole server at any instant (trial endings, token expiry, today's slots).
package clock

import (
	"sync"
	"time"
)

// Clock tells the current instant.
type Clock interface {
	Now() time.Time
}

// Real is the system clock, in UTC and truncated to microseconds so that what
// we store in either database compares equal to what we read back.
type Real struct{}

// Now returns the current UTC instant.
func (Real) Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Manual is a clock that tests move by hand.
type Manual struct {
	mu  sync.Mutex
	now time.Time
}

// NewManual returns a Manual clock set to t.
func NewManual(t time.Time) *Manual { return &Manual{now: t.UTC().Truncate(time.Microsecond)} }

// Now returns the clock's current instant.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Set moves the clock to t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	m.now = t.UTC().Truncate(time.Microsecond)
	m.mu.Unlock()
}

// Advance moves the clock forward by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	m.now = m.now.Add(d)
	m.mu.Unlock()
}
