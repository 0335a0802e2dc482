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
			seeSolution(t, ctx)
		})
	}
	t.Run("retry and keyboard", func(t *testing.T) { b.retryByKeyboard(t, short) })
	t.Run("streak", func(t *testing.T) { b.streak(t) })
	t.Run("signed in", func(t *testing.T) { b.signedInPuzzle(t, long) })
	t.Run("pictures", func(t *testing.T) { b.puzzlePictures(t, long) })
}

// streak: in streak mode a puzzle solved counts one, and the best streak
// is kept in the browser; a wrong move ends the streak.
func (b *browser) streak(t *testing.T) {
	ctx := b.sizedTab(t, screenSizes[1])
	run(t, ctx, chromedp.Navigate(b.url("/puzzles/"+puzzleGame+"?mode=streak")))
	poll[bool](t, ctx, "a streak's first puzzle", `document.querySelector("svg.board")?.dataset.phase === "solving" && new URLSearchParams(location.search).has("id")`)
	id := poll[string](t, ctx, "the puzzle's id", `new URLSearchParams(location.search).get("id")`)
	_, line := b.puzzleOf(t, puzzleGame, id)
	for i := 0; i < len(line); i += 2 {
		poll[bool](t, ctx, fmt.Sprintf("the position after %d moves", i),
			fmt.Sprintf(`document.querySelector("svg.board").dataset.played === "%d" && document.querySelector("svg.board").dataset.phase === "solving"`, i))
		enterPuzzleMove(t, ctx, screenSizes[1], line[i])
	}
	poll[bool](t, ctx, "a streak of one", `document.querySelector(".streak-count")?.textContent === "1" && document.querySelector(".best-streak")?.textContent === "1"`)
	click(t, ctx, "button.next-puzzle")
	poll[bool](t, ctx, "the streak's next puzzle", `document.querySelector("svg.board")?.dataset.phase === "solving" && new URLSearchParams(location.search).get("id") !== "`+id+`"`)
	next := poll[string](t, ctx, "the puzzle's id", `new URLSearchParams(location.search).get("id")`)
	fen, line := b.puzzleOf(t, puzzleGame, next)
	enterPuzzleMove(t, ctx, screenSizes[1], b.otherMove(t, puzzleGame, fen, line[0]))
	poll[bool](t, ctx, "the streak over", `document.querySelector(".streak")?.textContent.startsWith("Streak over: 1") &&
		document.querySelector("button.next-puzzle")?.textContent === "New streak" && document.querySelector("button.retry").hidden`)
}

// puzzlePictures saves the docs' pictures of the pages (with
// -screenshots): the list, and the trainer once a puzzle is solved, at
// both sizes in both schemes, one pixel per CSS pixel.
func (b *browser) puzzlePictures(t *testing.T, id string) {
	if *screenshotDir == "" {
		t.Skip("the docs' pictures: -screenshots saves them")
	}
	for _, size := range screenSizes {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(size.name+"-"+scheme, func(t *testing.T) {
				ctx := b.tab(t, true)
				opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
				if size.mobile {
					opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
				}
				run(t, ctx, chromedp.EmulateViewport(size.width, size.height, opts...))
				prefersScheme(t, ctx, scheme)
				run(t, ctx, chromedp.Navigate(b.url("/puzzles")))
				poll[bool](t, ctx, "the games' cards", `document.querySelectorAll("li.puzzle-game").length > 0`)
				viewShot(t, ctx, "puzzles-list-"+size.name+"-"+scheme)
				b.solvePuzzle(t, ctx, size, id)
				run(t, ctx, script(`window.scrollTo(0, 0)`))
				viewShot(t, ctx, "puzzles-solved-"+size.name+"-"+scheme)
			})
		}
	}
}

