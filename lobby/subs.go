package lobby

import (
	"context"
	"slices"

	"github.com/arbiter-games/arbiter/store"
)

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
	// hidden are the accounts blocked either way with account, whose
	// seeks the subscriber is not shown; guarded by the lobby's mu.
	hidden map[string]bool
}

// subBuffer is how many messages a subscriber may fall behind by before
// it misses some.
const subBuffer = 16

// Subscribe adds a subscriber for account ("" for one signed in to none,
// who is sent the seeks only).
func (l *Lobby) Subscribe(ctx context.Context, account string) *Sub {
	sub := &Sub{account: account, out: make(chan Message, subBuffer)}
	sub.hidden, _ = l.hidden(ctx, account) // a failed read hides nothing
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
			m := msg
			if m.Type == "seeks" {
				m.Seeks = shownTo(m.Seeks, sub.hidden)
			}
			select {
			case sub.out <- m:
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

// hidden are the accounts blocked either way with account ("" hides
// nothing).
func (l *Lobby) hidden(ctx context.Context, account string) (map[string]bool, error) {
	return store.BlockedSet(ctx, l.store, account)
}

// shownTo leaves out of views the seeks of hidden accounts, seeker or
// joined.
func shownTo(views []SeekView, hidden map[string]bool) []SeekView {
	if len(hidden) == 0 {
		return views
	}
	return slices.DeleteFunc(slices.Clone(views), func(v SeekView) bool {
		return slices.ContainsFunc(v.Accounts, func(id string) bool { return hidden[id] })
	})
}

// Blocked tells the lobby that a block between accounts a and b was made
// or undone: their subscribers' lists are read again and sent anew.
func (l *Lobby) Blocked(ctx context.Context, a, b string) {
	l.mu.Lock()
	var subs []*Sub
	for sub := range l.subs {
		if sub.account == a || sub.account == b {
			subs = append(subs, sub)
		}
	}
	l.mu.Unlock()
	for _, sub := range subs {
		hidden, err := l.hidden(ctx, sub.account)
		if err != nil {
			continue
		}
		l.mu.Lock()
		sub.hidden = hidden
		l.mu.Unlock()
	}
	l.mu.Lock()
	l.last = "" // the next round sends the seeks to everyone
	l.mu.Unlock()
	l.Nudge()
}
