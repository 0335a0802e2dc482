package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// screenSize is a window the pages are tried at.
type screenSize struct {
	name          string
	width, height int64
	mobile        bool
}

var screenSizes = []screenSize{{"desktop", 1280, 800, false}, {"phone", 390, 844, true}}

// sizedTab is a tab of a person of its own at size.
func (b *browser) sizedTab(t *testing.T, size screenSize) context.Context {
	t.Helper()
	ctx := b.tab(t, true)
	opts := []chromedp.EmulateViewportOption{}
	if size.mobile {
		opts = append(opts, chromedp.EmulateScale(phoneScale()), chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	run(t, ctx, chromedp.EmulateViewport(size.width, size.height, opts...))
	return ctx
}

// TestBrowserGame plays on the game page as people do, at a desktop's and
// at a phone's size: the page keeps the board in view, labels and pairs
// the moves by who made them, shows who plays, ends with a rematch, tells
// a link without its token, and plays by keyboard alone.
func TestBrowserGame(t *testing.T) {
	b := newBrowser(t)
	for _, size := range screenSizes {
		t.Run(size.name, func(t *testing.T) {
			t.Run("the page stays put", func(t *testing.T) { b.pageStaysPut(t, size) })
			t.Run("moves by who made them", func(t *testing.T) { b.moverLabels(t, size) })
			t.Run("players and the end", func(t *testing.T) { b.playersAndEnd(t, size) })
			t.Run("a link without its token", func(t *testing.T) { b.lostToken(t, size) })
			t.Run("keyboard alone", func(t *testing.T) { b.keyboardAlone(t, size) })
			t.Run("every game by click and drag", func(t *testing.T) { b.clickAndDrag(t, size) })
			t.Run("what a capture takes", func(t *testing.T) { b.captureTaking(t, size) })
			t.Run("clock tenths", func(t *testing.T) { b.clockTenths(t, size) })
		})
	}
	t.Run("sounds and mute", b.soundsAndMute)
	t.Run("stepping through the moves", b.stepping)
	t.Run("the move box's example", b.moveBoxExample)
	t.Run("the AI thinking", b.aiThinking)
	t.Run("first render", b.firstRender)
}

// aiThinking: while the AI searches its answer, its strip says it is
// thinking and the status names it; its move ends both.
func (b *browser) aiThinking(t *testing.T) {
	// ab without a level thinks for the server's --ai-movetime, a second.
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ab"}})
	ctx := b.playerTab(t, screenSizes[0], resp, 0)
	clickMove(t, ctx, b.ts.game(resp.ID).Legal[0])
	poll[bool](t, ctx, "the AI thinking", `!!document.querySelector('.player[data-seat="1"] .thinking') &&
		document.querySelector(".status .turn")?.textContent === "Black (engine ab) is thinking…"`)
	b.waitPly(t, resp.ID, 2)
	poll[bool](t, ctx, "the AI's move", `document.querySelectorAll(".moves button.move").length === 2 && !document.querySelector(".player .thinking")`)
}

// firstRender measures, for docs/server.md, how long a game page takes
// from the navigation to its board drawn (the page's "board-drawn" mark),
// over five fresh loads at each size. It reports; speed is not asserted
// in a test, so it runs only with -measure or -screenshots.
func (b *browser) firstRender(t *testing.T) {
	skipUnlessMeasuring(t)
	resp := b.ts.twoHumans()
	for ply := range 20 {
		if code, msg := b.ts.move(resp.ID, resp.Seats[ply%2].Token, b.ts.game(resp.ID).Legal[0], ply); code != http.StatusOK {
			t.Fatalf("move %d: %d %s", ply, code, msg)
		}
	}
	// Five fresh tabs for the median the docs give.
	for _, size := range screenSizes {
		var times []float64
		for range 5 {
			ctx := b.sizedTab(t, size)
			run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
			ms := poll[float64](t, ctx, "the board drawn", `performance.getEntriesByName("board-drawn")[0]?.startTime`)
			times = append(times, ms)
		}
		slices.Sort(times)
		t.Logf("%s: the board drawn %.0f ms after the navigation (median of %d fresh tabs; min %.0f, max %.0f)",
			size.name, times[len(times)/2], len(times), times[0], times[len(times)-1])
	}
}

// playerTab opens a seat's invite links in one tab, so that the browser
// holds those seats (a friend at the same screen holds both).
func (b *browser) playerTab(t *testing.T, size screenSize, resp hall.Created, seats ...int) context.Context {
	t.Helper()
	ctx := b.sizedTab(t, size)
	for _, s := range seats {
		run(t, ctx, chromedp.Navigate(b.url(resp.Seats[s].URL)))
		poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon").length > 0`)
	}
	return ctx
}

// pageStaysPut: ten moves clicked on a phone leave the window where it
// was (only the move list scrolls), and a game opened mid-play lands at
// the top with the board in view.
func (b *browser) pageStaysPut(t *testing.T, size screenSize) {
	resp := b.ts.twoHumans()
	ctx := b.playerTab(t, size, resp, 1, 0)
	for ply := range 10 {
		g := b.ts.game(resp.ID)
		clickMove(t, ctx, g.Legal[0])
		b.waitPly(t, resp.ID, ply+1)
		poll[bool](t, ctx, "the move listed", fmt.Sprintf(`document.querySelectorAll(".moves button.move").length === %d`, ply+1))
	}
	if y := poll[float64](t, ctx, "the scroll", `window.scrollY + 1`) - 1; y != 0 {
		t.Errorf("%s: after 10 moves the window is scrolled by %v px", size.name, y)
	}
	screenshot(t, ctx, "game-10-moves-"+size.name)

	g := b.ts.game(resp.ID)
	for ply := g.Ply; ply < 30; ply++ {
		if code, msg := b.ts.move(resp.ID, resp.Seats[ply%2].Token, b.ts.game(resp.ID).Legal[0], ply); code != http.StatusOK {
			t.Fatalf("move %d: %d %s", ply, code, msg)
		}
	}
	watcher := b.sizedTab(t, size)
	run(t, watcher, chromedp.Navigate(b.url(resp.URL)))
	poll[bool](t, watcher, "the moves", `document.querySelectorAll(".moves button.move").length === 30`)
	if y := poll[float64](t, watcher, "the scroll", `window.scrollY + 1`) - 1; y != 0 {
		t.Errorf("%s: a game opened mid-play lands scrolled by %v px", size.name, y)
	}
	// The whole board is on the screen: its top below the header, its
	// bottom above the window's.
	box := poll[map[string]float64](t, watcher, "the board's box", `(() => { const r = document.querySelector("svg.board").getBoundingClientRect(); return {top: r.top, bottom: r.bottom, width: r.width}; })()`)
	if box["top"] < 0 || box["bottom"] > float64(size.height)+1 {
		t.Errorf("%s: the board spans %v to %v px of a %d px window", size.name, box["top"], box["bottom"], size.height)
	}
	// On a desktop the player's strip under the board is on the screen too.
	if below := poll[float64](t, watcher, "the lower strip", `document.querySelector(".players.below").getBoundingClientRect().bottom`); !size.mobile && below > float64(size.height)+1 {
		t.Errorf("desktop: the player's strip ends at %v px in a %d px window", below, size.height)
	}
	if size.mobile && box["width"] < 0.9*float64(size.width) {
		t.Errorf("phone: the board is %v px wide in a %d px window", box["width"], size.width)
	}
	screenshot(t, watcher, "game-mid-play-"+size.name)
}

// moverLabels: a game set up with Black to move lists Black's first move
// as "1... m" and White's answer as "2. m", as records are written.
func (b *browser) moverLabels(t *testing.T, size screenSize) {
	fen := "B:Wa1,a2,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6"
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "fen": fen})
	var moves []string
	for ply := range 3 {
		g := b.ts.game(resp.ID)
		seat := 1 - ply%2
		if g.ToMove != seat {
			t.Fatalf("ply %d: seat %d to move, want %d", ply, g.ToMove, seat)
		}
		if code, msg := b.ts.move(resp.ID, resp.Seats[seat].Token, g.Legal[0], ply); code != http.StatusOK {
			t.Fatalf("move %d: %d %s", ply, code, msg)
		}
		moves = append(moves, g.Legal[0])
	}
	ctx := b.sizedTab(t, size)
	run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
	rows := poll[[][]string](t, ctx, "the move list", `(() => { const rows = [...document.querySelectorAll(".moves .turn")];
		return rows.length === 2 ? rows.map((r) => [...r.children].map((c) => c.textContent)) : null; })()`)
	want := [][]string{{"1.", "…", moves[0]}, {"2.", moves[1], moves[2]}}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("the move list reads %q, want %q", rows, want)
	}
	label := poll[string](t, ctx, "the first move's label", `document.querySelector(".moves button.move")?.getAttribute("aria-label")`)
	if label != "1, Black: "+moves[0] {
		t.Errorf("the first move is labelled %q", label)
	}
}

