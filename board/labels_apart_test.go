package board

import (
	"math"
	"testing"
)

// TestLabelsApart: on every board, turned or not, no two coordinate labels
// stand closer than 0.8 (a cell is 1 across, a hex column 0.87): on Pommel's boards the "7"
// of the long columns stood half a cell over the "6" (issue 36).
func TestLabelsApart(t *testing.T) {
	for _, b := range testBoards() {
		for _, turn := range []int{0, 180} {
			g, err := b.Geometry(turn)
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range g.Labels {
				for _, m := range g.Labels[i+1:] {
					if d := math.Hypot(l.At.X-m.At.X, l.At.Y-m.At.Y); d < 0.8 {
						t.Errorf("%s turned %d: labels %q and %q are %.2f apart", b.ID(), turn, l.Text, m.Text, d)
					}
				}
			}
		}
	}
}
