package lobby

import "github.com/arbiter-games/arbiter/store"

// Message is what the lobby tells a subscriber: the seeks listed (Type
// "seeks"), or that the game of a seek of theirs started ("started").
type Message struct {
	Type  string
	Seeks []SeekView
	Seek  string
	Game  string
}

// Sub is one subscriber, such as an open lobby socket.
type Sub struct {
	account string
	out     chan Message
}

// subBuffer is how many messages a subscriber may fall behind by before
// it misses some.
const subBuffer = 16

// Subscribe adds a subscriber for account ("" for one signed in to none,
// who is sent the seeks only).
func (l *Lobby) Subscribe(account string) *Sub {
	sub := &Sub{account: account, out: make(chan Message, subBuffer)}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.subs[sub] = struct{}{}
	return sub
}

// Unsubscribe removes sub: it is sent nothing more.
func (l *Lobby) Unsubscribe(sub *Sub) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.subs, sub)
}

// Account is the subscriber's account, "" for none.
func (sub *Sub) Account() string { return sub.account }

// Messages is what the lobby sends the subscriber.
func (sub *Sub) Messages() <-chan Message { return sub.out }

// send gives msg to the subscribers f picks; one too slow to take it
// misses it (the next full list catches it up).
func (l *Lobby) send(msg Message, f func(*Sub) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for sub := range l.subs {
		if f(sub) {
			select {
			case sub.out <- msg:
			default:
			}
		}
	}
}

// started tells the seek's players here that its game started.
func (l *Lobby) started(sk store.Seek, gameID string) {
	players := append([]string{sk.Account}, sk.Joined...)
	l.mu.Lock()
	delete(l.known, sk.ID)
	delete(l.pending, sk.ID)
	l.mu.Unlock()
	l.send(Message{Type: "started", Seek: sk.ID, Game: gameID}, func(sub *Sub) bool {
		for _, p := range players {
			if p == sub.account {
				return true
			}
		}
		return false
	})
	l.Nudge()
}
