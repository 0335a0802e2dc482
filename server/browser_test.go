package server

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's chromium, which .ci/run installs.
const chromiumPath = "/usr/bin/chromium"

var (
	screenshotDir = flag.String("screenshots", "", "save the browser tests' screenshots in this folder")
	measure       = flag.Bool("measure", false, "run the browser tests' measurements (the docs' figures), which assert nothing")
)

// skipUnlessMeasuring skips a measurement that asserts nothing unless
// -measure or -screenshots (when the docs' figures are made) asks for it.
func skipUnlessMeasuring(t *testing.T) {
	t.Helper()
	if !*measure && *screenshotDir == "" {
		t.Skip("a measurement for the docs: -measure runs it")
	}
}

// phoneScale is the pixel ratio a phone is emulated at: a phone's 3 when
// the pictures are saved (-screenshots), else 1. A page is laid out in CSS
// pixels, the same at any ratio, and a headless Chromium draws in
// software: at 3 it draws nine times the pixels of each frame.
func phoneScale() float64 {
	if *screenshotDir != "" {
		return 3
	}
	return 1
}

// newBrowser gives the test a browser context of its own (its own
// cookies and storage) in the package's one headless Chromium, and a
// server whose limits are raised (the scenarios set positions up through
// the API, faster than a person plays); it skips without Chromium or with
// -short. The test runs in parallel with the other browser tests (do not
// call t.Parallel as well); the context closes when the test ends.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	skipWithoutBrowser(t)
	return newBrowserWith(t, siteConfig{})
}

// skipWithoutBrowser skips the test without Chromium or with -short.
func skipWithoutBrowser(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("the browser tests need Chromium at %s (apt-get install chromium): %v", chromiumPath, err)
	}
	if testing.Short() {
		t.Skip("the browser tests are skipped with -short")
	}
}

// newBrowserWith is newBrowser over a server of cfg (its limits raised);
// the caller has called skipWithoutBrowser.
func newBrowserWith(t *testing.T, cfg siteConfig) *browser {
	t.Helper()
	t.Parallel()
	ctx, own := sharedChromium.tab(t)
	return &browser{ctx: ctx, own: own, ts: newBrowserServer(t, cfg, nil)}
}

// newBrowserServer is a test server of cfg, its limits raised for the
// browser tests, its handler wrapped by wrap (nil: none).
func newBrowserServer(t *testing.T, cfg siteConfig, wrap func(http.Handler) http.Handler) *testServer {
	t.Helper()
	cfg.Limits = Limits{MovesPerSecond: 1000, MoveBurst: 1000, GamesPerHour: 1000, Sockets: 100}
	return newTestServerBehind(t, cfg, wrap)
}

// reordering is b's browser in front of a server of its own whose
// position answers come out of order (reorderPositions), for the
// scenarios that check the page keeps the newer position. The others do
// without: its wait of up to a second at each odd ply is time spent for
// nothing in a test of something else.
func (b *browser) reordering(t *testing.T) *browser {
	t.Helper()
	return &browser{ctx: b.ctx, own: b.own, ts: newBrowserServer(t, siteConfig{}, reorderPositions)}
}

// chromium is the one headless Chromium of the test binary, started by
// the first browser test that needs it and stopped by TestMain: a
// browser's start costs seconds of CPU, a browser context (what each test
// gets, as separate from the others as another browser) almost nothing.
type chromium struct {
	once sync.Once
	ctx  context.Context // its first tab, the parent of the tests' contexts
	err  error
	stop func()

	mu   sync.Mutex
	idle []pooledTab // tabs a test gave back, cleared, for the next
}

// pooledTab is a tab of its own browser context (its own cookies and
// storage), in a window of its own. A new one costs about 2 s of CPU
// (the context, the window, its renderer processes); one given back and
// taken again about a tenth of that, and a test takes dozens.
type pooledTab struct {
	target  target.ID
	context cdp.BrowserContextID
}

// sharedChromium is the package's Chromium. Like pg (postgres_test.go),
// it is the test binary's, set once and stopped after the tests.
var sharedChromium chromium

// start starts the browser, once, and returns its first tab.
func (c *chromium) start() (context.Context, error) {
	c.once.Do(func() {
		dir, err := os.MkdirTemp("", "arbiter-chromium-")
		if err != nil {
			c.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.Flag("disable-features", "WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,PreloadTopChromeWebUI"),
			chromedp.UserDataDir(dir), chromedp.WindowSize(1200, 800))
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelBrowser := chromedp.NewContext(allocCtx)
		c.ctx, c.stop = ctx, func() {
			cancelBrowser()
			cancelAlloc()
			os.RemoveAll(dir)
		}
		c.err = chromedp.Do(ctx)
	})
	return c.ctx, c.err
}

// tab gives the test a tab as separate from the other tests' as a
// browser of its own: a tab given back by an earlier test, or a new one.
// What a test set through its connection to the tab (the screen's size,
// the colour scheme, touch, listeners) ends when the connection does;
// what the tab keeps (cookies, storage, history) is cleared when the
// test gives it back. A tab that cannot be cleared is closed.
func (c *chromium) tab(t *testing.T) (context.Context, cdp.BrowserContextID) {
	t.Helper()
	root, err := c.start()
	if err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	c.mu.Lock()
	var p pooledTab
	reuse := len(c.idle) > 0
	if reuse {
		p, c.idle = c.idle[len(c.idle)-1], c.idle[:len(c.idle)-1]
	}
	c.mu.Unlock()
	opts := []chromedp.ContextOption{chromedp.WithDetachOnCancel(), chromedp.WithNewBrowserContext()}
	if reuse {
		opts = []chromedp.ContextOption{chromedp.WithDetachOnCancel(), chromedp.WithTargetID(p.target)}
	}
	ctx, cancel := chromedp.NewContext(root, opts...)
	t.Cleanup(cancel) // runs after giveBack: detaches, leaving the tab open
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	if !reuse {
		cc := chromedp.FromContext(ctx)
		p = pooledTab{target: cc.Target.TargetID, context: cc.BrowserContextID}
	}
	t.Cleanup(func() { c.giveBack(ctx, p) })
	return ctx, p.context
}

