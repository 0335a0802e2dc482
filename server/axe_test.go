package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/learn"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeScript is axe-core, the accessibility checker, as .ci/run installs
// it (npm ci --prefix server/testdata/axe).
const axeScript = "testdata/axe/node_modules/axe-core/axe.min.js"

// axeViolation is a rule axe-core found broken, with the first elements
// that break it.
type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
	Count   int      `json:"count"`
}

// axeRun runs axe-core on the page and keeps its serious and critical
// violations, each with the selectors of its first three elements.
const axeRun = `axe.run(document, { resultTypes: ["violations"], runOnly: RULES }).then((r) => r.violations
	.filter((v) => v.impact === "serious" || v.impact === "critical")
	.map((v) => ({ id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
		targets: v.nodes.slice(0, 3).map((n) => n.target.flat().join(" ")) })))`

// readAxe reads axe-core's script; ok is false when it is not installed.
func readAxe(t *testing.T) (script string, ok bool) {
	t.Helper()
	src, err := os.ReadFile(axeScript)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(src), true
}

// checkAxe runs axe-core in the page ctx shows, named page in the
// failures, and fails the test on each serious or critical violation.
// Without axe-core installed it only says so in the log, so that a test
// calling it goes on with its other checks.
func checkAxe(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	runAxe(t, ctx, page, "undefined")
}

// checkAxeColours is checkAxe with only the rules that judge colours: for
// a page already checked whole in the other scheme. The dark theme
// changes colours alone (every colour is a light-dark() pair, theme.css),
// and the colour rules are half of axe-core's time on a page.
func checkAxeColours(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	runAxe(t, ctx, page, `["color-contrast", "link-in-text-block"]`)
}

// checkAxeIn is checkAxe in the light scheme, checkAxeColours in the dark.
func checkAxeIn(t *testing.T, ctx context.Context, scheme, page string) {
	t.Helper()
	if scheme == "dark" {
		checkAxeColours(t, ctx, page)
		return
	}
	checkAxe(t, ctx, page)
}

// runAxe runs axe-core's rules (a JavaScript list, or undefined for all)
// in the page ctx shows.
func runAxe(t *testing.T, ctx context.Context, page, rules string) {
	t.Helper()
	src, ok := readAxe(t)
	if !ok {
		t.Logf("%s: not checked with axe-core: %s is missing (npm ci --prefix server/testdata/axe installs it)", page, axeScript)
		return
	}
	// The script's last value is axe itself, which cannot travel back as
	// JSON: end with a plain one.
	run(t, ctx, chromedp.Evaluate[chromedp.Void](`if (typeof axe === "undefined") {`+src+"\n}\n0"))
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](strings.Replace(axeRun, "RULES", rules, 1), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: running axe-core: %v", page, err)
	}
	for _, v := range found {
		t.Errorf("%s: %s (%s) on %d elements: %s; first %s", page, v.ID, v.Impact, v.Count, v.Help, strings.Join(v.Targets, " | "))
	}
}

// axePage is a page to check: where it is and what shows it has drawn.
type axePage struct {
	name, path, ready string
}

// boardDrawn is true once a page's board has its cells.
const boardDrawn = `document.querySelectorAll("svg.board polygon[data-cell]").length > 0`

// axePages are every kind of page: home, the puzzles, a game at a seat and watched
// (a two-player game and a three-player one), each game's analysis and
// rules pages, a game that does not exist, and the tournaments' list and
// a tournament's page (a visitor's).
func (b *browser) axePages(t *testing.T) []axePage {
	played := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	for ply := range 2 {
		g := b.ts.game(played.ID)
		if code, msg := b.ts.move(played.ID, played.Seats[ply].Token, g.Legal[len(g.Legal)/2], ply); code != http.StatusOK {
			t.Fatalf("move %d: %d %s", ply, code, msg)
		}
	}
	over := b.ts.create(map[string]any{"game": "eximo", "seats": []string{"human", "ai:level=1"}})
	if code, body := b.ts.do("POST", "/api/games/"+over.ID+"/resign", over.Seats[0].Token, nil); code != http.StatusOK {
		t.Fatalf("resign: %d %s", code, body)
	}
	three := b.ts.create(map[string]any{"game": "punt-heks-match-3p", "seats": []string{"human", "human", "human"}})
	pages := []axePage{
		{"home", "/", fmt.Sprintf(`document.querySelectorAll("svg.preview").length === %d`, len(game.All()))},
		{"game-seat", played.Seats[0].URL, boardDrawn + ` && !!document.querySelector(".status .turn")`},
		{"game-spectator", played.URL, boardDrawn + ` && !!document.querySelector(".status .turn")`},
		{"game-three", three.URL, boardDrawn},
		// Served by the server or drawn by the script: either has a header.
		{"not-found", "/games/nope", `document.readyState === "complete" && !!document.querySelector("header")`},
		{"game-over", over.Seats[0].URL, boardDrawn + ` && !document.querySelector(".end").hidden`},
		{"learn", "/learn", `!!document.querySelector("main svg polygon")`},
		{"puzzles", "/puzzles", `document.querySelectorAll("li.puzzle-game").length > 0`},
		{"puzzles-game", "/puzzles/pommel-76", boardDrawn + ` && document.querySelector("svg.board").dataset.phase === "solving"`},
	}
	// A Swiss its creator joined: the list, and the page with its table.
	jar, _ := cookiejar.New(nil)
	tess := &member{t: t, ts: b.ts, name: "tess", c: &http.Client{Jar: jar}}
	tess.must(http.StatusCreated, "POST", "/api/accounts", map[string]string{"name": "tess", "password": "green-lamps-glow-softly"}, nil)
	var swiss struct{ ID string }
	tess.must(http.StatusCreated, "POST", "/api/tournaments", map[string]any{"kind": "swiss", "game": "pommel",
		"clock": map[string]int{"initial": 300, "increment": 3}, "rounds": 3}, &swiss)
	tess.must(http.StatusNoContent, "POST", "/api/tournaments/"+swiss.ID+"/join", nil, nil)
	pages = append(pages,
		axePage{"tournaments", "/tournaments", `document.querySelectorAll(".tournament-part").length === 3`},
		axePage{"tournament", "/tournaments/" + swiss.ID, `document.querySelector("main.tournament")?.dataset.live === "true" && !!document.querySelector("table.tournament-table")`})
	for _, tut := range learn.Tutorials() {
		pages = append(pages, axePage{"learn-" + tut.Family, "/learn/" + tut.Family, boardDrawn})
	}
	for _, d := range game.All() {
		pages = append(pages,
			axePage{"analysis-" + d.ID, "/analysis/" + d.ID, boardDrawn},
			axePage{"rules-" + d.ID, "/rules/" + d.ID, `!!document.querySelector("header .theme-controls") &&
				[...document.querySelectorAll("figure.diagram")].every((f) => f.querySelector("svg.board polygon[data-cell]"))`})
	}
	return pages
}

