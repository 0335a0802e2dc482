package acct

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/internal/row"
)

const tournamentColumns = "id, creator, name, kind, game, options, clock, rated, rounds, minutes, invite, " +
	"min_rating, max_rating, starts, state, round, started, ended, created"

func scanTournament(r Row) (store.Tournament, error) {
	var t store.Tournament
	var opts string
	var clock *string
	var rated, invite int
	var starts, started, ended, created int64
	err := r.Scan(&t.ID, &t.Creator, &t.Name, &t.Kind, &t.Game, &opts, &clock, &rated, &t.Rounds, &t.Minutes, &invite,
		&t.MinRating, &t.MaxRating, &starts, &t.State, &t.Round, &started, &ended, &created)
	if errors.Is(err, ErrNoRows) {
		return t, store.ErrNoTournament
	}
	if err != nil {
		return t, err
	}
	t.Rated, t.Invite = rated == 1, invite == 1
	t.Starts, t.Started, t.Ended, t.Created = optTime(starts), optTime(started), optTime(ended), row.Time(created)
	if err := json.Unmarshal([]byte(opts), &t.Options); err != nil {
		return t, err
	}
	if clock != nil {
		var stored seekClock
		if err := json.Unmarshal([]byte(*clock), &stored); err != nil {
			return t, err
		}
		tc := stored.control()
		t.Clock = &tc
	}
	return t, nil
}

// CreateTournament implements store.Tournaments.
func (s *Service) CreateTournament(ctx context.Context, t store.Tournament, perCreator int) error {
	if t.ID == "" || t.Creator == "" {
		return errors.New("store: a tournament needs an id and a creator")
	}
	opts, err := json.Marshal(t.Options)
	if err != nil {
		return err
	}
	if t.Options == nil {
		opts = []byte("{}")
	}
	clock, err := seekClockText(t.Clock)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx Tx) error {
		if err := s.lock(ctx, tx, "tournaments of "+t.Creator); err != nil {
			return err
		}
		var open int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM tournaments WHERE creator = ? AND state <> ?`,
			t.Creator, store.TournamentFinished).Scan(&open); err != nil {
			return err
		}
		if open >= perCreator {
			return store.ErrTooManyTournaments
		}
		_, err := tx.Exec(ctx, `INSERT INTO tournaments (`+tournamentColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, t.Creator, t.Name, t.Kind, t.Game, string(opts), clock, boolInt(t.Rated), t.Rounds, t.Minutes, boolInt(t.Invite),
			t.MinRating, t.MaxRating, optMillis(t.Starts), store.TournamentCreated, 0, int64(0), int64(0), row.Millis(t.Created))
		if errors.Is(err, ErrUnique) {
			return fmt.Errorf("store: tournament %s: %w", t.ID, store.ErrDuplicate)
		}
		return err
	})
}

// Tournament implements store.Tournaments.
func (s *Service) Tournament(ctx context.Context, id string) (t store.Tournament, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		t, err = scanTournament(tx.QueryRow(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = ?`, id))
		return err
	})
	return t, err
}

// ListTournaments implements store.Tournaments.
func (s *Service) ListTournaments(ctx context.Context, f store.TournamentFilter) (list []store.Tournament, err error) {
	limit := f.Limit
	switch {
	case limit < 0:
		return nil, fmt.Errorf("store: limit %d is negative", limit)
	case limit == 0 || limit > 1000:
		limit = 100
	}
	query := `SELECT ` + tournamentColumns + ` FROM tournaments`
	var args []any
	switch f.State {
	case "":
		query += ` ORDER BY created DESC, id DESC`
	case store.TournamentCreated:
		// The scheduled soonest first, then those started by hand.
		query += ` WHERE state = ? ORDER BY starts = 0, starts, created DESC, id DESC`
		args = append(args, f.State)
	case store.TournamentRunning, store.TournamentFinished:
		query += ` WHERE state = ? ORDER BY created DESC, id DESC`
		args = append(args, f.State)
	default:
		return nil, fmt.Errorf("store: no tournament state %q", f.State)
	}
	query += ` LIMIT ?`
	args = append(args, limit)
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanTournament(rows)
			if err != nil {
				return err
			}
			list = append(list, t)
		}
		return rows.Err()
	})
	return list, err
}

const playerColumns = "tournament, account, name, rating, invited, joined, withdrawn, paused, berserk, score, at"

