package hall

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// theLine is White's line in Pommel after a1-a3: if g6-g4 then b1-b3,
// then if g5-g3 then g2xg5.
var theLine = []string{"g6-g4", "b1-b3", "g5-g3", "g2xg5"}

// byDays is a correspondence game of two people, White's a1-a3 played.
func byDays(t *testing.T, h *Hall) Created {
	t.Helper()
	c := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "human"}, Days: 3})
	if _, err := h.Move(t.Context(), c.ID, seatWho(c, 0), "a1-a3", 0); err != nil {
		t.Fatal(err)
	}
	return c
}

// A line set through one server is played by the other as the expected
// move comes, the reply in the answer to the opponent's move and in the
// one event its watchers get; it is stored, told to its seat only, and
// any other move drops it.
func TestConditionalAcrossServers(t *testing.T) {
	st := openStore(t)
	one := newTestHall(t, Config{Store: st})
	two := newTestHall(t, Config{Store: st})
	ctx := t.Context()
	c := byDays(t, one)
	white, black := seatWho(c, 0), seatWho(c, 1)
	v, err := one.SetConditional(ctx, c.ID, white, theLine)
	if err != nil || !reflect.DeepEqual(v, LineView{Moves: theLine, Ply: 1}) {
		t.Fatalf("set: %+v, %v", v, err)
	}
	if v, err := two.Conditional(ctx, c.ID, white); err != nil || !slices.Equal(v.Moves, theLine) {
		t.Errorf("the other server tells White %+v, %v", v, err)
	}
	if v, err := two.Conditional(ctx, c.ID, black); err != nil || len(v.Moves) != 0 {
		t.Errorf("Black is told %+v, %v; want nothing", v, err)
	}
	_, err = two.Conditional(ctx, c.ID, Who{Token: "not-a-seat"})
	wantCode(t, "a spectator reading the line", err, Forbidden)
	w, _, err := two.Watch(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer two.Stop(w)
	after, err := two.Move(ctx, c.ID, black, "g6-g4", 1)
	want := []string{"a1-a3", "g6-g4", "b1-b3"}
	if err != nil || !slices.Equal(after.Moves, want) {
		t.Fatalf("Black's expected move answers %v, %v; want %v, the reply played", after.Moves, err, want)
	}
	select {
	case ev := <-w.Events():
		if !slices.Equal(ev.Game.Moves, want) {
			t.Errorf("the watchers' first event shows %v, want %v: one event for the move and its reply", ev.Game.Moves, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}
	stored, err := st.Get(ctx, c.ID)
	if err != nil || stored.Ply != 3 || !reflect.DeepEqual(stored.Waiting.Line, &store.Line{Seat: 0, Ply: 3, Moves: theLine[2:]}) {
		t.Fatalf("stored: ply %d, line %+v, %v", stored.Ply, stored.Waiting.Line, err)
	}
	if v, _ := one.Conditional(ctx, c.ID, white); !reflect.DeepEqual(v, LineView{Moves: theLine[2:], Ply: 3}) {
		t.Errorf("the line after the reply: %+v", v)
	}
	if _, err := one.Move(ctx, c.ID, black, "a5-a4", 3); err != nil {
		t.Fatal(err)
	}
	if v, _ := two.Conditional(ctx, c.ID, white); len(v.Moves) != 0 {
		t.Errorf("after another move the line is %+v, want it dropped", v)
	}
	if stored, _ := st.Get(ctx, c.ID); stored.Waiting.Line != nil || stored.Ply != 4 {
		t.Errorf("stored after another move: ply %d, line %+v", stored.Ply, stored.Waiting.Line)
	}
}

// The hall's refusals of lines, by code.
func TestConditionalRefusals(t *testing.T) {
	h := newTestHall(t, Config{})
	ctx := t.Context()
	c := byDays(t, h)
	white, black := seatWho(c, 0), seatWho(c, 1)
	fischer := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "human"}, Clock: "5m+3s"})
	if _, err := h.Move(ctx, fischer.ID, seatWho(fischer, 0), "a1-a3", 0); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		id    string
		who   Who
		moves []string
		code  Code
	}{
		{"a Fischer game", fischer.ID, seatWho(fischer, 0), theLine, Conflict},
		{"not a seat", c.ID, Who{Token: "nobody"}, theLine, Forbidden},
		{"one's own turn", c.ID, black, []string{"b1-b3", "g6-g4"}, NotYourTurn},
		{"an odd line", c.ID, white, theLine[:1], Invalid},
		{"over the bound", c.ID, white, slices.Repeat(theLine, 6), Invalid},
		{"an over-long move", c.ID, white, []string{strings.Repeat("a", maxPremove+1), "b1-b3"}, Invalid},
		{"an illegal move", c.ID, white, []string{"g6-g4", "b1-b5"}, IllegalMove},
		{"no game", "none", white, theLine, NotFound},
	}
	for _, tt := range tests {
		_, err := h.SetConditional(ctx, tt.id, tt.who, tt.moves)
		wantCode(t, tt.name, err, tt.code)
	}
	if _, err := h.Resign(ctx, c.ID, black); err != nil {
		t.Fatal(err)
	}
	_, err := h.SetConditional(ctx, c.ID, white, theLine)
	wantCode(t, "a game over", err, GameOver)
}

