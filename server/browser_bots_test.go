package server

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserBotGame is the bot API's acceptance test (issue 38, section
// 3): the real command, "arbiter bot", built here and run as a process
// of its own with "arbiter engine" as its engine, plays a rated game
// against a person at Chromium. The person challenges the bot from the
// home page's seek form (the challenge reads "to BOT zed"); the bot,
// started then, finds it open, accepts, and the page goes to the game,
// which shows BOT before the bot's name; the person plays by clicking
// the board and the bot answers each move; the person resigns; both
// ratings change, and the bot is on the leaderboard, marked.
func TestBrowserBotGame(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the bot's acceptance test builds arbiter with the go tool, which is not here")
	}
	b := newBrowser(t)
	dir := t.TempDir()
	arbiter := filepath.Join(dir, "arbiter")
	build := exec.Command(goTool, "build", "-o", arbiter, "github.com/arbiter-games/arbiter/cmd/arbiter")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	token := b.ts.newBot("zed")
	r := &accountsRun{b: b}
	ann := &person{name: "ann", password: "tall-ferns-hum-quietly"}
	b.newPerson(t, ann)
	r.signUp(t, ann)
	poll[bool](t, ann.ctx, "Ann's lobby, live", `document.querySelector(".lobby ul.seeks")?.dataset.live === "true"`)
	// Ann challenges the bot before it connects: it finds the challenge
	// open when it does. A rated game needs a clock: the form's own, 10
	// minutes and 5 s a move, generous for the few moves played here.
	run(t, ann.ctx, chromedp.Click(chromedp.CSS(`details.seek-box > summary`)), chromedp.WaitVisible(chromedp.CSS(`select#seek-game`)),
		chromedp.SetValue(chromedp.CSS(`select#seek-game`), "pommel"),
		script(`document.querySelector("select#seek-game").dispatchEvent(new Event("change", { bubbles: true }))`),
		chromedp.Click(chromedp.CSS(`input[name="rated"][value="true"]`)),
		chromedp.SendKeys(chromedp.CSS(`#seek-to`), "zed"),
		chromedp.Click(chromedp.CSS(`button.create-seek`)))
	to := poll[string](t, ann.ctx, "Ann's challenge listed", `document.querySelector("li.seek.mine .notes")?.textContent`)
	if mark := poll[string](t, ann.ctx, "the challenge's mark", `document.querySelector("li.seek.mine .notes .bot-tag")?.textContent`); mark != "BOT" || !strings.Contains(to, "to BOT zed") {
		t.Errorf("Ann's challenge reads %q (its mark %q); want it to BOT zed", to, mark)
	}

	bot := exec.Command(arbiter, "bot", "--site", b.ts.http.URL, "--token", token, "--engine", arbiter+" engine",
		"--option", "Player=ai:level=1", "--movetime", "200ms")
	var log syncBuffer
	bot.Stdout, bot.Stderr = &log, &log
	if err := bot.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = bot.Process.Kill()
		_ = bot.Wait()
		if t.Failed() {
			t.Logf("arbiter bot's log:\n%s", log.String())
		}
	})
	id := poll[string](t, ann.ctx, "Ann on the game the bot accepted", `location.pathname.startsWith("/play/") && location.pathname.split("/")[2]`)

	v := r.view(t, id)
	me := -1
	for i, s := range v.Seats {
		if s.Account == "ann" {
			me = i
		}
	}
	if !v.Rated || me < 0 || v.Seats[1-me].Account != "zed" {
		t.Fatalf("the game: %+v; want a rated game of Ann and the bot", v)
	}
	tag := poll[string](t, ann.ctx, "the bot's strip", fmt.Sprintf(`document.querySelector('.player[data-seat="%d"] .name a')?.textContent === "zed" &&
		document.querySelector('.player[data-seat="%d"] .name .bot-tag')?.textContent`, 1-me, 1-me))
	if tag != "BOT" {
		t.Errorf("the bot's strip marks it %q, want BOT", tag)
	}
	poll[bool](t, ann.ctx, "Ann's strip", fmt.Sprintf(`document.querySelector('.player[data-seat="%d"] .name a')?.textContent === "ann"`, me))
	marks, err := chromedp.Run(ann.ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll('.player[data-seat="%d"] .bot-tag').length`, me)))
	if err != nil || marks != 0 {
		t.Errorf("Ann's strip has %d BOT marks (%v); want none", marks, err)
	}
	// Ann plays three moves by clicking; the bot answers each (and moves
	// first when it holds the first seat).
	annsTurn := func() accountView {
		var v accountView
		waitFor(t, 20*time.Second, "the bot's move", func() bool { v = r.view(t, id); return v.ToMove == me || v.Result != nil })
		if v.Result != nil {
			t.Fatalf("the game ended at ply %d: %+v", v.Ply, v.Result)
		}
		return v
	}
	for range 3 {
		v = annsTurn()
		poll[bool](t, ann.ctx, "Ann's turn", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
		clickMove(t, ann.ctx, v.Legal[len(v.Legal)/2])
		waitFor(t, 10*time.Second, "Ann's move", func() bool { return r.view(t, id).Ply > v.Ply })
	}
	if v = annsTurn(); v.Ply < 6 {
		t.Fatalf("the game is at ply %d after three moves of Ann's, each answered; want 6 or more", v.Ply)
	}
	screenshot(t, ann.ctx, "bot-game")
	poll[bool](t, ann.ctx, "the resign button", `(() => { const b = document.querySelector("button.resign");
		if (!b || b.disabled) return false;
		b.click(); document.querySelector("dialog.confirm .confirm-yes").click(); return true; })()`)
	waitFor(t, 10*time.Second, "the ratings", func() bool { v = r.view(t, id); return v.Result != nil && len(v.Ratings) == 2 })
	if len(v.Result.Winners) != 1 || v.Result.Winners[0] != 1-me {
		t.Errorf("the result %+v: want the bot the winner", v.Result)
	}
	for _, rc := range v.Ratings {
		if round(rc.After) == round(rc.Before) {
			t.Errorf("seat %d's rating did not change: %+v", rc.Seat, rc)
		}
	}
	poll[string](t, ann.ctx, "Ann's rating change", fmt.Sprintf(`document.querySelector('.end .rating-changes li[data-seat="%d"]')?.textContent`, me))

	lookAt(t, ann, b.url("/play/"+id), "bot-game", `!!document.querySelector(".player .bot-tag") && !!document.querySelector(".end .rating-changes")`, "")
	lookAt(t, ann, b.url("/leaderboard/pommel"), "bot-leaderboard", `!!document.querySelector('table.ranks tr[data-name="zed"] .bot-tag')`, "")
	run(t, ann.ctx, chromedp.Navigate(b.url("/@/zed")))
	poll[bool](t, ann.ctx, "the bot's profile", `document.querySelector(".profile-name .bot-tag")?.textContent === "BOT" &&
		document.querySelector("li.played .opponents")?.textContent.includes("ann")`)
	run(t, ann.ctx, chromedp.Navigate(b.url("/@/ann")))
	poll[bool](t, ann.ctx, "Ann's games, the bot marked", `document.querySelector("li.played .opponents .bot-tag")?.textContent === "BOT"`)

	// The account page makes a token (shown once), lists it, revokes it.
	run(t, ann.ctx, chromedp.Navigate(b.url("/account")), chromedp.WaitVisible(chromedp.CSS(`#token-description`)),
		chromedp.SendKeys(chromedp.CSS(`#token-description`), "my engine"), chromedp.Click(chromedp.CSS(`button.make-token`)))
	secret := poll[string](t, ann.ctx, "the new token", `document.querySelector("#tokens .new-token")?.textContent`)
	if code, body := b.ts.do("GET", "/api/bot/account", secret, nil); code != 200 || !strings.Contains(string(body), `"ann"`) {
		t.Errorf("the token the page showed: %d %s; want Ann's", code, body)
	}
	poll[bool](t, ann.ctx, "the token listed", `document.querySelector("#tokens li[data-token] .token-name")?.textContent === "my engine"`)
	lookAt(t, ann, b.url("/account"), "tokens", `!!document.querySelector("#tokens li[data-token]")`, `document.querySelector("#tokens").scrollIntoView()`)
	click(t, ann.ctx, `#tokens li[data-token] button.revoke-token`)
	poll[bool](t, ann.ctx, "the token revoked", `!document.querySelector("#tokens li[data-token]") && !!document.querySelector("#tokens li.none")`)
	if code, _ := b.ts.do("GET", "/api/bot/account", secret, nil); code != 401 {
		t.Errorf("the revoked token: %d; want 401", code)
	}
	if !strings.Contains(log.String(), "accepted a challenge") {
		t.Errorf("the bot's log says nothing of the challenge:\n%s", log.String())
	}
}

// syncBuffer is a buffer a process writes to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}
