package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/coder/websocket"
)

// The browser tests of accounts, ratings and the lobby (issue 21): two
// people, each a browser context of their own (their own cookies), sign
// up through the form, meet in the lobby, play a rated game by clicking,
// and find their new ratings on their profiles and the leaderboard.

// accountView is what a game view says of accounts (docs/server.md).
type accountView struct {
	Rated bool `json:"rated"`
	Seats []struct {
		Account string  `json:"account"`
		Rating  float64 `json:"rating"`
	} `json:"seats"`
	Ratings []struct {
		Seat   int     `json:"seat"`
		Before float64 `json:"before"`
		After  float64 `json:"after"`
	} `json:"ratings"`
	Legal  []string `json:"legal"`
	Ply    int      `json:"ply"`
	ToMove int      `json:"toMove"`
	Result *struct {
		Winners []int `json:"winners"`
	} `json:"result"`
}

// person is someone at their own browser: a browser context, so their
// own cookies and storage, and their account's name and password.
type person struct {
	name, password string
	ctx            context.Context
	own            cdp.BrowserContextID // ctx's: the person's cookies
}

// accountsRun is the state the scenarios share: the two players and the
// rated game they played.
type accountsRun struct {
	b        *browser
	ann, bob *person
	cleo     *person // at the site by name, with a passkey
	game     string
	seeded   bool // seekers filled the lobby
}

// TestBrowserAccounts: the scenario, then the leaderboard, a
// wrong password, axe-core on every new page, the pictures of
// docs/web.md (with -screenshots), a rated game against the AI, logging
// out by the keyboard, a passkey, and the account page's forms.
func TestBrowserAccounts(t *testing.T) {
	b := newBrowser(t)
	r := &accountsRun{b: b,
		ann:  &person{name: "ann", password: "tall-ferns-hum-quietly"},
		bob:  &person{name: "bob", password: "seven-grey-kites-drift"},
		cleo: &person{name: "cleo", password: "lilac-harbours-count-slowly"}}
	// The people outlive each scenario: their contexts are the test's.
	b.newPerson(t, r.ann)
	b.newPerson(t, r.bob)
	b.newPerson(t, r.cleo)
	t.Run("sign up, seek, accept, play, ratings", r.ratedGame)
	if r.game == "" {
		t.Fatal("no rated game was played: the other scenarios need it")
	}
	t.Run("the leaderboard", r.leaderboard)
	t.Run("a wrong password", r.wrongPassword)
	t.Run("axe", r.axe)
	t.Run("the lobby's two lists", r.lobbyLists)
	t.Run("pictures", r.pictures)
	t.Run("rated against the AI", r.ratedAgainstAI)
	t.Run("log out", r.logOut)
	t.Run("a passkey", r.passkey)
	t.Run("the account page", r.accountPage)
}

// newPerson opens a browser context of its own; its first tab lives as
// long as the test.
func (b *browser) newPerson(t *testing.T, p *person) {
	t.Helper()
	ctx, own := sharedChromium.tab(t)
	run(t, ctx, chromedp.EmulateViewport(1280, 800))
	p.ctx, p.own = ctx, own
}