// giveBack clears the tab ctx is attached to and keeps it for another
// test, or closes it if it cannot be cleared.
func (c *chromium) giveBack(ctx context.Context, p pooledTab) {
	clear, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(clear, clearTab); err != nil {
		c.closeTab(p)
		return
	}
	c.mu.Lock()
	c.idle = append(c.idle, p)
	c.mu.Unlock()
}

// clearTab leaves the tab blank, with no history, cookie or storage of
// the origins it showed (each test server has an origin of its own, but
// a port can be used again).
func clearTab(ctx context.Context, tab *chromedp.Target) (chromedp.Void, error) {
	var none chromedp.Void
	history, err := cdp.Call(ctx, tab, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return none, err
	}
	// Left by the page itself: a blank page opened by the browser takes
	// a new renderer process (half a second of CPU); one the page opens
	// stays in its process.
	if _, err := chromedp.Evaluate[chromedp.Void](`location.replace("about:blank"); 0`)(ctx, tab); err != nil {
		return none, err
	}
	for _, e := range history.Entries {
		if u, err := url.Parse(e.URL); err == nil && u.Host != "" {
			if _, err := cdp.Call(ctx, tab, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: u.Scheme + "://" + u.Host, StorageTypes: "all"}); err != nil {
				return none, err
			}
		}
	}
	// The HTTP cache stays: the next test's pages, of another server (an
	// origin of its own), miss it, and a test's later tabs, of its server,
	// find its assets there as a returning player does. A test that needs
	// a first visit clears it (TestBrowserVisitCost).
	for _, clear := range []cdp.Command[cdp.Empty, cdp.Empty]{network.ClearBrowserCookies, page.ResetNavigationHistory} {
		if _, err := cdp.Call(ctx, tab, clear, cdp.Empty{}); err != nil {
			return none, err
		}
	}
	return none, nil
}

// coldCache empties the HTTP cache of ctx's tab, for a test of a first
// visit: a tab given back keeps its cache (clearTab), and the test server
// before this one may have had the same port.
func coldCache(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Call(ctx, network.ClearBrowserCache, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
}

// closeTab closes a tab and its browser context, on the browser's own
// connection.
func (c *chromium) closeTab(p pooledTab) {
	ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.CallBrowser(ctx, target.CloseTarget, target.CloseTargetParams{TargetID: p.target}); err == nil {
		_, _ = chromedp.CallBrowser(ctx, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: p.context})
	}
}

// close stops the browser if it was started.
func (c *chromium) close() {
	if c.stop != nil {
		c.stop()
	}
}

// reorderPositions serves the position at every odd ply only after the
// page has read the next ply's position (or after a second), as a slow
// network may: the position after a person's move then arrives after the
// position after the AI's answer, and the page must keep the newer one.
func reorderPositions(next http.Handler) http.Handler {
	var mu sync.Mutex
	served := map[string]chan struct{}{}
	done := func(key string) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		if served[key] == nil {
			served[key] = make(chan struct{})
		}
		return served[key]
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ply, err := strconv.Atoi(r.URL.Query().Get("ply"))
		if !strings.HasSuffix(r.URL.Path, "/position") || err != nil {
			next.ServeHTTP(w, r)
			return
		}
		if ply%2 == 1 {
			select {
			case <-done(fmt.Sprint(r.URL.Path, ply+1)):
			case <-time.After(time.Second):
			}
		}
		next.ServeHTTP(w, r)
		ch := done(fmt.Sprint(r.URL.Path, ply))
		mu.Lock()
		defer mu.Unlock()
		select {
		case <-ch:
		default:
			close(ch)
		}
	})
}

// TestBrowser drives the pages in one headless Chromium, a tab (or a
// browser context, for a second person) per scenario, clicking as a
// person would.
func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	// Against the AI, the page reads the position after the person's
	// move and the one after the AI's answer at once: those scenarios
	// get the answers out of order, and must keep the newer.
	late := b.reordering(t)
	t.Run("start positions", b.startPositions)
	t.Run("stacks and piles", b.stacksAndPiles)
	t.Run("against the AI", late.againstAI)
	t.Run("invite link", b.inviteLink)
	t.Run("refusals", b.refusals)
	t.Run("chains and drops", b.chainsAndDrops)
	t.Run("pommel to the end", late.pommelToTheEnd)
	t.Run("three players", late.threePlayers)
	t.Run("reload and restart", b.reloadAndRestart)
	t.Run("touch", b.touch)
	t.Run("animation", b.animation)
	t.Run("clock", b.clock)
	t.Run("lobby", b.lobby)
	t.Run("a game needing attention", b.attention)
}

// attention: a game whose AI failed says so on its page, at a desktop's
// size and a phone's, and the page stays usable (the board is drawn).
func (b *browser) attention(t *testing.T) {
	ts := newTestServer(t, siteConfig{Engines: enginesWithAPanic})
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"random", "human"}})
	waitFor(t, 10*time.Second, "the mark", func() bool { return ts.game(g.ID).Attention != "" })
	for _, size := range []struct {
		name string
		w, h int64
	}{{"attention", 1280, 800}, {"attention-phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			ctx := b.tab(t, true)
			run(t, ctx, chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(ts.http.URL+g.Seats[0].URL))
			text := poll[string](t, ctx, "the notice", `document.querySelector(".status .attention")?.textContent`)
			if !strings.Contains(text, "operator") {
				t.Errorf("the notice reads %q", text)
			}
			poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon[data-cell]").length > 0`)
			screenshot(t, ctx, size.name)
		})
	}
}

// browser is the one Chromium and the server the scenarios share.
type browser struct {
	ctx context.Context
	own cdp.BrowserContextID // ctx's browser context: its person's cookies and storage
	ts  *testServer
}

