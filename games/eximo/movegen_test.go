package eximo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/eximo"
)

// TestQuickChecksAgreeWithMoves compares the answers found by masks
// without listing moves with the list itself, at every position of random
// games from the start and from the perft table's positions: HasCapture
// is true exactly when Moves lists captures (and then only captures),
// HasMove exactly when the list is not empty, and Result says "no moves"
// exactly when the list is empty while both sides have men.
func TestQuickChecksAgreeWithMoves(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 6
	}
	g := newGame(t)
	rng := rand.New(rand.NewPCG(64, 8))
	var captures, quiet, stuck int
	for _, fen := range append(fuzzStarts(), stuckFEN, sidewaysOnlyFEN) {
		for range n {
			s := gametest.Position(t, g, fen).(*eximo.State)
			for ply := 0; ply < 600; ply++ {
				moves := s.Moves(nil)
				checkQuickChecks(t, s, moves)
				switch {
				case len(moves) == 0:
					stuck++
				case s.HasCapture():
					captures++
				default:
					quiet++
				}
				if len(moves) == 0 {
					break
				}
				s.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
	if captures == 0 || quiet == 0 || stuck == 0 {
		t.Errorf("positions with captures %d, quiet %d, without moves %d: each kind must occur", captures, quiet, stuck)
	}
}

// stuckFEN is a position where Black, to move, has a man and no move: the
// man on d7 faces White's men on c8, d8 and e8 (White's own back row),
// with nothing beyond them to land on and nothing beside it to take.
const stuckFEN = "B:Wc8,d8,e8,a5:Bd7"

// sidewaysOnlyFEN is stuckFEN with a White man on c7: Black's only move
// is the sideways capture d7xb7, so no step exists and yet Black can move.
const sidewaysOnlyFEN = "B:Wc7,c8,d8,e8,a5:Bd7"

func checkQuickChecks(t *testing.T, s *eximo.State, moves []game.Move) {
	t.Helper()
	capture := len(moves) > 0 && moves[0].IsCapture()
	if s.HasCapture() != capture {
		t.Fatalf("%s: HasCapture %v, but the first of %d moves is a capture: %v", s.FEN(), s.HasCapture(), len(moves), capture)
	}
	for _, m := range moves {
		if m.IsCapture() != capture {
			t.Fatalf("%s: captures and other moves mixed in %v", s.FEN(), gametest.RuleMoves(s))
		}
	}
	if s.HasMove() != (len(moves) > 0) {
		t.Fatalf("%s: HasMove %v with %d moves", s.FEN(), s.HasMove(), len(moves))
	}
	me := s.ToMove()
	bothHaveMen := s.Count(me) > 0 && s.Count(1-me) > 0
	if noMoves := s.Result().Reason == game.NoMoves; noMoves != (bothHaveMen && len(moves) == 0) {
		t.Fatalf("%s: Result %v with %d moves", s.FEN(), s.Result(), len(moves))
	}
}

// BenchmarkPlayoutWithResult plays random games as the bench command's
// playouts do: through the game.State interface, Result at every ply.
func BenchmarkPlayoutWithResult(b *testing.B) {
	gametest.BenchGames(b, newGame(b))
}

// BenchmarkHasCapture measures the capture test an engine asks at the
// leaves, on a crowded position of the perft table.
func BenchmarkHasCapture(b *testing.B) {
	s := gametest.Position(b, newGame(b), perftTable[3].fen).(*eximo.State)
	for b.Loop() {
		s.HasCapture()
	}
}
