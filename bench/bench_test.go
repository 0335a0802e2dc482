package bench

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/all"
)

func newGame(t *testing.T, id string) game.Game { return gametest.NewGame(t, id) }

// TestSignatureIsRepeatable: the fixed searches visit the same nodes each
// time, so that the signature means something.
func TestSignatureIsRepeatable(t *testing.T) {
	g := newGame(t, "pommel")
	signature := func() float64 {
		figs, err := searches(context.Background(), g, 0)
		if err != nil {
			t.Fatal(err)
		}
		return figs[2].Value
	}
	a, b := signature(), signature()
	if a != b || a == 0 {
		t.Errorf("signatures %v and %v, want one nonzero value", a, b)
	}
}

// TestPositionsAreFixedAndPlayable: the same positions each time, none
// over, the start first.
func TestPositionsAreFixedAndPlayable(t *testing.T) {
	for _, d := range game.All() {
		g := newGame(t, d.ID)
		a, b := Positions(g), Positions(g)
		if len(a) != len(positionPlies) || len(b) != len(a) {
			t.Errorf("%s: %d and %d positions, want %d", d.ID, len(a), len(b), len(positionPlies))
			continue
		}
		for i := range a {
			if a[i].FEN() != b[i].FEN() || a[i].Result().Over() {
				t.Errorf("%s: position %d differs or is over: %s / %s", d.ID, i, a[i].FEN(), b[i].FEN())
			}
		}
		if a[0].FEN() != g.Start().FEN() {
			t.Errorf("%s: the first position is not the start", d.ID)
		}
	}
}

// TestGameReportsEveryFigure measures a game briefly: every figure, once,
// in the scripts' form, each a positive number.
func TestGameReportsEveryFigure(t *testing.T) {
	var lines []string
	err := Game(context.Background(), newGame(t, "eximo"), Config{Time: 20 * time.Millisecond}, func(f Figure) {
		if f.Value <= 0 {
			t.Errorf("%s is %v", f.Name, f.Value)
		}
		lines = append(lines, f.String())
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`^eximo playouts/s \d+ plies/game \d+\.\d$`, `^eximo perft/s \d+$`, `^eximo perft-bulk/s \d+$`,
		`^eximo ab-nodes/s \d+$`, `^eximo mcts-iterations/s \d+$`, `^eximo signature \d+$`}
	if len(lines) != len(want) {
		t.Fatalf("lines %q, want %d", lines, len(want))
	}
	for i, w := range want {
		if !regexp.MustCompile(w).MatchString(lines[i]) {
			t.Errorf("line %q, want %s", lines[i], w)
		}
	}
}

func TestCancelledStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Game(ctx, newGame(t, "pommel"), Config{Time: time.Hour}, func(Figure) {}); err == nil {
		t.Error("a cancelled bench went on")
	}
}
