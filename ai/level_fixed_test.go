package ai

import (
	"context"
	"testing"
	"time"
)

// TestLevelsAreFixedSearches: a level searches the same amount whatever
// time it is given, so that its strength does not depend on the machine's
// load: level 6 stops at its nodes with an hour to think, and two
// engines of one level and seed find the same move with the same count of
// nodes; a caller's smaller limit still caps it.
func TestLevelsAreFixedSearches(t *testing.T) {
	s := newState(t, "pommel", "")
	search := func(lim Limits) Info {
		return mustEngine(t, "ai:level=6").Search(context.Background(), s, lim, nil)
	}
	long := search(Limits{MoveTime: time.Hour})
	if long.Nodes > Level6Nodes || long.Nodes < Level6Nodes/4 {
		t.Fatalf("level 6 with an hour searched %d nodes, want up to its %d", long.Nodes, Level6Nodes)
	}
	if again := search(Limits{}); again.Move != long.Move || again.Nodes != long.Nodes || again.Depth != long.Depth {
		t.Errorf("level 6 with no limit: %v, %d nodes, depth %d; with an hour %v, %d nodes, depth %d",
			again.Move, again.Nodes, again.Depth, long.Move, long.Nodes, long.Depth)
	}
	if capped := search(Limits{Nodes: 10_000}); capped.Nodes > 10_000 {
		t.Errorf("level 6 given 10,000 nodes searched %d", capped.Nodes)
	}
	if lim := newLevel("ai:level=6", 1, 6).limits(Limits{MoveTime: time.Hour}, MaxDepth, Level6Nodes); lim.MoveTime != 3*time.Second {
		t.Errorf("level 6 given an hour keeps %s, want its 3s cap", lim.MoveTime)
	}
}
