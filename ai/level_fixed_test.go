package ai

import (
	"context"
	"testing"
	"time"
)

// TestLevelsAreFixedSearches: a level searches the same amount whatever
// time it is given, so that its strength does not depend on the machine's
// load: level 6, its nodes made few enough that no machine reaches its
// time cap, stops at its nodes with an hour to think, and finds the same
// move with the same count of nodes with no limit at all; a caller's
// smaller limit still caps it; level 6's own limits are a million nodes
// and a 3 s cap, whatever the caller gives.
func TestLevelsAreFixedSearches(t *testing.T) {
	s := newState(t, "pommel", "")
	const nodes = 20_000
	search := func(lim Limits) Info {
		l := newLevel("ai:level=6", 1, 6)
		l.nodes = nodes
		return l.Search(context.Background(), s, lim, nil)
	}
	long := search(Limits{MoveTime: time.Hour})
	if long.Nodes > nodes || long.Nodes < nodes/4 {
		t.Fatalf("level 6 with an hour searched %d nodes, want up to its %d", long.Nodes, nodes)
	}
	if again := search(Limits{}); again.Move != long.Move || again.Nodes != long.Nodes || again.Depth != long.Depth {
		t.Errorf("level 6 with no limit: %v, %d nodes, depth %d; with an hour %v, %d nodes, depth %d",
			again.Move, again.Nodes, again.Depth, long.Move, long.Nodes, long.Depth)
	}
	if capped := search(Limits{Nodes: 2_000}); capped.Nodes > 2_000 {
		t.Errorf("level 6 given 2,000 nodes searched %d", capped.Nodes)
	}
	l := newLevel("ai:level=6", 1, 6)
	if lim := l.limits(Limits{MoveTime: time.Hour, Nodes: 1 << 40}, MaxDepth, l.nodes); lim.MoveTime != 3*time.Second || lim.Nodes != Level6Nodes {
		t.Errorf("level 6 given an hour and 2^40 nodes keeps %s and %d nodes, want its 3s cap and %d", lim.MoveTime, lim.Nodes, Level6Nodes)
	}
	if lim := l.limits(Limits{MoveTime: time.Second, Nodes: 5}, MaxDepth, l.nodes); lim.MoveTime != time.Second || lim.Nodes != 5 {
		t.Errorf("level 6 given 1s and 5 nodes keeps %s and %d nodes, want the caller's", lim.MoveTime, lim.Nodes)
	}
}
