package review

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/internal/testtext"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestGoldenReview pins a review to the last figure: 20 plies of a
// Pommel self-play game reviewed at 2,000 nodes. A change to ab, to an
// evaluation's weights or to the review that changes what reviews say
// shows here first; when it is meant, rewrite the file with -update and
// fit the curves again (docs/review.md), since they were fitted to the
// search's old scores.
func TestGoldenReview(t *testing.T) {
	g := mustGame(t, "pommel")
	start, moves, _, err := SelfPlay(context.Background(), g, 2, 0, 300, 8)
	if err != nil {
		t.Fatal(err)
	}
	moves = moves[:min(20, len(moves))]
	res, err := Game(context.Background(), g, start, moves, Config{Nodes: 2000, Curve: &pommelCurve})
	if err != nil {
		t.Fatal(err)
	}
	testtext.Golden(t, "testdata/pommel.golden", reviewText(res), *update)
}

// reviewText writes a review one line a move, then one a seat.
func reviewText(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s at %d nodes, k %g\n", r.Game, r.Nodes, r.Curve.K)
	for _, m := range r.Moves {
		mark := string(m.Mark)
		if mark == "" {
			mark = "-"
		}
		fmt.Fprintf(&b, "%3d seat %d %-8s %7s best %-8s played %+6d loss %4d chance %.4f -> %.4f %-10s forced=%v line %s\n",
			m.Ply, m.Seat, m.Move, m.ScoreText, m.Best, m.Played, m.Loss, m.WinChance, m.After, mark, m.Forced, strings.Join(m.Line, " "))
	}
	for p, s := range r.Seats {
		fmt.Fprintf(&b, "seat %d: accuracy %.2f, %d moves (%d forced), %d inaccuracies, %d mistakes, %d blunders\n",
			p, s.Accuracy, s.Moves, s.Forced, s.Inaccuracies, s.Mistakes, s.Blunders)
	}
	return b.String()
}
