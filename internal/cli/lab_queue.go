package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/lab"
	"github.com/arbiter-games/arbiter/lab/queue"
)

// queueAllowed is what --queue accepts.
const queueAllowed = "a postgres:// URL, or an SQLite file's path"

// defaultRescueAfter is the longest a queued game may take, and how long
// a dead worker's game waits before River offers it again: well above a
// game at the lab's usual limits, well below a run's length.
const defaultRescueAfter = 10 * time.Minute

// queuedPlayer makes a queued run's engine from its spec, as --player
// does, except that a queued run may not start programs (cmd:) on the
// machines that work it: the queue's database would decide what they run.
func queuedPlayer(spec string) (lab.Player, error) {
	if strings.HasPrefix(spec, "cmd:") {
		return lab.Player{}, errors.New("a queued run cannot start programs on its workers: give a built-in engine")
	}
	newEngine, err := engineMaker(spec, spec)
	if err != nil {
		return lab.Player{}, err
	}
	single, err := engineMaker(spec, spec, ai.WithThreads(1))
	if err != nil {
		return lab.Player{}, err
	}
	return lab.Player{Spec: spec, New: newEngine, Single: single}, nil
}

// runQueued puts the run on the queue, waits for the workers to play it,
// and prints its results as run does.
func (lf *labFlags) runQueued(cmd *cobra.Command, id string) error {
	if lf.shard != "" {
		return fmt.Errorf("--queue and --shard %s: give one (the queue shares the games among the workers)", lf.shard)
	}
	if cmd.Flags().Changed("concurrency") {
		return errors.New("--concurrency with --queue: the workers play the games; give it to 'arbiter lab work'")
	}
	if cmd.Flags().Changed("tables") {
		return errors.New("--tables with --queue: the workers play the games, and they have no tables")
	}
	target, err := queue.ParseTarget(lf.queue)
	if err != nil {
		return err
	}
	cfg, err := lf.config(id)
	if err != nil {
		return err
	}
	for _, p := range cfg.Players {
		if _, err := queuedPlayer(p.Spec); err != nil {
			return fmt.Errorf("--player %s: %w", p.Spec, err)
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	q, err := queue.Open(ctx, target, true)
	if err != nil {
		return err
	}
	defer q.Close()
	errOut := cmd.ErrOrStderr()
	queued := func(run string, games int) {
		if games > 0 {
			fmt.Fprintf(errOut, "\nqueued %d games of run %s: play them with 'arbiter lab work --queue %s' on any number of machines\n",
				games, run, target.Address)
		}
	}
	sum, err := q.Run(ctx, cfg, lf.out, labProgress(errOut, id, lf.quiet), queue.RunConfig{Queued: queued})
	if err != nil {
		return err
	}
	fmt.Fprint(cmd.OutOrStdout(), lab.Text(sum))
	fmt.Fprintf(cmd.OutOrStdout(), "written to %s: games.pdn, summary.json, games.csv, plies.csv, report.html\n", lf.out)
	return nil
}

func labWorkCmd() *cobra.Command {
	var url string
	var concurrency int
	var rescueAfter time.Duration
	var quiet bool
	cmd := &cobra.Command{
		Use:   "work --queue URL [--concurrency N] [--rescue-after D]",
		Short: "Play the games of lab runs put on a queue, until stopped",
		Long: `work plays the games that 'arbiter lab GAME ... --queue URL' put on the queue
(a postgres:// URL shared by many machines, or an SQLite file on one), each
with the engines its run names, and stores each finished game where the
run's command collects it. Run it on as many machines as you like; it plays
--concurrency games at once until it is stopped (Ctrl-C or SIGTERM gives the
games in hand back to the queue at once).

--rescue-after is the longest a game may take: a game still running then
is given up and its run stops, saying so. A worker killed outright (or a
machine lost) loses only the games it was playing: River's rescuer, which
looks every 30 seconds, offers them again once --rescue-after has passed
since they started, and another worker plays them. Set it well above the
longest game of your runs, and not much more: it is also how long a lost
game waits.

A queued run cannot start programs (cmd: players) on its workers.
See docs/lab/README.md, "Many machines".`,
		Args: withUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("queue") {
				return errors.New("--queue is missing: give the queue's " + queueAllowed)
			}
			target, err := queue.ParseTarget(url)
			if err != nil {
				return err
			}
			wc := queue.WorkConfig{Concurrency: concurrency, RescueAfter: rescueAfter, Players: queuedPlayer}
			if !quiet {
				wc.Log = cmd.ErrOrStderr()
			}
			return labWork(cmd.Context(), target, wc, cmd)
		},
	}
	cmd.Flags().StringVar(&url, "queue", "", "the queue: "+queueAllowed)
	allow(cmd, "queue", queueAllowed)
	cmd.Flags().IntVar(&concurrency, "concurrency", 1, fmt.Sprintf("games played at once (1 to %d)", queue.MaxConcurrency))
	allow(cmd, "concurrency", fmt.Sprintf("1 to %d", queue.MaxConcurrency))
	cmd.Flags().DurationVar(&rescueAfter, "rescue-after", defaultRescueAfter,
		"the longest a game may take; a dead worker's games are played again after it")
	allow(cmd, "rescue-after", fmt.Sprintf("a duration from %s to %s, such as 10m", queue.MinRescueAfter, queue.MaxRescueAfter))
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "say nothing of the games played")
	return cmd
}

// labWork checks the settings, opens the queue and works it until a
// signal stops the worker.
func labWork(ctx context.Context, target queue.Target, wc queue.WorkConfig, cmd *cobra.Command) error {
	if err := wc.Check(); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	q, err := queue.Open(ctx, target, false)
	if err != nil {
		return err
	}
	defer q.Close()
	if wc.Log != nil {
		fmt.Fprintf(wc.Log, "working the queue %s, %d games at once; Ctrl-C to stop\n", target, wc.Concurrency)
	}
	return q.Work(ctx, wc)
}
