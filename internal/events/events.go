// Package events tells an owner's open tabs that something changed. With
// SQLite (one process) the broker is in memory; with PostgreSQL every
// process LISTENs on one channel and publishes with pg_notify, so an event
// raised by one `agendei serve` reaches tabs connected to any other.
package events

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Event is what a tab is told: which kind of data of the owner changed.
type Event struct {
	UserID string `json:"userId"`
	Kind   string `json:"kind"` // "notifications", or "agenda" (appointments, blocks, clients)
	// Origin is the sign-in (the access token's sid, one device) whose
	// request made the change; empty when a client, a job or the system did.
	// A stream tells its tab whether the change came from its own device.
	Origin string `json:"origin,omitempty"`
	// Note is the notification just written, for the tabs to show.
	Note *Note `json:"note,omitempty"`
}

// Note is what a tab shows of a new notification.
type Note struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Broker fans events out to subscribers.
type Broker struct {
	mu   sync.Mutex
	subs map[string][]*sub // per user, oldest first
	// remote, when set, publishes through PostgreSQL instead of locally.
	remote func(ctx context.Context, e Event) error
	log    *slog.Logger
	ready  chan struct{} // closed once events from other processes can arrive
	once   sync.Once
	done   chan struct{} // closed on shutdown: streams end
	closer sync.Once
}

// Close ends every subscriber's stream (graceful shutdown must not wait on
// tabs that would stay connected forever).
func (b *Broker) Close() { b.closer.Do(func() { close(b.done) }) }

// Done is closed when the broker is shut down.
func (b *Broker) Done() <-chan struct{} { return b.done }

// NewBroker returns an in-memory broker.
func NewBroker(log *slog.Logger) *Broker {
	b := &Broker{subs: map[string][]*sub{}, log: log, ready: make(chan struct{}), done: make(chan struct{})}
	return b
}

// Ready is closed once the broker receives events from every process (at
// once in memory; after LISTEN succeeds on PostgreSQL).
func (b *Broker) Ready() <-chan struct{} {
	if b.remote == nil {
		b.once.Do(func() { close(b.ready) })
	}
	return b.ready
}

// MaxStreams is how many open streams one user may have: the next one
// ends the oldest, so tabs left open (or a script reconnecting) cannot pile
// up goroutines and connections without bound.
const MaxStreams = 10

type sub struct {
	ch     chan Event
	closed bool
}

// Subscribe returns a channel of the user's events and a function to stop.
// The channel is closed when the subscription is ended for the user (it
// became the oldest of more than MaxStreams): the stream must then end.
func (b *Broker) Subscribe(userID string) (<-chan Event, func()) {
	// Room for a burst (a booking is two events; a busy minute, dozens) while
	// the stream's goroutine waits for a CPU: 64 events are ~4 KB a stream.
	s := &sub{ch: make(chan Event, 64)}
	b.mu.Lock()
	list := append(b.subs[userID], s)
	for len(list) > MaxStreams {
		list[0].close()
		list = list[1:]
	}
	b.subs[userID] = list
	b.mu.Unlock()
	return s.ch, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		list := b.subs[userID]
		for i, x := range list {
			if x == s {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(b.subs, userID)
		} else {
			b.subs[userID] = list
		}
		s.close()
	}
}

// close ends one subscription (under b.mu).
func (s *sub) close() {
	if !s.closed {
		s.closed = true
		close(s.ch)
	}
}

// Streams is how many subscriptions the user has open in this process.
func (b *Broker) Streams(userID string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs[userID])
}

// deliver hands an event to this process's subscribers; a slow tab drops
// events rather than stall everyone (it refetches on the next one anyway).
func (b *Broker) deliver(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs[e.UserID] {
		select {
		case s.ch <- e:
		default:
		}
	}
}

// Publish announces an event to every process's subscribers.
func (b *Broker) Publish(ctx context.Context, e Event) {
	if b.remote == nil {
		b.deliver(e)
		return
	}
	if err := b.remote(ctx, e); err != nil {
		b.log.Warn("publish event", "err", err)
		b.deliver(e) // at least this process's tabs hear it
	}
}

const channel = "agendei_events"

// UsePostgres makes the broker publish with pg_notify and run a listener
// (reconnecting with back-off) until ctx ends.
func (b *Broker) UsePostgres(ctx context.Context, databaseURL string, publish func(ctx context.Context, payload string) error) {
	b.remote = func(ctx context.Context, e Event) error {
		body, _ := json.Marshal(e)
		return publish(ctx, string(body))
	}
	go func() {
		delay := time.Second
		for ctx.Err() == nil {
			err := b.listen(ctx, databaseURL)
			if ctx.Err() != nil {
				return
			}
			b.log.Warn("event listener lost its connection; reconnecting", "err", err, "in", delay)
			select {
			case <-ctx.Done():
				return
			case <-time.After(delay):
			}
			delay = min(delay*2, 30*time.Second)
		}
	}()
}

func (b *Broker) listen(ctx context.Context, databaseURL string) error {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	b.once.Do(func() { close(b.ready) })
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		var e Event
		if json.Unmarshal([]byte(n.Payload), &e) == nil && e.UserID != "" {
			b.deliver(e)
		}
	}
}

// Channel is the PostgreSQL channel events travel on.
const Channel = channel
