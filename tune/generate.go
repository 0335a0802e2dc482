package tune

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// GenConfig says how Generate plays its games.
type GenConfig struct {
	Game game.Game
	// Positions is how many quiet, distinct positions to write.
	Positions int
	// Nodes is what ab may search a move; RandomPlies the plies played at
	// random from the start first, so that the games differ.
	Nodes       int64
	RandomPlies int
	Seed        uint64
	Workers     int
	// Progress, when set, is told the positions and games so far.
	Progress func(positions, games int)
}

// Limits of a generation, so that a typing slip cannot fill a disk or
// run for a month.
const (
	MaxPositions   = 10_000_000
	MaxNodes       = 10_000_000
	MaxRandomPlies = 200
	MaxWorkers     = 256
)

// Check tells what is wrong with cfg, or returns nil.
func (cfg GenConfig) Check() error {
	switch {
	case cfg.Game == nil:
		return errors.New("no game")
	case cfg.Positions < 1 || cfg.Positions > MaxPositions:
		return fmt.Errorf("positions %d: give 1 to %d", cfg.Positions, MaxPositions)
	case cfg.Nodes < 1 || cfg.Nodes > MaxNodes:
		return fmt.Errorf("nodes %d: give 1 to %d", cfg.Nodes, MaxNodes)
	case cfg.RandomPlies < 0 || cfg.RandomPlies > MaxRandomPlies:
		return fmt.Errorf("random-plies %d: give 0 to %d", cfg.RandomPlies, MaxRandomPlies)
	case cfg.Workers < 1 || cfg.Workers > MaxWorkers:
		return fmt.Errorf("workers %d: give 1 to %d", cfg.Workers, MaxWorkers)
	}
	return nil
}

// Header is the first line Generate writes for cfg.
func (cfg GenConfig) Header() Header {
	return Header{Game: cfg.Game.ID(), Options: cfg.Game.Options().String(), Seed: cfg.Seed,
		Nodes: cfg.Nodes, RandomPlies: cfg.RandomPlies}
}

// GenStats says what a generation played.
type GenStats struct {
	Games, Positions int
	// Repeated counts quiet positions left out because an earlier game
	// had them; Noisy those left out because the side to move could
	// capture.
	Repeated, Noisy int
}

// played is one self-play game's quiet positions and their result.
type played struct {
	fens   []string
	hashes []uint64
	noisy  int
	points [game.MaxPlayers]float64
	err    error
}

// Generate plays self-play games, ab against itself at cfg.Nodes a move
// after cfg.RandomPlies random plies, and writes the quiet positions of
// each game (the side to move has no capture, and the game is not over)
// with the game's result to w, skipping positions an earlier game had,
// until cfg.Positions are written. Game i is played from seed (Seed, i)
// by a fresh engine, and games are written in their order, so the file
// depends on the config alone, not on the number of workers.
func Generate(ctx context.Context, cfg GenConfig, w io.Writer) (GenStats, error) {
	if err := cfg.Check(); err != nil {
		return GenStats{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := playGames(ctx, cfg)
	out := bufio.NewWriter(w)
	fmt.Fprintln(out, cfg.Header())
	var st GenStats
	seen := make(map[uint64]struct{}, cfg.Positions)
	for g := range results {
		if g.err != nil {
			return st, g.err
		}
		st.Games++
		st.Noisy += g.noisy
		result := formatPoints(g.points, cfg.Game.Players())
		for i, fen := range g.fens {
			if _, dup := seen[g.hashes[i]]; dup {
				st.Repeated++
				continue
			}
			seen[g.hashes[i]] = struct{}{}
			fmt.Fprintf(out, "%s\t%s\n", fen, result)
			if st.Positions++; st.Positions == cfg.Positions {
				return st, out.Flush()
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(st.Positions, st.Games)
		}
	}
	if err := ctx.Err(); err != nil {
		return st, err
	}
	return st, errors.New("the games ended before enough positions were found")
}

// playGames plays games 0, 1, 2... on cfg.Workers goroutines and sends
// them in order until ctx is done.
func playGames(ctx context.Context, cfg GenConfig) <-chan played {
	type job struct {
		i    int
		done chan played
	}
	jobs := make(chan job, cfg.Workers)
	out := make(chan played)
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Go(func() {
			for j := range jobs {
				j.done <- playOne(ctx, cfg, j.i)
			}
		})
	}
	order := make(chan chan played, cfg.Workers)
	go func() { // hands out games in order
		defer close(jobs)
		defer close(order)
		for i := 0; ctx.Err() == nil; i++ {
			j := job{i: i, done: make(chan played, 1)}
			select {
			case jobs <- j:
				order <- j.done
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { // passes results on in order
		defer close(out)
		for done := range order {
			select {
			case g := <-done:
				select {
				case out <- g:
				case <-ctx.Done():
					wg.Wait()
					return
				}
			case <-ctx.Done():
				wg.Wait()
				return
			}
		}
		wg.Wait()
	}()
	return out
}

// playOne plays game i.
func playOne(ctx context.Context, cfg GenConfig, i int) played {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	s := cfg.Game.Start()
	var g played
	for range cfg.RandomPlies {
		if s.Result().Over() {
			break
		}
		moves := s.Moves(nil)
		s.Play(moves[rng.IntN(len(moves))])
	}
	engine, err := ai.New("ab:tt=16", cfg.Seed^uint64(i))
	if err != nil {
		return played{err: err}
	}
	tester, _ := s.(game.LeafTester)
	for !s.Result().Over() {
		if ctx.Err() != nil {
			return played{err: ctx.Err()}
		}
		if tester != nil && tester.HasCapture() {
			g.noisy++
		} else {
			g.fens = append(g.fens, s.FEN())
			g.hashes = append(g.hashes, s.Hash())
		}
		info := engine.Search(ctx, s, ai.Limits{Nodes: cfg.Nodes}, nil)
		if info.Err != nil {
			return played{err: info.Err}
		}
		if ctx.Err() != nil { // the search was cut short: its move may be none
			return played{err: ctx.Err()}
		}
		s.Play(info.Move)
	}
	g.points = points(s.Result(), cfg.Game.Players())
	return g
}

// formatPoints writes each player's points, separated by spaces.
func formatPoints(p [game.MaxPlayers]float64, players int) string {
	parts := make([]string, players)
	for i := range players {
		parts[i] = strconv.FormatFloat(p[i], 'g', 4, 64)
	}
	return strings.Join(parts, " ")
}
