package hub

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/store"
)

func TestFanOutAndEnd(t *testing.T) {
	var h Hub
	ctx, cancel := context.WithCancel(context.Background())
	a := h.Subscribe(ctx)
	b := h.Subscribe(context.Background())
	e := store.Event{Game: "g", Version: 2}
	h.Publish(e)
	for name, ch := range map[string]<-chan store.Event{"a": a, "b": b} {
		if got := <-ch; got != e {
			t.Errorf("subscriber %s got %+v, want %+v", name, got, e)
		}
	}
	cancel()
	if _, ok := <-a; ok {
		t.Error("a's channel is still open after its context ended")
	}
	h.Close()
	if _, ok := <-b; ok {
		t.Error("b's channel is still open after Close")
	}
	if _, ok := <-h.Subscribe(context.Background()); ok {
		t.Error("Subscribe after Close gave an open channel")
	}
}

func TestSlowSubscriberLosesEventsWithoutBlocking(t *testing.T) {
	var h Hub
	ch := h.Subscribe(context.Background())
	for v := range int64(Buffer + 10) {
		h.Publish(store.Event{Game: "g", Version: v + 1}) // must not block
	}
	if len(ch) != Buffer {
		t.Fatalf("the channel holds %d events, want %d", len(ch), Buffer)
	}
	if first := <-ch; first.Version != 1 {
		t.Errorf("the first event kept is version %d, want 1 (the oldest)", first.Version)
	}
}
