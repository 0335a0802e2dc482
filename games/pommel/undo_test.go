package pommel

import (
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// snapshot is everything a move changes in a State.
type snapshot struct {
	pos position
	ply int
}

func snap(s *State) snapshot { return snapshot{s.pos, s.ply} }

// slowRepeats counts the occurrences of the current position in the whole
// game so far, by the hashes of every earlier position.
func slowRepeats(s *State, history []snapshot) int {
	n := 1
	for _, h := range history {
		if h.pos.hash == s.pos.hash {
			n++
		}
	}
	return n
}

// choose picks a random move, or with backAndForth mostly the move that
// takes back the mover's last one (given played, the moves so far) when
// there is one, so that positions repeat.
func choose(moves, played []game.Move, rng *rand.Rand, backAndForth bool) game.Move {
	if backAndForth && len(played) >= 2 && rng.IntN(4) > 0 {
		last := played[len(played)-2]
		for _, m := range moves {
			if m.From() == last.To() && m.To() == last.From() && !m.IsCapture() {
				return m
			}
		}
	}
	return moves[rng.IntN(len(moves))]
}

// playAndUndo plays the moves of opening, then a random game of up to
// maxPlies from s (see choose), checking the
// repetition count at every ply against slowRepeats, then takes every move
// back, checking that each Undo restores the position, its hash, counts,
// ply and since exactly. It returns how many positions had occurred
// before.
func playAndUndo(t *testing.T, s *State, rng *rand.Rand, maxPlies int, opening []string, backAndForth bool) (repeated int) {
	t.Helper()
	var history []snapshot
	var played []game.Move
	for len(history) < maxPlies {
		got, want := s.repeats(), slowRepeats(s, history)
		if got != want {
			t.Fatalf("%s after %d plies: repeats %d, want %d", s.FEN(), len(history), got, want)
		}
		if got > 1 {
			repeated++
		}
		moves := s.Moves(nil)
		if len(moves) == 0 {
			break
		}
		history = append(history, snap(s))
		m := choose(moves, played, rng, backAndForth)
		if len(played) < len(opening) {
			var err error
			if m, err = game.ParseMove(s, opening[len(played)]); err != nil {
				t.Fatal(err)
			}
		}
		played = append(played, m)
		s.Play(played[len(played)-1])
	}
	for i := len(history) - 1; i >= 0; i-- {
		if !s.Undo() {
			t.Fatalf("Undo failed with %d moves to take back", i+1)
		}
		if got := snap(s); got != history[i] {
			t.Fatalf("Undo back to ply %d: got %+v, want %+v", i, got, history[i])
		}
	}
	if s.Undo() {
		t.Fatal("Undo went back past the first position")
	}
	return repeated
}

// TestUndoRestoresEverything plays random games on both boards, with
// either hop option and with the pie rule, from the start and from random
// positions full of captains (whose captures take captains), and from a
// few captains that mostly slide back and forth (repeating positions), and
// undoes them.
func TestUndoRestoresEverything(t *testing.T) {
	games, n := maskGames(t), 6
	if testing.Short() {
		n = 2
	}
	for _, id := range []string{"pommel", "pommel-76"} {
		g, err := game.New(id, map[string]string{"swap": "on"})
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g.(*Game))
	}
	// Captains alone, to slide back and forth from, and the first two
	// moves (a random one is often a capture, and the cycle never starts).
	// On the 76-cell board, no such start was found: see TestWideRepeats.
	cycles := map[string]struct {
		fen     string
		opening []string
	}{
		"pommel": {"W:WKa2,Ka3:BKg6,Kf1,Kc5", []string{"a2-b3", "g6-g5"}},
	}
	repeated := map[string]int{}
	for gi, g := range games {
		rng := rand.New(rand.NewPCG(uint64(gi), 24))
		for range n {
			playAndUndo(t, g.NewState(), rng, 400, nil, false)
			playAndUndo(t, randomPosition(g, rng, 8, 0.7), rng, 200, nil, false)
			if cycle, ok := cycles[g.ID()]; ok {
				s, err := g.parseFEN(cycle.fen)
				if err != nil {
					t.Fatal(err)
				}
				repeated[g.ID()] += playAndUndo(t, s, rng, 200, cycle.opening, true)
			}
		}
	}
	for id := range cycles {
		if repeated[id] == 0 {
			t.Errorf("%s: no position repeated: the repetition count went untested", id)
		}
	}
}

// TestWideRepeats checks the repetition count on the 76-cell board's
// records (whole positions) by hashes laid on the stack directly: the
// random games above seldom repeat a position there.
func TestWideRepeats(t *testing.T) {
	g, err := game.New("pommel-76", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		hashes []uint64 // of the positions before the current one
		since  int
		want   int
	}{
		{"no history", nil, 0, 1},
		{"two plies back", []uint64{7, 8}, 0, 2},
		{"one ply back does not count", []uint64{8, 7}, 0, 1},
		{"third occurrence", []uint64{7, 8, 7, 8}, 0, 3},
		{"not before since", []uint64{7, 8, 7, 8}, 2, 2},
		{"since at the current position", []uint64{7, 8, 7, 8}, 4, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := g.(*Game).NewState()
			for _, h := range tc.hashes {
				s.pos.hash = h
				s.positions = append(s.positions, s.pos)
			}
			s.pos.hash, s.ply, s.pos.since = 7, len(tc.hashes), int32(tc.since)
			if got := s.repeats(); got != tc.want {
				t.Errorf("repeats %d, want %d", got, tc.want)
			}
		})
	}
}