// tab opens a tab, in a browser context of its own (its own local
// storage: another person) when fresh is set.
func (b *browser) tab(t *testing.T, fresh bool) context.Context {
	t.Helper()
	var ctx context.Context
	if fresh {
		ctx, _ = sharedChromium.tab(t)
	} else {
		// Another tab of the same person: a new one, closed at the end.
		var cancel context.CancelFunc
		ctx, cancel = chromedp.NewContext(b.ctx, chromedp.WithExistingBrowserContext(b.own))
		t.Cleanup(cancel)
	}
	ctx, cancelTime := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(cancelTime)
	return ctx
}

func (b *browser) url(path string) string { return b.ts.http.URL + path }

func run(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// click clicks the element sel finds, as a person does. A page that
// re-renders between finding the element and clicking it leaves chromedp
// holding a node that no longer exists ("Could not find node with given
// id"); the mouse was not pressed then, so the click is tried again on
// the element as it is now.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	onFreshNode(t, ctx, "click "+sel, func() chromedp.Action[chromedp.Void] { return chromedp.Click(chromedp.CSS(sel)) })
}

// tap taps the element sel finds, as a finger does, and like click tries
// again when the node it found was gone by the time of the tap: the board
// is drawn anew after each tap.
func tap(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	onFreshNode(t, ctx, "tap "+sel, func() chromedp.Action[chromedp.Void] { return chromedp.Tap(chromedp.CSS(sel)) })
}

// onFreshNode runs the action made by act, and a new one (up to five in
// all) while it fails on a node that was gone when it acted.
func onFreshNode(t *testing.T, ctx context.Context, what string, act func() chromedp.Action[chromedp.Void]) {
	t.Helper()
	var err error
	for range 5 {
		err = chromedp.Do(ctx, act())
		if err == nil || !staleNode(err) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// staleNode reports whether err says the node chromedp found was gone
// when it acted on it.
func staleNode(err error) bool {
	return strings.Contains(err.Error(), "Could not find node with given id") ||
		strings.Contains(err.Error(), "Node is detached from document")
}

// script runs a statement in the page.
func script(statement string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void]("(() => { " + statement + "; return {}; })()")
}

// pollEvery is how often the page tests a poll's expression: on a timer,
// not on every animation frame (chromedp's default), which would keep
// each page drawing 60 frames a second for as long as a test waits.
func pollEvery() chromedp.PollOption { return chromedp.WithPollingInterval(20 * time.Millisecond) }

// poll waits until the expression is truthy in the page and returns it.
func poll[T any](t *testing.T, ctx context.Context, what, expr string) T {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v, err := chromedp.Run(ctx, chromedp.Poll[T](expr, pollEvery(), chromedp.WithPollingTimeout(time.Until(deadline))))
		// A page that navigates (a form that opens the game) ends the
		// poll with an error; poll again in the new page.
		if err != nil && ctx.Err() == nil && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		return v
	}
}

// shownStacks reads every cell of the board: its name and its data-stack.
const shownStacks = `(() => { const cells = document.querySelectorAll("svg.board polygon[data-cell]");
	if (cells.length === 0) return null;
	return Object.fromEntries([...cells].map((p) => [p.dataset.cell, p.dataset.stack || ""])); })()`

// expectedStacks is section 7's data-stack of every cell after moves,
// worked out here from the rules: a letter for the side that owns each
// piece, bottom first, upper case when promoted.
func expectedStacks(t *testing.T, id string, moves []string) map[string]string {
	t.Helper()
	return expectedStacksFrom(t, id, "", moves)
}

// expectedStacksFrom is expectedStacks for a game started from a FEN
// ("" for the game's start).
func expectedStacksFrom(t *testing.T, id, fen string, moves []string) map[string]string {
	t.Helper()
	rules, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.Start()
	if fen != "" {
		if st, err = rules.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
	}
	for _, text := range moves {
		m, err := game.ParseRuleMove(st, text)
		if err != nil {
			t.Fatal(err)
		}
		st.Play(m)
	}
	letters := map[string]string{"White": "w", "Black": "b", "Red": "r"}
	out := map[string]string{}
	b := rules.Board()
	for c := range b.Len() {
		var s string
		for _, p := range st.(game.Stacker).Stack(board.Cell(c), nil) {
			l := letters[rules.PlayerName(p.Owner)]
			if p.Rank == game.King {
				l = strings.ToUpper(l)
			}
			s += l
		}
		out[b.Name(board.Cell(c))] = s
	}
	return out
}

// checkBoard waits until the page shows the position after moves and
// fails when a cell differs.
func checkBoard(t *testing.T, ctx context.Context, id string, moves []string) {
	t.Helper()
	checkBoardFrom(t, ctx, id, "", moves)
}

// checkBoardFrom is checkBoard for a game started from a FEN.
func checkBoardFrom(t *testing.T, ctx context.Context, id, fen string, moves []string) {
	t.Helper()
	want := expectedStacksFrom(t, id, fen, moves)
	wantJSON, _ := json.Marshal(want)
	expr := fmt.Sprintf(`(() => { const got = %s; const want = %s; if (!got) return false;
		return Object.keys(want).length === Object.keys(got).length && Object.keys(want).every((k) => got[k] === want[k]); })()`, shownStacks, wantJSON)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, pollEvery(), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](shownStacks))
		for cell, w := range want {
			if got[cell] != w {
				t.Errorf("%s: cell %s shows %q, want %q", id, cell, got[cell], w)
			}
		}
		t.Fatalf("%s: the board does not show the position after %v", id, moves)
	}
}

// screenshot saves the page when -screenshots names a folder.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *screenshotDir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*screenshotDir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// startPositions opens every game's spectator page: each cell is drawn
// with its data-cell, and each occupied one with its data-stack.
func (b *browser) startPositions(t *testing.T) {
	ctx := b.tab(t, false)
	for _, d := range game.All() {
		seats := make([]string, d.Players)
		for i := range seats {
			seats[i] = "human"
		}
		g := b.ts.create(map[string]any{"game": d.ID, "seats": seats})
		run(t, ctx, chromedp.Navigate(b.url(g.URL)))
		checkBoard(t, ctx, d.ID, nil)
		if n := poll[int](t, ctx, "the turn", `document.querySelector(".status .turn") && document.querySelectorAll("svg.board polygon").length`); n == 0 {
			t.Errorf("%s: no cells", d.ID)
		}
		screenshot(t, ctx, "start-"+d.ID)
	}
}

