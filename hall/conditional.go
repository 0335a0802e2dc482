package hall

import (
	"context"
	"slices"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
)

// LineView is what a seat is told of its conditional moves: the line
// (none when empty) and the ply of its first move, the game's.
type LineView struct {
	Moves []string
	Ply   int
}

// SetConditional sets the conditional moves of the seat of who, in place
// of any it had (no moves clears them), by package play's rules, and
// answers the line as kept: each move in the game's notation.
func (h *Hall) SetConditional(ctx context.Context, id string, who Who, moves []string) (LineView, error) {
	if len(moves) > play.MaxLine {
		return LineView{}, Errorf(Invalid, "a line of %d moves: at most %d", len(moves), play.MaxLine)
	}
	for i, m := range moves {
		if len(m) > maxPremove {
			return LineView{}, Errorf(Invalid, "move %d of the line is %d bytes: at most %d", i+1, len(m), maxPremove)
		}
	}
	var v LineView
	_, err := h.command(ctx, id, who, func(e *entry, seat game.Player) error {
		if err := e.pg.SetLine(seat, moves); err != nil {
			return err
		}
		v = lineView(e.pg.Line(seat))
		return nil
	})
	return v, err
}

// Conditional is the conditional moves of the seat of who: only its own
// seat is told them; none once the game is over.
func (h *Hall) Conditional(ctx context.Context, id string, who Who) (LineView, error) {
	var v LineView
	err := h.read(ctx, id, func(e *entry) error {
		seat := seatOf(e.g.Seats, who)
		if seat < 0 {
			return notASeat(who)
		}
		if !e.over() {
			v = lineView(e.pg.Line(game.Player(seat)))
		}
		return nil
	})
	return v, err
}

func lineView(l *play.Line) LineView {
	if l == nil {
		return LineView{Moves: []string{}}
	}
	return LineView{Moves: slices.Clone(l.Moves), Ply: l.Ply}
}

// playDue plays a conditional reply that is due: the opponent's move was
// stored with the line advanced to it, and the reply was not (its write
// failed, or the process that stored the move stopped before). A server
// plays it when it resumes the game at its start, and before any command
// on the game (command), so that a reply is never lost nor passed over.
// A server that only follows another's changes does not: the process
// that stored the opponent's move plays the reply next, holding the
// game, and a follower would only race it for the same ply. e.mu is
// held.
func (h *Hall) playDue(e *entry) {
	if !e.loaded || h.closing.Load() || e.attention != "" {
		return
	}
	err := h.decide(h.ctx, e, func() error {
		_, err := e.pg.PlayDue()
		return err
	})
	if err != nil {
		h.log.Warn("a conditional reply due was not played", "game", e.id, "err", err)
	}
}
