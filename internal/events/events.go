// Package events tells an owner's open tabs that something changed. With
// SQLite (one process) the broker is in memory; with PostgreSQL every
// process LISTENs on one channel and publishes with pg_notify, so an event
// raised by one `agendei serve` reaches tabs connected to any other.
package events

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
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
	// Professional is the team member whose agenda an "agenda" event is
	// about, when one appointment's change caused it; "" when it may be
	// anyone's (a block, a client's contacts). A professional's own tab
	// hears the events of their agenda and the unattributed ones (issue 43 §0).
	Professional string `json:"professional,omitempty"`
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
	// ready is closed while events from every process arrive (at once in
	// memory; while LISTEN holds on PostgreSQL). A lost listener puts an open
	// one in its place (under mu) until it listens again.
	ready  chan struct{}
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

// Ready is closed while the broker receives events from every process: at
// once in memory; on PostgreSQL once LISTEN succeeds, and again after a lost
// listener connection listens anew. A stream says "ready" to its tab only
// then: an event published after it is heard.
func (b *Broker) Ready() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.remote == nil {
		select {
		case <-b.ready:
		default:
			close(b.ready)
		}
	}
	return b.ready
}

// listening marks the PostgreSQL listener up (LISTEN succeeded).
func (b *Broker) listening() {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-b.ready:
	default:
		close(b.ready)
	}
}

// deaf marks the PostgreSQL listener down and ends every stream of this
// process: what is published until LISTEN holds again reaches no one, so
// each tab reconnects (its "ready" waits for the listener) and reads again
// what may have changed, rather than stay open having missed it.
func (b *Broker) deaf() {
	b.mu.Lock()
	select {
	case <-b.ready:
		b.ready = make(chan struct{})
	default:
	}
	var all []*sub
	for _, list := range b.subs {
		for _, s := range list {
			s.ended = true
			all = append(all, s)
		}
	}
	clear(b.subs)
	b.mu.Unlock()
	for _, s := range all {
		s.end()
	}
}

// MaxStreams is how many open streams one account may have: the next one
// ends the oldest, so tabs left open (or a script reconnecting) cannot pile
// up connections without bound. The owner and each professional signed in
// as themself count apart: a professional's tabs never end the owner's.
const MaxStreams = 10

// sub is one open stream of a user.
type sub struct {
	account string // who signed in: the owner, or a professional of theirs
	deliver func(Event)
	end     func()
	ended   bool // end was called or is due (under b.mu)
}

// Listen adds an open stream of the user's events: deliver is handed each
// one, under the broker's lock — it must not block (a slow tab drops events
// rather than stall everyone: it refetches on the next one anyway). end is
// called once, outside the lock, when the broker ends the stream (it became
// the oldest of more than MaxStreams of its account, so the stream must
// end) or on stop. stop removes the stream. account is who signed in: the
// owner (userID) or a professional of theirs, each with MaxStreams.
func (b *Broker) Listen(userID, account string, deliver func(Event), end func()) (stop func()) {
	s := &sub{account: account, deliver: deliver, end: end}
	b.mu.Lock()
	list := append(b.subs[userID], s)
	var evicted []*sub
	for mine := b.count(list, account); mine > MaxStreams; mine-- {
		i := slices.IndexFunc(list, func(x *sub) bool { return x.account == account })
		list[i].ended = true
		evicted = append(evicted, list[i])
		list = slices.Delete(list, i, i+1)
	}
	b.subs[userID] = list
	b.mu.Unlock()
	for _, x := range evicted {
		x.end()
	}
	return func() {
		b.mu.Lock()
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
		ended := s.ended
		s.ended = true
		b.mu.Unlock()
		if !ended {
			s.end()
		}
	}
}

// count is how many of list are the account's streams.
func (b *Broker) count(list []*sub, account string) int {
	n := 0
	for _, x := range list {
		if x.account == account {
			n++
		}
	}
	return n
}

// Streams is how many streams the user (the owner with their team) has
// open in this process.
func (b *Broker) Streams(userID string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs[userID])
}

// deliver hands an event to this process's streams of its user.
func (b *Broker) deliver(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs[e.UserID] {
		s.deliver(e)
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
	b.mu.Lock()
	b.remote = func(ctx context.Context, e Event) error {
		body, _ := json.Marshal(e)
		return publish(ctx, string(body))
	}
	select {
	case <-b.ready: // an early Ready() took it for in-memory: not until LISTEN now
		b.ready = make(chan struct{})
	default:
	}
	b.mu.Unlock()
	go func() {
		delay := time.Second
		for ctx.Err() == nil {
			err := b.listen(ctx, databaseURL)
			if ctx.Err() != nil {
				return
			}
			b.deaf()
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
	b.listening()
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