// playersAndEnd: the page names both players, the AI's strip at the top
// and the player's below; after resigning it says who won and why, and a
// rematch starts the game again with the colours swapped.
func (b *browser) playersAndEnd(t *testing.T, size screenSize) {
	resp := b.ts.create(map[string]any{"game": "checkers-2011", "seats": []string{"human", "ai:level=1"}, "names": []string{"Ann"}})
	ctx := b.playerTab(t, size, resp, 0)
	title := poll[string](t, ctx, "the heading", `document.querySelector("header h1")?.textContent`)
	if title != "Checkers 2011: White (Ann) vs Black (AI level 1)" {
		t.Errorf("the heading is %q", title)
	}
	strips := poll[[]string](t, ctx, "the players", `(() => { const s = [...document.querySelectorAll(".players .player .name")].map((e) => e.textContent); return s.length === 2 ? s : null; })()`)
	if !slices.Equal(strips, []string{"AI level 1", "Ann"}) {
		t.Errorf("the strips above and below the board name %q", strips)
	}
	layout := poll[map[string]float64](t, ctx, "the layout", `(() => { const a = document.querySelector(".board-area").getBoundingClientRect(), s = document.querySelector("aside.side").getBoundingClientRect();
		return {areaRight: a.right, areaBottom: a.bottom, sideLeft: s.left, sideTop: s.top}; })()`)
	if size.mobile && layout["sideTop"] < layout["areaBottom"]-1 {
		t.Errorf("phone: the controls start at %v px, above the board's bottom %v", layout["sideTop"], layout["areaBottom"])
	}
	if !size.mobile && layout["sideLeft"] < layout["areaRight"]-1 {
		t.Errorf("desktop: the moves are not beside the board (%v)", layout)
	}
	click(t, ctx, `button.resign`) // the page may redraw meanwhile (a seat arrived): click tries again
	click(t, ctx, `dialog.confirm .confirm-yes`)
	end := poll[string](t, ctx, "the result", `!document.querySelector(".end").hidden && document.querySelector(".end h2")?.textContent`)
	if end != "You lost" {
		t.Errorf("after resigning the page says %q", end)
	}
	g := b.ts.game(resp.ID)
	if reason := poll[string](t, ctx, "the reason", `document.querySelector(".end .end-reason")?.textContent`); reason != g.Description {
		t.Errorf("the end says %q; the game ended %q", reason, g.Description)
	}
	if href := poll[string](t, ctx, "the new-game link", `document.querySelector(".end a.new-game")?.getAttribute("href")`); href != "/?game=checkers-2011" {
		t.Errorf("New game opens %q", href)
	}
	screenshot(t, ctx, "game-end-"+size.name)
	click(t, ctx, `.end button.rematch`)
	path := poll[string](t, ctx, "the rematch", fmt.Sprintf(`location.pathname !== "/play/%s" && location.pathname.startsWith("/play/") && document.querySelector(".status .you")?.textContent === "You play Black" && location.pathname + location.search`, resp.ID))
	id := strings.TrimPrefix(strings.Split(path, "?")[0], "/play/")
	again := b.ts.game(id)
	if again.Game != "checkers-2011" || again.Seats[0].Player != "ai:level=1" || again.Seats[1].Player != "human" || again.Seats[1].Name != "Ann" {
		t.Errorf("the rematch is %s with seats %+v", again.Game, again.Seats)
	}
}

