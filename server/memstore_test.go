package server

import (
	"context"
	"slices"
	"sync"

	"github.com/arbiter-games/arbiter/store"
)

// memStore keeps games in memory with the store's conditional semantics:
// the server's tests run against it until the SQLite store lands.
type memStore struct {
	mu    sync.Mutex
	games map[string]store.Game
	subs  []chan store.Event
}

func newMemStore() *memStore { return &memStore{games: map[string]store.Game{}} }

func copyGame(g store.Game) store.Game {
	g.Seats = slices.Clone(g.Seats)
	g.Moves = slices.Clone(g.Moves)
	if g.Clock != nil {
		c := *g.Clock
		c.Left = slices.Clone(c.Left)
		g.Clock = &c
	}
	return g
}

func (m *memStore) Create(_ context.Context, h store.Header) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.games[h.ID]; ok {
		return store.ErrDuplicate
	}
	m.games[h.ID] = copyGame(store.Game{Header: h})
	m.notify(h.ID, h.Version)
	return nil
}

func (m *memStore) Get(_ context.Context, id string) (store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.games[id]
	if !ok {
		return store.Game{}, store.ErrNotFound
	}
	return copyGame(g), nil
}

func (m *memStore) AddMove(_ context.Context, mv store.Move, next store.Header) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.games[next.ID]
	if !ok {
		return store.ErrNotFound
	}
	if g.Ply != mv.Ply || len(g.Moves) != mv.Ply || g.Version != next.Version-1 || next.Ply != mv.Ply+1 {
		return store.ErrConflict
	}
	moves := append(slices.Clone(g.Moves), mv)
	m.games[next.ID] = copyGame(store.Game{Header: next, Moves: moves})
	m.notify(next.ID, next.Version)
	return nil
}

func (m *memStore) Update(_ context.Context, next store.Header) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.games[next.ID]
	if !ok {
		return store.ErrNotFound
	}
	if g.Version != next.Version-1 || g.Ply != next.Ply {
		return store.ErrConflict
	}
	m.games[next.ID] = copyGame(store.Game{Header: next, Moves: g.Moves})
	m.notify(next.ID, next.Version)
	return nil
}

func (m *memStore) List(_ context.Context, f store.Filter) ([]store.Header, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []store.Header
	for _, g := range m.games {
		open := slices.ContainsFunc(g.Seats, func(s store.Seat) bool { return s.Open })
		if f.Ongoing && g.Result != nil || f.OpenSeats && !open || len(f.IDs) > 0 && !slices.Contains(f.IDs, g.ID) {
			continue
		}
		out = append(out, copyGame(g).Header)
	}
	limit := f.Limit
	if limit == 0 {
		limit = 100
	}
	return out[:min(len(out), limit)], nil
}

func (m *memStore) Subscribe(ctx context.Context) (<-chan store.Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := make(chan store.Event, 1024)
	m.subs = append(m.subs, ch)
	go func() {
		<-ctx.Done()
		m.mu.Lock()
		defer m.mu.Unlock()
		m.subs = slices.DeleteFunc(m.subs, func(c chan store.Event) bool { return c == ch })
		close(ch)
	}()
	return ch, nil
}

// notify sends an event to every subscriber that has room; held m.mu.
func (m *memStore) notify(id string, version int64) {
	for _, ch := range m.subs {
		select {
		case ch <- store.Event{Game: id, Version: version}:
		default:
		}
	}
}

func (m *memStore) Check(context.Context) error { return nil }
func (m *memStore) Close() error                { return nil }
