package community

import (
	"context"
	"sync"
)

// Listener receives a game's chat messages live, as its reader may read
// them: the rooms Rooms gives the reader, without the messages of
// accounts blocked either way.
type Listener struct {
	game, reader string
	out          chan Message
	mu           sync.Mutex
	rooms        map[string]bool
	hidden       map[string]bool
}

// listenBuffer is how many messages a listener may fall behind by before
// it misses some (its page reads the chat again when it reconnects).
const listenBuffer = 32

// Listen starts a listener of a game's chat for reader ("" for a
// visitor); Unlisten ends it.
func (s *Service) Listen(ctx context.Context, gameID, reader string) (*Listener, error) {
	st, err := s.seats(ctx, gameID)
	if err != nil {
		return nil, err
	}
	hidden, err := s.hidden(ctx, reader)
	if err != nil {
		return nil, err
	}
	l := &Listener{game: gameID, reader: reader, out: make(chan Message, listenBuffer), rooms: map[string]bool{}, hidden: hidden}
	for _, r := range s.readable(st, reader) {
		l.rooms[r] = true
	}
	if l.hidden == nil {
		l.hidden = map[string]bool{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listeners[gameID] == nil {
		s.listeners[gameID] = map[*Listener]struct{}{}
	}
	s.listeners[gameID][l] = struct{}{}
	return l, nil
}

// Unlisten ends l: it is sent nothing more.
func (s *Service) Unlisten(l *Listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.listeners[l.game], l)
	if len(s.listeners[l.game]) == 0 {
		delete(s.listeners, l.game)
	}
}

// Messages are the listener's messages.
func (l *Listener) Messages() <-chan Message { return l.out }

// wants tells whether the listener's reader reads msg.
func (l *Listener) wants(msg Message) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rooms[msg.Room] && !l.hidden[msg.Account]
}

// hide stops the messages of account reaching the listener.
func (l *Listener) hide(account string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hidden[account] = true
}

// publish gives msg to the game's listeners that read it; one too slow
// to take it misses it.
func (s *Service) publish(msg Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for l := range s.listeners[msg.Game] {
		if !l.wants(msg) {
			continue
		}
		select {
		case l.out <- msg:
		default:
		}
	}
}

// blockedLive makes a block take effect in the chats open now: neither
// account's listeners get the other's messages.
func (s *Service) blockedLive(a, b string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ls := range s.listeners {
		for l := range ls {
			switch l.reader {
			case a:
				l.hide(b)
			case b:
				l.hide(a)
			}
		}
	}
}
