package notifications_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/events"
	"github.com/agendei/agendei/internal/platform/config"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/platform/dbtest"
	"github.com/agendei/agendei/internal/server/servertest"
)

// liveStream is an owner's open GET /api/events: the names of the events it
// reads, and ended once its response ends.
type liveStream struct {
	events <-chan string
	ended  <-chan struct{}
}

func openStream(t *testing.T, e *servertest.Env, token string) liveStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", e.HTTP.URL+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", err, res)
	}
	out, ended := make(chan string, 16), make(chan struct{})
	go func() {
		defer close(ended)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				out <- name
			}
		}
	}()
	return liveStream{out, ended}
}

// next is the stream's next event, "" if it ended first or none came in time.
func (s liveStream) next(wait time.Duration) string {
	select {
	case name := <-s.events:
		return name
	case <-s.ended:
		select {
		case name := <-s.events:
			return name
		default:
			return ""
		}
	case <-time.After(wait):
		return ""
	}
}

func ownerID(t *testing.T, c *servertest.Client) string {
	var me struct{ ID string }
	c.Do("GET", "/api/me", nil).JSON(t, &me)
	if me.ID == "" {
		t.Fatal("no user id from /api/me")
	}
	return me.ID
}

// TestEvents_AnEventPublishedRightAfterReadyIsHeard: "ready" promises the tab
// every event published after it — the stream is the broker's listener
// before it says so, and on PostgreSQL the event goes out by pg_notify and
// comes back through the process's LISTEN. An event published the moment
// "ready" is read, and a client's booking made then, both arrive.
func TestEvents_AnEventPublishedRightAfterReadyIsHeard(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c, book := openShop(t, e)
		owner := ownerID(t, c)
		for i := range 5 {
			s := openStream(t, e, c.Token)
			if got := s.next(5 * time.Second); got != "ready" {
				t.Fatalf("round %d: first event %q", i, got)
			}
			e.Server.Events.Publish(context.Background(), events.Event{UserID: owner, Kind: "agenda"})
			if got := s.next(5 * time.Second); got != "agenda" {
				t.Fatalf("round %d: the event published right after ready: got %q", i, got)
			}
		}
		s := openStream(t, e, c.Token)
		if got := s.next(5 * time.Second); got != "ready" {
			t.Fatalf("first event %q", got)
		}
		book(e, "09:00") // a client's booking: its notification, then the agenda
		for _, want := range []string{"notifications", "agenda"} {
			if got := s.next(5 * time.Second); got != want {
				t.Fatalf("after a booking: got %q, want %q", got, want)
			}
		}
	})
}

// TestEvents_ALostListenerEndsStreamsAndReadyWaitsForItsReturn (PostgreSQL):
// while the process's LISTEN connection is gone, what is published reaches no
// stream. The streams it held end (their tabs reconnect and read again), and
// a stream opened meanwhile says "ready" only once LISTEN holds again, so an
// event published right after it is heard.
func TestEvents_ALostListenerEndsStreamsAndReadyWaitsForItsReturn(t *testing.T) {
	for _, dialect := range dbtest.Dialects(t) {
		if dialect != db.Postgres {
			continue // one process in memory: nothing to lose
		}
		// The listener's connection is named, so that only this server's is ended (other tests share the cluster).
		name := fmt.Sprintf("listener_%d", time.Now().UnixNano())
		e := servertest.StartWith(t, dialect, func(cfg *config.Config) { cfg.DatabaseURL += "&application_name=" + name })
		c, book := openShop(t, e)
		owner := ownerID(t, c)
		before := openStream(t, e, c.Token)
		if got := before.next(5 * time.Second); got != "ready" {
			t.Fatalf("first event %q", got)
		}
		var n int
		if err := e.DB.QueryRowContext(context.Background(),
			`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ? AND query = 'LISTEN `+events.Channel+`'`, name).Scan(&n); err != nil || n != 1 {
			t.Fatalf("end the listener's connection: %d %v", n, err)
		}
		select {
		case <-before.ended:
		case <-time.After(10 * time.Second):
			t.Fatal("a stream stayed open after its process stopped hearing events")
		}
		book(e, "09:00") // published while nobody listens: lost, and the tabs know to read again

		after := openStream(t, e, c.Token)
		if got := after.next(10 * time.Second); got != "ready" {
			t.Fatalf("first event after the listener came back: %q", got)
		}
		e.Server.Events.Publish(context.Background(), events.Event{UserID: owner, Kind: "agenda"})
		if got := after.next(5 * time.Second); got != "agenda" {
			t.Fatalf("the event published right after ready: got %q", got)
		}
	}
}
