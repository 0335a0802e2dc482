package pommel

import (
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// snapshot is everything a move changes in a State.
type snapshot struct {
	pos        position
	ply, since int
}

func snap(s *State) snapshot { return snapshot{s.pos, s.ply, s.since} }

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
	repeated := 0
	for gi, g := range games {
		rng := rand.New(rand.NewPCG(uint64(gi), 24))
		for range n {
			playAndUndo(t, g.NewState(), rng, 400, nil, false)
			playAndUndo(t, randomPosition(g, rng, 8, 0.7), rng, 200, nil, false)
			if g.ID() != "pommel" {
				continue // the FEN's cells are the 45-cell board's
			}
			s, err := g.parseFEN("W:WKa2,Ka3:BKg6,Kf1,Kc5")
			if err != nil {
				t.Fatal(err)
			}
			repeated += playAndUndo(t, s, rng, 200, []string{"a2-b3", "g6-g5"}, true)
		}
	}
	if repeated == 0 {
		t.Error("no position repeated: the repetition count went untested")
	}
}
