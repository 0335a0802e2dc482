package game

import (
	"fmt"
	"strings"
)

// Reason tells why a game ended.
type Reason uint8

// The reasons a game ends.
const (
	Ongoing    Reason = iota // the game goes on
	NoPieces                 // the player to move has no pieces left
	NoMoves                  // the player to move has no legal move
	Repetition               // third occurrence of a position (RULINGS section 0)
	PlyCap                   // the maxplies option was reached (RULINGS section 0)
	Scored                   // the game ended and was scored (Punt games)
	// The ends that come from the players or the clock, not the board:
	// they are decided by a game in play (package play), never by a State.
	Resignation // the losers resigned
	Agreement   // the players agreed a draw
	TimeForfeit // the losers' time ran out
	Aborted     // nobody played the first move in time: the game counts for nothing
)

var reasonNames = [...]string{"ongoing", "no pieces", "no moves", "repetition", "ply cap", "scored",
	"resignation", "agreement", "time forfeit", "aborted"}

// ParseReason reads a reason as String writes it (a record's Termination
// tag); it reports false for text that names no reason.
func ParseReason(text string) (Reason, bool) {
	for i, name := range reasonNames {
		if name == text {
			return Reason(i), true
		}
	}
	return Ongoing, false
}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", r)
}

// PlayerSet is a set of players, as a bit mask.
type PlayerSet uint8

// Add returns the set with p added.
func (s PlayerSet) Add(p Player) PlayerSet { return s | 1<<uint(p) }

// Has reports whether p is in the set.
func (s PlayerSet) Has(p Player) bool { return s&(1<<uint(p)) != 0 }

// Len is the number of players in the set.
func (s PlayerSet) Len() int {
	n := 0
	for ; s != 0; s &= s - 1 {
		n++
	}
	return n
}

// Result is the outcome of a game, or Ongoing.
type Result struct {
	Reason  Reason
	Winners PlayerSet       // empty for a draw
	Scores  [MaxPlayers]int // per player, for games that score
}

// Over reports whether the game has ended.
func (r Result) Over() bool { return r.Reason != Ongoing }

// Draw reports whether the game ended without a winner.
func (r Result) Draw() bool { return r.Over() && r.Winners == 0 }

// Win returns the result of a game that p won.
func Win(p Player, why Reason) Result { return Result{Reason: why, Winners: PlayerSet(0).Add(p)} }

// DrawBy returns a drawn result.
func DrawBy(why Reason) Result { return Result{Reason: why} }

// Describe says the result in words, naming the players as g does.
func (r Result) Describe(g Game) string {
	if !r.Over() {
		return "game in progress"
	}
	var losers []string
	for p := 0; p < g.Players(); p++ {
		if !r.Winners.Has(Player(p)) {
			losers = append(losers, g.PlayerName(Player(p)))
		}
	}
	var why string
	switch r.Reason {
	case NoPieces:
		why = joinNames(losers) + " has no pieces left in play"
	case NoMoves:
		why = joinNames(losers) + " has no legal move"
	case Repetition:
		why = "the same position occurred three times"
	case PlyCap:
		why = "the ply limit was reached (maxplies=" + g.Options().Get("maxplies") + ")"
	case Scored:
		var parts []string
		for p := 0; p < g.Players(); p++ {
			parts = append(parts, fmt.Sprintf("%s %d", g.PlayerName(Player(p)), r.Scores[p]))
		}
		why = "scores " + strings.Join(parts, ", ")
	case Resignation:
		why = joinNames(losers) + " resigned"
	case Agreement:
		why = "agreed by the players"
	case TimeForfeit:
		why = joinNames(losers) + " ran out of time"
	case Aborted:
		return "aborted: the first move was not played in time"
	}
	if r.Winners == 0 {
		return "draw: " + why
	}
	var names []string
	for p := 0; p < g.Players(); p++ {
		if r.Winners.Has(Player(p)) {
			names = append(names, g.PlayerName(Player(p)))
		}
	}
	verb := "wins"
	if len(names) > 1 {
		verb = "share the win"
	}
	return joinNames(names) + " " + verb + ": " + why
}

// joinNames lists names as "A", "A and B", "A, B and C".
func joinNames(names []string) string {
	if len(names) <= 2 {
		return strings.Join(names, " and ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
