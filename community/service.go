// Package community is the service of what players say to and of each
// other, and of what moderators decide: each game's two chats (its
// players', and its spectators'), bounded per message and per minute;
// the blocks one account puts on another; the reports of an account, a
// game or a message; and the moderators' actions (mute, ban, close, mark
// as engine-assisted, dismiss, remove), each written to an audit log.
//
// It knows no HTTP: a transport passes in the account ids it read from a
// session, and maps the service's refusals (*Error, by Code) to its own
// answers. The chats are live through Listen: at once for the messages
// written on this process, within a second for those of other processes
// sharing the store (Run).
package community

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/arbiter-games/arbiter/store"
)

// Limits bound what one account may write.
type Limits struct {
	// MessageRunes is the longest chat message.
	MessageRunes int
	// PerMinute is how many chat messages an account may write a minute
	// (as a burst, refilled evenly).
	PerMinute int
	// History is how many messages of a room a page is given.
	History int
	// NewAccount is the age under which an account's links are shown as
	// plain text, not made clickable.
	NewAccount time.Duration
	// MaxBlocks is how many accounts one account may block; MaxReports
	// how many of its reports may be open at once.
	MaxBlocks, MaxReports int
}

// DefaultLimits are the limits a Config that gives none keeps.
var DefaultLimits = Limits{MessageRunes: 280, PerMinute: 10, History: 100, NewAccount: 7 * 24 * time.Hour,
	MaxBlocks: 500, MaxReports: 20}

// withDefaults fills l's zero fields from DefaultLimits and refuses
// negative ones.
func (l Limits) withDefaults() (Limits, error) {
	if l.MessageRunes < 0 || l.PerMinute < 0 || l.History < 0 || l.NewAccount < 0 || l.MaxBlocks < 0 || l.MaxReports < 0 {
		return l, fmt.Errorf("community: negative limits %+v", l)
	}
	d := DefaultLimits
	fill := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&l.MessageRunes, d.MessageRunes)
	fill(&l.PerMinute, d.PerMinute)
	fill(&l.History, d.History)
	fill(&l.MaxBlocks, d.MaxBlocks)
	fill(&l.MaxReports, d.MaxReports)
	if l.NewAccount == 0 {
		l.NewAccount = d.NewAccount
	}
	return l, nil
}

// Config is what a Service runs with.
type Config struct {
	Store  store.Store
	Limits Limits
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Logger receives the structured log; nil discards it.
	Logger *slog.Logger
}

// Service is the community service. Make one with New; it is safe for
// concurrent use.
type Service struct {
	store  store.Store
	limits Limits
	now    func() time.Time
	log    *slog.Logger

	mu sync.Mutex
	// writers bound each account's messages a minute; listeners are the
	// chats' live readers, by game.
	writers   map[string]*rate.Limiter
	listeners map[string]map[*Listener]struct{}
	// given are the messages given to the listeners lately, by id, with
	// when: Run skips them when it reads the store again.
	given map[string]time.Time
	ids   ids
}

// New makes a service over cfg.Store.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, fmt.Errorf("community: no store")
	}
	l, err := cfg.Limits.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Service{store: cfg.Store, limits: l, now: cfg.Now, log: cfg.Logger,
		writers: map[string]*rate.Limiter{}, listeners: map[string]map[*Listener]struct{}{},
		given: map[string]time.Time{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// Limits are the service's limits, its defaults filled in.
func (s *Service) Limits() Limits { return s.limits }

// ids makes ids that sort by the time they were made: 13 hex digits of
// milliseconds, then 8 that start random in each millisecond and count
// on within it, so that ids made in one millisecond sort as they were
// made too.
type ids struct {
	mu  sync.Mutex
	ms  int64
	seq uint32
}

func (g *ids) next(at time.Time) string {
	ms := at.UnixMilli()
	g.mu.Lock()
	defer g.mu.Unlock()
	if ms == g.ms {
		g.seq++
	} else {
		var b [4]byte
		_, _ = rand.Read(b[:])
		g.ms, g.seq = ms, binary.BigEndian.Uint32(b[:])>>1 // room to count on
	}
	return fmt.Sprintf("%013x%08x", ms, g.seq)
}

// account reads an account that may act: one that exists and is not
// deleted or closed.
func (s *Service) account(ctx context.Context, id string) (store.Account, error) {
	if id == "" {
		return store.Account{}, refuse(Forbidden, "sign in first")
	}
	a, err := s.store.Account(ctx, id)
	if err == store.ErrNoAccount || err == nil && (a.Deleted || a.Standing.Closed) {
		return store.Account{}, refuse(NotFound, "no such account")
	}
	return a, err
}

// accountByName reads the account of a name, as a page names it.
func (s *Service) accountByName(ctx context.Context, name string) (store.Account, error) {
	a, err := s.store.AccountByName(ctx, name)
	if err == store.ErrNoAccount || err == nil && a.Deleted {
		return store.Account{}, refuse(NotFound, "no account is named %s", quote(name))
	}
	return a, err
}

// Allowed refuses an account a moderator banned, with the reason it was
// given: the transports ask before the account plays, seeks or accepts.
func Allowed(a store.Account) error {
	if a.Standing.Banned {
		return refuse(Banned, "your account is banned: %s", a.Standing.BanReason)
	}
	return nil
}
