package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/chromedp/chromedp"
)

// TestBrowserAnalysisView drives what the analysis page shows of the
// engine, at a desktop's size and a phone's: the evaluation bar, the
// line drawn as arrows, several lines, and a FEN in the address that the
// parser refuses.
func TestBrowserAnalysisView(t *testing.T) {
	b := newBrowser(t)
	for _, size := range screenSizes {
		t.Run(size.name, func(t *testing.T) {
			t.Run("evaluation bar", func(t *testing.T) { b.evaluationBar(t, size) })
			t.Run("a won position", func(t *testing.T) { b.wonPosition(t, size) })
			t.Run("arrows", func(t *testing.T) { b.lineArrows(t, size) })
			t.Run("arrows while thinking", func(t *testing.T) { b.arrowsWhileThinking(t, size) })
			t.Run("several lines", func(t *testing.T) { b.severalLines(t, size) })
			t.Run("bad FEN", func(t *testing.T) { b.badFEN(t, size) })
			t.Run("three players", func(t *testing.T) { b.threePlayerBar(t, size) })
		})
	}
}

// analysisTab opens a tab of the given size on an analysis page.
func (b *browser) analysisTab(t *testing.T, size screenSize, path string) context.Context {
	t.Helper()
	ctx := b.sizedTab(t, size)
	run(t, ctx, chromedp.Navigate(b.url(path)))
	return ctx
}

// askEngine asks for a search of movetime ms and waits for its answer.
func askEngine(t *testing.T, ctx context.Context, ms int) string {
	t.Helper()
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#movetime`), fmt.Sprint(ms)), chromedp.Click(chromedp.CSS(`button.ask`)))
	return poll[string](t, ctx, "the engine's answer", `document.querySelector(".best[data-state=done] .best-move")?.textContent`)
}

// barState is what the evaluation bar says, and how much of it is filled.
type barState struct {
	Role      string  `json:"role"`
	State     string  `json:"state"`
	Now       float64 `json:"now"`
	Text      string  `json:"text"`
	Score     string  `json:"score"`
	Filled    float64 `json:"filled"` // the fill's share of the bar, 0 to 1
	Hidden    bool    `json:"hidden"`
	BarLeft   float64 `json:"barLeft"`
	BarBottom float64 `json:"barBottom"`
	BarHeight float64 `json:"barHeight"`
	BoardLeft float64 `json:"boardLeft"`
	BoardTop  float64 `json:"boardTop"`
	BoardW    float64 `json:"boardW"`
	BoardH    float64 `json:"boardH"`
	WindowW   float64 `json:"windowW"`
}

// readBar reads the bar once the answer of a search is shown (or none is
// asked), after its fill has had time to slide.
func readBar(t *testing.T, ctx context.Context, state string, phone bool) barState {
	t.Helper()
	poll[bool](t, ctx, "the bar "+state, fmt.Sprintf(`document.querySelector(".eval-bar")?.dataset.state === %q`, state))
	run(t, ctx, script(`document.querySelectorAll(".eval-fill").forEach((f) => f.getAnimations().forEach((a) => a.finish()))`))
	dimension := "height"
	if phone {
		dimension = "width"
	}
	return poll[barState](t, ctx, "the bar's numbers", fmt.Sprintf(`(() => {
		const bar = document.querySelector(".eval-bar"), fill = bar.querySelector(".eval-fill"), board = document.querySelector("svg.board");
		const b = bar.getBoundingClientRect(), f = fill.getBoundingClientRect(), s = board.getBoundingClientRect();
		if (s.width === 0) return null;
		return { role: bar.getAttribute("role"), state: bar.dataset.state, now: Number(bar.getAttribute("aria-valuenow")),
			text: bar.getAttribute("aria-valuetext"), score: bar.dataset.score || "", filled: f.%[1]s / b.%[1]s, hidden: bar.hidden,
			barLeft: b.left, barBottom: b.bottom, barHeight: b.height, boardLeft: s.left, boardTop: s.top, boardW: s.width, boardH: s.height,
			windowW: window.innerWidth };
	})()`, dimension))
}

