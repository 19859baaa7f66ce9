package notifications_test

import (
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
	open := func() liveStream {
		s := openStream(t, e, c.Token)
		if got := s.next(5 * time.Second); got != "ready" {
			t.Fatalf("first event %q", got)
		}
		return s
	}
	var streams []liveStream
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
