package terminal

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/testtext"
)

// ansi matches the colour escapes, which take no room on the screen.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestPlayScreens keeps, for every game id, the screen a person sees in
// play after a few moves: the board from the side of the seat to move with
// the last move marked, whose turn it is and the legal moves, with and
// without colour. Every line fits in 80 columns.
func TestPlayScreens(t *testing.T) {
	t.Parallel()
	for _, d := range game.All() {
		t.Run(d.ID, func(t *testing.T) {
			t.Parallel()
			input := strings.Join(openingFor(t, d.ID, 7), "\n") + "\nquit\n"
			for _, color := range []bool{false, true} {
				pg := setup{game: d.ID}.start(t)
				screen := lastScreen(runText(t, pg, input, Options{Color: color}))
				name := "screen-" + d.ID + ".golden"
				if color {
					name = "screen-" + d.ID + ".color.golden"
					if plain := ansi.ReplaceAllString(screen, ""); plain == screen {
						t.Error("Color drew no colour")
					}
				} else if strings.Contains(screen, "\x1b") {
					t.Error("no Color drew colour")
				}
				testtext.Golden(t, filepath.Join("testdata", name), screen, *update)
				for i, line := range strings.Split(screen, "\n") {
					if n := utf8.RuneCountInString(ansi.ReplaceAllString(line, "")); n > 80 {
						t.Errorf("line %d is %d columns wide: %q", i+1, n, line)
					}
				}
			}
		})
	}
}

// openingFor picks n moves of a game, the same every run: at each ply the
// move in the middle of the sorted list, so that the screen shows a game
// under way rather than the first moves of one corner.
func openingFor(t *testing.T, id string, n int) []string {
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	var moves []string
	for i := 0; i < n; i++ {
		legal := game.MoveTexts(s)
		if len(legal) == 0 {
			break
		}
		m := legal[(len(legal)*(2*i+1)/(2*n+1))%len(legal)]
		if err := game.PlayMoves(s, []string{m}); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
	}
	if len(moves) == 0 {
		t.Fatal(fmt.Sprintf("%s has no moves", id))
	}
	return moves
}

// lastScreen is what play drew last: from the line after the prompt
// before it to the last prompt.
func lastScreen(out string) string {
	body := out[:strings.LastIndex(out, "\n")]
	return out[strings.LastIndex(body, "> \n")+3:]
}
