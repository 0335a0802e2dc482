package board

import "testing"

// TestRenderSquareWideGlyphs: a glyph wider than two characters (a stack
// drawn bottom to top) widens every column to its width, right-aligned, the
// file letters under the last character; glyphs of two characters or fewer
// keep the classic drawing.
func TestRenderSquareWideGlyphs(t *testing.T) {
	tests := []struct {
		name   string
		glyphs map[string]string
		want   string
	}{
		{"one and two characters", map[string]string{"a1": "w", "c2": "wB"},
			" 2  .  . wB\n 1  w  .  .\n    a  b  c\n"},
		{"a glyph of four characters widens every column", map[string]string{"a1": "w", "b2": "wbbW"},
			" 2    . wbbW    .\n 1    w    .    .\n      a    b    c\n"},
		{"non-ASCII glyphs count as one character each", map[string]string{"c1": "●○●"},
			" 2   .   .   .\n 1   .   . ●○●\n     a   b   c\n"},
	}
	b := NewSquare(3, 2)
	for _, tc := range tests {
		got := b.Render(func(c Cell) string { return tc.glyphs[b.Name(c)] })
		if got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
