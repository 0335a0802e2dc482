package puzzles

import (
	"context"
	"errors"
	"math"

	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store"
)

// Rating is a Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating, RD, Volatility float64
}

// The puzzle ratings' constants. A puzzle starts at its generator's
// rating with PuzzleStartRD: the generator's guess is a guess, but a
// better one than a new player's 1500 ± 350, so it moves fast at first
// and settles as accounts attempt it.
const (
	PuzzleStartRD = 250
	// The bounds of a rating a signed-out browser sends back: the ones a
	// rating can reach by Glicko-2 from rating.New, with room.
	maxRating     = 4000
	minRD         = 30
	maxRD         = rating.StartRD
	maxVolatility = 0.2
)

// The modes of an attempt.
const (
	Rated  = "rated"
	Streak = "streak"
)

// NewPlayer is the rating of a player who has attempted no puzzle.
func NewPlayer() Rating { return fromGlicko(rating.New()) }

func fromGlicko(g rating.Glicko) Rating { return Rating{g.Rating, g.RD, g.Volatility} }
func (r Rating) glicko() rating.Glicko {
	return rating.Glicko{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
}

// Provisional reports whether the rating is still too uncertain to show
// as settled, as a game rating's is.
func (r Rating) Provisional() bool { return r.glicko().Provisional() }

// Check refuses a rating a client sent that no player could have: not
// finite, or out of the bounds above.
func (r Rating) Check() error {
	for _, x := range []float64{r.Rating, r.RD, r.Volatility} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return refuse(Invalid, "a rating's numbers must be finite")
		}
	}
	switch {
	case r.Rating < 0 || r.Rating > maxRating:
		return refuse(Invalid, "rating %g: want 0 to %d", r.Rating, maxRating)
	case r.RD < minRD || r.RD > maxRD:
		return refuse(Invalid, "rd %g: want %d to %d", r.RD, minRD, maxRD)
	case r.Volatility <= 0 || r.Volatility > maxVolatility:
		return refuse(Invalid, "volatility %g: want above 0, up to %g", r.Volatility, maxVolatility)
	}
	return nil
}

// rated is one rating period of one game: score against opponent, the
// RD kept at rating.MinRD or more as the game ratings keep theirs.
func rated(p, opponent Rating, score float64) Rating {
	g := rating.Period(p.glicko(), []rating.Outcome{{Opponent: opponent.glicko(), Score: score}}, rating.Tau)
	g.RD = max(g.RD, rating.MinRD)
	return fromGlicko(g)
}

// rate is the rule both ways: the player scores 1 for solving against
// the puzzle's rating, the puzzle the opposite against the player's.
func rate(player store.PuzzleRating, puzzle store.PuzzleState, solved bool) (store.PuzzleRating, store.PuzzleState) {
	score := 0.0
	if solved {
		score = 1
	}
	pr := Rating{player.Rating, player.RD, player.Volatility}
	zr := Rating{puzzle.Rating, puzzle.RD, puzzle.Volatility}
	np, nz := rated(pr, zr, score), rated(zr, pr, 1-score)
	player.Rating, player.RD, player.Volatility = np.Rating, np.RD, np.Volatility
	puzzle.Rating, puzzle.RD, puzzle.Volatility = nz.Rating, nz.RD, nz.Volatility
	return player, puzzle
}

// Attempt is a caller's attempt at a puzzle.
type Attempt struct {
	ID     string
	Solved bool
	// Mode is Rated or Streak ("" is Rated).
	Mode string
	// Account is the signed-in caller's id, "" for a signed-out one.
	Account string
	// Rating is the rating a signed-out caller's browser keeps (nil: a
	// new player); ignored for an account, whose rating is stored.
	Rating *Rating
}

// Result is what an attempt did.
type Result struct {
	Rating
	// Change is the rating's change (0 when nothing changed).
	Change float64
	// Rated says whether a stored rating changed: only an account's
	// first attempt at a puzzle, in rated mode.
	Rated bool
	// PuzzleID and PuzzleRating are the puzzle's, after the attempt.
	PuzzleID     string
	PuzzleRating float64
}

