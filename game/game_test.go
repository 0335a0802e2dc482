package game

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
)

func TestMoveText(t *testing.T) {
	b := board.NewSquare(8, 8)
	cell := func(name string) board.Cell {
		c, ok := b.Parse(name)
		if !ok {
			t.Fatalf("no cell %s", name)
		}
		return c
	}
	step := Step(cell("a1"), cell("a2"))
	jumps := Start(cell("c6"), false)
	jumps.Land(cell("c8"))
	jumps.Land(cell("e8"))
	capture := Start(cell("c6"), true)
	capture.Land(cell("c8"))
	capture.Drop(cell("b1"))
	capture.Drop(cell("c2"))
	tests := []struct {
		m    Move
		want string
	}{
		{step, "a1-a2"},
		{jumps, "c6-c8-e8"},
		{capture, "c6xc8@b1@c2"},
	}
	for _, tc := range tests {
		if got := tc.m.Text(b); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
	if capture.From() != cell("c6") || capture.To() != cell("c8") || capture.Len() != 2 || !capture.IsCapture() || len(capture.Drops()) != 2 {
		t.Errorf("accessors disagree with %s", capture.Text(b))
	}
	if capture.Drop(cell("d2")) {
		t.Error("a third drop was accepted")
	}
	full := Start(0, true)
	for i := 1; i < MaxPath; i++ {
		if !full.Land(board.Cell(i)) {
			t.Fatalf("landing %d refused", i)
		}
	}
	if full.Land(1) {
		t.Error("a landing beyond MaxPath was accepted")
	}
	if a, b := Step(1, 2), Step(1, 2); a != b {
		t.Error("equal moves compare unequal")
	}
}

func TestResolveOptions(t *testing.T) {
	specs := []OptionSpec{{Key: "hop", Default: "friendly", Values: []string{"friendly", "any"}}, maxPliesOption}
	o, err := resolve(specs, map[string]string{"hop": "any"})
	if err != nil || o.Get("hop") != "any" || o.Int("maxplies") != 600 || o.String() != "hop=any maxplies=600" {
		t.Errorf("got %v %v", o, err)
	}
	for given, want := range map[string]string{
		"colour=red":  `unknown option "colour" (options: hop, maxplies)`,
		"hop=jump":    "option hop=jump: the value must be one of friendly, any",
		"maxplies=0":  "option maxplies=0: the value must be a whole number from 1 to 1000000",
		"maxplies=ab": "the value must be a whole number",
	} {
		k, v, _ := ParseOption(given)
		if _, err := resolve(specs, map[string]string{k: v}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", given, err, want)
		}
	}
	for _, bad := range []string{"hop", "=any", "hop=", ""} {
		if _, _, err := ParseOption(bad); err == nil {
			t.Errorf("ParseOption(%q) accepted", bad)
		}
	}
}

func TestHistoryRepeats(t *testing.T) {
	var h History
	h.Reset(1)
	h.Push(2, false)
	h.Push(1, false)
	if h.Repeats() != 2 {
		t.Errorf("second occurrence counted %d", h.Repeats())
	}
	h.Push(2, false)
	h.Push(1, false)
	if h.Repeats() != 3 || Safeguards(&h, 4, 600).Reason != Repetition {
		t.Errorf("third occurrence counted %d", h.Repeats())
	}
	h.Pop()
	h.Push(1, true) // an irreversible move: nothing before can repeat
	if h.Repeats() != 1 {
		t.Errorf("after an irreversible move counted %d", h.Repeats())
	}
	c := h.Clone()
	c.Push(9, false)
	if h.Repeats() != 1 || len(h.entries) == len(c.entries) {
		t.Error("a clone shares its entries")
	}
	if r := Safeguards(&h, 10, 10); r.Reason != PlyCap || !r.Draw() {
		t.Errorf("ply cap: got %v", r)
	}
	if r := Safeguards(&h, 9, 10); r.Over() {
		t.Errorf("below the ply cap: got %v", r)
	}
}

func TestPlayerSet(t *testing.T) {
	s := PlayerSet(0).Add(0).Add(2)
	if !s.Has(0) || s.Has(1) || !s.Has(2) || s.Len() != 2 {
		t.Errorf("set %b", s)
	}
	if r := Win(1, NoMoves); !r.Over() || r.Draw() || !r.Winners.Has(1) {
		t.Errorf("win: %+v", r)
	}
}

func TestZobristKeysAreStable(t *testing.T) {
	a, b := ZobristKeys(7, 100), ZobristKeys(7, 100)
	seen := map[uint64]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("the same seed gave different keys")
		}
		if seen[a[i]] || a[i] == 0 {
			t.Fatalf("key %d repeats or is zero", i)
		}
		seen[a[i]] = true
	}
	// Hashes are stored across runs, so the keys must never change.
	if a[0] != ZobristKeys(7, 1)[0] || a[0] != 0x63cbe1e459320dd7 {
		t.Errorf("first key for seed 7 is %#x: the keys changed", a[0])
	}
}

// TestDuelEnd: the order of the common two-player end: no pieces before no
// moves before the safeguards.
func TestDuelEnd(t *testing.T) {
	var fresh, repeated History
	fresh.Reset(1)
	repeated.Reset(1)
	for range 2 {
		repeated.Push(2, false)
		repeated.Push(1, false)
	}
	tests := []struct {
		name         string
		mine, theirs bool
		moves, ply   int
		h            *History
		want         Result
	}{
		{"mover has no pieces", false, true, 0, 0, &fresh, Win(1, NoPieces)},
		{"opponent has no pieces", true, false, 3, 0, &fresh, Win(0, NoPieces)},
		{"no pieces comes before no moves", true, false, 0, 0, &fresh, Win(0, NoPieces)},
		{"no moves", true, true, 0, 0, &fresh, Win(1, NoMoves)},
		{"no moves comes before the ply cap", true, true, 0, 10, &fresh, Win(1, NoMoves)},
		{"ply cap", true, true, 5, 10, &fresh, DrawBy(PlyCap)},
		{"third repetition", true, true, 5, 4, &repeated, DrawBy(Repetition)},
		{"going on", true, true, 5, 4, &fresh, Result{}},
	}
	for _, tc := range tests {
		got := DuelEnd(0, tc.mine, tc.theirs, tc.moves, tc.h, tc.ply, 10)
		if got.Reason != tc.want.Reason || got.Winners != tc.want.Winners {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
