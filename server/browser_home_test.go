package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The browser tests of the home page, the rules pages and the small
// things of issue 36: what a visitor's page asks the server, the rules
// pages' header, contents and length, the home page's order and its one
// click to play, the lobby's rows, and the marks and labels of boards.
func TestBrowserHome(t *testing.T) {
	b := newBrowser(t)
	t.Run("pictures", b.homePictures)
	t.Run("a visitor's pages ask no session", b.visitorAsksNoSession)
	for _, size := range screenSizes {
		t.Run("rules pages "+size.name, func(t *testing.T) { b.rulesPageShape(t, size) })
		t.Run("pommel first, one click to play "+size.name, func(t *testing.T) { b.oneClickToPlay(t, size) })
	}
	t.Run("Analyse beside Rules", b.analyseBesideRules)
	t.Run("your turn on a phone and seeks of days", b.yourTurnOnAPhone)
	t.Run("three players: the moves since mine", b.movesSinceMine)
	t.Run("Punt's end rows in the players' colours", b.endRowColours)
	t.Run("the tutorial's board in the window", b.tutorialBoardFits)
	t.Run("Resign asks in the page", b.resignAsksInPage)
}

// homeTab is a tab of a person of its own at size in scheme.
func (b *browser) homeTab(t *testing.T, size screenSize, scheme string) context.Context {
	t.Helper()
	ctx := b.sizedTab(t, size)
	prefersScheme(t, ctx, scheme)
	return ctx
}

// signUpHere signs a new account up through the form in ctx's browser
// context and waits for the home page to name them.
func (b *browser) signUpHere(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(b.url("/signup")), chromedp.WaitVisible(chromedp.CSS(`#name`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), name), chromedp.SendKeys(chromedp.CSS(`#password`), "tall-ferns-hum-quietly"),
		chromedp.Click(chromedp.CSS(`form.auth-form button[type="submit"]`)))
	poll[bool](t, ctx, name+" signed in", fmt.Sprintf(`location.pathname === "/" && document.querySelector("header details.me .me-name")?.textContent === %q`, name))
}

// homePictures saves the pages this file's tests look at, at both sizes
// in both schemes (with -screenshots).
func (b *browser) homePictures(t *testing.T) {
	if *screenshotDir == "" {
		t.Skip("the pictures are saved with -screenshots DIR")
	}
	pages := []struct{ name, path, ready string }{
		{"home", "/", `document.querySelectorAll("svg.preview").length > 3`},
		{"rules", "/rules/pommel", `document.querySelector("figure.diagram svg.board polygon")`},
		{"rules-punt", "/rules/punt", `document.querySelector("figure.diagram svg.board polygon")`},
		{"learn", "/learn/pommel", `document.querySelectorAll("svg.board polygon").length > 0`},
		{"learn-punt", "/learn/punt", `document.querySelectorAll("svg.board polygon").length > 0`},
	}
	for _, size := range screenSizes {
		for _, scheme := range []string{"light", "dark"} {
			for _, p := range pages {
				ctx := b.homeTab(t, size, scheme)
				run(t, ctx, chromedp.Navigate(b.url(p.path)))
				poll[bool](t, ctx, p.name, "!!("+p.ready+")")
				h := poll[float64](t, ctx, "height", `document.documentElement.scrollHeight`)
				t.Logf("%s %s %s: %v px", p.name, size.name, scheme, h)
				name := strings.Join([]string{"home", p.name, size.name, scheme}, "-")
				viewShot(t, ctx, name)
				if h < 5000 {
					screenshot(t, ctx, name+"-full")
				}
			}
		}
	}
	ctx := b.homeTab(t, screenSizes[1], "light")
	b.signUpHere(t, ctx, "zed")
	screenshot(t, ctx, "home-signed-in-phone")
	ctx = b.homeTab(t, screenSizes[0], "light")
	b.signUpHere(t, ctx, "yan")
	screenshot(t, ctx, "home-signed-in-desktop")
}

// unauthorized lists the answers of status 401 the page's requests got,
// from the browser's own record of them (resource timing).
const unauthorized = `performance.getEntriesByType("resource").filter((e) => e.responseStatus === 401).map((e) => e.name)`

