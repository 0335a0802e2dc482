package game_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// stacksOf reads every cell's stack of s.
func stacksOf(t *testing.T, s game.State) map[board.Cell][]game.Piece {
	t.Helper()
	stacker, ok := s.(game.Stacker)
	if !ok {
		t.Fatalf("%s: the state is no game.Stacker", s.Game().ID())
	}
	stacks := map[board.Cell][]game.Piece{}
	for c := range board.Cell(s.Game().Board().Len()) {
		if st := stacker.Stack(c, nil); len(st) > 0 {
			stacks[c] = st
		}
	}
	return stacks
}

// TestFromStacksRoundTrip: for every game, on the positions of random
// games, the stacks a state shows and the player to move build the same
// position again: FEN, then stacks, then FromStacks give the same FEN.
func TestFromStacksRoundTrip(t *testing.T) {
	games, plies := 6, 200
	if testing.Short() {
		games, plies = 2, 120
	}
	for _, d := range game.All() {
		t.Run(d.ID, func(t *testing.T) {
			if d.FEN == nil {
				t.Fatal("the descriptor names no FEN notation")
			}
			g, err := game.New(d.ID, nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(len(d.ID)), 19))
			var buf []game.Move
			positions := 0
			for range games {
				s := g.Start()
				for range plies {
					fen := s.FEN()
					back, err := game.FromStacks(g, stacksOf(t, s), s.ToMove())
					if err != nil {
						t.Fatalf("%s: %v", fen, err)
					}
					if back.FEN() != fen || back.ToMove() != s.ToMove() || back.Hash() != s.Hash() {
						t.Fatalf("%s built from its stacks is %s (hash %x, want %x)", fen, back.FEN(), back.Hash(), s.Hash())
					}
					positions++
					buf = s.Moves(buf[:0])
					if len(buf) == 0 || s.Result().Over() {
						break
					}
					s.Play(buf[rng.IntN(len(buf))])
				}
			}
			if positions < games*10 {
				t.Errorf("only %d positions", positions)
			}
		})
	}
}

// TestFromStacksRefusals: what a game cannot hold is refused, with the
// game's own parser's words when the notation can write it.
func TestFromStacksRefusals(t *testing.T) {
	cell := func(g game.Game, name string) board.Cell {
		c, ok := g.Board().Parse(name)
		if !ok {
			t.Fatalf("%s has no cell %s", g.ID(), name)
		}
		return c
	}
	pommel, _ := game.New("pommel", nil)
	eximo, _ := game.New("eximo", nil)
	checkers, _ := game.New("checkers-2011", nil)
	punt, _ := game.New("punt-match", nil)
	_, promoted := pommel.ParseFEN("W:Wd7:B")
	_, noKings := eximo.ParseFEN("B:W:BKa1") // as Eximo writes its lists: White's, then Black's
	w := game.Piece{Owner: 0, Rank: game.Man}
	b := game.Piece{Owner: 1, Rank: game.Man}
	for _, tc := range []struct {
		name   string
		g      game.Game
		stacks map[board.Cell][]game.Piece
		toMove game.Player
		want   string
	}{
		{"a soldier on its last row", pommel, map[board.Cell][]game.Piece{cell(pommel, "d7"): {w}}, 0, promoted.Error()},
		{"a king where there are none", eximo, map[board.Cell][]game.Piece{cell(eximo, "a1"): {{Owner: 0, Rank: game.King}}}, 0, noKings.Error()},
		{"a stack where cells hold one piece", pommel, map[board.Cell][]game.Piece{cell(pommel, "d4"): {w, b}}, 0, "pommel: a cell holds one piece, not a stack of 2 (on d4)"},
		{"a promoted pawn", punt, map[board.Cell][]game.Piece{cell(punt, "a1"): {{Owner: 0, Rank: game.King}}}, 0, `"W" is not a pawn colour`},
		{"no such player to move", checkers, nil, 2, "checkers-2011: player 2 to move: the players are 0 to 1"},
		{"no such player's piece", checkers, map[board.Cell][]game.Piece{cell(checkers, "d4"): {{Owner: 2}}}, 0, "a piece of player 2 on d4"},
		{"no such cell", checkers, map[board.Cell][]game.Piece{200: {w}}, 0, "cell 200 is not on the board"},
	} {
		s, err := game.FromStacks(tc.g, tc.stacks, tc.toMove)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v; want an error with %q", tc.name, s, err, tc.want)
		}
	}
	// What the notation writes and the parser takes is taken as it is.
	s, err := game.FromStacks(checkers, map[board.Cell][]game.Piece{cell(checkers, "c3"): {b, b, {Owner: 0, Rank: game.King}}, cell(checkers, "h8"): {}}, 1)
	if err != nil || s.FEN() != "B:c3=bbW" {
		t.Errorf("a column: %v, %v", s, err)
	}
}
