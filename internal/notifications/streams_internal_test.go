package notifications

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/events"
)

// hubServer serves the hub's streams for user u1 whose session stands while
// live holds.
func hubServer(t *testing.T, b *events.Broker, live *atomic.Bool) *httptest.Server {
	h := newHub(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.serve(w, r.WithContext(auth.WithUserID(r.Context(), "u1")), func(context.Context) bool { return live.Load() })
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(b.Close)
	return srv
}

// dial opens a stream with a raw connection (whose reading the test decides).
func dial(t *testing.T, srv *httptest.Server) net.Conn {
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.Write([]byte("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	return conn
}

// lines reads a connection's lines until it ends.
func lines(conn net.Conn) <-chan string {
	out := make(chan string, 1024)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(conn)
		for sc.Scan() {
			out <- sc.Text()
		}
	}()
	return out
}

func want(t *testing.T, ch <-chan string, prefix string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case l, open := <-ch:
			if !open {
				t.Fatalf("the stream ended before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return
			}
		case <-deadline:
			t.Fatalf("no %q", prefix)
		}
	}
}

func ends(t *testing.T, ch <-chan string, why string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case _, open := <-ch:
			if !open {
				return
			}
		case <-deadline:
			t.Fatalf("the stream is still open after %s", why)
		}
	}
}

// A handed-over stream answers its head and "ready", gets its owner's
// events and heartbeats, and ends when its session is revoked.
func TestHub_StreamHearsEventsAndHeartbeatsAndEndsOnRevoke(t *testing.T) {
	beat := Heartbeat
	Heartbeat = 50 * time.Millisecond
	defer func() { Heartbeat = beat }()
	b := events.NewBroker(slog.New(slog.DiscardHandler))
	var live atomic.Bool
	live.Store(true)
	srv := hubServer(t, b, &live)
	got := lines(dial(t, srv))
	want(t, got, "HTTP/1.1 200 OK")
	want(t, got, "Content-Type: text/event-stream")
	want(t, got, "event: ready")
	for b.Streams("u1") != 1 {
		time.Sleep(time.Millisecond)
	}
	b.Publish(context.Background(), events.Event{UserID: "u2", Kind: "agenda"})
	b.Publish(context.Background(), events.Event{UserID: "u1", Kind: "notifications", Note: &events.Note{ID: "n1", Title: "Novo agendamento"}})
	want(t, got, "event: notifications") // u2's event was not ours: this comes first
	want(t, got, `data: {"self":false,"note":{"id":"n1","title":"Novo agendamento","description":""}}`)
	want(t, got, ": heartbeat")
	live.Store(false)
	ends(t, got, "its session was revoked")
	if n := b.Streams("u1"); n != 0 {
		t.Fatalf("%d streams left", n)
	}
}

// A tab that reads nothing is ended once too far behind, while the owner's
// other tab keeps hearing every event; shutting down ends the rest.
func TestHub_ATabThatReadsNothingEndsAndHoldsNoOneUp(t *testing.T) {
	b := events.NewBroker(slog.New(slog.DiscardHandler))
	var live atomic.Bool
	live.Store(true)
	srv := hubServer(t, b, &live)
	stuck := dial(t, srv)
	if tc, ok := stuck.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096)
	}
	reader := lines(dial(t, srv))
	want(t, reader, "event: ready")
	for b.Streams("u1") != 2 {
		time.Sleep(time.Millisecond)
	}
	note := &events.Note{ID: "n", Title: "Novo agendamento", Description: strings.Repeat("x", 250)}
	deadline := time.Now().Add(20 * time.Second)
	sent := 0
	for b.Streams("u1") == 2 {
		if time.Now().After(deadline) {
			t.Fatalf("a tab that reads nothing still holds its stream after %d events", sent)
		}
		b.Publish(context.Background(), events.Event{UserID: "u1", Kind: "notifications", Note: note})
		sent++
		want(t, reader, "event: notifications") // the reading tab is never held up
	}
	b.Close()
	ends(t, reader, "shutdown")
}

// A stream ended before its first answer — here evicted by an eleventh tab
// of the owner's while every one waits for a listener that never comes —
// is answered all the same: a 503 in the house error shape with when to
// retry, then the connection ends (issue 38, §3: 1 of 100 streams opened at
// once got no HTTP answer at all).
func TestHub_AStreamEndedBeforeItsHeadIsAnswered503(t *testing.T) {
	old := readyWait.Load()
	readyWait.Store(int64(time.Minute)) // the listener's wait is not what ends it
	t.Cleanup(func() { readyWait.Store(old) })
	b := events.NewBroker(slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	// A listener whose database takes the connection and never answers:
	// Ready stays open, so every stream waits before its head (a refused
	// connection would end them all as the listener is lost, not evict one).
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	b.UsePostgres(ctx, "postgres://nobody@"+silent.Addr().String()+"/none?sslmode=disable&connect_timeout=60", func(context.Context, string) error { return nil })
	var live atomic.Bool
	live.Store(true)
	srv := hubServer(t, b, &live)
	first := dial(t, srv)
	// The first must be listening before the others, to be the oldest.
	deadline := time.Now().Add(5 * time.Second)
	for b.Streams("u1") != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the first stream never listened")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for range events.MaxStreams {
		dial(t, srv)
	}
	_ = first.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(first)
	if err != nil {
		t.Fatalf("read: %v (%q)", err, got)
	}
	answer := string(got)
	if !strings.HasPrefix(answer, "HTTP/1.1 503 ") || !strings.Contains(answer, "Retry-After: 1\r\n") ||
		!strings.HasSuffix(answer, `{"error":{"code":"unavailable","message":"Atualizações ao vivo indisponíveis no momento. Tentando de novo."}}`) {
		t.Fatalf("the evicted stream's answer: %q", answer)
	}
	if n := len(answer) - strings.Index(answer, "\r\n\r\n") - 4; !strings.Contains(answer, "Content-Length: "+strconv.Itoa(n)+"\r\n") {
		t.Fatalf("Content-Length is not the body's %d bytes: %q", n, answer)
	}
}