// playUntil plays the game through the API, captures first, until the
// position has a stack of two or more pieces; it returns the moves.
func (b *browser) playUntil(t *testing.T, resp hall.Created, id string) []string {
	t.Helper()
	for ply := 0; ply < 200; ply++ {
		g := b.ts.game(resp.ID)
		for _, s := range expectedStacks(t, id, g.Moves) {
			if len(s) >= 2 {
				return g.Moves
			}
		}
		if len(g.Legal) == 0 {
			break
		}
		move := g.Legal[0]
		for _, m := range g.Legal {
			if strings.Contains(m, "x") {
				move = m
				break
			}
		}
		token := resp.Seats[g.ToMove].Token
		if code, msg := b.ts.move(resp.ID, token, move, g.Ply); code != http.StatusOK {
			t.Fatalf("%s: move %s: %d %s", id, move, code, msg)
		}
	}
	t.Fatalf("%s: no stack within 200 plies", id)
	return nil
}

// stacksAndPiles shows a Checkers 2011 column and a Punt pile to a
// spectator, every piece of them in data-stack.
func (b *browser) stacksAndPiles(t *testing.T) {
	ctx := b.tab(t, false)
	for _, id := range []string{"checkers-2011", "punt-match"} {
		resp := b.ts.create(map[string]any{"game": id, "seats": []string{"human", "human"}})
		moves := b.playUntil(t, resp, id)
		run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
		checkBoard(t, ctx, id, moves)
		tall := poll[string](t, ctx, "a stack", `[...document.querySelectorAll("polygon[data-stack]")].map((p) => p.dataset.stack).find((s) => s.length >= 2) || ""`)
		if len(tall) < 2 {
			t.Errorf("%s: no stack of two shown", id)
		}
		if n := poll[int](t, ctx, "a height", `document.querySelectorAll("text.height").length`); n == 0 {
			t.Errorf("%s: a stack's height is not written", id)
		}
		screenshot(t, ctx, "stack-"+id)
	}
}

// clickCell clicks a cell of the board. The page draws the board afresh
// at each change (a live update may come between finding the cell and
// clicking it), so a click on a cell just replaced is tried again.
func clickCell(t *testing.T, ctx context.Context, cell string) {
	t.Helper()
	var err error
	for range 5 {
		if err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`svg.board polygon[data-cell=%q]`, cell)))); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("clicking %s: %v", cell, err)
}

// clickMove enters a move as a person does: the start, each landing, each
// drop; when several moves still match, it picks this one from the list.
func clickMove(t *testing.T, ctx context.Context, move string) {
	t.Helper()
	route, drops, _ := strings.Cut(move, "@")
	cells := strings.FieldsFunc(route, func(r rune) bool { return r == '-' || r == 'x' })
	if drops != "" {
		cells = append(cells, strings.Split(drops, "@")...)
	}
	for _, c := range cells {
		clickCell(t, ctx, c)
	}
	choice := fmt.Sprintf(`.choices button[data-move=%q]`, move)
	found, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector(%q)`, choice)))
	if err != nil {
		t.Fatal(err)
	}
	if found {
		click(t, ctx, choice)
	}
}

// againstAI creates a Pommel game from the home page's form against the
// AI at level 1 and plays by clicking; the AI answers and the board shows
// each position.
func (b *browser) againstAI(t *testing.T) {
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`select#game`)),
		chromedp.SetValue(chromedp.CSS(`select#game`), "pommel"),
		script(`document.querySelector("select#game").dispatchEvent(new Event("change"))`),
	)
	screenshot(t, ctx, "home")
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`select#seat1`), "ai:level=1"), chromedp.Click(chromedp.CSS(`button.create`)))
	poll[bool](t, ctx, "the game page", `location.pathname.startsWith("/play/")`)
	id := poll[string](t, ctx, "the game's id", `location.pathname.split("/")[2]`)
	for turn := 0; turn < 3; turn++ {
		g := b.waitPly(t, id, 2*turn)
		checkBoard(t, ctx, "pommel", g.Moves)
		poll[bool](t, ctx, "my turn", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
		clickMove(t, ctx, g.Legal[len(g.Legal)/2])
		g = b.waitPly(t, id, 2*turn+2)
		checkBoard(t, ctx, "pommel", g.Moves)
	}
	screenshot(t, ctx, "against-ai")
	// A reload keeps the seat: its token is in the browser's storage.
	run(t, ctx, chromedp.Reload())
	checkBoard(t, ctx, "pommel", b.waitPly(t, id, 6).Moves)
	poll[bool](t, ctx, "my turn after a reload", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
}

// waitPly waits until the game has ply plies and returns it.
func (b *browser) waitPly(t *testing.T, id string, ply int) hall.View {
	t.Helper()
	var g hall.View
	waitFor(t, 10*time.Second, fmt.Sprintf("ply %d", ply), func() bool {
		g = b.ts.game(id)
		return g.Ply >= ply
	})
	if g.Ply != ply {
		t.Fatalf("game at ply %d, want %d", g.Ply, ply)
	}
	return g
}

// inviteLink: one person creates a game with an invite link for the
// other seat; a second browser context opens it; each sees the other's
// move live; a spectator sees them too and cannot move.
func (b *browser) inviteLink(t *testing.T) {
	ann := b.tab(t, true)
	run(t, ann, chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`select#seat1`)),
		chromedp.SetValue(chromedp.CSS(`select#game`), "checkers-2011"),
		script(`document.querySelector("select#game").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS(`select#seat1`), "invite"), chromedp.Click(chromedp.CSS(`button.create`)))
	invite := poll[string](t, ann, "the invite link", `document.querySelector(".invite input[data-seat='1']")?.value`)
	id := poll[string](t, ann, "the game's id", `location.pathname.split("/")[2]`)
	screenshot(t, ann, "invite")
	bob := b.tab(t, true)
	run(t, bob, chromedp.Navigate(invite))
	poll[bool](t, bob, "the token out of the address bar", `location.hash === "" && !!document.querySelector("svg.board polygon")`)
	watcher := b.tab(t, true)
	run(t, watcher, chromedp.Navigate(b.url("/games/"+id)))
	checkBoard(t, watcher, "checkers-2011", nil)

	g := b.ts.game(id)
	clickMove(t, ann, g.Legal[0])
	g = b.waitPly(t, id, 1)
	checkBoard(t, bob, "checkers-2011", g.Moves)
	checkBoard(t, watcher, "checkers-2011", g.Moves)
	poll[bool](t, bob, "Bob's turn", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
	clickMove(t, bob, g.Legal[len(g.Legal)-1])
	g = b.waitPly(t, id, 2)
	checkBoard(t, ann, "checkers-2011", g.Moves)
	checkBoard(t, watcher, "checkers-2011", g.Moves)

	clickMove(t, watcher, g.Legal[0])
	msg := poll[string](t, watcher, "the spectator's message", `document.querySelector(".message")?.textContent`)
	if msg != "You are watching this game." {
		t.Errorf("spectator clicking: message %q", msg)
	}
	if now := b.ts.game(id); now.Ply != 2 {
		t.Errorf("a spectator's click played a move: ply %d", now.Ply)
	}
	screenshot(t, bob, "invite-guest")
}

// refusals: a typed illegal move shows the server's own message, and a
// click on a cell where no move starts says so; neither changes the game.
func (b *browser) refusals(t *testing.T) {
	resp := b.ts.create(map[string]any{"game": "eximo", "seats": []string{"human", "human"}})
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url(resp.Seats[0].URL)))
	checkBoard(t, ctx, "eximo", nil)
	run(t, ctx, chromedp.SendKeys(chromedp.CSS(`#typed-move`), "a1-a8\n"))
	msg := poll[string](t, ctx, "the server's message", `document.querySelector(".message")?.textContent`)
	code, body := b.ts.do("POST", "/api/games/"+resp.ID+"/moves", resp.Seats[0].Token, map[string]any{"move": "a1-a8", "ply": 0})
	var refusal struct {
		Error apiError `json:"error"`
	}
	if err := json.Unmarshal(body, &refusal); err != nil || code != http.StatusUnprocessableEntity {
		t.Fatalf("the API took a1-a8: %d %s", code, body)
	}
	if msg != refusal.Error.Message {
		t.Errorf("the page says %q, the server %q", msg, refusal.Error.Message)
	}
	screenshot(t, ctx, "illegal")
	clickCell(t, ctx, "d4")
	msg = poll[string](t, ctx, "the page's message", `document.querySelector(".message")?.textContent.includes("d4") && document.querySelector(".message").textContent`)
	if msg != "No legal move starts on d4." {
		t.Errorf("a click on an empty cell: message %q", msg)
	}
	if g := b.ts.game(resp.ID); g.Ply != 0 {
		t.Errorf("a refusal played a move: ply %d", g.Ply)
	}
}

