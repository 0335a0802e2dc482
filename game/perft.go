package game

import "slices"

// Perft counts the sequences of depth legal moves from s, playing and
// taking back every one, leaves included. It ignores the draw safeguards
// (RULINGS section 0). s is restored when Perft returns.
func Perft(s State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(s, depth, make([][]Move, depth), false)
}

// PerftBulk is Perft counting the moves at the last level instead of
// playing them: the same number, faster. Benchmarks use it.
func PerftBulk(s State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(s, depth, make([][]Move, depth), true)
}

func perft(s State, depth int, bufs [][]Move, bulk bool) uint64 {
	moves := s.Moves(bufs[depth-1][:0])
	bufs[depth-1] = moves
	if depth == 1 && bulk {
		return uint64(len(moves))
	}
	var n uint64
	for i := range moves {
		s.Play(moves[i])
		if depth == 1 {
			n++
		} else {
			n += perft(s, depth-1, bufs, bulk)
		}
		s.Undo()
	}
	return n
}

// DivideEntry is one line of a perft divide: a first move and the number
// of sequences that start with it.
type DivideEntry struct {
	Move  string
	Nodes uint64
}

// Divide runs Perft below every legal move of s and returns the counts by
// move, sorted by the move's notation.
func Divide(s State, depth int) []DivideEntry {
	if depth <= 0 {
		return nil
	}
	b := s.Game().Board()
	var out []DivideEntry
	bufs := make([][]Move, depth)
	for _, m := range s.Moves(nil) {
		s.Play(m)
		n := uint64(1)
		if depth > 1 {
			n = perft(s, depth-1, bufs, false)
		}
		s.Undo()
		out = append(out, DivideEntry{Move: m.Text(b), Nodes: n})
	}
	slices.SortFunc(out, func(a, b DivideEntry) int {
		if a.Move < b.Move {
			return -1
		}
		if a.Move > b.Move {
			return 1
		}
		return 0
	})
	return out
}
