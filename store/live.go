package store

import "context"

// MaxTopGames bounds what one TopGames call gives.
const MaxTopGames = 100

// LiveGame is a game in play as TopGames ranks it, with what the ranking
// read.
type LiveGame struct {
	Header Header
	// Ratings are each seat's account's rating in the game's id as the
	// store holds it now (a new player's start for an account without
	// one), in seat order; Mean is their mean.
	Ratings []float64
	Mean    float64
	// Tournament is the running tournament the game is a board of, nil
	// for none.
	Tournament *LiveTournament
}

// LiveTournament names a tournament a LiveGame is played in.
type LiveTournament struct {
	ID, Name string
}

// Live ranks the games in play for those who watch: the site's top game.
type Live interface {
	// TopGames gives at most limit (1 to MaxTopGames) games in play, best
	// first. It keeps the games without a result whose clock is a real-time
	// one (Fischer: not correspondence, not none) and whose every seat
	// is a person's or a bot's account (no anonymous seat, no open seat,
	// no AI level). A game of a running tournament ranks above one that
	// is not; then the higher mean of the seats' ratings; then the newer
	// game (by Created, then by ID).
	TopGames(ctx context.Context, limit int) ([]LiveGame, error)
}
