package tournament

import (
	"context"
	"reflect"
	"sync"
	"time"
)

// The bounds of the watches (a tournament page's socket is one).
const (
	// WatchPoll is how often a watched tournament is read again: a
	// change made by another process sharing the store reaches its
	// watches within it. A change made through this service is read at
	// once.
	WatchPoll = time.Second
	// MaxWatches bounds the watches open on one service, every
	// tournament together: each socket holds one, and each watched
	// tournament costs a read of the store every WatchPoll.
	MaxWatches = 10000
	// watchRead bounds one read of a watched tournament.
	watchRead = 10 * time.Second
)

// watchers are the tournaments watched, one watcher each, shared by all
// their watches.
type watchers struct {
	mu sync.Mutex
	by map[string]*watcher
	// open counts the watches of every watcher.
	open int
}

// watcher reads one tournament every poll (and when kicked) and sends
// its view to each watch when it changed.
type watcher struct {
	id      string
	watches map[*Watch]struct{}
	kick    chan struct{}
	stop    context.CancelFunc
	done    chan struct{}
}

// Watch is one watch of a tournament's view, such as an open page's
// socket: Views gives each view that differs from the one before.
type Watch struct {
	w   *watcher
	out chan View
}

// Views sends the tournament's view each time it changes. A watch that
// reads too slowly misses the views in between: it is sent the newest.
func (w *Watch) Views() <-chan View { return w.out }

// Watch opens a watch of tournament id and gives its view now: NotFound
// for no such tournament, TooMany when MaxWatches are open.
func (s *Service) Watch(ctx context.Context, id string) (*Watch, View, error) {
	v, err := s.Get(ctx, id)
	if err != nil {
		return nil, View{}, err
	}
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	if s.watch.open >= s.maxWatches {
		return nil, View{}, refuse(TooMany, "the server watches %d tournaments' pages already; try again later", s.maxWatches)
	}
	w := s.watch.by[id]
	if w == nil {
		wctx, stop := context.WithCancel(context.Background())
		w = &watcher{id: id, watches: map[*Watch]struct{}{}, kick: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
		s.watch.by[id] = w
		go s.follow(wctx, w, v)
	}
	sub := &Watch{w: w, out: make(chan View, 1)}
	w.watches[sub] = struct{}{}
	s.watch.open++
	return sub, v, nil
}

// Unwatch ends watch w; a tournament's watcher stops with its last watch.
func (s *Service) Unwatch(w *Watch) {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	if _, ok := w.w.watches[w]; !ok {
		return
	}
	delete(w.w.watches, w)
	s.watch.open--
	if len(w.w.watches) == 0 {
		w.w.stop()
		delete(s.watch.by, w.w.id)
	}
}

// watching counts the tournaments watched (the tests').
func (s *Service) watching() int {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	return len(s.watch.by)
}

// changed has tournament id's watcher, if any, read it at once: this
// service just changed it.
func (s *Service) changed(id string) {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	if w := s.watch.by[id]; w != nil {
		select {
		case w.kick <- struct{}{}:
		default:
		}
	}
}

// follow reads w's tournament every poll and when kicked until ctx ends,
// sending each view that differs from last.
func (s *Service) follow(ctx context.Context, w *watcher, last View) {
	defer close(w.done)
	t := time.NewTicker(s.watchPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.kick:
		}
		rctx, cancel := context.WithTimeout(ctx, watchRead)
		v, err := s.Get(rctx, w.id)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("tournament watch", "tournament", w.id, "err", err)
			}
			continue
		}
		if reflect.DeepEqual(v, last) {
			continue
		}
		last = v
		s.send(w, v)
	}
}

// send gives v to every watch of w, in place of a view not yet read.
func (s *Service) send(w *watcher, v View) {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	for sub := range w.watches {
		select {
		case <-sub.out:
		default:
		}
		sub.out <- v // the one sender, under mu: the buffer has room
	}
}
