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
	Test   SPRT
	Counts Pentanomial // pairs by the first player's score, resumed ones included
	// Resumed is how many of the pairs came from games played before.
	Resumed int
	LLR     float64
	Verdict string // "H1 accepted", "H0 accepted", or "" if neither bound was reached
	// Games are the games this run played and counted, in game order, nil
	// for the others; a game still in flight at the verdict is dropped.
	Games []*GameLog
}

// Played is the number of games counted, two per pair.
func (o SPRTOutcome) Played() int { return 2 * o.Counts.Pairs() }

// RunSPRT plays a match of two players as game pairs (pair k is games 2k
// and 2k+1: one opening, the seats swapped, as Run plays them) and adds
// every pair, once both of its games are in, to a pentanomial of the first
// player's scores. After each pair it checks the test, and at a bound it
// stops: games still in flight are cancelled and dropped, since counting
// only the pairs that happen to finish after the decision adds nothing the
// decision rests on. prior holds the first player's scores of games
// already played (by game index, see ResumeScores); they count and are not
// played again. done, if not nil, is called (from one goroutine at a time)
// after each counted game with the games played so far, as Run's is.
func RunSPRT(ctx context.Context, cfg Config, test SPRT, prior map[int]float64, done func(games []*GameLog)) (SPRTOutcome, error) {
	if err := cfg.checkPairs(test); err != nil {
		return SPRTOutcome{}, err
	}
	if err := cfg.checkPrior(prior); err != nil {
		return SPRTOutcome{}, err
	}
	t := newPairTally(cfg, test, prior)
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

// checkPairs refuses a match that cannot be played in pairs, or a test
// that is unusable.
func (cfg Config) checkPairs(test SPRT) error {
	if err := test.Check(); err != nil {
		return fmt.Errorf("sprt: %w", err)
	}
	if err := cfg.check(); err != nil {
		return err
	}
	if n := cfg.Game.Players(); n != 2 {
		return fmt.Errorf("sprt: %s seats %d players; the test plays two against each other", cfg.Game.ID(), n)
	}
	if cfg.Games%2 != 0 {
		return fmt.Errorf("sprt: %d games do not make pairs: give an even number", cfg.Games)
	}
	return cfg.CheckOpenings()
}

// checkPrior refuses a prior score for a game outside the match, or one
// that is not 0, 0.5 or 1.
func (cfg Config) checkPrior(prior map[int]float64) error {
	for i, x := range prior {
		if i < 0 || i >= cfg.Games {
			return fmt.Errorf("sprt: an earlier game %d of a match of %d games", i+1, cfg.Games)
		}
		if x != 0 && x != 0.5 && x != 1 {
			return fmt.Errorf("sprt: earlier game %d has score %g, want 0, 0.5 or 1", i+1, x)
		}
	}
	return nil
}

// pairTally counts finished games into pairs, under its lock.
type pairTally struct {
	mu     sync.Mutex
	test   SPRT
	scores []float64 // the first player's score per game, NaN until it is in
	out    SPRTOutcome
	err    error
}

// newPairTally starts from the prior games, and has a verdict at once if
// they already reach a bound.
func newPairTally(cfg Config, test SPRT, prior map[int]float64) *pairTally {
	t := &pairTally{test: test, scores: make([]float64, cfg.Games), out: SPRTOutcome{Test: test, Games: make([]*GameLog, cfg.Games)}}
	for i := range t.scores {
		t.scores[i] = math.NaN()
	}
	for _, i := range slices.Sorted(maps.Keys(prior)) {
		if t.score(i, prior[i]) {
			t.out.Resumed++
		}
	}
	t.out.LLR = test.LLR(t.out.Counts)
	t.out.Verdict = test.Verdict(t.out.LLR)
	return t
}

// score puts game i's score in and counts its pair if the other game is
// in too; it says whether a pair was counted.
func (t *pairTally) score(i int, x float64) bool {
	t.scores[i] = x
	other := i ^ 1 // the pair's other game: 2k and 2k+1 differ in the last bit
	if math.IsNaN(t.scores[other]) {
		return false
	}
	a, b := t.scores[i&^1], t.scores[i|1]
	if err := t.out.Counts.Add(a, b); err != nil && t.err == nil {
		t.err = err
	}
	return true
}

// add counts one played game, or its error; it says whether the test has
// just reached a verdict or failed, so that the match stops.
func (t *pairTally) add(i int, log *GameLog, err error) bool {
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
		t.out.LLR = t.test.LLR(t.out.Counts)
		t.out.Verdict = t.test.Verdict(t.out.LLR)
	}
	return t.out.Verdict != "" || t.err != nil
}

// report calls done with the games so far, under the lock.
func (t *pairTally) report(done func([]*GameLog)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	done(t.out.Games)
}

// result is the outcome, or the first error; a cancelled context is an
// error only when no verdict cancelled it.
func (t *pairTally) result(ctx context.Context) (SPRTOutcome, error) {
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

// FirstScore is the first player's score in a game of two: 1 for a win,
// 0.5 for a draw, 0 for a loss.
func FirstScore(log *GameLog) float64 {
	return scoreOf(log.Result, log.Players[0])
}

// scoreOf is a seat's score in a two-player result.
func scoreOf(r game.Result, seat game.Player) float64 {
	switch {
	case r.Winners.Len() != 1:
		return 0.5
	case r.Winners.Has(seat):
		return 1
	}
	return 0
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
		res, err := record.ParseResult(rec.Get("Result"), rec.Get("Termination"), 2)
		if err != nil {
			return nil, fmt.Errorf("game at line %d: %w", rec.Line, err)
		}
		scores[i] = scoreOf(res, game.Player(i%2))
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
	i := round - 1
	for k, p := range cfg.Players {
		if rec.Get(cfg.Game.PlayerName(game.Player((k+i)%2))) != p.Name {
			return 0, errOtherMatch
		}
	}
	_, from, opening, err := openingFor(cfg, i/2)
	if err != nil {
		return 0, err
	}
	if rec.Get("FEN") != from || len(rec.Moves) < len(opening) || !slices.Equal(rec.Moves[:len(opening)], opening) {
		return 0, errOtherMatch
	}
	return i, nil
}
