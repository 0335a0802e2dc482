package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// midGame plays plies random moves (a fixed seed) from the start of id.
func midGame(t *testing.T, id string, plies int) game.State {
	t.Helper()
	s := newState(t, id, "")
	rng := rand.New(rand.NewPCG(uint64(plies), 7))
	for range plies {
		moves := s.Moves(nil)
		if len(moves) == 0 {
			break
		}
		s.Play(moves[rng.IntN(len(moves))])
	}
	return s
}

// TestSearchLinesExact: at a fixed depth, each of the n lines has the
// score a search of its move alone gives, no other move scores better
// than the last of them, the best agrees with Search, and the lines are
// distinct moves, best first.
func TestSearchLinesExact(t *testing.T) {
	skipUnderRace(t)
	const n = 3
	depth, plieses := 4, []int{0, 9, 20}
	if testing.Short() {
		depth, plieses = 3, []int{9} // -short: one middle game each, a ply less; the full run tries three
	}
	for _, id := range []string{"pommel", "checkers-2011", "eximo", "punt-match"} {
		for _, plies := range plieses {
			s := midGame(t, id, plies)
			root := s.Moves(nil)
			if len(root) < 2 {
				continue
			}
			info := mustEngine(t, "ab").(LineSearcher).SearchLines(context.Background(), s, Limits{Depth: depth}, n, nil)
			if info.Err != nil || info.Depth != depth {
				t.Fatalf("%s after %d plies: depth %d, error %v", id, plies, info.Depth, info.Err)
			}
			lines := info.Lines
			if len(lines) != min(n, len(root)) {
				t.Fatalf("%s after %d plies: %d lines of %d moves, want %d", id, plies, len(lines), len(root), min(n, len(root)))
			}
			if plain := mustEngine(t, "ab").Search(context.Background(), s, Limits{Depth: depth}, nil); plain.Score != lines[0].Score {
				t.Errorf("%s after %d plies: the best line scores %d, Search %d", id, plies, lines[0].Score, plain.Score)
			}
			if info.Move != lines[0].PV[0] || info.Score != lines[0].Score {
				t.Errorf("%s after %d plies: the answer %v %d is not the first line", id, plies, info.Move, info.Score)
			}
			for _, m := range root {
				alone := moveScore(t, s, m, depth)
				i := slices.IndexFunc(lines, func(l Line) bool { return l.PV[0] == m })
				switch {
				case i >= 0 && lines[i].Score != alone:
					t.Errorf("%s after %d plies: line %d (%s) scores %d, alone %d", id, plies, i, m.Text(s.Game().Board()), lines[i].Score, alone)
				case i < 0 && alone > lines[len(lines)-1].Score:
					t.Errorf("%s after %d plies: %s scores %d, above the last line's %d", id, plies, m.Text(s.Game().Board()), alone, lines[len(lines)-1].Score)
				}
			}
			for i := 1; i < len(lines); i++ {
				if lines[i].Score > lines[i-1].Score || lines[i].PV[0] == lines[i-1].PV[0] {
					t.Errorf("%s after %d plies: lines %d and %d out of order or alike: %d, %d", id, plies, i-1, i, lines[i-1].Score, lines[i].Score)
				}
			}
		}
	}
}

// moveScore is the score of playing m in s, searched to depth in all, by
// a fresh engine: the opponent's score of the position after, negated.
func moveScore(t *testing.T, s game.State, m game.Move, depth int) int {
	t.Helper()
	after := s.Clone()
	after.Play(m)
	if r := after.Result(); r.Over() {
		return resultScore(r, s.ToMove(), 1)
	}
	info := mustEngine(t, "ab").Search(context.Background(), after, Limits{Depth: depth - 1}, nil)
	score := -info.Score
	// A win is scored by its distance from the root, one ply further
	// from s than from after.
	switch {
	case score > Mate-MaxDepth:
		score--
	case score < -Mate+MaxDepth:
		score++
	}
	return score
}

// TestSearchLinesReports: three players (paranoid) and a count above the
// moves: each completed depth is reported with its lines, as many as the
// moves when fewer than asked, and the best agrees with Search.
func TestSearchLinesReports(t *testing.T) {
	const depth = 3
	s := midGame(t, "punt-heks-match-3p", 6)
	root := s.Moves(nil)
	var depths []int
	info := mustEngine(t, "ab").(LineSearcher).SearchLines(context.Background(), s, Limits{Depth: depth}, len(root)+4, func(i Info) {
		depths = append(depths, i.Depth)
		if len(i.Lines) != len(root) {
			t.Errorf("depth %d: %d lines, want one per move (%d)", i.Depth, len(i.Lines), len(root))
		}
	})
	if !slices.Equal(depths, []int{1, 2, 3}) {
		t.Errorf("reported depths %v, want 1 to %d", depths, depth)
	}
	plain := mustEngine(t, "ab").Search(context.Background(), s, Limits{Depth: depth}, nil)
	if info.Score != plain.Score {
		t.Errorf("the best line scores %d, Search %d", info.Score, plain.Score)
	}
	seen := map[game.Move]bool{}
	for i, l := range info.Lines {
		if seen[l.PV[0]] || i > 0 && l.Score > info.Lines[i-1].Score {
			t.Errorf("line %d: %v scores %d, repeated or above the line before", i, l.PV[0], l.Score)
		}
		seen[l.PV[0]] = true
	}
}

// TestSearchLinesStopped: a search stopped at once still names a move.
func TestSearchLinesStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := newState(t, "pommel", "")
	info := mustEngine(t, "ab").(LineSearcher).SearchLines(ctx, s, Limits{}, 3, nil)
	if len(info.Lines) == 0 || !slices.Contains(s.Moves(nil), info.Move) {
		t.Errorf("a stopped search answered %v with %d lines", info.Move, len(info.Lines))
	}
}

// TestAllDecided: a line scored as a forced result further than the
// search's own depth (a table's long win) ends the deepening only when
// the search has tables.
func TestAllDecided(t *testing.T) {
	near, far := []Line{{Score: Mate - 10}, {Score: -Mate + 12}}, []Line{{Score: Mate - 10}, {Score: Mate - 100}}
	for _, tc := range []struct {
		lines  []Line
		tables bool
		want   bool
	}{
		{near, false, true}, {near, true, true},
		{far, false, false}, {far, true, true},
		{[]Line{{Score: Mate - 10}, {Score: 35}}, true, false},
	} {
		if got := allDecided(tc.lines, tc.tables); got != tc.want {
			t.Errorf("allDecided(%v, tables %v) = %v, want %v", tc.lines, tc.tables, got, tc.want)
		}
	}
}
