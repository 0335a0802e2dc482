package match

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
)

// SPRTOutcome is where a sequential test stopped.
type SPRTOutcome struct {
	Test SPRT
	// Units are the units (rotations of n games) by the first player's
	// points, resumed ones included.
	Units Units
	// Counts are the same units as a pentanomial when the game has two
	// players, and zero otherwise.
	Counts Pentanomial
	// Resumed is how many of the units came from games played before.
	Resumed int
	LLR     float64
	Verdict string // "H1 accepted", "H0 accepted", or "" if neither bound was reached
	// Games are the games this run played and counted, in game order, nil
	// for the others; a game still in flight at the verdict is dropped.
	Games []*GameLog
}

// Played is the number of games counted, n per unit.
func (o SPRTOutcome) Played() int { return o.Units.Players * o.Units.Total() }

// RunSPRT plays a match of n players as units of n games, rotations (unit
// k is games kn to kn+n-1: one opening, the seats rotated, as Run plays
// them; for two players, pairs with the seats swapped), and adds every
// unit, once all of its games are in, to the counts of the first player's
// points (Units; a pentanomial for two). After each unit it checks the
// test, and at a bound it stops: games still in flight are cancelled and
// dropped, since counting only the units that happen to finish after the
// decision adds nothing the decision rests on. prior holds the first
// player's scores of games already played (by game index, see
// ResumeScores); they count and are not played again. done, if not nil,
// is called (from one goroutine at a time) after each counted game with
// the games played so far, as Run's is.
func RunSPRT(ctx context.Context, cfg Config, test SPRT, prior map[int]float64, done func(games []*GameLog)) (SPRTOutcome, error) {
	if err := cfg.checkUnits(test); err != nil {
		return SPRTOutcome{}, err
	}
	if err := cfg.checkPrior(prior); err != nil {
		return SPRTOutcome{}, err
	}
	t := newUnitTally(cfg, test, prior)
	if t.out.Verdict != "" {
		return t.out, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(cfg.Concurrency, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				log, err := playOne(ctx, cfg, i)
				if t.add(i, log, err) {
					cancel()
				}
				if err == nil && done != nil {
					t.report(done)
				}
			}
		}()
	}
	for i := 0; i < cfg.Games && ctx.Err() == nil; i++ {
		if _, ok := prior[i]; !ok {
			jobs <- i
		}
	}
	close(jobs)
	wg.Wait()
	return t.result(ctx)
}

// checkUnits refuses a match that cannot be played in units of n games,
// or a test that is unusable.
func (cfg Config) checkUnits(test SPRT) error {
	if err := test.Check(); err != nil {
		return fmt.Errorf("sprt: %w", err)
	}
	if err := cfg.check(); err != nil {
		return err
	}
	if n := cfg.Game.Players(); cfg.Games%n != 0 {
		return fmt.Errorf("sprt: %d games %s", cfg.Games, unitsWanted(n))
	}
	return cfg.CheckOpenings()
}

// unitsWanted says what --games must be for a game of n players.
func unitsWanted(n int) string {
	if n == 2 {
		return "do not make pairs: give an even number"
	}
	return fmt.Sprintf("do not make rotations of %d games: give a multiple of %d", n, n)
}

// checkPrior refuses a prior score for a game outside the match, or one
// that no game of the match's players can give (0, 0.5 or 1 for two).
func (cfg Config) checkPrior(prior map[int]float64) error {
	n := cfg.Game.Players()
	shares, _ := gameShares(n)
	for i, x := range prior {
		if i < 0 || i >= cfg.Games {
			return fmt.Errorf("sprt: an earlier game %d of a match of %d games", i+1, cfg.Games)
		}
		if indexOf(shares, x) < 0 {
			return fmt.Errorf("sprt: earlier game %d has score %g, want %s", i+1, x, shareList(n))
		}
	}
	return nil
}

// unitTally counts finished games into units, under its lock.
type unitTally struct {
	mu     sync.Mutex
	test   SPRT
	scores []float64 // the first player's score per game, NaN until it is in
	out    SPRTOutcome
	err    error
}

// newUnitTally starts from the prior games, and has a verdict at once if
// they already reach a bound.
func newUnitTally(cfg Config, test SPRT, prior map[int]float64) *unitTally {
	t := &unitTally{test: test, scores: make([]float64, cfg.Games),
		out: SPRTOutcome{Test: test, Units: NewUnits(cfg.Game.Players()), Games: make([]*GameLog, cfg.Games)}}
	for i := range t.scores {
		t.scores[i] = math.NaN()
	}
	for _, i := range slices.Sorted(maps.Keys(prior)) {
		if t.score(i, prior[i]) {
			t.out.Resumed++
		}
	}
	t.out.LLR = test.UnitsLLR(t.out.Units)
	t.out.Verdict = test.Verdict(t.out.LLR)
	return t
}

