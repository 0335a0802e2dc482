package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// TestBrowserTakebacks2 completes TestBrowserTakebacks: take-backs
// turned off at a game's creation (the new-game form, the lobby's seek
// form), a premove that survives a reload and is cancelled, a premove the
// AI's reply makes illegal (said, across reloads), a take-back while the
// AI thinks, a request declined by the keyboard and seen over the board
// of a phone in both themes, and no Take back button where the rules
// refuse every take-back.
func TestBrowserTakebacks2(t *testing.T) {
	skipWithoutBrowser(t)
	gs := &gates{}
	b := newBrowserWith(t, siteConfig{Engines: gs.engines})
	t.Run("the new-game form", b.formTakebacks)
	t.Run("premove after a reload", b.premoveAfterReload)
	t.Run("premove dropped by the AI's reply", func(t *testing.T) { b.premoveDroppedByTheAI(t, gs.open(t)) })
	t.Run("take-back while the AI thinks", func(t *testing.T) { b.takebackWhileTheAIThinks(t, gs.open(t)) })
	t.Run("request declined by the keyboard", b.takebackDeclined)
	t.Run("no take-back where the rules refuse it", b.noTakebackButton)
	t.Run("signed in: rated against the AI, a seek", b.takebacksSignedIn)
}

// gates are the AI seat "random" of these tests: its search waits until
// the test gives the reply to play, so that the test knows the AI is
// still thinking while the player acts, and what it will answer. Each
// scenario has a gate of its own, opened when it ends: a search it left
// waiting (it failed early) returns, and holds no worker the next
// scenario's real engines need. Every other seat is the real engine of
// its spec.
type gates struct {
	mu  sync.Mutex
	cur *gate
}

type gate struct {
	replies chan string
	done    chan struct{}
}

// open gives the scenario t a gate of its own, until it ends.
func (gs *gates) open(t *testing.T) *gate {
	g := &gate{replies: make(chan string), done: make(chan struct{})}
	gs.mu.Lock()
	gs.cur = g
	gs.mu.Unlock()
	t.Cleanup(func() { close(g.done) })
	return g
}

func (gs *gates) current() *gate {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	return gs.cur
}

func (gs *gates) engines(spec string, seed uint64, opts ...ai.Option) (ai.Engine, error) {
	if spec == "random" {
		return gatedEngine{gs}, nil
	}
	return ai.New(spec, seed, opts...)
}

// reply lets the waiting search play move; the send returns once a
// search took it.
func (g *gate) reply(t *testing.T, move string) {
	t.Helper()
	select {
	case g.replies <- move:
	case <-time.After(20 * time.Second):
		t.Fatal("no AI search waited for its reply")
	}
}

type gatedEngine struct{ gs *gates }

func (gatedEngine) Name() string { return "random" }

// Search plays the reply given, read in s; a reply that is no move of s,
// or a scenario that ended, is an engine's failure (Err), which the
// game shows.
func (e gatedEngine) Search(ctx context.Context, s game.State, _ ai.Limits, _ func(ai.Info)) ai.Info {
	g := e.gs.current()
	if g == nil {
		return ai.Info{Err: errors.New("no scenario waits for this search")}
	}
	select {
	case text := <-g.replies:
		m, err := game.ParseMove(s, text)
		return ai.Info{Move: m, Err: err}
	case <-g.done:
		return ai.Info{Err: errors.New("the scenario ended")}
	case <-ctx.Done():
		return ai.Info{Err: ctx.Err()}
	}
}

// formTakebacks: the new-game form's "Take-backs allowed" is ticked; a
// game made with it ticked allows take-backs, one made without refuses
// them, and its page offers no Take back after the first moves.
func (b *browser) formTakebacks(t *testing.T) {
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			ctx := b.sizedScheme(t, phone, scheme)
			run(t, ctx, chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`input#takebacks`)))
			shotOf(t, ctx, ".new-game-box", "takebacks-form-phone-"+scheme)
			checkAxeIn(t, ctx, scheme, "the new-game form, "+scheme)
		})
	}
	for _, allowed := range []bool{true, false} {
		t.Run(fmt.Sprint("allowed ", allowed), func(t *testing.T) {
			ctx := b.sizedScheme(t, desktop, "light")
			run(t, ctx, chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`input#takebacks`)))
			if !evaluate[bool](t, ctx, `document.querySelector("input#takebacks").checked`) {
				t.Fatal("Take-backs allowed is not ticked at first")
			}
			if !allowed {
				run(t, ctx, chromedp.Click(chromedp.CSS(`input#takebacks`)))
			}
			run(t, ctx, chromedp.SetValue(chromedp.CSS(`select#seat1`), "ai:level=1"), chromedp.Click(chromedp.CSS(`button.create`)))
			id := poll[string](t, ctx, "the game page", `location.pathname.startsWith("/play/") && location.pathname.split("/")[2]`)
			if v := b.ts.game(id); v.Takebacks != allowed {
				t.Fatalf("ticked %v: the game allows take-backs %v", allowed, v.Takebacks)
			}
			poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon[data-cell]").length > 0`)
			clickMove(t, ctx, "a1-a3")
			b.waitPly(t, id, 2)
			poll[bool](t, ctx, "the AI's reply on the page", `document.querySelectorAll(".moves [data-ply]").length === 2`)
			shown := evaluate[bool](t, ctx, `!!document.querySelector(".controls button.takeback")`)
			if shown != allowed {
				t.Errorf("take-backs allowed %v: the Take back button shows %v", allowed, shown)
			}
		})
	}
}

