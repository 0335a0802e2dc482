package punt

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The rule variants docs/rules/punt.md ("Variants") defines, proposed by
// docs/lab/answers.md (question 5) against the shared first places, 0-0-0
// most of all, that come from the game stopping before anyone scored.
// The defaults are the rules of RULINGS section 4.

// The values of the end option.
const (
	endFirstStuck = "first-stuck" // the game ends when the player to move cannot move
	endAllStuck   = "all-stuck"   // stuck players pass; the game ends when no player can move
)

// The values of the tiebreak option.
const (
	tiebreakNone     = "none"     // equal highest scores share the result
	tiebreakProgress = "progress" // the most progress among them wins (progress)
	tiebreakLast     = "last"     // the one of them who moved last wins
)

var endOption = game.OptionSpec{
	Key: "end", Default: endFirstStuck, Values: []string{endFirstStuck, endAllStuck},
	Help: "when the game ends: as soon as the player to move cannot move (first-stuck, the rules), " +
		"or only when no player can move, a stuck player passing (all-stuck)",
}

// The values of the repetition option.
const (
	repetitionDraw   = "draw"   // the third occurrence of a position draws (RULINGS section 0)
	repetitionScored = "scored" // it ends the game, scored as when nobody can move
)

var repetitionOption = game.OptionSpec{
	Key: "repetition", Default: repetitionDraw, Values: []string{repetitionDraw, repetitionScored},
	Help: "what the third occurrence of a position does: draw (the rules of every game) " +
		"or end the game and score it, so that shuffling to avoid the end gains nothing (scored)",
}

var tiebreakOption = game.OptionSpec{
	Key: "tiebreak", Default: tiebreakNone, Values: []string{tiebreakNone, tiebreakProgress, tiebreakLast},
	Help: "who wins among equal highest scores: all of them (none, the rules), " +
		"the one whose piles stand farthest from home, pawns counted (progress), or the one who moved last (last)",
}

// skipOut gives the turn to the first player, from the one to move on in
// turn order, who controls a pile (end=all-stuck): a player whose pawns
// are all buried can never move again, since piles never split, and is
// out of the game. The hash follows. On an empty board nobody controls a
// pile, and the turn stays.
func (p *position) skipOut(t *lookup) {
	to := p.toMove
	for range t.players {
		if p.ctrl[to] != 0 {
			break
		}
		to = t.next[to]
	}
	if p.ctrl[to] == 0 || to == p.toMove {
		return
	}
	p.hash ^= t.sideKeys[p.toMove] ^ t.sideKeys[to]
	p.toMove = to
}

// allStuckOver reports whether an end=all-stuck game is over by the
// rules: no player can move, or at most one player is still in the game
// (controls a pile). A player left alone would play on alone, which
// nobody could answer.
func (s *State) allStuckOver() bool {
	t, p := s.g.t, &s.pos
	in, canMove := 0, false
	for q := range t.players {
		if p.ctrl[q] != 0 {
			in++
		}
		canMove = canMove || p.ctrl[q]&t.mobile[q] != 0
	}
	return in < 2 || !canMove
}

// passes appends the pass of the player to move when it has no other
// move (end=all-stuck) and the game goes on, and nothing otherwise. A
// pass is written as a move from a cell to itself, a move no pile can
// make: the first cell, in cell order, of a pile the player controls, all
// of them frozen on the player's end-row.
func (s *State) passes(buf []game.Move) []game.Move {
	me := s.pos.toMove
	if s.pos.ctrl[me] == 0 || s.allStuckOver() {
		return buf
	}
	c := board.Cell(bits.TrailingZeros64(s.pos.ctrl[me]))
	return append(buf, game.Step(c, c))
}

// IsPass reports whether m is a pass (end=all-stuck): a move from a cell
// to itself.
func IsPass(m game.Move) bool { return m.Len() == 2 && m.From() == m.To() }

// pass plays the pass of the player to move, made at c: the turn goes on
// to the next player still in the game, and nothing moves. A pass leaves
// the earlier positions within reach, so the repetition rule counts on
// over it.
func (s *State) pass(c board.Cell) {
	t, p := s.g.t, &s.pos
	s.pushUndo(c, c, p.height[c])
	me := p.toMove
	p.hash ^= t.turnKeys[me]
	p.toMove = t.next[me]
	s.ply++
	p.skipOut(t)
}

// Progress is a player's progress, the measure tiebreak=progress compares:
// over every pile the player controls, the pile's height times the number
// of lines between its cell and the player's home edge (0 on the home
// edge, 6 on the square board's end-row, 8 on the hexhex board's).
func (s *State) Progress(who game.Player) int {
	t, p := s.g.t, &s.pos
	if who < 0 || int(who) >= t.players {
		return 0
	}
	sum := 0
	for m := p.ctrl[who]; m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		sum += int(p.height[c]) * int(t.progress[who][c])
	}
	return sum
}

// breakTie narrows tied, the players who share the highest score, by the
// tiebreak option. A tie the measure does not break either stays shared.
func (s *State) breakTie(tied game.PlayerSet) game.PlayerSet {
	switch s.g.tiebreak {
	case tiebreakProgress:
		return s.mostProgress(tied)
	case tiebreakLast:
		return s.movedLast(tied)
	}
	return tied
}

// mostProgress keeps those of tied with the most Progress.
func (s *State) mostProgress(tied game.PlayerSet) game.PlayerSet {
	var best game.PlayerSet
	top := -1
	for q := range game.Player(s.g.t.players) {
		if !tied.Has(q) {
			continue
		}
		switch pr := s.Progress(q); {
		case pr > top:
			top, best = pr, game.PlayerSet(0).Add(q)
		case pr == top:
			best = best.Add(q)
		}
	}
	return best
}

// movedLast keeps the one of tied who made the latest move, passes not
// counted, in the state's history (since its start or FEN position); all
// of tied when none of them moved in it.
func (s *State) movedLast(tied game.PlayerSet) game.PlayerSet {
	for i := len(s.undo) - 1; i >= 0; i-- {
		if u := &s.undo[i]; u.from != u.to && tied.Has(u.mover) {
			return game.PlayerSet(0).Add(u.mover)
		}
	}
	return tied
}

// repeated is the result of the third occurrence of a position: a draw,
// or with repetition=scored the game scored as it stands (the scores and
// winners of scored, the reason Repetition). A player who is behind and
// the last one able to move would otherwise shuffle sideways for a draw
// rather than let the game end (docs/rules/punt.md, 8.3).
func (s *State) repeated() game.Result {
	if !s.g.repetitionScored {
		return game.DrawBy(game.Repetition)
	}
	r := s.scored()
	r.Reason = game.Repetition
	return r
}
