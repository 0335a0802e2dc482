package game

// History records the hash of every position of a game, so that States can
// apply the draw safeguards of RULINGS section 0. Games embed one in their
// State and Push after every move.
type History struct {
	entries []historyEntry
}

type historyEntry struct {
	hash uint64
	// since is the index of the first entry that can repeat this one: no
	// position before an irreversible move can occur again after it.
	since int32
}

// reserve is the room a new history makes at once: a typical game's
// length, so that a game played to its end grows the slice once or
// twice instead of eight times (each growth is garbage to collect, and
// random playouts create a history per game).
const reserve = 256

// Reset starts the history at a position.
func (h *History) Reset(hash uint64) {
	if h.entries == nil {
		h.entries = make([]historyEntry, 0, reserve)
	}
	h.entries = append(h.entries[:0], historyEntry{hash: hash})
}

// Push records the position after a move. irreversible tells that no
// earlier position can occur again (a capture, a soldier's step forward).
func (h *History) Push(hash uint64, irreversible bool) {
	since := int32(len(h.entries))
	if !irreversible && len(h.entries) > 0 {
		since = h.entries[len(h.entries)-1].since
	}
	h.entries = append(h.entries, historyEntry{hash: hash, since: since})
}

// Pop forgets the last position, as Undo does.
func (h *History) Pop() {
	if len(h.entries) > 1 {
		h.entries = h.entries[:len(h.entries)-1]
	}
}

// Repeats counts how many times the current position has occurred,
// itself included.
func (h *History) Repeats() int {
	if len(h.entries) == 0 {
		return 0
	}
	last := h.entries[len(h.entries)-1]
	n := 0
	for _, e := range h.entries[last.since:] {
		if e.hash == last.hash {
			n++
		}
	}
	return n
}

// Clone returns an independent copy.
func (h *History) Clone() History {
	return History{entries: append([]historyEntry(nil), h.entries...)}
}

// Safeguards applies the draw rules of RULINGS section 0 to a game that is
// not over by its own rules: the third occurrence of a position, then the
// ply cap. It returns an Ongoing result when neither applies.
func Safeguards(h *History, ply, maxPlies int) Result {
	if h.Repeats() >= 3 {
		return DrawBy(Repetition)
	}
	if maxPlies > 0 && ply >= maxPlies {
		return DrawBy(PlyCap)
	}
	return Result{}
}

// DuelEnd applies the end common to the two-player games of RULINGS
// section 0 for the player me to move: a side without pieces has lost
// (mine or theirs false), then me loses without a legal move (moves is
// the number it has), then the draw safeguards apply.
func DuelEnd(me Player, mine, theirs bool, moves int, h *History, ply, maxPlies int) Result {
	switch {
	case !mine:
		return Win(1-me, NoPieces)
	case !theirs: // only from a FEN: no move leaves its mover without pieces
		return Win(me, NoPieces)
	case moves == 0:
		return Win(1-me, NoMoves)
	}
	return Safeguards(h, ply, maxPlies)
}