// shotOf saves the element sel finds when -screenshots names a folder.
func shotOf(t *testing.T, ctx context.Context, sel, name string) {
	t.Helper()
	if *screenshotDir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*screenshotDir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// premoveOf reads the premove the server keeps for a seat.
func (b *browser) premoveOf(t *testing.T, id, token string) (v struct{ Premove, Dropped string }) {
	t.Helper()
	code, body := b.ts.do("GET", "/api/games/"+id+"/premove", token, nil)
	if code != http.StatusOK || json.Unmarshal(body, &v) != nil {
		t.Fatalf("GET premove: %d %s", code, body)
	}
	return v
}

// setPremoveByClicks sets move as a premove by its two cells, and waits
// for the page to show it.
func setPremoveByClicks(t *testing.T, ctx context.Context, move string) {
	t.Helper()
	from, to, _ := strings.Cut(move, "-")
	clickCell(t, ctx, from)
	clickCell(t, ctx, to)
	poll[bool](t, ctx, "the premove set", `document.querySelector(".controls .premove-text")?.textContent.includes("`+move+`")`)
}

// reload opens the page again and waits for its board.
func reload(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, chromedp.Reload())
	poll[bool](t, ctx, "the board again", `document.querySelectorAll("svg.board polygon[data-cell]").length > 0`)
}

// premoveAfterReload: a premove set before a reload shows after it, its
// cells tinted, and its Cancel clears it on the server.
func (b *browser) premoveAfterReload(t *testing.T) {
	move, _, _ := premoveLine(t)
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}})
	alice := b.openSeat(t, g, 0, desktop)
	b.mustMove(t, g, 0, "a1-a3", 0)
	poll[bool](t, alice, "Black to move", `document.querySelector(".status")?.textContent.includes("Black")`)
	setPremoveByClicks(t, alice, move)
	reload(t, alice)
	poll[bool](t, alice, "the premove after the reload", `document.querySelector(".controls .premove-text")?.textContent.includes("`+move+`")`)
	if n := evaluate[int](t, alice, `document.querySelectorAll("svg.board polygon.premove").length`); n != 2 {
		t.Errorf("after the reload %d cells tinted for the premove, want its 2", n)
	}
	click(t, alice, ".controls button.premove-cancel")
	poll[bool](t, alice, "the premove gone", `!document.querySelector(".controls .premove-text") && document.querySelectorAll("svg.board polygon.premove").length === 0`)
	if pm := b.premoveOf(t, g.ID, g.Seats[0].Token); pm.Premove != "" {
		t.Errorf("the server still keeps the premove %q", pm.Premove)
	}
}

// premoveDroppedByTheAI: White sets a premove while the AI thinks and
// reloads; the AI's reply makes it illegal; the page says so, and says so
// again when opened afresh, until White moves.
func (b *browser) premoveDroppedByTheAI(t *testing.T, gt *gate) {
	move, _, bad := premoveLine(t)
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "random"}})
	alice := b.openSeat(t, g, 0, phone)
	b.mustMove(t, g, 0, "a1-a3", 0)
	poll[bool](t, alice, "the AI thinking", `document.querySelector(".status")?.textContent.includes("thinking")`)
	setPremoveByClicks(t, alice, move)
	reload(t, alice)
	poll[bool](t, alice, "the premove after the reload", `document.querySelector(".controls .premove-text")?.textContent.includes("`+move+`")`)
	gt.reply(t, bad)
	said := fmt.Sprintf(`document.querySelector(".message")?.textContent === "Your premove %s was no longer legal, so it was not played."`, move)
	poll[bool](t, alice, "the premove said to be no longer legal", said)
	screenshot(t, alice, "premove-dropped-phone")
	checkAxe(t, alice, "a premove dropped")
	if v := b.ts.game(g.ID); v.Ply != 2 || v.ToMove != 0 {
		t.Fatalf("after the AI's reply: ply %d, %d to move; want White to move at ply 2", v.Ply, v.ToMove)
	}
	reload(t, alice)
	poll[bool](t, alice, "the drop said after a reload", said)
	if n := evaluate[int](t, alice, `document.querySelectorAll("svg.board polygon.premove").length`); n != 0 {
		t.Errorf("%d cells tinted for a premove dropped", n)
	}
}

