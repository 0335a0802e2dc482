// Package endgame builds and reads exact endgame tables: for every
// position of a game with few enough pieces, whether the side to move
// wins, loses or draws with best play, and in how many plies (the fastest
// win, the slowest loss). Tables are built by retrograde analysis with the
// game's own move generator (Build), checked against themselves (Verify)
// and read by engines and tools (Open, Tables.Lookup, Tables.Probe).
//
// A game joins when its states implement game.Placer (one piece a cell)
// and its pieces are men and kings that never come back once taken: today
// Pommel on both boards. A game whose moves add men (Eximo's drops) joins
// as a Dropper: its materials are solved together, and the tables hold
// only the positions whose value does not depend on more pieces (see
// drops.go).
package endgame

import "strconv"

// Kind is a position's value for the side to move.
type Kind uint8

// The kinds. A draw is a position from which neither side can force a
// win; repetitions and the ply cap play no part.
const (
	Draw Kind = iota
	Win
	Loss
)

// String is the kind in words: "win", "loss" or "draw", as the API and
// the puzzles' recheck write it.
func (k Kind) String() string {
	switch k {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "draw"
}

// Value is a position's exact value for the side to move: a win in Plies
// plies (the fastest), a loss in Plies plies (the slowest; 0 when the
// side to move has no legal move), or a draw (Plies 0).
type Value struct {
	Kind  Kind
	Plies int
}

// Words writes v for people: "win in N", "loss in N" (N in plies) or
// "draw".
func (v Value) Words() string {
	switch v.Kind {
	case Win:
		return "win in " + strconv.Itoa(v.Plies)
	case Loss:
		return "loss in " + strconv.Itoa(v.Plies)
	}
	return "draw"
}

// String writes v as probe prints it: "win N", "loss N" or "draw".
func (v Value) String() string {
	switch v.Kind {
	case Win:
		return "win " + strconv.Itoa(v.Plies)
	case Loss:
		return "loss " + strconv.Itoa(v.Plies)
	}
	return "draw"
}
