package notifications_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/events"
	"github.com/agendei/agendei/internal/platform/db"
	"github.com/agendei/agendei/internal/server/servertest"
)

// TestEvents_AnEleventhStreamEndsTheOldest: one owner keeps at most ten open
// streams; opening another ends the oldest response, and the rest still hear
// events.
func TestEvents_AnEleventhStreamEndsTheOldest(t *testing.T) {
	e := servertest.Start(t, db.SQLite)
	c := e.Client()
	c.Signup("Ana", "ana@example.com", "segredo1", "gato")
	type stream struct {
		events <-chan string
		ended  <-chan struct{}
	}
	open := func() stream {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		req, _ := http.NewRequestWithContext(ctx, "GET", e.HTTP.URL+"/api/events", nil)
		req.Header.Set("Authorization", "Bearer "+c.Token)
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
		if got := <-out; got != "ready" {
			t.Fatalf("first event %q", got)
		}
		return stream{out, ended}
	}
	var streams []stream
	for range events.MaxStreams + 1 {
		streams = append(streams, open())
	}
	select {
	case <-streams[0].ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the oldest stream is still open after an eleventh")
	}
	time.Sleep(100 * time.Millisecond)
	for i, s := range streams[1:] {
		select {
		case <-s.ended:
			t.Fatalf("stream %d ended too", i+1)
		default:
		}
	}
}
