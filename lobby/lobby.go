// Package lobby is where players meet before a game: the seeks they post
// (open to anyone, or a challenge to one player), by the rules a game is
// created by and within bounds per account and per client address; the
// seeks listed, newest first and paged by cursor; a seek accepted, whose
// game starts through the hall once every seat is taken; and the
// subscribers (a transport's lobby sockets) told when the seeks change
// and when their seek's game starts, which a polling loop catches up with
// changes made by other processes sharing the store. It knows no
// transport: its refusals are *Error with a Code, which a transport maps
// to its own answers.
package lobby

import (
	"cmp"
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
)

// The lobby's limits and pace.
const (
	MaxSeeksPerAccount = 5
	// MaxSeeksPerAddress bounds the open seeks of one client address,
	// whatever their accounts: a hundred accounts made from one address
	// still fill no more of the lobby than ten seeks.
	MaxSeeksPerAddress = 10
	// SeekPage is how many seeks of each kind the lobby lists at once
	// (newest first, more by a cursor), and MaxSeekPage the most a list
	// may ask for; real-time and correspondence seeks are listed each to
	// their own limit, so that neither pushes the other out.
	SeekPage    = 50
	MaxSeekPage = 100
	// A real-time seek lasts while its seeker keeps it (Keep, as an open
	// lobby socket does), and SeekHold after; a correspondence seek lasts
	// CorrespondenceHold.
	SeekHold           = 2 * time.Minute
	CorrespondenceHold = 7 * 24 * time.Hour
	// tick is how often the lobby reads the seeks again (changes made by
	// this process are sent at once; other processes' within a tick).
	tick = 2 * time.Second
	// The bounds of a seek's time control: a base of 1 s to 3 h and an
	// increment of at most a minute, or 1 to 14 days a move.
	maxFischerSeconds   = 3 * 60 * 60
	maxIncrementSeconds = 60
	maxDays             = 14
)

// Config is what a lobby works with.
type Config struct {
	Store store.Store
	// Hall starts the games of full seeks.
	Hall *hall.Hall
	// Logger receives the structured log; nil discards it.
	Logger *slog.Logger
	// Now is the lobby's clock; nil is time.Now.
	Now func() time.Time
	// Posted, when not nil, is told of each seek this lobby stored, and
	// Started of each seek whose game it started (by is the account whose
	// acceptance filled it): the site's notifications of challenges and
	// of seeks taken. Both are called on the request's goroutine, and
	// must not block.
	Posted  func(ctx context.Context, sk store.Seek)
	Started func(ctx context.Context, sk store.Seek, game, by string)
	// BotGames bounds the games a bot plays at once, and
	// BotChallengesPerHour the challenges it accepts in an hour (0:
	// DefaultBotGames, DefaultBotChallengesPerHour).
	BotGames, BotChallengesPerHour int
}

// Lobby sends the seeks to its subscribers whenever they change, and
// tells the players of a seek taken that its game started: at once when
// this process started it, within a tick when another did (a seek that
// vanished while its player subscribes here is looked up in their newest
// game).
type Lobby struct {
	store store.Store
	hall  *hall.Hall
	// posted and taken are Config.Posted and Config.Started (never nil).
	posted func(ctx context.Context, sk store.Seek)
	taken  func(ctx context.Context, sk store.Seek, game, by string)
	log    *slog.Logger
	now    func() time.Time
	// botGames and botPerHour are Config's bot limits, defaults filled.
	botGames, botPerHour int

	mu    sync.Mutex
	subs  map[*Sub]struct{}
	poke  chan struct{}
	last  string                // seeksKey of the seeks last sent
	known map[string]store.Seek // the seeks of the last read, by id
	// pending are seeks gone from the list whose game was not found yet:
	// another process takes a seek before it stores its game, so the
	// game is looked for again for a few rounds (startRounds).
	pending map[string]pendingSeek
}

// pendingSeek is a seek that vanished, and the rounds it was looked for.
type pendingSeek struct {
	seek   store.Seek
	rounds int
}

// startRounds is how many rounds a vanished seek's game is looked for: a
// seek is taken, then its game made, which on a busy machine can take
// longer than a round.
const startRounds = 5

