package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/chromedp/chromedp"
)

// TestBrowserAnalysis drives the rules pages and the analysis page in one
// headless Chromium, as TestBrowser does the game pages.
func TestBrowserAnalysis(t *testing.T) {
	b := newBrowser(t)
	t.Run("rules from home", b.rulesFromHome)
	t.Run("analysis", b.analysis)
	t.Run("analyse a game", b.analyseGame)
	t.Run("engine streams", b.engineStreams)
	t.Run("set up by clicking", b.setUpByClicking)
	t.Run("docs screenshots", b.docsScreenshots)
}

// rulesFromHome checks each game's start drawn on the home page, follows
// its rules link, and checks the rules page's diagrams drawn as boards.
func (b *browser) rulesFromHome(t *testing.T) {
	for _, d := range game.All() {
		t.Run(d.ID, func(t *testing.T) {
			ctx := b.tab(t, false) // a tab each, so that none runs out of its time
			run(t, ctx, chromedp.Navigate(b.url("/")))
			poll[bool](t, ctx, "the catalog", fmt.Sprintf(`!!document.querySelector(%q)`, `a.rules[data-game="`+d.ID+`"]`))
			preview := poll[map[string]string](t, ctx, "the start drawn on the home page", fmt.Sprintf(`(() => { const cells = document.querySelectorAll('svg.preview[data-game=%q] polygon[data-cell]');
				return cells.length > 0 && Object.fromEntries([...cells].map((p) => [p.dataset.cell, p.dataset.stack || ""])); })()`, d.ID))
			if want := expectedStacks(t, d.ID, nil); !maps.Equal(preview, want) {
				t.Errorf("%s: the home page draws the start as %v, want %v", d.ID, preview, want)
			}
			click(t, ctx, `a.rules[data-game="`+d.ID+`"]`)
			title := poll[string](t, ctx, "the rules page", `location.pathname.startsWith("/rules/") && document.querySelector("header h1")?.textContent`)
			if path := poll[string](t, ctx, "the path", `location.pathname`); path != "/rules/"+d.ID || title == "" {
				t.Errorf("%s: the rules link opened %s titled %q", d.ID, path, title)
			}
			if n := poll[int](t, ctx, "the diagrams", `document.querySelectorAll("main figure.diagram").length`); n == 0 {
				t.Errorf("%s: no diagram on the rules page", d.ID)
			}
			// Every figure drawn as a board; the game's start as the rules set it.
			poll[bool](t, ctx, "the boards drawn", `(() => { const f = document.querySelectorAll("figure.diagram"); return f.length > 0 &&
				[...f].every((e) => e.querySelectorAll("svg.board polygon[data-cell]").length > 0); })()`)
			start := mustStart(t, d.ID)
			got := poll[map[string]string](t, ctx, "the start diagram", fmt.Sprintf(`(() => {
				const f = [...document.querySelectorAll("figure.diagram")].find((e) => e.dataset.game === %q && e.dataset.fen === %q);
				return f && Object.fromEntries([...f.querySelectorAll("polygon[data-cell]")].map((p) => [p.dataset.cell, p.dataset.stack || ""])); })()`, d.ID, start.FEN()))
			if want := expectedStacks(t, d.ID, nil); !maps.Equal(got, want) {
				t.Errorf("%s: the rules page draws the start as %v, want %v", d.ID, got, want)
			}
			if d.ID == "eximo" {
				screenshot(t, ctx, "rules-eximo")
			}
		})
	}
}