// seeSolution: after the wrong move, "See the solution" plays the whole
// line from the puzzle's position, and the puzzle is done.
func seeSolution(t *testing.T, ctx context.Context) {
	t.Helper()
	click(t, ctx, "button.see-solution")
	poll[bool](t, ctx, "the solution played", `document.querySelector("svg.board").dataset.phase === "shown" &&
		document.querySelector(".puzzle-live").textContent.startsWith("The solution: ") && !document.querySelector("button.next-puzzle").hidden`)
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
	// The refutation: the engine's answer, drawn as an arrow and said.
	refutation := poll[string](t, ctx, "the refutation", `document.querySelector("svg.board").dataset.refutation`)
	poll[bool](t, ctx, "the refutation's arrow and words", fmt.Sprintf(`document.querySelector('svg.board .arrow-move[data-move=%q]') !== null &&
		document.querySelector(".puzzle-live").textContent.includes("answers %s.")`, refutation, refutation))
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
	tapMove(t, ctx, move)
}

// signedInPuzzle: a player signed in solves a puzzle; the rating shown is
// the account's (not kept in the browser), and the list of games shows it.
func (b *browser) signedInPuzzle(t *testing.T, id string) {
	ctx := b.sizedTab(t, screenSizes[0])
	run(t, ctx, chromedp.Navigate(b.url("/signup")), chromedp.WaitVisible(chromedp.CSS(`#name`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), "dana"), chromedp.SendKeys(chromedp.CSS(`#password`), "quiet-puzzles-solve-slowly"),
		chromedp.Click(chromedp.CSS(`form.auth-form button[type="submit"]`)))
	poll[bool](t, ctx, "dana signed in", `location.pathname === "/" && !!document.querySelector("header details.me")`)
	after := b.solvePuzzle(t, ctx, screenSizes[0], id)
	if kept := evaluate[bool](t, ctx, `!!document.querySelector(".your-rating .kept")`); kept {
		t.Error("a signed-in player's rating is said to be kept in the browser")
	}
	run(t, ctx, chromedp.Navigate(b.url("/puzzles")))
	card := poll[string](t, ctx, "the card's rating", fmt.Sprintf(`document.querySelector('li.puzzle-game[data-game=%q] .rating')?.textContent`, puzzleGame))
	if !strings.HasPrefix(card, fmt.Sprint(after)) {
		t.Errorf("the list shows %q for %s, the trainer showed %d", card, puzzleGame, after)
	}
}

// retryByKeyboard: a wrong move, then Retry, then the right move entered
// by keyboard alone (Enter on each of its cells): the puzzle is solved,
// but the first try counted as failed, and only it changed the rating.
func (b *browser) retryByKeyboard(t *testing.T, id string) {
	ctx := b.sizedTab(t, screenSizes[0])
	fen, line := b.puzzleOf(t, puzzleGame, id)
	b.openPuzzle(t, ctx, puzzleGame, id)
	clickMove(t, ctx, b.otherMove(t, puzzleGame, fen, line[0]))
	poll[bool](t, ctx, "the failure counted", `document.querySelector(".puzzle-live").textContent.includes("Your rating")`)
	failed := poll[int](t, ctx, "the rating after the failure", shownRating)
	click(t, ctx, "button.retry")
	poll[bool](t, ctx, "the position again", `document.querySelector("svg.board").dataset.phase === "solving"`)
	route, _, _ := strings.Cut(line[0], "@")
	cells := strings.FieldsFunc(route, func(r rune) bool { return r == '-' || r == 'x' || r == ':' })
	for i, c := range cells {
		sel := fmt.Sprintf(`svg.board polygon[data-cell=%q]`, c)
		// The focus and the key in one turn of the page's loop: a redraw
		// between them (the last key's, late on a busy machine) would
		// take the focus away and the key with it. Each cell is waited
		// for before the next.
		run(t, ctx, script(fmt.Sprintf(`{ const e = document.querySelector(%q); e.focus();
			e.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true })); }`, sel)))
		if i < len(cells)-1 {
			poll[bool](t, ctx, "cell "+c+" taken", fmt.Sprintf(`!!document.querySelector(%q)?.classList.contains("selected")`, sel))
		}
	}
	poll[bool](t, ctx, "solved after a retry", `document.querySelector("svg.board").dataset.phase === "solved" &&
		document.querySelector(".puzzle-live").textContent === "Solved, after a wrong first try."`)
	if after := evaluate[int](t, ctx, shownRating); after != failed {
		t.Errorf("the rating went from %d to %d on a puzzle already failed", failed, after)
	}
}
