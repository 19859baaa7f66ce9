package httpx

import (
	"net/http"

	"golang.org/x/sync/semaphore"
)

// Queue lets at most n requests through at once; the rest wait their turn
// in the order they came. It goes in front of reads that each hold one
// database connection at a time, sized to the pool: database/sql hands a
// freed connection to a random waiter, so under load some requests would
// wait many turns while others wait none, and the slowest answers would be
// several times the typical one. A nil *Queue lets everything through.
type Queue struct {
	sem *semaphore.Weighted
}

// NewQueue is a queue letting n requests through at once.
func NewQueue(n int) *Queue {
	return &Queue{sem: semaphore.NewWeighted(int64(max(1, n)))}
}

// Wrap puts next behind the queue. A visitor who leaves while waiting is
// not served.
func (q *Queue) Wrap(next http.Handler) http.Handler {
	if q == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := q.sem.Acquire(r.Context(), 1); err != nil {
			return
		}
		defer q.sem.Release(1)
		next.ServeHTTP(w, r)
	})
}
