package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserConditional: in a correspondence game White types a line of
// two steps into the page's Conditional moves box, by the keyboard; Black
// (through the API) plays the expected move and White's reply is on the
// board at once, nobody clicking, the box showing the rest of the line;
// then Black plays another move and the box empties, the page saying the
// line was dropped. Pictures at both sizes, light and dark, with axe.
func TestBrowserConditional(t *testing.T) {
	b := newBrowser(t)
	ann := &person{name: "ann"}
	b.newPerson(t, ann)
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "days": 3})
	white, black := g.Seats[0], g.Seats[1]
	b.ts.move(g.ID, white.Token, "a1-a3", 0)
	ctx := ann.ctx
	run(t, ctx, chromedp.Navigate(b.url(white.URL)))
	poll[bool](t, ctx, "the box of conditional moves", `!!document.querySelector(".conditional:not([hidden]) form.cond-form:not([hidden])")`)
	poll[bool](t, ctx, "None queued, before a line is set", `document.querySelector(".cond-hint").textContent.startsWith("None queued.")`)

	// White types the line and presses Enter.
	run(t, ctx, chromedp.Focus(chromedp.CSS(`#cond-moves`)),
		chromedp.SendKeys(chromedp.CSS(`#cond-moves`), "g6-g4 b1-b3  G5-G3 g2xg5"+kb.Enter))
	poll[bool](t, ctx, "the line queued", `document.querySelectorAll(".cond-line li").length === 2`)
	if first := evaluate[string](t, ctx, `document.querySelector(".cond-line li").textContent`); first != "If g6-g4, then b1-b3" {
		t.Errorf("the line's first step reads %q", first)
	}
	lookAtAs(t, ann, "conditional", b.url("/play/"+g.ID), "queued", `document.querySelectorAll(".cond-line li").length === 2`,
		`document.querySelector(".conditional").scrollIntoView({ block: "center" })`)

	// Black plays the expected move: the reply is on White's board at once.
	b.ts.move(g.ID, black.Token, "g6-g4", 1)
	moves := []string{"a1-a3", "g6-g4", "b1-b3"}
	poll[bool](t, ctx, "the reply in the moves", `document.querySelectorAll(".moves [data-ply]").length === 3`)
	checkBoard(t, ctx, "pommel", moves)
	poll[bool](t, ctx, "the rest of the line", `document.querySelectorAll(".cond-line li").length === 1 && document.querySelector(".cond-line li").textContent === "If g5-g3, then g2xg5"`)
	if note := poll[string](t, ctx, "the reply's note", `document.querySelector(".cond-note").textContent`); note != "Your reply b1-b3 to g6-g4 was played." {
		t.Errorf("the box says %q after the reply", note)
	}
	if v := b.ts.game(g.ID); strings.Join(v.Moves, " ") != strings.Join(moves, " ") {
		t.Errorf("the game's moves are %v, want %v", v.Moves, moves)
	}

	// Black plays another move: the line is dropped, and the page says so.
	b.ts.move(g.ID, black.Token, "a5-a4", 3)
	poll[bool](t, ctx, "the line dropped", `document.querySelectorAll(".cond-line li").length === 0 && document.querySelector(".cond-hint").textContent.startsWith("None queued.")`)
	if msg := poll[string](t, ctx, "the page's message", `document.querySelector("main.game .message").textContent`); !strings.Contains(msg, "a5-a4 was played, not g5-g3") {
		t.Errorf("the page says %q, want that a5-a4 dropped the line", msg)
	}
	if evaluate[bool](t, ctx, `!document.querySelector(".cond-form").hidden`) {
		t.Error("the form shows on White's own turn")
	}
	lookAtAs(t, ann, "conditional", b.url("/play/"+g.ID), "own-turn", `document.querySelector(".conditional:not([hidden]) .cond-hint")?.textContent.startsWith("None queued.") && document.querySelectorAll(".moves [data-ply]").length === 4`,
		`document.querySelector(".conditional").scrollIntoView({ block: "center" })`)
}
