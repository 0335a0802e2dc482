package account

import (
	"container/list"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// ThrottleConfig says how many failed logins are let through before they
// are slowed down, and how much memory the counts may hold.
type ThrottleConfig struct {
	NameBurst int           // failures a name may have at once
	NameEvery time.Duration // then one more try per this
	AddrBurst int           // failures an address may have at once
	AddrEvery time.Duration // then one more try per this
	MaxKeys   int           // names, and addresses, remembered at most (each)
}

// DefaultThrottleConfig: 5 failures for a name then one try every 3
// minutes (a guesser gets 480 a day, at most); 20 for an address (a family
// or a school behind one address) then one every 30 s. 65,536 keys each:
// about 240 bytes a key, 31 MiB when both are full (docs/accounts.md).
func DefaultThrottleConfig() ThrottleConfig {
	return ThrottleConfig{NameBurst: 5, NameEvery: 3 * time.Minute, AddrBurst: 20, AddrEvery: 30 * time.Second, MaxKeys: 1 << 16}
}

// Throttle slows down repeated failed logins, per account name and per
// client address, each a token bucket (x/time/rate): Check before checking
// a password, Fail after a wrong one, Succeed after a right one. Names
// that do not exist count like those that do, so the answer does not tell.
// Memory is bounded: past MaxKeys the entry failed least recently goes.
// Safe for concurrent use; the time is passed in, for tests.
type Throttle struct {
	mu    sync.Mutex
	names buckets
	addrs buckets
}

// NewThrottle makes a Throttle; a zero or negative field of c takes its
// DefaultThrottleConfig value.
func NewThrottle(c ThrottleConfig) *Throttle {
	d := DefaultThrottleConfig()
	if c.NameBurst <= 0 {
		c.NameBurst = d.NameBurst
	}
	if c.NameEvery <= 0 {
		c.NameEvery = d.NameEvery
	}
	if c.AddrBurst <= 0 {
		c.AddrBurst = d.AddrBurst
	}
	if c.AddrEvery <= 0 {
		c.AddrEvery = d.AddrEvery
	}
	if c.MaxKeys <= 0 {
		c.MaxKeys = d.MaxKeys
	}
	return &Throttle{names: newBuckets(c.NameBurst, c.NameEvery, c.MaxKeys), addrs: newBuckets(c.AddrBurst, c.AddrEvery, c.MaxKeys)}
}

// Check tells whether a login of nameKey (Key of the name) from addr may
// try a password now; when not, retryAfter is how long until it may (the
// server answers 429 with Retry-After).
func (t *Throttle) Check(nameKey, addr string, now time.Time) (retryAfter time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	wait := max(t.names.wait(nameKey, now), t.addrs.wait(AddrKey(addr), now))
	return wait, wait == 0
}

// Fail counts a failed login against the name and the address.
func (t *Throttle) Fail(nameKey, addr string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.names.fail(nameKey, now)
	t.addrs.fail(AddrKey(addr), now)
}

// Succeed forgets the name's failures: its owner is back. The address's
// stay, so that logging in to one's own account does not reset the count
// of guesses made at others' (addr is taken so that the call reads like
// Fail's, and is not used).
func (t *Throttle) Succeed(nameKey, addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.names.forget(nameKey)
}

// AddrKey is the key an address is counted under: the address alone (a
// port, if any, dropped), an IPv6 address by its /64, the network one
// subscriber usually has; an IPv4-mapped IPv6 address as IPv4. Something
// that is not an address counts as itself, cut to 64 bytes.
func AddrKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		ap, err2 := netip.ParseAddrPort(addr)
		if err2 != nil {
			return addr[:min(len(addr), 64)]
		}
		ip = ap.Addr()
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		return netip.PrefixFrom(ip, 64).Masked().String()
	}
	return ip.String()
}

// buckets are token buckets by key, in the order of their last failure
// (the list's front is the latest), at most max of them.
type buckets struct {
	burst  int
	every  time.Duration
	max    int
	byKey  map[string]*list.Element
	recent *list.List // of *bucket
}

type bucket struct {
	key  string
	lim  *rate.Limiter
	last time.Time // of the last failure
}

func newBuckets(burst int, every time.Duration, maxKeys int) buckets {
	return buckets{burst: burst, every: every, max: maxKeys, byKey: map[string]*list.Element{}, recent: list.New()}
}

// wait is how long until key may try again: 0 when it may now.
func (b *buckets) wait(key string, now time.Time) time.Duration {
	e, ok := b.byKey[key]
	if !ok {
		return 0
	}
	// Tokens are floats: a bucket one interval after its last failure may
	// hold 0.9999999, which is the token it should be; waits are so
	// rounded to the millisecond.
	tokens := e.Value.(*bucket).lim.TokensAt(now)
	wait := time.Duration((1 - tokens) * float64(b.every)).Round(time.Millisecond)
	return max(wait, 0)
}

func (b *buckets) fail(key string, now time.Time) {
	b.sweep(now)
	e, ok := b.byKey[key]
	if !ok {
		if b.recent.Len() >= b.max {
			b.remove(b.recent.Back())
		}
		e = b.recent.PushFront(&bucket{key: key, lim: rate.NewLimiter(rate.Every(b.every), b.burst)})
		b.byKey[key] = e
	}
	bk := e.Value.(*bucket)
	bk.lim.AllowN(now, 1) // at zero already, the failure only moves "last"
	bk.last = now
	b.recent.MoveToFront(e)
}

// sweep drops the buckets that have had time to fill up again since their
// last failure: they say nothing a missing bucket would not.
func (b *buckets) sweep(now time.Time) {
	full := time.Duration(b.burst) * b.every
	for e := b.recent.Back(); e != nil && now.Sub(e.Value.(*bucket).last) >= full; e = b.recent.Back() {
		b.remove(e)
	}
}

func (b *buckets) forget(key string) {
	if e, ok := b.byKey[key]; ok {
		b.remove(e)
	}
}

func (b *buckets) remove(e *list.Element) {
	delete(b.byKey, e.Value.(*bucket).key)
	b.recent.Remove(e)
}

// len is the number of keys remembered.
func (b *buckets) len() int { return b.recent.Len() }
