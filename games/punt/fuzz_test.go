package punt_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/punt"
)

var ids = []string{"punt-match", "punt-heks-match", "punt-heks-match-3p"}

// pawnCounts counts the pawns of each colour and the piles, through the
// public Stacker view.
func pawnCounts(s game.State) (pawns [game.MaxPlayers]int, piles int) {
	st := s.(game.Stacker)
	var buf []game.Piece
	for c := 0; c < s.Game().Board().Len(); c++ {
		buf = st.Stack(board.Cell(c), buf[:0])
		if len(buf) > 0 {
			piles++
		}
		for _, p := range buf {
			pawns[p.Owner]++
		}
	}
	return pawns, piles
}

// pileInvariant checks one move against RULINGS section 4 through the
// public API: no pawn appears or disappears; the mover moved a pile they
// controlled, off their own end-row, in one of their forward or sideways
// directions, no further than its height allows, across empty cells; the
// whole pile now lies on top of what was on the landing cell; the next
// player in turn order moves.
func pileInvariant(before, after game.State, m game.Move) error {
	g := before.Game().(*punt.Game)
	b := g.Board()
	me := before.ToMove()
	from, to := m.From(), m.To()
	pb, nb := pawnCounts(before)
	pa, na := pawnCounts(after)
	moving := before.(game.Stacker).Stack(from, nil)
	under := before.(game.Stacker).Stack(to, nil)
	landed := after.(game.Stacker).Stack(to, nil)
	fwd, side := g.Directions(me)
	d, line := b.DirTo(from, to)
	dist := 0
	for _, x := range b.Ray(from, d) {
		dist++
		if x == to {
			break
		}
		if before.Owner(x) != game.NoPlayer {
			return fmt.Errorf("the pile crossed the pile on %s", b.Name(x))
		}
	}
	reach := map[int]int{1: 3, 2: 2}[len(moving)]
	if reach == 0 {
		reach = 1
	}
	switch {
	case pa != pb:
		return fmt.Errorf("pawns by colour went from %v to %v", pb, pa)
	case m.Len() != 2 || m.IsCapture() || len(m.Drops()) > 0:
		return fmt.Errorf("not a plain from-to move")
	case before.Owner(from) != me:
		return fmt.Errorf("moved a pile controlled by %v", before.Owner(from))
	case g.EndRow(me, from):
		return fmt.Errorf("moved a frozen pile")
	case !line || !slices.Contains(fwd, d) && !slices.Contains(side, d):
		return fmt.Errorf("moved in direction %d, not forward (%v) or sideways (%v)", d, fwd, side)
	case dist > reach:
		return fmt.Errorf("a pile of %d moved %d cells", len(moving), dist)
	case !slices.Equal(landed, append(under, moving...)):
		return fmt.Errorf("landed pile %v, want %v on %v", landed, moving, under)
	case after.Owner(from) != game.NoPlayer || after.Owner(to) != me:
		return fmt.Errorf("after the move %s holds %v and %s is controlled by %v", b.Name(from), after.Owner(from), b.Name(to), after.Owner(to))
	case len(under) > 0 && na != nb-1 || len(under) == 0 && na != nb:
		return fmt.Errorf("%d piles became %d", nb, na)
	case int(after.ToMove()) != (int(me)+1)%g.Players():
		return fmt.Errorf("%v to move after %v moved", after.ToMove(), me)
	}
	return nil
}

// checkEnd plays a random game to its end and checks that it ends by the
// rules (the player to move has no move: scored) or by a safeguard, and
// that a scored result gives the highest score the win.
func checkEnd(t testing.TB, g game.Game, rng *rand.Rand) game.Result {
	s := g.Start()
	maxPlies := g.Options().Int("maxplies")
	for s.Ply() <= maxPlies && !s.Result().Over() {
		moves := s.Moves(nil)
		s.Play(moves[rng.IntN(len(moves))])
	}
	r := s.Result()
	switch r.Reason {
	case game.Scored:
		if len(s.Moves(nil)) != 0 {
			t.Fatalf("%s: scored with legal moves left", s.FEN())
		}
		if r.Scores != s.(*punt.State).Scores() {
			t.Fatalf("%s: result scores %v, position scores %v", s.FEN(), r.Scores, s.(*punt.State).Scores())
		}
		best := slices.Max(r.Scores[:g.Players()])
		for p := 0; p < g.Players(); p++ {
			tie := g.Players() == 2 && r.Scores[0] == r.Scores[1]
			if r.Winners.Has(game.Player(p)) != (r.Scores[p] == best && !tie) {
				t.Fatalf("%s: scores %v, winners %03b", s.FEN(), r.Scores, r.Winners)
			}
		}
	case game.Repetition, game.PlyCap:
		if !r.Draw() || len(s.Moves(nil)) == 0 {
			t.Fatalf("%s: safeguard %v with winners %03b", s.FEN(), r.Reason, r.Winners)
		}
	default:
		t.Fatalf("%s: the game did not end after %d plies (%v)", s.FEN(), s.Ply(), r.Reason)
	}
	return r
}

func TestRandomGamesKeepInvariants(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 2 // six games of up to 600 plies, every check at every ply
	}
	for _, id := range ids {
		g := gametest.NewGame(t, id)
		rng := rand.New(rand.NewPCG(42, uint64(len(id))))
		for i := 0; i < n; i++ {
			gametest.RandomGame(t, g.Start(), rng, 600, pileInvariant)
		}
	}
}