// visitorAsksNoSession: a visitor's pages answer no request with 401 (a
// console error on every page, GET /api/session), while a player who
// signs up is still named in the header, page after page, and after
// logging out is a visitor again, with no 401.
func (b *browser) visitorAsksNoSession(t *testing.T) {
	ctx := b.homeTab(t, screenSizes[0], "light")
	pages := []struct{ path, ready string }{
		{"/", `document.querySelector("header .sign-in") && document.querySelectorAll("svg.preview").length > 3`},
		{"/rules/pommel", `document.querySelector("header .sign-in")`},
		{"/learn", `document.querySelector("header .sign-in")`},
		{"/analysis/pommel", `document.querySelector("header .sign-in") && document.querySelectorAll("svg.board polygon").length > 0`},
	}
	visit := func(who string) {
		t.Helper()
		for _, p := range pages {
			run(t, ctx, chromedp.Navigate(b.url(p.path)))
			poll[bool](t, ctx, p.path+" drawn", "!!("+p.ready+")")
			got := evaluate[[]string](t, ctx, unauthorized)
			if len(got) > 0 {
				t.Errorf("%s, %s: answered 401: %v", who, p.path, got)
			}
		}
	}
	visit("a visitor")
	b.signUpHere(t, ctx, "vera")
	for _, path := range []string{"/rules/pommel", "/learn", "/"} {
		run(t, ctx, chromedp.Navigate(b.url(path)))
		poll[bool](t, ctx, "vera named on "+path, `document.querySelector("header details.me .me-name")?.textContent === "vera"`)
	}
	run(t, ctx, script(`document.querySelector("header details.me").open = true`))
	click(t, ctx, "header button.log-out")
	poll[bool](t, ctx, "signed out", `location.pathname === "/" && !!document.querySelector("header .sign-in")`)
	visit("after logging out")
}

// rulesPageShape: a rules page has the site's header with its title, as
// every page; it opens on its contents, with no screenshot of the app
// (the README's); it is of a length one reads, its sections folded but the
// overview; and a link of the contents opens its section at its heading.
// Before, the pages ran 23,800 px on a desktop and 33,300 on a phone,
// with four screenshots first and the contents after them.
func (b *browser) rulesPageShape(t *testing.T, size screenSize) {
	limit := map[bool]float64{false: 6000, true: 9000}[size.mobile]
	for _, id := range []string{"pommel", "eximo", "checkers-2011", "punt-match"} {
		ctx := b.homeTab(t, size, "light")
		run(t, ctx, chromedp.Navigate(b.url("/rules/"+id)))
		poll[bool](t, ctx, "the diagrams", `!!document.querySelector("figure.diagram svg.board polygon") && !!document.querySelector("header .theme-controls")`)
		if got := evaluate[string](t, ctx, `document.querySelector("header.site h1")?.textContent ?? ""`); !strings.HasSuffix(got, " rules") {
			t.Errorf("/rules/%s: the header's title is %q, want the page's, as every page has", id, got)
		}
		if n := evaluate[int](t, ctx, `document.querySelectorAll("main img").length`); n > 0 {
			t.Errorf("/rules/%s shows %d pictures of the app", id, n)
		}
		contents := evaluate[float64](t, ctx, `document.querySelector("main ol a[href^='#']")?.getBoundingClientRect().top ?? 1e9`)
		if contents > float64(size.height)*0.8 {
			t.Errorf("/rules/%s: the contents start at %.0f px, not on the first screen (%d px)", id, contents, size.height)
		}
		if h := evaluate[float64](t, ctx, `document.documentElement.scrollHeight`); h > limit {
			t.Errorf("/rules/%s is %.0f px long, want at most %.0f", id, h, limit)
		}
	}
	ctx := b.homeTab(t, size, "light")
	run(t, ctx, chromedp.Navigate(b.url("/rules/pommel")))
	poll[bool](t, ctx, "the diagrams", `!!document.querySelector("figure.diagram svg.board polygon")`)
	click(t, ctx, `main ol a[href="#5-worked-examples"]`)
	poll[bool](t, ctx, "section 5 open at its heading", `(() => { const h = document.getElementById("5-worked-examples");
		const top = h.getBoundingClientRect().top; return h.closest("details").open && top >= -2 && top < innerHeight / 2; })()`)
	screenshot(t, ctx, "rules-section-open-"+size.name)
}

