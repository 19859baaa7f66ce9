package events

import (
	"context"
	"log/slog"
	"testing"
)

// subscribe listens to the user's events on a channel, closed when the
// stream ends (closing it twice would panic: end comes once).
func subscribe(b *Broker, userID string) (<-chan Event, func()) {
	ch := make(chan Event, 8)
	stop := b.Listen(userID, func(e Event) {
		select {
		case ch <- e:
		default:
		}
	}, func() { close(ch) })
	return ch, stop
}

// TestListen_AnEleventhStreamEndsTheOldest: one user keeps at most
// MaxStreams open streams; the next one ends the oldest, whose stop is then
// harmless, and events still reach every open one.
func TestListen_AnEleventhStreamEndsTheOldest(t *testing.T) {
	b := NewBroker(slog.New(slog.DiscardHandler))
	var chans []<-chan Event
	var stops []func()
	for range MaxStreams + 1 {
		ch, stop := subscribe(b, "u1")
		chans, stops = append(chans, ch), append(stops, stop)
	}
	other, stopOther := subscribe(b, "u2")
	defer stopOther()
	if n := b.Streams("u1"); n != MaxStreams {
		t.Fatalf("%d streams open, want %d", n, MaxStreams)
	}
	if _, open := <-chans[0]; open {
		t.Fatal("the oldest stream was not ended")
	}
	stops[0]() // the handler's deferred stop must not end a newer stream
	if n := b.Streams("u1"); n != MaxStreams {
		t.Fatalf("after the ended stream's stop: %d streams, want %d", n, MaxStreams)
	}
	b.Publish(context.Background(), Event{UserID: "u1", Kind: "notifications"})
	for i, ch := range chans[1:] {
		select {
		case e, open := <-ch:
			if !open || e.Kind != "notifications" {
				t.Fatalf("stream %d: %v open=%v", i+1, e, open)
			}
		default:
			t.Fatalf("stream %d did not get the event", i+1)
		}
	}
	select {
	case e := <-other:
		t.Fatalf("another user's stream got %v", e)
	default:
	}
	for _, stop := range stops[1:] {
		stop()
	}
	if n := b.Streams("u1"); n != 0 {
		t.Fatalf("%d streams left after every stop", n)
	}
}
