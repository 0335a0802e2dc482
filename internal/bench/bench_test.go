package bench

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/all"
)

var update = flag.Bool("update", false, "rewrite the golden signatures under testdata")

func newGame(t testing.TB, id string) game.Game { return gametest.NewGame(t, id) }

// shortSignatures are the games whose fixed searches are quick enough
// for -short.
var shortSignatures = map[string]bool{"pommel": true, "punt-heks-match-3p": true}

// TestSignaturesUnchanged: the fixed alpha-beta searches of every game
// visit as many nodes as testdata/signatures.txt says. A change meant as
// pure speed (of the search or of a game's moves) must search the same
// tree; one that changes the tree on purpose rewrites the file with
// -update and says so.
func TestSignaturesUnchanged(t *testing.T) {
	path := filepath.Join("testdata", "signatures.txt")
	var got strings.Builder
	for _, d := range game.All() {
		if testing.Short() && !shortSignatures[d.ID] && !*update {
			continue
		}
		g := newGame(t, d.ID)
		nodes, _, err := fixedSearches(context.Background(), "ab", Positions(g), ai.Limits{Depth: abDepth(g)})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "%s %d\n", d.ID, nodes)
	}
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(golden)), "\n") {
		id, n, _ := strings.Cut(line, " ")
		want[id] = n
	}
	for _, line := range strings.Split(strings.TrimSpace(got.String()), "\n") {
		id, n, _ := strings.Cut(line, " ")
		if want[id] != n {
			t.Errorf("%s: the fixed searches visited %s nodes, want %s (a changed tree: see %s)", id, n, want[id], path)
		}
	}
}

// TestSignatureIsRepeatable: the fixed searches visit the same nodes each
// time, so that the signature means something.
func TestSignatureIsRepeatable(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: TestSignaturesUnchanged searches the same positions once against the recorded signatures")
	}
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
	err := Game(context.Background(), newGame(t, "punt-heks-match-3p"), Config{Time: 20 * time.Millisecond}, func(f Figure) {
		if f.Value <= 0 {
			t.Errorf("%s is %v", f.Name, f.Value)
		}
		lines = append(lines, f.String())
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`^punt-heks-match-3p playouts/s \d+ plies/game \d+\.\d$`, `^punt-heks-match-3p perft/s \d+$`, `^punt-heks-match-3p perft-bulk/s \d+$`,
		`^punt-heks-match-3p ab-nodes/s \d+$`, `^punt-heks-match-3p mcts-iterations/s \d+$`, `^punt-heks-match-3p signature \d+$`}
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

// benchFixed runs the fixed searches of spec on every game (as bench's
// ab-nodes/s and mcts-iterations/s do) and reports nodes per second, for
// profiling the searches game by game.
func benchFixed(b *testing.B, spec string, limit func(game.Game) ai.Limits) {
	for _, d := range game.All() {
		b.Run(d.ID, func(b *testing.B) {
			g := newGame(b, d.ID)
			positions := Positions(g)
			var nodes int64
			var took time.Duration
			for b.Loop() {
				n, t, err := fixedSearches(context.Background(), spec, positions, limit(g))
				if err != nil {
					b.Fatal(err)
				}
				nodes, took = nodes+n, took+t
			}
			b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
		})
	}
}

func BenchmarkFixedAB(b *testing.B) {
	benchFixed(b, "ab", func(g game.Game) ai.Limits { return ai.Limits{Depth: abDepth(g)} })
}

func BenchmarkFixedUCT(b *testing.B) {
	benchFixed(b, "uct", func(game.Game) ai.Limits { return ai.Limits{Nodes: mctsIterations} })
}
