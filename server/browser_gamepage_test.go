package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/hall"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserGamePage drives the game page as a player on a phone and a
// desktop: exact clocks, the board at the top of a phone's screen, draw
// offers and the result over the board, the focus ring, clicks that
// complete a capture, the AI's answer to a draw, an invite's arrival.
func TestBrowserGamePage(t *testing.T) {
	b := newBrowser(t)
	t.Run("clock after stepping", b.clockAfterStepping)
	t.Run("phone layout", b.phoneLayout)
	t.Run("one-row header", b.oneRowHeader)
	t.Run("analysis on a phone", b.analysisOnPhone)
	t.Run("focus ring for the keyboard", b.focusRingForKeyboard)
	t.Run("focus kept through the opponent's move", b.focusKeptThroughMoves)
	t.Run("auto-completed capture", b.autoCompletedCapture)
	t.Run("the AI answers a draw", b.aiAnswersDraw)
	t.Run("invite arrives", b.inviteArrives)
	t.Run("pictures", b.gamePagePictures)
}

// phone and desktop are the sizes the game page is checked at.
var (
	phone   = screenSize{"phone", 390, 844, true}
	desktop = screenSize{"desktop", 1280, 800, false}
)

// sizedScheme is a fresh tab (another person) of size, in scheme
// ("light" or "dark").
func (b *browser) sizedScheme(t *testing.T, size screenSize, scheme string) context.Context {
	t.Helper()
	ctx := b.tab(t, true)
	scale := 1.0
	if size.mobile {
		scale = phoneScale()
	}
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: size.width, Height: size.height, DeviceScaleFactor: scale, Mobile: size.mobile}); err != nil {
		t.Fatal(err)
	}
	prefersScheme(t, ctx, scheme)
	return ctx
}

// bothSeats opens g in ctx holding every seat, as two people at one
// screen do: each seat's link is opened in turn, the last one's shown.
func (b *browser) bothSeats(t *testing.T, ctx context.Context, g hall.Created) {
	t.Helper()
	for _, s := range g.Seats {
		run(t, ctx, chromedp.Navigate(b.url(s.URL)))
		poll[bool](t, ctx, "the board", `location.hash === "" && document.querySelectorAll("svg.board polygon[data-cell]").length > 0`)
	}
}

// serverLeftMs is seat's time left as the server has it now.
func (b *browser) serverLeftMs(t *testing.T, id string, seat int) int64 {
	t.Helper()
	return b.ts.game(id).Clock.LeftMs[seat]
}