// viewSize is a window the pages are checked in.
type viewSize struct {
	name  string
	apply chromedp.Action[chromedp.Void]
}

// viewSizes are a desktop's window and a phone's (a touch screen).
func viewSizes() []viewSize {
	return []viewSize{
		{"desktop", chromedp.EmulateViewport(1280, 800)},
		{"phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(phoneScale()), chromedp.EmulateMobile)},
	}
}

// prefersScheme emulates the system's light or dark preference.
func prefersScheme(t *testing.T, ctx context.Context, scheme string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		t.Fatal(err)
	}
}

// checkedOnAPhone says whether the page named name is checked at a
// phone's size too. axe-core judges names, roles, labels and contrast:
// the light and the dark theme change the colours, so every page is
// checked in both; a phone's size changes the layout (what is folded,
// hidden or moved), which is the same for every game's or tutorial's page
// made from one template, so one game's stands for the others': a square
// board and a hex one of three players for the analysis board, whose
// panel moves under the board there. Every other page is checked at both
// sizes.
func checkedOnAPhone(name string) bool {
	samples := []string{"rules-pommel", "analysis-pommel", "analysis-punt-heks-match-3p", "learn-pommel"}
	for _, template := range []string{"rules-", "analysis-", "learn-"} {
		if strings.HasPrefix(name, template) {
			return slices.Contains(samples, name)
		}
	}
	return true
}

// TestBrowserAxe checks every page with axe-core on a desktop's screen,
// and at a phone's size those that checkedOnAPhone keeps, in the light
// theme and the dark: no serious or critical violation (contrast, names,
// roles, labels...). With -screenshots it saves each page as checked.
// The four windows run in parallel, each in a tab of its own.
func TestBrowserAxe(t *testing.T) {
	if _, ok := readAxe(t); !ok {
		t.Skipf("axe-core is not installed at server/%s: npm ci --prefix server/testdata/axe (.ci/run does)", axeScript)
	}
	b := newBrowser(t)
	pages := b.axePages(t)
	for _, size := range viewSizes() {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(size.name+"-"+scheme, func(t *testing.T) {
				t.Parallel()
				// One tab for every page: its window and scheme are set once.
				ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithExistingBrowserContext(b.own))
				t.Cleanup(cancel)
				ctx, cancelTime := context.WithTimeout(ctx, 5*time.Minute)
				t.Cleanup(cancelTime)
				prefersScheme(t, ctx, scheme)
				run(t, ctx, size.apply)
				for _, p := range pages {
					if size.name == "phone" && !checkedOnAPhone(p.name) {
						continue
					}
					t.Run(p.name, func(t *testing.T) {
						run(t, ctx, chromedp.Navigate(b.url(p.path)))
						poll[bool](t, ctx, p.name+" drawn", p.ready)
						poll[bool](t, ctx, "the "+scheme+" theme", fmt.Sprintf(`matchMedia("(prefers-color-scheme: %s)").matches`, scheme))
						checkAxeIn(t, ctx, scheme, p.name)
						name := strings.Join([]string{"axe", size.name, scheme, p.name}, "-")
						if strings.HasPrefix(p.name, "rules-") {
							viewShot(t, ctx, name) // the window only: a rules page is long
						} else {
							screenshot(t, ctx, name)
						}
					})
				}
			})
		}
	}
}
