package board

import (
	"strings"
	"unicode/utf8"
)

// styled is one character of a drawing with its style.
type styled struct {
	r  rune
	st Style
}

// canvas is a drawing in progress: characters at any line and column,
// negative ones included, laid out by render.
type canvas map[pos]styled

// put writes s from p rightwards in one style.
func (cv canvas) put(p pos, s string, st Style) {
	for i, r := range []rune(s) {
		cv[pos{p.line, p.col + i}] = styled{r, st}
	}
}

// bracket writes one side of a mark. Where two marked cells share a
// border, the second bracket meets the first and they become one bar, so
// that "[w|b]" reads as two marked cells side by side.
func (cv canvas) bracket(p pos, r rune) {
	if old, ok := cv[p]; ok && old.st == bracketStyle {
		r = '|'
	}
	cv[p] = styled{r, bracketStyle}
}

// centre writes a glyph in the GlyphWidth characters from p, an empty one
// as a dot. In a marked cell the glyph's unstyled characters keep the mark's
// highlight.
func (cv canvas) centre(p pos, spans []Span, marked bool) {
	if spansWidth(spans) == 0 {
		spans = []Span{{".", ""}}
	}
	col := p.col + (GlyphWidth-spansWidth(spans))/2
	for _, s := range spans {
		st := s.Style
		if st == "" && marked {
			st = markStyle
		}
		cv.put(pos{p.line, col}, s.Text, st)
		col += utf8.RuneCountInString(s.Text)
	}
}

// render lays the canvas out from its top line and leftmost column, each
// line without trailing blanks; in colour each change of style is an ANSI
// escape and every line ends in the default style.
func (cv canvas) render(color bool) string {
	if len(cv) == 0 {
		return ""
	}
	first := true
	var top, bottom, left int
	last := map[int]int{}
	for p, ch := range cv {
		if first {
			top, bottom, left, first = p.line, p.line, p.col, false
		}
		top, bottom, left = min(top, p.line), max(bottom, p.line), min(left, p.col)
		if ch.r != ' ' || (color && ch.st != "") {
			if end, ok := last[p.line]; !ok || p.col > end {
				last[p.line] = p.col
			}
		}
	}
	var sb strings.Builder
	for line := top; line <= bottom; line++ {
		end, ok := last[line]
		cur := Style("")
		for col := left; ok && col <= end; col++ {
			ch, drawn := cv[pos{line, col}]
			if !drawn {
				ch = styled{' ', ""}
			}
			if color && ch.st != cur {
				sb.WriteString(escape(ch.st))
				cur = ch.st
			}
			sb.WriteRune(ch.r)
		}
		if cur != "" {
			sb.WriteString(escape(""))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// escape switches to a style: back to the default first, so that nothing
// of the previous style lingers.
func escape(st Style) string {
	if st == "" {
		return "\x1b[0m"
	}
	return "\x1b[0;" + string(st) + "m"
}
