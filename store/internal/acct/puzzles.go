package acct

import (
	"context"
	"errors"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

const puzzleRatingColumns = "game, rating, rd, volatility, attempts, updated"

func scanPuzzleRating(r Row) (store.PuzzleRating, error) {
	var x store.PuzzleRating
	var updated int64
	err := r.Scan(&x.Game, &x.Rating, &x.RD, &x.Volatility, &x.Attempts, &updated)
	x.Updated = row.Time(updated)
	return x, err
}

const puzzleColumns = "id, game, rating, rd, volatility, plays, solved"

func scanPuzzle(r Row) (store.PuzzleState, error) {
	var x store.PuzzleState
	err := r.Scan(&x.ID, &x.Game, &x.Rating, &x.RD, &x.Volatility, &x.Plays, &x.Solved)
	return x, err
}

// queryAll scans every row of a query with scan.
func queryAll[T any](ctx context.Context, tx Tx, scan func(Row) (T, error), query string, args ...any) ([]T, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []T
	for rows.Next() {
		x, err := scan(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, x)
	}
	return list, rows.Err()
}

// PuzzleRatings implements store.Puzzles.
func (s *Service) PuzzleRatings(ctx context.Context, account string) (list []store.PuzzleRating, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		list, err = queryAll(ctx, tx, scanPuzzleRating, `SELECT `+puzzleRatingColumns+` FROM puzzle_ratings WHERE account = ? ORDER BY game`, account)
		return err
	})
	return list, err
}

// PuzzleStates implements store.Puzzles.
func (s *Service) PuzzleStates(ctx context.Context, game string) (list []store.PuzzleState, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		list, err = queryAll(ctx, tx, scanPuzzle, `SELECT `+puzzleColumns+` FROM puzzles WHERE game = ? ORDER BY id`, game)
		return err
	})
	return list, err
}

// AttemptedPuzzles implements store.Puzzles.
func (s *Service) AttemptedPuzzles(ctx context.Context, account, game string) (ids []string, err error) {
	scanID := func(r Row) (id string, err error) { return id, r.Scan(&id) }
	err = s.Read(ctx, func(tx Tx) error {
		ids, err = queryAll(ctx, tx, scanID, `SELECT puzzle FROM puzzle_attempts WHERE account = ? AND game = ? ORDER BY puzzle`, account, game)
		return err
	})
	return ids, err
}

// RecordPuzzleAttempt implements store.Puzzles. The attempt's insert
// decides: of two attempts by one account at one puzzle, however close,
// one inserts its row and rates; the other finds the key taken (on
// PostgreSQL it waits for the first to commit) and rates nothing. The
// locks make two rated attempts that touch the same player's or the same
// puzzle's rating take turns, so that neither update is lost.
func (s *Service) RecordPuzzleAttempt(ctx context.Context, a store.PuzzleAttempt, rate store.PuzzleRater) (out store.PuzzleOutcome, err error) {
	err = s.Write(ctx, func(tx Tx) error {
		if err := liveAccount(ctx, tx, a.Account); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `INSERT INTO puzzle_attempts (account, puzzle, game, solved, at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (account, puzzle) DO NOTHING`, a.Account, a.Puzzle, a.Game, boolInt(a.Solved), row.Millis(a.At))
		if err != nil {
			return err
		}
		if err := s.lock(ctx, tx, "puzzle-player:"+a.Account); err != nil {
			return err
		}
		if err := s.lock(ctx, tx, "puzzle:"+a.Puzzle); err != nil {
			return err
		}
		before, err := puzzlePlayer(ctx, tx, a)
		if err != nil {
			return err
		}
		puzzle, err := puzzleState(ctx, tx, a)
		if err != nil {
			return err
		}
		out = store.PuzzleOutcome{Rated: n == 1, Before: before, Player: before, Puzzle: puzzle}
		if !out.Rated {
			return nil
		}
		out.Player, out.Puzzle = rate(before, puzzle, a.Solved)
		out.Player.Game, out.Player.Attempts, out.Player.Updated = a.Game, before.Attempts+1, a.At
		out.Puzzle.ID, out.Puzzle.Game, out.Puzzle.Plays = a.Puzzle, a.Game, puzzle.Plays+1
		out.Puzzle.Solved = puzzle.Solved + boolInt(a.Solved)
		return putPuzzleRatings(ctx, tx, a.Account, out)
	})
	if err != nil {
		return store.PuzzleOutcome{}, err
	}
	out.Player.Updated, out.Before.Updated = row.Time(row.Millis(out.Player.Updated)), row.Time(row.Millis(out.Before.Updated))
	return out, nil
}

// liveAccount is ErrNoAccount unless the account is there and not
// deleted: a deleted account's puzzle rows are gone and stay gone.
func liveAccount(ctx context.Context, tx Tx, id string) error {
	var deleted int
	err := tx.QueryRow(ctx, `SELECT deleted FROM accounts WHERE id = ?`, id).Scan(&deleted)
	if errors.Is(err, ErrNoRows) || (err == nil && deleted != 0) {
		return store.ErrNoAccount
	}
	return err
}

// puzzlePlayer is the account's stored puzzle rating in the game, or
// a.Player for none.
func puzzlePlayer(ctx context.Context, tx Tx, a store.PuzzleAttempt) (store.PuzzleRating, error) {
	r, err := scanPuzzleRating(tx.QueryRow(ctx, `SELECT `+puzzleRatingColumns+` FROM puzzle_ratings WHERE account = ? AND game = ?`, a.Account, a.Game))
	if errors.Is(err, ErrNoRows) {
		p := a.Player
		p.Game, p.Attempts = a.Game, 0
		return p, nil
	}
	return r, err
}

// puzzleState is the puzzle's stored rating, or a.Start for none.
func puzzleState(ctx context.Context, tx Tx, a store.PuzzleAttempt) (store.PuzzleState, error) {
	p, err := scanPuzzle(tx.QueryRow(ctx, `SELECT `+puzzleColumns+` FROM puzzles WHERE id = ?`, a.Puzzle))
	if errors.Is(err, ErrNoRows) {
		p = a.Start
		p.ID, p.Game, p.Plays, p.Solved = a.Puzzle, a.Game, 0, 0
		return p, nil
	}
	return p, err
}

func putPuzzleRatings(ctx context.Context, tx Tx, account string, out store.PuzzleOutcome) error {
	p := out.Player
	if _, err := tx.Exec(ctx, `INSERT INTO puzzle_ratings (account, game, rating, rd, volatility, attempts, updated) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account, game) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
		volatility = excluded.volatility, attempts = excluded.attempts, updated = excluded.updated`,
		account, p.Game, p.Rating, p.RD, p.Volatility, p.Attempts, row.Millis(p.Updated)); err != nil {
		return err
	}
	z := out.Puzzle
	_, err := tx.Exec(ctx, `INSERT INTO puzzles (id, game, rating, rd, volatility, plays, solved) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
		volatility = excluded.volatility, plays = excluded.plays, solved = excluded.solved`,
		z.ID, z.Game, z.Rating, z.RD, z.Volatility, z.Plays, z.Solved)
	return err
}