// evaluationBar: the bar is empty before a search; after one it favours
// the side that is clearly winning, White (the first seat, at the bottom)
// with Black to move, then Black with White to move, its fill following
// its value; it stands beside the board on a desktop and above it on a
// phone, where the board takes the width; and it empties when the
// position changes.
func (b *browser) evaluationBar(t *testing.T, size screenSize) {
	const whiteWins = "B:a1=w,b1=w,c1=w,d1=w,e1=w,f1=w,a2=w,b2=w,h8=b"
	const blackWins = "W:a1=w,a8=b,b8=b,c8=b,d8=b,e8=b,f8=b,g8=b,h8=b"
	ctx := b.analysisTab(t, size, "/analysis/checkers-2011?fen="+url.QueryEscape(whiteWins))
	checkBoardFrom(t, ctx, "checkers-2011", whiteWins, nil)
	before := readBar(t, ctx, "none", size.mobile)
	if before.Role != "meter" || before.Now != 50 || !strings.Contains(before.Text, "ask the engine") {
		t.Errorf("the bar before a search: %+v", before)
	}
	askEngine(t, ctx, 500)
	white := readBar(t, ctx, "shown", size.mobile)
	if white.Now < 75 || !strings.HasPrefix(white.Text, "White") || strings.HasPrefix(white.Score, "-") || white.Score == "" {
		t.Errorf("White clearly winning: the bar says %+v", white)
	}
	if diff := white.Filled*100 - white.Now; diff < -2 || diff > 2 {
		t.Errorf("the bar is %.0f%% filled for a value of %.0f", white.Filled*100, white.Now)
	}
	checkBarPlace(t, white, size)
	if best := poll[string](t, ctx, "the score in words", `document.querySelector(".best .score")?.textContent`); !strings.HasPrefix(best, "White +") {
		t.Errorf("the best move's score reads %q, want White ahead", best)
	}
	screenshot(t, ctx, "analysis-bar-"+size.name)

	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#fen`), blackWins), chromedp.Click(chromedp.CSS(`button.setup`)))
	checkBoardFrom(t, ctx, "checkers-2011", blackWins, nil)
	if again := readBar(t, ctx, "none", size.mobile); again.Now != 50 {
		t.Errorf("a new position keeps the bar at %v", again.Now)
	}
	askEngine(t, ctx, 500)
	black := readBar(t, ctx, "shown", size.mobile)
	if black.Now > 25 || !strings.HasPrefix(black.Text, "Black") || !strings.HasPrefix(black.Score, "-") {
		t.Errorf("Black clearly winning: the bar says %+v", black)
	}
	if diff := black.Filled*100 - black.Now; diff < -2 || diff > 2 {
		t.Errorf("the bar is %.0f%% filled for a value of %.0f", black.Filled*100, black.Now)
	}
}

// wonPosition: a win the engine sees to the end is said in plies, and
// fills the bar for the winner: Black, to move, takes White's last man.
func (b *browser) wonPosition(t *testing.T, size screenSize) {
	const fen = "B:c3=w,c4=b"
	ctx := b.analysisTab(t, size, "/analysis/checkers-2011?fen="+url.QueryEscape(fen))
	checkBoardFrom(t, ctx, "checkers-2011", fen, nil)
	askEngine(t, ctx, 500)
	bar := readBar(t, ctx, "shown", size.mobile)
	mark := poll[string](t, ctx, "the bar's number", `document.querySelector(".eval-mark").textContent`)
	if bar.Now != 0 || bar.Filled != 0 || bar.Text != "Black wins in 1 ply" || mark != "#1" {
		t.Errorf("Black winning at once: the bar says %+v, %q", bar, mark)
	}
}

// checkBarPlace checks the layout: on a desktop the bar stands left of
// the board, as tall as it; on a phone it lies above the board, which
// takes nearly the whole width.
func checkBarPlace(t *testing.T, bar barState, size screenSize) {
	t.Helper()
	if size.mobile {
		if bar.BarBottom > bar.BoardTop+1 || bar.BoardW < 0.9*bar.WindowW {
			t.Errorf("phone: the bar ends at %.0f, the board starts at %.0f and is %.0f wide in %.0f", bar.BarBottom, bar.BoardTop, bar.BoardW, bar.WindowW)
		}
		return
	}
	if bar.BarLeft >= bar.BoardLeft || bar.BarHeight < 0.9*bar.BoardH {
		t.Errorf("desktop: the bar at %.0f, %.0f tall, the board at %.0f, %.0f tall", bar.BarLeft, bar.BarHeight, bar.BoardLeft, bar.BoardH)
	}
}

