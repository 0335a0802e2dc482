package server

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestBrowserSwap plays the pie rule on the game page: no "Swap sides"
// button before the first move; after it the second player's page offers
// one, a click plays swap, the board shows the mirrored position, and the
// button is gone.
func TestBrowserSwap(t *testing.T) {
	b := newBrowser(t)
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "options": map[string]string{"swap": "on"}})
	ctx := b.playerTab(t, screenSizes[0], resp, 1, 0)
	const button = `.controls button.swap`
	if poll[bool](t, ctx, "the controls", `!!document.querySelector(".controls button.resign")`) &&
		poll[bool](t, ctx, "no swap button", `!document.querySelector("`+button+`")`) {
		clickMove(t, ctx, "a1-a3")
	}
	b.waitPly(t, resp.ID, 1)
	poll[bool](t, ctx, "the swap button", `!!document.querySelector("`+button+`")`)
	click(t, ctx, button)
	g := b.waitPly(t, resp.ID, 2)
	if g.Moves[1] != "swap" || g.ToMove != 0 {
		t.Fatalf("after the click: moves %v, toMove %d", g.Moves, g.ToMove)
	}
	checkBoardFrom(t, ctx, "pommel", swappedFEN(t), nil)
	poll[bool](t, ctx, "the swap button gone", `!document.querySelector("`+button+`")`)
}

// swappedFEN is Pommel's position after 1. a1-a3 swap.
func swappedFEN(t *testing.T) string {
	t.Helper()
	g, err := game.New("pommel", map[string]string{"swap": "on"})
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	for _, text := range []string{"a1-a3", "swap"} {
		m, err := game.ParseMove(s, text)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(m)
	}
	return s.FEN()
}