// clockAfterStepping: two people at one screen on a 3+2 clock play two
// moves and wait; stepping back a move and to the live position again
// (← then End) leaves the running clock where the server has it, within
// 0.3 s, where it used to jump back to its value at the last move.
func (b *browser) clockAfterStepping(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "3m+2s"})
	for ply := range 2 {
		v := b.ts.game(g.ID)
		if code, msg := b.ts.move(g.ID, g.Seats[v.ToMove].Token, v.Legal[0], ply); code != http.StatusOK {
			t.Fatalf("move: %d %s", code, msg)
		}
	}
	ctx := b.sizedScheme(t, desktop, "light")
	b.bothSeats(t, ctx, g)
	const running = `document.querySelector('.clock.running[data-seat="0"]')?.textContent`
	poll[string](t, ctx, "White's clock running", running)
	time.Sleep(4 * time.Second) // the time the old page lost on each redraw
	run(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
	poll[bool](t, ctx, "the earlier position", `!!document.querySelector(".status .history")`)
	run(t, ctx, chromedp.KeyEvent(kb.End))
	poll[bool](t, ctx, "the live position", `!document.querySelector(".status .history")`)
	// A page whose renderer a busy machine starved shows a figure a
	// moment old: a reading out of range is taken again, up to ten times,
	// so that only a clock that stays wrong (the redraw's 4 s) fails.
	for range 3 {
		for try := 1; ; try++ {
			shown, before, after, ok := b.clockReading(t, ctx, g.ID, running)
			if ok {
				break
			}
			if try == 10 {
				t.Fatalf("the page shows %d s on White's clock; the server has %.1f s to %.1f s", shown, float64(before)/1000, float64(after)/1000)
			}
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// clockReading reads White's clock on the page between two readings of
// the server's; ok reports whether it is within 0.3 s of them. The page
// shows whole seconds (floor): within 0.3 s of the server's figure, the
// figure shown lies in (after-1.3, before+0.3].
func (b *browser) clockReading(t *testing.T, ctx context.Context, id, running string) (shown int, before, after int64, ok bool) {
	before = b.serverLeftMs(t, id, 0)
	shown = clockSeconds(t, poll[string](t, ctx, "White's clock", running))
	after = b.serverLeftMs(t, id, 0)
	low, high := float64(after)/1000-1.3, float64(before)/1000+0.3
	return shown, before, after, float64(shown) > low && float64(shown) <= high
}

// phoneLayout: on a phone, in a game between two people, the header is
// one row, the board starts within 120 px of the top, and a draw offered
// to the player and then the result are in view without scrolling.
func (b *browser) phoneLayout(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "names": []string{"alice", "bob"}, "clock": "10m+5s"})
	alice := b.sizedScheme(t, phone, "light")
	run(t, alice, chromedp.Navigate(b.url(g.Seats[0].URL)))
	bob := b.sizedScheme(t, phone, "light")
	run(t, bob, chromedp.Navigate(b.url(g.Seats[1].URL)))
	for _, ctx := range []context.Context{alice, bob} {
		poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon[data-cell]").length > 0`)
		if top := evaluate[float64](t, ctx, `document.querySelector("svg.board").getBoundingClientRect().top + scrollY`); top > 120 {
			t.Errorf("phone: the board's top is %.0f px down the page, want 120 at most", top)
		}
	}
	// The bar at the bottom of the screen: the steps, draw and resign.
	inView(t, alice, "the bar", ".play-bar")
	if bar := evaluate[string](t, alice, `[...document.querySelectorAll(".play-bar button")].map((b) => b.className).join(",")`); bar != "bar-back,bar-forward,offer,resign danger" {
		t.Errorf("phone: the bar holds %q", bar)
	}
	if code, body := b.ts.do("POST", "/api/games/"+g.ID+"/draw", g.Seats[0].Token, map[string]string{"action": "offer"}); code != http.StatusOK {
		t.Fatalf("offer: %d %s", code, body)
	}
	poll[bool](t, bob, "Bob's Accept", `!!document.querySelector("button.accept")`)
	inView(t, bob, "the draw offer's Accept", "button.accept")
	inView(t, bob, "the draw offer's Decline", "button.decline")
	if text := evaluate[string](t, bob, `document.querySelector(".offer").textContent`); !strings.Contains(text, "alice") || !strings.Contains(text, "offers a draw") {
		t.Errorf("the offer's banner reads %q", text)
	}
	screenshot(t, bob, "gamepage-offer-phone")
	click(t, bob, "button.accept")
	for _, ctx := range []context.Context{alice, bob} {
		poll[bool](t, ctx, "the result", `!document.querySelector(".end").hidden && !!document.querySelector(".end h2")`)
		inView(t, ctx, "the result", ".end")
		inView(t, ctx, "the rematch", ".end button.rematch")
		// No name cut at the end (it was "bob…").
		cut := evaluate[[]string](t, ctx, `[...document.querySelectorAll(".player .who")].filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => w.textContent)`)
		if len(cut) > 0 {
			t.Errorf("phone: names cut at the end: %q", cut)
		}
	}
	screenshot(t, bob, "gamepage-end-phone")
	// The result closes, to see the board; the status still says it.
	click(t, bob, ".end button.end-close")
	poll[bool](t, bob, "the result closed", `document.querySelector(".end").hidden`)
}

// inView checks that the element sel finds lies wholly within the window
// as the page is, unscrolled.
func inView(t *testing.T, ctx context.Context, what, sel string) {
	t.Helper()
	r := evaluate[map[string]float64](t, ctx, fmt.Sprintf(`(() => { window.scrollTo(0, 0); const r = document.querySelector(%q).getBoundingClientRect();
		return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: innerHeight, width: innerWidth }; })()`, sel))
	if r["top"] < 0 || r["bottom"] > r["height"] || r["left"] < 0 || r["right"] > r["width"] {
		t.Errorf("%s is not in view without scrolling: %v", what, r)
	}
}

// oneRowHeader: on a phone every page's header is one row (under 64 px
// of a 844 px screen, where it took 20-28%); its menu button shows the
// site's sections and the theme controls, and hides them again.
func (b *browser) oneRowHeader(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}, "names": []string{"Ann"}})
	for _, path := range []string{"/", g.Seats[0].URL, "/analysis/pommel", "/learn", "/rules/pommel", "/leaderboard", "/puzzles", "/puzzles/pommel-76"} {
		t.Run(path, func(t *testing.T) {
			ctx := b.sizedScheme(t, phone, "light")
			run(t, ctx, chromedp.Navigate(b.url(path)))
			poll[bool](t, ctx, "the header", `!!document.querySelector("header .theme-controls") && !!document.querySelector("header .account-menu")`)
			if h := evaluate[float64](t, ctx, `document.querySelector("header").getBoundingClientRect().height`); h > 64 {
				t.Errorf("phone %s: the header is %.0f px tall, want one row (64 px at most)", path, h)
			}
			click(t, ctx, "header .menu-toggle")
			shown := poll[bool](t, ctx, "the sections shown", `document.querySelector("header .menu-toggle").getAttribute("aria-expanded") === "true" &&
				document.querySelector("header .site-nav").checkVisibility() && document.querySelector("header .theme-toggle").checkVisibility()`)
			if !shown {
				t.Errorf("phone %s: the menu shows no sections", path)
			}
			click(t, ctx, "header .menu-toggle")
			poll[bool](t, ctx, "the sections hidden", `!document.querySelector("header .site-nav").checkVisibility()`)
		})
	}
	ctx := b.sizedScheme(t, desktop, "light")
	run(t, ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, ctx, "the desktop header", `document.querySelector("header .site-nav")?.checkVisibility() && !document.querySelector("header .menu-toggle").checkVisibility()`)
}