// takebackWhileTheAIThinks: the phone's bar takes White's move back while
// the AI thinks; the AI's answer to the position taken back is never
// played, and after White's next move the AI answers that one.
func (b *browser) takebackWhileTheAIThinks(t *testing.T, gt *gate) {
	_, good, _ := premoveLine(t)
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "random"}})
	alice := b.openSeat(t, g, 0, phone)
	b.mustMove(t, g, 0, "a1-a3", 0)
	poll[bool](t, alice, "the bar's Take back", `!!document.querySelector(".play-bar button.takeback")`)
	tap(t, alice, ".play-bar button.takeback")
	b.takenBackTo(t, g.ID, 0)
	poll[bool](t, alice, "the start again, White to move", `document.querySelectorAll(".moves [data-ply]").length === 0 && document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
	gt.reply(t, good) // the search of the position taken back ends
	b.mustMove(t, g, 0, "a1-a3", 0)
	gt.reply(t, good) // the search of the new position
	v := b.waitPly(t, g.ID, 2)
	if want := []string{"a1-a3", good}; !slices.Equal(v.Moves, want) {
		t.Errorf("moves %v, want %v", v.Moves, want)
	}
}

// takebackDeclined: White asks by the keyboard alone (Tab to Take back,
// Enter); Black, on a phone, sees the request over the board in the light
// and the dark theme, and declines; the moves stay, and White may ask
// again.
func (b *browser) takebackDeclined(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "names": []string{"alice", "bob"}})
	alice := b.openSeat(t, g, 0, desktop)
	bob := b.openSeat(t, g, 1, phone)
	b.mustMove(t, g, 0, "a1-a3", 0)
	b.mustMove(t, g, 1, "g6-g4", 1)
	poll[bool](t, alice, "the Take back button", `!!document.querySelector(".controls button.takeback")`)
	// Both moves drawn first: a redraw after the focus would move it. The
	// focus is given by the page's script, which finds the button as it
	// is then: chromedp.Focus holds a node that a redraw may have
	// replaced meanwhile ("Could not find node with given id").
	poll[bool](t, alice, "both moves shown", `document.querySelectorAll(".moves [data-ply]").length === 2`)
	poll[bool](t, alice, "the controls' first button focused", `(() => { const m = document.querySelector(".controls button.mute"); m?.focus(); return !!m && document.activeElement === m; })()`)
	for range 10 {
		if evaluate[bool](t, alice, `document.activeElement?.classList.contains("takeback")`) {
			break
		}
		run(t, alice, chromedp.KeyEvent(kb.Tab))
	}
	if !evaluate[bool](t, alice, `document.activeElement?.classList.contains("takeback")`) {
		t.Fatal("Tab from the controls' first button never reached Take back")
	}
	run(t, alice, chromedp.KeyEvent(kb.Enter))
	poll[bool](t, alice, "the request said", `document.querySelector(".controls")?.textContent.includes("You asked to take back")`)
	banner := `!!document.querySelector(".offer.banner:not([hidden]) .takeback-decline")`
	poll[bool](t, bob, "the request over the board", banner)
	if evaluate[bool](t, bob, `!!document.querySelector(".play-bar button.takeback")`) {
		t.Error("the bar offers Take back while the other's request waits (it would accept that one)")
	}
	inView := `(() => { const r = document.querySelector(".offer.banner").getBoundingClientRect(), b = document.querySelector("svg.board").getBoundingClientRect();
		return r.top >= b.top && r.bottom <= Math.min(b.bottom, innerHeight); })()`
	if !evaluate[bool](t, bob, inView) {
		t.Error("phone: the take-back banner is not over the board, in view")
	}
	screenshot(t, bob, "takeback-banner-phone-light")
	checkAxe(t, bob, "the take-back banner, light")
	prefersScheme(t, bob, "dark")
	reload(t, bob) // drawn afresh in the dark theme, no colour in transition
	poll[bool](t, bob, "the banner in the dark theme", banner)
	screenshot(t, bob, "takeback-banner-phone-dark")
	checkAxeColours(t, bob, "the take-back banner, dark")
	tap(t, bob, ".offer.banner .takeback-decline")
	waitFor(t, 20*time.Second, "the request declined", func() bool { return b.ts.game(g.ID).Takeback == -1 })
	if v := b.ts.game(g.ID); v.Ply != 2 {
		t.Errorf("after the decline: ply %d, want both moves kept", v.Ply)
	}
	poll[bool](t, bob, "the banner gone", `!document.querySelector(".offer.banner:not([hidden]) .takeback-decline")`)
	poll[bool](t, alice, "Take back offered again", `!!document.querySelector(".controls button.takeback") && !document.querySelector(".controls")?.textContent.includes("You asked")`)
}

// noTakebackButton: between three people no move goes back, so the page
// offers no Take back (it would only be refused); a game of three against
// the AI offers it.
func (b *browser) noTakebackButton(t *testing.T) {
	for _, seats := range [][]string{{"human", "human", "human"}, {"human", "ai:level=1", "ai:level=1"}} {
		g := b.ts.create(map[string]any{"game": "punt-heks-match-3p", "seats": seats})
		ctx := b.openSeat(t, g, 0, desktop)
		first := b.ts.game(g.ID).Legal[0]
		b.mustMove(t, g, 0, first, 0)
		poll[bool](t, ctx, "the move shown", `document.querySelectorAll(".moves [data-ply]").length >= 1`)
		people := seats[1] == "human"
		if !people {
			b.waitPly(t, g.ID, 3)
			poll[bool](t, ctx, "the AI's replies shown", `document.querySelectorAll(".moves [data-ply]").length === 3`)
		}
		if shown := evaluate[bool](t, ctx, `!!document.querySelector(".controls button.takeback")`); shown == people {
			t.Errorf("seats %v: the Take back button shows %v", seats, shown)
		}
	}
}

// takebacksSignedIn: a signed-in player's rated game against the AI
// offers no Take back; the lobby's seek form turns take-backs off, and
// the seek lists it so.
func (b *browser) takebacksSignedIn(t *testing.T) {
	p := &person{name: "tara", password: "amber-owls-sing-at-dusk"}
	b.newPerson(t, p)
	run(t, p.ctx, chromedp.Navigate(b.url("/signup")), chromedp.WaitVisible(chromedp.CSS(`#name`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), p.name), chromedp.SendKeys(chromedp.CSS(`#password`), p.password),
		chromedp.Click(chromedp.CSS(`form.auth-form button[type="submit"]`)))
	poll[bool](t, p.ctx, "signed in", `location.pathname === "/" && !!document.querySelector("input#rated")`)
	run(t, p.ctx, chromedp.SetValue(chromedp.CSS(`select#seat1`), "ai:level=1"), chromedp.SetValue(chromedp.CSS(`select#clock`), "clock:15m+10s"),
		chromedp.Click(chromedp.CSS(`input#rated`)), chromedp.Click(chromedp.CSS(`button.create`)))
	id := poll[string](t, p.ctx, "the game", `location.pathname.startsWith("/play/") && location.pathname.split("/")[2]`)
	if v := b.ts.game(id); !v.Rated || !v.Takebacks {
		t.Fatalf("the game: rated %v, take-backs %v", v.Rated, v.Takebacks)
	}
	poll[bool](t, p.ctx, "tara's turn", `document.querySelector(".status .turn")?.textContent.startsWith("Your move")`)
	clickMove(t, p.ctx, "a1-a3")
	b.waitPly(t, id, 2)
	poll[bool](t, p.ctx, "the AI's reply shown", `document.querySelectorAll(".moves [data-ply]").length === 2`)
	if evaluate[bool](t, p.ctx, `!!document.querySelector(".controls button.takeback")`) {
		t.Error("a rated game against the AI offers Take back")
	}

	run(t, p.ctx, chromedp.Navigate(b.url("/")), chromedp.WaitVisible(chromedp.CSS(`details.seek-box > summary`)),
		chromedp.Click(chromedp.CSS(`details.seek-box > summary`)), chromedp.WaitVisible(chromedp.CSS(`input#seek-takebacks`)))
	if !evaluate[bool](t, p.ctx, `document.querySelector("input#seek-takebacks").checked`) {
		t.Error("the seek form's Take-backs allowed is not ticked at first")
	}
	run(t, p.ctx, chromedp.Click(chromedp.CSS(`input#seek-takebacks`)), chromedp.Click(chromedp.CSS(`button.create-seek`)))
	row := poll[string](t, p.ctx, "the seek listed", `document.querySelector("li.seek.mine")?.textContent`)
	run(t, p.ctx, chromedp.Click(chromedp.CSS(`details.seek-box > summary`)))
	shotOf(t, p.ctx, "section.lobby", "takebacks-seek-desktop")
	checkAxe(t, p.ctx, "the seek form")
	if !strings.Contains(row, "no take-backs") {
		t.Errorf("the seek's row says %q, want no take-backs", row)
	}
	var seeks []struct{ Takebacks bool }
	code, body := b.ts.do("GET", "/api/seeks", "", nil)
	if code != http.StatusOK || json.Unmarshal(body, &seeks) != nil || len(seeks) != 1 || seeks[0].Takebacks {
		t.Errorf("the seeks: %d %s, want one with take-backs off", code, body)
	}
}
