package hall

import (
	"context"
	"errors"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Preview is what a legal move of the current position would do, without
// playing it: the page shows the pieces a capture takes while the player
// is still building it, before the move is confirmed.
func (h *Hall) Preview(ctx context.Context, id, move string) (game.Effects, error) {
	var effects game.Effects
	err := h.read(ctx, id, func(e *entry) error {
		st := e.pg.State()
		m, err := game.ParseRuleMove(st, move)
		var illegal *game.IllegalMoveError
		if errors.As(err, &illegal) {
			return Errorf(IllegalMove, "%s: %s", clip.Quote(move), illegal.Reason)
		}
		if err != nil {
			return err
		}
		effects, err = game.MoveEffects(st, m)
		return err
	})
	return effects, err
}
