package hall

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/ai"
)

// budget is the memory the engines of all games may hold at once. A new
// game's engines are reserved against it before the game is made, and a
// game over the budget is refused; an engine made again for a game
// accepted earlier (after a restart, or after it left memory) is counted
// even when the budget is passed, since refusing it would stop a game in
// progress: the budget bounds what new requests can add.
type budget struct {
	mu    sync.Mutex
	limit int64
	used  int64
}

func newBudget(limit int64) *budget { return &budget{limit: limit} }

// reserve takes n bytes if they fit, and reports whether they did.
func (b *budget) reserve(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

// force takes n bytes whether or not they fit.
func (b *budget) force(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used += n
}

func (b *budget) release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
}

func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
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

// engine is the engine of seat p, made on its first turn and counted in
// the budget. e.mu is held.
func (h *Hall) engine(e *entry, p int, spec string) (ai.Engine, error) {
	if len(e.engines) != len(e.g.Seats) {
		e.engines = make([]ai.Engine, len(e.g.Seats))
	}
	if e.engines[p] != nil {
		return e.engines[p], nil
	}
	if err := ai.CheckForServer(spec); err != nil {
		return nil, err // a spec stored before the server refused it
	}
	size, err := ai.Footprint(spec)
	if err != nil {
		return nil, err
	}
	engine, err := h.cfg.Engines(spec, seedFor(p), h.cfg.EngineOptions(e.ss.Game())...)
	if err != nil {
		return nil, err
	}
	h.budget.force(size)
	e.reserved += size
	e.engines[p] = engine
	return engine, nil
}

// freeEngines lets the game's engines go and gives their memory back to
// the budget. e.mu is held.
func (h *Hall) freeEngines(e *entry) {
	e.engines = nil
	h.budget.release(e.reserved)
	e.reserved = 0
}
