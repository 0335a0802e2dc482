package review

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/minimize"
)

// Fitting a curve: self-play games, ab against itself, after a few
// random plies so that the games differ; positions of each scored by the
// review's own search (search, at the review's node budget); k fitted
// so that E(score) predicts the mover's points of the game best, in mean
// squared error, as the tuning fits its scale (golden-section search of
// log k; with three players the offset b too, by a golden-section search
// of b in [-4, 4] at each k tried). Positions the search found decided are left out: they map to
// 1 or 0 whatever k is. Game i is played from seed (Seed, i) by fresh
// engines and the games are fitted in their order, so the curve depends
// on the config alone, not on the number of workers.

// FitConfig says how Fit plays and scores its games; zero fields take
// the defaults their comments give.
type FitConfig struct {
	Game  game.Game
	Games int
	Seed  uint64
	// Nodes is the review's search (0: DefaultNodes); PlayNodes the
	// self-play's search of a move (0: 2000); RandomPlies the random
	// plies from the start (0: 8; negative: none).
	Nodes       int64
	PlayNodes   int64
	RandomPlies int
	// Every scores one position in Every of each game, from the first
	// after the random plies (0: 6): neighbouring positions of one game
	// say nearly the same, so a fit is better spent on more games.
	Every int
	// Workers play and score games at once (0: 1).
	Workers int
	// Progress, when set, is told how many games are done, from one
	// goroutine at a time.
	Progress func(games int)
}

// Bounds of a fit.
const (
	MaxFitGames   = 100_000
	defaultPlay   = 2000
	defaultRandom = 8
	defaultEvery  = 6
	bootstraps    = 200
)

// FitStats say what a fit played.
type FitStats struct {
	Games, Positions, Decided, Plies int
	// Wins counts the games each seat won outright, Draws the others.
	Wins  [game.MaxPlayers]int
	Draws int
}

func (cfg *FitConfig) setDefaults() error {
	switch {
	case cfg.Game == nil:
		return errors.New("review fit: no game")
	case cfg.Games < 1 || cfg.Games > MaxFitGames:
		return fmt.Errorf("review fit: %d games: give 1 to %d", cfg.Games, MaxFitGames)
	case cfg.Nodes < 0 || cfg.Nodes > MaxNodes || cfg.PlayNodes < 0 || cfg.PlayNodes > MaxNodes:
		return fmt.Errorf("review fit: nodes: give 1 to %d", MaxNodes)
	case cfg.Every < 0, cfg.Workers < 0:
		return errors.New("review fit: a negative count")
	}
	if cfg.Nodes == 0 {
		cfg.Nodes = DefaultNodes
	}
	if cfg.PlayNodes == 0 {
		cfg.PlayNodes = defaultPlay
	}
	switch {
	case cfg.RandomPlies == 0:
		cfg.RandomPlies = defaultRandom
	case cfg.RandomPlies < 0:
		cfg.RandomPlies = 0
	}
	if cfg.Every == 0 {
		cfg.Every = defaultEvery
	}
	if cfg.Workers == 0 {
		cfg.Workers = 1
	}
	return nil
}

