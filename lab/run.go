// Package lab is the designer's lab: it plays many games of one game and
// option set between engines (self-play, or engines in rotated seats),
// stores each game as it ends so that a run can be resumed, split into
// shards and merged, and measures the games: each seat's results and the
// first player's edge with 95% intervals, draws by reason, length,
// branching and real decisions over the game, captures, chains, leaps,
// promotions, drops, sandwiches, takeovers and score changes counted from
// the moves' effects (game.MoveEffects, never by game), and lead changes
// in the engines' evaluation. A run's folder gets games.pdn,
// summary.json, games.csv, plies.csv and report.html.
package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/match"
)

// Player is one engine of a run: its spec (which names it in the records
// and the report) and how to make a fresh one for each game.
type Player struct {
	Spec string
	New  func(seed uint64) (ai.Engine, error)
	// Single makes the same engine searching on one thread, for its
	// signature (a search on many threads visits other nodes each time);
	// nil when New's engines search on one.
	Single func(seed uint64) (ai.Engine, error)
}

// Shard is the share of a run's games one folder plays: game i (0 for the
// first) belongs to shard i mod Count. The zero Shard plays every game.
type Shard struct{ Index, Count int }

// ParseShard reads "I/N", 0 <= I < N.
func ParseShard(text string) (Shard, error) {
	i, n, ok := strings.Cut(text, "/")
	index, err1 := strconv.Atoi(i)
	count, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 0 <= I < N, such as 0/4 (game i belongs to shard i mod N)", text)
	}
	return Shard{Index: index, Count: count}, nil
}

// String writes the shard as ParseShard reads it, "" for every game.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Has reports whether game i belongs to the shard.
func (s Shard) Has(i int) bool { return s.Count == 0 || i%s.Count == s.Index }

// Config describes a run.
type Config struct {
	Game game.Game
	// Players holds one engine, which then plays every seat, or one per
	// seat, rotated from game to game.
	Players     []Player
	Games       int // 1 or more: the run's games, all shards together
	Concurrency int // games played at once (less than 1: one)
	Limits      ai.Limits
	Seed        uint64
	// OpeningPlies random plies start every group of games (as match
	// plays them: each group replays its opening with the seats rotated).
	OpeningPlies int
	// From is the position (FEN) every game starts from, "" for the
	// game's start.
	From string
	// Openings is the run's book (lab --openings), nil for none: group g
	// of the match starts from line g mod its length (see match.Config).
	Openings []match.Opening
	Shard    Shard
	// Label names the run in a comparison (lab compare).
	Label string
	// Date is the Date tag of a new run's records; a run continued keeps
	// the date it started with.
	Date string
	// Tables names the endgame tables the engines probe
	// (endgame.Tables.Identity), "" for none: they change the games, so
	// a run continues only with the same.
	Tables string
	// Build names the arbiter that plays the games, "" for this binary's
	// (Build); tests set it.
	Build string
	// Signatures keeps the engines' signatures for the process, nil for
	// one of the run's own.
	Signatures *Signatures
	// Mix lets the run hold games played by engines of other signatures
	// than this one's (a run continued by an arbiter whose engine plays
	// otherwise): refused without it, and said on the report's first line
	// with it.
	Mix bool
}

// build is the arbiter that plays cfg's games.
func (cfg Config) build() string {
	if cfg.Build == "" {
		return Build()
	}
	return cfg.Build
}

// manifest is the run cfg describes, as its folder keeps it.
func (cfg Config) manifest() Manifest {
	m := Manifest{Game: cfg.Game.ID(), Options: map[string]string{}, MoveTime: cfg.Limits.MoveTime.String(),
		Depth: cfg.Limits.Depth, Nodes: cfg.Limits.Nodes, Opening: cfg.OpeningPlies, From: cfg.From, Seed: cfg.Seed,
		Shard: cfg.Shard.String(), Games: cfg.Games, Date: cfg.Date, Label: cfg.Label, Tables: cfg.Tables,
		Builds: []string{cfg.build()}}
	if cfg.OpeningPlies > 0 {
		m.OpeningOrder = OpeningOrder
	}
	if len(cfg.Openings) > 0 {
		m.Book = match.BookHash(cfg.Openings)
		for _, o := range cfg.Openings {
			m.Openings = append(m.Openings, o.Text())
		}
	}
	opts := cfg.Game.Options()
	for _, k := range opts.Keys() {
		m.Options[k] = opts.Get(k)
	}
	for _, p := range cfg.Players {
		m.Players = append(m.Players, p.Spec)
	}
	return m
}

