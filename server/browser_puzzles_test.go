package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/puzzles"

	"github.com/chromedp/chromedp"
)

// TestBrowserPuzzles solves puzzles on the trainer as people do, at a
// phone's size and a desktop's: a puzzle solved by clicking its line's
// moves on the board says "Solved!" and raises the rating shown; a wrong
// move on the next is marked wrong, announced, and lowers it.
func TestBrowserPuzzles(t *testing.T) {
	b := newBrowser(t)
	long, short := shippedPuzzles(t, puzzleGame)
	for _, size := range []screenSize{screenSizes[1], screenSizes[0]} {
		t.Run(size.name, func(t *testing.T) {
			ctx := b.sizedTab(t, size)
			before := b.solvePuzzle(t, ctx, size, long)
			b.missPuzzle(t, ctx, size, short, before)
		})
	}
}

// puzzleGame is the game whose shipped puzzles the test plays: its set
// has lines of one move and of several.
const puzzleGame = "pommel-76"

// shippedPuzzles picks two puzzles of game's shipped set: one whose line
// has a reply in it, to solve, and another, to miss.
func shippedPuzzles(t *testing.T, game string) (long, short string) {
	t.Helper()
	data, err := fs.ReadFile(puzzles.Shipped(), game+".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		var p struct {
			ID       string   `json:"id"`
			Solution []string `json:"solution"`
		}
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		if long == "" && len(p.Solution) >= 3 {
			long = p.ID
		} else if short == "" {
			short = p.ID
		}
	}
	if long == "" || short == "" {
		t.Fatalf("%s's set lacks a puzzle of three moves or more and another", game)
	}
	return long, short
}