// lostToken: a seat's link opened without its token shows the game to
// watch, and says why and how to get the seat back.
func (b *browser) lostToken(t *testing.T, size screenSize) {
	resp := b.ts.twoHumans()
	ctx := b.sizedTab(t, size)
	run(t, ctx, chromedp.Navigate(b.url(fmt.Sprintf("/play/%s?seat=0", resp.ID))))
	notice := poll[string](t, ctx, "the notice", `!document.querySelector(".notice").hidden && document.querySelector(".notice").textContent`)
	for _, want := range []string{"you are watching", "invite link"} {
		if !strings.Contains(notice, want) {
			t.Errorf("the notice %q does not say %q", notice, want)
		}
	}
	if hidden := poll[string](t, ctx, "the move box", `String(document.querySelector("form.typed").hidden)`); hidden != "true" {
		t.Error("a watcher is offered the move box")
	}
	screenshot(t, ctx, "game-no-token-"+size.name)
	// The same link with its token shows no notice.
	mine := b.sizedTab(t, size)
	run(t, mine, chromedp.Navigate(b.url(resp.Seats[0].URL)))
	poll[bool](t, mine, "the turn", `document.querySelector(".status .turn")?.textContent === "Your move"`)
	if shown := poll[string](t, mine, "the notice", `String(document.querySelector(".notice").hidden)`); shown != "true" {
		t.Error("the notice shows to the seat's holder")
	}
}

