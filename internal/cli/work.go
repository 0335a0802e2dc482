package cli

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/reviews"
)

// workCmd is "arbiter work": a review worker on another machine, as
// lichess's fishnet.
func workCmd() *cobra.Command {
	var url string
	var workers int
	var rescueAfter time.Duration
	var tableDirs []string
	var quiet bool
	var checks checks
	cmd := &cobra.Command{
		Use:   "work --queue URL|FILE [--workers N] [--rescue-after D] [--tables DIR]",
		Short: "Compute the computer reviews a site puts on its queue, until stopped",
		Long: `work computes the reviews of finished games that 'arbiter serve' puts on its
queue: the site's PostgreSQL database (--db's URL) or the SQLite file beside
its store (DIR/queue.db, on the same machine). Each job carries the game
whole, so a worker needs the queue only, never the site's store. It computes
--workers reviews at once until stopped (Ctrl-C or SIGTERM gives the reviews
in hand back at once).

--rescue-after is the longest a review may take: one still running then is
failed, saying so. A worker killed outright loses only the reviews in hand:
River's rescuer, which looks every 30 seconds, offers them again once
--rescue-after has passed since they started. Give every worker the site's
--rescue-after and --tables. See docs/server.md, "Reviews".`,
		Args: withUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checks.run(); err != nil {
				return err
			}
			if !cmd.Flags().Changed("queue") {
				return errors.New("--queue is missing: give the site's queue, " + queueAllowed)
			}
			target, err := riverdb.ParseTarget(url)
			if err != nil {
				return err
			}
			var tables []*endgame.Tables
			for _, dir := range tableDirs {
				t, err := openTableFolder(dir)
				if err != nil {
					return err
				}
				tables = append(tables, t)
			}
			if err := analysis.CheckTables(tables); err != nil {
				return fmt.Errorf("--tables: %w", err)
			}
			wc := reviews.WorkConfig{Compute: reviews.Engine(tables), Workers: workers, RescueAfter: rescueAfter}
			if err := wc.Check(); err != nil {
				return err
			}
			if !quiet {
				wc.Logger = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
				wc.Started = func() {
					fmt.Fprintf(cmd.ErrOrStderr(), "working the review queue %s, %d at once; Ctrl-C to stop\n", target, workers)
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return reviews.Work(ctx, target, wc)
		},
	}
	f := cmd.Flags()
	f.StringVar(&url, "queue", "", "the site's review queue: "+queueAllowed)
	allow(cmd, "queue", queueAllowed)
	checks.intVar(cmd, &workers, "workers", 1, intRange{lo: 1, hi: reviews.MaxWorkers}, "reviews computed at once")
	checks.durationVar(cmd, &rescueAfter, "rescue-after", reviews.DefaultRescueAfter,
		durationRange{min: reviews.MinRescueAfter, max: reviews.MaxRescueAfter}, "the longest a review may take; a dead worker's reviews are done again after it")
	f.StringArrayVar(&tableDirs, "tables", nil, "folder of endgame tables, as the site's --tables (repeatable)")
	f.BoolVarP(&quiet, "quiet", "q", false, "say nothing of the reviews done")
	return cmd
}
