package eximo_test

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestMoveOrder pins the order in which Moves lists the moves, not only
// the set (the reference tests compare sets): engines keep a move's index
// in their transposition table and search in this order, so a faster generator must
// list the same moves the same way. The golden file holds the lists of the
// perft table's positions and of every fifth position of a few random
// games (captures, chains, jumps and drops among them); it was written by
// the generator before bitboard move lists were copied from the lookup.
func TestMoveOrder(t *testing.T) {
	g := newGame(t)
	var b strings.Builder
	list := func(s game.State) {
		b.WriteString(s.FEN())
		b.WriteString("\n\t")
		for i, m := range s.Moves(nil) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(m.Text(g.Board()))
		}
		b.WriteByte('\n')
	}
	for _, fen := range fuzzStarts() {
		list(gametest.Position(t, g, fen))
	}
	rng := rand.New(rand.NewPCG(15, 2))
	for range 4 {
		s := g.Start()
		for ply := 0; !s.Result().Over(); ply++ {
			moves := s.Moves(nil)
			if ply%5 == 0 {
				list(s)
			}
			s.Play(moves[rng.IntN(len(moves))])
		}
	}
	checkGolden(t, "move-order.txt", b.String())
}

// checkGolden compares text with the golden file testdata/name, or
// rewrites the file with -update.
func checkGolden(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./games/eximo -update to write it)", err)
	}
	if got := string(want); text != got {
		gl, wl := strings.Split(text, "\n"), strings.Split(got, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d (run go test ./games/eximo -update if the change is meant):\ngot:  %s\nwant: %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs: %d lines, want %d", path, len(gl), len(wl))
	}
}