// New makes a lobby over cfg.Store; Run follows the seeks.
func New(cfg Config) *Lobby {
	l := &Lobby{store: cfg.Store, hall: cfg.Hall, log: cfg.Logger, now: cfg.Now,
		subs: map[*Sub]struct{}{}, poke: make(chan struct{}, 1), known: map[string]store.Seek{},
		pending: map[string]pendingSeek{}, posted: cfg.Posted, taken: cfg.Started}
	if l.posted == nil {
		l.posted = func(context.Context, store.Seek) {}
	}
	if l.taken == nil {
		l.taken = func(context.Context, store.Seek, string, string) {}
	}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	if l.now == nil {
		l.now = time.Now
	}
	l.botGames, l.botPerHour = cmp.Or(cfg.BotGames, DefaultBotGames), cmp.Or(cfg.BotChallengesPerHour, DefaultBotChallengesPerHour)
	return l
}

// Nudge asks for the seeks to be read again now: after a change the
// lobby did not make itself (an account deleted, its seeks with it).
func (l *Lobby) Nudge() {
	select {
	case l.poke <- struct{}{}:
	default:
	}
}

// Run reads the seeks on every nudge and tick, until ctx ends.
func (l *Lobby) Run(ctx context.Context) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-l.poke:
		}
		l.round(ctx)
	}
}

// round reads the seeks the subscribers are shown (the first page of
// each kind); when they changed (a seek made, joined, taken, withdrawn or
// expired), sends them with their seekers' names and ratings to every
// subscriber, and looks up the game of each seek that vanished. It reads
// them even with no subscriber, so that a seeker who subscribes between a
// seek's making and its taking still hears of its game; an unchanged
// lobby costs two queries a tick.
func (l *Lobby) round(ctx context.Context) {
	seeks, err := l.list(ctx, store.SeekFilter{Limit: SeekPage})
	if err != nil {
		l.log.Warn("lobby", "err", err)
		return
	}
	key := seeksKey(seeks)
	l.mu.Lock()
	changed := key != l.last
	l.last = key
	idle := len(l.subs) == 0
	waiting := len(l.pending) > 0
	l.mu.Unlock()
	if !changed && !waiting {
		return
	}
	if changed && !idle {
		list, err := l.views(ctx, seeks)
		if err != nil {
			l.log.Warn("lobby", "err", err)
			return
		}
		l.send(Message{Type: "seeks", Seeks: list}, func(*Sub) bool { return true })
	}
	l.findStarted(ctx, seeks)
}

// seeksKey is what the lobby shows of a list of seeks, to tell a change.
func seeksKey(seeks []store.Seek) string {
	var b strings.Builder
	for _, sk := range seeks {
		b.WriteString(sk.ID)
		for _, j := range sk.Joined {
			b.WriteString("," + j)
		}
		b.WriteString(";")
	}
	return b.String()
}

// findStarted tells the players here of each seek that vanished whose
// game another process started. A seek pushed off the first page by
// newer ones looks vanished too: its seeker has no newer game, so is
// told nothing (and a game another process starts from it later shows
// in the seeker's count of games waiting, not as a start).
func (l *Lobby) findStarted(ctx context.Context, seeks []store.Seek) {
	gone, here := l.forget(seeks)
	for _, sk := range gone {
		if !here[sk.Account] {
			l.drop(sk.ID)
			continue
		}
		games, err := l.store.PlayerGames(ctx, sk.Account, store.GameFilter{Game: sk.Game, Limit: 1})
		if err == nil && len(games) == 1 && !games[0].Created.Before(sk.Created) {
			l.drop(sk.ID)
			l.send(Message{Type: "started", Seek: sk.ID, Game: games[0].ID}, func(sub *Sub) bool {
				return sub.account == sk.Account
			})
			continue
		}
		l.wait(sk)
	}
}

// wait looks for sk's game again next round, for startRounds rounds.
func (l *Lobby) wait(sk store.Seek) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.pending[sk.ID]
	if p.rounds++; p.rounds >= startRounds {
		delete(l.pending, sk.ID)
		return
	}
	p.seek = sk
	l.pending[sk.ID] = p
}

// drop stops looking for seek id's game.
func (l *Lobby) drop(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.pending, id)
}

// forget keeps seeks as the known ones, and gives the known ones that
// are gone, and the accounts subscribed here.
func (l *Lobby) forget(seeks []store.Seek) (gone []store.Seek, here map[string]bool) {
	now := map[string]store.Seek{}
	for _, sk := range seeks {
		now[sk.ID] = sk
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, sk := range l.known {
		if _, ok := now[id]; !ok {
			gone = append(gone, sk)
		}
	}
	for id, p := range l.pending {
		_, listed := now[id]
		_, justGone := l.known[id]
		switch {
		case listed: // back (restored after a failed start)
			delete(l.pending, id)
		case !justGone:
			gone = append(gone, p.seek)
		}
	}
	l.known = now
	here = map[string]bool{}
	for sub := range l.subs {
		here[sub.account] = true
	}
	return gone, here
}
