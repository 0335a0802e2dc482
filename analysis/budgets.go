package analysis

import (
	"container/list"
	"sync"
	"time"
)

// budgets keeps each client's search time: a bucket that fills at share
// seconds a second up to burst, charged a search's time when it is
// admitted, and whether the client has a search running. The table is
// bounded (maxClients), the client seen longest ago going first, in
// constant time.
type budgets struct {
	mu    sync.Mutex
	share float64
	burst time.Duration
	now   func() time.Time
	byKey map[string]*list.Element
	order *list.List // of *budget, the most recently seen first
	limit int
}

type budget struct {
	key     string
	left    time.Duration // search time in the bucket at seen
	seen    time.Time
	running bool
}

func newBudgets(share float64, burst time.Duration, now func() time.Time) *budgets {
	return &budgets{share: share, burst: burst, now: now, byKey: map[string]*list.Element{}, order: list.New(), limit: maxClients}
}

// enter charges every key cost and marks them running, or refuses them
// all: when one runs a search already, or has less than cost left (cost
// is at most the burst, so that every search can be admitted once the
// bucket is full). leave ends the search.
func (b *budgets) enter(cost time.Duration, keys []string) (leave func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	cost = min(cost, b.burst)
	found := make([]*budget, 0, len(keys))
	for _, key := range keys {
		c := b.get(key, now)
		if c.running {
			return nil, errorf(RateLimited, time.Second, "a search of this client runs already; wait for its answer")
		}
		if c.left < cost {
			wait := time.Duration(float64(cost-c.left) / b.share)
			return nil, errorf(RateLimited, wait, "this client has used its search time (%s of search a second of analysis, at most %s banked); try again in %s",
				seconds(b.share), b.burst, wait.Round(100*time.Millisecond))
		}
		found = append(found, c)
	}
	for _, c := range found {
		c.left -= cost
		c.running = true
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			for _, c := range found {
				c.running = false
			}
		})
	}, nil
}

// seconds writes a share of a second.
func seconds(share float64) time.Duration {
	return time.Duration(share * float64(time.Second)).Round(time.Millisecond)
}

// get is key's budget filled up to now, made full the first time. b.mu
// is held.
func (b *budgets) get(key string, now time.Time) *budget {
	if el, ok := b.byKey[key]; ok {
		c := el.Value.(*budget)
		if gained := now.Sub(c.seen); gained > 0 {
			c.left = min(b.burst, c.left+time.Duration(float64(gained)*b.share))
		}
		c.seen = now
		b.order.MoveToFront(el)
		return c
	}
	b.evict()
	c := &budget{key: key, left: b.burst, seen: now}
	b.byKey[key] = b.order.PushFront(c)
	return c
}

// evict forgets the clients seen longest ago while the table is full,
// keeping those with a search running (at most the workers and the
// waiting, so the loop is short). b.mu is held.
func (b *budgets) evict() {
	for tries := b.order.Len(); b.order.Len() >= b.limit && tries > 0; tries-- {
		el := b.order.Back()
		c := el.Value.(*budget)
		if c.running {
			b.order.MoveToFront(el)
			continue
		}
		b.order.Remove(el)
		delete(b.byKey, c.key)
	}
}

// size is the clients kept.
func (b *budgets) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.order.Len()
}