// findMove plays random games of id (seeded, so the same every run) until
// a legal move satisfies want; it returns the moves that lead there and
// that move.
func findMove(t *testing.T, id string, want func(move string) bool) ([]string, string) {
	t.Helper()
	rules, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		st := rules.Start()
		var played []string
		for range 300 {
			legal := game.MoveTexts(st)
			if len(legal) == 0 {
				break
			}
			for _, m := range legal {
				if want(m) {
					return played, m
				}
			}
			text := legal[rng.IntN(len(legal))]
			m, err := game.ParseRuleMove(st, text)
			if err != nil {
				t.Fatal(err)
			}
			st.Play(m)
			played = append(played, text)
		}
	}
	t.Fatalf("%s: no such move in 200 random games", id)
	return nil, ""
}

// landings counts the cells of a move's path after its start.
func landings(move string) int {
	route, _, _ := strings.Cut(move, "@")
	return len(strings.FieldsFunc(route, func(r rune) bool { return r == '-' || r == 'x' })) - 1
}

// chainsAndDrops enters, click by click, captures with several landings
// in Pommel-76 and Checkers 2011, an Eximo chain of jumps over friendly
// men, and an Eximo capture ending in drops.
func (b *browser) chainsAndDrops(t *testing.T) {
	cases := []struct {
		id, name string
		want     func(string) bool
	}{
		{"pommel-76", "capture-landings", func(m string) bool { return strings.Contains(m, "x") && landings(m) >= 2 }},
		{"checkers-2011", "capture-landings", func(m string) bool { return strings.Contains(m, "x") && landings(m) >= 2 }},
		{"eximo", "friendly-chain", func(m string) bool { return !strings.Contains(m, "x") && landings(m) >= 2 }},
		{"eximo", "drops", func(m string) bool { return strings.Contains(m, "x") && strings.Count(m, "@") >= 2 }},
	}
	for _, c := range cases {
		t.Run(c.id+" "+c.name, func(t *testing.T) {
			moves, target := findMove(t, c.id, c.want)
			resp := b.ts.create(map[string]any{"game": c.id, "seats": []string{"human", "human"}})
			for ply, m := range moves {
				if code, msg := b.ts.move(resp.ID, resp.Seats[ply%2].Token, m, ply); code != http.StatusOK {
					t.Fatalf("%s: move %s: %d %s", c.id, m, code, msg)
				}
			}
			seat := len(moves) % 2
			ctx := b.tab(t, true)
			run(t, ctx, chromedp.Navigate(b.url(resp.Seats[seat].URL)))
			checkBoard(t, ctx, c.id, moves)
			from, _, _ := strings.Cut(target, "@")
			first := strings.FieldsFunc(from, func(r rune) bool { return r == '-' || r == 'x' })[0]
			clickCell(t, ctx, first)
			poll[bool](t, ctx, "the destinations", `document.querySelectorAll("svg.board polygon.target").length > 0`)
			screenshot(t, ctx, c.name+"-"+c.id)
			clickCell(t, ctx, first)
			clickMove(t, ctx, target)
			g := b.waitPly(t, resp.ID, len(moves)+1)
			if played := g.Moves[len(moves)]; played != target {
				t.Errorf("%s: clicking %s played %s", c.id, target, played)
			}
			checkBoard(t, ctx, c.id, g.Moves)
		})
	}
}