// SelfPlay plays game i of seed: RandomPlies random plies (by a
// generator seeded (seed, i)), then ab against itself at playNodes a
// move, to the end. It returns the start, the moves and the position
// reached.
func SelfPlay(ctx context.Context, g game.Game, seed uint64, i int, playNodes int64, randomPlies int) (game.State, []game.Move, game.State, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	start := g.Start()
	s := start.Clone()
	var moves []game.Move
	play := func(m game.Move) {
		moves = append(moves, m)
		s.Play(m)
	}
	for range randomPlies {
		if s.Result().Over() {
			break
		}
		legal := s.Moves(nil)
		play(legal[rng.IntN(len(legal))])
	}
	e, err := ai.New("ab:tt=16", seed^uint64(i))
	if err != nil {
		return nil, nil, nil, err
	}
	for !s.Result().Over() {
		info := e.Search(ctx, s, ai.Limits{Nodes: playNodes}, nil)
		if info.Err != nil {
			return nil, nil, nil, info.Err
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		play(info.Move)
	}
	return start, moves, s, nil
}

// Points is each seat's share of the point in a finished game: the
// seats placed first share it (game.Result.Places), a draw shares it
// among all.
func Points(r game.Result, players int) [game.MaxPlayers]float64 {
	var pts [game.MaxPlayers]float64
	places := r.Places(players)
	first := 0
	for _, pl := range places {
		if pl == 1 {
			first++
		}
	}
	for p, pl := range places {
		if pl == 1 {
			pts[p] = 1 / float64(first)
		}
	}
	return pts
}

// sample is one scored position: its score for the mover and the
// mover's points.
type sample struct {
	score  int
	points float64
}

// fitted is one game's samples.
type fitted struct {
	samples []sample
	decided int
	plies   int
	result  game.Result
	err     error
}

// Fit plays cfg.Games self-play games and fits the curve of cfg.Game to
// them (see the top of this file). command is recorded in the curve.
func Fit(ctx context.Context, cfg FitConfig, command string) (Curve, FitStats, error) {
	if err := cfg.setDefaults(); err != nil {
		return Curve{}, FitStats{}, err
	}
	games := make([]fitted, cfg.Games)
	var wg sync.WaitGroup
	var mu sync.Mutex
	finished := 0
	next := make(chan int)
	for range cfg.Workers {
		wg.Go(func() {
			for i := range next {
				games[i] = fitGame(ctx, cfg, i)
				mu.Lock()
				finished++
				if cfg.Progress != nil {
					cfg.Progress(finished)
				}
				mu.Unlock()
			}
		})
	}
	for i := range cfg.Games {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Curve{}, FitStats{}, err
	}
	var st FitStats
	var all [][]sample
	for _, f := range games {
		if f.err != nil {
			return Curve{}, FitStats{}, f.err
		}
		st.Games++
		st.Positions += len(f.samples)
		st.Decided += f.decided
		st.Plies += f.plies
		if f.result.Winners.Len() == 1 {
			for p := range cfg.Game.Players() {
				if f.result.Winners.Has(game.Player(p)) {
					st.Wins[p]++
				}
			}
		} else {
			st.Draws++
		}
		all = append(all, f.samples)
	}
	if st.Positions == 0 {
		return Curve{}, st, errors.New("review fit: no position to fit")
	}
	players := cfg.Game.Players()
	k, b := fitK(slices.Concat(all...), players)
	lo, hi := bootstrap(all, players, cfg.Seed)
	c := Curve{Game: cfg.Game.ID(), Players: players, K: round(k), Offset: math.Round(b*1e4) / 1e4, KLow: round(lo), KHigh: round(hi),
		Error: math.Round(meanError(slices.Concat(all...), k, b, players)*1e6) / 1e6,
		Nodes: cfg.Nodes, Games: st.Games, Positions: st.Positions, Command: command}
	return c, st, nil
}

// round keeps five significant digits of a scale.
func round(k float64) float64 {
	if k == 0 {
		return 0
	}
	scale := math.Pow(10, 4-math.Floor(math.Log10(k)))
	return math.Round(k*scale) / scale
}

// fitGame plays and scores game i of cfg.
func fitGame(ctx context.Context, cfg FitConfig, i int) fitted {
	start, moves, end, err := SelfPlay(ctx, cfg.Game, cfg.Seed, i, cfg.PlayNodes, cfg.RandomPlies)
	if err != nil {
		return fitted{err: err}
	}
	pts := Points(end.Result(), cfg.Game.Players())
	f := fitted{result: end.Result(), plies: len(moves), samples: []sample{}}
	s := start.Clone()
	rc := Config{Nodes: cfg.Nodes}
	for ply, m := range moves {
		if ply >= cfg.RandomPlies && (ply-cfg.RandomPlies)%cfg.Every == 0 {
			n := len(s.Moves(nil))
			info, err := search(ctx, s, n, rc)
			if err != nil {
				return fitted{err: err}
			}
			if info.Score > ai.Mate-decidedBand || info.Score < -ai.Mate+decidedBand {
				f.decided++
			} else {
				f.samples = append(f.samples, sample{score: info.Score, points: pts[s.ToMove()]})
			}
		}
		s.Play(m)
	}
	return f
}

// meanError is the mean squared error of E at scale k and offset b over
// samples.
func meanError(samples []sample, k, b float64, players int) float64 {
	sum := 0.0
	for _, x := range samples {
		d := expected(k, b, players, float64(x.score)) - x.points
		sum += d * d
	}
	return sum / float64(len(samples))
}

// fitK finds the k (and with three players the b) that fit samples best:
// log k between 1e-5 and 1, as the tuning's fitK searches, and b between
// -4 and 4 for each k tried.
func fitK(samples []sample, players int) (k, b float64) {
	offset := func(k float64) float64 {
		if players == 2 {
			return 0
		}
		return minimize.Golden(-4, 4, 30, func(b float64) float64 { return meanError(samples, k, b, players) })
	}
	x := minimize.Golden(math.Log(1e-5), math.Log(1.0), 40, func(x float64) float64 {
		k := math.Exp(x)
		return meanError(samples, k, offset(k), players)
	})
	k = math.Exp(x)
	return k, offset(k)
}

// bootstrap bounds k's 95% interval: k fitted again to games drawn with
// replacement from the fit's, bootstraps times, by a generator seeded
// from seed, and the 2.5% and 97.5% points of those fits. Games, not
// positions, are drawn: a game's positions share its result.
func bootstrap(games [][]sample, players int, seed uint64) (float64, float64) {
	rng := rand.New(rand.NewPCG(seed, 0xb007))
	ks := make([]float64, 0, bootstraps)
	var draw []sample
	for range bootstraps {
		draw = draw[:0]
		for range games {
			draw = append(draw, games[rng.IntN(len(games))]...)
		}
		if len(draw) == 0 {
			continue
		}
		k, _ := fitK(draw, players)
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		return 0, 0
	}
	slices.Sort(ks)
	return ks[len(ks)*25/1000], ks[min(len(ks)-1, len(ks)*975/1000)]
}
