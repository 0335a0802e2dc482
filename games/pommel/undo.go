package pommel

// The undo stack holds the positions before each move, packed into
// words: four on the 45-cell board, whose sets need one word each, eight
// on the 76-cell board.
//
//	45 cells: White's pieces, Black's, the captains, hash
//	76 cells: the same sets on two words each, hash, meta
//
// since is kept in the 45-cell board's words of pieces, above the cells
// (sinceShift), and in meta on the 76-cell board, with the piece counts
// (those of the 45-cell board are counted again). A random game makes a
// new State, and the room its stack needs was most of the bytes a game
// allocated: the collector's work, and memory the processor had not seen
// yet at every game. 32 bytes a move instead of the 64 of a position (and
// 16 more for a separate history) is less of both, and Undo is still a few
// words read back, as cheap as copying a position: the search and perft
// take every move back. The repetition rule reads the hashes at a fixed
// stride.
const (
	sinceShift = 48 // narrow: 16 bits of since above the cells of each word of pieces
	countBits  = 32 // meta: 8 bits a side from here; since below
)

// recordWords is the length of a position's record: four words on a board
// of at most sinceShift cells, eight on a larger one.
func recordWords(narrow bool) int {
	if narrow {
		return 4
	}
	return 8
}

// hashAt is where the hash is in a record: after the sets.
func hashAt(narrow bool) int {
	if narrow {
		return 3
	}
	return 6
}

// pushPosition records the position before a move.
func (s *State) pushPosition() {
	p := &s.pos
	since := uint64(uint32(s.since))
	if s.g.t.narrow {
		s.undo = append(s.undo, p.pieces[White].lo|since<<sinceShift, p.pieces[Black].lo|since>>16<<sinceShift, p.captains.lo, p.hash)
		return
	}
	meta := since | uint64(p.count[White])<<countBits | uint64(p.count[Black])<<(countBits+8)
	s.undo = append(s.undo, p.pieces[White].lo, p.pieces[White].hi, p.pieces[Black].lo, p.pieces[Black].hi,
		p.captains.lo, p.captains.hi, p.hash, meta)
}

// popPosition takes the last record off the stack and restores the
// position and since from it. The stack must not be empty. Every move
// passes the turn (the swap too), so the player to move is the other one.
func (s *State) popPosition() {
	p := &s.pos
	p.toMove = 1 - p.toMove
	n := len(s.undo)
	if s.g.t.narrow {
		const cells = 1<<sinceShift - 1
		n -= 4
		w := s.undo[n : n+4]
		p.pieces[White], p.pieces[Black], p.captains = cellSet{lo: w[0] & cells}, cellSet{lo: w[1] & cells}, cellSet{lo: w[2]}
		p.hash = w[3]
		p.count[White], p.count[Black] = uint8(p.pieces[White].count()), uint8(p.pieces[Black].count())
		s.since = int(uint32(w[0]>>sinceShift | w[1]>>sinceShift<<16))
		s.undo = s.undo[:n]
		return
	}
	n -= 8
	w := s.undo[n : n+8]
	p.pieces[White], p.pieces[Black], p.captains = cellSet{w[0], w[1]}, cellSet{w[2], w[3]}, cellSet{w[4], w[5]}
	p.hash = w[6]
	p.count[White], p.count[Black] = uint8(w[7]>>countBits), uint8(w[7]>>(countBits+8))
	s.since = int(uint32(w[7]))
	s.undo = s.undo[:n]
}

// repeats counts how many times the current position has occurred since
// the last irreversible move, itself included. Every move passes the
// turn, so only every second position back can have the same player to
// move.
func (s *State) repeats() int {
	n := 1
	stride, at := recordWords(s.g.t.narrow), hashAt(s.g.t.narrow)
	for back, i := 2, len(s.undo)-2*stride; back <= s.ply-s.since; back, i = back+2, i-2*stride {
		if s.undo[i+at] == s.pos.hash {
			n++
		}
	}
	return n
}