// think is the move a person would choose in the game now: the ab
// engine's, searched to depth from the position GET gives.
func think(t *testing.T, g hall.View, depth int) string {
	t.Helper()
	rules, err := game.New(g.Game, g.Options)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.ParseFEN(g.FEN)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := ai.New("ab", 1)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Search(context.Background(), st, ai.Limits{Depth: depth}, nil).Move.Text(rules.Board())
}

// waitPlyOn waits until the game on ts has more than ply plies or is
// over, and returns it.
func waitPlyOn(t *testing.T, ts *testServer, id string, ply int) hall.View {
	t.Helper()
	var g hall.View
	waitFor(t, 15*time.Second, fmt.Sprintf("a move after ply %d", ply), func() bool {
		g = ts.game(id)
		return g.Ply > ply || g.Result != nil
	})
	return g
}

// playToEnd plays seat's moves by clicking, the others being the
// server's AIs, until the game ends; it returns the game over.
func playToEnd(t *testing.T, ctx context.Context, ts *testServer, id string, seat, depth int) hall.View {
	t.Helper()
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); {
		g := ts.game(id)
		if g.Result != nil {
			return g
		}
		if g.ToMove != seat {
			time.Sleep(30 * time.Millisecond)
			continue
		}
		checkBoardFrom(t, ctx, g.Game, g.StartFEN, g.Moves)
		poll[bool](t, ctx, "my turn", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
		clickMove(t, ctx, think(t, g, depth))
		waitPlyOn(t, ts, id, g.Ply)
	}
	t.Fatalf("game %s did not end within 90 s", id)
	return hall.View{}
}

// newGameFromHome fills the home page's form: the game, each seat's
// choice, a FEN; it submits it and returns the new game's id.
func (b *browser) newGameFromHome(t *testing.T, ctx context.Context, id string, seats []string, fen string) string {
	t.Helper()
	steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`select#game`)),
		chromedp.SetValue(chromedp.CSS(`select#game`), id),
		script(`document.querySelector("select#game").dispatchEvent(new Event("change"))`)}
	for i, s := range seats {
		steps = append(steps, chromedp.SetValue(chromedp.CSS(fmt.Sprintf(`select#seat%d`, i)), s))
	}
	if fen != "" {
		steps = append(steps, chromedp.SetValue(chromedp.CSS(`input#fen`), fen))
	}
	steps = append(steps, chromedp.Click(chromedp.CSS(`button.create`)))
	run(t, ctx, steps...)
	poll[bool](t, ctx, "the game page", `location.pathname.startsWith("/play/")`)
	return poll[string](t, ctx, "the game's id", `location.pathname.split("/")[2]`)
}

// checkResult waits until the page shows the game's result with its
// reason, as the server describes it.
func checkResult(t *testing.T, ctx context.Context, g hall.View) {
	t.Helper()
	text := poll[string](t, ctx, "the result", `document.querySelector(".status .result")?.textContent`)
	if text == "" || text != g.Description {
		t.Errorf("the page shows %q; the game ended %q (%s)", text, g.Description, g.Result.Reason)
	}
}

// pommelToTheEnd: a person starts a Pommel game against the AI from a late
// position on the home page and plays it to its end by clicking; the
// page shows the result and its reason.
func (b *browser) pommelToTheEnd(t *testing.T) {
	ctx := b.tab(t, true)
	id := b.newGameFromHome(t, ctx, "pommel", []string{"me", "ai:level=1"}, "W:Wc3,Kd1,e3:Bd6,b5")
	if g := b.ts.game(id); g.StartFEN != "W:Wc3,Kd1,e3:Bb5,d6" {
		t.Fatalf("the game starts from %q", g.StartFEN)
	}
	screenshot(t, ctx, "pommel-late")
	g := playToEnd(t, ctx, b.ts, id, 0, 4)
	checkBoardFrom(t, ctx, "pommel", g.StartFEN, g.Moves)
	checkResult(t, ctx, g)
	screenshot(t, ctx, "pommel-end")
}

