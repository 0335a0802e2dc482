package board

// HalfTurn returns the cell c turns to when the board is turned half a
// turn about its centre, or None when the board has no such symmetry. On
// every board the games use (the square boards, Pommel's hex columns and
// the hexhex board) the half turn maps the board onto itself and exchanges
// the two sides' home edges; it keeps a square's colour, which a
// reflection across the middle rank of an even board would not. The pie
// rule mirrors a position with it.
func (b *Board) HalfTurn(c Cell) Cell {
	if int(c) >= len(b.halfTurn) {
		return None
	}
	return b.halfTurn[c]
}

// halfTurnTable maps each cell to its image under the half turn about the
// centre of the cells' bounding box, or returns nil when some cell has no
// image on the board.
func halfTurnTable(cells []cellSpec, at map[[2]int]Cell) []Cell {
	if len(cells) == 0 {
		return nil
	}
	minX, maxX, minY, maxY := cells[0].x, cells[0].x, cells[0].y, cells[0].y
	for _, c := range cells {
		minX, maxX = min(minX, c.x), max(maxX, c.x)
		minY, maxY = min(minY, c.y), max(maxY, c.y)
	}
	table := make([]Cell, len(cells))
	for i, c := range cells {
		img, ok := at[[2]int{minX + maxX - c.x, minY + maxY - c.y}]
		if !ok {
			return nil
		}
		table[i] = img
	}
	return table
}
