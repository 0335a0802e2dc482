package hall

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// seatWho is the Who of a created game's seat.
func seatWho(c Created, seat int) Who {
	for _, inv := range c.Seats {
		if inv.Seat == seat {
			return Who{Token: inv.Token}
		}
	}
	return Who{}
}

// wantCode checks that err is the hall's refusal of code.
func wantCode(t *testing.T, what string, err error, code Code) {
	t.Helper()
	var he *Error
	if !errors.As(err, &he) || he.Code != code {
		t.Errorf("%s: %v, want a refusal %s", what, err, code)
	}
}

// A take-back request between people is stored, so that another server
// on the same store sees it and can accept it; the moves taken back are
// gone from the store, and their plies are played again.
func TestTakebackStoredAndAccepted(t *testing.T) {
	st := openStore(t)
	one := newTestHall(t, Config{Store: st})
	two := newTestHall(t, Config{Store: st})
	ctx := t.Context()
	c := create(t, one, humans("pommel"))
	playFirst(t, one, c, 0)
	playFirst(t, one, c, 1)
	v, err := one.Takeback(ctx, c.ID, seatWho(c, 0), AskTakeback)
	if err != nil || v.Takeback != 0 || v.Ply != 2 {
		t.Fatalf("request: takeback %d at ply %d, %v; want seat 0's request, the moves kept", v.Takeback, v.Ply, err)
	}
	if v := get(t, two, c.ID); v.Takeback != 0 || !v.Takebacks {
		t.Fatalf("the other server sees request %d (take-backs allowed %v)", v.Takeback, v.Takebacks)
	}
	_, err = two.Takeback(ctx, c.ID, seatWho(c, 0), AcceptTakeback)
	wantCode(t, "accepting one's own request", err, Conflict)
	v, err = two.Takeback(ctx, c.ID, seatWho(c, 1), AcceptTakeback)
	if err != nil || v.Ply != 0 || v.Takeback != -1 || len(v.Moves) != 0 || len(v.Movers) != 0 {
		t.Fatalf("accept: ply %d, moves %v, movers %v, request %d, %v", v.Ply, v.Moves, v.Movers, v.Takeback, err)
	}
	stored, err := st.Get(ctx, c.ID)
	if err != nil || len(stored.Moves) != 0 || stored.Ply != 0 || !stored.Waiting.IsZero() {
		t.Fatalf("stored after the take-back: %d moves, ply %d, waiting %+v, %v", len(stored.Moves), stored.Ply, stored.Waiting, err)
	}
	if v := playFirst(t, one, c, 0); v.Ply != 1 {
		t.Errorf("ply 0 played again: at ply %d", v.Ply)
	}
	_, err = one.Takeback(ctx, c.ID, seatWho(c, 0), "undo")
	wantCode(t, "an unknown action", err, Invalid)
}

// Take-backs off, and a rated game against the AI, refuse them.
func TestTakebackRefused(t *testing.T) {
	h := newTestHall(t, Config{})
	req := humans("pommel")
	req.NoTakebacks = true
	c := create(t, h, req)
	if v := get(t, h, c.ID); v.Takebacks {
		t.Error("a game created with take-backs off shows them allowed")
	}
	playFirst(t, h, c, 0)
	_, err := h.Takeback(t.Context(), c.ID, seatWho(c, 0), AskTakeback)
	wantCode(t, "take-backs off", err, Conflict)
}

// Against the AI a casual game takes the person's move and the reply
// back at once.
func TestTakebackAgainstTheAI(t *testing.T) {
	h := newTestHall(t, Config{})
	c := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "ai:level=1"}})
	playFirst(t, h, c, 0)
	waitFor(t, 30*time.Second, "AI reply", func() bool { return get(t, h, c.ID).Ply == 2 })
	v, err := h.Takeback(t.Context(), c.ID, seatWho(c, 0), AskTakeback)
	if err != nil || v.Ply != 0 || v.ToMove != 0 {
		t.Fatalf("take-back against the AI: ply %d, %d to move, %v; want both moves back", v.Ply, v.ToMove, err)
	}
	time.Sleep(50 * time.Millisecond)
	if v := get(t, h, c.ID); v.Ply != 0 {
		t.Errorf("the AI moved after the take-back: ply %d", v.Ply)
	}
}

