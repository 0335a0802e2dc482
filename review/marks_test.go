package review

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestMarkOf: each threshold earns its mark, and a hair below it the one
// before.
func TestMarkOf(t *testing.T) {
	for _, tc := range []struct {
		drop float64
		want Mark
	}{
		{0, ""},
		{0.049, ""},
		{InaccuracyDrop, Inaccuracy},
		{0.099, Inaccuracy},
		{MistakeDrop, Mistake},
		{0.199, Mistake},
		{BlunderDrop, Blunder},
		{1, Blunder},
	} {
		if got := MarkOf(tc.drop); got != tc.want {
			t.Errorf("MarkOf(%v) = %q, want %q", tc.drop, got, tc.want)
		}
	}
}

// TestMoveAccuracy: the best move is 100, each threshold's drop scores
// as documented, and accuracy falls as the drop grows.
func TestMoveAccuracy(t *testing.T) {
	for _, tc := range []struct {
		drop, want float64
	}{
		{0, 100},
		{-0.1, 100}, // a drop is never below 0; a stray one is not a bonus
		{InaccuracyDrop, 81.87},
		{MistakeDrop, 67.03},
		{BlunderDrop, 44.93},
		{accuracyScale, 100 / math.E},
		{1, 1.83},
	} {
		if got := MoveAccuracy(tc.drop); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("MoveAccuracy(%v) = %.3f, want %.2f", tc.drop, got, tc.want)
		}
	}
	for d := 0.0; d < 1; d += 0.01 {
		if MoveAccuracy(d+0.01) >= MoveAccuracy(d) {
			t.Fatalf("accuracy does not fall from a drop of %v", d)
		}
	}
}

// TestSeats: accuracy is the mean over a seat's moves with a choice;
// marks and forced moves are counted per seat.
func TestSeats(t *testing.T) {
	moves := []Move{
		{Seat: 0, Drop: 0},
		{Seat: 1, Drop: 0.25, Mark: Blunder},
		{Seat: 0, Drop: 0.12, Mark: Mistake},
		{Seat: 1, Drop: 0.9, Forced: true}, // not counted in the accuracy
		{Seat: 0, Drop: 0.06, Mark: Inaccuracy},
	}
	got := Seats(moves, 3)
	want := []Seat{
		{Accuracy: (100 + MoveAccuracy(0.12) + MoveAccuracy(0.06)) / 3, Moves: 3, Inaccuracies: 1, Mistakes: 1},
		{Accuracy: MoveAccuracy(0.25), Moves: 2, Forced: 1, Blunders: 1},
		{Accuracy: 100},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Seats:\n got %+v\nwant %+v", got, want)
	}
}

// TestFitFindsScale: fitK recovers the scale that made the points, for
// two and three players.
func TestFitFindsScale(t *testing.T) {
	for _, tc := range []struct {
		players int
		b       float64
	}{{2, 0}, {3, 0.8}} {
		players, b := tc.players, tc.b
		const k = 0.007
		var samples []sample
		for s := -600; s <= 600; s += 5 {
			samples = append(samples, sample{score: s, points: expected(k, b, players, float64(s))})
		}
		if got, gotB := fitK(samples, players); math.Abs(got-k)/k > 1e-3 || math.Abs(gotB-b) > 1e-3 {
			t.Errorf("%d players: k %v, b %v; want %v, %v", players, got, gotB, k, b)
		}
	}
}

// TestFitReproducible: a small fit gives the same curve on one worker
// and on two, with its interval around its scale and its figures.
func TestFitReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a fit plays games")
	}
	g, err := game.New("eximo", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := FitConfig{Game: g, Games: 6, Seed: 5, Nodes: 500, PlayNodes: 200, Every: 8}
	one, st, err := Fit(context.Background(), cfg, "test")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	two, _, err := Fit(context.Background(), cfg, "test")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Errorf("one worker %+v, two %+v", one, two)
	}
	if st.Games != 6 || one.Games != 6 || one.Positions != st.Positions || !(one.KLow <= one.K && one.K <= one.KHigh) || one.Nodes != 500 {
		t.Errorf("%+v, %+v", one, st)
	}
}

// TestPoints: a win is the winner's point, a draw is shared, and the
// seats placed first share it.
func TestPoints(t *testing.T) {
	for _, tc := range []struct {
		r       game.Result
		players int
		want    [game.MaxPlayers]float64
	}{
		{game.Win(1, game.NoPieces), 2, [game.MaxPlayers]float64{0, 1}},
		{game.DrawBy(game.Repetition), 2, [game.MaxPlayers]float64{0.5, 0.5}},
		{game.Result{Reason: game.Scored, Winners: game.PlayerSet(0).Add(0).Add(2)}, 3, [game.MaxPlayers]float64{0.5, 0, 0.5}},
	} {
		if got := Points(tc.r, tc.players); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.r, got, tc.want)
		}
	}
}
