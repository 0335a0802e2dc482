package ai

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// avoid is a kind of move that an ab engine declines at its own turn
// whenever it has a move of another kind: a handicap for controlled
// experiments (does taking over piles win Punt games, or do winners
// merely find more to take?). The search below the root still expects
// both sides to play any move; only the engine's choice is restricted.
type avoid uint8

const (
	avoidNothing  avoid = iota
	avoidCapture        // a move that captures (the notation's capture flag)
	avoidTakeover       // a move that lands on a stack another player commands
)

// avoidParam reads "avoid=capture" or "avoid=takeover".
func (p *params) avoid() avoid {
	v, ok := p.take("avoid")
	switch {
	case !ok:
		return avoidNothing
	case v == "capture":
		return avoidCapture
	case v == "takeover":
		return avoidTakeover
	}
	p.fail(fmt.Errorf("avoid=%s: want capture or takeover", clip.Bare(v)))
	return avoidNothing
}

// declines reports whether the engine avoids m in s.
func (a avoid) declines(s game.State, m *game.Move) bool {
	switch a {
	case avoidCapture:
		return m.IsCapture()
	case avoidTakeover:
		owner := s.Owner(m.To())
		return !m.IsCapture() && owner != game.NoPlayer && owner != s.ToMove()
	}
	return false
}

// searchAvoiding searches s0 as Search does but returns the best move
// the engine does not decline. ok is false when the choice is not
// restricted (every move, or none, is declined): then Search goes on as
// usual.
func (e *ab) searchAvoiding(ctx context.Context, s0 game.State, lim Limits, report func(Info)) (info Info, ok bool) {
	moves := s0.Moves(nil)
	declined := 0
	for i := range moves {
		if e.avoid.declines(s0, &moves[i]) {
			declined++
		}
	}
	if declined == 0 || declined == len(moves) {
		return Info{}, false
	}
	info = e.SearchLines(ctx, s0, lim, len(moves), report)
	if info.Err != nil {
		return info, true
	}
	for _, l := range info.Lines {
		if len(l.PV) > 0 && !e.avoid.declines(s0, &l.PV[0]) {
			info.Move, info.Score, info.PV = l.PV[0], l.Score, l.PV
			return info, true
		}
	}
	// A search stopped before it scored an accepted move: take the first
	// accepted one.
	for i := range moves {
		if !e.avoid.declines(s0, &moves[i]) {
			info.Move, info.PV = moves[i], []game.Move{moves[i]}
			break
		}
	}
	return info, true
}