// analysis opens the analysis page, pastes a FEN, plays a move by
// clicking, steps back, and asks the engine for its move and score.
func (b *browser) analysis(t *testing.T) {
	moves, _ := findMove(t, "checkers-2011", func(m string) bool { return strings.Contains(m, "x") })
	rules, _ := game.New("checkers-2011", nil)
	st := rules.Start()
	if err := game.PlayMoves(st, moves); err != nil {
		t.Fatal(err)
	}
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url("/analysis/checkers-2011")))
	checkBoard(t, ctx, "checkers-2011", nil)

	// A refused FEN shows the parser's message and leaves the board.
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#fen`), "W:nonsense"), chromedp.Click(chromedp.CSS(`button.setup`)))
	_, fenErr := rules.ParseFEN("W:nonsense")
	msg := poll[string](t, ctx, "the FEN's refusal", `document.querySelector(".message")?.textContent`)
	if fenErr == nil || msg != fenErr.Error() {
		t.Errorf("a bad FEN: the page says %q, the parser %v", msg, fenErr)
	}
	checkBoard(t, ctx, "checkers-2011", nil)

	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#fen`), st.FEN()), chromedp.Click(chromedp.CSS(`button.setup`)))
	checkBoard(t, ctx, "checkers-2011", moves)
	legal := game.MoveTexts(st)
	shown := poll[[]string](t, ctx, "the legal moves", `(() => { const b = [...document.querySelectorAll(".legal button")].map((e) => e.dataset.move); return b.length ? b : null; })()`)
	if !slices.Equal(shown, legal) {
		t.Errorf("legal moves shown %v, want %v", shown, legal)
	}
	screenshot(t, ctx, "analysis-fen")

	move := legal[len(legal)-1]
	clickMove(t, ctx, move)
	checkBoard(t, ctx, "checkers-2011", append(slices.Clone(moves), move))
	click(t, ctx, `.nav button[aria-label="back"]`)
	checkBoard(t, ctx, "checkers-2011", moves)
	click(t, ctx, `.nav button[aria-label="forward"]`)
	checkBoard(t, ctx, "checkers-2011", append(slices.Clone(moves), move))

	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#movetime`), "500"), chromedp.Click(chromedp.CSS(`button.ask`)))
	best := poll[string](t, ctx, "the engine's move", `document.querySelector(".best[data-state=done] .best-move")?.textContent`)
	score := poll[string](t, ctx, "the engine's score", `document.querySelector(".best .score")?.textContent`)
	after := st.Clone()
	if err := game.PlayMoves(after, []string{move}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(game.MoveTexts(after), best) || score == "" {
		t.Errorf("the engine showed %q score %q; want a legal move of %v and a score", best, score, game.MoveTexts(after))
	}
	screenshot(t, ctx, "analysis-best")
	addr := poll[string](t, ctx, "the address", `location.search`)
	if !strings.Contains(addr, "fen=") || !strings.Contains(addr, "moves=") {
		t.Errorf("the address %q does not keep the FEN and the line", addr)
	}
}

// analyseGame follows a game page's "Analyse this game" link: the
// analysis page shows the game's last position.
func (b *browser) analyseGame(t *testing.T) {
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "options": map[string]string{"hop": "any"}})
	var moves []string
	for ply := range 4 {
		g := b.ts.game(resp.ID)
		if code, msg := b.ts.move(resp.ID, resp.Seats[ply%2].Token, g.Legal[0], ply); code != http.StatusOK {
			t.Fatalf("move %s: %d %s", g.Legal[0], code, msg)
		}
		moves = append(moves, g.Legal[0])
	}
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
	poll[bool](t, ctx, "the analysis link", `!!document.querySelector("a.analyse")`)
	click(t, ctx, `main.game .menu-button`) // the link is in the "⋯" menu
	click(t, ctx, `a.analyse`)
	poll[bool](t, ctx, "the analysis page", `location.pathname === "/analysis/pommel"`)
	checkBoard(t, ctx, "pommel", moves)
	if n := poll[int](t, ctx, "the line", `document.querySelectorAll(".moves li").length`); n != len(moves) {
		t.Errorf("the line shows %d moves, want %d", n, len(moves))
	}
	if q := poll[string](t, ctx, "the options", `location.search`); !strings.Contains(q, "hop%3Dany") {
		t.Errorf("the analysis page lost the game's options: %s", q)
	}
}

