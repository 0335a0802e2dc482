package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserPages drives the site's own pages: the home page (its game
// cards and form), the rules pages' ways to play, Pommel's coordinates
// and the not-found page, at a desktop's size and a phone's.
func TestBrowserPages(t *testing.T) {
	b := newBrowser(t)
	t.Run("play from the rules", b.playFromRules)
	t.Run("unknown game asked", b.unknownGameAsked)
	t.Run("home at both sizes", b.homeAtBothSizes)
	t.Run("pommel labels", b.pommelLabels)
	t.Run("not found", b.notFound)
	t.Run("rules for players", b.rulesForPlayers)
	t.Run("assets kept between pages", b.assetsKept)
}

// assetsKept: the first page fetches the bundle gzipped, under its
// hashed names; the next page takes it from the browser's cache without
// asking the server (the names are sent "immutable"); the page names its
// icon, which is served.
func (b *browser) assetsKept(t *testing.T) {
	ctx := b.sized(t, screens[0])
	coldCache(t, ctx)
	// transferSize: the bytes over the network (headers and body, 0 from
	// the cache); decodedBodySize: the bundle's own size.
	entry := fmt.Sprintf(`(() => { const e = performance.getEntriesByType("resource").find((r) => new URL(r.name).pathname === %q);
		return e ? [e.transferSize, e.decodedBodySize] : null; })()`, hashedAsset(t, "app.js"))
	sizes := func(path string) []float64 {
		t.Helper()
		run(t, ctx, chromedp.Navigate(b.url(path)))
		return poll[[]float64](t, ctx, "app.js's timing", entry)
	}
	first := sizes("/")
	if first[0] <= 0 || first[0] > first[1]/2 {
		t.Errorf("the first page moved %.0f bytes for a bundle of %.0f: want it gzipped", first[0], first[1])
	}
	if again := sizes("/learn"); again[0] != 0 {
		t.Errorf("the next page moved %.0f bytes for the bundle of %.0f: want none, the cached copy", again[0], first[1])
	}
	icon := poll[string](t, ctx, "the icon", `document.querySelector('link[rel="icon"]')?.href`)
	resp, err := http.Get(icon)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("the icon %s: %d %s", icon, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// screen is a window size the pages are checked at.
type screen struct {
	name   string
	w, h   int64
	mobile bool
}

var screens = []screen{{"desktop", 1280, 800, false}, {"phone", 390, 844, true}}

// smallPhone is the narrowest screen the home page is laid out for.
var smallPhone = screen{"small-phone", 360, 740, true}

// sized opens a fresh tab at the size of s.
func (b *browser) sized(t *testing.T, s screen) context.Context {
	t.Helper()
	ctx := b.tab(t, true)
	scale := 1.0
	if s.mobile {
		scale = phoneScale()
	}
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: s.w, Height: s.h, DeviceScaleFactor: scale, Mobile: s.mobile}); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// playFromRules: the Play link of Pommel 76's rules page opens the home
// page's form with Pommel 76 chosen; the game it starts is Pommel 76.
func (b *browser) playFromRules(t *testing.T) {
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url("/rules/pommel-76")), chromedp.Click(chromedp.CSS(`.page-links a.play`)))
	chosen := poll[string](t, ctx, "the form", `location.pathname === "/" && document.querySelector("select#game")?.value`)
	if chosen != "pommel-76" {
		t.Fatalf("the form offers %q, want pommel-76", chosen)
	}
	if shown := poll[string](t, ctx, "the choice", `document.querySelector("select#game").selectedOptions[0].textContent`); shown != "Pommel 76" {
		t.Errorf("the form shows %q, want the game's name", shown)
	}
	screenshot(t, ctx, "pages-play-from-rules")
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`select#seat1`), "friend"), chromedp.Click(chromedp.CSS(`button.create`)))
	id := poll[string](t, ctx, "the game page", `location.pathname.startsWith("/play/") && location.pathname.split("/")[2]`)
	if g := b.ts.game(id); g.Game != "pommel-76" {
		t.Errorf("the game made is %s, want pommel-76", g.Game)
	}
	poll[bool](t, ctx, "the game page naming pommel-76", `document.body.textContent.includes("Pommel 76") && document.querySelectorAll("svg.board polygon[data-cell]").length === 76`)
}

