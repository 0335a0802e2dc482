package game

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/board"
)

// TestSwapMove: the pie rule's move is written "swap", is told apart from
// every other move, reads a path that stays on the board, and is not the
// zero Move (which code uses as "no move").
func TestSwapMove(t *testing.T) {
	b := board.NewSquare(8, 8)
	swap := Swap()
	jump := Start(3, true)
	jump.Land(21)
	tests := []struct {
		name   string
		m      Move
		isSwap bool
		text   string
	}{
		{"swap", swap, true, "swap"},
		{"step", Step(0, 9), false, "a1-b2"},
		{"capture", jump, false, "d1xf3"},
		{"zero", Move{}, false, ""},
	}
	for _, tt := range tests {
		if tt.m.IsSwap() != tt.isSwap || tt.m.Text(b) != tt.text {
			t.Errorf("%s: IsSwap %v, text %q; want %v, %q", tt.name, tt.m.IsSwap(), tt.m.Text(b), tt.isSwap, tt.text)
		}
	}
	if swap.From() != swap.To() || swap.Len() != 1 || swap.IsCapture() || len(swap.Drops()) != 0 || swap == (Move{}) {
		t.Errorf("swap: from %d to %d, len %d, capture %v, drops %v", swap.From(), swap.To(), swap.Len(), swap.IsCapture(), swap.Drops())
	}
}

// TestBaseFirstAndSwap: a Base reads the options first and swap; swap
// holds only with two seats, and a first that names no seat is the first
// seat.
func TestBaseFirstAndSwap(t *testing.T) {
	two := []Seat{{Name: "White", Key: "white", Letter: 'w'}, {Name: "Black", Key: "black", Letter: 'b'}}
	three := append(slices.Clone(two), Seat{Name: "Red", Key: "red", Letter: 'r'})
	b := board.NewSquare(8, 8)
	tests := []struct {
		name  string
		seats []Seat
		kv    map[string]string
		first Player
		swap  bool
	}{
		{"defaults", two, map[string]string{}, 0, false},
		{"black first", two, map[string]string{FirstKey: "black"}, 1, false},
		{"swap on", two, map[string]string{SwapKey: "on"}, 0, true},
		{"swap off", two, map[string]string{SwapKey: "off"}, 0, false},
		{"red first", three, map[string]string{FirstKey: "red"}, 2, false},
		{"three players never swap", three, map[string]string{SwapKey: "on"}, 0, false},
		{"no such seat", two, map[string]string{FirstKey: "green"}, 0, false},
	}
	for _, tt := range tests {
		base := NewBase("test", Options{kv: tt.kv}, tt.seats, b)
		if base.First() != tt.first || base.SwapRule() != tt.swap {
			t.Errorf("%s: first %d, swap %v; want %d, %v", tt.name, base.First(), base.SwapRule(), tt.first, tt.swap)
		}
	}
}

// TestAllOptionsFirstAndSwap: every game lists first with its seats' keys,
// the first seat by default, and a two-player game lists swap, off by
// default; a three-player game does not.
func TestAllOptionsFirstAndSwap(t *testing.T) {
	two := Descriptor{ID: "duel", Players: 2, Seats: []Seat{{Name: "White", Key: "white", Letter: 'w'}, {Name: "Black", Key: "black", Letter: 'b'}}}
	three := Descriptor{ID: "trio", Players: 3, Seats: append(slices.Clone(two.Seats), Seat{Name: "Red", Key: "red", Letter: 'r'})}
	tests := []struct {
		d    Descriptor
		want []string
	}{
		{two, []string{"first=white|black (default white)", "maxplies=1..1000000 (default 600)", "swap=off|on (default off)"}},
		{three, []string{"first=white|black|red (default white)", "maxplies=1..1000000 (default 600)"}},
	}
	for _, tt := range tests {
		var got []string
		for _, o := range tt.d.AllOptions() {
			got = append(got, o.Describe())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.d.ID, got, tt.want)
		}
	}
}
