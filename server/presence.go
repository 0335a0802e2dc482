package server

import (
	"encoding/json"
	"slices"
	"sync"
)

// Presence is which seats of a game have a page open: a seat is present
// while a socket of this server on the game holds it, by its token or
// its account (an auth). A socket opened with ?presence=on is told, in a
// "presence" event, the seats present when it opens and again after each
// change; the others never are, so that the clients that read the
// game's events alone see no new kind of event.
//
// It is this server's: behind several servers sharing a store, a seat
// held by a socket on another server shows absent here.
type presence struct {
	mu sync.Mutex
	// held counts, per game and seat, the sockets that hold the seat.
	held map[string]map[int]int
	// told are the sockets of each game that asked to be told.
	told map[string]map[*socket]struct{}
}

// listen has sk told of its game's presence, now and after each change.
func (p *presence) listen(sk *socket) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.told == nil {
		p.told = map[string]map[*socket]struct{}{}
	}
	if p.told[sk.id] == nil {
		p.told[sk.id] = map[*socket]struct{}{}
	}
	p.told[sk.id][sk] = struct{}{}
	sk.changed()
}

// hold notes that sk holds seat, once however often it says so, and
// tells the game's listeners when the seat was absent.
func (p *presence) hold(sk *socket, seat int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if sk.seats[seat] {
		return
	}
	if sk.seats == nil {
		sk.seats = map[int]bool{}
	}
	sk.seats[seat] = true
	if p.held == nil {
		p.held = map[string]map[int]int{}
	}
	if p.held[sk.id] == nil {
		p.held[sk.id] = map[int]int{}
	}
	p.held[sk.id][seat]++
	if p.held[sk.id][seat] == 1 {
		p.tell(sk.id)
	}
}

// leave forgets a closed socket: it no longer listens, and the seats it
// held alone are absent, which the game's listeners are told.
func (p *presence) leave(sk *socket) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.told[sk.id], sk)
	if len(p.told[sk.id]) == 0 {
		delete(p.told, sk.id)
	}
	changed := false
	for seat := range sk.seats {
		p.held[sk.id][seat]--
		if p.held[sk.id][seat] == 0 {
			delete(p.held[sk.id], seat)
			changed = true
		}
	}
	if len(p.held[sk.id]) == 0 {
		delete(p.held, sk.id)
	}
	if changed {
		p.tell(sk.id)
	}
}

// tell marks every listener of game changed; p.mu is held.
func (p *presence) tell(game string) {
	for sk := range p.told[game] {
		sk.changed()
	}
}

// present lists the seats of game present now, in seat order.
func (p *presence) present(game string) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	seats := []int{}
	for seat := range p.held[game] {
		seats = append(seats, seat)
	}
	slices.Sort(seats)
	return seats
}

// changed tells the socket's writer that its game's presence changed;
// changes that come before it writes are written once, as they are then.
func (sk *socket) changed() {
	select {
	case sk.presence <- struct{}{}:
	default:
	}
}

// presenceEvent is what a listening socket receives: "presence", with
// the seats present (docs/server.md), [] for none.
type presenceEvent struct {
	Type    string `json:"type"`
	Present []int  `json:"present"`
}

// presenceWire is the event that tells game's presence now.
func (s *Server) presenceWire(game string) []byte {
	msg, _ := json.Marshal(presenceEvent{Type: "presence", Present: s.presence.present(game)})
	return msg
}
