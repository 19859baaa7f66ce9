package notifications

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/events"
	"github.com/agendei/agendei/internal/platform/httpx"
)

// An owner's open tab holds an event stream (GET /api/events, Server-Sent
// Events) for as long as it is open: thousands at once on one instance. A
// request's goroutine with net/http's buffers, its context and timers cost
// ~40 kB a stream, so the handler does not keep them: it answers the head
// and the "ready" event itself on the hijacked connection and hands the
// connection to the hub, where a stream is the connection, what is waiting
// to be written to it and how to check its session. A few writers send
// what waits; one goroutine sends heartbeats and checks every stream's
// session as often as RequireUser would (auth.SessionCheckTTL), ending
// those revoked. A stream whose tab is gone is found at its next write (a
// heartbeat at the latest).

// Heartbeat keeps idle streams (and proxies) alive (SPEC §9: 30 s).
var Heartbeat = 30 * time.Second

const (
	streamWriters   = 8               // goroutines writing streams' pending bytes
	writeTimeout    = 5 * time.Second // a tab that takes no bytes for this long is ended
	maxPending      = 16 << 10        // bytes waiting for one stream; past them it is ended
	sessionCheckers = 8               // session checks under way at once
)

// readyWait is how long a new stream waits for the broker to hear every
// process (PostgreSQL's LISTEN) before it answers 503 and the tab retries.
// Atomic: a test lengthens it while streams of an earlier test may still be
// reading it.
var readyWait atomic.Int64

func init() { readyWait.Store(int64(5 * time.Second)) }

// stream is one hijacked event stream.
type stream struct {
	conn   net.Conn
	device string // the sign-in whose tab it is (events it caused are "self")
	// professional, on a professional's own sign-in (issue 43 §0), is whose
	// agenda the tab shows: it hears that agenda's changes, nothing else
	// of the practice's (no notification, no note of a colleague's client).
	professional string
	live         func(context.Context) bool // the session still stands
	hub          *hub

	mu      sync.Mutex
	stop    func() // leave the broker
	pending []byte
	queued  bool // in the hub's ready list, or being written
	started bool // the head is written: pending may go
	closed  atomic.Bool
	// head says who answers the request: serve its 200 (headOK), or close
	// a 503 when the stream ends before that — evicted by a newer tab of
	// the owner's, the listener not ready, a shutdown — so that no request
	// is left without an HTTP answer.
	head atomic.Int32
}

const (
	headNone int32 = iota
	headOK
	headRefused
)

// refused is the answer of a stream that ended before its head: the house
// error, and when to try again (the tab's EventSource reconnects).
var refused = func() []byte {
	body := `{"error":{"code":"unavailable","message":"Atualizações ao vivo indisponíveis no momento. Tentando de novo."}}`
	return []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n" +
		"Retry-After: 1\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n" + body)
}()

// hub holds this process's streams.
type hub struct {
	broker    *events.Broker
	heartbeat time.Duration // Heartbeat when the hub was made
	start     sync.Once

	mu      sync.Mutex
	wake    *sync.Cond
	ready   []*stream // streams with pending bytes, in arrival order
	streams map[*stream]struct{}
}

func newHub(b *events.Broker) *hub {
	h := &hub{broker: b, heartbeat: Heartbeat, streams: map[*stream]struct{}{}}
	h.wake = sync.NewCond(&h.mu)
	return h
}

// serve hands a request's connection to the hub as the owner's stream.
func (h *hub) serve(w http.ResponseWriter, r *http.Request, check func(context.Context) bool) {
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	hd.Set("Connection", "close") // the body ends when the stream does
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil { // not HTTP/1.1: agendei serves nothing else
		httpx.WriteError(w, r, httpx.ErrUnavailable)
		return
	}
	h.start.Do(func() {
		for range streamWriters {
			go h.write()
		}
		go h.tend()
	})
	s := &stream{conn: conn, device: auth.SessionID(r.Context()), professional: auth.Professional(r.Context()), live: check, hub: h}
	h.mu.Lock()
	h.streams[s] = struct{}{}
	h.mu.Unlock()
	stop := h.broker.Listen(auth.UserID(r.Context()), auth.Account(r.Context()), s.deliver, s.close)
	s.mu.Lock()
	s.stop = stop
	s.mu.Unlock()
	if s.closed.Load() { // ended (a newer tab of the owner's) before it had its stop
		stop()
		return
	}
	// "ready" promises the tab every event published after it: the stream
	// listens already, and on PostgreSQL the process must hear NOTIFY too (at
	// start, or after its listener lost the connection: deaf ends the streams
	// it holds then, so they come back here).
	wait := time.NewTimer(time.Duration(readyWait.Load()))
	defer wait.Stop()
	select {
	case <-h.broker.Ready():
	case <-h.broker.Done(): // shutting down: tend may have closed the rest already
		s.close()
		return
	case <-wait.C: // no listener yet: the tab tries again (close answers 503)
		s.close()
		return
	}
	if !s.head.CompareAndSwap(headNone, headOK) { // ended meanwhile (a lost listener, a newer tab): answered 503
		return
	}
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\n")
	_ = hd.Write(&head)
	head.WriteString("\r\nretry: 1000\nevent: ready\ndata: {}\n\n")
	_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := conn.Write(head.Bytes()); err != nil {
		s.close()
		return
	}
	// Events that came while the head was written go now.
	s.mu.Lock()
	s.started = true
	waiting := len(s.pending) > 0 && !s.queued
	s.queued = s.queued || waiting
	s.mu.Unlock()
	if waiting {
		h.enqueue(s)
	}
}

