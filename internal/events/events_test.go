package events

import (
	"context"
	"log/slog"
	"testing"
)

// TestSubscribe_AnEleventhStreamEndsTheOldest: one user keeps at most
// MaxStreams open streams; the next one closes the oldest, whose stop is then
// harmless, and events still reach every open one.
func TestSubscribe_AnEleventhStreamEndsTheOldest(t *testing.T) {
	b := NewBroker(slog.New(slog.DiscardHandler))
	var chans []<-chan Event
	var stops []func()
	for range MaxStreams + 1 {
		ch, stop := b.Subscribe("u1")
		chans, stops = append(chans, ch), append(stops, stop)
	}
	other, stopOther := b.Subscribe("u2")
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
