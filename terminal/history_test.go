package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
)

// pommelBlackToMove is pommel after 1. a1-a3, set up on its own.
const pommelBlackToMove = "B:Wa2,a3,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6"

// heksPieces are the pieces of the three-player game's start.
const heksPieces = "a1=w,a2=w,a3=w,a4=w,a5=w,b1=w,b2=w,b3=w,b4=w,b5=w,b6=w,d1=b,d8=r,e1=b,e2=b,e8=r,e9=r," +
	"f1=b,f2=b,f7=r,f8=r,g1=b,g2=b,g6=r,g7=r,h1=b,h2=b,h5=r,h6=r,i1=b,i2=b,i4=r,i5=r"

// TestHistoryNumbersTurns: history numbers each move with the turn of the
// seat that made it, as records do: a game set up with another seat than
// the first to move starts with the end of a turn, "1...".
func TestHistoryNumbersTurns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, game, fen string
		moves           []string
		want            string
	}{
		{"White first", "pommel", "", []string{"a1-a3", "a5-a4", "a3xa5"}, "  1. a1-a3 a5-a4\n  2. a3xa5\n"},
		{"Black first", "pommel", pommelBlackToMove, []string{"a5-a4", "a3xa5", "a6xa4"}, "  1... a5-a4\n  2. a3xa5 a6xa4\n"},
		{"Black first, one move", "pommel", pommelBlackToMove, []string{"a5-a4"}, "  1... a5-a4\n"},
		{"three, the first first", "punt-heks-match-3p", "W:" + heksPieces, []string{"a1-a2", "d1-d2", "d8-d7", "a2-a3"},
			"  1. a1-a2 d1-d2 d8-d7\n  2. a2-a3\n"},
		{"three, the second first", "punt-heks-match-3p", "B:" + heksPieces, []string{"d1-d2", "d8-d7", "a1-a2", "d2-d3"},
			"  1... d1-d2 d8-d7\n  2. a1-a2 d2-d3\n"},
		{"three, the third first", "punt-heks-match-3p", "R:" + heksPieces, []string{"d8-d7", "a1-a2", "d1-d2", "d7-d6"},
			"  1... d8-d7\n  2. a1-a2 d1-d2 d7-d6\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGame(t, tc.game)
			s := g.Start()
			if tc.fen != "" {
				var err error
				if s, err = g.ParseFEN(tc.fen); err != nil {
					t.Fatal(err)
				}
			}
			for _, text := range tc.moves {
				m, err := game.ParseMove(s, text)
				if err != nil {
					t.Fatal(err)
				}
				s.Play(m)
			}
			if got := history(tc.moves, s.Clone()); got != tc.want {
				t.Errorf("history:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestHistoryOfASetUpGame: in play from a position with Black to move,
// the history command and the saved record both give the first move to
// Black.
func TestHistoryOfASetUpGame(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "game.pdn")
	pg := setup{cfg: play.Config{Start: newState(t, pommelBlackToMove), StartFEN: pommelBlackToMove,
		Keeper: NewGameFile(path)}}.start(t)
	out := runText(t, pg, "a5-a4\na3xa5\nhistory\nquit\n", Options{})
	inOrder(t, out, "White> ", "Black> ", "  1... a5-a4\n  2. a3xa5\nBlack> ")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\n1... a5-a4 2. a3xa5 *\n") {
		t.Errorf("the record file numbers the moves otherwise:\n%s", data)
	}
}
