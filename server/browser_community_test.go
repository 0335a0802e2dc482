package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiter-games/arbiter/community"
)

// The browser test of chat and moderation (issue 38): two people, each a
// browser context of their own, chat in a game; one reports a message of
// the other, then blocks them, and the blocked side can neither chat nor
// challenge; a moderator (given the role as "arbiter admin grant" gives
// it) reads the report on the moderators' page and bans the reported
// account, whose open socket and sessions end at once.
func TestBrowserCommunity(t *testing.T) {
	b := newBrowser(t)
	r := &accountsRun{b: b}
	dee := &person{name: "dee", password: "amber-owls-sing-twice"}
	eli := &person{name: "eli", password: "nine-cold-rivers-bend"}
	fay := &person{name: "fay", password: "quiet-moss-grows-north"}
	for _, p := range []*person{dee, eli, fay} {
		b.newPerson(t, p)
		r.signUp(t, p)
	}
	id := challengeAndAccept(t, r, dee, eli)
	for _, p := range []*person{dee, eli} {
		run(t, p.ctx, chromedp.Navigate(b.url("/play/"+id)))
		poll[bool](t, p.ctx, p.name+"'s chat", `!!document.querySelector(".room-players form.chat-form input.chat-input")`)
	}

	// They chat: each message reaches the other's page live.
	say(t, dee, "good luck, have fun")
	waitLine(t, eli, "good luck, have fun")
	say(t, eli, "thanks, you too")
	waitLine(t, dee, "thanks, you too")

	lookAt(t, dee, b.url("/play/"+id), "game-chat", `document.querySelectorAll(".room-players .chat-line").length === 2`,
		`document.querySelector(".chat").scrollIntoView({ block: "center" })`)

	// Dee reports Eli's message from the chat.
	click(t, dee.ctx, `.room-players li.chat-line:last-child button.chat-report`)
	run(t, dee.ctx, chromedp.WaitVisible(chromedp.CSS(`.chat .report-form input.report-reason`)),
		chromedp.SendKeys(chromedp.CSS(`.chat .report-form input.report-reason`), "rude words in the chat"),
		chromedp.Click(chromedp.CSS(`.chat .report-form button[type="submit"]`)))
	poll[bool](t, dee.ctx, "the report sent", `document.querySelector(".chat .report-status")?.textContent.startsWith("Reported")`)

	// Eli blocks Dee from her profile.
	run(t, eli.ctx, chromedp.Navigate(b.url("/@/dee")))
	poll[bool](t, eli.ctx, "the block button", `document.querySelector(".player-actions button.block")?.textContent === "Block"`)
	click(t, eli.ctx, `.player-actions button.block`)
	poll[bool](t, eli.ctx, "the block made", `document.querySelector(".player-actions button.block")?.textContent === "Unblock"`)
	run(t, eli.ctx, chromedp.Navigate(b.url("/play/"+id)))
	poll[bool](t, eli.ctx, "Eli's chat again", `!!document.querySelector(".room-players .chat-lines")`)

	// Dee, still on the game's page, can no longer chat...
	say(t, dee, "hello?")
	refusal := poll[string](t, dee.ctx, "the chat's refusal", `document.querySelector(".room-players .chat-error, .room-players .chat-why")?.textContent ?? ""`)
	if !strings.Contains(refusal, "does not take your messages") {
		t.Errorf("Dee's message is refused with %q, want that Eli takes no messages from her", refusal)
	}
	if lines := chatLines(t, eli); strings.Contains(lines, "hello?") {
		t.Errorf("Eli's chat shows Dee's message after the block: %q", lines)
	}
	// ...nor challenge Eli.
	run(t, dee.ctx, chromedp.Navigate(b.url("/")))
	challenge(t, dee, eli.name)
	msg := poll[string](t, dee.ctx, "the challenge's refusal", `document.querySelector(".lobby .message")?.textContent ?? ""`)
	if !strings.Contains(msg, "block") {
		t.Errorf("Dee's challenge after the block answers %q, want a refusal that names the block", msg)
	}

	// Fay, made a moderator from the command line's code, bans Eli from
	// the report.
	grantModerator(t, b, fay.name)
	lookAt(t, fay, b.url("/mod"), "mod", `document.querySelectorAll(".report-list li.report").length === 1 && !!document.querySelector("table.audit")`, "")
	ws := openSocket(t, eli, id)
	run(t, fay.ctx, chromedp.Navigate(b.url("/")))
	poll[bool](t, fay.ctx, "the moderators' link in Fay's menu", `!!document.querySelector('header .me-panel a[href="/mod"]')`)
	click(t, fay.ctx, `header details.me > summary`)
	click(t, fay.ctx, `header .me-panel a[href="/mod"]`)
	shown := poll[string](t, fay.ctx, "the report on the moderators' page", `document.querySelector(".report-list li.report .reported-message")?.textContent ?? ""`)
	if !strings.Contains(shown, "thanks, you too") || !strings.Contains(shown, "eli") {
		t.Errorf("the report shows the message %q, want Eli's", shown)
	}
	run(t, fay.ctx, chromedp.SendKeys(chromedp.CSS(`.report-list li.report input.mod-reason`), "abuse in the chat"),
		chromedp.Click(chromedp.CSS(`.report-list li.report button[data-action="ban"]`)))
	poll[bool](t, fay.ctx, "the report closed", `document.querySelector("#reports-title")?.textContent === "Open reports (0)"`)
	logLine := poll[string](t, fay.ctx, "the audit log", `document.querySelector(".mod-log table.audit tbody tr")?.textContent ?? ""`)
	for _, want := range []string{"fay", "eli", "Ban", "abuse in the chat"} {
		if !strings.Contains(logLine, want) {
			t.Errorf("the audit log's line %q does not name %q", logLine, want)
		}
	}

	// Eli's open socket closed and his session ended.
	code := poll[int](t, eli.ctx, "Eli's socket closed", ws+` ?? 0`)
	if code != 1008 {
		t.Errorf("Eli's socket closed with %d, want 1008 (policy: the session ended)", code)
	}
	if status := pageFetch(t, eli.ctx, "GET", "/api/session", ""); status != http.StatusUnauthorized {
		t.Errorf("Eli's session answers %d after the ban, want 401", status)
	}
	// Signed in again, he is told why he cannot chat or play.
	run(t, eli.ctx, chromedp.Navigate(b.url("/login")), chromedp.WaitVisible(chromedp.CSS(`#name`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), eli.name), chromedp.SendKeys(chromedp.CSS(`#password`), eli.password),
		chromedp.Click(chromedp.CSS(`form.auth-form button[type="submit"]`)))
	poll[bool](t, eli.ctx, "Eli signed in again", `location.pathname === "/"`)
	notice := poll[string](t, eli.ctx, "the ban's notice", `document.querySelector(".standing-notice")?.textContent ?? ""`)
	if !strings.Contains(notice, "abuse in the chat") {
		t.Errorf("Eli's pages say %q, want the ban's reason", notice)
	}
	if lacks := poll[bool](t, dee.ctx, "no moderators' link for Dee", `!document.querySelector('header .me-panel a[href="/mod"]')`); !lacks {
		t.Error("Dee, no moderator, has the moderators' link")
	}
	run(t, eli.ctx, chromedp.Navigate(b.url("/play/"+id)))
	why := poll[string](t, eli.ctx, "the ban in the chat", `document.querySelector(".room-players .chat-why")?.textContent ?? ""`)
	if !strings.Contains(why, "banned") || !strings.Contains(why, "abuse in the chat") {
		t.Errorf("Eli's chat says %q, want the ban and its reason", why)
	}
	if status := pageFetch(t, eli.ctx, "POST", "/api/seeks", `{"game":"pommel","rated":false}`); status != http.StatusForbidden {
		t.Errorf("a banned account's seek answers %d, want 403", status)
	}
}

