// Package hub fans a store's events out to its subscribers without ever
// letting a slow subscriber hold up the writer that published.
package hub

import (
	"context"
	"sync"

	"github.com/arbiter-games/arbiter/store"
)

// Buffer is how many events a subscriber may fall behind before it loses
// some. Events carry the game's version, so a subscriber that lost one
// notices at the next and reads the game again.
const Buffer = 1024

// Hub is a set of subscribers. The zero Hub is ready; it is safe for
// concurrent use.
type Hub struct {
	mu     sync.Mutex
	subs   map[chan store.Event]struct{}
	closed bool
}

// Subscribe adds a subscriber until ctx ends or the hub closes; then its
// channel closes. On a closed hub the channel is closed at once.
func (h *Hub) Subscribe(ctx context.Context) <-chan store.Event {
	ch := make(chan store.Event, Buffer)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		close(ch)
		return ch
	}
	if h.subs == nil {
		h.subs = map[chan store.Event]struct{}{}
	}
	h.subs[ch] = struct{}{}
	context.AfterFunc(ctx, func() { h.remove(ch) })
	return ch
}

func (h *Hub) remove(ch chan store.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[ch]; ok {
		delete(h.subs, ch)
		close(ch)
	}
}

// Publish gives e to every subscriber with room for it.
func (h *Hub) Publish(e store.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- e:
		default: // full: this subscriber loses e rather than stall the writer
		}
	}
}

// Close closes every subscriber's channel; later subscribers get a closed
// channel.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for ch := range h.subs {
		delete(h.subs, ch)
		close(ch)
	}
}
