package hall

import (
	"context"
	"sync"

	"github.com/arbiter-games/arbiter/game"
)

// Event is what the watchers of a game receive after each change: the
// game as it is now, its position, and the effects of the move that made
// the change, if one did. One event is made per change and shared by
// every watcher, so none may change it: a transport may encode it once
// for all of them, the event being the key of its encoding.
type Event struct {
	Game    View
	Effects *game.Effects
	// State is the position after the change, the event's own copy: what
	// a watcher draws without asking for it.
	State game.State

	encodeOnce sync.Once
	encoded    []byte
}

// Encoded is encode(ev), made by the first watcher to ask and shared by
// every other: a transport encodes each event once however many sockets
// watch its game, and the bytes go with the event once all have sent it.
func (ev *Event) Encoded(encode func(*Event) []byte) []byte {
	ev.encodeOnce.Do(func() { ev.encoded = encode(ev) })
	return ev.encoded
}

// watchBuffer is how many events a watcher may fall behind before the
// hall ends its watch; the transport then tells its client to read the
// game again.
const watchBuffer = 64

// Watch is one watcher of a game: its events come in version order on
// Events, which closes when the watcher fell too far behind (Lagged), the
// hall closes, or Stop was called.
type Watch struct {
	id     string
	events chan *Event
	lagged bool
	once   sync.Once
}

// Events are the game's changes.
func (w *Watch) Events() <-chan *Event { return w.events }

// Lagged reports whether the watch ended because the watcher fell behind;
// read it after Events closed.
func (w *Watch) Lagged() bool { return w.lagged }

func (w *Watch) end() { w.once.Do(func() { close(w.events) }) }

// Watch starts watching game id: it returns the game as it is now and the
// watch that brings every later change, with nothing missed between them.
// Stop must be called when the watcher leaves.
func (h *Hall) Watch(ctx context.Context, id string) (*Watch, View, error) {
	if err := h.refuseWhileClosing(); err != nil {
		return nil, View{}, err
	}
	e := h.lock(id)
	defer e.mu.Unlock()
	if err := h.refresh(ctx, e); err != nil {
		return nil, View{}, err
	}
	w := &Watch{id: id, events: make(chan *Event, watchBuffer)}
	if e.watches == nil {
		e.watches = map[*Watch]struct{}{}
	}
	e.watches[w] = struct{}{}
	h.watching.Add(1)
	return w, h.view(e), nil
}

// Stop ends the watch w.
func (h *Hall) Stop(w *Watch) {
	e := h.lock(w.id)
	defer e.mu.Unlock()
	h.unwatch(e, w)
}

// unwatch removes w from the game's watchers. e.mu is held.
func (h *Hall) unwatch(e *entry, w *Watch) {
	if _, ok := e.watches[w]; ok {
		delete(e.watches, w)
		h.watching.Add(-1)
	}
	w.end()
}

// broadcast sends the game to its watchers, never waiting: a watcher
// whose buffer is full is dropped (Lagged). e.mu is held, so events go
// out in version order.
func (h *Hall) broadcast(e *entry, effects *game.Effects) {
	if len(e.watches) == 0 {
		return
	}
	ev := &Event{Game: h.view(e), Effects: effects, State: e.pg.State()}
	if e.answering {
		e.published = &ev.Game
	}
	for w := range e.watches {
		select {
		case w.events <- ev:
		default:
			w.lagged = true
			h.unwatch(e, w)
		}
	}
}

// endWatches ends every watch: the hall is closing.
func (h *Hall) endWatches() {
	for _, e := range h.held() {
		e.mu.Lock()
		for w := range e.watches {
			h.unwatch(e, w)
		}
		e.mu.Unlock()
	}
}

// watchers counts the watches open.
func (h *Hall) watchers() int { return int(h.watching.Load()) }
