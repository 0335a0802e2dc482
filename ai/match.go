package ai

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// PlayGame plays s to its end (rules or draw safeguards) with seats[p]
// choosing for player p, and returns the moves played in notation. s is
// changed: it ends as the final position.
func PlayGame(ctx context.Context, s game.State, seats []Engine, lim Limits) ([]string, error) {
	b := s.Game().Board()
	var moves []string
	for !s.Result().Over() {
		if err := ctx.Err(); err != nil {
			return moves, err
		}
		p := s.ToMove()
		if int(p) >= len(seats) || seats[p] == nil {
			return moves, fmt.Errorf("no player for seat %s", s.Game().PlayerName(p))
		}
		info := seats[p].Search(ctx, s, lim, nil)
		if info.Err != nil {
			return moves, fmt.Errorf("%s (%s): %w", s.Game().PlayerName(p), seats[p].Name(), info.Err)
		}
		moves = append(moves, info.Move.Text(b))
		s.Play(info.Move)
	}
	return moves, nil
}