// Attempt records an attempt: for an account in rated mode its first
// attempt at the puzzle rates it and the puzzle, once; for a signed-out
// caller the new rating is worked out from the one given and nothing is
// stored, so that no visitor moves a puzzle's rating; a streak attempt
// changes nothing.
func (s *Service) Attempt(ctx context.Context, a Attempt) (Result, error) {
	p, err := s.puzzle(a.ID)
	if err != nil {
		return Result{}, err
	}
	if a.Mode != "" && a.Mode != Rated && a.Mode != Streak {
		return Result{}, refuse(Invalid, "mode %s: want %q or %q", quoted(a.Mode), Rated, Streak)
	}
	if a.Account != "" {
		if err := s.admitAttempt(a.Account); err != nil {
			return Result{}, err
		}
	}
	state, err := s.stateOf(ctx, p.Game, p.ID)
	if err != nil {
		return Result{}, err
	}
	if a.Account == "" {
		return s.signedOut(a, state)
	}
	if a.Mode == Streak {
		return s.unrated(ctx, a.Account, p.Game, state)
	}
	out, err := s.store.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{Account: a.Account, Puzzle: p.ID, Game: p.Game, Solved: a.Solved,
		At: s.now(), Player: newStored(p.Game), Start: state}, rate)
	if errors.Is(err, store.ErrNoAccount) {
		return Result{}, refuse(NotFound, "the account is gone; sign in again")
	}
	if err != nil {
		return Result{}, err
	}
	r := Result{Rating: storedRating(out.Player), Change: out.Player.Rating - out.Before.Rating, Rated: out.Rated,
		PuzzleID: p.ID, PuzzleRating: out.Puzzle.Rating}
	return r, nil
}

// signedOut rates a signed-out caller from the rating their browser
// keeps: the puzzle's stored rating is the opponent, and stays as it is.
func (s *Service) signedOut(a Attempt, state store.PuzzleState) (Result, error) {
	before := NewPlayer()
	if a.Rating != nil {
		if err := a.Rating.Check(); err != nil {
			return Result{}, err
		}
		before = *a.Rating
	}
	res := Result{Rating: before, PuzzleID: state.ID, PuzzleRating: state.Rating}
	if a.Mode == Streak {
		return res, nil
	}
	score := 0.0
	if a.Solved {
		score = 1
	}
	res.Rating = rated(before, Rating{state.Rating, state.RD, state.Volatility}, score)
	res.Change = res.Rating.Rating - before.Rating
	return res, nil
}

// unrated answers an attempt that changes nothing with the account's
// rating as it stands.
func (s *Service) unrated(ctx context.Context, accountID, gameID string, state store.PuzzleState) (Result, error) {
	pl, err := s.playerIn(ctx, accountID, gameID)
	if err != nil {
		return Result{}, err
	}
	r := NewPlayer()
	if pl != nil {
		r = pl.Rating
	}
	return Result{Rating: r, PuzzleID: state.ID, PuzzleRating: state.Rating}, nil
}

// admitAttempt takes one of the account's attempts this hour.
func (s *Service) admitAttempt(accountID string) error {
	release, wait, ok := s.attempts.Admit(accountID, 1, s.now())
	if !ok {
		e := refuse(TooMany, "too many puzzle attempts from this account this hour; try again in %.0f seconds", math.Ceil(wait.Seconds()))
		e.RetryAfter = wait
		return e
	}
	release()
	return nil
}

func newStored(gameID string) store.PuzzleRating {
	r := NewPlayer()
	return store.PuzzleRating{Game: gameID, Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
}

func storedRating(r store.PuzzleRating) Rating { return Rating{r.Rating, r.RD, r.Volatility} }

func playerOf(r store.PuzzleRating) *Player {
	x := storedRating(r)
	return &Player{Rating: x, Attempts: r.Attempts, Provisional: x.Provisional()}
}
