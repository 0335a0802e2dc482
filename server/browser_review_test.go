package server

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/reviews"
)

// browserReviews is a reviews service on an SQLite queue of its own, one
// worker computing real reviews at a small budget.
func browserReviews(t *testing.T) *reviews.Service {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	revs, err := reviews.Open(ctx, reviews.Config{Queue: riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")},
		Workers: 1, Compute: reviews.Engine(nil), Nodes: 2000, Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return revs
}

// TestBrowserReview asks for the computer review of a finished game on
// its page, at a desktop's size and a phone's, as a spectator: the button,
// the state while it waits, then the graph, the counts and at least one
// mark in the move list; a click on the graph goes to that move, a click
// on a marked move goes to the position before it, where the board draws
// the better move as an arrow.
func TestBrowserReview(t *testing.T) {
	skipWithoutBrowser(t)
	b := newBrowserWith(t, siteConfig{Reviews: browserReviews(t)})
	id := b.ts.finishedGame(30)
	for _, size := range []screenSize{desktop, phone} {
		t.Run(size.name, func(t *testing.T) { b.review(t, size, id) })
	}
	if *screenshotDir != "" {
		t.Run("docs", func(t *testing.T) { b.reviewPictures(t, id) })
	}
}

// reviewPictures are the README's pictures of the review, at both sizes
// in both schemes, one pixel per CSS pixel, the review in the middle of
// the window.
func (b *browser) reviewPictures(t *testing.T, id string) {
	for _, size := range screenSizes {
		for _, scheme := range []string{"light", "dark"} {
			ctx := b.tab(t, false)
			run(t, ctx, chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateScale(1)))
			prefersScheme(t, ctx, scheme)
			run(t, ctx, chromedp.Navigate(b.url("/games/"+id)))
			poll[bool](t, ctx, "the marks", `document.querySelectorAll(".moves button.move.marked").length > 0`)
			run(t, ctx, script(`document.querySelector("details.review-graph").open = true; document.querySelector("section.review").scrollIntoView({block: "center"})`))
			time.Sleep(300 * time.Millisecond) // the buttons' colours settle
			viewShot(t, ctx, "site-review-"+size.name+"-"+scheme)
		}
	}
}

func (b *browser) review(t *testing.T, size screenSize, id string) {
	ctx := b.sizedTab(t, size)
	run(t, ctx, chromedp.Navigate(b.url("/games/"+id)))
	poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon").length > 0`)
	// The first size asks; the second finds it asked (and done).
	if poll[bool](t, ctx, "the review's section", `!!document.querySelector(".review-ask, .review-state, .eval-graph")`) &&
		evaluate[bool](t, ctx, `!!document.querySelector(".review-ask")`) {
		click(t, ctx, ".review-ask")
	}
	poll[bool](t, ctx, "the graph", `!!document.querySelector("svg.eval-graph")`)
	if size.mobile && evaluate[bool](t, ctx, `!document.querySelector("details.review-graph").open`) {
		click(t, ctx, "details.review-graph summary")
	}
	marked := poll[int](t, ctx, "the marks in the move list", `document.querySelectorAll(".moves button.move.marked").length`)
	if marked == 0 {
		t.Fatal("no move marked in the move list")
	}
	listed := evaluate[int](t, ctx, `document.querySelectorAll(".review-marks button.review-go").length`)
	if listed != marked {
		t.Errorf("%d marked moves listed under the graph, %d marked in the move list", listed, marked)
	}
	if got := evaluate[int](t, ctx, `document.querySelectorAll(".review-seats tbody tr").length`); got != 2 {
		t.Errorf("%d rows of accuracy and counts, want 2", got)
	}
	screenshot(t, ctx, "review-"+size.name+"-light")
	checkAxe(t, ctx, "the review, "+size.name)
	b.reviewDark(t, size, id)

	// A click on the graph's column of ply 5 shows the position after 5
	// moves: the move list's current move is the fifth.
	click(t, ctx, `svg.eval-graph rect.hit[data-ply="5"]`)
	poll[bool](t, ctx, "the position after 5 moves", `document.querySelector(".moves button.move.current")?.dataset.ply === "5"`)

	// The first marked move: its button shows the position before it,
	// and the board draws the better move.
	ply := evaluate[string](t, ctx, `document.querySelector(".review-marks button.review-go").dataset.ply`)
	best := evaluate[string](t, ctx, `document.querySelector(".review-marks button.review-go").dataset.best`)
	click(t, ctx, ".review-marks button.review-go")
	n, err := strconv.Atoi(ply)
	if err != nil {
		t.Fatalf("data-ply %q: %v", ply, err)
	}
	if n == 0 {
		poll[bool](t, ctx, "the start shown", `!document.querySelector(".moves button.move.current")`)
	} else {
		poll[bool](t, ctx, "the position before the marked move", `document.querySelector(".moves button.move.current")?.dataset.ply === "`+ply+`"`)
	}
	if got := poll[string](t, ctx, "the better move's arrow", `document.querySelector("svg.board g.arrow-move.ply-0")?.dataset.move ?? ""`); got != best {
		t.Errorf("the arrow shows %q, the review's better move is %q", got, best)
	}
}

// reviewDark opens the reviewed game in a tab of size in the dark scheme
// and checks the review's colours there.
func (b *browser) reviewDark(t *testing.T, size screenSize, id string) {
	ctx := b.sizedScheme(t, size, "dark")
	run(t, ctx, chromedp.Navigate(b.url("/games/"+id)))
	poll[bool](t, ctx, "the marks in the move list", `document.querySelectorAll(".moves button.move.marked").length > 0`)
	if size.mobile && evaluate[bool](t, ctx, `!document.querySelector("details.review-graph").open`) {
		click(t, ctx, "details.review-graph summary")
	}
	checkAxeColours(t, ctx, "the review, "+size.name+", dark")
	screenshot(t, ctx, "review-"+size.name+"-dark")
}