// oneClickToPlay: the home page lists Pommel first and its forms start on
// it (they started on Checkers 2011, the first by name); one click on
// "Play the computer" opens a game against it; the game, level and side
// chosen are remembered, and the last game played comes second.
func (b *browser) oneClickToPlay(t *testing.T, size screenSize) {
	ctx := b.homeTab(t, size, "light")
	run(t, ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, ctx, "the cards", `document.querySelectorAll("li.game-card").length > 3 && !!document.querySelector("button.play-ai")`)
	if got := evaluate[[]string](t, ctx, `[document.querySelector("li.game-card").dataset.game, document.querySelector("select#game").value, document.querySelector("#quick-ai-game").value]`); strings.Join(got, " ") != "pommel pommel pommel" {
		t.Errorf("the first card, the form's game and the quick game are %v, want Pommel", got)
	}
	if top := evaluate[float64](t, ctx, `document.querySelector("button.play-ai").getBoundingClientRect().bottom`); top > float64(size.height) {
		t.Errorf("Play the computer ends at %.0f px, below the first screen (%d px)", top, size.height)
	}
	click(t, ctx, "button.play-ai")
	b.checkAIGame(t, ctx, "pommel", 0, 1)

	run(t, ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, ctx, "the quick form", `!!document.querySelector("#quick-ai-side option")`)
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#quick-ai-game"), "eximo"), script(`document.querySelector("#quick-ai-game").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS("#quick-ai-level"), "3"), script(`document.querySelector("#quick-ai-level").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS("#quick-ai-side"), "1"), script(`document.querySelector("#quick-ai-side").dispatchEvent(new Event("change"))`))
	click(t, ctx, "button.play-ai")
	b.checkAIGame(t, ctx, "eximo", 1, 3)

	run(t, ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, ctx, "the cards", `document.querySelectorAll("li.game-card").length > 3 && !!document.querySelector("#quick-ai-side option")`)
	got := evaluate[[]string](t, ctx, `[...document.querySelectorAll("li.game-card")].slice(0, 2).map((li) => li.dataset.game).concat(
		[document.querySelector("select#game").value, document.querySelector("#quick-ai-game").value, document.querySelector("#quick-ai-level").value, document.querySelector("#quick-ai-side").value])`)
	if want := "pommel eximo eximo eximo 3 1"; strings.Join(got, " ") != want {
		t.Errorf("after an Eximo game the cards start %v, the form is on %v, the quick choice %v; want %q", got[:2], got[2], got[3:], want)
	}
	screenshot(t, ctx, "home-remembered-"+size.name)
}

// checkAIGame waits for the game page a click opened and checks the game:
// id, the person at seat, the computer at level at the others.
func (b *browser) checkAIGame(t *testing.T, ctx context.Context, id string, seat, level int) {
	t.Helper()
	path := poll[string](t, ctx, "the game page", `location.pathname.startsWith("/play/") && document.querySelector("svg.board polygon") ? location.pathname : ""`)
	code, body := b.ts.do("GET", "/api/games/"+strings.TrimPrefix(path, "/play/"), "", nil)
	var v struct {
		Game  string `json:"game"`
		Seats []struct {
			Player string `json:"player"`
		} `json:"seats"`
	}
	if err := json.Unmarshal(body, &v); err != nil || code != http.StatusOK {
		t.Fatalf("GET the game: %d %s", code, body)
	}
	for i, s := range v.Seats {
		want := fmt.Sprintf("ai:level=%d", level)
		if i == seat {
			want = "human"
		}
		if v.Game != id || s.Player != want {
			t.Errorf("the game is %s with seat %d played by %s, want %s and %s", v.Game, i, s.Player, id, want)
		}
	}
}