// cellCentres reads where each cell is drawn.
const cellCentres = `Object.fromEntries([...document.querySelectorAll("svg.board polygon[data-cell]")].map((p) => {
	const r = p.getBoundingClientRect(); return [p.dataset.cell, [r.x + r.width / 2, r.y + r.height / 2]]; }))`

// keyTo moves the keyboard's focus on the board to cell with the arrow
// keys, the way a person who sees the board would.
func keyTo(t *testing.T, ctx context.Context, cell string) {
	t.Helper()
	centres := poll[map[string][]float64](t, ctx, "the cells", cellCentres)
	for range 40 {
		at := poll[string](t, ctx, "the focused cell", `document.activeElement?.dataset?.cell ?? "none"`)
		if at == cell {
			return
		}
		from, to := centres[at], centres[cell]
		if from == nil || to == nil {
			t.Fatalf("the focus is on %q, not on a cell", at)
		}
		dx, dy := to[0]-from[0], to[1]-from[1]
		key := kb.ArrowRight
		switch {
		case math.Abs(dy) >= math.Abs(dx) && dy < 0:
			key = kb.ArrowUp
		case math.Abs(dy) >= math.Abs(dx):
			key = kb.ArrowDown
		case dx < 0:
			key = kb.ArrowLeft
		}
		run(t, ctx, chromedp.KeyEvent(key))
	}
	t.Fatalf("the arrows did not reach %s", cell)
}

