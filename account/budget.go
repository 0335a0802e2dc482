package account

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// BudgetConfig says how much work of one kind a key (a client address)
// may start: Burst at once, then one more per Every, with at most AtOnce
// of it in flight (0: no bound on that).
type BudgetConfig struct {
	Burst   int
	Every   time.Duration
	AtOnce  int
	MaxKeys int // keys remembered at most
}

// Budget admits costly work per key, whatever the work's outcome: a
// password hash (a right password costs what a wrong one does), or a
// sign-up. Memory is bounded by MaxKeys: past it, the key seen least
// recently with nothing in flight is forgotten (it comes back with a full
// bucket, as a new key would). Safe for concurrent use; the time is
// passed in, for tests.
type Budget struct {
	mu    sync.Mutex
	cfg   BudgetConfig
	byKey map[string]*budgetEntry
}

type budgetEntry struct {
	lim  *rate.Limiter
	busy int
	seen time.Time
}

// NewBudget makes a Budget; c's Burst, Every and MaxKeys must be positive
// and AtOnce not negative.
func NewBudget(c BudgetConfig) *Budget {
	return &Budget{cfg: c, byKey: map[string]*budgetEntry{}}
}

// busyWait is the Retry-After of a refusal because the key has work in
// flight: that work takes a fraction of a second.
const busyWait = time.Second

// Admit asks for cost units of work for key. When admitted, release must
// be called when the work ends (it may be called more than once); when
// not, wait is how long until it may be admitted. A cost over the burst
// is charged as the whole burst, so that it waits for a full bucket
// rather than being refused forever.
func (b *Budget) Admit(key string, cost int, now time.Time) (release func(), wait time.Duration, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entry(key, now)
	if b.cfg.AtOnce > 0 && e.busy >= b.cfg.AtOnce {
		return nil, busyWait, false
	}
	res := e.lim.ReserveN(now, min(max(cost, 1), b.cfg.Burst))
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return nil, d, false
	}
	if b.cfg.AtOnce == 0 {
		return func() {}, 0, true
	}
	e.busy++
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			e.busy--
		})
	}, 0, true
}

// entry is key's entry, made the first time; held b.mu.
func (b *Budget) entry(key string, now time.Time) *budgetEntry {
	e, ok := b.byKey[key]
	if !ok {
		if len(b.byKey) >= b.cfg.MaxKeys {
			b.evict()
		}
		e = &budgetEntry{lim: rate.NewLimiter(rate.Every(b.cfg.Every), b.cfg.Burst)}
		b.byKey[key] = e
	}
	e.seen = now
	return e
}

// evict forgets the idle entry seen least recently. It scans the table,
// which only a full table (a flood from MaxKeys addresses) makes it do;
// when every entry is busy the table grows by one, bounded by the work in
// flight, which the hasher's slots and the connection limits bound.
func (b *Budget) evict() {
	var oldest string
	var when time.Time
	for key, e := range b.byKey {
		if e.busy == 0 && (oldest == "" || e.seen.Before(when)) {
			oldest, when = key, e.seen
		}
	}
	if oldest != "" {
		delete(b.byKey, oldest)
	}
}

// Len is the number of keys remembered.
func (b *Budget) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.byKey)
}
