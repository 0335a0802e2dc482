package review

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reviewIDs are the ids docs/review.md gives the cost of.
var reviewIDs = []string{"pommel", "pommel-76", "eximo", "checkers-2011", "punt-match", "punt-heks-match", "punt-heks-match-3p"}

// BenchmarkReview measures what docs/review.md reports: the CPU seconds
// of a review at DefaultNodes of typical self-play games of each id
// (the fit's games 0, 1 and 2 of seed 1: ab at 2,000 nodes a move
// after 8 random plies), per game and per position, and the marks those
// games get per 100 moves and the seats' mean accuracy. Run it alone, once:
//
//	go test ./review/ -run '^$' -bench Review -benchtime 1x
func BenchmarkReview(b *testing.B) {
	const games = 3
	for _, id := range reviewIDs {
		b.Run(id, func(b *testing.B) {
			g, err := game.New(id, nil)
			if err != nil {
				b.Fatal(err)
			}
			for range b.N {
				var cpu time.Duration
				plies := 0
				var marks [3]int
				accuracy, seats := 0.0, 0
				for i := range games {
					start, moves, _, err := SelfPlay(context.Background(), g, 1, i, defaultPlay, defaultRandom)
					if err != nil {
						b.Fatal(err)
					}
					before := cpuTime()
					res, err := Game(context.Background(), g, start, moves, Config{})
					if err != nil {
						b.Fatal(err)
					}
					cpu += cpuTime() - before
					for _, st := range res.Seats {
						accuracy += st.Accuracy
						seats++
						marks[0] += st.Inaccuracies
						marks[1] += st.Mistakes
						marks[2] += st.Blunders
					}
					plies += len(moves)
				}
				b.ReportMetric(cpu.Seconds()/games, "cpu-s/game")
				b.ReportMetric(float64(plies)/games, "plies/game")
				b.ReportMetric(cpu.Seconds()*1000/float64(plies), "cpu-ms/position")
				b.ReportMetric(accuracy/float64(seats), "accuracy")
				for i, name := range []string{"inaccuracies", "mistakes", "blunders"} {
					b.ReportMetric(100*float64(marks[i])/float64(plies), name+"/100moves")
				}
			}
		})
	}
}
