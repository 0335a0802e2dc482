package textboard_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/textboard"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// ansi matches the escapes a coloured drawing holds.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// middles are a middle-game position of every game id, with what the game
// has of captains, kings, stacks and piles (tall ones included), and a
// move to play from it, which the drawings mark.
var middles = map[string]struct{ fen, move string }{
	"pommel":             {"W:Wa1,b1,d2,e1,e2,Kd6,g1:Ba4,b6,b7,g4,Kc2", "d2xb3"},
	"pommel-76":          {"W:Wa1,d1,f1,f2,f3,f4,g1,g2,g3,g4,h1,h2,h4,i2,Kb9:Ba5,a6,a7,b6,b8,c3,c6,c7,d6,d9,e8,f6,f8,f9,g5,h8,i7,i8", "b9xb7xd8xd5xg6"},
	"eximo":              {"B:Wd5,b6,c6,d6,f6,g6,b7,c7,f7,g7,c8,e8,f8:Bc1,d1,e1,f1,e2,g2,h2,e3,f3,g3,b4,f4,g4,a6", "f1-h3-f5"},
	"checkers-2011":      {"W:c1=wwB,f1=w,g1=w,h1=w,a2=w,b2=w,c2=w,e2=w,g2=w,b3=w,h3=w,a4=bwbbW,d5=wb,h5=b,a6=b,c6=b,a7=b,d7=b,e7=b,f7=b,g7=b,h7=b,f8=b,h8=b", "a4-b5"},
	"punt-match":         {"W:c1=ww,g1=w,d2=w,e2=ww,a3=w,c3=b,e3=w,g3=w,b4=w,d4=b,a5=w,d5=bbbwb,f5=w,a6=b,b6=bb,e6=bb,f6=b,e7=b", "a5-d5"},
	"punt-heks-match":    {"W:a5=w,b4=ww,b5=wwb,c2=w,d5=ww,e7=wbbw,f4=b,g2=bbb,g5=b,g6=b,i1=b,i5=b", "b4-d6"},
	"punt-heks-match-3p": {"W:a2=ww,a4=w,b2=wb,b3=ww,b4=w,c1=b,c2=wwr,c7=w,d7=b,d8=w,e1=b,e8=rrbbr,e9=r,f1=bbb,f4=b,g6=rrr,h2=r,h6=r,i1=b,i5=r", "b4-e7"},
}

// checkGolden compares text with a file under testdata, or rewrites the
// file with -update.
func checkGolden(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./textboard -update to write it)", err)
	}
	if text != string(want) {
		t.Errorf("%s differs (run go test ./textboard -update and check the diff):\n%s", path, text)
	}
}

// middle returns the middle-game position of a game after its move, and
// the cells of that move.
func middle(t *testing.T, g game.Game) (game.State, []board.Cell) {
	t.Helper()
	mid, ok := middles[g.ID()]
	if !ok {
		t.Fatalf("%s has no middle-game position to draw", g.ID())
	}
	s := gametest.MustParse(t, g, mid.fen)
	m, err := game.ParseMove(s, mid.move)
	if err != nil {
		t.Fatal(err)
	}
	s.Play(m)
	return s, textboard.MoveCells(m)
}

// TestGolden draws, for every game id, the start position and a middle
// game after a marked move, in every seat's view, plain in one file and in
// colour in another (cat it in a terminal to see it).
func TestGolden(t *testing.T) {
	for _, d := range game.All() {
		g := gametest.NewGame(t, d.ID)
		mid, marked := middle(t, g)
		for _, color := range []bool{false, true} {
			var sb strings.Builder
			for _, pos := range []struct {
				title  string
				s      game.State
				marked []board.Cell
			}{
				{"the start", g.Start(), nil},
				{"after " + middles[d.ID].move + " (marked)", mid, marked},
			} {
				for view := range g.Players() {
					text, err := textboard.Draw(pos.s, textboard.Options{View: game.Player(view), Marked: pos.marked, Color: color})
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&sb, "== %s %s, as %s sees it ==\n%s\n", d.ID, pos.title, g.PlayerName(game.Player(view)), text)
				}
			}
			name := d.ID + ".golden"
			if color {
				name = d.ID + ".color.golden"
			}
			checkGolden(t, name, sb.String())
		}
	}
}

// tallStacks are positions with stacks and piles as tall as the games
// allow, and as many tall ones as they allow.
var tallStacks = map[string]string{
	"checkers-2011":      "W:a1=wbwbwbwbwbwbwbwbwbwbwbwbwbwbW,h8=b",
	"punt-match":         "W:a1=wwwwwbbbbbbb,b1=wwww,c1=bbbb,d1=ww,e1=bb,f1=ww,a7=w,b7=b",
	"punt-heks-match-3p": "W:a1=wwww,a2=bbbb,a3=rrrr,a4=wwwb,a5=bbbr,b1=rrrw,b2=wwbb,b3=rrbw,e1=r",
}