// OpeningOrder is the order this lab draws random opening plies from
// (see Manifest.OpeningOrder).
const OpeningOrder = "sorted"

// check refuses a run that cannot be played, saying what is allowed.
func (cfg Config) check() error {
	n := cfg.Game.Players()
	switch {
	case len(cfg.Players) != 1 && len(cfg.Players) != n:
		return fmt.Errorf("%d players for %s: give one (it plays every seat) or one per seat (%d)", len(cfg.Players), cfg.Game.ID(), n)
	case cfg.Games < 1:
		return fmt.Errorf("a run of %d games: want 1 or more", cfg.Games)
	case cfg.Shard.Count < 0 || cfg.Shard.Count > 0 && (cfg.Shard.Index < 0 || cfg.Shard.Index >= cfg.Shard.Count):
		return fmt.Errorf("shard %d/%d: want I/N with 0 <= I < N", cfg.Shard.Index, cfg.Shard.Count)
	case cfg.OpeningPlies < 0 || cfg.OpeningPlies >= cfg.Game.Options().Int("maxplies"):
		max := cfg.Game.Options().Int("maxplies")
		return fmt.Errorf("an opening of %d plies: want 0 to %d (below maxplies=%d)", cfg.OpeningPlies, max-1, max)
	case cfg.Limits == (ai.Limits{}):
		return errors.New("the engines need a limit: a move time, a depth or a node count")
	}
	mc := cfg.matchConfig()
	if _, err := mc.Start(); err != nil {
		return err
	}
	return mc.CheckOpenings()
}

// matchConfig is the match whose games the run plays: one player per
// seat, named by its spec (a second engine with the same spec gets "#2"
// so that the seats can be told apart).
func (cfg Config) matchConfig() match.Config {
	n := cfg.Game.Players()
	players := make([]match.Player, n)
	count := map[string]int{}
	for k := range players {
		p := cfg.Players[0]
		if len(cfg.Players) > 1 {
			p = cfg.Players[k]
		}
		name := p.Spec
		if count[p.Spec]++; len(cfg.Players) > 1 && count[p.Spec] > 1 {
			name = fmt.Sprintf("%s#%d", p.Spec, count[p.Spec])
		}
		players[k] = match.Player{Name: name, New: p.New}
	}
	return match.Config{Game: cfg.Game, Players: players, Games: cfg.Games * cfg.matchStride(), Limits: cfg.Limits,
		Seed: cfg.Seed, OpeningPlies: cfg.OpeningPlies, From: cfg.From, Openings: cfg.Openings, Date: cfg.Date}
}

// matchStride is how far apart in the match the run's games are. A match
// gives each group of n games (n seats) one opening, with the seats
// rotated; in self-play rotating the seats changes nothing, and a
// deterministic engine would play the same game n times, so self-play
// takes the first game of each group: every game its own opening.
func (cfg Config) matchStride() int {
	if len(cfg.Players) == 1 {
		return cfg.Game.Players()
	}
	return 1
}

// Progress is told how many games a run still had to play when it
// started (total) and, after each game, how many it has played since.
type Progress func(played, total int)

// Run plays the games of cfg's shard that dir does not hold yet, adding
// each to dir's games.jsonl as it ends, then writes every output file
// from all the games dir holds. dir is made if missing; a folder that
// holds another run, or files but no run, is refused. If ctx is cancelled
// the games played so far are kept (running again continues) and the
// error says so.
func Run(ctx context.Context, cfg Config, dir string, progress Progress) (*Summary, error) {
	cfg, engines, todo, err := prepare(ctx, cfg, dir)
	if err != nil {
		return nil, err
	}
	if progress != nil {
		progress(0, len(todo))
	}
	if err := play(ctx, cfg, dir, todo, engines, progress); err != nil {
		return nil, err
	}
	return WriteOutputs(dir)
}