// keyboardAlone: Tab reaches the board, the arrows walk its cells, Enter
// picks the piece and its landing; the move is played and a screen
// reader hears it.
func (b *browser) keyboardAlone(t *testing.T, size screenSize) {
	resp := b.ts.twoHumans()
	ctx := b.playerTab(t, size, resp, 0)
	g := b.ts.game(resp.ID)
	move := g.Legal[len(g.Legal)/2]
	from, to, _ := strings.Cut(move, "-")
	for range 60 {
		if poll[string](t, ctx, "the focus", `document.activeElement?.dataset?.cell ?? "-"`) != "-" {
			break
		}
		run(t, ctx, chromedp.KeyEvent(kb.Tab))
	}
	keyTo(t, ctx, from)
	run(t, ctx, chromedp.KeyEvent(kb.Enter))
	poll[bool](t, ctx, "the landings", `document.querySelectorAll("svg.board polygon.target").length > 0`)
	keyTo(t, ctx, to)
	run(t, ctx, chromedp.KeyEvent(kb.Enter))
	if g = b.waitPly(t, resp.ID, 1); g.Moves[0] != move {
		t.Fatalf("the keys played %q, want %q", g.Moves[0], move)
	}
	heard := poll[string](t, ctx, "the announcement", `document.querySelector("[aria-live=polite].sr-only")?.textContent`)
	if heard != "White played "+move+"." {
		t.Errorf("a screen reader hears %q", heard)
	}
	if at := poll[string](t, ctx, "the focus after the move", `document.activeElement?.dataset?.cell ?? "none"`); at != to {
		t.Errorf("after the move the focus is on %q, want %q where the piece went", at, to)
	}
}

// captureTaking: while a capture with several landings is built, the
// board draws its path and crosses out the pieces its legs so far take,
// before it is played.
func (b *browser) captureTaking(t *testing.T, size screenSize) {
	moves, target := findMove(t, "pommel-76", func(m string) bool { return strings.Contains(m, "x") && landings(m) >= 2 })
	resp := b.ts.create(map[string]any{"game": "pommel-76", "seats": []string{"human", "human"}})
	for ply, m := range moves {
		if code, msg := b.ts.move(resp.ID, resp.Seats[ply%2].Token, m, ply); code != http.StatusOK {
			t.Fatalf("move %s: %d %s", m, code, msg)
		}
	}
	code, body := b.ts.do("GET", fmt.Sprintf("/api/games/%s/effects?move=%s", resp.ID, url.QueryEscape(target)), "", nil)
	var fx game.Effects
	if err := json.Unmarshal(body, &fx); code != http.StatusOK || err != nil {
		t.Fatalf("the preview of %s: %d %s", target, code, body)
	}
	var firstLeg []string
	for _, c := range fx.Captured {
		if c.Leg == 1 {
			firstLeg = append(firstLeg, c.Cell)
		}
	}
	ctx := b.playerTab(t, size, resp, len(moves)%2)
	cells := strings.FieldsFunc(target, func(r rune) bool { return r == '-' || r == 'x' })
	clickCell(t, ctx, cells[0])
	clickCell(t, ctx, cells[1])
	poll[bool](t, ctx, "the path", `!!document.querySelector("svg.board .move-path .path-line")`)
	taking := poll[[]string](t, ctx, "the pieces taken", `(() => { const c = [...document.querySelectorAll("svg.board [data-taking]")].map((e) => e.dataset.taking); return c.length ? c.sort() : null; })()`)
	slices.Sort(firstLeg)
	if !slices.Equal(taking, firstLeg) {
		t.Errorf("after %s-%s the board crosses out %q; the first leg of %s takes %q", cells[0], cells[1], taking, target, firstLeg)
	}
	screenshot(t, ctx, "game-capture-building-"+size.name)
	if g := b.ts.game(resp.ID); g.Ply != len(moves) {
		t.Errorf("building the capture played a move (ply %d)", g.Ply)
	}
}

// soundsAndMute: the opponent's move sounds; the mute switch silences
// the next and is remembered through a reload.
func (b *browser) soundsAndMute(t *testing.T) {
	resp := b.ts.twoHumans()
	ctx := b.playerTab(t, screenSizes[0], resp, 0)
	g := b.ts.game(resp.ID)
	if code, msg := b.ts.move(resp.ID, resp.Seats[0].Token, g.Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, msg)
	}
	poll[bool](t, ctx, "the move's sound", `document.body.dataset.sound === "move"`)
	click(t, ctx, `button.mute`)
	poll[bool](t, ctx, "muted", `document.querySelector("button.mute")?.getAttribute("aria-pressed") === "false"`)
	run(t, ctx, chromedp.Reload())
	poll[bool](t, ctx, "still muted after a reload", `document.querySelector("button.mute")?.getAttribute("aria-pressed") === "false"`)
	g = b.ts.game(resp.ID)
	if code, msg := b.ts.move(resp.ID, resp.Seats[1].Token, g.Legal[0], 1); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, msg)
	}
	poll[bool](t, ctx, "the move listed", `document.querySelectorAll(".moves button.move").length === 2`)
	if s := poll[string](t, ctx, "the sound", `JSON.stringify(document.body.dataset.sound ?? null)`); s != `""` {
		t.Errorf("muted, the page sounded %q", s)
	}
}

