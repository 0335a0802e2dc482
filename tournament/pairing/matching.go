package pairing

// matcher finds a maximum matching of a general graph by Edmonds' blossom
// algorithm (one augmenting path search per unmatched vertex, O(V³)). The
// Swiss pairing asks it whether the players left after a bracket can all
// still be paired (criterion C.4), and the arena whether a pairing without
// a rematch exists.
type matcher struct {
	n       int
	adj     [][]int
	mate    []int
	parent  []int
	base    []int
	used    []bool
	blossom []bool
	queue   []int
}

// maxMatching returns mate: mate[v] is v's partner or -1, over vertices
// 0..n-1 joined when edge(u, v). A first greedy pass in vertex order gives
// the search a head start; the result is a maximum matching all the same.
func maxMatching(n int, edge func(u, v int) bool) []int {
	mate := make([]int, n)
	for u := range mate {
		mate[u] = -1
	}
	return augmentMatching(n, edge, mate)
}

// augmentMatching grows the matching mate (mate[v] = -1 for unmatched v;
// its pairs must be edges) into a maximum one, keeping as much of it as
// augmenting paths leave.
func augmentMatching(n int, edge func(u, v int) bool, mate []int) []int {
	m := &matcher{n: n, adj: make([][]int, n), mate: mate,
		parent: make([]int, n), base: make([]int, n), used: make([]bool, n), blossom: make([]bool, n)}
	for u := range n {
		for v := range n {
			if u != v && edge(u, v) {
				m.adj[u] = append(m.adj[u], v)
			}
		}
	}
	for u := range n {
		for _, v := range m.adj[u] {
			if m.mate[u] == -1 && m.mate[v] == -1 {
				m.mate[u], m.mate[v] = v, u
			}
		}
	}
	for u := range n {
		if m.mate[u] == -1 {
			m.augment(m.findPath(u))
		}
	}
	return m.mate
}

// matchingSize counts the pairs of mate.
func matchingSize(mate []int) int {
	k := 0
	for u, v := range mate {
		if v > u {
			k++
		}
	}
	return k
}

// augment flips the augmenting path that ends at v (none when v is -1).
func (m *matcher) augment(v int) {
	for v != -1 {
		pv := m.parent[v]
		next := m.mate[pv]
		m.mate[v], m.mate[pv] = pv, v
		v = next
	}
}

// lca is the base of the blossom that the edge a–b closes.
func (m *matcher) lca(a, b int) int {
	seen := make([]bool, m.n)
	for {
		a = m.base[a]
		seen[a] = true
		if m.mate[a] == -1 {
			break
		}
		a = m.parent[m.mate[a]]
	}
	for {
		b = m.base[b]
		if seen[b] {
			return b
		}
		b = m.parent[m.mate[b]]
	}
}

// markPath marks the blossom's vertices from v down to its base b.
func (m *matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.blossom[m.base[v]], m.blossom[m.base[m.mate[v]]] = true, true
		m.parent[v] = child
		child = m.mate[v]
		v = m.parent[m.mate[v]]
	}
}

// findPath searches an augmenting path from root and returns its free end
// (or -1), with parent links to follow back.
func (m *matcher) findPath(root int) int {
	for i := range m.n {
		m.used[i], m.parent[i], m.base[i] = false, -1, i
	}
	m.used[root] = true
	m.queue = append(m.queue[:0], root)
	for len(m.queue) > 0 {
		v := m.queue[0]
		m.queue = m.queue[1:]
		for _, to := range m.adj[v] {
			if m.base[v] == m.base[to] || m.mate[v] == to {
				continue
			}
			if to == root || m.mate[to] != -1 && m.parent[m.mate[to]] != -1 {
				m.contract(v, to)
				continue
			}
			if m.parent[to] == -1 {
				m.parent[to] = v
				if m.mate[to] == -1 {
					return to
				}
				m.used[m.mate[to]] = true
				m.queue = append(m.queue, m.mate[to])
			}
		}
	}
	return -1
}

// contract shrinks the blossom closed by the edge v–to into its base.
func (m *matcher) contract(v, to int) {
	b := m.lca(v, to)
	clear(m.blossom)
	m.markPath(v, b, to)
	m.markPath(to, b, v)
	for i := range m.n {
		if m.blossom[m.base[i]] {
			m.base[i] = b
			if !m.used[i] {
				m.used[i] = true
				m.queue = append(m.queue, i)
			}
		}
	}
}