// puzzleOf reads a puzzle from the API, as the page does.
func (b *browser) puzzleOf(t *testing.T, game, id string) (fen string, solution []string) {
	t.Helper()
	code, body := b.ts.do("GET", "/api/puzzles/"+game+"?id="+id, "", nil)
	if code != 200 {
		t.Fatalf("GET puzzle %s: %d %s", id, code, body)
	}
	var p struct {
		FEN      string   `json:"fen"`
		Solution []string `json:"solution"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	return p.FEN, p.Solution
}

// shownRating is the rating the trainer shows, as a number (0 before any).
const shownRating = `(() => { const r = document.querySelector(".your-rating .rating")?.textContent ?? "";
	return parseInt(r, 10) || 0; })()`

// openPuzzle opens the trainer on puzzle id and waits for the player's turn.
func (b *browser) openPuzzle(t *testing.T, ctx context.Context, game, id string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(b.url("/puzzles/"+game+"?id="+id)))
	poll[bool](t, ctx, "the puzzle's position", boardDrawn+` && document.querySelector("svg.board").dataset.phase === "solving"`)
	prompt := poll[string](t, ctx, "the prompt", `document.querySelector(".prompt")?.textContent`)
	if !strings.HasPrefix(prompt, "Your turn: find the best move for ") {
		t.Errorf("the prompt says %q", prompt)
	}
}

// solvePuzzle plays the solver's moves of puzzle id by clicking their
// cells, waiting for each reply, and returns the rating shown after.
func (b *browser) solvePuzzle(t *testing.T, ctx context.Context, size screenSize, id string) int {
	t.Helper()
	const game = puzzleGame
	_, line := b.puzzleOf(t, game, id)
	b.openPuzzle(t, ctx, game, id)
	for i := 0; i < len(line); i += 2 {
		poll[bool](t, ctx, fmt.Sprintf("the position after %d moves", i),
			fmt.Sprintf(`document.querySelector("svg.board").dataset.played === "%d" && document.querySelector("svg.board").dataset.phase === "solving"`, i))
		enterPuzzleMove(t, ctx, size, line[i])
	}
	poll[bool](t, ctx, "the puzzle done", `document.querySelector("svg.board").dataset.phase === "solved"`)
	badge := poll[string](t, ctx, "the verdict", `document.querySelector(".puzzle-badge.good .change")?.textContent`)
	if !strings.HasPrefix(badge, "+") {
		t.Errorf("the badge over the board shows %q, want a rise", badge)
	}
	if text := poll[string](t, ctx, "the badge", `document.querySelector(".puzzle-badge")?.textContent`); !strings.HasPrefix(text, "Solved!") {
		t.Errorf("the badge says %q, want Solved!", text)
	}
	poll[bool](t, ctx, "the announcement", `document.querySelector(".puzzle-live").textContent.startsWith("Solved! Your rating")`)
	after := poll[int](t, ctx, "the new rating", shownRating)
	checkPuzzleInfo(t, ctx)
	screenshot(t, ctx, "puzzle-solved-"+size.name)
	return after
}

// missPuzzle plays a legal move other than the solution's on puzzle id:
// the page marks it wrong, says so, and shows the rating fallen below
// before.
func (b *browser) missPuzzle(t *testing.T, ctx context.Context, size screenSize, id string, before int) {
	t.Helper()
	const game = puzzleGame
	fen, line := b.puzzleOf(t, game, id)
	b.openPuzzle(t, ctx, game, id)
	wrong := b.otherMove(t, game, fen, line[0])
	enterPuzzleMove(t, ctx, size, wrong)
	poll[bool](t, ctx, "the move marked wrong", `document.querySelector("svg.board").dataset.phase === "wrong" && document.querySelectorAll("svg.board .cell.last").length > 0`)
	if text := poll[string](t, ctx, "the badge", `document.querySelector(".puzzle-badge.bad")?.textContent`); !strings.Contains(text, "Not the move") {
		t.Errorf("the badge says %q", text)
	}
	live := poll[string](t, ctx, "the announcement", `(() => { const t = document.querySelector(".puzzle-live").textContent; return t.includes("Your rating") && t; })()`)
	if !strings.HasPrefix(live, wrong+" is not the move.") {
		t.Errorf("the live region says %q", live)
	}
	after := poll[int](t, ctx, "the rating shown", shownRating)
	if after >= before {
		t.Errorf("the rating went from %d to %d after a wrong move", before, after)
	}
	if change := poll[string](t, ctx, "the change", `document.querySelector(".your-rating .change")?.textContent`); !strings.HasPrefix(change, "(−") {
		t.Errorf("the change reads %q", change)
	}
	poll[bool](t, ctx, "Retry and See the solution", `!document.querySelector("button.retry").hidden && !document.querySelector("button.see-solution").hidden`)
	checkAxe(t, ctx, "puzzle-wrong-"+size.name) // the verdict, the panel after it
	screenshot(t, ctx, "puzzle-wrong-"+size.name)
}

// otherMove is a legal move of the puzzle's position other than move.
func (b *browser) otherMove(t *testing.T, game, fen, move string) string {
	t.Helper()
	code, body := b.ts.do("GET", "/api/analysis/"+game+"?fen="+url.QueryEscape(fen), "", nil)
	if code != 200 {
		t.Fatalf("analysis: %d %s", code, body)
	}
	var a struct {
		Legal []string `json:"legal"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatal(err)
	}
	for _, m := range a.Legal {
		if m != move {
			return m
		}
	}
	t.Fatalf("no legal move but %s", move)
	return ""
}

// checkPuzzleInfo: once done, the puzzle's rating, themes and links show.
func checkPuzzleInfo(t *testing.T, ctx context.Context) {
	t.Helper()
	href := poll[string](t, ctx, "the analysis link", `document.querySelector(".puzzle-info a.analyse")?.getAttribute("href")`)
	if !strings.HasPrefix(href, "/analysis/"+puzzleGame+"?fen=") {
		t.Errorf("Analyse this position links to %q", href)
	}
}

// enterPuzzleMove clicks (on a phone, taps) the move's cells in order.
func enterPuzzleMove(t *testing.T, ctx context.Context, size screenSize, move string) {
	t.Helper()
	if !size.mobile {
		clickMove(t, ctx, move)
		return
	}
	route, drops, _ := strings.Cut(move, "@")
	cells := strings.FieldsFunc(route, func(r rune) bool { return r == '-' || r == 'x' || r == ':' })
	if drops != "" {
		cells = append(cells, strings.Split(drops, "@")...)
	}
	for _, c := range cells {
		tap(t, ctx, fmt.Sprintf(`svg.board polygon[data-cell=%q]`, c))
	}
	choice := fmt.Sprintf(`.choices button[data-move=%q]`, move)
	if found, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector(%q)`, choice))); err != nil || found {
		tap(t, ctx, choice)
	}
}