// arrowLeg is an arrow drawn on the board: its cells, where it starts and
// where its head points, and the centres of its cells, in board units.
type arrowLeg struct {
	Ply      int        `json:"ply"`
	Move     string     `json:"move"`
	From     string     `json:"from"`
	To       string     `json:"to"`
	Start    [2]float64 `json:"start"`
	Tip      [2]float64 `json:"tip"`
	FromC    [2]float64 `json:"fromC"`
	ToC      [2]float64 `json:"toC"`
	Under    string     `json:"under"` // the cell a click at the arrow's middle reaches
	Pointers string     `json:"pointers"`
}

// readArrows lists the arrows on the board.
const readArrows = `(() => {
	const svg = document.querySelector("svg.board"), ctm = svg.getScreenCTM();
	const centre = (cell) => { const b = svg.querySelector('polygon[data-cell="' + cell + '"]').getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
	return [...svg.querySelectorAll(".arrows .arrow")].map((a) => {
		const move = a.closest(".arrow-move"), shaft = a.querySelector(".arrow-shaft");
		const head = a.querySelector(".arrow-head").getAttribute("points").split(" ")[0].split(",").map(Number);
		const start = [Number(shaft.getAttribute("x1")), Number(shaft.getAttribute("y1"))];
		const mid = [(start[0] + head[0]) / 2, (start[1] + head[1]) / 2];
		const under = document.elementFromPoint(ctm.a * mid[0] + ctm.e, ctm.d * mid[1] + ctm.f);
		return { ply: Number(move.dataset.ply), move: move.dataset.move, from: a.dataset.from, to: a.dataset.to, start, tip: head,
			fromC: centre(a.dataset.from), toC: centre(a.dataset.to), under: under?.closest("[data-cell]")?.dataset.cell || (under ? under.tagName : ""),
			pointers: getComputedStyle(a).pointerEvents };
	});
})()`

// lineArrows: the engine's move, a capture of two legs (the position's
// only move), is drawn as two arrows from cell to cell, over cells a click
// still reaches; a move played clears them.
func (b *browser) lineArrows(t *testing.T, size screenSize) {
	const fen = "W:Wa1,b1,b2,b3,c1,c2,d2,d3,e1,e2,f2,g1,g2:Ba5,a6,b4,b6,b7,c4,c6,d7,e6,f5,f6,g5,g6"
	ctx := b.analysisTab(t, size, "/analysis/pommel?fen="+url.QueryEscape(fen))
	checkBoardFrom(t, ctx, "pommel", fen, nil)
	best := askEngine(t, ctx, 500)
	path := strings.FieldsFunc(best, func(r rune) bool { return r == '-' || r == 'x' })
	if best != "b3xb5xd4" {
		t.Fatalf("the engine answered %q; the position's one move is b3xb5xd4", best)
	}
	legs := poll[[]arrowLeg](t, ctx, "the arrows", `(() => { const a = `+readArrows+`; return a.length ? a : null; })()`)
	var first []arrowLeg
	for _, l := range legs {
		if l.Ply == 0 {
			first = append(first, l)
		}
	}
	if len(first) != len(path)-1 {
		t.Fatalf("the first move %s is drawn as %d arrows, want one a leg: %+v", best, len(first), first)
	}
	for i, l := range first {
		if l.From != path[i] || l.To != path[i+1] || l.Move != best {
			t.Errorf("arrow %d goes %s to %s for %s, want %s to %s", i, l.From, l.To, l.Move, path[i], path[i+1])
		}
		if dist(l.Start, l.FromC) > 0.01 || dist(l.Tip, l.ToC) > 0.2 {
			t.Errorf("arrow %d from %v to %v; its cells' centres are %v and %v", i, l.Start, l.Tip, l.FromC, l.ToC)
		}
		if l.Pointers != "none" || l.Under == "" || l.Under == "line" || l.Under == "polygon" {
			t.Errorf("arrow %d catches pointers (%s): a click at its middle reaches %q", i, l.Pointers, l.Under)
		}
	}
	screenshot(t, ctx, "analysis-arrows-"+size.name)
	click(t, ctx, `button.play-best`)
	checkBoardFrom(t, ctx, "pommel", fen, []string{best})
	poll[bool](t, ctx, "the arrows cleared", `document.querySelectorAll(".arrows .arrow").length === 0 && !document.querySelector(".best p")`)
}

