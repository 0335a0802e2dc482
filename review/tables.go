package review

import (
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
)

// Endgames: the search probes the tables (ai.WithTables), so the scores
// of a table position are exact already (a win in n plies scores
// ai.Mate-n, as a win the search found would). Move.Table says it in
// words: the position's value and the played move's, both for the mover,
// by the tables' own distances. The ply cap plays no part in the text
// (the tables know no cap); the search's scores count it, as ab does.

// tableText is the tables' word on the position s and the move m played
// from it, for the mover: "win in 23 → draw" when the move changes the
// value, "win in 23" alone when it keeps the value and its kind (a win
// kept by a slower win still reads "win in 23 → win in 31"), or "" when
// the tables do not hold s.
func tableText(t *endgame.Tables, s game.State, m game.Move) string {
	before, ok := TableValue(t, s)
	if !ok {
		return ""
	}
	child := s.Clone()
	child.Play(m)
	after, ok := ValueAfter(t, child)
	if !ok {
		return ""
	}
	if after == before {
		return before.Words()
	}
	return before.Words() + " → " + after.Words()
}

// TableValue is the tables' value of s for the side to move, when they
// hold it: a game going on, two players, some of each side's pieces and
// no more than the tables' pieces. A table that cannot be read holds
// nothing, so that a damaged file costs answers, not a review. Nil
// tables hold nothing.
func TableValue(t *endgame.Tables, s game.State) (endgame.Value, bool) {
	if t == nil || s.Result().Over() || s.Game().Players() != 2 {
		return endgame.Value{}, false
	}
	pl, ok := s.(game.Placer)
	if !ok {
		return endgame.Value{}, false
	}
	var count [2]int
	pieces := pl.Placement(nil)
	for _, p := range pieces {
		if p.Piece.Owner == 0 || p.Piece.Owner == 1 {
			count[p.Piece.Owner]++
		}
	}
	if count[0] == 0 || count[1] == 0 || len(pieces) > t.Pieces() {
		return endgame.Value{}, false
	}
	v, err := t.Probe(s)
	return v, err == nil
}

// ValueAfter is the value of child, the position a move reached, for the
// player who made the move: the opposite of the tables' value for the
// side to move there, or the game's result when the move ended it.
func ValueAfter(t *endgame.Tables, child game.State) (endgame.Value, bool) {
	if r := child.Result(); r.Over() {
		mover := 1 - child.ToMove() // two players: the other seat moved
		switch {
		case r.Winners.Has(mover) && r.Winners.Len() == 1:
			return endgame.Value{Kind: endgame.Win, Plies: 1}, true
		case r.Winners == 0 || r.Winners.Has(mover):
			return endgame.Value{Kind: endgame.Draw}, true
		}
		return endgame.Value{Kind: endgame.Loss, Plies: 1}, true
	}
	v, ok := TableValue(t, child)
	if !ok {
		return endgame.Value{}, false
	}
	switch v.Kind {
	case endgame.Win:
		return endgame.Value{Kind: endgame.Loss, Plies: v.Plies + 1}, true
	case endgame.Loss:
		return endgame.Value{Kind: endgame.Win, Plies: v.Plies + 1}, true
	}
	return v, true
}

// TablesFor picks, of the table folders a server opened (the ones it
// gives analysis.Config.Tables), the one of g's id and rules, or nil:
// what Config.Tables wants for a review of g.
func TablesFor(tables []*endgame.Tables, g game.Game) *endgame.Tables {
	for _, t := range tables {
		if m := t.Manifest(); m.Game == g.ID() && m.Rules == endgame.RulesOf(g) {
			return t
		}
	}
	return nil
}
