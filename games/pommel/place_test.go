package pommel_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/games/pommel"
)

// TestPlaceRoundTrip sets the positions of random games with Place from
// their Placement and checks the FEN, the hash and the moves agree.
func TestPlaceRoundTrip(t *testing.T) {
	for _, id := range []string{"pommel", "pommel-76"} {
		g, _ := game.New(id, nil)
		rng := rand.New(rand.NewPCG(1, 2))
		s := g.Start()
		placed := g.Start().(game.Placer)
		for ply := 0; ply < 300; ply++ {
			moves := s.Moves(nil)
			if len(moves) == 0 || s.Result().Over() {
				s = g.Start()
				continue
			}
			pieces := s.(game.Placer).Placement(nil)
			if err := placed.Place(pieces, s.ToMove()); err != nil {
				t.Fatalf("%s: Place(%s): %v", id, s.(interface{ FEN() string }).FEN(), err)
			}
			p := placed.(game.State)
			if got, want := p.(interface{ FEN() string }).FEN(), s.(interface{ FEN() string }).FEN(); got != want {
				t.Fatalf("%s: placed %s, want %s", id, got, want)
			}
			if p.Hash() != s.Hash() || p.Ply() != 0 || len(p.Moves(nil)) != len(moves) {
				t.Fatalf("%s: placed position differs from %s", id, s.(interface{ FEN() string }).FEN())
			}
			s.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// TestPlaceRefuses lists what Place refuses, and checks the state is
// left as it was.
func TestPlaceRefuses(t *testing.T) {
	g, _ := game.New("pommel", nil)
	man := func(c int, who game.Player) game.Placed {
		return game.Placed{Cell: cell(g, c), Piece: game.Piece{Owner: who, Rank: game.Man}}
	}
	tests := []struct {
		name   string
		pieces []game.Placed
		toMove game.Player
		want   string
	}{
		{"off the board", []game.Placed{{Cell: 45, Piece: game.Piece{Owner: pommel.White}}}, pommel.White, "no cell"},
		{"two on a cell", []game.Placed{man(3, pommel.White), man(3, pommel.Black)}, pommel.White, "two pieces"},
		{"no such player", []game.Placed{{Cell: 3, Piece: game.Piece{Owner: 2}}}, pommel.White, "no player"},
		{"no such rank", []game.Placed{{Cell: 3, Piece: game.Piece{Owner: pommel.White, Rank: 7}}}, pommel.White, "no rank"},
		{"a soldier on its last row", []game.Placed{man(5, pommel.White)}, pommel.White, "promoted"},
		{"a black soldier on its last row", []game.Placed{man(0, pommel.Black)}, pommel.White, "promoted"},
		{"no such side to move", nil, 3, "no player"},
	}
	for _, tt := range tests {
		s := g.Start()
		before := s.(interface{ FEN() string }).FEN()
		err := s.(game.Placer).Place(tt.pieces, tt.toMove)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want %q", tt.name, err, tt.want)
		}
		if after := s.(interface{ FEN() string }).FEN(); after != before {
			t.Errorf("%s: state changed to %s", tt.name, after)
		}
	}
}

// cell is the cell numbered c on g's board (column a first, bottom up).
func cell(_ game.Game, c int) board.Cell { return board.Cell(c) }
