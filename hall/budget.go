package hall

import (
	"bufio"
	"container/list"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
)

// budget is the memory the engines of all games may hold at once, and
// what each client holds of it. Every engine counts: a new game's are
// reserved before the game is made, and an engine made again for a game
// that left memory (or after a restart) is reserved before it is made.
// When the budget is full, the engines of games not thinking now are let
// go, those used longest ago first (their games make them again on their
// next turn); a reload that still does not fit waits for memory, and a
// new game is refused. One client (the transport's key for whoever made
// the game) holds at most a quarter of the budget, or one game whatever
// its size, so that no client can take the memory from everyone.
type budget struct {
	mu       sync.Mutex
	limit    int64
	used     int64
	byClient map[string]int64
	// holders are the entries holding engines, the one used last first.
	holders *list.List
}

func newBudget(limit int64) *budget {
	return &budget{limit: limit, byClient: map[string]int64{}, holders: list.New()}
}

// clientShare is the most one client may hold, unless it holds nothing.
func (b *budget) clientShare() int64 { return b.limit / 4 }

// reserve takes n bytes for client ("" for none known) if they fit, and
// reports whether they did. b.mu is held.
func (b *budget) reserve(n int64, client string) bool {
	if b.used+n > b.limit {
		return false
	}
	if client != "" {
		if held := b.byClient[client]; held > 0 && held+n > b.clientShare() {
			return false
		}
		b.byClient[client] += n
	}
	b.used += n
	return true
}

// release gives n bytes of client's back. b.mu is held.
func (b *budget) release(n int64, client string) {
	b.used -= n
	if client != "" {
		if b.byClient[client] -= n; b.byClient[client] <= 0 {
			delete(b.byClient, client)
		}
	}
}

func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// reserveEngines takes n bytes for e's engines (e nil: a game not made
// yet) on behalf of client, letting the engines of other games go, those
// used longest ago first, until they fit. Past its share a client makes
// room only among its own games, and a new game of its is refused. It
// reports whether the bytes fit. e.mu, when e is not nil, is held;
// another game's lock is only tried, never waited for, so that two games
// making room never wait on each other.
func (h *Hall) reserveEngines(e *entry, n int64, client string) bool {
	b := h.budget
	for {
		b.mu.Lock()
		if b.reserve(n, client) {
			b.mu.Unlock()
			return true
		}
		own := b.pastShare(n, client)
		var victim *entry
		if !own || e != nil {
			victim = b.idleHolder(e, own, client)
		}
		b.mu.Unlock()
		if victim == nil {
			return false
		}
		h.freeEngines(victim)
		victim.mu.Unlock()
		h.stats.enginesEvicted.Add(1)
	}
}

// pastShare reports whether client holds something and n more would pass
// its share. b.mu is held.
func (b *budget) pastShare(n int64, client string) bool {
	held := b.byClient[client]
	return client != "" && held > 0 && held+n > b.clientShare()
}

// overClientShare is pastShare under the lock.
func (b *budget) overClientShare(n int64, client string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pastShare(n, client)
}

// idleHolder is the game holding engines used longest ago that is not
// thinking and whose lock is free now (not skip; only client's when own),
// returned locked; nil when there is none. b.mu is held.
func (b *budget) idleHolder(skip *entry, own bool, client string) *entry {
	for el := b.holders.Back(); el != nil; el = el.Prev() {
		v := el.Value.(*entry)
		if v == skip || own && v.client != client || !v.mu.TryLock() {
			continue
		}
		if !v.thinking && v.reserved > 0 {
			return v
		}
		v.mu.Unlock()
	}
	return nil
}

// hold counts e among the games holding engines, as the one used last.
// e.mu is held.
func (h *Hall) hold(e *entry) {
	b := h.budget
	b.mu.Lock()
	defer b.mu.Unlock()
	if e.holder == nil {
		e.holder = b.holders.PushFront(e)
	} else {
		b.holders.MoveToFront(e.holder)
	}
}

// DefaultAIMemory is a quarter of the machine's memory (MemTotal of
// /proc/meminfo), or 1 GiB where that cannot be read.
func DefaultAIMemory() int64 {
	const fallback = 1 << 30
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil && kb > 0 {
				return kb * 1024 / 4
			}
		}
	}
	return fallback
}

// seedFor seeds a seat's engine: engines differ between seats, and a
// game's play depends on its moves, not on the server.
func seedFor(seat int) uint64 { return uint64(seat) + 1 }

// isLevel reports whether spec names a level, which brings its own time.
func isLevel(spec string) bool { return strings.Contains(spec, "level=") }

// errNoMemory is an AI turn that found no room in the budget for its
// game's engines: the turn waits and is tried again (memoryRetry).
var errNoMemory = errors.New("no room in the AI memory budget for the engines")

// memoryRetry is how long an AI turn waits for memory before trying again.
const memoryRetry = time.Second

// engine is the engine of seat p, made on its first turn and counted in
// the budget before it is made. e.mu is held.
func (h *Hall) engine(e *entry, p int, spec string) (ai.Engine, error) {
	if len(e.engines) != len(e.g.Seats) {
		e.engines = make([]ai.Engine, len(e.g.Seats))
	}
	if e.engines[p] != nil {
		h.hold(e)
		return e.engines[p], nil
	}
	if err := ai.CheckForServer(spec); err != nil {
		return nil, err // a spec stored before the server refused it
	}
	size, err := ai.Footprint(spec)
	if err != nil {
		return nil, err
	}
	if !h.reserveEngines(e, size, e.client) {
		return nil, errNoMemory
	}
	engine, err := h.cfg.Engines(spec, seedFor(p), h.cfg.EngineOptions(e.pg.Game())...)
	if err != nil {
		h.releaseEngines(size, e.client)
		return nil, err
	}
	e.reserved += size
	e.engines[p] = engine
	h.hold(e)
	return engine, nil
}

// releaseEngines gives n bytes of client's back to the budget.
func (h *Hall) releaseEngines(n int64, client string) {
	h.budget.mu.Lock()
	defer h.budget.mu.Unlock()
	h.budget.release(n, client)
}

// freeEngines lets the game's engines go and gives their memory back to
// the budget. e.mu is held.
func (h *Hall) freeEngines(e *entry) {
	e.engines = nil
	b := h.budget
	b.mu.Lock()
	defer b.mu.Unlock()
	b.release(e.reserved, e.client)
	e.reserved = 0
	if e.holder != nil {
		b.holders.Remove(e.holder)
		e.holder = nil
	}
}