// engineStreams asks for a long search: its depth, score and line show
// while it thinks, deeper as it goes; Stop keeps the last line, and a new
// search can be asked at once.
func (b *browser) engineStreams(t *testing.T) {
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url("/analysis/eximo")))
	checkBoard(t, ctx, "eximo", nil)
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#movetime`), "5000"), chromedp.Click(chromedp.CSS(`button.ask`)))
	const shownDepth = `(() => { const b = document.querySelector(".best[data-state=thinking]"); const d = Number(b?.querySelector(".depth")?.textContent);
		return b && b.querySelector(".pv").textContent.length > "Line: ".length && d >= %d ? d : 0; })()`
	first := poll[int](t, ctx, "a line while the engine thinks", fmt.Sprintf(shownDepth, 1))
	deeper := poll[int](t, ctx, "a deeper line while it thinks", fmt.Sprintf(shownDepth, first+1))
	screenshot(t, ctx, "analysis-thinking")
	legal := game.MoveTexts(mustStart(t, "eximo"))
	move := poll[string](t, ctx, "the move so far", `document.querySelector(".best .best-move")?.textContent`)
	if !slices.Contains(legal, move) {
		t.Errorf("the best move so far %q is not one of %v", move, legal)
	}
	click(t, ctx, `button.stop`)
	stopped := poll[int](t, ctx, "the stopped search", `document.querySelector(".best[data-state=stopped]") && !document.querySelector("button.ask").disabled && Number(document.querySelector(".best .depth").textContent)`)
	if stopped < deeper {
		t.Errorf("stopped at depth %d after showing depth %d", stopped, deeper)
	}
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`#movetime`), "500"), chromedp.Click(chromedp.CSS(`button.ask`)))
	best := poll[string](t, ctx, "the answer of a new search", `document.querySelector(".best[data-state=done] .best-move")?.textContent`)
	if msg := poll[string](t, ctx, "the message", `document.querySelector(".message").textContent + " "`); !slices.Contains(legal, best) || msg != " " {
		t.Errorf("a search after a stop answered %q with the message %q", best, msg)
	}
}

// mustStart is the start of a game with its default options.
func mustStart(t *testing.T, id string) game.State {
	t.Helper()
	rules, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rules.Start()
}

// setUpByClicking sets a Pommel position up piece by piece: the board,
// the FEN and the legal moves follow each click; a piece the rules do
// not allow there is refused with the parser's message.
func (b *browser) setUpByClicking(t *testing.T) {
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url("/analysis/pommel")))
	checkBoard(t, ctx, "pommel", nil)
	click(t, ctx, `button.edit`)
	click(t, ctx, `.setup-panel button.clear`)
	poll[bool](t, ctx, "the cleared board", `document.querySelectorAll("polygon[data-stack]").length === 0 && document.querySelectorAll("polygon[data-cell]").length > 0`)
	put := func(letter, cell string) {
		click(t, ctx, fmt.Sprintf(`.palette input[value=%q]`, letter))
		clickCell(t, ctx, cell)
	}
	put("w", "c3")
	poll[bool](t, ctx, "c3", `document.querySelector('polygon[data-cell="c3"]').dataset.stack === "w"`)
	put("b", "e5")
	poll[bool](t, ctx, "e5", `document.querySelector('polygon[data-cell="e5"]').dataset.stack === "b"`)
	put("W", "d1")
	// A person's choice: the value and its one change event together (the
	// page redraws the select after each edit, so the two must not be
	// apart; chromedp's SetValue may fire a change event of its own).
	run(t, ctx, script(`const s = document.querySelector("#edit-to-move"); s.value = "1"; s.dispatchEvent(new Event("change"))`))
	rules, _ := game.New("pommel", nil)
	want, err := rules.ParseFEN("B:Wc3,Kd1:Be5")
	if err != nil {
		t.Fatal(err)
	}
	fen := poll[string](t, ctx, "the FEN set up", fmt.Sprintf(`document.querySelector("#fen").value === %q && document.querySelector("#fen").value`, want.FEN()))
	checkStacks(t, ctx, want)
	screenshot(t, ctx, "analysis-setup")

	// A White soldier on its last row: refused, the board unchanged.
	_, refused := editPosition(want, editRequest{Cell: "d7", Stack: "w"})
	if refused == nil {
		t.Fatal("the server takes a White soldier on d7")
	}
	put("w", "d7")
	if msg := poll[string](t, ctx, "the refusal", `document.querySelector(".message").textContent`); msg != refused.Message {
		t.Errorf("a soldier on d7: the page says %q, want %q", msg, refused.Message)
	}
	checkStacks(t, ctx, want)
	// A click on a cell holding the chosen piece takes it off.
	put("w", "c3")
	poll[bool](t, ctx, "c3 emptied", `!document.querySelector('polygon[data-cell="c3"]').dataset.stack`)
	click(t, ctx, `button.edit`)
	after, err := rules.ParseFEN(strings.Replace(fen, "Wc3,", "W", 1))
	if err != nil {
		t.Fatal(err)
	}
	shown := poll[[]string](t, ctx, "the legal moves", `(() => { const b = [...document.querySelectorAll(".legal button")].map((e) => e.dataset.move); return document.querySelector(".setup-box").hidden && b.length ? b : null; })()`)
	if !slices.Equal(shown, game.MoveTexts(after)) {
		t.Errorf("legal moves after setting up %v, want %v", shown, game.MoveTexts(after))
	}
	if addr := poll[string](t, ctx, "the address", `location.search`); !strings.Contains(addr, "fen=B") {
		t.Errorf("the address %q does not keep the position set up", addr)
	}
}

