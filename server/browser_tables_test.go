package server

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
	"github.com/chromedp/chromedp"
)

// tablesWords is what the analysis page writes of a value of the tables,
// for the side to move.
func tablesWords(v endgame.Value) string {
	if v.Kind == endgame.Draw {
		return "draw (tables)"
	}
	unit := "plies"
	if v.Plies == 1 {
		unit = "ply"
	}
	return fmt.Sprintf("%s in %d %s", kindWord(v.Kind), v.Plies, unit)
}

// tablesPage is a position of the tables to open on the analysis page.
type tablesPage struct {
	name, fen string
}

// TestBrowserTables opens the analysis page of positions the tables of
// three pieces hold, at a desktop's size and a phone's, light and dark:
// the page shows the value the tables give ("win in N plies", "draw
// (tables)") and their move, drawn as an arrow; playing it shows the
// value of the next position; a position with more pieces shows no
// tables. axe-core finds nothing serious. With -screenshots it saves
// each page.
func TestBrowserTables(t *testing.T) {
	skipWithoutBrowser(t)
	tables := buildTables(t, "pommel", nil, 3)
	g := mustGame(t, "pommel", nil)
	pages := []tablesPage{{"draw", findDraw(t, tables, g)}}
	for _, m := range tables.Manifest().Materials {
		if m.Material == "KvKM" {
			pages = append(pages, tablesPage{"win", m.LongestWinFEN}, tablesPage{"loss", m.LongestLossFEN})
		}
	}
	b := newBrowserWith(t, siteConfig{Analysis: analysisWith(t, nil, tables)})
	for _, size := range viewSizes() {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(size.name+"-"+scheme, func(t *testing.T) {
				ctx := b.tab(t, true)
				prefersScheme(t, ctx, scheme)
				run(t, ctx, size.apply)
				for _, p := range pages {
					t.Run(p.name, func(t *testing.T) {
						b.tablesShown(t, ctx, tables, g, p)
						screenshot(t, ctx, strings.Join([]string{"tables", p.name, size.name, scheme}, "-"))
						b.tablesMovePlayed(t, ctx, tables, g, p)
					})
				}
				t.Run("more pieces", func(t *testing.T) { b.noTables(t, ctx) })
			})
		}
	}
}

// tablesShown opens p and checks what the tables' panel says against the
// tables, the move's arrow, and the page with axe-core.
func (b *browser) tablesShown(t *testing.T, ctx context.Context, tables *endgame.Tables, g game.Game, p tablesPage) {
	run(t, ctx, chromedp.Navigate(b.url("/analysis/pommel?fen="+url.QueryEscape(p.fen))))
	want := tablesWords(endgametest.ProbeFEN(t, tables, g, p.fen))
	got := poll[string](t, ctx, "the tables' value", `document.querySelector(".tables:not([hidden]) .tables-value")?.textContent`)
	if got != want {
		t.Errorf("%s: the page says %q, the tables %q", p.fen, got, want)
	}
	move := evaluate[string](t, ctx, `document.querySelector(".tables .tables-move").textContent`)
	arrows := poll[string](t, ctx, "the tables' move drawn", `[...document.querySelectorAll("svg.board .arrow-move")].map((a) => a.dataset.move).join(" ")`)
	if arrows != move {
		t.Errorf("%s: the board's arrows draw %q, want the tables' move %q", p.fen, arrows, move)
	}
	checkAxe(t, ctx, "tables "+p.name)
}

// tablesMovePlayed plays the tables' move with its button: the page then
// shows the next position's value, as the tables give it.
func (b *browser) tablesMovePlayed(t *testing.T, ctx context.Context, tables *endgame.Tables, g game.Game, p tablesPage) {
	move := evaluate[string](t, ctx, `document.querySelector(".tables .tables-move").textContent`)
	s, err := g.ParseFEN(p.fen)
	if err != nil {
		t.Fatal(err)
	}
	if err := game.PlayMoves(s, []string{move}); err != nil {
		t.Fatal(err)
	}
	if s.Result().Over() {
		return // the panel goes with the game's end, which other tests show
	}
	want, err := tables.Probe(s)
	if err != nil {
		t.Fatal(err)
	}
	click(t, ctx, `.tables .play-tables`)
	got := poll[string](t, ctx, "the next position's value", fmt.Sprintf(`(() => {
		const v = document.querySelector(".tables:not([hidden]) .tables-value")?.textContent;
		return new URLSearchParams(location.search).get("moves") === %q && v; })()`, move))
	if got != tablesWords(want) {
		t.Errorf("after %s %s: the page says %q, the tables %q", p.fen, move, got, tablesWords(want))
	}
}

// noTables: a position with more pieces than the tables hold shows no
// panel and draws no arrow.
func (b *browser) noTables(t *testing.T, ctx context.Context) {
	run(t, ctx, chromedp.Navigate(b.url("/analysis/pommel")))
	poll[bool](t, ctx, "the board", boardDrawn)
	shown := poll[string](t, ctx, "the panel's state", `(() => { const p = document.querySelector(".tables");
		return p && (p.hidden ? "hidden" : "shown") + " " + document.querySelectorAll("svg.board .arrow-move").length; })()`)
	if shown != "hidden 0" {
		t.Errorf("the start position: the tables' panel is %s arrows", shown)
	}
}
