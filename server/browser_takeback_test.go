package server

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/chromedp/chromedp"
)

// TestBrowserTakebacks takes moves back and sets premoves as players do,
// between two browser contexts and against the AI, on a phone and a
// desktop: the request is a banner over the other player's board; a
// premove is two clicks on the opponent's turn, played when the turn
// comes or, no longer legal then, dropped with a word to the player.
func TestBrowserTakebacks(t *testing.T) {
	b := newBrowser(t)
	t.Run("between two people", b.takebackBetweenPeople)
	t.Run("against the AI", b.takebackAgainstAI)
	t.Run("premove played", func(t *testing.T) { b.premove(t, true) })
	t.Run("premove dropped", func(t *testing.T) { b.premove(t, false) })
}

// mustMove plays a move through the API, failing the test on a refusal.
func (b *browser) mustMove(t *testing.T, g hall.Created, seat int, move string, ply int) {
	t.Helper()
	if code, msg := b.ts.move(g.ID, g.Seats[seat].Token, move, ply); code != http.StatusOK {
		t.Fatalf("move %s at ply %d: %d %s", move, ply, code, msg)
	}
}

// openSeat opens seat's invite of g in a fresh tab of size, and waits for
// the board.
func (b *browser) openSeat(t *testing.T, g hall.Created, seat int, size screenSize) context.Context {
	t.Helper()
	ctx := b.sizedScheme(t, size, "light")
	run(t, ctx, chromedp.Navigate(b.url(g.Seats[seat].URL)))
	poll[bool](t, ctx, "the board", `document.querySelectorAll("svg.board polygon[data-cell]").length > 0`)
	return ctx
}

// takebackBetweenPeople: White asks on a desktop; Black, on a phone, sees
// the request over the board, in view, and accepts it: both moves go back.
func (b *browser) takebackBetweenPeople(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "names": []string{"alice", "bob"}})
	alice := b.openSeat(t, g, 0, desktop)
	bob := b.openSeat(t, g, 1, phone)
	b.mustMove(t, g, 0, "a1-a3", 0)
	b.mustMove(t, g, 1, "g6-g4", 1)
	poll[bool](t, alice, "the Take back button", `!!document.querySelector(".controls button.takeback")`)
	click(t, alice, ".controls button.takeback")
	poll[bool](t, alice, "the request said", `document.querySelector(".controls")?.textContent.includes("You asked to take back")`)
	if v := b.ts.game(g.ID); v.Takeback != 0 || v.Ply != 2 {
		t.Fatalf("after the request: takeback %d at ply %d", v.Takeback, v.Ply)
	}
	poll[bool](t, bob, "the request over the board", `!!document.querySelector(".offer.banner:not([hidden]) .takeback-accept")`)
	if bottom := evaluate[float64](t, bob, `document.querySelector(".offer.banner .takeback-accept").getBoundingClientRect().bottom`); bottom > 844 {
		t.Errorf("phone: the take-back's Accept ends %.0f px down, below the screen", bottom)
	}
	screenshot(t, bob, "takeback-request-phone")
	text := evaluate[string](t, bob, `document.querySelector(".offer.banner").textContent`)
	if !strings.Contains(text, "asks to take back") {
		t.Errorf("the banner says %q", text)
	}
	tap(t, bob, ".offer.banner .takeback-accept")
	b.takenBackTo(t, g.ID, 0)
	for _, ctx := range []context.Context{alice, bob} {
		poll[bool](t, ctx, "the moves gone and the banner with them",
			`document.querySelectorAll(".moves [data-ply]").length === 0 && !document.querySelector(".offer.banner:not([hidden]) .takeback-accept")`)
	}
}

// takenBackTo waits for the game to be back at ply.
func (b *browser) takenBackTo(t *testing.T, id string, ply int) {
	t.Helper()
	waitFor(t, 20*time.Second, "the take-back", func() bool { return b.ts.game(id).Ply == ply })
}

