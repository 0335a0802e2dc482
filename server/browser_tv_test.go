package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTV: the top game (issue 39). Ada and Bob play a real-time
// game through the API; Cy, a visitor, sees it in the home page's box,
// and a move played through the API appears on its board live. Cy opens
// /tv from the box; Eve and Fay's game of a tournament starts meanwhile;
// Ada resigns, and /tv shows the result, then Eve and Fay's game with
// its tournament's link, without a reload.
func TestBrowserTV(t *testing.T) {
	skipWithoutBrowser(t)
	params := cheapHash
	b := newBrowserWith(t, siteConfig{PasswordHash: &params, TournamentTick: 200 * time.Millisecond})
	ada, bob := b.ts.signUp("ada"), b.ts.signUp("bob")
	clock := map[string]int{"initial": 600, "increment": 5}
	first := seekGame(t, ada, bob, clock)

	cy := &person{name: "cy"}
	b.newPerson(t, cy)
	run(t, cy.ctx, chromedp.Navigate(b.url("/")))
	box := poll[string](t, cy.ctx, "the top game's box", `document.querySelector(".tv-box:not([hidden]) svg.board") ? document.querySelector(".tv-box").textContent : ""`)
	for _, want := range []string{"ada", "bob", "1500", "10:00"} {
		if !strings.Contains(box, want) {
			t.Errorf("the box says %q, want %q in it", box, want)
		}
	}

	// A move through the API reaches the box's board.
	g := playFirstMove(t, first, ada, bob)
	want := stacksOf(t, b, first)
	poll[bool](t, cy.ctx, "the move on the box's board", fmt.Sprintf(`%s === %q`, boardStacks(".tv-box"), want))
	if g.Ply != 1 {
		t.Fatalf("the game is at ply %d after one move", g.Ply)
	}
	lookAtAs(t, cy, "tv", b.url("/"), "home", `!!document.querySelector(".tv-box:not([hidden]) svg.board")`,
		`document.querySelector(".tv-box").scrollIntoView({ block: "center" })`)

	// On a phone the box comes after Play now, whose button stays on the
	// first screen.
	phone := personTab(t, cy, screenSizes[1], "light", phoneScale())
	run(t, phone, chromedp.Navigate(b.url("/")))
	poll[bool](t, phone, "the box on a phone", `!!document.querySelector(".tv-box:not([hidden]) svg.board")`)
	if !evaluate[bool](t, phone, `document.querySelector(".quick-play").getBoundingClientRect().bottom <= document.querySelector(".tv-box").getBoundingClientRect().top &&
		document.querySelector(".quick-play button.play-ai").getBoundingClientRect().bottom <= innerHeight`) {
		t.Error("on a phone the top game's box pushes Play now's button off the first screen")
	}

	// The box's board opens /tv (its link does, for the keyboard), which
	// follows the same game.
	if href := evaluate[string](t, cy.ctx, `document.querySelector(".tv-box a.tv-watch")?.getAttribute("href") ?? ""`); href != "/tv" {
		t.Errorf("the box's watch link goes to %q, want /tv", href)
	}
	click(t, cy.ctx, `.tv-box .tv-board`)
	poll[bool](t, cy.ctx, "/tv following the game", fmt.Sprintf(`location.pathname === "/tv" && %s === %q && !!document.querySelector('main.tv a[href="/games/%s"]')`, boardStacks("main.tv"), want, first))
	lookAtAs(t, cy, "tv", b.url("/tv"), "tv", `!!document.querySelector("main.tv svg.board")`, "")
	run(t, cy.ctx, script(`window.stayed = true`))

	// A tournament's game starts; the first game ends; /tv shows its
	// result, then the tournament's game, in the same page.
	eve, fay := b.ts.signUp("eve"), b.ts.signUp("fay")
	var cup struct{ ID string }
	eve.must(201, "POST", "/api/tournaments", map[string]any{"kind": "swiss", "game": "pommel", "name": "Spring Cup",
		"clock": clock, "rounds": 1}, &cup)
	for _, m := range []*member{eve, fay} {
		m.must(204, "POST", "/api/tournaments/"+cup.ID+"/join", nil, nil)
	}
	eve.must(204, "POST", "/api/tournaments/"+cup.ID+"/start", nil, nil)
	v := pollTournament(t, eve, cup.ID, "the tournament's game", func(v tview) bool { return len(v.Rounds) == 1 })
	second := v.Rounds[0].Games[0].ID
	ada.must(200, "POST", "/api/games/"+first+"/resign", nil, nil)
	status := poll[string](t, cy.ctx, "the result on /tv", `document.querySelector("main.tv .tv-status")?.textContent.includes("The next game follows") ? document.querySelector("main.tv .tv-status").textContent : ""`)
	if !strings.Contains(strings.ToLower(status), "resign") {
		t.Errorf("/tv says %q at the end, want the resignation", status)
	}
	poll[bool](t, cy.ctx, "the second game on /tv", fmt.Sprintf(`window.stayed === true && !!document.querySelector('main.tv a[href="/games/%s"]') && document.querySelector("main.tv").textContent.includes("eve")`, second))
	if link := evaluate[string](t, cy.ctx, `(() => { const a = document.querySelector("main.tv a.tv-tournament"); return a ? a.getAttribute("href") + " " + a.textContent : "" })()`); link != "/tournaments/"+cup.ID+" Spring Cup" {
		t.Errorf("the tournament's link on /tv: %q, want /tournaments/%s Spring Cup", link, cup.ID)
	}
	viewShot(t, cy.ctx, "tv-tv-tournament")
	if text := evaluate[string](t, cy.ctx, `document.querySelector("main.tv").textContent`); !strings.Contains(text, "fay") || strings.Contains(text, "ada") {
		t.Errorf("/tv shows %q, want Eve and Fay's game only", text)
	}
}

// playFirstMove plays the first legal move of game id, by whichever of a
// and b is to move, through the API.
func playFirstMove(t *testing.T, id string, a, b *member) gameAnswer {
	t.Helper()
	var g gameAnswer
	a.must(200, "GET", "/api/games/"+id, nil, &g)
	mover := a
	if g.Seats[g.ToMove].Account == b.name {
		mover = b
	}
	mover.must(200, "POST", "/api/games/"+id+"/moves", map[string]any{"move": g.Legal[0], "ply": 0}, &g)
	return g
}

// stacksOf is the position of game id as boardStacks writes a board.
func stacksOf(t *testing.T, b *browser, id string) string {
	t.Helper()
	code, body := b.ts.do("GET", "/api/games/"+id+"/position", "", nil)
	var pos positionView
	if err := json.Unmarshal(body, &pos); err != nil || code != 200 {
		t.Fatalf("the position: %d %s", code, body)
	}
	var cells []string
	for cell, stack := range pos.Stacks {
		cells = append(cells, cell+"="+stack)
	}
	slices.Sort(cells)
	return strings.Join(cells, ",")
}

// boardStacks is the script that writes the board under sel: its occupied
// cells and their stacks, sorted.
func boardStacks(sel string) string {
	return fmt.Sprintf(`[...document.querySelectorAll(%q)].map((e) => e.getAttribute("data-cell") + "=" + e.getAttribute("data-stack")).sort().join(",")`,
		sel+" svg.board polygon[data-stack]")
}