// A premove set through one server is played by the other as soon as
// the opponent's move comes, and only its seat is told it.
func TestPremoveAcrossServers(t *testing.T) {
	st := openStore(t)
	one := newTestHall(t, Config{Store: st})
	two := newTestHall(t, Config{Store: st})
	ctx := t.Context()
	c := create(t, one, humans("pommel"))
	first := playFirst(t, one, c, 0)
	if _, err := one.SetPremove(ctx, c.ID, seatWho(c, 0), "b1-b3"); err != nil {
		t.Fatal(err)
	}
	if pm, err := one.Premove(ctx, c.ID, seatWho(c, 0)); pm != (PremoveView{Move: "b1-b3", Ply: 2}) || err != nil {
		t.Errorf("the seat's premove: %+v, %v", pm, err)
	}
	if pm, _ := one.Premove(ctx, c.ID, seatWho(c, 1)); pm != (PremoveView{}) {
		t.Errorf("the other seat is told the premove %+v", pm)
	}
	v, err := two.Move(ctx, c.ID, seatWho(c, 1), "g6-g4", first.Ply)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{first.Moves[0], "g6-g4", "b1-b3"}
	if !slices.Equal(v.Moves, want) || v.ToMove != 1 {
		t.Fatalf("after the reply: moves %v, %d to move; want %v", v.Moves, v.ToMove, want)
	}
	if pm, _ := two.Premove(ctx, c.ID, seatWho(c, 0)); pm != (PremoveView{}) {
		t.Errorf("a played premove is still set: %+v", pm)
	}
	_, err = one.SetPremove(ctx, c.ID, seatWho(c, 0), string(make([]byte, maxPremove+1)))
	wantCode(t, "an over-long premove", err, Invalid)
}

// A premove dropped through one server is told to its seat by the other,
// read from the store (a page opened after it went says so), and to no
// other seat; the seat's next move forgets it.
func TestDroppedPremoveAcrossServers(t *testing.T) {
	st := openStore(t)
	one := newTestHall(t, Config{Store: st})
	two := newTestHall(t, Config{Store: st})
	ctx := t.Context()
	c := create(t, one, humans("pommel"))
	if _, err := one.Move(ctx, c.ID, seatWho(c, 0), "a1-a3", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := one.SetPremove(ctx, c.ID, seatWho(c, 0), "a1-a7"); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Move(ctx, c.ID, seatWho(c, 1), "g6-g4", 1); err != nil {
		t.Fatal(err)
	}
	if pm, err := two.Premove(ctx, c.ID, seatWho(c, 0)); pm != (PremoveView{Dropped: "a1-a7"}) || err != nil {
		t.Errorf("the other server tells the seat %+v, %v; want a1-a7 dropped", pm, err)
	}
	if pm, _ := two.Premove(ctx, c.ID, seatWho(c, 1)); pm != (PremoveView{}) {
		t.Errorf("the other seat is told %+v", pm)
	}
	if _, err := two.Move(ctx, c.ID, seatWho(c, 0), "b1-b3", 2); err != nil {
		t.Fatal(err)
	}
	if pm, _ := one.Premove(ctx, c.ID, seatWho(c, 0)); pm != (PremoveView{}) {
		t.Errorf("after the seat's move: %+v, want nothing", pm)
	}
}

// A take-back between people puts the clocks back as they read before
// the moves taken back, and stores that reading: another server on the
// store shows the same clocks, the seat to move again running from the
// take-back.
func TestTakebackClocksStored(t *testing.T) {
	ft := &fakeNow{now: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)}
	st := openStore(t)
	one := newTestHall(t, Config{Store: st, Now: ft.Now})
	ctx := t.Context()
	c := create(t, one, NewGame{Game: "pommel", Seats: []string{"human", "human"}, Clock: "5m+2s"})
	if _, err := one.Move(ctx, c.ID, seatWho(c, 0), "a1-a3", 0); err != nil {
		t.Fatal(err)
	}
	ft.advance(7 * time.Second)
	v, err := one.Move(ctx, c.ID, seatWho(c, 1), "g6-g4", 1)
	if err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(v.Clock.LeftMs)
	ft.advance(4 * time.Second)
	if _, err := one.Move(ctx, c.ID, seatWho(c, 0), "b1-b3", 2); err != nil {
		t.Fatal(err)
	}
	ft.advance(5 * time.Second)
	if _, err := one.Takeback(ctx, c.ID, seatWho(c, 0), AskTakeback); err != nil {
		t.Fatal(err)
	}
	ft.advance(3 * time.Second)
	if _, err := one.Takeback(ctx, c.ID, seatWho(c, 1), AcceptTakeback); err != nil {
		t.Fatal(err)
	}
	two := newTestHall(t, Config{Store: st, Now: ft.Now})
	if got := get(t, two, c.ID); got.Ply != 2 || !slices.Equal(got.Clock.LeftMs, before) {
		t.Errorf("after the take-back, read by another server: ply %d, clocks %v; want ply 2 and %v", got.Ply, got.Clock.LeftMs, before)
	}
}