// score puts game i's score in and counts its unit if the unit's other
// games are in too; it says whether a unit was counted.
func (t *unitTally) score(i int, x float64) bool {
	t.scores[i] = x
	n := t.out.Units.Players
	unit := t.scores[i/n*n : i/n*n+n]
	if slices.ContainsFunc(unit, math.IsNaN) {
		return false
	}
	if err := t.out.Units.Add(unit...); err != nil && t.err == nil {
		t.err = err
	}
	if n == 2 {
		copy(t.out.Counts[:], t.out.Units.Counts)
	}
	return true
}

// add counts one played game, or its error; it says whether the test has
// just reached a verdict or failed, so that the match stops.
func (t *unitTally) add(i int, log *GameLog, err error) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.out.Verdict != "" || t.err != nil {
		return false // decided already: a game in flight is dropped
	}
	if err != nil {
		t.err = err
		return true
	}
	t.out.Games[i] = log
	if t.score(i, FirstScore(log)) {
		t.out.LLR = t.test.UnitsLLR(t.out.Units)
		t.out.Verdict = t.test.Verdict(t.out.LLR)
	}
	return t.out.Verdict != "" || t.err != nil
}

// report calls done with the games so far, under the lock.
func (t *unitTally) report(done func([]*GameLog)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	done(t.out.Games)
}

// result is the outcome, or the first error; a cancelled context is an
// error only when no verdict cancelled it.
func (t *unitTally) result(ctx context.Context) (SPRTOutcome, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.out.Verdict != "" {
		return t.out, nil
	}
	if t.err != nil {
		return t.out, t.err
	}
	return t.out, ctx.Err()
}

// FirstScore is the first player's share of the game's point (Share): in
// a game of two, 1 for a win, 0.5 for a draw, 0 for a loss.
func FirstScore(log *GameLog) float64 {
	return Share(log.Result, log.Players[0], len(log.Players))
}

// ResumeScores reads the first player's scores from the records of a
// match played before with the same configuration, by game index, so that
// RunSPRT counts them and does not play them again. Every record must be
// a game of this match: its Round names a game of it, played once, with
// the players in the seats and from the opening that Run would give that
// game; anything else is refused, since a game of another match would
// skew the test.
func ResumeScores(cfg Config, recs []*record.Record) (map[int]float64, error) {
	scores := map[int]float64{}
	for _, rec := range recs {
		i, err := cfg.resumedGame(rec)
		if err != nil {
			return nil, fmt.Errorf("game at line %d: %w", rec.Line, err)
		}
		if _, ok := scores[i]; ok {
			return nil, fmt.Errorf("game at line %d: round %d is in the file twice", rec.Line, i+1)
		}
		n := cfg.Game.Players()
		res, err := record.ParseResult(rec.Get("Result"), rec.Get("Termination"), n)
		if err != nil {
			return nil, fmt.Errorf("game at line %d: %w", rec.Line, err)
		}
		scores[i] = Share(res, game.Player(i%n), n)
	}
	return scores, nil
}

// errOtherMatch is why a record is not a game of the match resumed.
var errOtherMatch = errors.New("not a game of this match (other players, seed, opening, clock or --games): give a new --out file or the same flags")

// resumedGame is the index of the game a record holds, if it is the game
// that Run would play at that index.
func (cfg Config) resumedGame(rec *record.Record) (int, error) {
	round, err := strconv.Atoi(rec.Get("Round"))
	if err != nil || round < 1 || round > cfg.Games || rec.Get("Game") != cfg.Game.ID() || rec.Get("TimeControl") != cfg.Clock.Tag() {
		return 0, errOtherMatch
	}
	i, n := round-1, cfg.Game.Players()
	for k, p := range cfg.Players {
		if rec.Get(cfg.Game.PlayerName(game.Player((k+i)%n))) != p.Name {
			return 0, errOtherMatch
		}
	}
	_, from, opening, err := openingFor(cfg, i/n)
	if err != nil {
		return 0, err
	}
	if rec.Get("FEN") != from || len(rec.Moves) < len(opening) || !slices.Equal(rec.Moves[:len(opening)], opening) {
		return 0, errOtherMatch
	}
	return i, nil
}
