package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
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
			t.Run("material taken", func(t *testing.T) { b.materialTaken(t, size) })
			t.Run("presence", func(t *testing.T) { b.presenceDots(t, size) })
			t.Run("the menu", func(t *testing.T) { b.gameMenu(t, size) })
		})
	}
}

// boardFitsWindow: at 1280x800 the whole board and both players' strips
// are in the window without scrolling, the board taking most of its
// height; on a phone the board is as wide as the screen.
func (b *browser) boardFitsWindow(t *testing.T, size screenSize) {
	for _, id := range []string{"pommel-76", "punt-heks-match", "eximo", "punt-heks-match-3p"} {
		t.Run(id, func(t *testing.T) {
			seats := []string{"human", "human"}
			if id == "punt-heks-match-3p" {
				seats = append(seats, "human")
			}
			g := b.ts.create(map[string]any{"game": id, "seats": seats})
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
				return
			}
			// Three players' two strips above take some of the height.
			if len(seats) == 2 && cells["height"] < 0.68*float64(size.height) && cells["width"] < 0.5*float64(size.width) {
				t.Errorf("%s at %dx%d: the cells span %.0f px of the window's height (%.0f wide), want two thirds of it", id, size.width, size.height, cells["height"], cells["width"])
			}
		})
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
			t.Run(fmt.Sprintf("%s seat %d", d.ID, s.Seat), func(t *testing.T) {
				// Each seat's page in a browser of its own, so that the view
				// is that seat's (a browser holding several shows the first).
				ctx := b.sizedScheme(t, size, "light")
				run(t, ctx, chromedp.Navigate(b.url(s.URL)))
				poll[bool](t, ctx, "the board", boardDrawn+` && location.hash === ""`)
				checkCoordinates(t, ctx, fmt.Sprintf("%s seat %d", d.ID, s.Seat), want)
				screenshot(t, ctx, fmt.Sprintf("desk-coords-%s-%s-%d", size.name, d.ID, s.Seat))
			})
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

// freeCount counts the pieces of the side with letter that are free:
// in stacks whose top piece is theirs (docs/web.md: a piece under an
// opponent's is a prisoner, out of play).
func freeCount(stacks map[string]string, letter string) int {
	n := 0
	for _, s := range stacks {
		if s == "" || !strings.EqualFold(s[len(s)-1:], letter) {
			continue
		}
		n += strings.Count(strings.ToLower(s), letter)
	}
	return n
}

// wantTaken is what each seat of two (letters w and b, in turn order)
// took between the start and after moves: the opponent's pieces no
// longer free.
func wantTaken(t *testing.T, id string, letters []string, moves []string) []int {
	t.Helper()
	start, now := expectedStacks(t, id, nil), expectedStacks(t, id, moves)
	lost := make([]int, len(letters))
	for i, l := range letters {
		lost[i] = max(0, freeCount(start, l)-freeCount(now, l))
	}
	return []int{lost[1], lost[0]}
}

// shownTaken reads what each seat's strip says it took (0 for nothing).
const shownTaken = `[0, 1].map((s) => Number(document.querySelector('.player[data-seat="' + s + '"] .material')?.dataset.taken ?? 0))`

// materialTaken: after captures, each player's strip counts the
// opponent's pieces they took, worked out here from the rules (taken off
// or, in Checkers 2011, held prisoner), with the lead; stepping back
// through the moves counts again, and the start shows none. Punt, which
// takes nothing, shows each player's score.
func (b *browser) materialTaken(t *testing.T, size screenSize) {
	for _, id := range []string{"eximo", "checkers-2011", "pommel"} {
		t.Run(id, func(t *testing.T) {
			rules, err := game.New(id, nil)
			if err != nil {
				t.Fatal(err)
			}
			letters := []string{strings.ToLower(rules.PlayerName(0)[:1]), strings.ToLower(rules.PlayerName(1)[:1])}
			g := b.ts.create(map[string]any{"game": id, "seats": []string{"human", "human"}})
			// A capture at least (found in random games), then more moves,
			// captures first.
			prefix, capture := findMove(t, id, func(m string) bool { return strings.Contains(m, "x") })
			b.playMoves(t, g, append(prefix, capture))
			moves := b.playMiddle(t, g, 8)
			want := wantTaken(t, id, letters, moves)
			if want[0]+want[1] == 0 {
				t.Fatalf("%s: no capture in %v", id, moves)
			}
			ctx := b.sizedScheme(t, size, "light")
			run(t, ctx, chromedp.Navigate(b.url(g.URL)))
			poll[bool](t, ctx, "the board", boardDrawn)
			waitTaken(t, ctx, id+" after "+strings.Join(moves, " "), want)
			lead := evaluate[[]string](t, ctx, `[0, 1].map((s) => document.querySelector('.player[data-seat="' + s + '"] .material .lead')?.textContent ?? "")`)
			for seat, l := range lead {
				wantLead := ""
				if d := want[seat] - want[1-seat]; d > 0 {
					wantLead = fmt.Sprintf("+%d", d)
				}
				if l != wantLead {
					t.Errorf("%s: seat %d's lead reads %q, want %q", id, seat, l, wantLead)
				}
			}
			screenshot(t, ctx, "desk-material-"+size.name+"-"+id)
			// One move back, then the start.
			run(t, ctx, chromedp.KeyEvent(kb.ArrowLeft))
			back := wantTaken(t, id, letters, moves[:len(moves)-1])
			poll[bool](t, ctx, "the move before", `!!document.querySelector(".status .history")`)
			waitTaken(t, ctx, id+" a move back", back)
			run(t, ctx, chromedp.KeyEvent(kb.Home))
			poll[bool](t, ctx, "the start, nothing taken", `!!document.querySelector(".status .history") && document.querySelectorAll(".player .material").length === 0`)
		})
	}
	g := b.ts.create(map[string]any{"game": "punt-match", "seats": []string{"human", "human"}})
	moves := b.playMiddle(t, g, 10)
	ctx := b.sizedScheme(t, size, "light")
	run(t, ctx, chromedp.Navigate(b.url(g.URL)))
	var pos positionView
	code, body := b.ts.do("GET", fmt.Sprintf("/api/games/%s/position?ply=%d", g.ID, len(moves)), "", nil)
	if err := json.Unmarshal(body, &pos); code != http.StatusOK || err != nil {
		t.Fatalf("position: %d %s", code, body)
	}
	scores := poll[[]string](t, ctx, "Punt's scores", `(() => { const s = [0, 1].map((s) => document.querySelector('.player[data-seat="' + s + '"] .material.score')?.textContent); return s.every((x) => x) ? s : null; })()`)
	for seat, text := range scores {
		if want := fmt.Sprintf("score %d", pos.Scores[seat]); text != want {
			t.Errorf("punt-match: seat %d's strip reads %q, want %q", seat, text, want)
		}
	}
	if n := evaluate[int](t, ctx, `document.querySelectorAll(".player .material:not(.score)").length`); n != 0 {
		t.Errorf("punt-match: %d strips count pieces taken, in a game that takes none", n)
	}
}

// playMoves plays moves in g through the API, each by the seat to move.
func (b *browser) playMoves(t *testing.T, g hall.Created, moves []string) {
	t.Helper()
	for _, m := range moves {
		v := b.ts.game(g.ID)
		if code, msg := b.ts.move(g.ID, g.Seats[v.ToMove].Token, m, v.Ply); code != http.StatusOK {
			t.Fatalf("%s: move %s: %d %s", v.Game, m, code, msg)
		}
	}
}

// waitTaken waits until the strips say the seats took want, and fails
// with what they say when they do not within 20 s.
func waitTaken(t *testing.T, ctx context.Context, what string, want []int) {
	t.Helper()
	expr := fmt.Sprintf(`(() => { const v = %s; return v[0] === %d && v[1] === %d; })()`, shownTaken, want[0], want[1])
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, pollEvery(), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Errorf("%s: the strips say the players took %v, want %v", what, evaluate[[]int](t, ctx, shownTaken), want)
	}
}

