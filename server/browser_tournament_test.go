package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The browser test of the tournaments' pages (issue 39): two people sign
// up; one makes an arena with the list page's form (a refusal first,
// shown in the form), both join by clicking Join on its page, its
// creator starts it, and each is taken to their game in their own tab.
// In a second tab each keeps the tournament's page open (it does not
// send them to the game again) and pauses there, so that the arena pairs
// them no more; they play by clicking, one resigns, and both pages show
// the winner's score go from 0 to 2 without a reload, while the game's
// end leads back to the tournament. Then axe-core and the pictures of
// the list and the page, at both sizes, light and dark, and the page by
// the keyboard.
func TestBrowserTournament(t *testing.T) {
	skipWithoutBrowser(t)
	b := newBrowserWith(t, siteConfig{TournamentTick: 50 * time.Millisecond})
	r := &accountsRun{b: b}
	ivy := &person{name: "ivy", password: "pale-gulls-wheel-over"}
	jon := &person{name: "jon", password: "brown-hares-run-late"}
	for _, p := range []*person{ivy, jon} {
		b.newPerson(t, p)
		r.signUp(t, p)
	}

	// Ivy makes an arena from the list's form: rating bounds crossed are
	// refused in the form, with the API's words; none makes it.
	run(t, ivy.ctx, chromedp.Navigate(b.url("/")))
	click(t, ivy.ctx, `header nav.site-nav a[href="/tournaments"]`)
	poll[bool](t, ivy.ctx, "the form's box", `location.pathname === "/tournaments" && !!document.querySelector("details.tournament-create > summary")`)
	run(t, ivy.ctx, chromedp.Click(chromedp.CSS(`details.tournament-create > summary`)), chromedp.WaitVisible(chromedp.CSS(`#t-name`)),
		chromedp.SendKeys(chromedp.CSS(`#t-name`), "Friday arena"),
		chromedp.Click(chromedp.CSS(`input[name="kind"][value="arena"]`)),
		chromedp.SetValue(chromedp.CSS(`#t-initial`), "5"), chromedp.SetValue(chromedp.CSS(`#t-increment`), "0"),
		chromedp.SetValue(chromedp.CSS(`#t-minutes`), "30"),
		chromedp.SetValue(chromedp.CSS(`#t-min`), "1800"), chromedp.SetValue(chromedp.CSS(`#t-max`), "1200"),
		chromedp.Click(chromedp.CSS(`input[name="rated"][value="false"]`)),
		chromedp.Click(chromedp.CSS(`button.create-tournament`)))
	refusal := poll[string](t, ivy.ctx, "the form's refusal", `document.querySelector(".tournament-form .message")?.textContent ?? ""`)
	if !strings.Contains(refusal, "1800 is over the most 1200") {
		t.Errorf("crossed rating bounds are refused with %q, want the API's words on them", refusal)
	}
	run(t, ivy.ctx, chromedp.SetValue(chromedp.CSS(`#t-min`), "0"), chromedp.SetValue(chromedp.CSS(`#t-max`), "0"),
		chromedp.Click(chromedp.CSS(`button.create-tournament`)))
	id := poll[string](t, ivy.ctx, "the new arena's page", `location.pathname.startsWith("/tournaments/") && location.pathname.split("/")[2]`)
	page := b.url("/tournaments/" + id)

	// Both join by clicking; each sees the other come, live.
	run(t, jon.ctx, chromedp.Navigate(page))
	for _, p := range []*person{ivy, jon} {
		poll[bool](t, p.ctx, p.name+"'s page, live", `document.querySelector("main.tournament")?.dataset.live === "true" && !!document.querySelector("button.join")`)
		click(t, p.ctx, `button.join`)
	}
	for _, p := range []*person{ivy, jon} {
		poll[bool](t, p.ctx, p.name+" sees both players", `document.querySelectorAll("table.tournament-table tbody tr").length === 2`)
	}
	if offered := poll[string](t, jon.ctx, "Jon's actions", `[...document.querySelectorAll(".tournament-actions button")].map((b) => b.className).join(" ") || " "`); strings.Contains(offered, "start") {
		t.Errorf("Jon, not the creator, is offered Start: %q", offered)
	}
	click(t, ivy.ctx, `button.start`)
	game := poll[string](t, ivy.ctx, "Ivy taken to her game", `location.pathname.startsWith("/play/") && location.pathname.split("/")[2]`)
	poll[bool](t, jon.ctx, "Jon taken to the game", fmt.Sprintf(`location.pathname === "/play/%s"`, game))

	// A second tab of each on the tournament's page stays there; each
	// pauses, so that the arena pairs them no more after this game.
	watch := map[*person]context.Context{}
	for _, p := range []*person{ivy, jon} {
		ctx := personTab(t, p, screenSizes[0], "light", 1)
		run(t, ctx, chromedp.Navigate(page))
		poll[bool](t, ctx, p.name+"'s tournament tab, live", `document.querySelector("main.tournament")?.dataset.live === "true" && !!document.querySelector("button.pause")`)
		click(t, ctx, `button.pause`)
		poll[bool](t, ctx, p.name+" paused", `document.querySelector("button.pause")?.getAttribute("aria-pressed") === "true"`)
		if score := poll[string](t, ctx, p.name+"'s score", fmt.Sprintf(`document.querySelector('tr[data-name=%q] td.score')?.textContent ?? ""`, p.name)); score != "0" {
			t.Errorf("%s's score before the game is %q, want 0", p.name, score)
		}
		watch[p] = ctx
	}
	if path := poll[string](t, watch[ivy], "the tab's place", `location.pathname`); path != "/tournaments/"+id {
		t.Fatalf("Ivy's second tab went to %s: a tab opened during the game was sent to it again", path)
	}

	// They play two moves by clicking, and the player to move resigns.
	v := r.view(t, game)
	seated := map[string]*person{ivy.name: ivy, jon.name: jon}
	seats := [2]*person{seated[v.Seats[0].Account], seated[v.Seats[1].Account]}
	if seats[0] == nil || seats[1] == nil || seats[0] == seats[1] {
		t.Fatalf("the game's seats are %q and %q, want Ivy and Jon", v.Seats[0].Account, v.Seats[1].Account)
	}
	for ply := range 2 {
		v = r.view(t, game)
		p := seats[v.ToMove]
		poll[bool](t, p.ctx, p.name+"'s turn", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
		clickMove(t, p.ctx, v.Legal[len(v.Legal)/2])
		b.waitPly(t, game, ply+1)
	}
	loser := seats[r.view(t, game).ToMove]
	winner := seats[0]
	if winner == loser {
		winner = seats[1]
	}
	poll[bool](t, loser.ctx, "the resign button", `(() => { const b = document.querySelector("button.resign");
		if (!b || b.disabled) return false;
		b.click(); document.querySelector("dialog.confirm .confirm-yes").click(); return true; })()`)

	// Both tournament tabs show the win, live; both games lead back.
	for _, p := range []*person{ivy, jon} {
		poll[bool](t, watch[p], p.name+" sees "+winner.name+"'s 2 points", fmt.Sprintf(`document.querySelector('tr[data-name=%q] td.score')?.textContent === "2" &&
			document.querySelector('tr[data-name=%q] td.score')?.textContent === "0"`, winner.name, loser.name))
		poll[bool](t, watch[p], p.name+" sees the game's result", fmt.Sprintf(`document.querySelector('.round-games li[data-game=%q] .result')?.textContent !== "playing"`, game))
		back := poll[string](t, p.ctx, p.name+"'s way back", `document.querySelector(".end a.back-to-tournament")?.getAttribute("href") ?? ""`)
		if back != "/tournaments/"+id {
			t.Errorf("%s's game ends with a way back to %q, want /tournaments/%s", p.name, back, id)
		}
	}
	click(t, winner.ctx, `.end a.back-to-tournament`)
	poll[bool](t, winner.ctx, winner.name+" back on the tournament", fmt.Sprintf(`location.pathname === "/tournaments/%s" && !!document.querySelector("table.tournament-table")`, id))

	// The page by the keyboard: Tab reaches the actions and the table.
	for _, sel := range []string{`button.berserk`, `button.pause`, `button.withdraw`, `.standings .table-box`, `.standings a.player-link`, `.round-games a`} {
		tabReaches(t, winner.ctx, sel)
	}

	ready := `document.querySelector("main.tournament")?.dataset.live === "true" && document.querySelectorAll("table.tournament-table tbody tr").length === 2`
	lookAtAs(t, ivy, "tournament", page, "page", ready, "")
	listed := fmt.Sprintf(`!!document.querySelector('.tournament-part.running li[data-id=%q]')`, id)
	lookAtAs(t, ivy, "tournament", b.url("/tournaments"), "list", listed, "")
	lookAtAs(t, ivy, "tournament", b.url("/tournaments?form"), "form", listed+` && (document.querySelector("details.tournament-create").open = true)`, "")
}

// tabReaches presses Tab from the top of the page until the element sel
// finds has the focus, failing after 60 presses.
func tabReaches(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	run(t, ctx, script(`document.activeElement?.blur(); window.scrollTo(0, 0)`))
	for range 60 {
		run(t, ctx, chromedp.KeyEvent(kb.Tab))
		at, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.activeElement?.matches(%q) ?? false`, sel)))
		if err != nil {
			t.Fatal(err)
		}
		if at {
			return
		}
	}
	t.Errorf("Tab never reaches %s", sel)
}