// personTab is another tab of p's (the same cookies) at size, in the
// light or the dark scheme, a phone's screen with its pixel ratio (the
// pictures' is 1: a picture of 390 by 844).
func personTab(t *testing.T, p *person, size screenSize, scheme string, ratio float64) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx, chromedp.WithExistingBrowserContext(p.own))
	t.Cleanup(cancel)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTime)
	opts := []chromedp.EmulateViewportOption{}
	if size.mobile {
		opts = append(opts, chromedp.EmulateScale(ratio), chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	run(t, ctx, chromedp.EmulateViewport(size.width, size.height, opts...))
	prefersScheme(t, ctx, scheme)
	return ctx
}

// signUp fills the sign-up form as a person does and waits for the home
// page, the header naming them.
func (r *accountsRun) signUp(t *testing.T, p *person) {
	t.Helper()
	r.signUpAt(t, p, r.b.ts.http.URL)
}

// signUpAt is signUp on the site reached at base.
func (r *accountsRun) signUpAt(t *testing.T, p *person, base string) {
	t.Helper()
	run(t, p.ctx, chromedp.Navigate(base+"/signup"), chromedp.WaitVisible(chromedp.CSS(`#name`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), p.name), chromedp.SendKeys(chromedp.CSS(`#password`), p.password),
		chromedp.Click(chromedp.CSS(`form.auth-form button[type="submit"]`)))
	poll[bool](t, p.ctx, p.name+" signed in", fmt.Sprintf(`location.pathname === "/" && document.querySelector("header details.me .me-name")?.textContent === %q`, p.name))
}

// view reads a game's view as a spectator.
func (r *accountsRun) view(t *testing.T, id string) accountView {
	t.Helper()
	code, body := r.b.ts.do("GET", "/api/games/"+id, "", nil)
	var v accountView
	if err := json.Unmarshal(body, &v); err != nil || code != http.StatusOK {
		t.Fatalf("GET /api/games/%s: %d %s", id, code, body)
	}
	return v
}

// ratedGame is the scenario: Ann and Bob sign up through the
// form; Bob watches the lobby while Ann seeks a rated Pommel game from the
// home page; her seek appears on Bob's page live and he accepts it; both
// land on the game, which they play by clicking the board until, after
// four moves, the player to move resigns by clicking Resign. Both see
// their rating changes at the end, then on their profiles.
func (r *accountsRun) ratedGame(t *testing.T) {
	ann, bob := r.ann, r.bob
	r.signUp(t, ann)
	r.signUp(t, bob)
	poll[bool](t, bob.ctx, "Bob's lobby, live", `document.querySelector(".lobby ul.seeks")?.dataset.live === "true"`)

	run(t, ann.ctx, chromedp.Click(chromedp.CSS(`details.seek-box > summary`)), chromedp.WaitVisible(chromedp.CSS(`select#seek-game`)),
		chromedp.SetValue(chromedp.CSS(`select#seek-game`), "pommel"),
		script(`document.querySelector("select#seek-game").dispatchEvent(new Event("change", { bubbles: true }))`),
		chromedp.Click(chromedp.CSS(`input[name="rated"][value="true"]`)),
		chromedp.Click(chromedp.CSS(`button.create-seek`)))
	mine := poll[string](t, ann.ctx, "Ann's own seek", `document.querySelector('li.seek.mine[data-game="pommel"] button.cancel') ? document.querySelector("li.seek.mine").dataset.seek : ""`)
	seen := fmt.Sprintf(`li.seek[data-seek=%q]`, mine)
	who := poll[string](t, bob.ctx, "Ann's seek on Bob's page, live", fmt.Sprintf(`document.querySelector('%s button.accept') && document.querySelector('%s .who a').textContent`, seen, seen))
	if who != ann.name {
		t.Errorf("the seek shows %q, want %q", who, ann.name)
	}
	if mode := poll[string](t, bob.ctx, "the seek's mode", fmt.Sprintf(`document.querySelector('%s .mode')?.textContent`, seen)); mode != "Rated" {
		t.Errorf("the seek is shown %q, want Rated", mode)
	}
	click(t, bob.ctx, seen+` button.accept`)
	id := poll[string](t, bob.ctx, "Bob on the game", `location.pathname.startsWith("/play/") && location.pathname.split("/")[2]`)
	poll[bool](t, ann.ctx, "Ann on the game", fmt.Sprintf(`location.pathname === "/play/%s"`, id))

	v := r.view(t, id)
	if !v.Rated || len(v.Seats) != 2 {
		t.Fatalf("the game is not a rated game of two: %+v", v)
	}
	at := map[string]*person{ann.name: ann, bob.name: bob}
	seated := [2]*person{at[v.Seats[0].Account], at[v.Seats[1].Account]}
	if seated[0] == nil || seated[1] == nil || seated[0] == seated[1] {
		t.Fatalf("the seats are %q and %q, want Ann and Bob", v.Seats[0].Account, v.Seats[1].Account)
	}
	for seat, p := range seated {
		poll[bool](t, p.ctx, p.name+"'s seat", fmt.Sprintf(`document.querySelector(".status .you")?.textContent.startsWith("You play") &&
			document.querySelector('.player[data-seat="%d"] .name a')?.textContent === %q`, seat, p.name))
	}
	for ply := range 4 {
		v = r.view(t, id)
		p := seated[v.ToMove]
		poll[bool](t, p.ctx, p.name+"'s turn", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
		clickMove(t, p.ctx, v.Legal[len(v.Legal)/2])
		r.b.waitPly(t, id, ply+1)
	}
	loser := seated[r.view(t, id).ToMove]
	// Clicked from the page's own script, in one step: the board and its
	// buttons are drawn anew after each move, and a node found first and
	// clicked later may be gone by then.
	poll[bool](t, loser.ctx, "the resign button", `(() => { const b = document.querySelector("button.resign");
		if (!b || b.disabled) return false;
		b.click(); document.querySelector("dialog.confirm .confirm-yes").click(); return true; })()`)
	waitFor(t, 10*time.Second, "the ratings", func() bool { v = r.view(t, id); return v.Result != nil && len(v.Ratings) == 2 })
	for _, rc := range v.Ratings {
		p := seated[rc.Seat]
		want := fmt.Sprintf("%d → %d", round(rc.Before), round(rc.After))
		line := poll[string](t, p.ctx, p.name+"'s rating changes", fmt.Sprintf(`document.querySelector('.end .rating-changes li[data-seat="%d"]')?.textContent`, rc.Seat))
		if !strings.Contains(line, want) || !strings.Contains(line, signed(round(rc.After)-round(rc.Before))) {
			t.Errorf("seat %d's change reads %q, want %s and its difference", rc.Seat, line, want)
		}
		if round(rc.After) == 1500 {
			t.Errorf("seat %d's rating is still 1500 after a rated game", rc.Seat)
		}
	}
	r.game = id
	for _, rc := range v.Ratings {
		p := seated[rc.Seat]
		run(t, p.ctx, chromedp.Navigate(r.b.url("/@/"+p.name)))
		shown := poll[string](t, p.ctx, p.name+"'s rating", `document.querySelector('.rating-card[data-game="pommel"] .rating')?.textContent`)
		if strings.TrimSuffix(shown, "?") != fmt.Sprint(round(rc.After)) {
			t.Errorf("%s's profile shows %q, want %d", p.name, shown, round(rc.After))
		}
		delta := poll[string](t, p.ctx, p.name+"'s game", fmt.Sprintf(`document.querySelector('li.played[data-game=%q] .delta')?.textContent`, id))
		if delta != signed(round(rc.After)-round(rc.Before)) {
			t.Errorf("%s's game shows the change %q, want %s", p.name, delta, signed(round(rc.After)-round(rc.Before)))
		}
		poll[bool](t, p.ctx, "the rating plot", `!!document.querySelector('.rating-card[data-game="pommel"] svg[role="img"] polyline.plot-line')`)
	}
}

func round(x float64) int { return int(math.Round(x)) }

// signed writes a change as the pages do: "+12", "−8" (a true minus).
func signed(d int) string {
	if d < 0 {
		return fmt.Sprintf("−%d", -d)
	}
	return fmt.Sprintf("+%d", d)
}

// leaderboard: both players are on Pommel's board, the winner first,
// with their ratings as the profiles say.
func (r *accountsRun) leaderboard(t *testing.T) {
	ctx := r.b.tab(t, true)
	run(t, ctx, chromedp.Navigate(r.b.url("/leaderboard/pommel")))
	names := poll[[]string](t, ctx, "the ranks", `document.querySelectorAll("table.ranks tbody tr").length >= 2 && [...document.querySelectorAll("table.ranks tbody tr")].map((tr) => tr.dataset.name)`)
	v := r.view(t, r.game)
	winner := v.Seats[v.Result.Winners[0]].Account
	if len(names) != 2 || names[0] != winner {
		t.Errorf("the leaderboard lists %v, want the two players, %s first", names, winner)
	}
	current := poll[string](t, ctx, "the tab", `document.querySelector('.game-tabs a[aria-current="page"]')?.textContent`)
	if current != "Pommel" {
		t.Errorf("the current tab is %q, want Pommel", current)
	}
}

// wrongPassword: signing in (Enter in the password) with a wrong password
// shows the server's refusal by the form, marks the field, and stays on
// the page.
func (r *accountsRun) wrongPassword(t *testing.T) {
	ctx := r.b.tab(t, true)
	run(t, ctx, chromedp.Navigate(r.b.url("/login?next=/leaderboard")), chromedp.WaitVisible(chromedp.CSS(`#name`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), r.ann.name), chromedp.SendKeys(chromedp.CSS(`#password`), "not-"+r.ann.password+"\n"))
	shown := poll[string](t, ctx, "the refusal", `document.querySelector("#form-error")?.textContent`)
	code, body := r.b.ts.do("POST", "/api/session", "", map[string]string{"name": r.ann.name, "password": "not-" + r.ann.password})
	var refusal struct {
		Error apiError `json:"error"`
	}
	if err := json.Unmarshal(body, &refusal); err != nil || code != http.StatusUnauthorized {
		t.Fatalf("the API took a wrong password: %d %s", code, body)
	}
	if shown != refusal.Error.Message {
		t.Errorf("the page says %q, the server %q", shown, refusal.Error.Message)
	}
	if path := poll[string](t, ctx, "the page", `document.querySelector("#name").getAttribute("aria-invalid") && location.pathname`); path != "/login" {
		t.Errorf("after a refusal the page is %s", path)
	}
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](`fetch("/api/session").then((r) => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != http.StatusUnauthorized {
		t.Errorf("GET /api/session after a refusal: %d %v", status, err)
	}
}

// logOut: Ann logs out from the header's menu, by the keyboard alone
// (Enter opens the menu, Tab walks it); the header offers to sign in and
// the session is gone.
func (r *accountsRun) logOut(t *testing.T) {
	ctx := r.ann.ctx
	run(t, ctx, chromedp.Navigate(r.b.url("/leaderboard")), chromedp.WaitVisible(chromedp.CSS(`header details.me > summary`)),
		chromedp.Focus(chromedp.CSS(`header details.me > summary`)), chromedp.KeyEvent(kb.Enter))
	for _, want := range []string{"Profile", "Account", "Log out"} {
		run(t, ctx, chromedp.KeyEvent(kb.Tab))
		if at := poll[string](t, ctx, "the focus", `document.activeElement.textContent`); at != want {
			t.Fatalf("Tab in the menu reached %q, want %q", at, want)
		}
	}
	run(t, ctx, chromedp.KeyEvent(kb.Enter))
	poll[bool](t, ctx, "the header's Sign in", `location.pathname === "/" && !!document.querySelector("header .sign-in")`)
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](`fetch("/api/session").then((r) => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != http.StatusUnauthorized {
		t.Errorf("GET /api/session after logging out: %d %v", status, err)
	}
}

// axe checks the new pages with axe-core, at both sizes, light and dark:
// sign-up, sign-in, the account page, a profile, a player that does not
// exist, the leaderboard, and the home page's lobby with seeks of every
// kind (Bob's own, a challenge to him, a three-player one).
func (r *accountsRun) axe(t *testing.T) {
	if _, ok := readAxe(t); !ok {
		t.Skipf("axe-core is not installed at server/%s", axeScript)
	}
	r.seekers(t)
	pages := []axePage{
		{"signup", "/signup", `!!document.querySelector("form.auth-form")`},
		{"login", "/login", `!!document.querySelector("form.auth-form")`},
		{"account", "/account", `document.querySelectorAll(".account-box").length === 8 && !!document.querySelector(".passkeys li")`},
		{"profile", "/@/" + r.ann.name, `!!document.querySelector(".rating-plot svg") && !!document.querySelector("li.played")`},
		{"no-player", "/@/nobody-here", `!!document.querySelector(".no-player")`},
		{"leaderboard", "/leaderboard/pommel", `!!document.querySelector("table.ranks")`},
		{"lobby", "/", `document.querySelectorAll("li.seek").length >= 4`},
	}
	for _, size := range screenSizes {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(size.name+"-"+scheme, func(t *testing.T) {
				ctx := personTab(t, r.bob, size, scheme, phoneScale())
				for _, p := range pages {
					run(t, ctx, chromedp.Navigate(r.b.url(p.path)))
					poll[bool](t, ctx, p.name+" drawn", p.ready)
					checkAxeIn(t, ctx, scheme, p.name+"-"+size.name+"-"+scheme)
				}
			})
		}
	}
}

// apiPerson is a person using the API with their own cookie jar.
type apiPerson struct {
	t      *testing.T
	base   string
	client *http.Client
}

func (r *accountsRun) apiPerson(t *testing.T, name, password string, signup bool) *apiPerson {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &apiPerson{t: t, base: r.b.ts.http.URL, client: &http.Client{Jar: jar}}
	path, want := "/api/session", http.StatusOK
	if signup {
		path, want = "/api/accounts", http.StatusCreated
	}
	p.call("POST", path, map[string]string{"name": name, "password": password}, want, nil)
	return p
}

// call sends a request as the person and decodes the answer into out.
func (p *apiPerson) call(method, path string, body any, want int, out any) {
	p.t.Helper()
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			p.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, p.base+path, &buf)
	if err != nil {
		p.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw bytes.Buffer
	_, _ = raw.ReadFrom(resp.Body)
	if resp.StatusCode != want {
		p.t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, raw.Bytes(), want)
	}
	if out != nil {
		if err := json.Unmarshal(raw.Bytes(), out); err != nil {
			p.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// stayInLobby opens the person's lobby socket, which keeps their
// real-time seeks open, until ts's test ends.
func (p *apiPerson) stayInLobby(ts *testServer) {
	p.t.Helper()
	header := http.Header{}
	for _, c := range p.client.Jar.Cookies(mustParse(p.base)) {
		header.Add("Cookie", c.String())
	}
	conn, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(p.base, "http")+"/api/lobby/ws", &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		p.t.Fatalf("the lobby's socket: %v", err)
	}
	// Read the lobby's messages, and so answer its pings, until the end
	// (CloseRead would close the socket at the first message).
	go func() {
		for {
			if _, _, err := conn.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	ts.t.Cleanup(func() { conn.CloseNow() })
}

// seekers fills the lobby: seeks of three other players (one a challenge
// to Bob, one for three players), and one of Bob's own, made from his page.
func (r *accountsRun) seekers(t *testing.T) {
	if r.bob.ctx == nil {
		t.Fatal("no Bob")
	}
	carl := r.apiPerson(t, "carl", "amber-lanterns-sway-north", true)
	dana := r.apiPerson(t, "dana", "copper-otters-fold-maps", true)
	carl.call("POST", "/api/seeks", map[string]any{"game": "pommel", "options": map[string]string{}, "rated": true, "clock": map[string]int{"initial": 180, "increment": 2}}, http.StatusCreated, nil)
	carl.call("POST", "/api/seeks", map[string]any{"game": "checkers-2011", "options": map[string]string{}, "rated": true, "clock": map[string]int{"initial": 300, "increment": 3}, "to": r.bob.name}, http.StatusCreated, nil)
	dana.call("POST", "/api/seeks", map[string]any{"game": "eximo", "options": map[string]string{}, "rated": false, "clock": map[string]int{"days": 1}}, http.StatusCreated, nil)
	dana.call("POST", "/api/seeks", map[string]any{"game": "punt-heks-match-3p", "options": map[string]string{}, "rated": true, "clock": map[string]int{"initial": 600, "increment": 5}}, http.StatusCreated, nil)
	// A real-time seek lasts while its seeker's lobby socket is open and
	// lobby.SeekHold after: on a busy machine the scenarios that read
	// these seeks take longer than that, so the seekers stay in the lobby
	// till the test's end, Bob in his first tab, parked on the home page.
	carl.stayInLobby(r.b.ts)
	dana.stayInLobby(r.b.ts)
	run(t, r.bob.ctx, chromedp.Navigate(r.b.url("/")))
	poll[bool](t, r.bob.ctx, "Bob's lobby, live", `document.querySelector(".lobby ul.seeks")?.dataset.live === "true"`)
	status, err := chromedp.Run(r.bob.ctx, chromedp.Evaluate[int](`fetch("/api/seeks", { method: "POST", headers: { "Content-Type": "application/json" },
		body: JSON.stringify({ game: "pommel-76", options: {}, rated: true, clock: { initial: 600, increment: 5 } }) }).then((r) => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != http.StatusCreated {
		t.Fatalf("Bob's seek: %d %v", status, err)
	}
	r.seeded = true
}

// lobbyLists: Bob's lobby lists the real-time seeks and the
// correspondence ones apart, no More button under lists shorter than a
// page, and the game filter keeps one game's seeks.
func (r *accountsRun) lobbyLists(t *testing.T) {
	if !r.seeded {
		r.seekers(t)
	}
	ctx := r.bob.ctx
	run(t, ctx, chromedp.Navigate(r.b.url("/")))
	const lists = `const of = (kind) => [...document.querySelectorAll('ul.seeks[data-kind="' + kind + '"] li.seek')].map((li) => li.dataset.game);
		const moreShown = [...document.querySelectorAll("button.more-seeks")].some((b) => b.offsetParent !== null);`
	poll[bool](t, ctx, "the two lists", `(() => { `+lists+`
		return of("realtime").includes("pommel-76") && !of("realtime").includes("eximo") && of("correspondence").join() === "eximo" && !moreShown; })()`)
	run(t, ctx, chromedp.SetValue(chromedp.CSS(`select#seek-filter`), "pommel-76"),
		script(`document.querySelector("select#seek-filter").dispatchEvent(new Event("change", { bubbles: true }))`))
	poll[bool](t, ctx, "Pommel 76's seeks only", `(() => { `+lists+`
		return of("realtime").join() === "pommel-76" && of("correspondence").length === 0 &&
			!!document.querySelector('ul.seeks[data-kind="correspondence"] li.none'); })()`)
}

// pictures saves, with -screenshots, the pictures of docs/web.md: the
// lobby, a profile with its plot, the leaderboard and the game's end
// with the rating changes, at a desktop's and a phone's size, light and
// dark, as Bob sees them.
func (r *accountsRun) pictures(t *testing.T) {
	if *screenshotDir == "" {
		t.Skip("no -screenshots folder")
	}
	r.moreGames(t, 4)
	pages := []struct{ name, path, ready string }{
		{"lobby", "/", `document.querySelectorAll("li.seek").length >= 4 && document.querySelectorAll("svg.preview").length > 0 &&
			!!document.querySelector(".turn-list li[data-game]")`},
		{"profile", "/@/" + r.bob.name, `!!document.querySelector(".rating-plot svg") && !!document.querySelector("li.played")`},
		{"leaderboard", "/leaderboard/pommel", `!!document.querySelector("table.ranks")`},
		{"game-end", "/play/" + r.game, `!!document.querySelector(".end .rating-changes") && document.querySelectorAll("svg.board polygon[data-cell]").length > 0`},
	}
	for _, size := range screenSizes {
		for _, scheme := range []string{"light", "dark"} {
			ctx := personTab(t, r.bob, size, scheme, 1)
			for _, p := range pages {
				run(t, ctx, chromedp.Navigate(r.b.url(p.path)))
				poll[bool](t, ctx, p.name+" drawn", p.ready)
				if p.name == "game-end" {
					run(t, ctx, script(`document.querySelector(".end").scrollIntoView({ block: "center" })`))
				}
				time.Sleep(200 * time.Millisecond)
				viewShot(t, ctx, strings.Join([]string{"accounts", p.name, size.name, scheme}, "-"))
			}
		}
	}
}

// moreGames plays n more rated Pommel games of Ann against Bob through
// the API, each resigned at once by one of them in turn, so that Bob's
// rating has a history to draw; then starts one more, which waits for
// Bob's move.
func (r *accountsRun) moreGames(t *testing.T, n int) {
	ann := r.apiPerson(t, r.ann.name, r.ann.password, false)
	bob := r.apiPerson(t, r.bob.name, r.bob.password, false)
	for i := range n + 1 {
		var seek struct {
			ID string `json:"id"`
		}
		ann.call("POST", "/api/seeks", map[string]any{"game": "pommel", "options": map[string]string{}, "rated": true, "clock": map[string]int{"days": 3}}, http.StatusCreated, &seek)
		var started struct {
			Game string `json:"game"`
		}
		bob.call("POST", "/api/seeks/"+seek.ID+"/accept", nil, http.StatusCreated, &started)
		if i == n {
			r.waitForBob(t, started.Game, ann)
			return
		}
		loser := []*apiPerson{ann, bob}[i%3%2]
		loser.call("POST", "/api/games/"+started.Game+"/resign", nil, http.StatusOK, nil)
	}
}

// waitForBob plays Ann's first move in game id when she is White, so
// that the game waits for Bob's.
func (r *accountsRun) waitForBob(t *testing.T, id string, ann *apiPerson) {
	v := r.view(t, id)
	if v.Seats[v.ToMove].Account == r.bob.name {
		return
	}
	ann.call("POST", "/api/games/"+id+"/moves", map[string]any{"move": v.Legal[0], "ply": v.Ply}, http.StatusOK, nil)
}

// passkey: Cleo, on a browser with a passkey authenticator (Chromium's
// virtual one) and the site reached by name (WebAuthn wants a domain),
// adds a passkey on the account page, logs out, and signs in again with
// the passkey alone.
func (r *accountsRun) passkey(t *testing.T) {
	cleo := r.cleo
	if _, err := chromedp.Call(cleo.ctx, webauthn.Enable, webauthn.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(cleo.ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
		Protocol: webauthn.AuthenticatorProtocolCtap2, Transport: webauthn.AuthenticatorTransportInternal,
		HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}}); err != nil {
		t.Fatal(err)
	}
	site := strings.Replace(r.b.ts.http.URL, "127.0.0.1", "localhost", 1)
	r.signUpAt(t, cleo, site)
	// Once the listing is drawn: a click aimed before it came could land
	// where the button was.
	run(t, cleo.ctx, chromedp.Navigate(site+"/account"), chromedp.WaitVisible(chromedp.CSS(`#passkey-name`)),
		chromedp.WaitVisible(chromedp.CSS(`.passkeys li:not(.loading)`)), chromedp.Click(chromedp.CSS(`button.add-passkey`)))
	if msg := poll[string](t, cleo.ctx, "the outcome", `document.querySelector("#passkey-status")?.textContent`); !strings.HasPrefix(msg, "Passkey added") {
		t.Fatalf("adding a passkey says %q", msg)
	}
	added := poll[string](t, cleo.ctx, "the passkey listed", `document.querySelector(".passkeys li[data-passkey] .passkey-name")?.textContent`)
	if added != "This device" {
		t.Errorf("the passkey is listed as %q", added)
	}
	run(t, cleo.ctx, chromedp.Evaluate[chromedp.Void](`fetch("/api/session", { method: "DELETE" }).then(() => 0)`, chromedp.EvalAwaitPromise),
		chromedp.Navigate(site+"/login?next=/account"), chromedp.WaitVisible(chromedp.CSS(`button.passkey-sign-in`)),
		chromedp.Click(chromedp.CSS(`button.passkey-sign-in`)))
	poll[bool](t, cleo.ctx, "Cleo signed in by her passkey", `location.pathname === "/account" && document.querySelector("header details.me .me-name")?.textContent === "cleo"`)
}

// ratedAgainstAI: Bob starts a rated game against the AI's level 1 from
// the home page's form; his seat is his account's, the AI's is its
// level's account; he resigns, and the end shows both ratings' changes.
func (r *accountsRun) ratedAgainstAI(t *testing.T) {
	ctx := r.bob.ctx
	run(t, ctx, chromedp.Navigate(r.b.url("/")), chromedp.WaitVisible(chromedp.CSS(`input#rated`)),
		chromedp.SetValue(chromedp.CSS(`select#game`), "pommel"),
		script(`document.querySelector("select#game").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS(`select#seat0`), "me"), chromedp.SetValue(chromedp.CSS(`select#seat1`), "ai:level=1"),
		chromedp.SetValue(chromedp.CSS(`select#clock`), "clock:15m+10s"),
		chromedp.Click(chromedp.CSS(`input#rated`)), chromedp.Click(chromedp.CSS(`button.create`)))
	id := poll[string](t, ctx, "the game", `location.pathname.startsWith("/play/") && location.pathname.split("/")[2]`)
	v := r.view(t, id)
	if !v.Rated || v.Seats[0].Account != r.bob.name || v.Seats[1].Account != "ai-level-1" {
		t.Fatalf("the game is rated %v, its seats' accounts %q and %q", v.Rated, v.Seats[0].Account, v.Seats[1].Account)
	}
	if name := poll[string](t, ctx, "the AI's strip", `document.querySelector('.player[data-seat="1"] .name a')?.textContent`); name != "AI level 1" {
		t.Errorf("the AI's strip names %q", name)
	}
	poll[bool](t, ctx, "Bob's turn", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
	click(t, ctx, `button.resign`) // the page may redraw meanwhile (a seat arrived): click tries again
	click(t, ctx, `dialog.confirm .confirm-yes`)
	n := poll[int](t, ctx, "the rating changes", `document.querySelectorAll(".end .rating-changes li").length`)
	if n != 2 {
		t.Errorf("%d rating changes shown, want Bob's and the AI's", n)
	}
}

// accountPage: on her account page Cleo is refused a new password for a
// wrong old one (the server's message by the form), changes it with the
// right one, downloads her games, and deletes her account: without the
// tick the page asks for it; with it, she is home and logged out, and
// her profile says the account is deleted.
func (r *accountsRun) accountPage(t *testing.T) {
	cleo := r.cleo
	if cleo.ctx == nil {
		t.Fatal("no Cleo")
	}
	site := strings.Replace(r.b.ts.http.URL, "127.0.0.1", "localhost", 1)
	run(t, cleo.ctx, chromedp.Navigate(site+"/account"), chromedp.WaitVisible(chromedp.CSS(`#password-old`)),
		chromedp.SendKeys(chromedp.CSS(`#password-old`), "not-"+cleo.password), chromedp.SendKeys(chromedp.CSS(`#password-new`), "quiet-meadows-hold-rain\n"))
	refused := poll[string](t, cleo.ctx, "the refusal", `document.querySelector("#password-status:not(.ok)")?.textContent`)
	if refused == "" || strings.HasPrefix(refused, "Password changed") {
		t.Errorf("a wrong old password: the page says %q", refused)
	}
	run(t, cleo.ctx, script(`document.querySelector("#password-old").value = ""; document.querySelector("#password-new").value = ""`),
		chromedp.SendKeys(chromedp.CSS(`#password-old`), cleo.password), chromedp.SendKeys(chromedp.CSS(`#password-new`), "quiet-meadows-hold-rain\n"))
	if done := poll[string](t, cleo.ctx, "the change", `document.querySelector("#password-status.ok")?.textContent`); !strings.HasPrefix(done, "Password changed") {
		t.Errorf("the change says %q", done)
	}
	cleo.password = "quiet-meadows-hold-rain"
	export := poll[string](t, cleo.ctx, "the export", `(async () => { const a = document.querySelector("a.export");
		const r = await fetch(a.href); return r.status + " " + r.headers.get("Content-Disposition") + " " + a.getAttribute("download"); })()`)
	if !strings.HasPrefix(export, "200 attachment") || !strings.HasSuffix(export, " arbiter-cleo.pdn") {
		t.Errorf("the export: %s", export)
	}
	run(t, cleo.ctx, chromedp.Click(chromedp.CSS(`#delete details > summary`)), chromedp.WaitVisible(chromedp.CSS(`#delete-password`)),
		chromedp.SendKeys(chromedp.CSS(`#delete-password`), cleo.password), chromedp.Click(chromedp.CSS(`button.delete-account`)))
	if ask := poll[string](t, cleo.ctx, "the tick asked for", `document.querySelector("#delete-status")?.textContent`); ask != "Tick the box to confirm." {
		t.Errorf("deleting without the tick: %q", ask)
	}
	click(t, cleo.ctx, `#delete-sure`)
	click(t, cleo.ctx, `button.delete-account`)
	poll[bool](t, cleo.ctx, "home, logged out", `location.pathname === "/" && !!document.querySelector("header .sign-in")`)
	run(t, cleo.ctx, chromedp.Navigate(site+"/@/cleo"))
	poll[bool](t, cleo.ctx, "the profile of a deleted account", `[...document.querySelectorAll(".profile-head .tag, .no-player")].some((e) => /deleted|No such player/.test(e.textContent))`)
}