// closableTab is a tab in a browser context of its own (another person)
// at size, and the function that closes it, as a person closes the page.
func (b *browser) closableTab(t *testing.T, size screenSize) (context.Context, context.CancelFunc) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	run(t, ctx, chromedp.EmulateViewport(size.width, size.height))
	return ctx, cancel
}

// presenceOf is the class of seat's dot ("on", "off"), "" for none.
func presenceOf(seat int) string {
	return fmt.Sprintf(`(document.querySelector('.player[data-seat="%d"] .presence')?.className ?? "").replace("presence", "").trim()`, seat)
}

// presenceDots: a player sees their opponent's dot turn on when the
// opponent's page opens (in another browser), and off when it closes,
// each waited for, never slept for; their own is on. A spectator sees
// both; an AI is always on.
func (b *browser) presenceDots(t *testing.T, size screenSize) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "names": []string{"ann", "bob"}})
	ann := b.sizedScheme(t, size, "light")
	run(t, ann, chromedp.Navigate(b.url(g.Seats[0].URL)))
	poll[bool](t, ann, "Ann's dot on, Bob's off", presenceOf(0)+` === "on" && `+presenceOf(1)+` === "off"`)
	bob, closeBob := b.closableTab(t, size)
	run(t, bob, chromedp.Navigate(b.url(g.Seats[1].URL)))
	poll[bool](t, ann, "Bob's dot on", presenceOf(1)+` === "on"`)
	if label := evaluate[string](t, ann, `document.querySelector('.player[data-seat="1"] .presence').getAttribute("aria-label")`); label != "connected" {
		t.Errorf("Bob's dot is named %q", label)
	}
	watcher := b.sizedScheme(t, size, "dark")
	run(t, watcher, chromedp.Navigate(b.url(g.URL)))
	poll[bool](t, watcher, "a spectator sees both on", presenceOf(0)+` === "on" && `+presenceOf(1)+` === "on"`)
	screenshot(t, ann, "desk-presence-"+size.name)
	closeBob()
	poll[bool](t, ann, "Bob's dot off once his page closed", presenceOf(1)+` === "off"`)
	poll[bool](t, watcher, "the spectator sees Bob's off", presenceOf(1)+` === "off" && `+presenceOf(0)+` === "on"`)
	ai := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"ai:level=1", "human"}})
	ctx := b.sizedScheme(t, size, "light")
	run(t, ctx, chromedp.Navigate(b.url(ai.URL)))
	poll[bool](t, ctx, "the AI's dot on, the absent person's off", presenceOf(0)+` === "on" && `+presenceOf(1)+` === "off"`)
}

