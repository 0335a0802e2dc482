package store

import (
	"context"
	"errors"
	"time"

	"github.com/arbiter-games/arbiter/timecontrol"
)

// The errors of the tournaments' part of a store.
var (
	// ErrNoTournament: no tournament has that id.
	ErrNoTournament = errors.New("no such tournament")
	// ErrTooManyTournaments: the creator has as many tournaments not yet
	// finished as allowed.
	ErrTooManyTournaments = errors.New("too many tournaments")
	// ErrTournamentFull: the tournament has as many players as allowed.
	ErrTournamentFull = errors.New("the tournament is full")
	// ErrNotInTournament: the account is not a player of the tournament.
	ErrNotInTournament = errors.New("not in that tournament")
)

// The states of a tournament, in order.
const (
	TournamentCreated  = "created"
	TournamentRunning  = "running"
	TournamentFinished = "finished"
)

// Tournament is an arena, a Swiss or a round-robin, and where it stands.
type Tournament struct {
	ID      string
	Creator string // the account that made it
	Name    string
	Kind    string // "arena", "swiss" or "roundrobin"
	Game    string
	Options map[string]string
	// Clock is its games' control, in whole seconds or whole days a move
	// (as a seek's), nil for none.
	Clock *timecontrol.Control
	Rated bool
	// Rounds is a Swiss's or round-robin's number of rounds; Minutes an
	// arena's duration.
	Rounds, Minutes int
	// Invite: only invited accounts may join.
	Invite bool
	// MinRating and MaxRating bound the players' ratings in Game (0: no
	// bound).
	MinRating, MaxRating int
	// Starts is the scheduled start; zero when the creator starts it.
	Starts time.Time
	State  string // TournamentCreated, TournamentRunning, TournamentFinished
	// Round counts the pairings made: a Swiss's or round-robin's rounds,
	// an arena's waves of pairings.
	Round   int
	Started time.Time
	Ended   time.Time
	Created time.Time
}

// TournamentPlayer is an account in a tournament.
type TournamentPlayer struct {
	Tournament string
	Account    string
	Name       string
	// Rating is the player's rating in the tournament's game when joining.
	Rating float64
	// Invited: the creator invited the account; Joined: it joined (an
	// invited account that has not joined yet plays nothing).
	Invited, Joined bool
	// Withdrawn players are paired no more; Paused arena players are not
	// paired until they come back; Berserk arena players play every game
	// on half their clock.
	Withdrawn, Paused, Berserk bool
	// Score is the player's points, as the last result written left them.
	Score float64
	At    time.Time // when the row was last written
}

// TournamentGame is one board of a round: a game between Seats (account
// ids in seat order), or a bye (Game "", one seat).
type TournamentGame struct {
	Tournament string
	Round      int
	Board      int // from 1
	Game       string
	Seats      []string
	// Berserk are the seats that went berserk (nil: none).
	Berserk []bool
	// Ended is set once the result is written: Places are then each
	// seat's place (1 the best, equal for places shared; a draw is 1, 1)
	// and Plies the moves played.
	Ended    bool
	Places   []int
	Plies    int
	Created  time.Time
	Finished time.Time
}

// TournamentFilter selects tournaments for Tournaments.
type TournamentFilter struct {
	// State keeps only the tournaments in that state ("" for all).
	State string
	// Limit bounds the answer (0: 100; negative is an error); the
	// upcoming soonest first, the others newest first.
	Limit int
}

// Tournaments keeps tournaments: every decision (a start, a round's
// pairing, a result, the end) is one transaction whose conditions make a
// second server, or the same one after a crash, unable to take it twice.
type Tournaments interface {
	// CreateTournament stores a new tournament, refused with
	// ErrTooManyTournaments when its creator has perCreator or more that
	// are not finished.
	CreateTournament(ctx context.Context, t Tournament, perCreator int) error
	// Tournament reads one; ErrNoTournament for none.
	Tournament(ctx context.Context, id string) (Tournament, error)
	// ListTournaments gives the tournaments f keeps.
	ListTournaments(ctx context.Context, f TournamentFilter) ([]Tournament, error)
	// SetTournamentPlayer writes p (a join, an invitation, a withdrawal,
	// a pause, a berserk), refused with ErrTournamentFull when p joins
	// (not joined before) and max players have joined already, and with
	// ErrNoTournament when the tournament is unknown or finished.
	SetTournamentPlayer(ctx context.Context, p TournamentPlayer, max int) error
	// TournamentPlayers gives a tournament's players, by account id (the
	// caller ranks them).
	TournamentPlayers(ctx context.Context, id string) ([]TournamentPlayer, error)
	// StartTournament moves a created tournament to running at now;
	// ErrConflict when it was not in TournamentCreated.
	StartTournament(ctx context.Context, id string, now time.Time) error
	// PairTournament stores the games of pairing round (Tournament.Round
	// + 1) in one transaction, only if the tournament is running at round
	// round-1 and none of the games' players is in round already, or
	// (when free is set, an arena) in a game not ended; else ErrConflict
	// and nothing is stored.
	PairTournament(ctx context.Context, id string, round int, games []TournamentGame, free bool) error
	// TournamentGames gives a tournament's games, by round and board.
	TournamentGames(ctx context.Context, id string) ([]TournamentGame, error)
	// TournamentOfGame gives the id of the tournament that paired game
	// ("" for a game of none, and for the empty id of a bye).
	TournamentOfGame(ctx context.Context, game string) (string, error)
	// EndTournamentGame writes the result of a tournament's game (places
	// and plies) and the players' scores after it, once: ended reports
	// whether this call wrote it (false: written before).
	EndTournamentGame(ctx context.Context, g TournamentGame, scores map[string]float64) (ended bool, err error)
	// FinishTournament moves a running tournament to finished at now;
	// ErrConflict when it was not running.
	FinishTournament(ctx context.Context, id string, now time.Time) error
}