// clockTenths: under ten seconds the running clock shows tenths and
// turns red.
func (b *browser) clockTenths(t *testing.T, size screenSize) {
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "11s+0s"})
	g := b.ts.game(resp.ID)
	if code, msg := b.ts.move(resp.ID, resp.Seats[0].Token, g.Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, msg)
	}
	ctx := b.sizedTab(t, size)
	run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
	text := poll[string](t, ctx, "tenths", `(() => { const c = document.querySelector('.clock.running[data-seat="1"]'); return c && /^\d\.\d$/.test(c.textContent) && c.classList.contains("low") && c.textContent; })()`)
	if s := clockSeconds(t, text); s >= 10 {
		t.Errorf("the clock shows %q", text)
	}
	if other := poll[string](t, ctx, "White's clock", `document.querySelector('.clock[data-seat="0"]')?.textContent`); !regexp.MustCompile(`^\d+(\.\d|:\d\d)$`).MatchString(other) {
		t.Errorf("White's clock shows %q", other)
	}
	screenshot(t, ctx, "game-clock-low-"+size.name)
}

// stepping: ← and → step through the moves, Home goes to the start, End
// back to the game, and a click on a move shows the position after it.
func (b *browser) stepping(t *testing.T) {
	resp := b.ts.twoHumans()
	for ply := range 6 {
		if code, msg := b.ts.move(resp.ID, resp.Seats[ply%2].Token, b.ts.game(resp.ID).Legal[0], ply); code != http.StatusOK {
			t.Fatalf("move %d: %d %s", ply, code, msg)
		}
	}
	g := b.ts.game(resp.ID)
	ctx := b.sizedTab(t, screenSizes[0])
	run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
	checkBoard(t, ctx, "pommel", g.Moves)
	const history = `document.querySelector(".status .history")?.textContent ?? "live"`
	for _, step := range []struct {
		key  string
		want string
	}{
		{kb.ArrowLeft, "Showing the position after 5 of 6 moves"},
		{kb.ArrowLeft, "Showing the position after 4 of 6 moves"},
		{kb.ArrowRight, "Showing the position after 5 of 6 moves"},
		{kb.Home, "Showing the position after 0 of 6 moves"},
		{kb.End, "live"},
	} {
		run(t, ctx, chromedp.KeyEvent(step.key))
		poll[bool](t, ctx, step.want, fmt.Sprintf(`(%s) === %q`, history, step.want))
	}
	click(t, ctx, `.moves button[data-ply="3"]`)
	poll[bool](t, ctx, "the third move's position", fmt.Sprintf(`(%s) === "Showing the position after 3 of 6 moves"`, history))
	checkBoard(t, ctx, "pommel", g.Moves[:3])
}

// moveBoxExample: the move box's example is a legal move of the game on
// the page, not Pommel's in every game.
func (b *browser) moveBoxExample(t *testing.T) {
	resp := b.ts.create(map[string]any{"game": "eximo", "seats": []string{"human", "human"}})
	g := b.ts.game(resp.ID)
	ctx := b.playerTab(t, screenSizes[0], resp, g.ToMove)
	if got := poll[string](t, ctx, "the example", `document.querySelector("#typed-move")?.placeholder`); got != "e.g. "+g.Legal[0] {
		t.Errorf("the move box's example is %q; want a move of eximo, %q", got, "e.g. "+g.Legal[0])
	}
}

