package server

import "sync"

// allowReadCost takes cost tokens of the client's read budget at once,
// for a read that costs more than most (an export of many games); a cost
// over the burst is charged as the whole burst, so that it waits for a
// full bucket rather than being refused forever.
func (c *clients) allowReadCost(key string, cost int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(key).reads.AllowN(c.now(), min(max(cost, 1), c.limits.ReadBurst))
}

// exportGate lets each account run one export at a time.
type exportGate struct {
	mu      sync.Mutex
	running map[string]bool
}

func newExportGate() *exportGate { return &exportGate{running: map[string]bool{}} }

// take claims the account's export, false when one runs already.
func (g *exportGate) take(account string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running[account] {
		return false
	}
	g.running[account] = true
	return true
}

func (g *exportGate) done(account string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.running, account)
}