// TestRandomGamesEnd: every random game ends by the rules or by a
// safeguard; most end by the rules.
func TestRandomGamesEnd(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	for _, id := range ids {
		g := gametest.NewGame(t, id)
		rng := rand.New(rand.NewPCG(43, uint64(len(id))))
		reasons := map[game.Reason]int{}
		for i := 0; i < n; i++ {
			reasons[checkEnd(t, g, rng).Reason]++
		}
		t.Logf("%s: %v", id, reasons)
		if reasons[game.Scored] < n/2 {
			t.Errorf("%s: only %d of %d random games ended by the rules: %v", id, reasons[game.Scored], n, reasons)
		}
	}
}

// TestRepetitionMatchesAFullScan: Play marks sideways moves to empty cells
// as the only reversible ones, so that the repetition scan stops at the
// last other move. A full scan over every earlier position, with the same
// player to move, must find the same count.
func TestRepetitionMatchesAFullScan(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	for _, id := range ids {
		g := gametest.NewGame(t, id, "maxplies=100000")
		rng := rand.New(rand.NewPCG(44, uint64(len(id))))
		repeats := 0
		for i := 0; i < n; i++ {
			s := g.Start()
			var seen []uint64
			for {
				seen = append(seen, s.Hash())
				full := 0
				for _, h := range seen {
					if h == s.Hash() {
						full++
					}
				}
				r := s.Result()
				if (r.Reason == game.Repetition) != (full >= 3) {
					t.Fatalf("%s: %d occurrences in a full scan, result %v", s.FEN(), full, r.Reason)
				}
				if r.Over() {
					if r.Reason == game.Repetition {
						repeats++
					}
					break
				}
				moves := s.Moves(nil)
				// Favour sideways moves to empty cells, so that positions
				// repeat often.
				m := moves[rng.IntN(len(moves))]
				for try := 0; try < 4 && (s.Owner(m.To()) != game.NoPlayer || !sideways(g, s.ToMove(), m)); try++ {
					m = moves[rng.IntN(len(moves))]
				}
				s.Play(m)
			}
		}
		t.Logf("%s: %d of %d games drawn by repetition", id, repeats, n)
		if repeats == 0 {
			t.Errorf("%s: no game repeated a position: the test tests nothing", id)
		}
	}
}

func sideways(g game.Game, p game.Player, m game.Move) bool {
	d, _ := g.Board().DirTo(m.From(), m.To())
	_, side := g.(*punt.Game).Directions(p)
	return slices.Contains(side, d)
}

// FuzzRandomGame plays a random game chosen by the fuzzer and checks the
// conformance suite and the pile invariant at every move, then that a
// game played to its end ends properly.
func FuzzRandomGame(f *testing.F) {
	f.Add(uint64(1), uint8(0))
	f.Add(uint64(2), uint8(1))
	f.Add(uint64(3), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, variant uint8) {
		g := gametest.NewGame(t, ids[int(variant)%len(ids)])
		gametest.RandomGame(t, g.Start(), rand.New(rand.NewPCG(seed, seed>>32)), 600, pileInvariant)
		checkEnd(t, g, rand.New(rand.NewPCG(seed, 1)))
	})
}

// FuzzParseFEN: any text either parses to a position that passes the
// conformance checks, holds no more pawns of a colour than a player has,
// and writes itself back the same, or is an error.
func FuzzParseFEN(f *testing.F) {
	for _, fen := range []string{"W:a1=w,c4=bw,d4=wwb", "R:a1=w,d1=b,i4=r,e5=wbr", "W:", "B", "W:a1=w,a1=w",
		"X", ":::", "W:a1=w,,", "W:a1=", "W:a1=wb", "R:", "W:i1=wwwwwwwwwwww", "W:a1=bbbbbbbbbbbwwwwwwwwwwwrrrrrrrrrrr",
		"W:a1=w:b1=b", "W:a1", "W:=w"} {
		f.Add(fen, uint8(0))
		f.Add(fen, uint8(2))
	}
	f.Fuzz(func(t *testing.T, fen string, variant uint8) {
		g := gametest.NewGame(t, ids[int(variant)%len(ids)])
		s := gametest.CheckParseFEN(t, g, fen)
		if s == nil {
			return
		}
		pawns, _ := pawnCounts(s)
		per := map[string]int{"punt-match": 14}[g.ID()]
		if per == 0 {
			per = 11
		}
		for p, n := range pawns {
			if n > per || p >= g.Players() && n > 0 {
				t.Fatalf("%q: %d pawns of colour %d", fen, n, p)
			}
		}
	})
}

// FuzzParseMove: any text is either the notation of a legal move or an
// error that quotes it.
func FuzzParseMove(f *testing.F) {
	positions := []struct{ id, fen string }{
		{"punt-match", ""},
		{"punt-heks-match", "B:a4=w,b2=w,b4=wwww,d3=wb,d6=w,e8=w,f7=b,g1=b,g4=bb,g7=b,h2=bb,h4=bb,h6=ww,i4=b"},
		{"punt-heks-match-3p", ""},
		{"punt-heks-match-3p", "R:a1=w,a2=bw,b4=www,b6=w,c5=w,d4=b,d7=w,d8=r,e1=bwbw,e8=rw,e9=r,f1=b,f5=b,f7=r,f8=r,g1=br,g2=bb,g4=r,h4=bbr,h5=r,i4=r,i5=r"},
	}
	for _, m := range []string{"a2-a3", "b1-d1", "i4-h4", "e9-e8", "", "x", "a1-", "-a1", "a1@b2", "A2-A3", "a2xa3", "a2-a3-a4", "e10-e9", "d1:d2"} {
		f.Add(uint8(0), m)
		f.Add(uint8(3), m)
	}
	f.Fuzz(func(t *testing.T, pos uint8, text string) {
		p := positions[int(pos)%len(positions)]
		g := gametest.NewGame(t, p.id)
		s := gametest.Position(t, g, p.fen)
		gametest.CheckParseMove(t, s, text)
	})
}
