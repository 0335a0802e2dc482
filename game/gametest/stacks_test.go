package gametest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// broken is a real state whose Stacker view is spoilt by one of the faults
// CheckStacks must find.
type broken struct {
	game.State
	fault string
}

func (s broken) Owner(c board.Cell) game.Player {
	if s.fault == "owner" && c == 0 {
		return game.NoPlayer
	}
	return s.State.Owner(c)
}

func (s broken) Stack(c board.Cell, buf []game.Piece) []game.Piece {
	pieces := s.State.(game.Stacker).Stack(c, buf)
	switch {
	case s.fault == "copy":
		return append([]game.Piece(nil), pieces...)
	case s.fault == "seat" && len(pieces) > 0:
		pieces[0].Owner = 5
	case s.fault == "top" && len(pieces) > 0:
		pieces = append(pieces, game.Piece{Owner: 1 - pieces[len(pieces)-1].Owner})
	}
	return pieces
}

// noStacker hides the Stacker view of a real state.
type noStacker struct{ game.State }

func TestCheckStacks(t *testing.T) {
	// a1 holds a stack of two, White on top.
	start := gametest.MustParse(t, gametest.NewGame(t, "checkers-2011"), "W:a1=bw,h8=b")
	tests := []struct {
		name  string
		state game.State
		want  string // "" when the state is sound
	}{
		{"a sound state", start, ""},
		{"Owner of an occupied cell is NoPlayer", broken{start, "owner"}, "a1: the top piece belongs to 0 but Owner is -1"},
		{"the top piece is someone else's", broken{start, "top"}, "a1: the top piece belongs to 1 but Owner is 0"},
		{"a piece of no seat", broken{start, "seat"}, "a1: a piece of player 5"},
		{"Stack allocates a new slice", broken{start, "copy"}, "a1: Stack did not append to the buffer"},
		{"no Stacker", noStacker{start}, "does not implement game.Stacker"},
	}
	for _, tc := range tests {
		var got []string
		gametest.CheckStacks(func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }, tc.state)
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s: reported %q", tc.name, got)
		case tc.want != "" && (len(got) == 0 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%s: reported %q, want %q first", tc.name, got, tc.want)
		}
	}
}
