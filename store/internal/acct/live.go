package acct

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

// realTimeClock matches the clock column of a Fischer clock: the stored
// form's fields and their order never change (store.Clock's clockJSON),
// and a Fischer control stores no time a move. It lets the query leave the
// correspondence games out before it ranks; TopGames checks each clock
// again once decoded.
const realTimeClock = `%"perMove":0,%`

// topGamesQuery ranks the games in play that may be shown: running
// tournaments' first, then by the mean of the seats' current ratings
// (a new player's start for none), then the newest. The anonymous and AI
// seats are checked on the decoded seats, as the rows come.
var topGamesQuery = `SELECT x.* FROM (SELECT ` + gameColumns("g") + `,
	COALESCE((SELECT t.id FROM tournament_games tg JOIN tournaments t ON t.id = tg.tournament
		WHERE tg.game_id = g.id AND t.state = ? ORDER BY t.id LIMIT 1), '') AS tour,
	COALESCE((SELECT AVG(COALESCE(r.rating, ?)) FROM players p LEFT JOIN ratings r ON r.account = p.account AND r.game = g.game
		WHERE p.game_id = g.id), 0) AS mean
	FROM games g WHERE g.result IS NULL AND g.open_seats = 0 AND g.clock LIKE ?) x
	ORDER BY CASE WHEN x.tour = '' THEN 1 ELSE 0 END, x.mean DESC, x.created DESC, x.id DESC`

// TopGames implements store.Live.
func (s *Service) TopGames(ctx context.Context, limit int) (list []store.LiveGame, err error) {
	if limit < 1 || limit > store.MaxTopGames {
		return nil, fmt.Errorf("store: top games limit %d; want 1 to %d", limit, store.MaxTopGames)
	}
	start := rating.New().Rating
	err = s.Read(ctx, func(tx Tx) error {
		found, tours, err := rankedGames(ctx, tx, limit, start)
		if err != nil {
			return err
		}
		for i := range found {
			if found[i].Ratings, err = seatRatings(ctx, tx, found[i].Header, start); err != nil {
				return err
			}
			if tours[i] == "" {
				continue
			}
			t := &store.LiveTournament{ID: tours[i]}
			if err := tx.QueryRow(ctx, `SELECT name FROM tournaments WHERE id = ?`, t.ID).Scan(&t.Name); err != nil {
				return err
			}
			found[i].Tournament = t
		}
		list = found
		return nil
	})
	return list, err
}

// rankedGames reads the ranked games until limit of them may be shown,
// with the id of each one's running tournament ("" for none).
func rankedGames(ctx context.Context, tx Tx, limit int, start float64) ([]store.LiveGame, []string, error) {
	rows, err := tx.Query(ctx, topGamesQuery, store.TournamentRunning, start, realTimeClock)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var found []store.LiveGame
	var tours []string
	for len(found) < limit && rows.Next() {
		var c row.Columns
		var g store.LiveGame
		var tour string
		if err := rows.Scan(append(c.Targets(), &tour, &g.Mean)...); err != nil {
			return nil, nil, err
		}
		if g.Header, err = c.Header(); err != nil {
			return nil, nil, err
		}
		if shown(g.Header) {
			found, tours = append(found, g), append(tours, tour)
		}
	}
	return found, tours, rows.Err()
}

// shown reports whether a game in play may be a top game: a real-time
// clock, and a person's or a bot's account at every seat.
func shown(h store.Header) bool {
	if h.Clock == nil || !h.Clock.Control.On() || h.Clock.Control.Correspondence() || len(h.Seats) == 0 {
		return false
	}
	for _, seat := range h.Seats {
		if seat.Player != "human" || seat.Account == "" || seat.Open {
			return false
		}
	}
	return true
}

// seatRatings gives each seat's account's rating in h's game id, start
// for an account without one.
func seatRatings(ctx context.Context, tx Tx, h store.Header, start float64) ([]float64, error) {
	out := make([]float64, len(h.Seats))
	for i := range out {
		out[i] = start
	}
	rows, err := tx.Query(ctx, `SELECT p.seat, r.rating FROM players p JOIN ratings r ON r.account = p.account AND r.game = ?
		WHERE p.game_id = ?`, h.Game, h.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var seat int
		var r float64
		if err := rows.Scan(&seat, &r); err != nil {
			return nil, err
		}
		if seat >= 0 && seat < len(out) {
			out[seat] = r
		}
	}
	return out, rows.Err()
}