// gameMenu: the spectators' link, the record and the rules are in the
// "⋯" menu, not on the page: the keyboard opens it on its first item,
// moves with the arrows, and Escape closes it, the focus back on "⋯"; a
// click outside closes it too. axe-core finds nothing with it open.
func (b *browser) gameMenu(t *testing.T, size screenSize) {
	g := b.ts.create(map[string]any{"game": "eximo", "seats": []string{"human", "human"}})
	ctx := b.sizedScheme(t, size, "light")
	run(t, ctx, chromedp.Navigate(b.url(g.Seats[0].URL)))
	poll[bool](t, ctx, "the board", boardDrawn)
	inView(t, ctx, "the menu's button", "main.game .menu-button")
	const shownLinks = `[...document.querySelectorAll("main.game a, main.game input, main.game button")].filter((e) => e.checkVisibility() &&
		(/record|rules|analysis/.test(e.getAttribute("href") ?? "") || e.id === "spectator-link" || e.classList.contains("spectate"))).length`
	if n := evaluate[int](t, ctx, shownLinks); n != 0 {
		t.Errorf("%d of the game's links are on the page, outside the menu", n)
	}
	run(t, ctx, script(`document.querySelector("main.game .menu-button").focus()`), chromedp.KeyEvent("\r"))
	const focused = `document.activeElement?.className + "|" + (document.activeElement?.getAttribute("role") ?? "")`
	if got := poll[string](t, ctx, "the first item focused", `document.activeElement?.closest(".popup-menu") && `+focused); got != "spectate|menuitem" {
		t.Errorf("the menu opened on %q, want the spectators' link", got)
	}
	if exp := evaluate[string](t, ctx, `document.querySelector("main.game .menu-button").getAttribute("aria-expanded")`); exp != "true" {
		t.Errorf("the open menu's button says aria-expanded=%q", exp)
	}
	run(t, ctx, chromedp.KeyEvent(kb.ArrowDown))
	if got := evaluate[string](t, ctx, focused); got != "record|menuitem" {
		t.Errorf("↓ moved to %q, want the record", got)
	}
	if href := evaluate[string](t, ctx, `document.activeElement.getAttribute("href") + " " + document.activeElement.hasAttribute("download")`); href != "/api/games/"+g.ID+"/record true" {
		t.Errorf("the record's item is %q", href)
	}
	run(t, ctx, chromedp.KeyEvent(kb.End))
	if got := evaluate[string](t, ctx, focused); got != "rules|menuitem" {
		t.Errorf("End moved to %q, want the rules", got)
	}
	if n := evaluate[int](t, ctx, `document.querySelectorAll(".status .history").length`); n != 0 {
		t.Error("End in the menu stepped through the moves")
	}
	checkAxe(t, ctx, "the game page, its menu open ("+size.name+")")
	screenshot(t, ctx, "desk-menu-"+size.name)
	run(t, ctx, chromedp.KeyEvent(kb.Escape))
	if got := poll[string](t, ctx, "the menu closed", `document.querySelector(".popup-menu").hidden && `+focused); got != "menu-button|" {
		t.Errorf("after Escape the focus is on %q, want the menu's button", got)
	}
	click(t, ctx, "main.game .menu-button")
	poll[bool](t, ctx, "the menu open", `!document.querySelector(".popup-menu").hidden`)
	click(t, ctx, "main.game .status")
	poll[bool](t, ctx, "the menu closed by a click outside", `document.querySelector(".popup-menu").hidden && document.querySelector("main.game .menu-button").getAttribute("aria-expanded") === "false"`)
}