// dist is the distance of two points.
func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// arrowsWhileThinking: while a long search deepens, the arrows follow the
// line shown, at each depth: the move shown is the arrows' first, and a
// ply is drawn for each move of the line, up to four.
func (b *browser) arrowsWhileThinking(t *testing.T, size screenSize) {
	ctx := b.analysisTab(t, size, "/analysis/eximo")
	checkBoard(t, ctx, "eximo", nil)
	// While the search thinks, and at two depths, the arrows draw its
	// line; a search that ended before the page showed two depths (its
	// five seconds, on a busy machine) is asked again, up to three times.
	const drawn = `(() => { const b = document.querySelector(".best"); const state = b?.dataset.state;
		if (state === "done" || state === "stopped") return { ended: true };
		const d = Number(b?.querySelector(".depth")?.textContent);
		if (state !== "thinking" || d < %d) return null;
		const line = b.querySelector(".pv").textContent.replace("Line: ", "").split(" ");
		const plies = [...document.querySelectorAll(".arrows .arrow-move")].map((g) => g.dataset.move).reverse();
		return { depth: d, line, plies }; })()`
	type shown struct {
		Ended bool     `json:"ended"`
		Depth int      `json:"depth"`
		Line  []string `json:"line"`
		Plies []string `json:"plies"`
	}
	seen := 0
	for attempt := 0; seen < 2; attempt++ {
		if attempt == 3 {
			t.Fatalf("three searches of 5 s ended before the page showed two of their depths")
		}
		run(t, ctx, script(`const b = document.querySelector(".best"); if (b) b.dataset.state = ""`),
			chromedp.SetValue(chromedp.CSS(`#movetime`), "5000"), chromedp.Click(chromedp.CSS(`button.ask`)))
		seen = 0
		for depth := 1; seen < 2; seen++ {
			s := poll[shown](t, ctx, "a line while the engine thinks", fmt.Sprintf(drawn, depth))
			if s.Ended {
				break
			}
			if want := s.Line[:min(4, len(s.Line))]; !slices.Equal(s.Plies, want) {
				t.Errorf("depth %d: the arrows draw %v, want the line's first plies %v", s.Depth, s.Plies, want)
			}
			depth = s.Depth + 1
		}
	}
	screenshot(t, ctx, "analysis-arrows-thinking-"+size.name)
	click(t, ctx, `button.stop`)
	poll[bool](t, ctx, "the stopped search", `!!document.querySelector(".best[data-state=stopped]")`)
}

// severalLines: asked for three lines, the page lists three different
// legal moves with their scores; focusing one draws its arrows.
func (b *browser) severalLines(t *testing.T, size screenSize) {
	ctx := b.analysisTab(t, size, "/analysis/pommel")
	checkBoard(t, ctx, "pommel", nil)
	if n := poll[int](t, ctx, "no list before a search", `document.querySelector(".lines").hidden && 1`); n != 1 {
		t.Fatal("the list of lines shows before a search")
	}
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#lines`), "3"), script(`document.querySelector("#lines").dispatchEvent(new Event("change"))`))
	best := askEngine(t, ctx, 500)
	type line struct {
		Move  string `json:"move"`
		Score string `json:"score"`
	}
	lines := poll[[]line](t, ctx, "the lines", `(() => { const l = [...document.querySelectorAll(".lines li")].map((li) => ({ move: li.dataset.move, score: li.querySelector(".line-score").textContent }));
		return l.length ? l : null; })()`)
	legal := game.MoveTexts(mustStart(t, "pommel"))
	if len(lines) != 3 || lines[0].Move != best {
		t.Fatalf("lines %+v, want three, the first the best move %s", lines, best)
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if !slices.Contains(legal, l.Move) || seen[l.Move] || l.Score == "" {
			t.Errorf("line %+v: want a legal move of its own, with a score", l)
		}
		seen[l.Move] = true
	}
	run(t, ctx, script(`document.querySelectorAll(".lines .play-line")[1].focus()`))
	if first := poll[string](t, ctx, "the second line's arrows", `document.querySelector('.arrows .arrow-move[data-ply="0"]')?.dataset.move === `+jsString(lines[1].Move)+` && "ok"`); first != "ok" {
		t.Errorf("focusing the second line draws %q", first)
	}
	screenshot(t, ctx, "analysis-lines-"+size.name)
	click(t, ctx, `.lines .play-line`)
	checkBoard(t, ctx, "pommel", []string{lines[0].Move})
}