// analyseBesideRules: on a desktop each card's Analyse shares the row of
// its Rules (it wrapped onto a line of its own).
func (b *browser) analyseBesideRules(t *testing.T) {
	ctx := b.homeTab(t, screenSizes[0], "light")
	run(t, ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, ctx, "the cards", `document.querySelectorAll("li.game-card a.analyse").length > 3`)
	alone := evaluate[[]string](t, ctx, `[...document.querySelectorAll("li.game-card")].filter((li) =>
		li.querySelector("a.analyse").getBoundingClientRect().top !== li.querySelector("a.rules").getBoundingClientRect().top).map((li) => li.dataset.game)`)
	if len(alone) > 0 {
		t.Errorf("Analyse is on a line of its own in the cards of %v", alone)
	}
}

// yourTurnOnAPhone: for a player signed in on a phone, "Your turn" comes
// near the top (it was some 2,300 px down), and "My games" does not list
// its games again; a seek of "3 days" keeps its clock on one line, on a
// phone and across a desktop's lobby.
func (b *browser) yourTurnOnAPhone(t *testing.T) {
	phone := screenSizes[1]
	checkClockOneLine := func(ctx context.Context, where string) {
		t.Helper()
		poll[bool](t, ctx, "the seek of 3 days", `[...document.querySelectorAll(".seeks .clock")].some((c) => c.textContent === "3 days")`)
		lines := evaluate[float64](t, ctx, `(() => { const c = [...document.querySelectorAll(".seeks .clock")].find((c) => c.textContent === "3 days");
			return c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight); })()`)
		if lines > 1.5 {
			t.Errorf("%s: the seek's \"3 days\" runs over %.1f lines", where, lines)
		}
	}
	seeker := b.ts.signUp("sam")
	if code, body := seeker.call("POST", "/api/seeks", map[string]any{"game": "pommel", "options": map[string]string{}, "rated": false, "clock": map[string]int{"days": 3}}); code != http.StatusCreated {
		t.Fatalf("a seek of 3 days: %d %s", code, body)
	}
	desk := b.homeTab(t, screenSizes[0], "light")
	b.signUpHere(t, desk, "dov")
	checkClockOneLine(desk, "across a desktop's lobby")

	ctx := b.homeTab(t, phone, "light")
	b.signUpHere(t, ctx, "pia")
	checkClockOneLine(ctx, "on a phone")
	poll[bool](t, ctx, "Play the computer", `!!document.querySelector("button.play-ai")`)
	click(t, ctx, "button.play-ai")
	path := poll[string](t, ctx, "the game page", `location.pathname.startsWith("/play/") && document.querySelector("svg.board polygon") ? location.pathname : ""`)
	id := strings.TrimPrefix(path, "/play/")
	run(t, ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, ctx, "your turn listing the game", fmt.Sprintf(`!!document.querySelector(".turn-list li[data-game='%s']")`, id))
	top := evaluate[float64](t, ctx, `document.querySelector("#your-turn").getBoundingClientRect().top + scrollY`)
	if top > float64(phone.height)/2 {
		t.Errorf("Your turn starts %.0f px down the phone's page, want it in the first half screen", top)
	}
	poll[bool](t, ctx, "My games without the game", fmt.Sprintf(`(() => { const li = document.querySelector(".my-games li[data-game='%s']"); return !li || li.offsetParent === null; })()`, id))
	screenshot(t, ctx, "home-your-turn-phone")
}

// cellNames finds the cells a move's text names ("e1-e3", "a1xa3xa5").
var cellNames = regexp.MustCompile(`[a-z][0-9]+`)

// movesSinceMine: in a game of three, after the player's move and both
// computers' replies, the board marks both replies (it marked the last
// alone, and the first reply went unseen).
func (b *browser) movesSinceMine(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "punt-heks-match-3p", "seats": []string{"human", "ai:level=1", "ai:level=1"}})
	ctx := b.homeTab(t, screenSizes[0], "light")
	run(t, ctx, chromedp.Navigate(b.url(g.Seats[0].URL)))
	poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon[data-cell]").length > 0`)
	v := b.ts.game(g.ID)
	if code, msg := b.ts.move(g.ID, g.Seats[0].Token, v.Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, msg)
	}
	v = b.waitPly(t, g.ID, 3)
	want := map[string]bool{}
	for _, m := range v.Moves[1:3] {
		for _, c := range cellNames.FindAllString(m, -1) {
			want[c] = true
		}
	}
	wantJSON, _ := json.Marshal(want)
	marked := poll[[]string](t, ctx, "both replies marked", fmt.Sprintf(`(() => { const want = %s;
		const got = [...document.querySelectorAll("svg.board polygon.cell.last")].map((p) => p.dataset.cell);
		return Object.keys(want).every((c) => got.includes(c)) ? got : null; })()`, wantJSON))
	for _, c := range marked {
		if !want[c] {
			t.Errorf("%s is marked, but neither reply (%v) touched it", c, v.Moves[1:3])
		}
	}
	screenshot(t, ctx, "three-players-marks")
}