// dyingStore is a store whose process stops once the move of ply dieAt is
// stored: every write after it fails, as nothing reaches the disk of a
// process killed. It stands for a SIGKILL between the opponent's move
// and the reply.
type dyingStore struct {
	store.Store
	dieAt int
	dead  atomic.Bool
}

var errKilled = errors.New("the process was killed")

func (d *dyingStore) AddMove(ctx context.Context, m store.Move, next store.Header) error {
	if d.dead.Load() {
		return errKilled
	}
	err := d.Store.AddMove(ctx, m, next)
	if err == nil && m.Ply == d.dieAt {
		d.dead.Store(true)
	}
	return err
}

func (d *dyingStore) Update(ctx context.Context, next store.Header) error {
	if d.dead.Load() {
		return errKilled
	}
	return d.Store.Update(ctx, next)
}

// A process stopped after storing the opponent's expected move but not
// the reply loses nothing: the move was stored with the line advanced to
// the reply, and the next server to start plays it at once; a server
// already running plays it before any command on the game (here the
// opponent's draw offer, which would have dropped the line).
func TestConditionalReplyNotLost(t *testing.T) {
	for _, next := range []string{"a start", "a command"} {
		t.Run(next, func(t *testing.T) {
			st := openStore(t)
			dying := &dyingStore{Store: st, dieAt: 1}
			one := newTestHall(t, Config{Store: dying})
			other := newTestHall(t, Config{Store: st})
			ctx := t.Context()
			c := byDays(t, one)
			if _, err := one.SetConditional(ctx, c.ID, seatWho(c, 0), theLine); err != nil {
				t.Fatal(err)
			}
			if _, err := one.Move(ctx, c.ID, seatWho(c, 1), "g6-g4", 1); err != nil {
				t.Fatal(err)
			}
			one.Close()
			stored, err := st.Get(ctx, c.ID)
			due := &store.Line{Seat: 0, Ply: 2, Moves: theLine[1:]}
			if err != nil || stored.Ply != 2 || !reflect.DeepEqual(stored.Waiting.Line, due) {
				t.Fatalf("stored when the process stopped: ply %d, line %+v, %v; want Black's move, the reply due", stored.Ply, stored.Waiting.Line, err)
			}
			if next == "a start" {
				newTestHall(t, Config{Store: st}) // its Start resumes the game
			} else {
				v, err := other.Draw(ctx, c.ID, seatWho(c, 1), Offer)
				if err != nil || v.Ply != 3 || v.DrawOffer != 1 {
					t.Fatalf("Black's draw offer: ply %d, offer %d, %v; want the reply played first, then the offer", v.Ply, v.DrawOffer, err)
				}
			}
			stored, err = st.Get(ctx, c.ID)
			if err != nil || stored.Ply != 3 || stored.Moves[2].Text != "b1-b3" {
				t.Fatalf("after %s: ply %d, %v; want the reply b1-b3 stored", next, stored.Ply, err)
			}
		})
	}
}