// checkStacks waits until the board shows st's stacks.
func checkStacks(t *testing.T, ctx context.Context, st game.State) {
	t.Helper()
	pos, err := position(st, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(pos.Stacks)
	expr := fmt.Sprintf(`(() => { const want = %s; const got = Object.fromEntries([...document.querySelectorAll("polygon[data-stack]")].map((p) => [p.dataset.cell, p.dataset.stack]));
		return Object.keys(got).length === Object.keys(want).length && Object.keys(want).every((k) => got[k] === want[k]); })()`, want)
	poll[bool](t, ctx, "the stacks of "+st.FEN(), expr)
}

// docsScreenshots shows each game's start and a middle position to a
// spectator, the home page, a game against the AI and the analysis page
// thinking, in a window of 1000x700, checking each board; with
// -screenshots DIR (and only then the pages after the boards) it saves
// them as the pictures of the README and the rules pages:
//
//	go test ./server/ -run 'TestBrowserAnalysis/docs' -screenshots ../docs/img
func (b *browser) docsScreenshots(t *testing.T) {
	window := func(t *testing.T) context.Context {
		ctx := b.tab(t, false) // a tab each, so that none runs out of its time
		run(t, ctx, chromedp.EmulateViewport(1000, 700))
		return ctx
	}
	for _, d := range game.All() {
		t.Run(d.ID, func(t *testing.T) {
			ctx := window(t)
			seats := slices.Repeat([]string{"human"}, d.Players)
			g := b.ts.create(map[string]any{"game": d.ID, "seats": seats})
			run(t, ctx, chromedp.Navigate(b.url(g.URL)))
			checkBoard(t, ctx, d.ID, nil)
			viewShot(t, ctx, d.ID+"-start")
			moves := b.playMiddle(t, g, 16)
			run(t, ctx, chromedp.Reload())
			checkBoard(t, ctx, d.ID, moves)
			viewShot(t, ctx, d.ID+"-middle")
		})
	}

	if *screenshotDir == "" {
		// The pages below, at both sizes in both schemes, are the
		// README's pictures; the page and theme tests check them.
		return
	}
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}, "names": []string{"Ann"}, "clock": "10m+5s"})
	for ply := 0; ply < 12; ply += 2 {
		v := b.waitPly(t, g.ID, ply)
		if code, msg := b.ts.move(g.ID, g.Seats[0].Token, v.Legal[len(v.Legal)/2], ply); code != http.StatusOK {
			t.Fatalf("move: %d %s", code, msg)
		}
	}
	played := b.waitPly(t, g.ID, 12)
	pages := []struct {
		name, path, ready string
	}{
		{"home", "/", fmt.Sprintf(`document.querySelectorAll("svg.preview").length === %d`, len(game.All()))},
		{"play", g.Seats[0].URL, `document.querySelector(".status .turn")?.textContent === "Your move"`},
		{"analysis", "/analysis/pommel?moves=" + strings.Join(played.Moves, "+"), `document.querySelectorAll("svg.board polygon").length > 0`},
		{"learn", "/learn/pommel", `document.querySelectorAll("svg.board polygon").length > 0`},
		{"rules", "/rules/pommel", `document.querySelector("figure.diagram svg.board polygon")`},
	}
	for _, size := range screenSizes {
		for _, scheme := range []string{"light", "dark"} {
			for _, p := range pages {
				t.Run(strings.Join([]string{p.name, size.name, scheme}, "-"), func(t *testing.T) {
					ctx := b.tab(t, false)
					// A phone's picture at one pixel per CSS pixel, so that it
					// stays small in the README.
					run(t, ctx, chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateScale(1)))
					prefersScheme(t, ctx, scheme)
					run(t, ctx, chromedp.Navigate(b.url(p.path)))
					poll[bool](t, ctx, p.name, "!!("+p.ready+")")
					if p.name == "analysis" {
						run(t, ctx, chromedp.SetValue(chromedp.CSS(`#movetime`), "1000"), script(`document.querySelector("button.ask").click(); window.scrollTo(0, 0)`))
						// A line to show; its depth depends on the position the AI
						// game reached (one legal move is answered at depth 1).
						poll[bool](t, ctx, "a line", `Number(document.querySelector(".best .depth")?.textContent) >= 1`)
					}
					time.Sleep(300 * time.Millisecond) // the last move's slide
					viewShot(t, ctx, strings.Join([]string{"site", p.name, size.name, scheme}, "-"))
					if p.name == "analysis" {
						run(t, ctx, script(`document.querySelector("button.stop")?.click()`))
					}
				})
			}
		}
	}
}