// TestWidth: every line of every drawing is at most 80 columns wide, escapes
// not counted, for every game id, every view, plain and in colour, over
// random positions and over positions of tall stacks.
func TestWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	plies := 120
	if testing.Short() {
		plies = 40
	}
	for _, d := range game.All() {
		g := gametest.NewGame(t, d.ID)
		positions := []game.State{}
		if fen, ok := tallStacks[d.ID]; ok {
			positions = append(positions, gametest.MustParse(t, g, fen))
		}
		s := g.Start()
		for range plies {
			moves := s.Moves(nil)
			if len(moves) == 0 {
				break
			}
			s.Play(moves[rng.IntN(len(moves))])
			positions = append(positions, s.Clone())
		}
		for _, s := range positions {
			for view := range g.Players() {
				for _, color := range []bool{false, true} {
					text, err := textboard.Draw(s, textboard.Options{View: game.Player(view), Color: color, Marked: []board.Cell{0, 1}})
					if err != nil {
						t.Fatal(err)
					}
					for _, line := range strings.Split(text, "\n") {
						if n := utf8.RuneCountInString(ansi.ReplaceAllString(line, "")); n > textboard.Width {
							t.Fatalf("%s %s, view %d: a line of %d columns:\n%s", d.ID, s.FEN(), view, n, text)
						}
					}
				}
			}
		}
	}
}

// crowded is a real state whose Stacker view shows a pile of five on every
// cell: more pawns than any game has, the one way to see the list of tall
// stacks wrap.
type crowded struct{ game.State }

func (crowded) Owner(board.Cell) game.Player { return 1 }

func (crowded) Stack(_ board.Cell, buf []game.Piece) []game.Piece {
	for _, o := range []game.Player{0, 2, 0, 2, 1} {
		buf = append(buf, game.Piece{Owner: o})
	}
	return buf
}

// TestTallStacksWrap: the list of tall stacks wraps between entries, within
// 80 columns, and lists every stack once, bottom to top.
func TestTallStacksWrap(t *testing.T) {
	s := crowded{gametest.NewGame(t, "punt-heks-match-3p").Start()}
	text, err := textboard.Draw(s, textboard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(text, "Tall stacks, bottom to top:\n")
	if !ok {
		t.Fatalf("no list of tall stacks:\n%s", text)
	}
	lines := strings.Split(strings.TrimSuffix(list, "\n"), "\n")
	for i, line := range lines {
		if len(line) > textboard.Width || !strings.HasPrefix(line, "  ") || i < len(lines)-1 && !strings.HasSuffix(line, ",") {
			t.Errorf("list line %q: want an indented line of at most 80 columns ending in a comma but for the last", line)
		}
	}
	entries := strings.Split(strings.Join(strings.Fields(list), " "), ", ")
	b := s.Game().Board()
	if len(entries) != b.Len() || len(lines) < 8 {
		t.Fatalf("%d entries on %d lines, want %d entries wrapped:\n%s", len(entries), len(lines), b.Len(), list)
	}
	for c, entry := range entries {
		if want := b.Name(board.Cell(c)) + " wrwrb"; entry != want {
			t.Errorf("entry %d is %q, want %q", c, entry, want)
		}
	}
}

// TestGlyphs: a piece is its seat's letter, upper case when promoted; a
// stack that fits its cell is its letters bottom to top; a taller one its
// height and top letter, never a cell name; the legend explains both.
func TestGlyphs(t *testing.T) {
	s := gametest.MustParse(t, gametest.NewGame(t, "checkers-2011"), "W:a4=w,b4=B,c4=wb,d4=bwB,e4=wbwbW")
	text, err := textboard.Draw(s, textboard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"4   w   B  wb  bwB 5W   .   .   .   4\n",
		"Stacks: wb = bottom to top, b on top; 5W = 5 high, W on top, listed below.\n",
		"Tall stacks, bottom to top:\n  e4 wbwbW\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the drawing lacks %q:\n%s", want, text)
		}
	}
	plain, err := textboard.Draw(gametest.NewGame(t, "pommel").Start(), textboard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain, "Stacks") {
		t.Errorf("a board of single pieces has a legend:\n%s", plain)
	}
}