func scanPlayer(r Row) (store.TournamentPlayer, error) {
	var p store.TournamentPlayer
	var invited, joined, withdrawn, paused, berserk int
	var at int64
	err := r.Scan(&p.Tournament, &p.Account, &p.Name, &p.Rating, &invited, &joined, &withdrawn, &paused, &berserk, &p.Score, &at)
	if errors.Is(err, ErrNoRows) {
		return p, store.ErrNotInTournament
	}
	p.Invited, p.Joined, p.Withdrawn, p.Paused, p.Berserk = invited == 1, joined == 1, withdrawn == 1, paused == 1, berserk == 1
	p.At = row.Time(at)
	return p, err
}

// SetTournamentPlayer implements store.Tournaments.
func (s *Service) SetTournamentPlayer(ctx context.Context, p store.TournamentPlayer, max int) error {
	return s.Write(ctx, func(tx Tx) error {
		if err := s.lock(ctx, tx, "tournament "+p.Tournament); err != nil {
			return err
		}
		var state string
		err := tx.QueryRow(ctx, `SELECT state FROM tournaments WHERE id = ?`, p.Tournament).Scan(&state)
		if errors.Is(err, ErrNoRows) || err == nil && state == store.TournamentFinished {
			return store.ErrNoTournament
		}
		if err != nil {
			return err
		}
		old, err := scanPlayer(tx.QueryRow(ctx, `SELECT `+playerColumns+` FROM tournament_players WHERE tournament = ? AND account = ?`,
			p.Tournament, p.Account))
		exists := err == nil
		if err != nil && !errors.Is(err, store.ErrNotInTournament) {
			return err
		}
		if p.Joined && !old.Joined {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM tournament_players WHERE tournament = ? AND joined = 1`,
				p.Tournament).Scan(&n); err != nil {
				return err
			}
			if n >= max {
				return store.ErrTournamentFull
			}
		}
		args := []any{p.Name, p.Rating, boolInt(p.Invited), boolInt(p.Joined), boolInt(p.Withdrawn), boolInt(p.Paused),
			boolInt(p.Berserk), p.Score, row.Millis(p.At), p.Tournament, p.Account}
		if exists {
			_, err = tx.Exec(ctx, `UPDATE tournament_players SET name = ?, rating = ?, invited = ?, joined = ?, withdrawn = ?,
				paused = ?, berserk = ?, score = ?, at = ? WHERE tournament = ? AND account = ?`, args...)
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO tournament_players (name, rating, invited, joined, withdrawn, paused, berserk, score, at,
			tournament, account) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, args...)
		return err
	})
}

// TournamentPlayers implements store.Tournaments.
func (s *Service) TournamentPlayers(ctx context.Context, id string) (list []store.TournamentPlayer, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+playerColumns+` FROM tournament_players WHERE tournament = ? ORDER BY account`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanPlayer(rows)
			if err != nil {
				return err
			}
			list = append(list, p)
		}
		return rows.Err()
	})
	return list, err
}

// StartTournament implements store.Tournaments.
func (s *Service) StartTournament(ctx context.Context, id string, now time.Time) error {
	return s.setState(ctx, id, store.TournamentCreated, store.TournamentRunning, "started", now)
}

// FinishTournament implements store.Tournaments.
func (s *Service) FinishTournament(ctx context.Context, id string, now time.Time) error {
	return s.setState(ctx, id, store.TournamentRunning, store.TournamentFinished, "ended", now)
}

// setState moves tournament id from state from to state to, writing now
// in column at (a constant of this file, never the caller's text).
func (s *Service) setState(ctx context.Context, id, from, to, at string, now time.Time) error {
	return s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE tournaments SET state = ?, `+at+` = ? WHERE id = ? AND state = ?`, to, row.Millis(now), id, from)
		if err != nil {
			return err
		}
		if n == 1 {
			return nil
		}
		var state string
		if err := tx.QueryRow(ctx, `SELECT state FROM tournaments WHERE id = ?`, id).Scan(&state); errors.Is(err, ErrNoRows) {
			return store.ErrNoTournament
		}
		return store.ErrConflict
	})
}

