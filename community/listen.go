package community

import (
	"context"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// Listener receives a game's chat messages live, as its reader may read
// them: the rooms Rooms gives the reader, without the messages of
// accounts blocked either way.
type Listener struct {
	game, reader string
	out          chan Message
	// player says that the reader holds a seat: the spectators' room
	// opens to them once the game ends.
	player bool
	mu     sync.Mutex
	rooms  map[string]bool
	hidden map[string]bool
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
	l.player = reader != "" && st.accounts[reader]
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

// setHidden replaces the accounts whose messages the listener skips.
func (l *Listener) setHidden(hidden map[string]bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hidden = hidden
}

// opens tells whether a spectators' message should open that room to a
// player's listener: the game ended since it started listening.
func (l *Listener) opens(msg Message) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.player && msg.Room == store.RoomSpectators && !l.rooms[msg.Room]
}

func (l *Listener) open(room string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rooms[room] = true
}

// publish gives msg to the game's listeners that read it; one too slow
// to take it misses it.
func (s *Service) publish(msg Message) {
	s.openEnded(msg)
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

// openEnded opens the spectators' room to the players' listeners of a
// game that ended since they started listening, before msg, a message of
// that room, is given out.
func (s *Service) openEnded(msg Message) {
	s.mu.Lock()
	var players []*Listener
	for l := range s.listeners[msg.Game] {
		if l.opens(msg) {
			players = append(players, l)
		}
	}
	s.mu.Unlock()
	if len(players) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if st, err := s.seats(ctx, msg.Game); err != nil || !st.ended {
		return
	}
	for _, l := range players {
		l.open(store.RoomSpectators)
	}
}

// unblockedLive makes an unblock take effect in the chats open now: the
// listeners of either account read their hidden accounts again.
func (s *Service) unblockedLive(ctx context.Context, a, b string) {
	s.mu.Lock()
	var ls []*Listener
	for _, set := range s.listeners {
		for l := range set {
			if l.reader == a || l.reader == b {
				ls = append(ls, l)
			}
		}
	}
	s.mu.Unlock()
	for _, l := range ls {
		if hidden, err := s.hidden(ctx, l.reader); err == nil {
			if hidden == nil {
				hidden = map[string]bool{}
			}
			l.setHidden(hidden)
		}
	}
}
