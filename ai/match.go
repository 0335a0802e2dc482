package ai

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// PlayGame plays s to its end (rules or draw safeguards) with seats[p]
// choosing for player p, and returns what each search answered, move by
// move. s is changed: it ends as the final position.
func PlayGame(ctx context.Context, s game.State, seats []Engine, lim Limits) ([]Info, error) {
	var moves []Info
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
		info.PV = nil // the record keeps the move and its score, not the line
		moves = append(moves, info)
		s.Play(info.Move)
	}
	return moves, nil
}

// ScoreText writes a score as the engine's messages and records show it:
// "+35", "-120", a forced win or loss as "win5" or "loss4" (plies).
func ScoreText(score int) string {
	switch {
	case score > Mate-1000:
		return fmt.Sprintf("win%d", Mate-score)
	case score < -Mate+1000:
		return fmt.Sprintf("loss%d", Mate+score)
	}
	return fmt.Sprintf("%+d", score)
}
