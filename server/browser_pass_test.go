package server

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// isPass reports whether a move's text is Punt's pass, a move from a
// cell to itself ("a7-a7").
func isPass(text string) bool {
	from, to, ok := strings.Cut(text, "-")
	return ok && from == to
}

// movesToAPass plays seeded random games of Punt-Match with end=all-stuck
// until the player to move can only pass, and returns the moves there.
func movesToAPass(t *testing.T, opts map[string]string) []string {
	t.Helper()
	g, err := game.New("punt-match", opts)
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 3))
		s := g.Start()
		var played []string
		for texts := game.MoveTexts(s); len(texts) > 0; texts = game.MoveTexts(s) {
			if len(texts) == 1 && isPass(texts[0]) {
				return played
			}
			text := texts[rng.IntN(len(texts))]
			m, err := game.ParseMove(s, text)
			if err != nil {
				t.Fatal(err)
			}
			played = append(played, text)
			s.Play(m)
		}
	}
	t.Fatal("no random game of 200 reached a pass")
	return nil
}

// TestBrowserPass: in Punt with end=all-stuck, a player whose piles are
// all frozen sees a "Pass" button, and a click plays the pass.
func TestBrowserPass(t *testing.T) {
	opts := map[string]string{"end": "all-stuck"}
	moves := movesToAPass(t, opts)
	b := newBrowser(t)
	resp := b.ts.create(map[string]any{"game": "punt-match", "seats": []string{"human", "human"}, "options": opts})
	for ply, move := range moves {
		v := b.ts.game(resp.ID)
		if code, msg := b.ts.move(resp.ID, resp.Seats[v.ToMove].Token, move, ply); code != http.StatusOK {
			t.Fatalf("move %d %s: %d %s", ply+1, move, code, msg)
		}
	}
	v := b.ts.game(resp.ID)
	if len(v.Legal) != 1 || !isPass(v.Legal[0]) {
		t.Fatalf("after %d moves the legal moves are %v, want one pass", len(moves), v.Legal)
	}
	ctx := b.playerTab(t, screenSizes[0], resp, v.ToMove)
	const button = `.controls button.pass`
	poll[bool](t, ctx, "the pass button", `!!document.querySelector("`+button+`")`)
	click(t, ctx, button)
	g := b.waitPly(t, resp.ID, len(moves)+1)
	if last := g.Moves[len(g.Moves)-1]; last != v.Legal[0] {
		t.Fatalf("after the click the last move is %s, want the pass %s", last, v.Legal[0])
	}
}