// analysisOnPhone: on a phone "Ask the engine" and its answer lie in the
// first screen, right under the board, and the engine's lines break
// between moves, never inside one ("g4-" / "g3").
func (b *browser) analysisOnPhone(t *testing.T) {
	ctx := b.sizedScheme(t, phone, "light")
	run(t, ctx, chromedp.Navigate(b.url("/analysis/pommel?moves=a1-a3+g6-g4")))
	poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon").length > 0`)
	inView(t, ctx, "Ask the engine", "button.ask")
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#lines`), "3"), chromedp.SetValue(chromedp.CSS(`#movetime`), "2000"), script(`document.querySelector("button.ask").click()`))
	poll[bool](t, ctx, "the answer", `document.querySelector(".best")?.dataset.state === "done" && document.querySelectorAll(".lines li").length >= 2`)
	if top := evaluate[float64](t, ctx, `(window.scrollTo(0, 0), document.querySelector(".best").getBoundingClientRect().top)`); top > 844-40 {
		t.Errorf("phone: the engine's answer starts at %.0f px, below the fold", top)
	}
	// At every width of the panel from 100 px to the phone's, no move is
	// broken across two lines.
	broken := evaluate[[]string](t, ctx, `(() => {
		const out = new Set(), aside = document.querySelector("main.analysis aside");
		for (let w = 100; w <= 390; w += 3) {
			aside.style.width = w + "px";
			for (const m of brokenMoves()) out.add(m);
		}
		aside.style.width = "";
		return [...out];
		function brokenMoves() {
		const out = [];
		for (const box of document.querySelectorAll(".best .pv, .lines .line-moves")) {
			const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
			for (let n = walker.nextNode(); n; n = walker.nextNode()) {
				for (const m of n.textContent.matchAll(/\S+/g)) {
					const r = document.createRange();
					r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
					const lines = new Set([...r.getClientRects()].map((q) => Math.round(q.top)));
					if (lines.size > 1) out.push(m[0]);
				}
			}
		}
		return out;
		} })()`)
	if len(broken) > 0 {
		t.Errorf("phone: moves broken across lines: %q", broken)
	}
	screenshot(t, ctx, "gamepage-analysis-phone")
}

