package game

// Movers lists the seats that made the last plies moves of s, oldest
// first, read by taking them back on a copy of s: whatever order the
// rules pass the turn in, each move is given to the seat that made it.
// Records, the terminal's history and the server's game view number and
// label moves by it.
func Movers(s State, plies int) []Player {
	c := s.Clone()
	movers := make([]Player, plies)
	for ply := plies - 1; ply >= 0 && c.Undo(); ply-- {
		movers[ply] = c.ToMove()
	}
	return movers
}