// TestPreviewEffects: GET /api/games/{id}/effects?move= tells what a legal
// move of the current position would take without playing it, and
// refuses a move that is not legal, quoting at most 80 characters of it.
func TestPreviewEffects(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	resp := ts.twoHumans()
	g := ts.game(resp.ID)
	code, body := ts.do("GET", fmt.Sprintf("/api/games/%s/effects?move=%s", resp.ID, url.QueryEscape(g.Legal[0])), "", nil)
	var fx game.Effects
	if err := json.Unmarshal(body, &fx); code != http.StatusOK || err != nil || fx.Move != g.Legal[0] {
		t.Fatalf("the preview of %s: %d %s", g.Legal[0], code, body)
	}
	if after := ts.game(resp.ID); after.Ply != 0 || after.Version != g.Version {
		t.Errorf("a preview changed the game: ply %d, version %d", after.Ply, after.Version)
	}
	long := strings.Repeat("a1-", 5000) + "a3"
	code, body = ts.do("GET", fmt.Sprintf("/api/games/%s/effects?move=%s", resp.ID, url.QueryEscape(long)), "", nil)
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "illegal_move") || len(body) > 400 {
		t.Errorf("an illegal move's preview: %d %.200s (%d bytes)", code, body, len(body))
	}
	code, _ = ts.do("GET", "/api/games/nope/effects?move=a1-a3", "", nil)
	if code != http.StatusNotFound {
		t.Errorf("a preview in no game: %d", code)
	}
}

// clickAndDrag plays every game on the page, a move clicked and then a
// move dragged, by a person holding every seat at this screen.
func (b *browser) clickAndDrag(t *testing.T, size screenSize) {
	for _, d := range game.All() {
		t.Run(d.ID, func(t *testing.T) {
			seats := make([]string, d.Players)
			all := make([]int, d.Players)
			for i := range seats {
				seats[i], all[i] = "human", i
			}
			resp := b.ts.create(map[string]any{"game": d.ID, "seats": seats})
			ctx := b.playerTab(t, size, resp, all...)
			g := b.ts.game(resp.ID)
			clickMove(t, ctx, g.Legal[0])
			g = b.waitPly(t, resp.ID, 1)
			checkBoard(t, ctx, d.ID, g.Moves)
			move := ""
			for _, m := range g.Legal {
				if landings(m) == 1 && !strings.Contains(m, "@") {
					move = m
					break
				}
			}
			if move == "" {
				t.Fatalf("%s: no move of one step to drag among %q", d.ID, g.Legal)
			}
			cells := strings.FieldsFunc(move, func(r rune) bool { return r == '-' || r == 'x' })
			run(t, ctx, chromedp.DragAndDrop(chromedp.CSS(fmt.Sprintf(`svg.board polygon[data-cell=%q]`, cells[0])), chromedp.CSS(fmt.Sprintf(`svg.board polygon[data-cell=%q]`, cells[1]))))
			// A drag that leaves several moves matching offers them as buttons.
			if choice := fmt.Sprintf(`.choices button[data-move=%q]`, move); poll[bool](t, ctx, "the drag's outcome", fmt.Sprintf(`!!document.querySelector(%q) || document.querySelectorAll(".moves button.move").length === 2`, choice)) {
				run(t, ctx, script(fmt.Sprintf(`document.querySelector(%q)?.click()`, choice)))
			}
			g = b.waitPly(t, resp.ID, 2)
			if g.Moves[1] != move {
				t.Errorf("%s: dragging %s to %s played %s", d.ID, cells[0], cells[1], g.Moves[1])
			}
			checkBoard(t, ctx, d.ID, g.Moves)
			if y := poll[float64](t, ctx, "the scroll", `window.scrollY + 1`) - 1; y != 0 {
				t.Errorf("%s %s: the window scrolled by %v px", d.ID, size.name, y)
			}
			screenshot(t, ctx, fmt.Sprintf("game-%s-%s", d.ID, size.name))
		})
	}
}
