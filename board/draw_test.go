package board

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// ansi matches the escapes a coloured drawing holds.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

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
		t.Fatalf("%v (run go test ./board -update to write it)", err)
	}
	if text != string(want) {
		t.Errorf("%s differs (run go test ./board -update and check the diff):\n%s", path, text)
	}
}

// sample is a glyph function with a piece, a stack of two and a tall
// stack, in colours, so that every drawing shows each kind of glyph.
func sample(b *Board) func(Cell) []Span {
	return func(c Cell) []Span {
		switch b.Name(c) {
		case "a1":
			return []Span{{" w ", "30;47"}}
		case "b2":
			return []Span{{"w", "30;47"}, {"b", "97;40"}}
		case "c3":
			return []Span{{"12B", "97;40"}}
		}
		return nil
	}
}

func testBoards() []*Board {
	return []*Board{NewHexColumns(7, 7), NewHexColumns(9, 9), NewSquare(8, 8), NewSquare(7, 7), NewHexHex(2), NewHexHex(5)}
}

// TestDrawGolden pins every board in every turn it allows, plain, with a1
// and its neighbour b1 marked (side by side on square boards, so their
// brackets share a bar), and turned 0 in colour.
func TestDrawGolden(t *testing.T) {
	for _, b := range testBoards() {
		var sb strings.Builder
		marked := []Cell{mustCell(t, b, "a1"), mustCell(t, b, "b1")}
		for _, turn := range b.Turns() {
			text, err := b.Draw(sample(b), DrawOptions{Turn: turn, Marked: marked})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "== %s turned %d, a1 and b1 marked ==\n%s", b.ID(), turn, text)
		}
		text, err := b.Draw(sample(b), DrawOptions{Marked: marked, Color: true})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "== %s in colour, a1 and b1 marked ==\n%s", b.ID(), text)
		checkGolden(t, b.ID()+".golden", sb.String())
	}
}

// TestDrawRefuses: a turn the board does not allow, a marked cell off the
// board and a glyph wider than a cell are errors that say what is allowed.
func TestDrawRefuses(t *testing.T) {
	tests := []struct {
		b    *Board
		opt  DrawOptions
		wide bool
		want string
	}{
		{NewSquare(8, 8), DrawOptions{Turn: 90}, false, "board square8x8: cannot be drawn turned by 90 degrees (allowed: 0, 180)"},
		{NewHexColumns(7, 7), DrawOptions{Turn: 120}, false, "board hexcol45: cannot be drawn turned by 120 degrees (allowed: 0, 180)"},
		{NewHexHex(5), DrawOptions{Turn: -60}, false, "allowed: 0, 60, 120, 180, 240, 300"},
		{NewHexHex(5), DrawOptions{Marked: []Cell{61}}, false, "board hexhex61: marked cell 61 is not on the board (cells 0 to 60)"},
		{NewSquare(3, 2), DrawOptions{}, true, "board square3x2: the glyph of a1 is 4 characters wide, more than 3"},
	}
	for _, tc := range tests {
		glyph := func(Cell) []Span { return nil }
		if tc.wide {
			glyph = func(c Cell) []Span {
				if c == 0 {
					return []Span{{"wb", ""}, {"wB", ""}}
				}
				return nil
			}
		}
		text, err := tc.b.Draw(glyph, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || text != "" {
			t.Errorf("%s with %+v: %q, error %v; want the error %q", tc.b.ID(), tc.opt, text, err, tc.want)
		}
	}
}

// find returns the line and column of the only "X" of a drawing.
func find(t *testing.T, lines []string) (int, int) {
	t.Helper()
	for i, line := range lines {
		if col := strings.IndexByte(line, 'X'); col >= 0 {
			return i, col
		}
	}
	t.Fatal("no X in the drawing")
	return 0, 0
}

// TestLabelsNameTheirCells: on square and hex column boards, in every turn,
// a glyph on any cell stands on a line that starts and ends with the
// cell's number and under its letter in the line of letters on top; on
// hexhex boards turned 0 or 180 its line starts or ends with its row
// letter. So the labels name the right cells whichever side is at the
// bottom.
func TestLabelsNameTheirCells(t *testing.T) {
	for _, b := range testBoards() {
		for _, turn := range []int{0, 180} {
			for c := range b.Len() {
				text, err := b.Draw(func(x Cell) []Span {
					if x == Cell(c) {
						return []Span{{"X", ""}}
					}
					return nil
				}, DrawOptions{Turn: turn})
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
				line, col := find(t, lines)
				fields := strings.Fields(lines[line])
				letter, number := nameParts(b.Name(Cell(c)))
				first, last := fields[0], fields[len(fields)-1]
				var ok bool
				switch b.Kind() {
				case HexHex:
					ok = turn == 0 && first == letter || turn == 180 && last == letter
				default:
					ok = first == number && last == number && col < len(lines[0]) && string(lines[0][col]) == letter
				}
				if !ok {
					t.Errorf("%s turned %d: %s drawn at line %d, column %d:\n%s", b.ID(), turn, b.Name(Cell(c)), line, col, text)
				}
			}
		}
	}
}

// TestMarks: a marked cell is bracketed, two marked neighbours share one
// bar, and in colour the marks are highlighted while the plain text stays
// the same.
func TestMarks(t *testing.T) {
	b := NewSquare(3, 2)
	glyph := func(c Cell) []Span {
		if c == 0 {
			return []Span{{" w ", "30;47"}}
		}
		return nil
	}
	a1, b1, c2 := mustCell(t, b, "a1"), mustCell(t, b, "b1"), mustCell(t, b, "c2")
	plain, err := b.Draw(glyph, DrawOptions{Marked: []Cell{a1, b1, c2}})
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"    a   b   c\n" +
		"2   .   . [ . ] 2\n" +
		"1 [ w | . ] .   1\n" +
		"    a   b   c\n"
	if plain != want {
		t.Errorf("marked drawing:\n%s\nwant\n%s", plain, want)
	}
	color, err := b.Draw(glyph, DrawOptions{Marked: []Cell{a1, b1, c2}, Color: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"\x1b[0;1;30;43m[", "\x1b[0;30;47m w \x1b[0;1;30;43m|", "\x1b[0;30;43m . \x1b[0;1;30;43m]\x1b[0m"} {
		if !strings.Contains(color, part) {
			t.Errorf("the coloured drawing lacks %q:\n%q", part, color)
		}
	}
	if got := ansi.ReplaceAllString(color, ""); got != plain {
		t.Errorf("the coloured drawing without its escapes:\n%s\nwant the plain one:\n%s", got, plain)
	}
	if strings.Contains(plain, "\x1b") {
		t.Errorf("the plain drawing holds escapes: %q", plain)
	}
}

// TestDrawWidth: every board, in every turn, fits in 80 columns.
func TestDrawWidth(t *testing.T) {
	for _, b := range testBoards() {
		for _, turn := range b.Turns() {
			text, err := b.Draw(sample(b), DrawOptions{Turn: turn, Color: true, Marked: []Cell{0}})
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(text, "\n") {
				if n := utf8.RuneCountInString(ansi.ReplaceAllString(line, "")); n > 80 {
					t.Errorf("%s turned %d: a line of %d columns: %q", b.ID(), turn, n, line)
				}
			}
		}
	}
}