// prepare checks cfg, opens dir as its run (refusing another run, and
// games of other engines unless cfg.Mix) and gives cfg with the run's
// date, this arbiter's engine signature of each seat name, and the games
// of cfg's shard dir still lacks.
func prepare(ctx context.Context, cfg Config, dir string) (Config, Engines, []int, error) {
	if err := cfg.check(); err != nil {
		return cfg, nil, nil, err
	}
	if cfg.Signatures == nil {
		cfg.Signatures = &Signatures{}
	}
	engines, err := cfg.engines(ctx)
	if err != nil {
		return cfg, nil, nil, err
	}
	man, have, err := openRun(dir, cfg.manifest(), func(have []GameData) error {
		if cfg.Mix {
			return nil
		}
		return engines.refuseOthers(dir, cfg.build(), have)
	})
	if err != nil {
		return cfg, nil, nil, err
	}
	cfg.Date = man.Date
	return cfg, engines, missing(cfg, have), nil
}

// openRun makes dir a folder of the run m, or checks that it is one and
// that check accepts the games it holds, and returns the manifest it
// keeps (with m's games when m has more, and m's build among its builds)
// and the games.
func openRun(dir string, m Manifest, check func(have []GameData) error) (Manifest, []GameData, error) {
	old, ok, err := readManifest(dir)
	if err != nil {
		return Manifest{}, nil, err
	}
	if ok {
		if why := old.sameRun(m); why != "" {
			return Manifest{}, nil, fmt.Errorf("%s holds another run (%s): give another --out, or the command that started it", dir, why)
		}
		if m.Games < old.Games {
			return Manifest{}, nil, fmt.Errorf("%s holds a run of %d games: give --games %d or more to continue it", dir, old.Games, old.Games)
		}
		m.Date = old.Date
		if m.Label == "" {
			m.Label = old.Label // continued without --label: keep the run's
		}
		m.Builds = joinBuilds(old.Builds, m.Builds)
	} else if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return Manifest{}, nil, fmt.Errorf("%s holds files but no %s: give a new or empty folder", dir, ManifestFile)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return Manifest{}, nil, err
	}
	have, err := readGames(dir)
	if err != nil {
		return Manifest{}, nil, err
	}
	if err := check(have); err != nil {
		return Manifest{}, nil, err
	}
	return m, have, writeJSON(filepath.Join(dir, ManifestFile), m)
}

// joinBuilds is the builds of a and then those of b that a lacks.
func joinBuilds(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// missing lists the games of cfg's shard that have not been played.
func missing(cfg Config, have []GameData) []int {
	done := map[int]bool{}
	for _, d := range have {
		done[d.Index] = true
	}
	var todo []int
	for i := range cfg.Games {
		if cfg.Shard.Has(i) && !done[i] {
			todo = append(todo, i)
		}
	}
	return todo
}

// play plays the games todo, Concurrency at a time, storing each as it
// ends.
func play(ctx context.Context, cfg Config, dir string, todo []int, engines Engines, progress Progress) error {
	mc := cfg.matchConfig()
	jobs := make(chan int)
	var mu sync.Mutex
	var firstErr error
	played := 0
	var wg sync.WaitGroup
	for range max(cfg.Concurrency, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				log, err := match.Play(ctx, mc, i*cfg.matchStride())
				mu.Lock()
				if err == nil {
					err = appendGame(dir, engines.stamp(fromLog(i, log), cfg.build()))
				}
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					played++
					if progress != nil {
						progress(played, len(todo))
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if ctx.Err() != nil {
		return fmt.Errorf("stopped after %d of %d games; they are kept in %s: run the same command again to continue", played, len(todo), dir)
	}
	return firstErr
}
