// Package textboard draws a position of any game as text for a terminal:
// the board from any seat's side, with the coordinates along its edges,
// each piece as its seat's letter, stacks and piles bottom to top, chosen
// cells marked (the last move), in colour or in plain text.
//
// It knows no game. The geometry and the drawing come from the board
// (board.Board.Draw), the pieces from the state through game.Stacker, and
// the letters from the seats' names: the first letter of the name, lower
// case for a plain piece and upper case for a promoted one, so White's
// soldier is "w" and Black's king "B".
package textboard

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Width is the most columns any line of a drawing takes, whatever the game,
// the view and the position.
const Width = 80

// Options says how Draw shows a position.
type Options struct {
	// View is the seat whose side of the board is drawn at the bottom.
	// Seat 0 sees the board as the rules describe it; with two players
	// seat 1 sees it turned half round, with three players each seat sees
	// it a third of a turn further round, its home edge at the bottom.
	View game.Player
	// Marked are cells to mark, such as the cells of the last move (see
	// MoveCells): drawn between brackets, and highlighted in colour.
	Marked []board.Cell
	// Color draws with ANSI escapes: each seat's pieces in its colour and
	// the marks highlighted. The caller decides, from NO_COLOR and whether
	// the output is a terminal.
	Color bool
}

// Draw draws the board of s as text, each line ending in a newline and at
// most Width columns wide (escapes not counted). Under the board come a
// one-line legend when some cell holds a stack, and the stacks too tall to
// show in their cells, bottom to top. It refuses a view that is not a seat
// of the game and a marked cell that is not on the board.
func Draw(s game.State, opt Options) (string, error) {
	g := s.Game()
	if opt.View < 0 || int(opt.View) >= g.Players() {
		return "", fmt.Errorf("view %d: %s seats players 0 to %d", opt.View, g.ID(), g.Players()-1)
	}
	p := newPosition(s)
	text, err := g.Board().Draw(func(c board.Cell) []board.Span { return p.glyph(c, opt.Color) },
		board.DrawOptions{Turn: 360 * int(opt.View) / g.Players(), Marked: opt.Marked, Color: opt.Color})
	if err != nil {
		return "", err
	}
	return text + p.legend() + p.tallStacks(opt.Color), nil
}

// MoveCells lists the cells a move touches, to mark them: its start, every
// landing and every drop.
func MoveCells(m game.Move) []board.Cell {
	cells := make([]board.Cell, 0, m.Len()+len(m.Drops()))
	for i := range m.Len() {
		cells = append(cells, m.At(i))
	}
	return append(cells, m.Drops()...)
}

// position is what Draw needs of a state: every cell's stack and each
// seat's letter and colour.
type position struct {
	b       *board.Board
	stacks  [][]game.Piece
	letters [game.MaxPlayers]rune
	styles  [game.MaxPlayers]board.Style
}

func newPosition(s game.State) *position {
	g := s.Game()
	p := &position{b: g.Board(), stacks: make([][]game.Piece, g.Board().Len())}
	for seat := range g.Players() {
		name := g.PlayerName(game.Player(seat))
		first, _ := utf8.DecodeRuneInString(name)
		p.letters[seat] = unicode.ToLower(first)
		p.styles[seat] = seatStyle(name, seat)
	}
	stacker, stacked := s.(game.Stacker)
	for c := range p.stacks {
		switch owner := s.Owner(board.Cell(c)); {
		case stacked:
			p.stacks[c] = stacker.Stack(board.Cell(c), nil)
		case owner != game.NoPlayer:
			p.stacks[c] = []game.Piece{{Owner: owner, Rank: game.Man}}
		}
	}
	return p
}

// seatStyle colours the pieces of a seat named after a colour in that
// colour, as a chip: a background with a contrasting letter, which reads on
// dark and light terminals alike (Black's chips are dark grey, so that they
// stand out on a black terminal too). Seats named otherwise get a colour by
// their number.
func seatStyle(name string, seat int) board.Style {
	switch name {
	case "White":
		return "30;107"
	case "Black":
		return "97;100"
	case "Red":
		return "97;41"
	}
	return [...]board.Style{"30;107", "97;100", "97;41", "30;46"}[seat%4]
}

// letter is a piece's letter: its seat's, upper case when promoted.
func (p *position) letter(pc game.Piece) string {
	r := p.letters[pc.Owner]
	if pc.Rank != game.Man {
		r = unicode.ToUpper(r)
	}
	return string(r)
}

// style is a piece's colour: its seat's, bold when promoted.
func (p *position) style(pc game.Piece) board.Style {
	if pc.Rank != game.Man {
		return p.styles[pc.Owner] + ";1"
	}
	return p.styles[pc.Owner]
}

