package server

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserTheme drives the theme controls of the header: light and
// dark, the board's and the pieces' looks, each remembered; the sides'
// marks; and the focus rings in both themes.
func TestBrowserTheme(t *testing.T) {
	b := newBrowser(t)
	t.Run("toggle", b.themeToggle)
	t.Run("system dark", b.systemDark)
	t.Run("board and pieces", b.boardAndPieces)
	t.Run("side marks", b.sideMarks)
	t.Run("focus rings", b.focusRings)
	t.Run("targets", b.targets)
}

// pageBackground is the page's background colour as computed.
const pageBackground = `getComputedStyle(document.documentElement).backgroundColor`

// themeAttr is the theme the player chose, "" for the system's.
const themeAttr = `(document.documentElement.dataset.theme ?? "")`

// evaluate reads an expression's value in the page.
func evaluate[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// changedFrom waits until expr's value differs from was and returns it.
func changedFrom(t *testing.T, ctx context.Context, what, expr, was string) string {
	t.Helper()
	return poll[string](t, ctx, what, fmt.Sprintf(`(() => { const v = %s; return v !== %q && v; })()`, expr, was))
}

// chooseLook opens the header's Display popover and picks value for the
// look ("theme", "board" or "pieces"), as a person does.
func chooseLook(t *testing.T, ctx context.Context, look, value string) {
	t.Helper()
	sel := fmt.Sprintf(`header select[data-look=%q]`, look)
	if open := evaluate[bool](t, ctx, `!!document.querySelector("header details.looks[open]")`); !open {
		click(t, ctx, `header details.looks > summary`)
	}
	run(t, ctx, chromedp.WaitVisible(chromedp.CSS(sel)), chromedp.SetValue(chromedp.CSS(sel), value),
		script(fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new Event("change"))`, sel)))
}

// themeToggle: the header's switch turns a light page dark, the choice
// outlives a reload, and the switch turns it light again.
func (b *browser) themeToggle(t *testing.T) {
	ctx := b.tab(t, true)
	prefersScheme(t, ctx, "light")
	run(t, ctx, chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`header .theme-toggle`)))
	light := evaluate[string](t, ctx, pageBackground)
	if l := luminance(t, light); l < 0.7 {
		t.Errorf("the light page's background %s is dark (luminance %.2f)", light, l)
	}
	if p := evaluate[string](t, ctx, `document.querySelector(".theme-toggle").getAttribute("aria-pressed")`); p != "false" {
		t.Errorf("in the light theme, the dark switch is pressed: %q", p)
	}
	click(t, ctx, `header .theme-toggle`)
	dark := changedFrom(t, ctx, "a dark background", pageBackground, light)
	if l := luminance(t, dark); l > 0.1 {
		t.Errorf("the dark page's background %s is light (luminance %.2f)", dark, l)
	}
	if got := evaluate[string](t, ctx, themeAttr+` + " " + document.querySelector(".theme-toggle").getAttribute("aria-pressed")`); got != "dark true" {
		t.Errorf("after the switch: theme and pressed %q, want dark true", got)
	}
	run(t, ctx, chromedp.Reload())
	poll[bool](t, ctx, "the dark theme after a reload", `document.documentElement.dataset.theme === "dark" && !!document.querySelector("header .theme-toggle[aria-pressed=true]")`)
	if got := evaluate[string](t, ctx, pageBackground); got != dark {
		t.Errorf("after a reload the background is %s, want %s", got, dark)
	}
	click(t, ctx, `header .theme-toggle`)
	if got := changedFrom(t, ctx, "a light background again", pageBackground, dark); got != light {
		t.Errorf("switched back, the background is %s, want %s", got, light)
	}
}

// systemDark: with no choice stored, a system that prefers dark gets the
// dark theme; the player's choice of light then wins over it.
func (b *browser) systemDark(t *testing.T) {
	ctx := b.tab(t, true)
	prefersScheme(t, ctx, "dark")
	run(t, ctx, chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`header .theme-toggle`)))
	dark := evaluate[string](t, ctx, pageBackground)
	if l := luminance(t, dark); l > 0.1 {
		t.Errorf("a system preferring dark gets the background %s (luminance %.2f)", dark, l)
	}
	if got := evaluate[string](t, ctx, themeAttr+` + " " + document.querySelector(".theme-toggle").getAttribute("aria-pressed")`); got != " true" {
		t.Errorf("no choice stored: theme and pressed %q, want no theme and pressed", got)
	}
	chooseLook(t, ctx, "theme", "light")
	light := changedFrom(t, ctx, "the chosen light background", pageBackground, dark)
	if l := luminance(t, light); l < 0.7 {
		t.Errorf("light chosen on a dark system: background %s (luminance %.2f)", light, l)
	}
	screenshot(t, ctx, "theme-display-open")
	chooseLook(t, ctx, "theme", "system")
	if got := changedFrom(t, ctx, "the system's dark again", pageBackground, light); got != dark || evaluate[string](t, ctx, themeAttr) != "" {
		t.Errorf("back to the system's theme: background %s, want %s", got, dark)
	}
}

// boardAndPieces: the board and pieces chosen in the popover restyle the
// board drawn, and a reload keeps them.
func (b *browser) boardAndPieces(t *testing.T) {
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
	checkBoard(t, ctx, "pommel", nil)
	const cellFill = `getComputedStyle(document.querySelector("svg.board polygon[data-cell]")).fill`
	const pieceLook = `(() => { const s = getComputedStyle(document.querySelector("svg.board circle.piece.side-b")); return s.stroke + " " + s.strokeWidth; })()`
	wood, classic := evaluate[string](t, ctx, cellFill), evaluate[string](t, ctx, pieceLook)
	chooseLook(t, ctx, "board", "slate")
	slate := changedFrom(t, ctx, "the slate board", cellFill, wood)
	chooseLook(t, ctx, "pieces", "contrast")
	contrast := changedFrom(t, ctx, "the high-contrast pieces", pieceLook, classic)
	run(t, ctx, chromedp.Reload())
	checkBoard(t, ctx, "pommel", nil)
	got := evaluate[[]string](t, ctx, `[document.documentElement.dataset.board, document.documentElement.dataset.pieces,
		document.querySelector('select[data-look="board"]').value, document.querySelector('select[data-look="pieces"]').value]`)
	if strings.Join(got, " ") != "slate contrast slate contrast" {
		t.Errorf("after a reload: board, pieces and their selects %v, want slate and contrast", got)
	}
	if fill, look := evaluate[string](t, ctx, cellFill), evaluate[string](t, ctx, pieceLook); fill != slate || look != contrast {
		t.Errorf("after a reload: cell %s and pieces %s, want %s and %s", fill, look, slate, contrast)
	}
}

// sideMarks: in the three-player game the sides differ by more than
// colour: each top piece of Black carries a solid ring, of Red a dashed
// one, of White none.
func (b *browser) sideMarks(t *testing.T) {
	const id = "punt-heks-match-3p"
	resp := b.ts.create(map[string]any{"game": id, "seats": []string{"human", "human", "human"}})
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url(resp.URL)))
	checkBoard(t, ctx, id, nil)
	want := map[string]int{}
	for _, s := range expectedStacks(t, id, nil) {
		if s != "" {
			want[strings.ToLower(s[len(s)-1:])]++
		}
	}
	got := evaluate[map[string]int](t, ctx, `Object.fromEntries(["w", "b", "r"].map((s) =>
		[s, [...document.querySelectorAll("svg.board g.stack")].filter((g) => g.querySelector(".side-mark.side-" + s)).length]))`)
	if got["w"] != 0 || got["b"] != want["b"] || got["r"] != want["r"] || want["b"] == 0 || want["r"] == 0 {
		t.Errorf("stacks marked per side %v; want White none, Black %d, Red %d", got, want["b"], want["r"])
	}
	dashes := evaluate[map[string]string](t, ctx, `Object.fromEntries(["b", "r"].map((s) =>
		[s, getComputedStyle(document.querySelector("svg.board .side-mark.side-" + s)).strokeDasharray]))`)
	if dashes["b"] != "none" || dashes["r"] == "none" {
		t.Errorf("the marks' dashes %v: want Black's solid, Red's dashed", dashes)
	}
	screenshot(t, ctx, "theme-side-marks")
}

// focusRings: in both themes, a button reached by Tab shows an outline
// of 3:1 contrast against the header, and a focused cell of every board
// a stroke of its own of 3:1 against the cell.
func (b *browser) focusRings(t *testing.T) {
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	for _, theme := range []string{"light", "dark"} {
		t.Run(theme, func(t *testing.T) {
			ctx := b.tab(t, true)
			run(t, ctx, chromedp.Navigate(b.url(resp.URL)), script(fmt.Sprintf(`localStorage.setItem("arbiter.theme", %q)`, theme)), chromedp.Reload())
			checkBoard(t, ctx, "pommel", nil)
			for range 10 {
				if evaluate[bool](t, ctx, `document.activeElement?.tagName === "BUTTON"`) {
					break
				}
				run(t, ctx, chromedp.KeyEvent(kb.Tab))
			}
			ring := evaluate[map[string]string](t, ctx, `(() => { const s = getComputedStyle(document.activeElement);
				return { tag: document.activeElement.tagName, style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor,
					behind: getComputedStyle(document.querySelector("header")).backgroundColor }; })()`)
			if ring["tag"] != "BUTTON" || ring["style"] == "none" || ring["width"] == "0px" {
				t.Errorf("%s: the focused %s shows the outline %s %s", theme, ring["tag"], ring["style"], ring["width"])
			} else if c := contrast(t, ring["color"], ring["behind"]); c < 3 {
				t.Errorf("%s: the focus outline %s on %s has contrast %.1f, want 3", theme, ring["color"], ring["behind"], c)
			}
			for _, board := range []string{"wood", "slate", "green"} {
				chooseLook(t, ctx, "board", board)
				focusedCell(t, ctx, theme+" "+board)
			}
			screenshot(t, ctx, "theme-focus-"+theme)
		})
	}
}

// targets: every control of the home page and of a seat's game page is
// at least 40 px each way on a desktop, 44 px on a phone; the
// buttons of the move list, a list of moves to step through, at least
// the 24 px WCAG 2.2 asks.
func (b *browser) targets(t *testing.T) {
	resp := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	for _, size := range viewSizes() {
		want := map[string]int{"desktop": 40, "phone": 44}[size.name]
		for _, path := range []string{"/", resp.Seats[0].URL} {
			t.Run(path, func(t *testing.T) {
				ctx := b.tab(t, true)
				run(t, ctx, size.apply, chromedp.Navigate(b.url(path)))
				poll[bool](t, ctx, "the page drawn", `!!document.querySelector("main button, main select")`)
				small := evaluate[[]string](t, ctx, fmt.Sprintf(`[...document.querySelectorAll("button, select, input, summary")].filter((e) => {
					const r = e.getBoundingClientRect();
					if (!e.checkVisibility()) return false; // in a closed popover, say
					const least = e.closest(".moves") ? 24 : e.matches("input[type=checkbox], input[type=radio]") ? 20 : %d;
					return Math.min(r.width, r.height) < least - 0.5;
				}).map((e) => e.outerHTML.slice(0, 80) + " " + Math.round(e.getBoundingClientRect().width) + "x" + Math.round(e.getBoundingClientRect().height))`, want))
				for _, s := range small {
					t.Errorf("%s %s: a control under %d px: %s", size.name, path, want, s)
				}
			})
		}
	}
}

// focusedCell checks that a cell given focus shows a stroke of its own,
// of 3:1 contrast against the cell.
func focusedCell(t *testing.T, ctx context.Context, look string) {
	t.Helper()
	const cellStroke = `(() => { const s = getComputedStyle(document.querySelector("svg.board polygon[data-cell]"));
		return { stroke: s.stroke, width: s.strokeWidth, fill: s.fill }; })()`
	run(t, ctx, script(`document.activeElement?.blur()`))
	before := evaluate[map[string]string](t, ctx, cellStroke)
	// The ring is the keyboard's (:focus-visible): an arrow key moves the
	// focus to the next cell, whose stroke is read.
	run(t, ctx, script(`document.querySelector("svg.board polygon[data-cell]").focus()`), chromedp.KeyEvent(kb.ArrowRight))
	after := evaluate[map[string]string](t, ctx, `(() => { const s = getComputedStyle(document.activeElement);
		return { stroke: s.stroke, width: s.strokeWidth, fill: s.fill }; })()`)
	if after["stroke"] == "none" || after["stroke"] == before["stroke"] || after["width"] == before["width"] {
		t.Errorf("%s: a focused cell's stroke %s %s, unfocused %s %s", look, after["stroke"], after["width"], before["stroke"], before["width"])
	} else if c := contrast(t, after["stroke"], after["fill"]); c < 3 {
		t.Errorf("%s: the focused cell's stroke %s on %s has contrast %.1f, want 3", look, after["stroke"], after["fill"], c)
	}
}

// rgbOf reads a computed colour, "rgb(r, g, b)" or "rgba(r, g, b, a)".
func rgbOf(t *testing.T, css string) [3]float64 {
	t.Helper()
	var c [3]float64
	inner := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(css, "rgba("), "rgb("), ")")
	parts := strings.Split(inner, ",")
	if len(parts) < 3 {
		t.Fatalf("not an rgb colour: %q", css)
	}
	for i := range c {
		if _, err := fmt.Sscan(strings.TrimSpace(parts[i]), &c[i]); err != nil {
			t.Fatalf("not an rgb colour: %q", css)
		}
	}
	return c
}

// luminance is a colour's relative luminance as WCAG 2 defines it.
func luminance(t *testing.T, css string) float64 {
	t.Helper()
	c := rgbOf(t, css)
	var l [3]float64
	for i, v := range c {
		v /= 255
		if v <= 0.04045 {
			l[i] = v / 12.92
		} else {
			l[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// contrast is WCAG 2's contrast ratio of two colours.
func contrast(t *testing.T, a, b string) float64 {
	t.Helper()
	la, lb := luminance(t, a), luminance(t, b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}