// challengeAndAccept: from's challenge to to, sent from the home page's
// form, accepted on to's home page; both land on the game, whose id it
// gives.
func challengeAndAccept(t *testing.T, r *accountsRun, from, to *person) string {
	t.Helper()
	run(t, to.ctx, chromedp.Navigate(r.b.url("/")))
	poll[bool](t, to.ctx, to.name+"'s lobby, live", `document.querySelector(".lobby ul.seeks")?.dataset.live === "true"`)
	run(t, from.ctx, chromedp.Navigate(r.b.url("/")))
	challenge(t, from, to.name)
	click(t, to.ctx, `li.seek.challenge button.accept`)
	id := poll[string](t, to.ctx, to.name+" on the game", `location.pathname.startsWith("/play/") && location.pathname.split("/")[2]`)
	poll[bool](t, from.ctx, from.name+" on the game", fmt.Sprintf(`location.pathname === "/play/%s"`, id))
	return id
}

// challenge fills the home page's seek form: a casual correspondence
// game of Pommel, a challenge to name.
func challenge(t *testing.T, p *person, name string) {
	t.Helper()
	poll[bool](t, p.ctx, p.name+"'s lobby", `!!document.querySelector("details.seek-box > summary")`)
	run(t, p.ctx, chromedp.Click(chromedp.CSS(`details.seek-box > summary`)), chromedp.WaitVisible(chromedp.CSS(`select#seek-game`)),
		chromedp.Click(chromedp.CSS(`input[name="rated"][value="false"]`)),
		chromedp.Click(chromedp.CSS(`input[name="kind"][value="days"]`)),
		chromedp.SendKeys(chromedp.CSS(`#seek-to`), name),
		chromedp.Click(chromedp.CSS(`button.create-seek`)))
}

