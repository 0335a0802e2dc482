package server

// allowReadCost takes cost tokens of the client's read budget at once,
// for a read that costs more than most (an export of many games); a cost
// over the burst is charged as the whole burst, so that it waits for a
// full bucket rather than being refused forever.
func (c *clients) allowReadCost(key string, cost int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(key).reads.AllowN(c.now(), min(max(cost, 1), c.limits.ReadBurst))
}