// playMiddle plays up to plies moves of g through the API, a capture
// when there is one, else one picked across the list, so that the
// position has left the start; it returns the moves.
func (b *browser) playMiddle(t *testing.T, g hall.Created, plies int) []string {
	t.Helper()
	var v hall.View
	for range plies {
		v = b.ts.game(g.ID)
		if len(v.Legal) == 0 {
			break
		}
		move := v.Legal[(7*v.Ply+3)%len(v.Legal)] // varied, and the same at every run
		if i := slices.IndexFunc(v.Legal, func(m string) bool { return strings.Contains(m, "x") }); i >= 0 {
			move = v.Legal[i]
		}
		if code, msg := b.ts.move(g.ID, g.Seats[v.ToMove].Token, move, v.Ply); code != http.StatusOK {
			t.Fatalf("%s: move %s: %d %s", v.Game, move, code, msg)
		}
	}
	return b.ts.game(g.ID).Moves
}

// viewShot saves what the window shows when -screenshots names a folder:
// the pictures of the documentation, kept small.
func viewShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *screenshotDir == "" {
		return
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	small, err := smallPNG(shot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*screenshotDir, name+".png"), small, 0o644); err != nil {
		t.Fatal(err)
	}
}

// smallPNG writes a screenshot with a palette of its 256 commonest
// colours, each other colour drawn as the nearest of them: a page of flat
// colours looks the same and takes about a third of the bytes.
func smallPNG(data []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	common := slices.SortedFunc(maps.Keys(counts), func(p, q color.RGBA) int {
		return cmp.Or(cmp.Compare(counts[q], counts[p]), cmp.Compare(p.R, q.R), cmp.Compare(p.G, q.G), cmp.Compare(p.B, q.B), cmp.Compare(p.A, q.A))
	})
	var palette color.Palette
	for _, c := range common[:min(256, len(common))] {
		palette = append(palette, c)
	}
	out := image.NewPaletted(b, palette)
	index := map[color.RGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			i, ok := index[c]
			if !ok {
				i = uint8(palette.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
