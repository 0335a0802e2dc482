package ai

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Best-reply search for three or more players, ab:nplayer=brs (after Schadd and Winands'
// best-reply search, with the passing opponents playing a move as in
// Esser et al.'s BRS+, so that every position searched can occur).
//
// Paranoid search lets each opponent in turn search all its moves, so a
// round of three players costs b³ positions and three plies of depth; at
// the depths the levels search it sees little beyond the root's next
// move. Best-reply search merges the opponents' turns of a round into one
// layer: one opponent searches its replies, and each other opponent plays
// its greedy move, the one its own evaluation likes best a ply ahead.
// Which opponent replies is itself searched: the coalition takes the
// reply, from any of them, that is worst for the root. A round then costs
// about b·(b₁+b₂) positions and two plies of depth, so the search sees
// the root's own next moves, which decide a race like Punt's.

// nplayer is how ab searches the opponents with three or more players.
type nplayer uint8

const (
	nplayerParanoid nplayer = iota // every opponent searches every move, the default
	nplayerBRS                     // best-reply search
)

// String is the spec's word for the search.
func (n nplayer) String() string {
	if n == nplayerBRS {
		return "brs"
	}
	return "paranoid"
}

// nplayer reads "nplayer=paranoid" or "nplayer=brs".
func (p *params) nplayer() nplayer {
	v, ok := p.take("nplayer")
	switch {
	case !ok, v == "paranoid":
		return nplayerParanoid
	case v == "brs":
		return nplayerBRS
	}
	p.fail(fmt.Errorf("nplayer=%s: want paranoid or brs", clip.Bare(v)))
	return nplayerParanoid
}

// replyState tells, at an opponent's turn of a best-reply search, whether
// an opponent of this round has replied already (replied) or how many
// have passed the reply on to the next (replyOpen and up).
type replyState int8

const (
	replied   replyState = -1
	replyOpen replyState = 0
)

// childReply is the reply state of the positions after the moves searched
// at ply: a new round after the root's move, else the reply is made.
func (e *ab) childReply(rootSide bool) replyState {
	if rootSide || !e.bestReply {
		return replyOpen
	}
	return replied
}

// replyKey keeps apart in the table an opponent's position searched with
// different numbers of passes before it (the passes change what is
// searched).
func (e *ab) replyKey(key uint64, rootSide bool, ply int) uint64 {
	if !e.bestReply || rootSide {
		return key
	}
	return key ^ uint64(e.reply[ply])*0x9fb21c651e98df25
}

// passReply plays, at an opponent's turn after another has replied, the
// greedy move, and scores what follows at the same depth.
func (e *ab) passReply(depth, alpha, beta, ply int) int {
	moves := e.s.Moves(e.bufs[ply][:0])
	e.bufs[ply] = moves
	if len(moves) == 0 {
		return e.resultScore(e.s, ply)
	}
	m := moves[e.greedy(moves, ply, false)]
	e.reply[ply+1] = replied
	s := e.s
	s.Play(m)
	var score int
	if e.sameSide(s, false) { // the coalition moves again
		score = e.negamax(depth, alpha, beta, ply+1)
	} else {
		score = -e.negamax(depth, -beta, -alpha, ply+1)
	}
	s.Undo()
	if !e.stop.stopped && score > alpha {
		e.notePV(ply, m)
	}
	return score
}

// passedOn plays m, the greedy move, at an opponent's turn where no one
// has replied yet, and searches the next opponent's reply at the same
// depth. It declines (false) when the next to move is the root player or
// every other opponent has passed: someone must reply.
//
// negamax passes on only with more than a ply to go. At the last ply a
// reply is evaluated before the passing opponents move, and a reply
// passed on would be evaluated after their moves: the search would take
// those extra moves for the better reply, and following every reply
// with the greedy moves (a play and an evaluation per move of the
// passing opponent) would cost as much as another ply. So the last
// ply's reply is the next opponent's, as in paranoid search, and every
// position evaluated has the same player to move.
func (e *ab) passedOn(m game.Move, depth, alpha, beta, ply int) (int, bool) {
	if int(e.reply[ply])+2 >= e.players {
		return 0, false
	}
	s := e.s
	s.Play(m)
	defer s.Undo()
	if e.rootSide(s) {
		return 0, false
	}
	e.reply[ply+1] = e.reply[ply] + 1
	return e.negamax(depth, alpha, beta, ply+1), true // the coalition moves again: no sign change
}

// greedy returns the index of the move of moves that leaves the player to
// move best off by its own evaluation: its score less the best of the
// others', or a finished game's result. It depends on the position alone,
// not on what the search has seen, so that a search's value does not
// depend on the order it met positions in (SearchLines agrees with
// Search). Of equal moves it takes the first in the generator's order:
// ordered says the moves at ply were reordered (originalIndex knows where
// each stood), else their order is the generator's.
func (e *ab) greedy(moves []game.Move, ply int, ordered bool) int {
	s := e.s
	me := s.ToMove()
	best, bestAt, bestOrig := 0, -1, 0
	for i, m := range moves {
		s.Play(m)
		stopped := e.stop.tick() // a position played is a node, as everywhere
		v := e.ownScore(s, me)
		s.Undo()
		if stopped {
			return max(bestAt, 0) // the caller sees the stopper stopped
		}
		o := i
		if ordered {
			o = e.originalIndex(ply, i)
		}
		if bestAt < 0 || v > best || v == best && o < bestOrig {
			best, bestAt, bestOrig = v, i, o
		}
	}
	return bestAt
}

// ownScore is p's evaluation of s: p's score less the best other
// player's, or a finished game's result for p.
func (e *ab) ownScore(s game.State, p game.Player) int {
	if r := s.Result(); r.Over() {
		return resultScore(r, p, 0)
	}
	var sc [game.MaxPlayers]int
	if e.evaluator != nil {
		sc = e.evaluator.Evaluate()
	} else {
		sc = scores(s, e.eval)
	}
	other := -1 << 60
	for q := range e.players {
		if game.Player(q) != p {
			other = max(other, sc[q])
		}
	}
	return sc[p] - other
}
