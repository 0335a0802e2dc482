package server

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/arbiter-games/arbiter/game"
)

// TestBrowserDesk checks the game page as lichess's players expect it on
// a desktop, and on a phone where it fits: the whole board in the window,
// the coordinates inside the board's edge cells, the material each
// player took beside their strip, a dot saying whether each player's
// page is open, and the game's links folded into a "⋯" menu.
func TestBrowserDesk(t *testing.T) {
	b := newBrowser(t)
	for _, size := range screenSizes {
		t.Run(size.name, func(t *testing.T) {
			t.Run("the board fits the window", func(t *testing.T) { b.boardFitsWindow(t, size) })
			t.Run("coordinates inside the board", func(t *testing.T) { b.coordinatesInside(t, size) })
		})
	}
}

// boardFitsWindow: at 1280x800 the whole board and both players' strips
// are in the window without scrolling, the board taking most of its
// height; on a phone the board is as wide as the screen.
func (b *browser) boardFitsWindow(t *testing.T, size screenSize) {
	for _, id := range []string{"pommel-76", "punt-heks-match", "eximo"} {
		g := b.ts.create(map[string]any{"game": id, "seats": []string{"human", "human"}})
		ctx := b.sizedScheme(t, size, "light")
		run(t, ctx, chromedp.Navigate(b.url(g.Seats[0].URL)))
		poll[bool](t, ctx, "the board", boardDrawn)
		inView(t, ctx, id+": the board", "svg.board")
		inView(t, ctx, id+": the strip above", ".players.above")
		inView(t, ctx, id+": the strip below", ".players.below")
		cells := evaluate[map[string]float64](t, ctx, `(() => { const rs = [...document.querySelectorAll("svg.board polygon[data-cell]")].map((p) => p.getBoundingClientRect());
			return { height: Math.max(...rs.map((r) => r.bottom)) - Math.min(...rs.map((r) => r.top)), width: Math.max(...rs.map((r) => r.right)) - Math.min(...rs.map((r) => r.left)) }; })()`)
		if size.mobile {
			if cells["width"] < 0.95*float64(size.width) && cells["height"] < 0.6*float64(size.height) {
				t.Errorf("%s on a phone: the cells span %.0f px of the %d px screen's width", id, cells["width"], size.width)
			}
			continue
		}
		if cells["height"] < 0.68*float64(size.height) && cells["width"] < 0.5*float64(size.width) {
			t.Errorf("%s at %dx%d: the cells span %.0f px of the window's height (%.0f wide), want two thirds of it", id, size.width, size.height, cells["height"], cells["width"])
		}
	}
}

// coordinatesInside: on every game's board, seen from each seat (turned
// for the others), every coordinate is written once, inside the edge
// cell of the line it names, and no two overlap.
func (b *browser) coordinatesInside(t *testing.T, size screenSize) {
	for _, d := range game.All() {
		seats := make([]string, d.Players)
		for i := range seats {
			seats[i] = "human"
		}
		g := b.ts.create(map[string]any{"game": d.ID, "seats": seats})
		want := coordinateTexts(t, d.ID)
		for _, s := range g.Seats {
			// Each seat's page in a browser of its own, so that the view
			// is that seat's (a browser holding several shows the first).
			ctx := b.sizedScheme(t, size, "light")
			run(t, ctx, chromedp.Navigate(b.url(s.URL)))
			poll[bool](t, ctx, "the board", boardDrawn+` && location.hash === ""`)
			checkCoordinates(t, ctx, fmt.Sprintf("%s seat %d", d.ID, s.Seat), want)
			screenshot(t, ctx, fmt.Sprintf("desk-coords-%s-%s-%d", size.name, d.ID, s.Seat))
		}
	}
}

// coordinateTexts are the coordinates the board of game id has, each
// once: the lines its labels name.
func coordinateTexts(t *testing.T, id string) []string {
	t.Helper()
	rules, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	geo, err := rules.Board().Geometry(0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range geo.Labels {
		if !slices.Contains(out, l.Text) {
			out = append(out, l.Text)
		}
	}
	slices.Sort(out)
	return out
}

// coordinatesCheck reads the board's coordinates: each one's text, and
// what is wrong with it: outside its cell's outline (every corner of its
// box is tested), or overlapping another's box.
const coordinatesCheck = `(() => {
	const inside = (pts, x, y) => { let sign = 0;
		for (let i = 0; i < pts.length; i++) { const a = pts[i], b = pts[(i + 1) % pts.length];
			const c = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
			if (c === 0) continue; if (sign === 0) sign = Math.sign(c); else if (Math.sign(c) !== sign) return false; }
		return true; };
	const labels = [...document.querySelectorAll("svg.board text.label")];
	const boxes = labels.map((l) => l.getBBox());
	const wrong = [];
	labels.forEach((l, i) => {
		if (!l.classList.contains("coord")) { wrong.push(l.textContent + " is beside the board"); return; }
		const cell = document.querySelector('svg.board polygon[data-cell="' + l.dataset.cell + '"]');
		const r = boxes[i];
		if (!cell) { wrong.push(l.textContent + " names no cell"); return; }
		const pts = [...cell.points];
		for (const [x, y] of [[r.x, r.y], [r.x + r.width, r.y], [r.x, r.y + r.height], [r.x + r.width, r.y + r.height]]) {
			if (!inside(pts, x, y)) { wrong.push(l.textContent + " runs out of " + l.dataset.cell); break; }
		}
		if (!new RegExp("^([a-z]+)(\\d+)$").exec(l.dataset.cell).slice(1).includes(l.textContent)) wrong.push(l.textContent + " stands in " + l.dataset.cell);
		boxes.forEach((o, j) => {
			if (j > i && r.x < o.x + o.width && o.x < r.x + r.width && r.y < o.y + o.height && o.y < r.y + r.height) wrong.push(l.textContent + " overlaps " + labels[j].textContent);
		});
	});
	return { texts: labels.map((l) => l.textContent).sort(), wrong };
})()`

// checkCoordinates fails when the board in ctx writes a coordinate out
// of its edge cell, over another, or not exactly once each of want.
func checkCoordinates(t *testing.T, ctx context.Context, what string, want []string) {
	t.Helper()
	got := evaluate[struct {
		Texts []string `json:"texts"`
		Wrong []string `json:"wrong"`
	}](t, ctx, coordinatesCheck)
	slices.Sort(want)
	sorted := slices.Clone(got.Texts)
	slices.SortFunc(sorted, strings.Compare)
	if !slices.Equal(sorted, want) {
		t.Errorf("%s: the coordinates are %q, want %q once each", what, got.Texts, want)
	}
	for _, w := range got.Wrong {
		t.Errorf("%s: %s", what, w)
	}
}
