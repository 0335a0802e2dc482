package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/loadtest"
)

// loadtestFlags are the flags of "arbiter loadtest".
type loadtestFlags struct {
	cfg    loadtest.Config
	checks checks
	// cpuProfile is where --cpuprofile writes the run's own profile.
	cpuProfile string
}

func loadtestCmd() *cobra.Command {
	var lf loadtestFlags
	cmd := &cobra.Command{
		Use:   "loadtest",
		Short: "Play many games at once against an arbiter server on this machine and time its moves",
		Long: `loadtest plays --games human games at once against the server at --addr
(a loopback address: this machine only) over its API and websockets: each
game a random legal move after each --think pause, sent over the game's
websocket with its seat's token, timed to its ack (acknowledgement) and
to the game's event on that socket (broadcast), one connection a game;
with --http-moves each move is a POST instead, timed to its 200, beside
the socket. With --ai it also holds that many games of ai:level=--level
against itself and counts the AI moves served a second. It stops when each
game has played --moves moves or after --duration, and prints games held,
moves, errors by status and the latencies' percentiles. Each game comes
from a loopback address of its own, so the server's per-client limits
apply per game, as with players on different machines.

With --accounts the human games are played by accounts, one a seat,
signed up at the start (the server hashes each password: about 35 ms
each) and kept for the run: each game starts in the lobby, its first
account seeking a rated game (10+5) and the others reading GET
/api/seeks and accepting it; each account then plays its seat with its
own session cookie (its moves POSTs). The report adds the sign-ups', seeks', lobby reads'
and accepts' percentiles.

While the games play, --flood N workers read the lobby and held games as
fast as they can from one address of their own (127.0.1.1), and --slow N
connections from another (127.0.1.2) trickle a POST body, idle after one
GET or send nothing, each reopened when the server closes it; the report
counts their answers apart from the games' latencies. --pid samples the
server's resident memory and open files at the start, every minute
(--sample-every), at the end and 10 seconds later. The summary says whether the acknowledgement p99 of the games'
moves stayed below 100ms.`,
		Args: withUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := lf.check(); err != nil {
				return err
			}
			oversubscribe()
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return lf.run(ctx, cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&lf.cfg.Addr, "addr", "127.0.0.1:8080", "the server, HOST:PORT on a loopback address")
	allow(cmd, "addr", "HOST:PORT on a loopback address, such as 127.0.0.1:8080, [::1]:8080 or localhost:8080")
	f.StringVar(&lf.cfg.Game, "game", "pommel", "the game every game plays")
	lf.checks.intVar(cmd, &lf.cfg.Games, "games", 100, intRange{lo: 1, hi: loadtest.MaxGames, zero: "AI games only"}, "human games held at once")
	f.BoolVar(&lf.cfg.HTTPMoves, "http-moves", false,
		"send the anonymous games' moves as POSTs, an HTTP connection a game beside its websocket, instead of over the websocket (one connection a game)")
	f.BoolVar(&lf.cfg.Accounts, "accounts", false,
		"play the human games with accounts signed up at the start, paired through the lobby (a rated seek, accepted), playing with their session cookies")
	lf.checks.intVar(cmd, &lf.cfg.Moves, "moves", 100, intRange{lo: 1, hi: loadtest.MaxMoves}, "moves each human game plays; every game ends (drawn) after that many plies")
	lf.checks.durationVar(cmd, &lf.cfg.Duration, "duration", time.Minute, durationRange{min: time.Second, max: loadtest.MaxDuration}, "longest time the games play")
	lf.checks.durationVar(cmd, &lf.cfg.Think, "think", time.Second, durationRange{max: loadtest.MaxThink, zero: "no pause"}, "a player's pause before each move, on average")
	lf.checks.intVar(cmd, &lf.cfg.AIGames, "ai", 0, intRange{lo: 1, hi: loadtest.MaxAIGames, zero: "none"}, "games of an AI level against itself held at once")
	lf.checks.intVar(cmd, &lf.cfg.Level, "level", 1, intRange{lo: 1, hi: loadtest.MaxLevel}, "the level of the AI games")
	lf.checks.intVar(cmd, &lf.cfg.Flood, "flood", 0, intRange{lo: 1, hi: loadtest.MaxFlood, zero: "none"},
		"workers reading the lobby and held games as fast as they can, from one address of their own")
	lf.checks.intVar(cmd, &lf.cfg.Slow, "slow", 0, intRange{lo: 1, hi: loadtest.MaxSlow, zero: "none"},
		"slow connections held open from one address of their own, each one open file here")
	lf.checks.intVar(cmd, &lf.cfg.ServerPID, "pid", 0, intRange{lo: 1, hi: loadtest.MaxPID, zero: "no sampling"},
		"the server's process id, to sample its memory and open files from /proc")
	lf.checks.durationVar(cmd, &lf.cfg.SampleEvery, "sample-every", time.Minute, durationRange{min: time.Second, max: loadtest.MaxDuration},
		"with --pid, the time between the server's samples while the games play; the last is this long after the end, at most 10s")
	seedVar(cmd, &lf.cfg.Seed, "seed of the random moves")
	f.StringVar(&lf.cpuProfile, "cpuprofile", "", "write the load test's own CPU profile to this file (go tool pprof reads it): what the load costs on the client's side")
	return cmd
}

// check refuses every flag value that cannot work, before anything is
// sent.
func (lf *loadtestFlags) check() error {
	if err := lf.checks.run(); err != nil {
		return err
	}
	if _, ok := game.Lookup(lf.cfg.Game); !ok {
		return fmt.Errorf("--game %q: unknown; run \"arbiter games\" for the list", lf.cfg.Game)
	}
	if lf.cfg.Games == 0 && lf.cfg.AIGames == 0 {
		return fmt.Errorf("--games 0 and --ai 0: no games; give one of them above 0")
	}
	if lf.cfg.Accounts && lf.cfg.Games == 0 {
		return fmt.Errorf("--accounts with --games 0: accounts play the human games; give --games above 0")
	}
	if _, err := loadtest.Target(context.Background(), lf.cfg.Addr, nil); err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if pid := lf.cfg.ServerPID; pid > 0 {
		if _, err := loadtest.SampleServer(pid); err != nil {
			return fmt.Errorf("--pid %d: %v; want the id of a running server process of this user", pid, err)
		}
	}
	return nil
}

func (lf *loadtestFlags) run(ctx context.Context, cmd *cobra.Command) error {
	errOut := cmd.ErrOrStderr()
	lf.cfg.Progress = func(line string) { fmt.Fprintln(errOut, line) }
	if lf.cpuProfile != "" {
		out, err := os.Create(lf.cpuProfile)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := loadtest.Run(ctx, lf.cfg)
	if err != nil {
		return err
	}
	return rep.Write(cmd.OutOrStdout())
}