// say types text into the players' chat and sends it.
func say(t *testing.T, p *person, text string) {
	t.Helper()
	run(t, p.ctx, chromedp.SendKeys(chromedp.CSS(`.room-players input.chat-input`), text),
		chromedp.Click(chromedp.CSS(`.room-players form.chat-form button[type="submit"]`)))
}

// waitLine waits for text on p's players' chat.
func waitLine(t *testing.T, p *person, text string) {
	t.Helper()
	poll[bool](t, p.ctx, fmt.Sprintf("%q on %s's chat", text, p.name),
		fmt.Sprintf(`[...document.querySelectorAll(".room-players .chat-text")].some((e) => e.textContent === %q)`, text))
}

// chatLines is the text of p's players' chat.
func chatLines(t *testing.T, p *person) string {
	t.Helper()
	return poll[string](t, p.ctx, p.name+"'s chat lines", `[...document.querySelectorAll(".room-players .chat-line")].map((e) => e.textContent).join("\n") || " "`)
}

// grantModerator gives the role as "arbiter admin grant NAME" does: the
// community service's Grant over the site's store.
func grantModerator(t *testing.T, b *browser, name string) {
	t.Helper()
	grant(t, b.ts, name)
}

// grant gives the moderator role to the account named name, as "arbiter
// admin grant" does.
func grant(t *testing.T, ts *testServer, name string) {
	t.Helper()
	svc, err := community.New(community.Config{Store: ts.store})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Grant(context.Background(), name, true); err != nil {
		t.Fatal(err)
	}
}

// openSocket opens, from p's page, a socket of its own on game id, and
// gives the expression that reads the code it closed with (undefined
// while open).
func openSocket(t *testing.T, p *person, id string) string {
	t.Helper()
	run(t, p.ctx, script(fmt.Sprintf(`window.__watch = new WebSocket("ws://" + location.host + "/api/games/%s/ws");
		window.__watch.onclose = (e) => { window.__closed = e.code; };`, id)))
	poll[bool](t, p.ctx, p.name+"'s socket open", `window.__watch.readyState === 1`)
	return `window.__closed`
}

// pageFetch sends a request from p's page, its cookies and all, and gives
// the status.
func pageFetch(t *testing.T, ctx context.Context, method, path, body string) int {
	t.Helper()
	opts := `{ method: "` + method + `" }`
	if body != "" {
		opts = fmt.Sprintf(`{ method: %q, headers: { "Content-Type": "application/json" }, body: %q }`, method, body)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`fetch(%q, %s).then((r) => r.status)`, path, opts), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s %s from the page: %v", method, path, err)
	}
	return status
}

// lookAt opens url in new tabs of p's at both sizes, light and dark, once
// ready holds: axe-core checks each, and with -screenshots each is
// pictured (after show, a script that scrolls to the part to see).
func lookAt(t *testing.T, p *person, url, name, ready, show string) {
	t.Helper()
	lookAtAs(t, p, "community", url, name, ready, show)
}

// lookAtAs is lookAt with the pictures' names starting with prefix.
func lookAtAs(t *testing.T, p *person, prefix, url, name, ready, show string) {
	t.Helper()
	_, haveAxe := readAxe(t)
	for _, size := range screenSizes {
		for _, scheme := range []string{"light", "dark"} {
			ratio := phoneScale()
			if *screenshotDir != "" {
				ratio = 1 // a picture of 390 by 844, as the README's
			}
			ctx := personTab(t, p, size, scheme, ratio)
			run(t, ctx, chromedp.Navigate(url))
			poll[bool](t, ctx, name+" drawn", ready)
			if haveAxe {
				checkAxeIn(t, ctx, scheme, name+"-"+size.name+"-"+scheme)
			}
			if *screenshotDir != "" {
				if show != "" {
					run(t, ctx, script(show))
				}
				viewShot(t, ctx, strings.Join([]string{prefix, name, size.name, scheme}, "-"))
			}
		}
	}
}
