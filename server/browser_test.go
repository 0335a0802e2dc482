package server

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// chromiumPath is Debian's chromium, which .ci/run installs.
const chromiumPath = "/usr/bin/chromium"

var screenshotDir = flag.String("screenshots", "", "save the browser tests' screenshots in this folder")

// newBrowser starts one headless Chromium and a server whose limits are
// raised (the scenarios set positions up through the API, faster than a
// person plays); it skips without Chromium or with -short. The browser
// stops when the test ends.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("the browser tests need Chromium at %s (apt-get install chromium): %v", chromiumPath, err)
	}
	if testing.Short() {
		t.Skip("the browser tests are skipped with -short")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 800))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browserCtx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	ts := newTestServerBehind(t, Config{Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000, GamesPerHour: 1000, Sockets: 100}}, reorderPositions)
	return &browser{ctx: browserCtx, ts: ts}
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
	t.Run("start positions", b.startPositions)
	t.Run("stacks and piles", b.stacksAndPiles)
	t.Run("against the AI", b.againstAI)
	t.Run("invite link", b.inviteLink)
	t.Run("refusals", b.refusals)
	t.Run("chains and drops", b.chainsAndDrops)
}

// browser is the one Chromium and the server the scenarios share.
type browser struct {
	ctx context.Context
	ts  *testServer
}

// tab opens a tab, in a browser context of its own (its own local
// storage: another person) when fresh is set.
func (b *browser) tab(t *testing.T, fresh bool) context.Context {
	t.Helper()
	var opts []chromedp.ContextOption
	if fresh {
		opts = append(opts, chromedp.WithNewBrowserContext())
	}
	ctx, cancel := chromedp.NewContext(b.ctx, opts...)
	t.Cleanup(cancel)
	ctx, cancelTime := context.WithTimeout(ctx, 30*time.Second)
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

// script runs a statement in the page.
func script(statement string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void]("(() => { " + statement + "; return {}; })()")
}

// poll waits until the expression is truthy in the page and returns it.
func poll[T any](t *testing.T, ctx context.Context, what, expr string) T {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		v, err := chromedp.Run(ctx, chromedp.Poll[T](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
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
	rules, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.Start()
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
	want := expectedStacks(t, id, moves)
	wantJSON, _ := json.Marshal(want)
	expr := fmt.Sprintf(`(() => { const got = %s; const want = %s; if (!got) return false;
		return Object.keys(want).length === Object.keys(got).length && Object.keys(want).every((k) => got[k] === want[k]); })()`, shownStacks, wantJSON)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
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
func (b *browser) playUntil(t *testing.T, resp createResponse, id string) []string {
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
		run(t, ctx, chromedp.Click(chromedp.CSS(choice)))
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
func (b *browser) waitPly(t *testing.T, id string, ply int) gameView {
	t.Helper()
	var g gameView
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
	}
}
