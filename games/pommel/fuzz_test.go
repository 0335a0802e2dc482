package pommel_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

var ids = []string{"pommel", "pommel-76"}

// pieceCounts counts each player's pieces through the public API.
func pieceCounts(s game.State) [2]int {
	var n [2]int
	for c := 0; c < s.Game().Board().Len(); c++ {
		if p := s.Owner(board.Cell(c)); p != game.NoPlayer {
			n[p]++
		}
	}
	return n
}

// pieceInvariant: pieces never appear; the mover never loses a piece; a
// capture takes at least one enemy piece and a non-capture none.
func pieceInvariant(before, after game.State, m game.Move) error {
	me, them := before.ToMove(), 1-before.ToMove()
	b, a := pieceCounts(before), pieceCounts(after)
	switch {
	case a[me] != b[me]:
		return fmt.Errorf("the mover had %d pieces and has %d", b[me], a[me])
	case m.IsCapture() && a[them] >= b[them]:
		return fmt.Errorf("a capture left the opponent %d pieces of %d", a[them], b[them])
	case !m.IsCapture() && a[them] != b[them]:
		return fmt.Errorf("a non-capture changed the opponent's pieces from %d to %d", b[them], a[them])
	case after.ToMove() != them:
		return fmt.Errorf("%v to move after %v moved", after.ToMove(), me)
	}
	return nil
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 2 // eight games of up to 600 plies, every check at every ply
	}
	for _, id := range ids {
		for _, hop := range []string{"hop=friendly", "hop=any"} {
			g := gametest.NewGame(t, id, hop)
			rng := rand.New(rand.NewPCG(42, uint64(len(id))))
			for i := 0; i < n; i++ {
				gametest.RandomGame(t, g.Start(), rng, 600, pieceInvariant)
			}
		}
	}
}

// FuzzRandomGame plays a random game chosen by the fuzzer's seed and checks
// the conformance suite and the piece invariant at every move.
func FuzzRandomGame(f *testing.F) {
	f.Add(uint64(1), uint8(0), false)
	f.Add(uint64(2), uint8(1), true)
	f.Fuzz(func(t *testing.T, seed uint64, board uint8, hopAny bool) {
		hop := "hop=friendly"
		if hopAny {
			hop = "hop=any"
		}
		g := gametest.NewGame(t, ids[int(board)%len(ids)], hop)
		gametest.RandomGame(t, g.Start(), rand.New(rand.NewPCG(seed, seed>>32)), 600, pieceInvariant)
	})
}

// FuzzParseFEN: any text either parses to a position that passes the
// conformance checks and writes itself back the same, or is an error.
func FuzzParseFEN(f *testing.F) {
	for _, fen := range []string{"W:Wa1,a2:Bg6", "B:WKa1,d3:BKd1,g5", "W:W:B", "W:Wb7", "W:Wa1,a1", "X", ":::", "W:Wa1,,", "B:WKe5:BKe4,e3"} {
		f.Add(fen, false)
	}
	f.Fuzz(func(t *testing.T, fen string, big bool) {
		id := ids[0]
		if big {
			id = ids[1]
		}
		g := gametest.NewGame(t, id)
		gametest.CheckParseFEN(t, g, fen)
	})
}

// FuzzParseMove: any text is either the notation of a legal move (after
// the accepted ':' spelling) or an error that quotes it.
func FuzzParseMove(f *testing.F) {
	positions := []string{
		"W:Wa1,a2,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6",
		"W:Wd3:Bd4,c4,c3,d2",
		"W:WKd1:Bd4,f6",
		"B:WKa2,Ka3:BKg6,Kf1,Kc5",
	}
	for _, m := range []string{"d3xd5xb4xd3xd1", "d1:d5:g6", "a1-a3", "g6-g5", "", "x", "a1-", "-a1", "a1@b2", "A1-A3", "a1xa2-a3", "d3xd5xb4xd3xd1xd3xd5xb4xd3xd1xd3xd5xb4xd3xd1xd3xd5xb4xd3xd1xd3xd5"} {
		f.Add(uint8(0), m)
	}
	f.Fuzz(func(t *testing.T, pos uint8, text string) {
		s := gametest.MustParse(t, gametest.NewGame(t, "pommel"), positions[int(pos)%len(positions)])
		gametest.CheckParseMove(t, s, text)
	})
}
