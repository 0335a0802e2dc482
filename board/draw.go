package board

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// GlyphWidth is the room every cell of every drawing has for its glyph, in
// characters: a piece, a stack of three, or a height and a letter ("12W").
const GlyphWidth = 3

// Style is an ANSI SGR parameter list, such as "1;31" for bold red, put
// around text when a drawing is in colour; "" is the terminal's default.
type Style string

// Span is a run of text drawn in one style.
type Span struct {
	Text  string
	Style Style
}

// The styles the board itself uses in colour: a quiet frame, plain labels
// and a yellow highlight for marked cells, readable on dark and light
// terminals alike.
const (
	frameStyle   Style = "90"
	labelStyle   Style = "1"
	markStyle    Style = "30;43"
	bracketStyle Style = "1;30;43"
)

// DrawOptions says how Draw shows a board.
type DrawOptions struct {
	// Turn rotates the drawing counter-clockwise, in degrees: one of
	// Turns(). The coordinate labels turn with the cells, so they still
	// name the cells they stand next to.
	Turn int
	// Marked cells are drawn between brackets, and highlighted in colour.
	Marked []Cell
	// Color draws with ANSI escapes: the glyphs' styles, a grey frame and
	// highlighted marks. Without it the drawing is plain text.
	Color bool
}

// Turns lists the rotations Draw accepts, in degrees: a half turn on every
// board (the view from the other side), and every sixth of a turn on a
// hexhex board, whose six sides look alike.
func (b *Board) Turns() []int {
	if b.kind == HexHex {
		return []int{0, 60, 120, 180, 240, 300}
	}
	return []int{0, 180}
}

// Draw draws the board as text, one line per row of text, each ending in a
// newline. glyph gives what a cell shows: at most GlyphWidth characters,
// centred in the cell; an empty glyph draws the cell as empty ("."). The
// cells' names are written along the edges: rank or row numbers and file,
// column or row letters, so that every cell can be found at a glance.
//
// Draw refuses a turn the board does not allow, a marked cell that is not
// on the board, and a glyph wider than GlyphWidth.
func (b *Board) Draw(glyph func(Cell) []Span, opt DrawOptions) (string, error) {
	if !slices.Contains(b.Turns(), opt.Turn) {
		return "", fmt.Errorf("board %s: cannot be drawn turned by %d degrees (allowed: %s)", b.id, opt.Turn, joinInts(b.Turns()))
	}
	marked := make([]bool, len(b.names))
	for _, c := range opt.Marked {
		if int(c) >= len(b.names) {
			return "", fmt.Errorf("board %s: marked cell %d is not on the board (cells 0 to %d)", b.id, c, len(b.names)-1)
		}
		marked[c] = true
	}
	glyphs := make([][]Span, len(b.names))
	for c := range b.names {
		glyphs[c] = glyph(Cell(c))
		if w := spansWidth(glyphs[c]); w > GlyphWidth {
			return "", fmt.Errorf("board %s: the glyph of %s is %d characters wide, more than %d", b.id, b.names[c], w, GlyphWidth)
		}
	}
	l := b.newLayout(opt.Turn)
	cv := canvas{}
	for c := range b.names {
		l.frame(&cv, l.at(b.xs[c], b.ys[c]))
	}
	for c := range b.names {
		at := l.at(b.xs[c], b.ys[c])
		if marked[c] {
			cv.put(at, "   ", markStyle)
			cv.bracket(pos{at.line, at.col - 1}, '[')
			cv.bracket(pos{at.line, at.col + GlyphWidth}, ']')
		}
		cv.centre(at, glyphs[c], marked[c])
	}
	top, bottom := l.at(b.xs[0], b.ys[0]).line, 0
	for c := range b.names {
		line := l.at(b.xs[c], b.ys[c]).line
		top, bottom = min(top, line), max(bottom, line)
	}
	for _, lb := range b.labels() {
		at := l.at(lb.x, lb.y)
		if lb.of != None && (at.line < top || at.line > bottom) {
			// A label above or below a cell's corner leans one column
			// towards its cell, so that it is not read as its
			// neighbour's.
			at.col += cmp.Compare(l.at(b.xs[lb.of], b.ys[lb.of]).col, at.col)
		}
		cv.centre(at, []Span{{lb.text, labelStyle}}, false)
	}
	return cv.render(opt.Color), nil
}

// pos is a place on the text canvas: a line and a column, either of which
// may be negative until the drawing is laid out.
type pos struct{ line, col int }

// point is a place in a board's own coordinates, or in the view's.
type point struct{ x, y int }

// layout places a board's cells in text for one turn of the board.
type layout struct {
	// rotate maps board coordinates to the coordinates of the view.
	rotate func(point) point
	// place gives where the glyph of the cell at a view point starts.
	place func(point) pos
	// frame draws the lines around a cell whose glyph starts at a pos.
	frame func(*canvas, pos)
}

// at is where the glyph of the cell at board coordinates x, y starts.
func (l layout) at(x, y int) pos { return l.place(l.rotate(point{x, y})) }

// newLayout builds the layout of the board's kind for a turn Draw has
// checked.
func (b *Board) newLayout(turn int) layout {
	minX, maxX := slices.Min(b.xs), slices.Max(b.xs)
	minY, maxY := slices.Min(b.ys), slices.Max(b.ys)
	l := layout{rotate: func(p point) point { return p }, frame: func(*canvas, pos) {}}
	if turn == 180 {
		// A half turn about the board's centre; on a hexhex board the
		// general rotation below gives the same.
		l.rotate = func(p point) point { return point{minX + maxX - p.x, minY + maxY - p.y} }
	}
	switch b.kind {
	case HexColumns:
		l.place = func(p point) pos { return pos{maxY - p.y + 1, 4*p.x + 1} }
		l.frame = frameHexColumnCell
	case HexHex:
		l.rotate = hexHexRotation(turn, point{(minX + maxX) / 2, (minY + maxY) / 2})
		l.place = func(p point) pos { return pos{2*(maxY-p.y) + 1, 2*p.x + 1} }
		l.frame = frameHexHexCell
	default:
		l.place = func(p point) pos { return pos{maxY - p.y, 4*p.x + 1} }
	}
	return l
}

// label is a coordinate written at a place next to the board, given in
// board coordinates, so that it turns with the board.
type label struct {
	x, y int
	text string
	// of is the cell the label names when it stands at one corner of it,
	// else None.
	of Cell
}

// labels lists the coordinates drawn around the board.
func (b *Board) labels() []label {
	switch b.kind {
	case HexColumns:
		return b.hexColumnLabels()
	case HexHex:
		return b.hexHexLabels()
	}
	return b.squareLabels()
}

// nameParts splits a cell name into its letters and its number: "c12" is
// "c" and "12".
func nameParts(name string) (letters, number string) {
	i := strings.IndexAny(name, "0123456789")
	if i < 0 {
		return name, ""
	}
	return name[:i], name[i:]
}

func spansWidth(spans []Span) int {
	n := 0
	for _, s := range spans {
		n += utf8.RuneCountInString(s.Text)
	}
	return n
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}