// takebackAgainstAI: against the AI a casual game's take-back is at once:
// the player's move and the AI's reply go back.
func (b *browser) takebackAgainstAI(t *testing.T) {
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	ctx := b.openSeat(t, g, 0, phone)
	b.mustMove(t, g, 0, "a1-a3", 0)
	b.waitPly(t, g.ID, 2)
	poll[bool](t, ctx, "the phone bar's take-back", `!!document.querySelector(".play-bar button.takeback")`)
	tap(t, ctx, ".play-bar button.takeback")
	b.takenBackTo(t, g.ID, 0)
	poll[bool](t, ctx, "the start again", `document.querySelectorAll(".moves [data-ply]").length === 0`)
	time.Sleep(300 * time.Millisecond)
	if v := b.ts.game(g.ID); v.Ply != 0 {
		t.Errorf("the AI moved again after the take-back: ply %d", v.Ply)
	}
}

// premoveLine finds, after White's a1-a3, a quiet move of White's and two
// replies of Black's: after good the move is legal (and the one move
// between its two cells), after bad it is not.
func premoveLine(t *testing.T) (move, good, bad string) {
	t.Helper()
	rules, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.Start()
	if err := game.PlayRuleMoves(st, []string{"a1-a3"}); err != nil {
		t.Fatal(err)
	}
	whiteAfter := map[string]map[string]bool{}
	for _, reply := range game.MoveTexts(st) {
		after := st.Clone()
		if err := game.PlayRuleMoves(after, []string{reply}); err != nil {
			t.Fatal(err)
		}
		whiteAfter[reply] = map[string]bool{}
		for _, m := range game.MoveTexts(after) {
			whiteAfter[reply][m] = true
		}
	}
	replies := slices.Sorted(maps.Keys(whiteAfter)) // the same line at every run
	for _, good := range replies {
		for _, m := range slices.Sorted(maps.Keys(whiteAfter[good])) {
			if strings.Count(m, "-") != 1 || strings.Contains(m, "x") {
				continue
			}
			for _, bad := range replies {
				if !whiteAfter[bad][m] {
					return m, good, bad
				}
			}
		}
	}
	t.Fatal("no premove line found")
	return "", "", ""
}

// premove: White sets a premove by two clicks while Black is to move;
// Black's reply makes it legal (played at once) or not (dropped, and the
// page says so).
func (b *browser) premove(t *testing.T, legal bool) {
	move, good, bad := premoveLine(t)
	g := b.ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "10m+0s"})
	alice := b.openSeat(t, g, 0, desktop)
	b.mustMove(t, g, 0, "a1-a3", 0)
	poll[bool](t, alice, "Black to move", `document.querySelector(".status")?.textContent.includes("Black")`)
	from, to, _ := strings.Cut(move, "-")
	clickCell(t, alice, from)
	clickCell(t, alice, to)
	poll[bool](t, alice, "the premove set", `document.querySelector(".controls .premove-text")?.textContent.includes("`+move+`")`)
	screenshot(t, alice, "premove-set-desktop")
	if n := evaluate[int](t, alice, `document.querySelectorAll("svg.board polygon.premove").length`); n != 2 {
		t.Errorf("%d cells tinted for the premove, want its 2", n)
	}
	reply := bad
	if legal {
		reply = good
	}
	b.mustMove(t, g, 1, reply, 1)
	if legal {
		v := b.waitPly(t, g.ID, 3)
		if v.Moves[2] != move {
			t.Fatalf("moves %v: want the premove %s played", v.Moves, move)
		}
		if v.Clock.LeftMs[0] < 590_000 {
			t.Errorf("the premove took White's clock to %d ms", v.Clock.LeftMs[0])
		}
		poll[bool](t, alice, "the premove gone from the page", `!document.querySelector(".controls .premove-text") && document.querySelectorAll(".moves [data-ply]").length === 3`)
		return
	}
	poll[bool](t, alice, "the premove said to be dropped", `document.querySelector(".message")?.textContent.includes("was no longer legal")`)
	if v := b.ts.game(g.ID); v.Ply != 2 || v.ToMove != 0 {
		t.Errorf("after a dropped premove: ply %d, %d to move", v.Ply, v.ToMove)
	}
}