// focusRingForKeyboard: a clicked cell, empty or not, shows no focus
// ring (it read as a selection or a last-move mark); a cell reached by
// the keyboard does.
func (b *browser) focusRingForKeyboard(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	ctx := b.sizedScheme(t, desktop, "light")
	run(t, ctx, chromedp.Navigate(b.url(g.Seats[0].URL)))
	checkBoard(t, ctx, "pommel", nil)
	const look = `(() => { const c = document.querySelector('svg.board polygon[data-cell="d4"]'), o = document.querySelector('svg.board polygon[data-cell="e4"]');
		const s = getComputedStyle(c), u = getComputedStyle(o);
		return { focused: document.activeElement === c, stroke: s.stroke + " " + s.strokeWidth, plain: u.stroke + " " + u.strokeWidth,
			rings: document.querySelectorAll("svg.board .focus-ring").length }; })()`
	clickCell(t, ctx, "d4") // an empty cell
	got := evaluate[map[string]any](t, ctx, look)
	if got["stroke"] != got["plain"] || got["rings"].(float64) != 0 {
		t.Errorf("a clicked empty cell shows a ring: %v", got)
	}
	// Tab to the board (one stop), then an arrow key to the next cell.
	for range 30 {
		if evaluate[bool](t, ctx, `!!document.activeElement?.dataset?.cell`) {
			break
		}
		run(t, ctx, chromedp.KeyEvent(kb.Tab))
	}
	run(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	ring := poll[float64](t, ctx, "the keyboard's ring", `!!document.activeElement?.dataset?.cell && document.querySelectorAll("svg.board .focus-ring").length`)
	if ring != 1 {
		t.Errorf("a cell reached by the keyboard shows %v rings", ring)
	}
}

// focusKeptThroughMoves: a keyboard player's focus on a control stays
// on it while the opponent moves, though every event redraws the
// controls, the move list's steps and the phone's bar.
func (b *browser) focusKeptThroughMoves(t *testing.T) {
	for _, c := range []struct {
		size    screenSize
		control string // a selector, focused before the opponent moves
	}{
		{desktop, "button.offer"},
		{desktop, `.nav button[aria-label="back (←)"]`},
		{phone, "button.mute"},
		{phone, ".play-bar button.resign"},
	} {
		t.Run(c.size.name+" "+c.control, func(t *testing.T) {
			g := b.ts.twoHumans()
			ctx := b.sizedScheme(t, c.size, "light")
			run(t, ctx, chromedp.Navigate(b.url(g.Seats[0].URL)))
			checkBoard(t, ctx, "pommel", nil)
			sel, _ := json.Marshal(c.control)
			poll[bool](t, ctx, c.control, `!!document.querySelector(`+string(sel)+`)`)
			run(t, ctx, script(`document.querySelector(`+string(sel)+`).focus()`))
			for ply := range 2 {
				v := b.ts.game(g.ID)
				if code, msg := b.ts.move(g.ID, g.Seats[v.ToMove].Token, v.Legal[0], v.Ply); code != http.StatusOK {
					t.Fatalf("move %d: %d %s", ply, code, msg)
				}
				poll[bool](t, ctx, "the move drawn", fmt.Sprintf(`document.querySelectorAll(".moves button.move").length === %d`, ply+1))
				if !evaluate[bool](t, ctx, `document.activeElement === document.querySelector(`+string(sel)+`)`) {
					t.Errorf("%s at %s: after the move of ply %d the focus is on %s", c.control, c.size.name, ply+1,
						evaluate[string](t, ctx, `document.activeElement?.outerHTML.slice(0, 80) ?? "nothing"`))
				}
			}
		})
	}
}

// autoCompletedCapture: in Eximo, clicking g6 then e4 plays g6xe4xg4, the
// one move that matches; the click on g4 the player meant to end it with
// shows no error. An error shown clears with the next action.
func (b *browser) autoCompletedCapture(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "eximo", "seats": []string{"human", "human"}, "fen": "W:Wg6,a2:Bf5,f4,b7"})
	if legal := b.ts.game(g.ID).Legal; len(legal) != 1 || legal[0] != "g6xe4xg4" {
		t.Fatalf("the position's moves are %q, want g6xe4xg4 alone", legal)
	}
	ctx := b.sizedScheme(t, desktop, "light")
	b.bothSeats(t, ctx, g)
	clickCell(t, ctx, "g6")
	clickCell(t, ctx, "e4")
	b.waitPly(t, g.ID, 1)
	poll[bool](t, ctx, "the move shown", `document.querySelectorAll(".moves button.move").length === 1`)
	clickCell(t, ctx, "g4")
	time.Sleep(200 * time.Millisecond) // a message would be drawn at once
	if msg := evaluate[string](t, ctx, `document.querySelector(".message").textContent`); msg != "" {
		t.Errorf("the click on the landing of the move just played says %q", msg)
	}
	clickCell(t, ctx, "d4") // no move starts there
	poll[string](t, ctx, "the error", `document.querySelector(".message").textContent`)
	// ← steps back a move (off the board, whose arrows move between cells).
	run(t, ctx, script(`document.activeElement?.blur()`), chromedp.KeyEvent(kb.ArrowLeft))
	poll[bool](t, ctx, "the error cleared", `document.querySelector(".message").textContent === ""`)
}

