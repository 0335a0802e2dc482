package eximo_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// TestPlaceRoundTrip: Placement then Place on another state gives the
// same position (FEN and hash) with no history, along random games.
func TestPlaceRoundTrip(t *testing.T) {
	g := newGame(t)
	r := rand.New(rand.NewPCG(41, 1))
	for range 20 {
		s := g.Start()
		other := g.Start()
		for !s.Result().Over() {
			pieces := s.(game.Placer).Placement(nil)
			for i := 1; i < len(pieces); i++ {
				if pieces[i].Cell <= pieces[i-1].Cell {
					t.Fatalf("%s: placement not in cell order: %v", fenOf(s), pieces)
				}
			}
			if err := other.(game.Placer).Place(pieces, s.ToMove()); err != nil {
				t.Fatalf("%s: Place: %v", fenOf(s), err)
			}
			if fenOf(other) != fenOf(s) || other.Hash() != s.Hash() || other.Ply() != 0 {
				t.Fatalf("placed %s (hash %x, ply %d), want %s (hash %x, ply 0)", fenOf(other), other.Hash(), other.Ply(), fenOf(s), s.Hash())
			}
			moves := s.Moves(nil)
			if len(moves) == 0 {
				break
			}
			s.Play(moves[r.IntN(len(moves))])
		}
	}
}

// TestPlaceRefuses: what the FEN refuses, Place refuses, and leaves the
// state as it was.
func TestPlaceRefuses(t *testing.T) {
	g := newGame(t)
	b := g.Board()
	cell := func(name string) board.Cell {
		c, ok := b.Parse(name)
		if !ok {
			t.Fatalf("no cell %s", name)
		}
		return c
	}
	man := func(p game.Player, name string) game.Placed {
		return game.Placed{Cell: cell(name), Piece: game.Piece{Owner: p, Rank: game.Man}}
	}
	for _, tc := range []struct {
		name   string
		pieces []game.Placed
		toMove game.Player
		want   string
	}{
		{"a Black man on row 8", []game.Placed{man(0, "a8"), man(1, "a5")}, 0, "far row"},
		{"a White man on row 1", []game.Placed{man(0, "a2"), man(1, "h1")}, 0, "far row"},
		{"two men on a cell", []game.Placed{man(0, "c4"), man(1, "c4")}, 0, "two men"},
		{"a king", []game.Placed{{Cell: cell("c4"), Piece: game.Piece{Owner: 0, Rank: game.King}}}, 0, "no kings"},
		{"a cell off the board", []game.Placed{{Cell: 64, Piece: game.Piece{Owner: 0, Rank: game.Man}}}, 0, "off the board"},
		{"no such player to move", []game.Placed{man(0, "c4")}, 2, "no player"},
		{"a man of no player", []game.Placed{{Cell: cell("c4"), Piece: game.Piece{Owner: 3, Rank: game.Man}}}, 0, "no player"},
	} {
		s := g.Start()
		before := fenOf(s)
		err := s.(game.Placer).Place(tc.pieces, tc.toMove)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Place says %v, want an error with %q", tc.name, err, tc.want)
		}
		if fenOf(s) != before {
			t.Errorf("%s: the refused Place changed the state to %s", tc.name, fenOf(s))
		}
	}
}

func fenOf(s game.State) string { return s.(interface{ FEN() string }).FEN() }
