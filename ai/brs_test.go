package ai

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// brsValue is best-reply search written out plainly, without pruning,
// table or move ordering: the value for root of s searched depth plies
// deep, where r says whether an opponent of this round has replied or
// how many passed. An opponent passes the reply on only with more than a
// ply to go. Punt has no captures, so a quiet horizon is evaluated at
// once.
func brsValue(s game.State, root game.Player, depth, ply int, r replyState) int {
	moves := s.Moves(nil)
	child := func(m game.Move, depth int, r replyState) int {
		s.Play(m)
		defer s.Undo()
		return brsValue(s, root, depth, ply+1, r)
	}
	switch {
	case len(moves) == 0:
		return resultScore(s.Result(), root, ply)
	case depth == 0:
		return ownValue(s, root)
	case s.ToMove() != root && r == replied:
		return child(moves[greedyIndex(s, moves)], depth, replied)
	}
	if s.ToMove() == root {
		best := -infinity
		for _, m := range moves {
			best = max(best, child(m, depth-1, replyOpen))
		}
		return best
	}
	greedy := moves[greedyIndex(s, moves)]
	worst := infinity
	for _, m := range moves {
		worst = min(worst, child(m, depth-1, replied))
	}
	players := s.Game().Players()
	s.Play(greedy)
	passes := depth > 1 && int(r)+2 < players && s.ToMove() != root
	s.Undo()
	if passes {
		worst = min(worst, child(greedy, depth, r+1))
	}
	return worst
}

// ownValue is p's score less the best other's, or a finished game's
// result for p.
func ownValue(s game.State, p game.Player) int {
	if r := s.Result(); r.Over() {
		return resultScore(r, p, 0)
	}
	sc := s.(game.Evaluator).Evaluate()
	other := -infinity
	for q := range s.Game().Players() {
		if game.Player(q) != p {
			other = max(other, sc[q])
		}
	}
	return sc[p] - other
}

// greedyIndex is the first of the moves that leave the mover best off by
// its own evaluation.
func greedyIndex(s game.State, moves []game.Move) int {
	me, best, at := s.ToMove(), 0, -1
	for i, m := range moves {
		s.Play(m)
		v := ownValue(s, me)
		s.Undo()
		if at < 0 || v > best {
			best, at = v, i
		}
	}
	return at
}

// TestBestReplyExact: ab's best-reply search, with its pruning, table,
// ordering and passes, finds the value the plain definition gives, at
// every depth up to 3 (4 in the full run), in a middle game of the
// three-player game (the plain search of depth 4 takes half a minute).
func TestBestReplyExact(t *testing.T) {
	skipUnderRace(t)
	maxDepth, plieses := 4, []int{40}
	if testing.Short() {
		maxDepth, plieses = 3, []int{40}
	}
	for _, plies := range plieses {
		s := midGame(t, "punt-heks-match-3p", plies)
		if len(s.Moves(nil)) == 0 {
			t.Fatalf("the game after %d plies is over", plies)
		}
		for depth := 1; depth <= maxDepth; depth++ {
			want := brsValue(s.Clone(), s.ToMove(), depth, 0, replyOpen)
			info := mustEngine(t, "ab:nplayer=brs").Search(context.Background(), s, Limits{Depth: depth}, nil)
			if info.Score != want {
				t.Errorf("after %d plies, depth %d: ab scores %d, best-reply search %d", plies, depth, info.Score, want)
			}
		}
	}
}

// TestParanoidIsTheDefault: with three players ab searches paranoid
// unless told brs (best-reply search lost its SPRT: docs/strength.md),
// and the two search different trees; with two players nplayer changes
// nothing.
func TestParanoidIsTheDefault(t *testing.T) {
	s := midGame(t, "punt-heks-match-3p", 9)
	search := func(spec string) Info {
		return mustEngine(t, spec).Search(context.Background(), s, Limits{Depth: 4}, nil)
	}
	def, brs, paranoid := search("ab"), search("ab:nplayer=brs"), search("ab:nplayer=paranoid")
	if def.Score != paranoid.Score || def.Nodes != paranoid.Nodes {
		t.Errorf("ab: %d (%d nodes), ab:nplayer=paranoid: %d (%d nodes); want the same search", def.Score, def.Nodes, paranoid.Score, paranoid.Nodes)
	}
	if paranoid.Nodes == brs.Nodes {
		t.Errorf("paranoid and best-reply search the same tree (%d, %d nodes)", brs.Score, brs.Nodes)
	}
	two := midGame(t, "punt-heks-match", 9)
	a := mustEngine(t, "ab:nplayer=paranoid").Search(context.Background(), two, Limits{Depth: 4}, nil)
	b := mustEngine(t, "ab:nplayer=brs").Search(context.Background(), two, Limits{Depth: 4}, nil)
	if a.Score != b.Score || a.Nodes != b.Nodes || a.Move != b.Move {
		t.Errorf("two players: paranoid %v %d (%d nodes), brs %v %d (%d nodes); want the same", a.Move, a.Score, a.Nodes, b.Move, b.Score, b.Nodes)
	}
}

// TestLevelsThreePlayers: with three players a level searches its own
// depth (the table's depthN) and finds what ab searching so finds; a
// level whose every move is at random never searches; with two players
// the same level searches its two-player depth.
func TestLevelsThreePlayers(t *testing.T) {
	s := midGame(t, "punt-heks-match-3p", 9)
	lim := Limits{MoveTime: 5 * time.Second}
	for n := 1; n < len(levels)-1; n++ {
		l := levels[n]
		spec := fmt.Sprintf("ab:depth=%d", l.depthN)
		want := mustEngine(t, spec).Search(context.Background(), s, lim, nil)
		level := mustEngine(t, fmt.Sprintf("ai:level=%d", n))
		searched := false
		for range 40 { // a chance move is one node; at most 80% are
			got := level.Search(context.Background(), s, lim, nil)
			if got.Nodes == 1 {
				continue
			}
			searched = true
			if got.Depth != want.Depth || got.Score != want.Score {
				t.Errorf("level %d: depth %d score %d; %s: depth %d score %d", n, got.Depth, got.Score, spec, want.Depth, want.Score)
			}
			break
		}
		if searched != (l.blunderN < 1) {
			t.Errorf("level %d (%.0f%% at random): searched %v in 40 moves", n, 100*l.blunderN, searched)
		}
	}
	two := midGame(t, "punt-heks-match", 9)
	if got := mustEngine(t, "ai:level=4").Search(context.Background(), two, lim, nil); got.Depth != levels[4].depth {
		t.Errorf("two players: level 4 searched to depth %d, want %d", got.Depth, levels[4].depth)
	}
}