// endRowColours: Punt's legend says each end row is outlined in its
// player's colour; White's and Black's lines are drawn in their pieces'
// fills (both were dark grey), in both themes.
func (b *browser) endRowColours(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "punt-match", "seats": []string{"human", "human"}})
	for _, scheme := range []string{"light", "dark"} {
		ctx := b.homeTab(t, screenSizes[0], scheme)
		run(t, ctx, chromedp.Navigate(b.url(g.URL)))
		poll[bool](t, ctx, "the end rows", `document.querySelectorAll(".end-row-line.side-w").length > 0 && !!document.querySelector(".legend")`)
		got := evaluate[[]string](t, ctx, `["w", "b"].flatMap((s) => [getComputedStyle(document.querySelector(".end-row-line.side-" + s)).stroke,
			getComputedStyle(document.querySelector(".piece.side-" + s)).fill])`)
		if got[0] != got[1] || got[2] != got[3] {
			t.Errorf("%s: White's end row is drawn %s, its pieces %s; Black's %s, its pieces %s", scheme, got[0], got[1], got[2], got[3])
		}
		screenshot(t, ctx, "punt-end-rows-"+scheme)
	}
}

// tutorialBoardFits: on a desktop each tutorial's board, its labels with
// it, fits the window (Pommel's ran below it, its letters cut off).
func (b *browser) tutorialBoardFits(t *testing.T) {
	ctx := b.homeTab(t, screenSizes[0], "light")
	for _, family := range []string{"pommel", "eximo", "checkers-2011", "punt"} {
		run(t, ctx, chromedp.Navigate(b.url("/learn/"+family)))
		poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon[data-cell]").length > 0 && document.querySelectorAll("svg.board text.label").length > 0`)
		below := evaluate[float64](t, ctx, `Math.max(...[...document.querySelectorAll("svg.board text.label"), document.querySelector("svg.board polygon[data-cell]")]
			.map((e) => e.getBoundingClientRect().bottom)) - innerHeight`)
		if below > 0 {
			t.Errorf("/learn/%s: the board's labels run %.0f px below the window", family, below)
		}
	}
}

// resignAsksInPage: Resign asks in a dialog of the page (it was the
// browser's confirm()), by keyboard: the focus starts in it, Escape
// cancels and the game goes on; Enter on its Resign resigns.
func (b *browser) resignAsksInPage(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	ctx := b.homeTab(t, screenSizes[0], "light")
	run(t, ctx, chromedp.Navigate(b.url(g.Seats[0].URL)))
	poll[bool](t, ctx, "Resign", `!!document.querySelector("button.resign")`)
	click(t, ctx, "button.resign")
	poll[bool](t, ctx, "the dialog, the focus in it", `!!document.querySelector("dialog.confirm[open]")?.contains(document.activeElement)`)
	screenshot(t, ctx, "resign-dialog")
	run(t, ctx, chromedp.KeyEvent(kb.Escape))
	poll[bool](t, ctx, "the dialog closed", `!document.querySelector("dialog.confirm")`)
	if v := b.ts.game(g.ID); v.Result != nil {
		t.Fatalf("Escape resigned the game: %+v", v.Result)
	}
	click(t, ctx, "button.resign")
	poll[bool](t, ctx, "the dialog", `!!document.querySelector("dialog.confirm[open]")`)
	run(t, ctx, script(`document.querySelector("dialog.confirm .confirm-yes").focus()`), chromedp.KeyEvent(kb.Enter))
	waitFor(t, 10*time.Second, "the resignation", func() bool { return b.ts.game(g.ID).Result != nil })
}
