package endgame

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

// TestWalkIndexes: for every index of every material, At and Position
// agree with Probe; indexes that are no position have no state; and an
// index beyond a material or a material not held is refused.
func TestWalkIndexes(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Build(context.Background(), Config{Game: g, Pieces: 2, Dir: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	tables, err := Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	var nonPositions uint64
	for _, ms := range tables.Manifest().Materials {
		m, err := ParseMaterial(ms.Material)
		if err != nil {
			t.Fatal(err)
		}
		size := tables.Indexes(m)
		var positions, wins uint64
		for i := range size {
			v, ok, err := tables.At(m, i)
			if err != nil {
				t.Fatal(err)
			}
			s, perr := tables.Position(m, i)
			if !ok {
				if perr == nil {
					t.Errorf("%s index %d is no position, yet Position gives %s", m, i, s.FEN())
				}
				continue
			}
			positions++
			if v.Kind == Win {
				wins++
			}
			if perr != nil {
				t.Fatalf("%s index %d: %v", m, i, perr)
			}
			if pv, err := tables.Probe(s); err != nil || pv != v {
				t.Errorf("%s index %d (%s): At says %v, Probe %v (%v)", m, i, s.FEN(), v, pv, err)
			}
		}
		nonPositions += size - positions
		if positions != ms.Positions || wins != ms.Wins || size < positions {
			t.Errorf("%s: %d indexes, %d positions and %d wins walked; the manifest says %d positions, %d wins", m, size, positions, wins, ms.Positions, ms.Wins)
		}
		if _, _, err := tables.At(m, size); err == nil {
			t.Errorf("%s: At(%d) beyond the last index is not refused", m, size)
		}
		if _, err := tables.Position(m, size); err == nil {
			t.Errorf("%s: Position(%d) beyond the last index is not refused", m, size)
		}
	}
	if nonPositions == 0 {
		t.Error("no index that is no position was walked: men on their last rows should be")
	}
	kkvk, _ := ParseMaterial("KKvK")
	if n := tables.Indexes(kkvk); n != 0 {
		t.Errorf("Indexes of a material not held: %d, want 0", n)
	}
	if _, _, err := tables.At(kkvk, 0); err == nil {
		t.Error("At of a material not held is not refused")
	}
	if _, err := tables.Position(kkvk, 0); err == nil {
		t.Error("Position of a material not held is not refused")
	}
}