// glyph draws a cell: a single piece as its letter, a stack that fits as
// its letters bottom to top ("wbB"), a taller one as its height and its
// top letter ("12B"): a digit first, so no stack reads as a cell name.
func (p *position) glyph(c board.Cell, color bool) []board.Span {
	st := p.stacks[c]
	switch {
	case len(st) == 0:
		return nil
	case len(st) == 1:
		// The padding takes the colour too, so the piece is a chip as
		// wide as the cell.
		return []board.Span{{Text: " " + p.letter(st[0]) + " ", Style: p.style(st[0])}}
	case len(st) <= board.GlyphWidth:
		spans := make([]board.Span, len(st))
		for i, pc := range st {
			spans[i] = board.Span{Text: p.letter(pc), Style: p.style(pc)}
		}
		return spans
	}
	top := st[len(st)-1]
	return []board.Span{{Text: fmt.Sprintf("%d%s", len(st), p.letter(top)), Style: p.style(top)}}
}

// lettersOf writes a stack bottom to top, each letter in its colour when
// color is set.
func (p *position) lettersOf(st []game.Piece, color bool) string {
	var sb strings.Builder
	for _, pc := range st {
		if color {
			sb.WriteString("\x1b[0;" + string(p.style(pc)) + "m" + p.letter(pc) + "\x1b[0m")
		} else {
			sb.WriteString(p.letter(pc))
		}
	}
	return sb.String()
}

// legend says how to read the stacks on the board, with examples taken
// from it, or nothing when every cell holds one piece at most.
func (p *position) legend() string {
	var short, tall []game.Piece
	for _, st := range p.stacks {
		switch {
		case len(st) > board.GlyphWidth && tall == nil:
			tall = st
		case len(st) > 1 && len(st) <= board.GlyphWidth && short == nil:
			short = st
		}
	}
	var parts []string
	if short != nil {
		parts = append(parts, fmt.Sprintf("%s = bottom to top, %s on top",
			p.lettersOf(short, false), p.letter(short[len(short)-1])))
	}
	if tall != nil {
		parts = append(parts, fmt.Sprintf("%d%s = %d high, %s on top, listed below",
			len(tall), p.letter(tall[len(tall)-1]), len(tall), p.letter(tall[len(tall)-1])))
	}
	if parts == nil {
		return ""
	}
	return "Stacks: " + strings.Join(parts, "; ") + ".\n"
}

// tallStacks lists the stacks too tall for their cells, bottom to top,
// wrapped at the entries so that no line is wider than Width.
func (p *position) tallStacks(color bool) string {
	var sb strings.Builder
	width := 0
	for c, st := range p.stacks {
		if len(st) <= board.GlyphWidth {
			continue
		}
		entry := p.b.Name(board.Cell(c)) + " " + p.lettersOf(st, false)
		shown := p.b.Name(board.Cell(c)) + " " + p.lettersOf(st, color)
		switch {
		case width == 0:
			sb.WriteString("Tall stacks, bottom to top:\n ")
			width = 1
		case width+3+len(entry) > Width: // the entry, its separator and a comma after it
			sb.WriteString(",\n ")
			width = 1
		default:
			sb.WriteString(",")
			width++
		}
		sb.WriteString(" " + shown)
		width += 1 + len(entry)
	}
	if width > 0 {
		sb.WriteByte('\n')
	}
	return sb.String()
}

// String draws s plainly as seat 0 sees it, followed by Footer: what the
// games' String methods drew before drawing left the rules. With these
// options Draw fails only on a board that cannot be drawn, which no game
// has; the text then says why.
func String(s game.State) string {
	text, err := Draw(s, Options{})
	if err != nil {
		return err.Error() + "\n"
	}
	return text + Footer(s)
}

// Footer is the lines a drawing of s ends with, under the board: the
// scores so far when the game keeps score (game.Scorer), then the player
// to move: "Scores: White 2, Black 0\nWhite to move\n".
func Footer(s game.State) string {
	g := s.Game()
	var sb strings.Builder
	if sc, ok := s.(game.Scorer); ok {
		scores := sc.Scores()
		parts := make([]string, g.Players())
		for p := range parts {
			parts[p] = fmt.Sprintf("%s %d", g.PlayerName(game.Player(p)), scores[p])
		}
		sb.WriteString("Scores: " + strings.Join(parts, ", ") + "\n")
	}
	sb.WriteString(g.PlayerName(s.ToMove()) + " to move\n")
	return sb.String()
}