// unknownGameAsked: a ?game= the server does not play is ignored, with
// no error: the form offers the first game the page lists, Pommel.
func (b *browser) unknownGameAsked(t *testing.T) {
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url("/?game=chess")))
	chosen := poll[string](t, ctx, "the form", `document.querySelector("select#game")?.value`)
	if chosen != "pommel" {
		t.Errorf("the form offers %q, want the first game the page lists, Pommel", chosen)
	}
	if msg := poll[string](t, ctx, "the message", `document.querySelector(".message") && (document.querySelector(".message").textContent || "none")`); msg != "none" {
		t.Errorf("the page says %q", msg)
	}
}

// homeAtBothSizes: every game has its card (picture, name, Play, Rules,
// Analyse), one card a row on a phone and several on a desk; every
// control of the form has a label; the seats are named by their side; a
// card's Play, pressed from the keyboard, chooses its game in the form.
func (b *browser) homeAtBothSizes(t *testing.T) {
	for _, s := range append(screens, smallPhone) {
		t.Run(s.name, func(t *testing.T) {
			ctx := b.sized(t, s)
			run(t, ctx, chromedp.Navigate(b.url("/")))
			poll[bool](t, ctx, "the previews", fmt.Sprintf(`document.querySelectorAll(".game-card svg.preview").length === %d`, len(game.All())))
			for _, d := range game.All() {
				card := fmt.Sprintf(`document.querySelector('.game-card[data-game=%q]')`, d.ID)
				text := poll[string](t, ctx, "the card of "+d.ID, card+`?.querySelector("h3")?.textContent`)
				if text != gameName(d.ID) {
					t.Errorf("%s: the card is titled %q, want %q", s.name, text, gameName(d.ID))
				}
				if !poll[bool](t, ctx, "the card's links", card+`.querySelectorAll("a.play, a.rules, a.analyse").length === 3`) {
					t.Errorf("%s: %s's card lacks Play, Rules or Analyse", s.name, d.ID)
				}
			}
			columns := poll[float64](t, ctx, "the card layout", `new Set([...document.querySelectorAll(".game-card")].map((c) => c.getBoundingClientRect().left)).size`)
			if s.mobile && columns != 1 || !s.mobile && columns < 2 {
				t.Errorf("%s: the cards stand in %v columns", s.name, columns)
			}
			if wide := poll[string](t, ctx, "the page width", `String(document.documentElement.scrollWidth <= innerWidth)`); wide != "true" {
				t.Errorf("%s: the page is wider than the window", s.name)
			}
			unlabelled := poll[string](t, ctx, "the form's labels", `[...document.querySelectorAll("form.new-game select, form.new-game input")]
				.filter((c) => !document.querySelector('label[for="' + c.id + '"]')).map((c) => c.name).join(",") || "none"`)
			if unlabelled != "none" {
				t.Errorf("%s: controls without a label: %s", s.name, unlabelled)
			}
			screenshot(t, ctx, "pages-home-"+s.name)
		})
	}
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url("/")))
	seats := poll[string](t, ctx, "the seats", `document.querySelector("label[for=seat1]") && [...document.querySelectorAll("fieldset.seats label")].map((l) => l.textContent).join(",")`)
	var sides []string
	for _, seat := range game.All()[0].Seats {
		sides = append(sides, seat.Name)
	}
	if want := strings.Join(sides, ","); seats != want {
		t.Errorf("the seats are labelled %q, want %q", seats, want)
	}
	run(t, ctx, script(`document.querySelector('.game-card[data-game="punt-heks-match-3p"] a.play').focus()`), chromedp.KeyEvent("\r"))
	chosen := poll[string](t, ctx, "the game chosen", `document.querySelector("select#game").value === "punt-heks-match-3p" && [...document.querySelectorAll("fieldset.seats label")].map((l) => l.textContent).join(",")`)
	if chosen != "White,Black,Red" {
		t.Errorf("Play on the three-player card: seats %q, want White,Black,Red", chosen)
	}
}

