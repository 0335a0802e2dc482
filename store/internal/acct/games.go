package acct

import (
	"context"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

// Ending tells, before a game's write, whether the write ends a rated
// game: next has a result and the stored game none. Both stores call it
// inside the write's transaction, before the conditional update.
func Ending(ctx context.Context, tx Tx, next store.Header) (bool, error) {
	if !next.Rated || next.Result == nil {
		return false, nil
	}
	var open int
	err := tx.QueryRow(ctx, `SELECT CASE WHEN result IS NULL THEN 1 ELSE 0 END FROM games WHERE id = ?`, next.ID).Scan(&open)
	if err == ErrNoRows {
		return false, nil // the conditional update will say why
	}
	return open == 1, err
}

// Written keeps the accounts' side of a game in step with what a write
// stored, in the same transaction: the seats accounts hold (Create and
// Update, which may seat someone) and, when the write ended a rated game
// (ending, from Ending), both ratings with the result.
func Written(ctx context.Context, tx Tx, h store.Header, seats, ending bool) error {
	if seats {
		for i, s := range h.Seats {
			if s.Account == "" {
				continue
			}
			if _, err := tx.Exec(ctx, `INSERT INTO players (game_id, seat, account, game, created) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (game_id, seat) DO UPDATE SET account = excluded.account`,
				h.ID, i, s.Account, h.Game, row.Millis(h.Created)); err != nil {
				return err
			}
		}
	}
	if ending {
		return rateGame(ctx, tx, h)
	}
	return nil
}