// threePlayers: a person plays Red in punt-heks-match-3p against two AIs,
// from a late position, to its end; the board is turned so that Red's
// home is at the bottom; end rows and frozen piles are drawn, a tall
// pile shows its every pawn on focus.
func (b *browser) threePlayers(t *testing.T) {
	const id = "punt-heks-match-3p"
	ctx := b.tab(t, true)
	gameID := b.newGameFromHome(t, ctx, id, []string{"ai:level=1", "ai:level=1", "me"},
		"R:a3=wwr,b1=wbw,c3=bwbwb,c4=b,e8=rwrwrw,g1=bw,g5=b,g7=brwr,h2=bbr,h4=rbr,h6=r,i5=r")
	g := b.ts.game(gameID)
	checkBoardFrom(t, ctx, id, g.StartFEN, nil)
	homes := map[byte][]string{}
	for cell, s := range expectedStacks(t, id, nil) {
		if s != "" {
			homes[s[0]] = append(homes[s[0]], cell)
		}
	}
	homesJSON, _ := json.Marshal(map[string][]string{"w": homes['w'], "b": homes['b'], "r": homes['r']})
	lows := poll[map[string]float64](t, ctx, "the cells' places", fmt.Sprintf(`(() => {
		const mean = (cells) => cells.reduce((sum, c) => { const r = document.querySelector('polygon[data-cell="' + c + '"]').getBoundingClientRect(); return sum + r.y + r.height / 2; }, 0) / cells.length;
		return Object.fromEntries(Object.entries(%s).map(([k, cells]) => [k, mean(cells)])); })()`, homesJSON))
	if lows["r"] <= lows["w"] || lows["r"] <= lows["b"] {
		t.Errorf("Red's home is not at the bottom of Red's board: mean heights %v", lows)
	}

	code, body := b.ts.do("GET", "/api/games/"+gameID+"/position", "", nil)
	var pos positionView
	if err := json.Unmarshal(body, &pos); err != nil || code != http.StatusOK {
		t.Fatalf("position: %d %s", code, body)
	}
	rows := 0
	for _, r := range pos.EndRows {
		rows += len(r)
	}
	frozenJSON, _ := json.Marshal(pos.Frozen)
	// White's end row has a dark edge under its white line (side-w-edge),
	// not an outline of its own.
	drawn := poll[map[string]any](t, ctx, "the end rows", `({rows: document.querySelectorAll("svg.board .end-row-line:not(.side-w-edge)").length,
		frozen: [...document.querySelectorAll("polygon[data-frozen]")].map((p) => p.dataset.cell).sort().join(","),
		boxes: document.querySelectorAll("svg.board rect.frozen").length})`)
	if int(drawn["rows"].(float64)) != rows || drawn["frozen"] != strings.Join(pos.Frozen, ",") || int(drawn["boxes"].(float64)) != len(pos.Frozen) {
		t.Errorf("drawn: %v; want %d end-row outlines and the frozen piles %s boxed", drawn, rows, frozenJSON)
	}
	run(t, ctx, script(`document.querySelector('polygon[data-cell="e8"]').focus()`))
	if shown := poll[string](t, ctx, "the pile's popup", `document.querySelector("g.stack-popup")?.dataset.stack`); shown != "rwrwrw" {
		t.Errorf("the popup of e8 shows %q, want rwrwrw", shown)
	}
	if n := poll[int](t, ctx, "the popup's discs", `document.querySelectorAll("g.stack-popup circle.piece").length`); n != 6 {
		t.Errorf("the popup of e8 draws %d pawns, want 6", n)
	}
	screenshot(t, ctx, "three-players")
	run(t, ctx, script(`document.activeElement.blur()`))
	g = playToEnd(t, ctx, b.ts, gameID, 2, 2)
	checkBoardFrom(t, ctx, id, g.StartFEN, g.Moves)
	checkResult(t, ctx, g)
	screenshot(t, ctx, "three-players-end")
}

// switchable is a server's address whose handler may change: a restart
// of the server behind the same URL. While it has none, it answers 503.
type switchable struct{ h atomic.Pointer[http.Handler] }

func (s *switchable) set(h http.Handler) {
	if h == nil {
		s.h.Store(nil)
		return
	}
	s.h.Store(&h)
}

func (s *switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := s.h.Load()
	if h == nil {
		writeError(w, fail(codeShutdown, "the server is restarting"))
		return
	}
	(*h).ServeHTTP(w, r)
}

// startOn starts a server on st.
func startOn(t *testing.T, st store.Store) *Server {
	t.Helper()
	srv, err := newSite(siteConfig{Store: st, Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000, GamesPerHour: 1000, Sockets: 100},
		Accounts: roomyAccountLimits})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// reloadAndRestart: a person plays Checkers 2011 against the AI (the
