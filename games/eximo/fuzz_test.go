package eximo_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// farRow tells whether c is p's far row (rank 8 for Black, player 0; rank
// 1 for White), zone whether it is in p's drop zone (files b-g of p's two
// home ranks). Both are written from RULINGS, through board coordinates.
func farRow(b *board.Board, p game.Player, c board.Cell) bool {
	_, y := b.Coord(c)
	return p == 0 && y == 7 || p == 1 && y == 0
}

func zone(b *board.Board, p game.Player, c board.Cell) bool {
	x, y := b.Coord(c)
	home := p == 0 && y <= 1 || p == 1 && y >= 6
	return home && x >= 1 && x <= 6
}

// pieceInvariant: men never appear from nowhere and never vanish unless
// the rules say so. Exactly:
//
//   - the opponent loses one man per jump of a capture (Len-1), and no
//     other change touches the opponent's men;
//   - the mover's count changes only on the far row: minus the man that
//     leaves, plus its drops;
//   - drops happen only when the man lands on the far row, and then there
//     are min(2, empty zone squares after the move) of them, in cell order,
//     on zone squares that are empty after the rest of the move;
//   - cell by cell, the board after is the board before with the start
//     emptied, the jumped men removed, the landing filled unless it is the
//     far row, and the drops filled.
func pieceInvariant(before, after game.State, m game.Move) error {
	b := before.Game().Board()
	me, them := before.ToMove(), 1-before.ToMove()
	if after.ToMove() != them {
		return fmt.Errorf("%v to move after %v moved", after.ToMove(), me)
	}
	// The expected board, built from the move's own cells.
	want := make([]game.Player, b.Len())
	for c := range want {
		want[c] = before.Owner(board.Cell(c))
	}
	if want[m.From()] != me {
		return fmt.Errorf("the move starts on %s, which is not the mover's", b.Name(m.From()))
	}
	want[m.From()] = game.NoPlayer
	captured := 0
	if m.IsCapture() {
		for i := 1; i < m.Len(); i++ {
			x0, y0 := b.Coord(m.At(i - 1))
			x1, y1 := b.Coord(m.At(i))
			mid := board.Cell((y0+y1)/2*8 + (x0+x1)/2)
			if want[mid] != them {
				return fmt.Errorf("jump %d passes %s, which holds no enemy man", i, b.Name(mid))
			}
			want[mid] = game.NoPlayer
			captured++
		}
	}
	leaves := farRow(b, me, m.To())
	for i := 1; i < m.Len()-1; i++ {
		if farRow(b, me, m.At(i)) {
			return fmt.Errorf("the move goes on after landing on the far row at %s", b.Name(m.At(i)))
		}
	}
	if !leaves {
		want[m.To()] = me
	}
	free := 0
	for c := range want {
		if zone(b, me, board.Cell(c)) && want[c] == game.NoPlayer {
			free++
		}
	}
	drops := m.Drops()
	switch {
	case !leaves && len(drops) > 0:
		return fmt.Errorf("drops without reaching the far row")
	case leaves && len(drops) != min(2, free):
		return fmt.Errorf("%d drops with %d empty zone squares", len(drops), free)
	case len(drops) == 2 && drops[0] >= drops[1]:
		return fmt.Errorf("drops not in cell order")
	}
	for _, d := range drops {
		if !zone(b, me, d) || want[d] != game.NoPlayer {
			return fmt.Errorf("drop on %s, not an empty square of the zone", b.Name(d))
		}
		want[d] = me
	}
	for c := range want {
		if got := after.Owner(board.Cell(c)); got != want[c] {
			return fmt.Errorf("%s holds %v, want %v", b.Name(board.Cell(c)), got, want[c])
		}
	}
	// The same, as counts.
	bc, ac := pieceCounts(before), pieceCounts(after)
	lost := 0
	if leaves {
		lost = 1
	}
	if ac[them] != bc[them]-captured || ac[me] != bc[me]-lost+len(drops) {
		return fmt.Errorf("counts %v became %v", bc, ac)
	}
	return nil
}

func pieceCounts(s game.State) [2]int {
	var n [2]int
	for c := 0; c < s.Game().Board().Len(); c++ {
		if p := s.Owner(board.Cell(c)); p != game.NoPlayer {
			n[p]++
		}
	}
	return n
}

// fuzzStarts are positions random games start from: the start, and the
// perft table's positions.
func fuzzStarts() []string {
	fens := []string{""}
	for _, tc := range perftTable {
		if tc.fen != "" {
			fens = append(fens, tc.fen)
		}
	}
	return fens
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 3 // from each start, every check at every ply
	}
	g := newGame(t)
	rng := rand.New(rand.NewPCG(2, 13))
	for _, fen := range fuzzStarts() {
		for range n {
			gametest.RandomGame(t, gametest.Position(t, g, fen), rng, 600, pieceInvariant)
		}
	}
}

// FuzzRandomGame plays a random game chosen by the fuzzer's seed and checks
// the conformance suite and the piece invariant at every move.
func FuzzRandomGame(f *testing.F) {
	f.Add(uint64(1), uint8(0))
	f.Add(uint64(2), uint8(1))
	f.Add(uint64(3), uint8(6))
	f.Fuzz(func(t *testing.T, seed uint64, start uint8) {
		starts := fuzzStarts()
		s := gametest.Position(t, newGame(t), starts[int(start)%len(starts)])
		gametest.RandomGame(t, s, rand.New(rand.NewPCG(seed, seed>>32)), 600, pieceInvariant)
	})
}

// FuzzParseFEN: any text either parses to a position that passes the
// conformance checks and writes itself back the same, or is an error.
func FuzzParseFEN(f *testing.F) {
	for _, fen := range []string{
		"B:Wb6,c6,f6,g6,b7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bb1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2,b3,c3,f3,g3",
		"W:Wd5:Bd4", "B:W:B", "B:Bd4:Wd5", "W:Wa1", "B:Wa8:Bh1", "B:WKd5:Bd4", "X", ":::", "B:Wa5,,", "W:Wa5,a5:Bb2",
	} {
		f.Add(fen)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		g := newGame(t)
		gametest.CheckParseFEN(t, g, fen)
	})
}

// FuzzParseMove: any text is either the notation of a legal move (after
// the accepted ':' spelling) or an error that quotes it.
func FuzzParseMove(f *testing.F) {
	for _, m := range []string{"b1-d3", "c2-c4-e6", "d4xd6xd8", "d4:d6:d8", "d7-d8@b1@c2", "d7-d8@c2@b1", "d7-d8@", "@b1",
		"b2xd2xd4xd6xd8@b2@c2", "", "x", "a1-", "-a1", "A1-A3", "a1xa2-a3", "d7-d8@b1@c2@d2", "d7-d8@z9"} {
		f.Add(uint8(0), m)
	}
	f.Fuzz(func(t *testing.T, pos uint8, text string) {
		starts := fuzzStarts()
		s := gametest.Position(t, newGame(t), starts[int(pos)%len(starts)])
		gametest.CheckParseMove(t, s, text)
	})
}
