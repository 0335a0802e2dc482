package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/match"
	"github.com/arbiter-games/arbiter/rating"
)

// aiLevels is how many AI levels there are (ai:level=1 to 6).
const aiLevels = 6

// z95 turns a standard error into the half-width of a 95% interval.
const z95 = 1.96

// rateLevelsFlags are rate-levels' settings as the command line gives them.
type rateLevelsFlags struct {
	p        position
	games    int
	opening  int
	moveTime time.Duration
	workers  int
	seed     uint64
	out      string
	quiet    bool
	checks   checks
	// target is the server's store, where the ratings also go when
	// --data or --db names it.
	target storeTarget
}

func rateLevelsCmd() *cobra.Command {
	var f rateLevelsFlags
	cmd := &cobra.Command{
		Use:   "rate-levels GAME",
		Short: "Measure the AI levels' ratings by playing them against each other",
		Long: `rate-levels plays the AI levels (ai:level=1 to 6) against each other: in a
two-player game every level meets the next level and the one after it, in a
three-player game three levels in a row (and 1-3-5, 2-4-6) meet at one
board. Every pairing plays --games games, seats rotated within each group of
games, every pairing from the same random openings (--opening plies). Each
game counts pairwise by placing. The ratings are fitted by Bradley-Terry
maximum likelihood, their mean 1500, the middle of the ladder where a new
player starts (docs/ratings.md). A table gives each level's rating, its 95%
interval, its games and its score; --out merges the ratings into a levels
file (rating/levels.json) in place of the game's old ones; --data DIR or
--db URL also stores them in the database of "arbiter serve", as the AI
levels' accounts' ratings in that game.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(cmd, args[0])
		},
	}
	f.p.cmd = cmd
	cmd.Flags().StringArrayVarP(&f.p.options, "option", "o", nil, "a game option as key=value (repeatable)")
	allow(cmd, "option", optionAllowed)
	f.checks.intVar(cmd, &f.games, "games", 24, intRange{lo: 1, hi: maxGames},
		"games per pairing, a multiple of the game's seats")
	cmd.Flags().IntVar(&f.opening, "opening", 4, "random plies that start each group of games ("+openingAllowed+")")
	allow(cmd, "opening", openingAllowed)
	f.checks.durationVar(cmd, &f.moveTime, "movetime", 0,
		durationRange{max: maxMoveTime, zero: "each level's own search"},
		"a time cap on level 6's moves (every level searches a fixed amount: levels 1 to 5 to their depth, level 6 its nodes)")
	f.checks.intVar(cmd, &f.workers, "concurrency", 1, intRange{lo: 1, hi: 64},
		"games played at once (the levels' fixed searches do not depend on the machine's load)")
	seedVar(cmd, &f.seed, "seed for openings and engines")
	cmd.Flags().StringVar(&f.out, "out", "", "merge the ratings into this levels file (JSON, new or existing)")
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar")
	f.target.addFlags(cmd, "the ratings")
	return cmd
}

// levelTally is what one level did: its games and its pairwise results.
type levelTally struct {
	games         int
	pairs, points float64
}

// run checks every flag and the levels file before the first game, plays
// every pairing, fits and prints the ratings and saves them.
func (f *rateLevelsFlags) run(cmd *cobra.Command, id string) error {
	g, old, err := f.check(id)
	if err != nil {
		return err
	}
	pairings := levelPairings(g.Players())
	bar := f.progress(cmd, id, len(pairings)*f.games)
	var results []rating.Pair
	tallies := make([]levelTally, aiLevels)
	for _, levels := range pairings {
		sum, err := match.Run(cmd.Context(), f.config(g, levels), func([]*match.GameLog) {
			if bar != nil {
				bar.Add(1)
			}
		})
		if err != nil {
			return err
		}
		for _, log := range sum.Games {
			results = append(results, pairResults(log, levels, tallies)...)
		}
	}
	ratings, se, err := rating.BradleyTerry(aiLevels, results, rating.StartRating)
	if err != nil {
		return err
	}
	fmt.Fprint(cmd.OutOrStdout(), levelTable(ratings, se, tallies))
	entries := levelEntries(ratings, se, tallies)
	if f.target.wanted() {
		if err := f.storeRatings(cmd, g.ID(), entries); err != nil {
			return err
		}
	}
	if f.out == "" {
		return nil
	}
	old[g.ID()] = entries
	data, err := old.Marshal()
	if err != nil {
		return err
	}
	if err := savefile.WriteAtomic(f.out, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}

// storeRatings writes the ratings into the server's database.
func (f *rateLevelsFlags) storeRatings(cmd *cobra.Command, id string, entries map[string]rating.LevelRating) error {
	st, err := f.target.open(cmd.Context())
	if err != nil {
		return err
	}
	defer st.Close()
	if err := storeLevels(cmd.Context(), st, id, entries, time.Now()); err != nil {
		return fmt.Errorf("storing the ratings: %w", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "stored as the ratings of ai-level-1 to ai-level-%d in %s\n", aiLevels, id)
	return nil
}

// check refuses bad flags, an unknown game and a levels file that cannot
// be merged into, and returns the game and the file's ratings now.
func (f *rateLevelsFlags) check(id string) (game.Game, rating.Levels, error) {
	if err := f.checks.run(); err != nil {
		return nil, nil, err
	}
	if err := f.target.check(); err != nil {
		return nil, nil, err
	}
	g, err := f.p.newGame(id)
	if err != nil {
		return nil, nil, err
	}
	if n := g.Players(); f.games%n != 0 {
		return nil, nil, fmt.Errorf("--games %d: want a multiple of %d, so that every level plays every seat of %s equally", f.games, n, g.ID())
	}
	if maxPlies := g.Options().Int("maxplies"); f.opening < 0 || f.opening >= maxPlies {
		return nil, nil, fmt.Errorf("--opening %d: want a whole number from 0 to %d (below maxplies=%d)", f.opening, maxPlies-1, maxPlies)
	}
	old, err := readLevels(f.out)
	if err != nil {
		return nil, nil, fmt.Errorf("--out: %w", err)
	}
	return g, old, nil
}

// readLevels reads the levels file that the ratings will be merged into:
// nothing for no file or a new one (in a directory that exists).
func readLevels(path string) (rating.Levels, error) {
	if path == "" {
		return rating.Levels{}, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if info, err := os.Stat(filepath.Dir(path)); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("%s: its directory does not exist", clip.Quote(path))
		}
		return rating.Levels{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", clip.Quote(path), errors.Unwrap(err))
	}
	levels, err := rating.ParseLevels(data)
	if err != nil {
		return nil, fmt.Errorf("%s is not a levels file (%v); not saving into it", clip.Quote(path), err)
	}
	return levels, nil
}

// progress is the progress bar on standard error, nil with --quiet.
func (f *rateLevelsFlags) progress(cmd *cobra.Command, id string, games int) *progressbar.ProgressBar {
	if f.quiet {
		return nil
	}
	return progressbar.NewOptions(games, progressbar.OptionSetWriter(cmd.ErrOrStderr()),
		progressbar.OptionSetDescription(id+" levels"), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(cmd.ErrOrStderr()) }))
}

// config is the match of one pairing: --concurrency games at once (every
// level's search is a fixed amount, so the load changes no game unless
// --movetime caps level 6), and the same seed, so that every pairing
// starts from the same openings.
func (f *rateLevelsFlags) config(g game.Game, levels []int) match.Config {
	players := make([]match.Player, len(levels))
	for k, n := range levels {
		spec := "ai:level=" + strconv.Itoa(n)
		lim := ai.Limits{}
		if n == aiLevels {
			lim.MoveTime = f.moveTime
		}
		players[k] = match.Player{Name: spec, New: func(seed uint64) (ai.Engine, error) {
			e, err := ai.New(spec, seed)
			return ownLimits{Engine: e, lim: lim}, err
		}}
	}
	return match.Config{Game: g, Players: players, Games: f.games, Concurrency: f.workers, Seed: f.seed,
		OpeningPlies: f.opening, Limits: ai.Limits{MoveTime: f.moveTime}, Date: time.Now().Format("2006.01.02")}
}

// ownLimits is a level searching with limits of its own, as a server
// plays it: levels 1 to 5 to their depth however long it takes (no
// limits), level 6 to its nodes, capped by --movetime when given.
type ownLimits struct {
	ai.Engine
	lim ai.Limits
}

func (o ownLimits) Search(ctx context.Context, s game.State, _ ai.Limits, report func(ai.Info)) ai.Info {
	return o.Engine.Search(ctx, s, o.lim, report)
}

// levelPairings are the levels that meet: levels in a row (1-2, 2-3, ...
// with two players, 1-2-3, 2-3-4, ... with three) and every other level
// (1-3, 2-4, ...; 1-3-5, 2-4-6). Levels further apart would win or lose
// nearly every game, which says little about the gap and costs as much
// time; the every-other pairings give each gap a second path.
func levelPairings(players int) [][]int {
	var pairings [][]int
	for gap := 1; gap <= 2; gap++ {
		for low := 1; low+gap*(players-1) <= aiLevels; low++ {
			levels := make([]int, players)
			for k := range levels {
				levels[k] = low + gap*k
			}
			pairings = append(pairings, levels)
		}
	}
	return pairings
}

// pairResults turns one game of the levels into pairwise results by
// placing, and adds them to the levels' tallies.
func pairResults(log *match.GameLog, levels []int, tallies []levelTally) []rating.Pair {
	places := playerPlaces(log.Result, log.Players)
	var pairs []rating.Pair
	for a := range levels {
		tallies[levels[a]-1].games++
		for b := a + 1; b < len(levels); b++ {
			s := rating.PairScore(places[a], places[b])
			pairs = append(pairs, rating.Pair{A: levels[a] - 1, B: levels[b] - 1, Score: s})
			for _, side := range []struct {
				level int
				score float64
			}{{levels[a], s}, {levels[b], 1 - s}} {
				tallies[side.level-1].pairs++
				tallies[side.level-1].points += side.score
			}
		}
	}
	return pairs
}

// playerPlaces is every player's place (1 is first; equal places share),
// as the game package places the result: seats[k] is player k's seat.
func playerPlaces(r game.Result, seats []game.Player) []int {
	bySeat := r.Places(len(seats))
	places := make([]int, len(seats))
	for k, seat := range seats {
		places[k] = bySeat[seat]
	}
	return places
}

// levelTable is the table of the fitted ratings.
func levelTable(ratings, se []float64, tallies []levelTally) string {
	text := fmt.Sprintf("%-6s %7s %9s %6s %7s\n", "level", "rating", "95%", "games", "score")
	for i, r := range ratings {
		t := tallies[i]
		text += fmt.Sprintf("%-6d %7.0f %9s %6d %6.1f%%\n", i+1, r, fmt.Sprintf("±%.0f", z95*se[i]), t.games, 100*t.points/t.pairs)
	}
	return text
}

// levelEntries are the ratings as the levels file keeps them: each
// standard error becomes the level's RD, no lower than rating.MinRD.
func levelEntries(ratings, se []float64, tallies []levelTally) map[string]rating.LevelRating {
	entries := map[string]rating.LevelRating{}
	for i, r := range ratings {
		entries[strconv.Itoa(i+1)] = rating.LevelRating{Rating: round1(r), RD: round1(max(se[i], rating.MinRD)),
			Volatility: rating.StartVolatility, Games: tallies[i].games}
	}
	return entries
}

// round1 rounds to one decimal, all the precision a rating has.
func round1(x float64) float64 { return math.Round(x*10) / 10 }