// eventData is an event's data line for one stream.
type eventData struct {
	Self bool         `json:"self"`
	Note *events.Note `json:"note,omitempty"`
}

// deliver queues an event for the stream (under the broker's lock: it
// never blocks). Its data says whether this stream's own device made the
// change ("self") and, for a new notification, what it says ("note").
func (s *stream) deliver(e events.Event) {
	if s.professional != "" {
		if e.Kind != "agenda" || e.Professional != "" && e.Professional != s.professional {
			return
		}
		e.Note = nil
	}
	data, _ := json.Marshal(eventData{Self: e.Origin != "" && e.Origin == s.device, Note: e.Note})
	s.push("event: " + e.Kind + "\ndata: " + string(data) + "\n\n")
}

// push adds bytes for the stream to write; a stream too far behind ends.
func (s *stream) push(b string) {
	if s.closed.Load() {
		return
	}
	s.mu.Lock()
	if len(s.pending)+len(b) > maxPending {
		s.mu.Unlock()
		go s.close() // not under the broker's lock
		return
	}
	s.pending = append(s.pending, b...)
	wake := s.started && !s.queued
	s.queued = s.queued || wake
	s.mu.Unlock()
	if wake {
		s.hub.enqueue(s)
	}
}

// close ends the stream: its connection, its place in the hub and the
// broker. Once; safe from anywhere but under the broker's lock.
func (s *stream) close() {
	if !s.closed.CompareAndSwap(false, true) {
		return
	}
	s.hub.mu.Lock()
	delete(s.hub.streams, s)
	s.hub.mu.Unlock()
	s.mu.Lock()
	stop := s.stop
	s.mu.Unlock()
	if stop != nil { // else serve calls it once it has it
		stop()
	}
	// Ended before its head: it is answered all the same.
	if s.head.CompareAndSwap(headNone, headRefused) {
		_ = s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		_, _ = s.conn.Write(refused)
	}
	// Last, so that a tab that sees its stream end finds it gone from the
	// broker too (a stream counted after its connection closed was a
	// flaky CI run).
	s.conn.Close()
}

func (h *hub) enqueue(s *stream) {
	h.mu.Lock()
	h.ready = append(h.ready, s)
	h.mu.Unlock()
	h.wake.Signal()
}

// write sends streams' pending bytes, one stream at a time.
func (h *hub) write() {
	for {
		h.mu.Lock()
		for len(h.ready) == 0 {
			h.wake.Wait()
		}
		s := h.ready[0]
		h.ready[0] = nil
		h.ready = h.ready[1:]
		h.mu.Unlock()
		// The stream stays queued while this writer has it, so that no
		// other writes it at once (out of order, or stuck on the same tab).
		s.mu.Lock()
		b := s.pending
		s.pending = nil
		s.mu.Unlock()
		if len(b) > 0 && !s.closed.Load() {
			_ = s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
			if _, err := s.conn.Write(b); err != nil {
				s.close()
			}
		}
		s.mu.Lock()
		more := len(s.pending) > 0 && !s.closed.Load()
		s.queued = more
		s.mu.Unlock()
		if more { // what came meanwhile goes after the others waiting
			h.enqueue(s)
		}
	}
}

// tend sends heartbeats, ends the streams of revoked sessions, and ends
// every stream when the broker shuts down.
func (h *hub) tend() {
	check := time.NewTicker(auth.SessionCheckTTL)
	defer check.Stop()
	beat := time.NewTicker(h.heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-h.broker.Done():
			for _, s := range h.all() {
				s.close()
			}
			return
		case <-beat.C:
			for _, s := range h.all() {
				s.push(": heartbeat\n\n")
			}
		case <-check.C:
			h.checkSessions()
		}
	}
}

// checkSessions ends the streams whose session was revoked, a few checks
// at a time (most are answered from the session cache).
func (h *hub) checkSessions() {
	all := h.all()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(sessionCheckers, len(all)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for i := int(next.Add(1) - 1); i < len(all); i = int(next.Add(1) - 1) {
				if s := all[i]; !s.closed.Load() && !s.live(ctx) {
					s.close()
				}
			}
		}()
	}
	wg.Wait()
}

func (h *hub) all() []*stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*stream, 0, len(h.streams))
	for s := range h.streams {
		out = append(out, s)
	}
	return out
}
