package acct

import (
	"context"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

const ratingColumns = "game, rating, rd, volatility, games, updated"

func scanRating(r Row) (store.Rating, error) {
	var x store.Rating
	var updated int64
	err := r.Scan(&x.Game, &x.Rating, &x.RD, &x.Volatility, &x.Games, &updated)
	x.Updated = row.Time(updated)
	return x, err
}

// Ratings implements store.Accounts.
func (s *Service) Ratings(ctx context.Context, account string) (list []store.Rating, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE account = ? ORDER BY game`, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRating(rows)
			if err != nil {
				return err
			}
			list = append(list, r)
		}
		return rows.Err()
	})
	return list, err
}

// SetRating implements store.Accounts.
func (s *Service) SetRating(ctx context.Context, account string, r store.Rating) error {
	return s.Write(ctx, func(tx Tx) error { return putRating(ctx, tx, account, r) })
}

func putRating(ctx context.Context, tx Tx, account string, r store.Rating) error {
	_, err := tx.Exec(ctx, `INSERT INTO ratings (account, game, rating, rd, volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account, game) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
		volatility = excluded.volatility, games = excluded.games, updated = excluded.updated`,
		account, r.Game, r.Rating, r.RD, r.Volatility, r.Games, row.Millis(r.Updated))
	return err
}

const changeColumns = "c.account, a.name, c.game_id, c.game, c.seat, c.at, c.before, c.rating, c.rd, c.volatility"

func queryChanges(ctx context.Context, tx Tx, query string, args ...any) ([]store.RatingChange, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []store.RatingChange
	for rows.Next() {
		var c store.RatingChange
		var at int64
		if err := rows.Scan(&c.Account, &c.Name, &c.GameID, &c.Game, &c.Seat, &at, &c.Before, &c.Rating, &c.RD, &c.Volatility); err != nil {
			return nil, err
		}
		c.At = row.Time(at)
		list = append(list, c)
	}
	return list, rows.Err()
}

// RatingHistory implements store.Accounts.
func (s *Service) RatingHistory(ctx context.Context, account, game string, limit int) (list []store.RatingChange, err error) {
	if limit <= 0 || limit > 10000 {
		limit = 10000
	}
	err = s.Read(ctx, func(tx Tx) error {
		list, err = queryChanges(ctx, tx, `SELECT `+changeColumns+` FROM rating_changes c JOIN accounts a ON a.id = c.account
			WHERE c.account = ? AND c.game = ? ORDER BY c.at DESC, c.game_id DESC LIMIT ?`, account, game, limit)
		return err
	})
	for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
		list[i], list[j] = list[j], list[i]
	}
	return list, err
}

// GameRatings implements store.Accounts.
func (s *Service) GameRatings(ctx context.Context, gameID string) (list []store.RatingChange, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		list, err = queryChanges(ctx, tx, `SELECT `+changeColumns+` FROM rating_changes c JOIN accounts a ON a.id = c.account
			WHERE c.game_id = ? ORDER BY c.seat`, gameID)
		return err
	})
	return list, err
}

// Leaderboard implements store.Accounts. Engine-marked and closed
// accounts are left out as the AI levels and deleted ones are, by the
// query alone: their ratings stay, and an engine mark cleared shows them
// again. Bots are ranked as people are: their ratings are earned against
// people the same way.
func (s *Service) Leaderboard(ctx context.Context, game string, since time.Time, limit int) (list []store.Ranked, err error) {
	if limit <= 0 || limit > 1000 {
		limit = 100
	}
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT a.name, a.kind, r.game, r.rating, r.rd, r.volatility, r.games, r.updated
			FROM ratings r JOIN accounts a ON a.id = r.account
			WHERE r.game = ? AND r.updated >= ? AND r.games > 0 AND a.kind <> ? AND a.deleted = 0 AND a.engine = 0 AND a.closed = 0
			ORDER BY r.rating DESC, a.name_key LIMIT ?`, game, row.Millis(since), string(store.AILevel), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var x store.Ranked
			var updated int64
			var kind string
			if err := rows.Scan(&x.Name, &kind, &x.Game, &x.Rating.Rating, &x.RD, &x.Volatility, &x.Games, &updated); err != nil {
				return err
			}
			x.Bot = store.AccountKind(kind) == store.Bot
			x.Updated = row.Time(updated)
			list = append(list, x)
		}
		return rows.Err()
	})
	return list, err
}

// rateGame rates a rated game whose result this transaction stores:
// every seat is one player of one rating period. A game whose seats are
// not all accounts', or that seats one account twice, is not rated: the
// hall makes no such rated game, and an account rated twice by one game
// would write two ratings of which the last would win.
func rateGame(ctx context.Context, tx Tx, h store.Header) error {
	seen := make(map[string]bool, len(h.Seats))
	for _, seat := range h.Seats {
		if seat.Account == "" || seen[seat.Account] {
			return nil
		}
		seen[seat.Account] = true
	}
	if err := lockRatings(ctx, tx, h); err != nil {
		return err
	}
	before := make([]store.Rating, len(h.Seats))
	for i, seat := range h.Seats {
		r, err := scanRating(tx.QueryRow(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE account = ? AND game = ?`, seat.Account, h.Game))
		if err != nil {
			return err
		}
		before[i] = r
	}
	after := rating.Game(glickos(before), places(h.Result, len(h.Seats)))
	for i, seat := range h.Seats {
		r := store.Rating{Game: h.Game, Rating: after[i].Rating, RD: after[i].RD, Volatility: after[i].Volatility,
			Games: before[i].Games + 1, Updated: h.Updated}
		if err := putRating(ctx, tx, seat.Account, r); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO rating_changes (account, game_id, game, seat, at, before, rating, rd, volatility)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, seat.Account, h.ID, h.Game, i, row.Millis(h.Updated),
			before[i].Rating, r.Rating, r.RD, r.Volatility); err != nil {
			return err
		}
	}
	return nil
}

// lockRatings makes sure every seat has a rating row (a new player's
// start, 0 games) and locks those rows, in the order of their accounts so
// that two games ending at once cannot deadlock: on PostgreSQL the no-op
// UPDATE holds each row until the transaction ends, so that a player's
// two games ending together are rated one after the other; SQLite runs
// one writer at a time anyway.
func lockRatings(ctx context.Context, tx Tx, h store.Header) error {
	accounts := make([]string, 0, len(h.Seats))
	for _, seat := range h.Seats {
		accounts = append(accounts, seat.Account)
	}
	slices.Sort(accounts)
	start := rating.New()
	for _, a := range slices.Compact(accounts) {
		if _, err := tx.Exec(ctx, `INSERT INTO ratings (account, game, rating, rd, volatility, games, updated) VALUES (?, ?, ?, ?, ?, 0, ?)
			ON CONFLICT (account, game) DO NOTHING`, a, h.Game, start.Rating, start.RD, start.Volatility, row.Millis(h.Updated)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE ratings SET games = games WHERE account = ? AND game = ?`, a, h.Game); err != nil {
			return err
		}
	}
	return nil
}

func glickos(rs []store.Rating) []rating.Glicko {
	g := make([]rating.Glicko, len(rs))
	for i, r := range rs {
		g[i] = rating.Glicko{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
	}
	return g
}

// places ranks the seats of a stored result as the game package does:
// the winners first, the others below them by their scores.
func places(r *store.Result, seats int) []int {
	var res game.Result
	for _, w := range r.Winners {
		if w >= 0 && w < seats && w < game.MaxPlayers {
			res.Winners = res.Winners.Add(game.Player(w))
		}
	}
	copy(res.Scores[:], r.Scores)
	return res.Places(seats)
}
