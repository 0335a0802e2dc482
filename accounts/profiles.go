package accounts

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store"
)

// activeFor is how recently a player must have played rated to be on a
// leaderboard.
const activeFor = 30 * 24 * time.Hour

// Rating is an account's rating in one game (Glicko-2).
type Rating struct {
	Game        string
	Rating      float64
	RD          float64
	Volatility  float64
	Games       int
	Provisional bool
}

func ratingOf(r store.Rating) Rating {
	g := rating.Glicko{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
	return Rating{Game: r.Game, Rating: r.Rating, RD: r.RD, Volatility: r.Volatility, Games: r.Games, Provisional: g.Provisional()}
}

// Shown is a rating as it is shown: one decimal, for ratings are shown,
// not computed on.
func Shown(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }

// Profile is a player as others see them: the account and its ratings
// (those of games played, or every one of an AI level's).
type Profile struct {
	Account Account
	Ratings []Rating
}

// User is the account named name, refused NotFound when there is none
// (or it was deleted).
func (s *Service) User(ctx context.Context, name string) (Account, error) {
	a, err := s.store.AccountByName(ctx, name)
	if errors.Is(err, store.ErrNoAccount) || err == nil && a.Deleted {
		return Account{}, refuse(NotFound, "no player is named %s", clip.Quote(name))
	}
	if err != nil {
		return Account{}, err
	}
	return fromStore(a), nil
}

// Profile is the profile of the player named name.
func (s *Service) Profile(ctx context.Context, name string) (Profile, error) {
	a, err := s.User(ctx, name)
	if err != nil {
		return Profile{}, err
	}
	list, err := s.Ratings(ctx, a.ID)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{Account: a}
	for _, x := range list {
		if x.Games > 0 || a.IsLevel() {
			p.Ratings = append(p.Ratings, x)
		}
	}
	return p, nil
}

// Ratings are the ratings of the account id, in every game it has one.
func (s *Service) Ratings(ctx context.Context, id string) ([]Rating, error) {
	list, err := s.store.Ratings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]Rating, 0, len(list))
	for _, x := range list {
		out = append(out, ratingOf(x))
	}
	return out, nil
}

// RatingChange is what one rated game did to one seat's rating.
type RatingChange struct {
	Seat              int
	Before, After, RD float64
}

// GameRatings are the rating changes of the rated game id, once it
// ended.
func (s *Service) GameRatings(ctx context.Context, id string) ([]RatingChange, error) {
	changes, err := s.store.GameRatings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]RatingChange, 0, len(changes))
	for _, c := range changes {
		out = append(out, RatingChange{Seat: c.Seat, Before: c.Before, After: c.Rating, RD: c.RD})
	}
	return out, nil
}

// GameFilter selects a player's games.
type GameFilter struct {
	Game    string // a game id, or "" for every game
	Ongoing bool
	// Before, when not zero, keeps games created before it (paging).
	Before time.Time
	Limit  int // 0: 100
}

// PlayedGame is one game of a player's list, as that player played it.
type PlayedGame struct {
	ID      string
	Game    string
	Rated   bool
	Created time.Time
	Ended   bool
	Result  string // win, loss, draw, ongoing, aborted
	Reason  string
	Seat    int
	// Opponents are the other seats' names; OpponentAccounts says of
	// each whether an account plays it (only those have a profile), and
	// OpponentBots whether that account is a bot.
	Opponents        []string
	OpponentAccounts []bool
	OpponentBots     []bool
	// Before and After are the player's rating before and after a rated
	// game that ended, as shown.
	Before, After *float64
}

// Games lists the games of the account id that f selects, newest first.
func (s *Service) Games(ctx context.Context, id string, f GameFilter) ([]PlayedGame, error) {
	headers, err := s.store.PlayerGames(ctx, id, store.GameFilter(f))
	if err != nil {
		return nil, err
	}
	list := []PlayedGame{}
	for _, h := range headers {
		pg := playedBy(h, id)
		if h.Rated && h.Result != nil {
			s.addRatingChange(ctx, &pg)
		}
		list = append(list, pg)
	}
	return list, nil
}

// playedBy is game h as account's list shows it.
func playedBy(h store.Header, account string) PlayedGame {
	pg := PlayedGame{ID: h.ID, Game: h.Game, Rated: h.Rated, Created: h.Created, Result: "ongoing", Opponents: []string{}, OpponentAccounts: []bool{}, OpponentBots: []bool{}}
	for i, seat := range h.Seats {
		if seat.Account == account {
			pg.Seat = i
			continue
		}
		pg.Opponents = append(pg.Opponents, seatName(seat))
		pg.OpponentAccounts = append(pg.OpponentAccounts, seat.Account != "")
		pg.OpponentBots = append(pg.OpponentBots, seat.Bot)
	}
	if h.Result == nil {
		return pg
	}
	pg.Ended, pg.Reason = true, h.Result.Reason
	switch {
	case h.Result.Reason == game.Aborted.String():
		pg.Result = "aborted"
	case len(h.Result.Winners) == 0:
		pg.Result = "draw"
	case slices.Contains(h.Result.Winners, pg.Seat):
		pg.Result = "win"
	default:
		pg.Result = "loss"
	}
	return pg
}

// seatName is how a seat is named in lists: its name, its account, or
// its engine.
func seatName(seat store.Seat) string {
	switch {
	case seat.Name != "":
		return seat.Name
	case seat.Account != "":
		return seat.Account
	case seat.Player == "human":
		return "anonymous"
	}
	return seat.Player
}

// addRatingChange adds to pg what it did to its player's rating; a
// failure to read it is logged and leaves pg without.
func (s *Service) addRatingChange(ctx context.Context, pg *PlayedGame) {
	changes, err := s.store.GameRatings(ctx, pg.ID)
	if err != nil {
		s.log.Warn("rating changes", "game", pg.ID, "err", err)
		return
	}
	for _, c := range changes {
		if c.Seat == pg.Seat {
			before, after := Shown(c.Before), Shown(c.Rating)
			pg.Before, pg.After = &before, &after
		}
	}
}

// HistoryPoint is one point of a rating history, as shown.
type HistoryPoint struct {
	At     time.Time
	GameID string
	Before float64
	Rating float64
	RD     float64
}

// History is the rating history of the account id in the game gameID,
// its last 1,000 rated games.
func (s *Service) History(ctx context.Context, id, gameID string) ([]HistoryPoint, error) {
	changes, err := s.store.RatingHistory(ctx, id, gameID, 1000)
	if err != nil {
		return nil, err
	}
	points := []HistoryPoint{}
	for _, c := range changes {
		points = append(points, HistoryPoint{At: c.At, GameID: c.GameID, Before: Shown(c.Before), Rating: Shown(c.Rating), RD: Shown(c.RD)})
	}
	return points, nil
}

// Ranked is one row of a leaderboard; Bot marks a bot's account.
type Ranked struct {
	Name   string
	Bot    bool
	Rating Rating
}

// Leaderboard is the 100 best of the players of gameID who played it
// rated in the last 30 days, best first.
func (s *Service) Leaderboard(ctx context.Context, gameID string) ([]Ranked, error) {
	list, err := s.store.Leaderboard(ctx, gameID, s.now().Add(-activeFor), 100)
	if err != nil {
		return nil, err
	}
	rows := []Ranked{}
	for _, x := range list {
		rows = append(rows, Ranked{Name: x.Name, Bot: x.Bot, Rating: ratingOf(x.Rating)})
	}
	return rows, nil
}
