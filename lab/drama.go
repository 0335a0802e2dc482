package lab

import (
	"maps"
	"slices"
)

// DecisiveMargin is the lead, in the engines' units (hundredths of a
// piece), that counts as a clear one: two pieces. A winner whose every
// later search sees at least this much had the game decided from there;
// a winner that saw itself this far behind made a comeback.
const DecisiveMargin = 200

// Arc is what the engines' own evaluations say of a game with one winner,
// read from the winner's searches alone (each search's score is from its
// mover's side, so this works for any number of players).
type Arc struct {
	// Drama is the share of the winner's searches that saw it behind
	// (a score below -LeadDeadZone: within half a piece is level).
	Drama float64
	// Comeback reports that some search of the winner saw it behind by
	// DecisiveMargin or more.
	Comeback bool
	// DecidedAt is the share of the game's plies played when the winner's
	// lead became lasting: the ply of its first search from which every
	// later one saw a lead of DecisiveMargin or more (1 when no such lead
	// lasted to the end, as in a game won by a late blunder).
	DecidedAt float64
}

// arcOf reads the game's arc; ok is false for a draw, a shared first
// place or a game whose winner never searched.
func arcOf(plies []PlyStats, winners []int) (arc Arc, ok bool) {
	if len(winners) != 1 || len(plies) == 0 {
		return Arc{}, false
	}
	var own []PlyStats
	for _, ps := range plies {
		if ps.Searched && ps.Mover == winners[0] {
			own = append(own, ps)
		}
	}
	if len(own) == 0 {
		return Arc{}, false
	}
	behind := 0
	decided := len(plies)
	for i, ps := range slices.Backward(own) {
		if ps.Score < DecisiveMargin {
			break
		}
		decided = own[i].Ply - 1 // the lead was there before this move
	}
	for _, ps := range own {
		if ps.Score < -LeadDeadZone {
			behind++
		}
		if ps.Score <= -DecisiveMargin {
			arc.Comeback = true
		}
	}
	arc.Drama = float64(behind) / float64(len(own))
	arc.DecidedAt = float64(decided) / float64(len(plies))
	return arc, true
}

// Signals names, for a game, the player each telling event points at:
// "first capture" the player who captured first, "more captures" the one
// who captured most (absent on a tie), and so on for takeovers, scoring
// and promotions, and "ahead at half-time" the player leading halfway
// through (by score in games that score, else by pieces on the board).
// The summary says how often the player a signal names went on to win:
// a signal that predicts the winner far above a fair share decides games.
type Signals map[string]int

// signalsOf reads the signals from the game's plies; leaders[k] is the
// player leading after ply k+1 (-1: nobody alone).
func signalsOf(plies []PlyStats, leaders []int) Signals {
	sig := Signals{}
	counts := map[string]map[int]int{}
	for _, ps := range plies {
		for kind, did := range map[string]bool{"capture": ps.Capture, "takeover": ps.Takeover,
			"score": ps.Scored, "promotion": ps.Promoted} {
			if !did {
				continue
			}
			if _, seen := sig["first "+kind]; !seen {
				sig["first "+kind] = ps.Mover
			}
			if counts[kind] == nil {
				counts[kind] = map[int]int{}
			}
			counts[kind][ps.Mover]++
		}
	}
	for kind, by := range counts {
		if p, ok := uniqueMax(by); ok {
			sig["most "+kind+"s"] = p
		}
	}
	if n := len(leaders); n > 0 && leaders[(n-1)/2] >= 0 {
		sig["ahead at half-time"] = leaders[(n-1)/2]
	}
	return sig
}

// uniqueMax is the key with the largest count, if no other has as many.
func uniqueMax(by map[int]int) (int, bool) {
	best, top, tie := -1, -1, false
	for _, p := range slices.Sorted(maps.Keys(by)) {
		switch n := by[p]; {
		case n > top:
			best, top, tie = p, n, false
		case n == top:
			tie = true
		}
	}
	return best, best >= 0 && !tie
}

// leader is the one player with the most of v, or -1 on a tie.
func leader(v []int) int {
	by := map[int]int{}
	for p, n := range v {
		by[p] = n
	}
	p, ok := uniqueMax(by)
	if !ok {
		return -1
	}
	return p
}