// pommelLabels: on both Pommel boards each coordinate is written once.
func (b *browser) pommelLabels(t *testing.T) {
	ctx := b.tab(t, true)
	for _, id := range []string{"pommel", "pommel-76"} {
		run(t, ctx, chromedp.Navigate(b.url("/analysis/"+id)))
		texts := poll[[]string](t, ctx, "the labels", `(() => { const l = [...document.querySelectorAll("svg.board text.label")].map((t) => t.textContent); return l.length ? l : null })()`)
		seen := map[string]bool{}
		for _, text := range texts {
			if seen[text] {
				t.Errorf("%s: the label %q is written twice (%v)", id, text, texts)
			}
			seen[text] = true
		}
		screenshot(t, ctx, "pages-labels-"+id)
	}
}

// notFound: an unknown game, game to analyse, rules page or path shows
// the not-found page (404) with its way home, and no move box or engine.
func (b *browser) notFound(t *testing.T) {
	for _, path := range []string{"/games/nope", "/play/nope?seat=0", "/analysis/chess", "/rules/chess", "/no/such/page"} {
		resp, err := http.Get(b.url(path))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
		for _, s := range screens {
			t.Run(path+" "+s.name, func(t *testing.T) {
				ctx := b.sized(t, s)
				run(t, ctx, chromedp.Navigate(b.url(path)))
				text := poll[string](t, ctx, "the not-found page", `document.querySelector(".not-found")?.textContent`)
				if !strings.Contains(text, "Not found") || !strings.Contains(text, "There is no") {
					t.Errorf("%s at %s: the page reads %q", path, s.name, text)
				}
				controls := poll[string](t, ctx, "the page drawn", `document.querySelector("header .theme-controls, header a.home") && String(document.querySelectorAll("#typed-move, main input, button.ask, button.stop, svg.board").length)`)
				if controls != "0" {
					t.Errorf("%s at %s: %s move or engine controls", path, s.name, controls)
				}
				if home := poll[string](t, ctx, "the way home", `document.querySelector("a.not-found-home")?.getAttribute("href")`); home != "/" {
					t.Errorf("%s at %s: the way home leads to %q", path, s.name, home)
				}
				if path == "/games/nope" || path == "/analysis/chess" {
					screenshot(t, ctx, "pages-404-"+strings.Split(path, "/")[1]+"-"+s.name)
				}
			})
		}
	}
}

// rulesForPlayers: the rules pages read as a player's: no commands or
// shell transcripts, diagrams drawn, each with a link to try its
// position on the analysis board, which opens it.
func (b *browser) rulesForPlayers(t *testing.T) {
	for _, s := range screens {
		t.Run(s.name, func(t *testing.T) {
			ctx := b.sized(t, s)
			run(t, ctx, chromedp.Navigate(b.url("/rules/pommel")))
			poll[bool](t, ctx, "the diagrams", `document.querySelectorAll("figure.diagram svg.board").length > 3`)
			text := poll[string](t, ctx, "the page", `document.querySelector("main").innerText`)
			for _, bad := range developerPhrases {
				if strings.Contains(text, bad) {
					t.Errorf("%s: the rules page holds %q", s.name, bad)
				}
			}
			// The page is long: its top, and its first worked example.
			viewShot(t, ctx, "pages-rules-"+s.name)
			run(t, ctx, script(`document.getElementById("example-1-soldier-hop").scrollIntoView()`))
			viewShot(t, ctx, "pages-rules-example-"+s.name)
		})
	}
	ctx := b.tab(t, true)
	run(t, ctx, chromedp.Navigate(b.url("/rules/checkers-2011")))
	href := poll[string](t, ctx, "a link to try a position", `document.querySelectorAll("figure.diagram a.try")[1]?.getAttribute("href")`)
	fen := poll[string](t, ctx, "its figure", `document.querySelectorAll("figure.diagram a.try")[1].closest("figure").dataset.fen`)
	run(t, ctx, script(`document.querySelectorAll("figure.diagram a.try")[1].click()`))
	if !strings.HasPrefix(href, "/analysis/checkers-2011?fen=") {
		t.Fatalf("the link leads to %q", href)
	}
	shown := poll[string](t, ctx, "the analysis page", `location.pathname === "/analysis/checkers-2011" && document.querySelector("#fen")?.value`)
	if shown != fen {
		t.Errorf("the analysis page shows %q, want the diagram's %q", shown, fen)
	}
}
