package events

import (
	"context"
	"log/slog"
	"testing"
)

// subscribe listens to the user's events on a channel, closed when the
// stream ends (closing it twice would panic: end comes once).
func subscribe(b *Broker, userID string) (<-chan Event, func()) {
	return subscribeAs(b, userID, userID)
}

// subscribeAs is subscribe for a stream of one account of the user's: the
// owner's own, or a professional's.
func subscribeAs(b *Broker, userID, account string) (<-chan Event, func()) {
	ch := make(chan Event, 8)
	stop := b.Listen(userID, account, func(e Event) {
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

// TestListen_EachAccountKeepsItsOwnStreams: a professional's tabs count
// apart from the owner's, so eleven of theirs end their own oldest, never
// the owner's; every stream of the practice hears its events.
func TestListen_EachAccountKeepsItsOwnStreams(t *testing.T) {
	b := NewBroker(slog.New(slog.DiscardHandler))
	owner, stopOwner := subscribeAs(b, "u1", "u1")
	defer stopOwner()
	var pro []<-chan Event
	for range MaxStreams + 1 {
		ch, stop := subscribeAs(b, "u1", "pro1")
		defer stop()
		pro = append(pro, ch)
	}
	if n := b.Streams("u1"); n != MaxStreams+1 {
		t.Fatalf("%d streams open, want the owner's and %d of the professional's", n, MaxStreams)
	}
	if _, open := <-pro[0]; open {
		t.Fatal("the professional's oldest stream was not ended")
	}
	b.Publish(context.Background(), Event{UserID: "u1", Kind: "agenda"})
	for i, ch := range append([]<-chan Event{owner}, pro[1:]...) {
		select {
		case e, open := <-ch:
			if !open || e.Kind != "agenda" {
				t.Fatalf("stream %d: %v open=%v", i, e, open)
			}
		default:
			t.Fatalf("stream %d did not get the event", i)
		}
	}
}
