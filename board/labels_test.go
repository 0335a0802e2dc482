package board

import (
	"fmt"
	"strconv"
	"testing"
)

// TestHexColumnLabelsOnce: Pommel's boards write each column letter once,
// under its column, and each cell number once, left of the board, in
// every turn (the labels turn with the board): a reader finds a cell by
// its column, then its number. The numbers stand in one column, a cell
// apart, each level with a cell of its number, or (a number only the
// long columns reach) one cell above the number before it.
func TestHexColumnLabelsOnce(t *testing.T) {
	for _, b := range []*Board{NewHexColumns(7, 7), NewHexColumns(9, 9)} {
		for _, turn := range b.Turns() {
			g := mustGeometry(t, b, turn)
			back := (360 - turn) % 360
			columns, numbers := map[string][]Point{}, map[string][]Point{}
			for _, c := range g.Cells {
				letter, number := nameParts(c.Name)
				at := turnPoint(c.Center, back)
				columns[letter] = append(columns[letter], at)
				numbers[number] = append(numbers[number], at)
			}
			seen := map[string]bool{}
			var previous *Point
			for _, l := range g.Labels {
				at := turnPoint(l.At, back)
				name := fmt.Sprintf("%s turned %d: label %q at %v", b.ID(), turn, l.Text, at)
				if seen[l.Text] {
					t.Errorf("%s: written twice", name)
				}
				seen[l.Text] = true
				if _, err := strconv.Atoi(l.Text); err == nil {
					checkNumberLabel(t, name, at, previous, numbers[l.Text], g.Cells, back)
					previous = &at
				} else {
					checkColumnLabel(t, name, at, columns[l.Text])
				}
			}
			if len(seen) != len(columns)+len(numbers) {
				t.Errorf("%s turned %d: %d labels for %d columns and %d numbers", b.ID(), turn, len(seen), len(columns), len(numbers))
			}
		}
	}
}

// checkColumnLabel: a column's letter stands under the column.
func checkColumnLabel(t *testing.T, name string, at Point, column []Point) {
	t.Helper()
	if len(column) == 0 {
		t.Errorf("%s: names no column", name)
	}
	for _, c := range column {
		if cmpFloat(c.X, at.X) != 0 || c.Y >= at.Y {
			t.Errorf("%s: not under its column's cell at %v", name, c)
		}
	}
}

// checkNumberLabel: a number stands level with a cell of that number,
// or one cell above the number before it, and in that number's column,
// left of every cell.
func checkNumberLabel(t *testing.T, name string, at Point, previous *Point, numbered []Point, cells []CellShape, back int) {
	t.Helper()
	level := false
	for _, c := range numbered {
		level = level || cmpFloat(c.Y, at.Y) == 0
	}
	if previous != nil {
		if cmpFloat(previous.X, at.X) != 0 {
			t.Errorf("%s: not in the column of the number before, at %v", name, *previous)
		}
		if !level && cmpFloat(previous.Y-1, at.Y) != 0 {
			t.Errorf("%s: level with no cell of its number, and not a cell above the number before, at %v", name, *previous)
		}
	} else if !level {
		t.Errorf("%s: level with no cell of its number", name)
	}
	for _, c := range cells {
		if turnPoint(c.Center, back).X <= at.X {
			t.Errorf("%s: not left of %s", name, c.Name)
		}
	}
}