// TestColor: in colour each seat's pieces have its colour and a king is
// bold; without the escapes the coloured drawing is the plain one.
func TestColor(t *testing.T) {
	for _, d := range game.All() {
		g := gametest.NewGame(t, d.ID)
		s, marked := middle(t, g)
		for view := range g.Players() {
			opt := textboard.Options{View: game.Player(view), Marked: marked}
			plain, err := textboard.Draw(s, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Color = true
			color, err := textboard.Draw(s, opt)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(plain, "\x1b") {
				t.Errorf("%s: the plain drawing holds escapes", d.ID)
			}
			if got := stripLines(ansi.ReplaceAllString(color, "")); got != stripLines(plain) {
				t.Errorf("%s view %d: the coloured drawing without escapes:\n%s\nwant\n%s", d.ID, view, got, plain)
			}
		}
	}
	s := gametest.MustParse(t, gametest.NewGame(t, "punt-heks-match-3p"), "W:a1=w,a2=b,a3=r")
	color, err := textboard.Draw(s, textboard.Options{Color: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, chip := range []string{"\x1b[0;30;107m w ", "\x1b[0;97;100m b ", "\x1b[0;97;41m r "} {
		if !strings.Contains(color, chip) {
			t.Errorf("the coloured drawing lacks %q", chip)
		}
	}
	king := gametest.MustParse(t, gametest.NewGame(t, "pommel"), "W:WKd4:Ba6")
	if color, _ := textboard.Draw(king, textboard.Options{Color: true}); !strings.Contains(color, "\x1b[0;30;107;1m W ") {
		t.Errorf("White's captain is not a bold white chip:\n%q", color)
	}
}

// stripLines drops the blanks at the ends of lines: a coloured chip may
// end a line with a blank that plain text leaves out.
func stripLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}

// chips are the colours of the seats' plain pieces, by seat name.
var chips = map[string]string{"White": "\x1b[0;30;107m", "Black": "\x1b[0;97;100m", "Red": "\x1b[0;97;41m"}

// TestViews: each seat's home is at the bottom of its view: in the start
// position drawn for seat p, p's pieces reach lower than anyone else's.
// The pieces are told apart by their colours, which no label has.
func TestViews(t *testing.T) {
	for _, d := range game.All() {
		g := gametest.NewGame(t, d.ID)
		for view := range g.Players() {
			text, err := textboard.Draw(g.Start(), textboard.Options{View: game.Player(view), Color: true})
			if err != nil {
				t.Fatal(err)
			}
			lowest := map[string]int{}
			for i, line := range strings.Split(text, "\n") {
				for name, chip := range chips {
					if strings.Contains(line, chip) {
						lowest[name] = i
					}
				}
			}
			me := g.PlayerName(game.Player(view))
			for name, line := range lowest {
				if name != me && line >= lowest[me] {
					t.Errorf("%s as %s: %s's pieces reach line %d, %s's only line %d:\n%s",
						d.ID, me, name, line, me, lowest[me], ansi.ReplaceAllString(text, ""))
				}
			}
			if len(lowest) != g.Players() {
				t.Errorf("%s as %s: the pieces of %d seats seen, want %d", d.ID, me, len(lowest), g.Players())
			}
		}
	}
}

// TestRefuses: a view that is not a seat and a marked cell off the board
// are errors that say what is allowed.
func TestRefuses(t *testing.T) {
	tests := []struct {
		id   string
		opt  textboard.Options
		want string
	}{
		{"pommel", textboard.Options{View: 2}, "view 2: pommel seats players 0 to 1"},
		{"punt-heks-match-3p", textboard.Options{View: -1}, "view -1: punt-heks-match-3p seats players 0 to 2"},
		{"eximo", textboard.Options{Marked: []board.Cell{64}}, "marked cell 64 is not on the board (cells 0 to 63)"},
	}
	for _, tc := range tests {
		text, err := textboard.Draw(gametest.NewGame(t, tc.id).Start(), tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || text != "" {
			t.Errorf("%s with %+v: %q, error %v; want the error %q", tc.id, tc.opt, text, err, tc.want)
		}
	}
}

// TestMoveCells: a move's cells are its start, its landings and its drops
// (an Eximo man jumping a friend to the far row, then dropping two).
func TestMoveCells(t *testing.T) {
	g := gametest.NewGame(t, "eximo")
	s := gametest.MustParse(t, g, "B:Wh8:Bc6,d7")
	for _, m := range s.Moves(nil) {
		if m.Text(g.Board()) != "c6-e8@b1@c2" {
			continue
		}
		var got []string
		for _, c := range textboard.MoveCells(m) {
			got = append(got, g.Board().Name(c))
		}
		if want := []string{"c6", "e8", "b1", "c2"}; !slices.Equal(got, want) {
			t.Errorf("MoveCells(c6-e8@b1@c2) = %v, want %v", got, want)
		}
		return
	}
	t.Fatalf("c6-e8@b1@c2 is not among the moves %v", gametest.RuleMoves(s))
}