// jsString writes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// badFEN: a FEN in the address that the parser refuses is said so, with
// the parser's reason (its quote of the FEN cut at 80 characters), the
// board shows the start, and the FEN stays in its box; corrected there,
// it is set up.
func (b *browser) badFEN(t *testing.T, size screenSize) {
	rules, _ := game.New("checkers-2011", nil)
	for _, bad := range []string{"garbage", strings.Repeat("x", 300)} {
		ctx := b.analysisTab(t, size, "/analysis/checkers-2011?fen="+url.QueryEscape(bad))
		checkBoard(t, ctx, "checkers-2011", nil)
		_, parseErr := rules.ParseFEN(bad)
		if parseErr == nil {
			t.Fatalf("the parser reads %q", bad)
		}
		msg := poll[string](t, ctx, "the message", `document.querySelector(".message[role=alert]")?.textContent`)
		if !strings.Contains(msg, "could not be read") || !strings.Contains(msg, parseErr.Error()) || strings.Contains(msg, strings.Repeat("x", 81)) {
			t.Errorf("fen %.20q: the page says %q, the parser %q", bad, msg, parseErr)
		}
		if box := poll[string](t, ctx, "the FEN box", `document.querySelector("#fen").value`); box != bad {
			t.Errorf("the FEN box holds %.40q, want the bad FEN", box)
		}
		if bad == "garbage" {
			screenshot(t, ctx, "analysis-bad-fen-"+size.name)
			const good = "W:a1=w,h8=b"
			run(t, ctx, chromedp.SetValue(chromedp.CSS(`#fen`), good), chromedp.Click(chromedp.CSS(`button.setup`)))
			checkBoardFrom(t, ctx, "checkers-2011", good, nil)
			poll[bool](t, ctx, "the message gone", `document.querySelector(".message").textContent === ""`)
		}
	}
}

// threePlayerBar: with three players the engine gives one number, so the
// bar gives way to a note saying so, and the score is said in words.
func (b *browser) threePlayerBar(t *testing.T, size screenSize) {
	ctx := b.analysisTab(t, size, "/analysis/punt-heks-match-3p")
	checkBoard(t, ctx, "punt-heks-match-3p", nil)
	askEngine(t, ctx, 500)
	note := poll[string](t, ctx, "the note", `document.querySelector(".eval-bar").hidden && document.querySelector(".eval-note").checkVisibility() && document.querySelector(".eval-note").textContent`)
	if !strings.Contains(note, "3 players") || !strings.Contains(note, "one number") {
		t.Errorf("the note reads %q", note)
	}
	if score := poll[string](t, ctx, "the score", `document.querySelector(".best .score")?.textContent`); !strings.HasPrefix(score, "White ") {
		t.Errorf("the score reads %q, want it said for White, to move", score)
	}
	// Each ply's arrows are the mover's (every third ply) or the others'.
	plies := poll[[]string](t, ctx, "the arrows", `(() => { const g = [...document.querySelectorAll(".arrows .arrow-move")].reverse();
		return g.length ? g.map((e) => e.dataset.ply + (e.classList.contains("mover") ? " mover" : " reply")) : null; })()`)
	for i, p := range plies {
		if want := map[bool]string{true: " mover", false: " reply"}[i%3 == 0]; p != fmt.Sprint(i)+want {
			t.Errorf("arrows of ply %d drawn as %q, want %q", i, p, fmt.Sprint(i)+want)
		}
	}
	screenshot(t, ctx, "analysis-3p-"+size.name)
}