// aiAnswersDraw: a draw offered to the AI is answered at once, and the
// page says so; "You offered a draw." does not stay.
func (b *browser) aiAnswersDraw(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}, "names": []string{"Ann"}})
	ctx := b.sizedScheme(t, phone, "light")
	run(t, ctx, chromedp.Navigate(b.url(g.Seats[0].URL)))
	poll[bool](t, ctx, "Offer draw", `!!document.querySelector("button.offer")`)
	click(t, ctx, "button.offer")
	answer := poll[string](t, ctx, "the AI's answer", `document.querySelector(".offer .draw-answer")?.textContent`)
	if !strings.Contains(answer, "declines the draw") {
		t.Errorf("the AI's answer reads %q", answer)
	}
	inView(t, ctx, "the AI's answer", ".offer")
	if text := evaluate[string](t, ctx, `document.querySelector(".controls").textContent`); strings.Contains(text, "You offered a draw") {
		t.Errorf("the page still says the offer is on the table: %q", text)
	}
}

// inviteArrives: a game made with an invite for Black shows "waiting for
// the opponent" on Black's strip until the friend opens the link, and
// then that Black joined.
func (b *browser) inviteArrives(t *testing.T) {
	ann := b.sizedScheme(t, desktop, "light")
	run(t, ann, chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`select#seat1`)),
		chromedp.SetValue(chromedp.CSS(`select#game`), "checkers-2011"),
		script(`document.querySelector("select#game").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS(`select#seat1`), "invite"), chromedp.Click(chromedp.CSS(`button.create`)))
	invite := poll[string](t, ann, "the invite link", `document.querySelector(".invite input[data-seat='1']")?.value`)
	const blackName = `document.querySelector('.player[data-seat="1"] .name')?.textContent`
	if name := poll[string](t, ann, "Black's strip", blackName); name != "waiting for the opponent" {
		t.Errorf("before the invite is opened Black's strip names %q", name)
	}
	bob := b.sizedScheme(t, desktop, "light")
	run(t, bob, chromedp.Navigate(invite))
	poll[bool](t, bob, "Bob's board", `location.hash === "" && !!document.querySelector("svg.board polygon")`)
	joined := poll[string](t, ann, "Bob's arrival", `document.querySelector(".status .arrival")?.textContent`)
	if joined != "Black joined the game." {
		t.Errorf("Ann's page says %q", joined)
	}
	if name := poll[string](t, ann, "Black's strip", blackName); name == "waiting for the opponent" {
		t.Errorf("after the invite was opened Black's strip still names %q", name)
	}
}

// gamePagePictures takes the game page between two people, a draw
// offered, at both sizes in both themes (with -screenshots).
func (b *browser) gamePagePictures(t *testing.T) {
	if *screenshotDir == "" {
		t.Skip("pictures only with -screenshots")
	}
	for _, size := range []screenSize{desktop, phone} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(scheme, func(t *testing.T) {
				g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "names": []string{"alice", "bob"}, "clock": "5m+3s"})
				b.playMiddle(t, g, 6)
				if code, body := b.ts.do("POST", "/api/games/"+g.ID+"/draw", g.Seats[0].Token, map[string]string{"action": "offer"}); code != http.StatusOK {
					t.Fatalf("offer: %d %s", code, body)
				}
				ctx := b.sizedScheme(t, size, scheme)
				run(t, ctx, chromedp.Navigate(b.url(g.Seats[1].URL)))
				poll[bool](t, ctx, "the offer", `!!document.querySelector("button.accept")`)
				poll[bool](t, ctx, "bob's own dot on", `!!document.querySelector('.player[data-seat="1"] .presence.on')`)
				time.Sleep(300 * time.Millisecond) // the last move's slide
				viewShot(t, ctx, "gamepage-"+size.name+"-"+scheme)
			})
		}
	}
}
