package hall

import (
	"context"

	"github.com/arbiter-games/arbiter/store"
)

// Rating is an account's rating in one game, as the store keeps it.
type Rating = store.Rating

// RatingChange is what a rated game did to one seat's rating.
type RatingChange = store.RatingChange

// Result is a game's result as the store keeps it and the API shows it
// (StoredResult): a transport names it through the hall, which owns the
// store.
type Result = store.Result

// Ratings are an account's ratings, one for each game it has played
// rated, for a transport that shows them beside the game's seats.
func (h *Hall) Ratings(ctx context.Context, account string) ([]Rating, error) {
	return h.store.Ratings(ctx, account)
}

// GameRatings are the rating changes a rated game made, one for each seat
// of an account; none before the game ends.
func (h *Hall) GameRatings(ctx context.Context, gameID string) ([]RatingChange, error) {
	return h.store.GameRatings(ctx, gameID)
}