// first move dragged), reloads the page, then the server restarts (a
// second server on the same store, behind the same address); the page
// reconnects by itself, shows the same position, and play goes on.
func (b *browser) reloadAndRestart(t *testing.T) {
	st := openTestStore(t)
	addr := &switchable{}
	first := startOn(t, st)
	addr.set(first.Handler())
	hs := httptest.NewServer(reorderPositions(addr))
	t.Cleanup(hs.Close)
	ts := &testServer{t: t, srv: first, http: hs, store: st}
	resp := ts.create(map[string]any{"game": "checkers-2011", "seats": []string{"human", "ai:level=1"}})
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(hs.URL+resp.Seats[0].URL))
	checkBoard(t, ctx, "checkers-2011", nil)

	g := ts.game(resp.ID)
	move := g.Legal[0]
	from, to, _ := strings.Cut(move, "-")
	// The page may redraw while the drag finds its cells (a seat arrived).
	onFreshNode(t, ctx, "dragging "+move, func() chromedp.Action[chromedp.Void] {
		return chromedp.DragAndDrop(chromedp.CSS(fmt.Sprintf(`polygon[data-cell=%q]`, from)), chromedp.CSS(fmt.Sprintf(`polygon[data-cell=%q]`, to)))
	})
	g = waitPlyOn(t, ts, resp.ID, 0)
	if g.Moves[0] != move {
		t.Fatalf("dragging %s to %s played %s", from, to, g.Moves[0])
	}
	g = waitPlyOn(t, ts, resp.ID, 1)
	checkBoard(t, ctx, "checkers-2011", g.Moves)

	run(t, ctx, chromedp.Reload())
	checkBoard(t, ctx, "checkers-2011", g.Moves)
	poll[bool](t, ctx, "my turn after a reload", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)

	first.Close()
	addr.set(nil)
	poll[bool](t, ctx, "the page noticing", `!!document.querySelector(".status .offline")`)
	screenshot(t, ctx, "reconnecting")
	time.Sleep(700 * time.Millisecond)
	second := startOn(t, st)
	addr.set(second.Handler())
	ts.srv = second
	poll[bool](t, ctx, "the page reconnected", `!document.querySelector(".status .offline") && document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
	checkBoard(t, ctx, "checkers-2011", g.Moves)
	clickMove(t, ctx, g.Legal[len(g.Legal)-1])
	g = waitPlyOn(t, ts, resp.ID, 2)
	g = waitPlyOn(t, ts, resp.ID, 3)
	checkBoard(t, ctx, "checkers-2011", g.Moves)
	screenshot(t, ctx, "restarted")
}

// touch: on a touch screen, a move is two taps.
func (b *browser) touch(t *testing.T) {
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.EmulateViewport(600, 900, chromedp.EmulateTouch), chromedp.Navigate(b.url(resp.Seats[0].URL)))
	checkBoard(t, ctx, "pommel", nil)
	g := b.ts.game(resp.ID)
	move := g.Legal[len(g.Legal)/2]
	from, to, _ := strings.Cut(move, "-")
	tap(t, ctx, fmt.Sprintf(`polygon[data-cell=%q]`, from))
	poll[bool](t, ctx, "the destinations", `document.querySelectorAll("svg.board polygon.target").length > 0`)
	tap(t, ctx, fmt.Sprintf(`polygon[data-cell=%q]`, to))
	if g = b.waitPly(t, resp.ID, 1); g.Moves[0] != move {
		t.Errorf("tapping %s then %s played %s", from, to, g.Moves[0])
	}
	checkBoard(t, ctx, "pommel", g.Moves)
	screenshot(t, ctx, "touch")
}

// animation: a spectator sees a capture slide and the captured piece
// fade; one who asks for reduced motion sees the position at once.
func (b *browser) animation(t *testing.T) {
	moves, capture := findMove(t, "pommel", func(m string) bool { return strings.Contains(m, "x") })
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	for ply, m := range moves {
		if code, msg := b.ts.move(resp.ID, resp.Seats[ply%2].Token, m, ply); code != http.StatusOK {
			t.Fatalf("move %s: %d %s", m, code, msg)
		}
	}
	watcher := b.tab(t, true)
	calm := b.tab(t, true)
	if _, err := chromedp.Call(calm, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
		t.Fatal(err)
	}
	for _, ctx := range []context.Context{watcher, calm} {
		run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
		checkBoard(t, ctx, "pommel", moves)
	}
	if code, msg := b.ts.move(resp.ID, resp.Seats[len(moves)%2].Token, capture, len(moves)); code != http.StatusOK {
		t.Fatalf("move %s: %d %s", capture, code, msg)
	}
	// The captured pieces fade where they stood: the mover's opponent's.
	taken := poll[string](t, watcher, "the captured piece fading", `document.querySelector("svg.board .ghost[data-stack]")?.dataset.stack`)
	if other := []string{"b", "w"}[len(moves)%2]; strings.Trim(strings.ToLower(taken), other) != "" {
		t.Errorf("the fading pieces are %q, want %s's", taken, other)
	}
	if got := poll[string](t, watcher, "the animation", `document.querySelector("svg.board")?.dataset.animated`); got != capture {
		t.Errorf("animated %q, want %q", got, capture)
	}
	all := append(moves, capture)
	checkBoard(t, calm, "pommel", all)
	checkBoard(t, watcher, "pommel", all)
	if got, err := chromedp.Run(calm, chromedp.Evaluate[string](`document.querySelector("svg.board").dataset.animated ?? ""`)); err != nil || got != "" {
		t.Errorf("with reduced motion, the move was animated (%q, %v)", got, err)
	}
}

// clockSeconds reads a clock's text, "1:05" or, under ten seconds with
// tenths, "4.7", as whole seconds.
func clockSeconds(t *testing.T, text string) int {
	t.Helper()
	if secs, err := strconv.ParseFloat(text, 64); err == nil && !strings.Contains(text, ":") {
		return int(secs)
	}
	m, s, ok := strings.Cut(text, ":")
	mins, err1 := strconv.Atoi(m)
	secs, err2 := strconv.Atoi(s)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("clock %q", text)
	}
	return 60*mins + secs
}

// clock: the clock of the side to move ticks each second on the page,
// and its flag fall is shown as the result. A machine busy with other
// work may open the page after a short clock fell: the game is then made
// again with twice the time, until the page sees the clock run.
func (b *browser) clock(t *testing.T) {
	for base := 6; ; base *= 2 {
		if b.clockOf(t, base, base < 96) {
			return
		}
	}
}

// clockOf plays the clock scenario on a game of base seconds; it reports
// false when the game ended before the page saw its clock run twice, if
// another try is allowed.
func (b *browser) clockOf(t *testing.T, base int, again bool) bool {
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": fmt.Sprintf("%ds+0s", base)})
	g := b.ts.game(resp.ID)
	if code, msg := b.ts.move(resp.ID, resp.Seats[0].Token, g.Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, msg)
	}
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
	const running = `document.querySelector('.clock.running[data-seat="1"]')?.textContent || (document.querySelector(".status .result") ? "over" : "")`
	before := poll[string](t, ctx, "Black's clock", running)
	if before == "over" && again {
		return false
	}
	time.Sleep(1100 * time.Millisecond)
	after := poll[string](t, ctx, "Black's clock", running)
	if after == "over" && again {
		return false
	}
	if clockSeconds(t, after) >= clockSeconds(t, before) {
		t.Errorf("Black's clock stands: %s, then %s a second later", before, after)
	}
	screenshot(t, ctx, "clock")
	waitFor(t, time.Duration(base+10)*time.Second, "the flag fall", func() bool { g = b.ts.game(resp.ID); return g.Result != nil })
	checkResult(t, ctx, g)
	return true
}

// lobby: a person opens a seat to anyone; another joins it from the
// home page's open games and plays at it; the first sees on the home
// page that it is their move.
func (b *browser) lobby(t *testing.T) {
	ann := b.tab(t, true)
	id := b.newGameFromHome(t, ann, "checkers-2011", []string{"me", "open"}, "")
	bob := b.tab(t, true)
	run(t, bob, chromedp.Navigate(b.url("/")))
	join := fmt.Sprintf(`button.join[data-game=%q][data-seat="1"]`, id)
	poll[bool](t, bob, "the open seat", fmt.Sprintf(`!!document.querySelector(%q)`, join))
	screenshot(t, bob, "lobby")
	click(t, bob, join)
	poll[bool](t, bob, "the game at Black's seat", fmt.Sprintf(`location.pathname === "/play/%s" && document.querySelector(".status .you")?.textContent === "You play Black"`, id))
	if g := b.ts.game(id); g.Seats[1].Open {
		t.Fatal("the seat is still open after joining")
	}
	run(t, ann, chromedp.Navigate(b.url("/")))
	state := poll[string](t, ann, "Ann's games", fmt.Sprintf(`(() => { const li = document.querySelector('.my-games li[data-game=%q]'); return li?.querySelector('.state.mine') ? li.querySelector('a').textContent + ", " + li.querySelector('.state').textContent : null })()`, id))
	if state != "Checkers 2011, Your move (White)" {
		t.Errorf("Ann's game shows %q", state)
	}
	screenshot(t, ann, "my-games")
}