// PairTournament implements store.Tournaments.
func (s *Service) PairTournament(ctx context.Context, id string, round int, games []store.TournamentGame, free bool) error {
	return s.Write(ctx, func(tx Tx) error {
		// PostgreSQL's writers run side by side: one pairs a tournament
		// at a time. The conditional update and the seats' unique key
		// would refuse the second anyway; the lock spares it the work.
		if err := s.lock(ctx, tx, "tournament "+id); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE tournaments SET round = ? WHERE id = ? AND round = ? AND state = ?`,
			round, id, round-1, store.TournamentRunning)
		if err != nil {
			return err
		}
		if n != 1 {
			return store.ErrConflict
		}
		for _, g := range games {
			if err := insertTournamentGame(ctx, tx, id, round, g, free); err != nil {
				return err
			}
		}
		return nil
	})
}

func insertTournamentGame(ctx context.Context, tx Tx, id string, round int, g store.TournamentGame, free bool) error {
	seats, berserk, places, err := gameJSON(g)
	if err != nil {
		return err
	}
	for _, a := range g.Seats {
		if free {
			var busy int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM tournament_seats s JOIN tournament_games g
				ON g.tournament = s.tournament AND g.round = s.round AND g.board = s.board
				WHERE s.tournament = ? AND s.account = ? AND g.ended = 0`, id, a).Scan(&busy); err != nil {
				return err
			}
			if busy > 0 {
				return store.ErrConflict
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO tournament_seats (tournament, round, account, board) VALUES (?, ?, ?, ?)`, id, round, a, g.Board)
		if errors.Is(err, ErrUnique) {
			return store.ErrConflict
		}
		if err != nil {
			return err
		}
	}
	_, err = tx.Exec(ctx, `INSERT INTO tournament_games (tournament, round, board, game_id, seats, berserk, ended, places, plies, created, finished)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, round, g.Board, g.Game, seats, berserk, boolInt(g.Ended), places, g.Plies,
		row.Millis(g.Created), optMillis(g.Finished))
	if errors.Is(err, ErrUnique) {
		return store.ErrConflict
	}
	return err
}

func gameJSON(g store.TournamentGame) (seats, berserk, places string, err error) {
	for _, v := range []struct {
		to *string
		of any
	}{{&seats, g.Seats}, {&berserk, g.Berserk}, {&places, g.Places}} {
		b, err := json.Marshal(v.of)
		if err != nil {
			return "", "", "", err
		}
		*v.to = string(b)
	}
	return seats, berserk, places, nil
}

// TournamentGames implements store.Tournaments.
func (s *Service) TournamentGames(ctx context.Context, id string) (list []store.TournamentGame, err error) {
	err = s.Read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT round, board, game_id, seats, berserk, ended, places, plies, created, finished
			FROM tournament_games WHERE tournament = ? ORDER BY round, board`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			g := store.TournamentGame{Tournament: id}
			var seats, berserk, places string
			var ended int
			var created, finished int64
			if err := rows.Scan(&g.Round, &g.Board, &g.Game, &seats, &berserk, &ended, &places, &g.Plies, &created, &finished); err != nil {
				return err
			}
			g.Ended, g.Created, g.Finished = ended == 1, row.Time(created), optTime(finished)
			for _, v := range []struct {
				text string
				to   any
			}{{seats, &g.Seats}, {berserk, &g.Berserk}, {places, &g.Places}} {
				if err := json.Unmarshal([]byte(v.text), v.to); err != nil {
					return err
				}
			}
			list = append(list, g)
		}
		return rows.Err()
	})
	return list, err
}

// TournamentOfGame implements store.Tournaments.
func (s *Service) TournamentOfGame(ctx context.Context, game string) (id string, err error) {
	if game == "" {
		return "", nil // a bye has no game
	}
	err = s.Read(ctx, func(tx Tx) error {
		err := tx.QueryRow(ctx, `SELECT tournament FROM tournament_games WHERE game_id = ?`, game).Scan(&id)
		if errors.Is(err, ErrNoRows) {
			return nil
		}
		return err
	})
	return id, err
}

// EndTournamentGame implements store.Tournaments.
func (s *Service) EndTournamentGame(ctx context.Context, g store.TournamentGame, scores map[string]float64) (ended bool, err error) {
	_, _, places, err := gameJSON(g)
	if err != nil {
		return false, err
	}
	err = s.Write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE tournament_games SET ended = 1, places = ?, plies = ?, finished = ?
			WHERE tournament = ? AND round = ? AND board = ? AND ended = 0`,
			places, g.Plies, row.Millis(g.Finished), g.Tournament, g.Round, g.Board)
		if err != nil || n != 1 {
			return err
		}
		ended = true
		for account, score := range scores {
			if _, err := tx.Exec(ctx, `UPDATE tournament_players SET score = ? WHERE tournament = ? AND account = ?`,
				score, g.Tournament, account); err != nil {
				return err
			}
		}
		return nil
	})
	return ended && err == nil, err
}
