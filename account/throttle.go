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
	NameBurst     int           // failures a name may have from one address at once
	NameEvery     time.Duration // then one more try per this
	AddrBurst     int           // failures an address may have at once, whatever the names
	AddrEvery     time.Duration // then one more try per this
	NameWideBurst int           // failures a name may have from all unknown devices at once
	NameWideEvery time.Duration // then one more try per this
	MaxKeys       int           // keys remembered at most (each table)
}

// DefaultThrottleConfig: 5 failures for a name from one address, then one
// try every 3 minutes; 20 for an address (a family or a school behind one
// address) then one every 30 s; 50 for a name from everywhere (a botnet
// guessing one name) then one a minute, which a device that logged in to
// that name before does not count against. 65,536 keys each: about 240
// bytes a key (docs/accounts.md).
func DefaultThrottleConfig() ThrottleConfig {
	return ThrottleConfig{NameBurst: 5, NameEvery: 3 * time.Minute, AddrBurst: 20, AddrEvery: 30 * time.Second,
		NameWideBurst: 50, NameWideEvery: time.Minute, MaxKeys: 1 << 16}
}

// Throttle slows down repeated failed logins, each count a token bucket
// (x/time/rate): Check before checking a password, Fail after a wrong one,
// Succeed after a right one. A login from an unknown device counts against
// its name from its address, its address, and its name from everywhere; a
// login from a known device (one whose device cookie shows it logged in to
// the name before) counts against that device alone, so that no one else's
// failures can lock the owner out (OWASP's device cookies). Names that do
// not exist count like those that do, so the answer does not tell. Memory
// is bounded: past MaxKeys the entry failed least recently goes. Safe for
// concurrent use; the time is passed in, for tests.
type Throttle struct {
	mu      sync.Mutex
	names   buckets // by name and address
	addrs   buckets
	wide    buckets // by name, for unknown devices
	devices buckets // by name and device
}

// NewThrottle makes a Throttle; a zero or negative field of c takes its
// DefaultThrottleConfig value.
func NewThrottle(c ThrottleConfig) *Throttle {
	d := DefaultThrottleConfig()
	for _, f := range []struct{ got, def *int }{{&c.NameBurst, &d.NameBurst}, {&c.AddrBurst, &d.AddrBurst},
		{&c.NameWideBurst, &d.NameWideBurst}, {&c.MaxKeys, &d.MaxKeys}} {
		if *f.got <= 0 {
			*f.got = *f.def
		}
	}
	for _, f := range []struct{ got, def *time.Duration }{{&c.NameEvery, &d.NameEvery}, {&c.AddrEvery, &d.AddrEvery},
		{&c.NameWideEvery, &d.NameWideEvery}} {
		if *f.got <= 0 {
			*f.got = *f.def
		}
	}
	return &Throttle{names: newBuckets(c.NameBurst, c.NameEvery, c.MaxKeys), addrs: newBuckets(c.AddrBurst, c.AddrEvery, c.MaxKeys),
		wide: newBuckets(c.NameWideBurst, c.NameWideEvery, c.MaxKeys), devices: newBuckets(c.NameBurst, c.NameEvery, c.MaxKeys)}
}

// Check tells whether a login of nameKey (Key of the name; "" when the
// login names no one, as a passkey's does) from addr, by device (the id of
// a known device's cookie, "" for an unknown device) may try now; when
// not, retryAfter is how long until it may (the server answers 429 with
// Retry-After).
func (t *Throttle) Check(nameKey, addr, device string, now time.Time) (retryAfter time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var wait time.Duration
	if device != "" && nameKey != "" {
		wait = t.devices.wait(nameKey+"|"+device, now)
	} else {
		wait = t.addrs.wait(AddrKey(addr), now)
		if nameKey != "" {
			wait = max(wait, t.names.wait(nameKey+"|"+AddrKey(addr), now), t.wide.wait(nameKey, now))
		}
	}
	return wait, wait == 0
}

// Fail counts a failed login, as Check reads it.
func (t *Throttle) Fail(nameKey, addr, device string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if device != "" && nameKey != "" {
		t.devices.fail(nameKey+"|"+device, now)
		return
	}
	t.addrs.fail(AddrKey(addr), now)
	if nameKey != "" {
		t.names.fail(nameKey+"|"+AddrKey(addr), now)
		t.wide.fail(nameKey, now)
	}
}

// Succeed forgets the name's failures from this address and device: its
// owner is back. The address's stay, so that logging in to one's own
// account does not reset the count of guesses made at others'; and the
// name's from everywhere stay, so that the owner's login does not give a
// botnet a fresh count (they fill up again with time).
func (t *Throttle) Succeed(nameKey, addr, device string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.names.forget(nameKey + "|" + AddrKey(addr))
	if device != "" {
		t.devices.forget(nameKey + "|" + device)
	}
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
