package play

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// theLine is White's line in Pommel after a1-a3: if g6-g4 then b1-b3,
// then if g5-g3 then g2xg5 (the capture g5-g3 forces).
var theLine = []string{"g6-g4", "b1-b3", "g5-g3", "g2xg5"}

// days starts a Pommel game of two people with a journal and a clock of
// three days a move, White's first move a1-a3 played.
func days(t *testing.T, ft *fakeTime, keeper Keeper) *Game {
	t.Helper()
	tc, err := timecontrol.DaysPerMove(3)
	if err != nil {
		t.Fatal(err)
	}
	wait := Waiting(tc, 2)
	pg, err := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 2), Clock: &tc, Now: ft.Now,
		Keeper: keeper, Resume: &Resume{Clock: &wait, Offer: game.NoPlayer}})
	if err != nil {
		t.Fatal(err)
	}
	mustMove(t, pg, 0, "a1-a3")
	return pg
}

func newFakeTime() *fakeTime { return &fakeTime{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)} }

// The opponent's expected move brings the reply at once, kept as a move
// of its own after the opponent's (whose change holds the line advanced
// to the reply: due); the line then waits on the next expected move, and
// any other move drops it whole.
func TestLineMatchedAdvancedDropped(t *testing.T) {
	ft := newFakeTime()
	j := &journal{}
	pg := days(t, ft, j)
	if err := pg.SetLine(0, theLine); err != nil {
		t.Fatal(err)
	}
	if l := pg.Line(0); l == nil || l.Ply != 1 || !slices.Equal(l.Moves, theLine) {
		t.Fatalf("the line set: %+v", l)
	}
	if c := j.last(t); c.Kind != LineSet || c.Kind.Recorded() || c.Line == nil || c.Seat != 0 {
		t.Errorf("kept %v by %d with line %+v, want an unrecorded line of seat 0", c.Kind, c.Seat, c.Line)
	}
	if pg.Line(1) != nil {
		t.Error("the other seat is told White's line")
	}
	ft.advance(30 * time.Hour)
	before := len(j.changes)
	mustMove(t, pg, 1, "g6-g4")
	if got := pg.Moves(); !slices.Equal(got, []string{"a1-a3", "g6-g4", "b1-b3"}) {
		t.Fatalf("after Black's g6-g4: moves %v, want the reply b1-b3 played", got)
	}
	kept := j.changes[before:]
	if len(kept) != 2 || kept[0].Kind != Moved || kept[1].Kind != Moved || kept[1].Seat != 0 {
		t.Fatalf("kept %d changes, want Black's move, then White's reply", len(kept))
	}
	due := &Line{Seat: 0, Ply: 2, Moves: theLine[1:]}
	if !reflect.DeepEqual(kept[0].Line, due) {
		t.Errorf("Black's move kept the line %+v, want it advanced to the reply, due: %+v", kept[0].Line, due)
	}
	if want := (&Line{Seat: 0, Ply: 3, Moves: theLine[2:]}); !reflect.DeepEqual(pg.Line(0), want) || !reflect.DeepEqual(kept[1].Line, want) {
		t.Errorf("after the reply: line %+v, kept %+v; want %+v", pg.Line(0), kept[1].Line, want)
	}
	if left := pg.Clocks(); left[0] != 72*time.Hour || left[1] != 72*time.Hour {
		t.Errorf("clocks after the reply %v: each seat's three days afresh", left)
	}
	// Another move than the line's drops it, and nothing is played for
	// White.
	mustMove(t, pg, 1, "a5-a4")
	if pg.Line(0) != nil || len(pg.Moves()) != 4 || pg.ToMove() != 0 {
		t.Errorf("after an unexpected move: line %+v, moves %v", pg.Line(0), pg.Moves())
	}
	if c := j.last(t); c.Kind != Moved || c.Line != nil {
		t.Errorf("the unexpected move kept line %+v, want none", c.Line)
	}
}

// A line played to its end is gone; the moves of a line are kept in the
// game's own notation.
func TestLinePlayedToItsEnd(t *testing.T) {
	ft := newFakeTime()
	pg := days(t, ft, nil)
	if err := pg.SetLine(0, theLine); err != nil {
		t.Fatal(err)
	}
	mustMove(t, pg, 1, "g6-g4")
	mustMove(t, pg, 1, "g5-g3")
	if got := pg.Moves(); !slices.Equal(got, append([]string{"a1-a3"}, theLine...)) || pg.Line(0) != nil {
		t.Errorf("moves %v, line %+v: want the whole line played, then gone", got, pg.Line(0))
	}
}

// Every refusal of SetLine, each changing nothing.
func TestLineRefusals(t *testing.T) {
	ft := newFakeTime()
	j := &journal{}
	pg := days(t, ft, j)
	long := slices.Repeat([]string{"g6-g4", "b1-b3"}, MaxLine/2+1)
	tests := []struct {
		name   string
		seat   game.Player
		moves  []string
		target error
		says   string
	}{
		{"on one's own turn", 1, []string{"b1-b3", "g6-g4"}, ErrNotYourTurn, "play the move"},
		{"an odd line", 0, theLine[:3], ErrBadLine, "3 moves"},
		{"a line over the bound", 0, long, ErrBadLine, "at most 20"},
		{"one's own move first", 0, []string{"b1-b3", "g6-g4"}, nil, `move 1 "b1-b3" is illegal`},
		{"an illegal reply", 0, []string{"g6-g4", "a3-a5"}, nil, `move 2 "a3-a5" is illegal`},
		{"an illegal third move", 0, []string{"g6-g4", "b1-b3", "g5-g2", "g2xg5"}, nil, `move 3 "g5-g2" is illegal`},
		{"the forced capture left out", 0, []string{"g6-g4", "b1-b3", "g5-g3", "a3-a4"}, nil, `move 4 "a3-a4" is illegal`},
		{"a seat out of the game", 2, theLine, ErrNoPerson, ""},
	}
	for _, tt := range tests {
		n := len(j.changes)
		err := pg.SetLine(tt.seat, tt.moves)
		var illegal *game.IllegalMoveError
		switch {
		case err == nil:
			t.Errorf("%s: set", tt.name)
		case tt.target != nil && !errors.Is(err, tt.target):
			t.Errorf("%s: %v, want %v", tt.name, err, tt.target)
		case tt.target == nil && !errors.As(err, &illegal):
			t.Errorf("%s: %v, want an illegal move", tt.name, err)
		case !strings.Contains(err.Error(), tt.says):
			t.Errorf("%s: %q does not say %q", tt.name, err, tt.says)
		}
		if len(j.changes) != n || pg.Line(0) != nil {
			t.Errorf("%s: kept %d changes, line %+v", tt.name, len(j.changes)-n, pg.Line(0))
		}
	}
	// A draw offered by the opponent is answered first.
	if _, err := pg.OfferDraw(1); err != nil {
		t.Fatal(err)
	}
	if err := pg.SetLine(0, theLine); !errors.Is(err, ErrNoLines) || !strings.Contains(err.Error(), "draw offer") {
		t.Errorf("a line while the opponent's draw offer stands: %v, want ErrNoLines", err)
	}
	// Clearing no line changes nothing.
	n := len(j.changes)
	if err := pg.SetLine(0, nil); err != nil || len(j.changes) != n {
		t.Errorf("clearing no line: %v, %d changes kept", err, len(j.changes)-n)
	}
	if err := pg.Resign(1); err != nil {
		t.Fatal(err)
	}
	if err := pg.SetLine(0, theLine); !errors.Is(err, ErrOver) {
		t.Errorf("a line once the game is over: %v, want ErrOver", err)
	}
}

// No lines in a game with a real-time clock, with none, or of three
// players; and no line for an engine's seat.
func TestNoLines(t *testing.T) {
	ft := newFakeTime()
	fischer, _ := kept(t, ft, nil)
	mustMove(t, fischer, 0, "a1-a3")
	untimed := people(t, "pommel", nil)
	mustMove(t, untimed, 0, "a1-a3")
	for name, pg := range map[string]*Game{"a Fischer clock": fischer, "no clock": untimed} {
		if err := pg.SetLine(0, theLine); !errors.Is(err, ErrNoLines) || !strings.Contains(err.Error(), "correspondence") {
			t.Errorf("%s: %v, want ErrNoLines naming correspondence games", name, err)
		}
	}
	tc, _ := timecontrol.DaysPerMove(3)
	g := mustGame(t, "punt-heks-match-3p")
	three, err := New(Config{Game: g, Seats: make([]Seat, 3), Clock: &tc, Now: ft.Now})
	if err != nil {
		t.Fatal(err)
	}
	if err := three.SetLine(1, []string{"x", "y"}); !errors.Is(err, ErrNoLines) || !strings.Contains(err.Error(), "two players") {
		t.Errorf("a game of three: %v, want ErrNoLines", err)
	}
	vsAI, err := New(Config{Game: mustGame(t, "pommel"), Seats: []Seat{{}, {Engine: countingEngine{lim: new(ai.Limits)}}}, Clock: &tc, Now: ft.Now})
	if err != nil {
		t.Fatal(err)
	}
	if err := vsAI.SetLine(1, theLine); !errors.Is(err, ErrNoPerson) {
		t.Errorf("a line for the engine's seat: %v, want ErrNoPerson", err)
	}
}

// A premove and a line do not stand together: the latest set replaces
// the other.
func TestLineAndPremove(t *testing.T) {
	ft := newFakeTime()
	pg := days(t, ft, nil)
	if err := pg.SetPremove(0, "b1-b3"); err != nil {
		t.Fatal(err)
	}
	if err := pg.SetLine(0, theLine); err != nil || pg.Premove() != nil {
		t.Fatalf("a line set over a premove: %v, premove %+v; want the premove gone", err, pg.Premove())
	}
	if err := pg.SetPremove(0, "b1-b3"); err != nil || pg.Line(0) != nil {
		t.Fatalf("a premove set over a line: %v, line %+v; want the line gone", err, pg.Line(0))
	}
	// Clearing the line leaves the premove standing.
	if err := pg.SetLine(0, nil); err != nil || pg.Premove() == nil {
		t.Errorf("clearing no line: %v, premove %+v", err, pg.Premove())
	}
	mustMove(t, pg, 1, "g6-g4")
	if got := pg.Moves(); !slices.Equal(got, []string{"a1-a3", "g6-g4", "b1-b3"}) {
		t.Errorf("moves %v, want the premove played", got)
	}
}

// A take-back drops the line; so does a draw the opponent offers, not one
// the line's own seat offers (the opponent's expected move declines it).
func TestLineDroppedByTakebacksAndOffers(t *testing.T) {
	ft := newFakeTime()
	pg := days(t, ft, nil)
	mustMove(t, pg, 1, "g6-g4")
	mustMove(t, pg, 0, "b1-b3")
	line := []string{"g5-g3", "g2xg5"}
	if err := pg.SetLine(0, line); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.RequestTakeback(0); err != nil {
		t.Fatal(err)
	}
	if pg.Line(0) == nil {
		t.Fatal("a take-back request dropped the line; only a take-back does")
	}
	if err := pg.AcceptTakeback(1); err != nil || pg.Line(0) != nil {
		t.Fatalf("after the take-back: %v, line %+v; want it dropped", err, pg.Line(0))
	}
	mustMove(t, pg, 0, "b1-b3")
	if err := pg.SetLine(0, line); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.OfferDraw(0); err != nil || pg.Line(0) == nil {
		t.Fatalf("White's own draw offer: %v, line %+v; want the line standing", err, pg.Line(0))
	}
	mustMove(t, pg, 1, "g5-g3")
	if got := pg.Moves(); len(got) != 5 || got[4] != "g2xg5" || pg.DrawOffer() != game.NoPlayer {
		t.Fatalf("moves %v, offer %d; want the reply played, White's offer declined by Black's move", got, pg.DrawOffer())
	}
	next := pg.State()
	reply := game.MoveTexts(next)[0]
	m, _ := game.ParseMove(next, reply)
	next.Play(m)
	if err := pg.SetLine(0, []string{reply, game.MoveTexts(next)[0]}); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.OfferDraw(1); err != nil || pg.Line(0) != nil {
		t.Errorf("Black's draw offer: %v, line %+v; want White's line dropped", err, pg.Line(0))
	}
}

// A reply the keeper refuses stays due, in memory as in the change kept
// before it (the opponent's move): PlayDue plays it later, as a game
// resumed from that change does, at once, whatever the clock says.
func TestDueReplyPlayedLater(t *testing.T) {
	ft := newFakeTime()
	refuse := false
	var changes []Change
	keeper := KeepFunc(func(c Change) error {
		if refuse && c.Kind == Moved && c.Seat == 0 {
			return errStore
		}
		changes = append(changes, c)
		return nil
	})
	pg := days(t, ft, keeper)
	if err := pg.SetLine(0, theLine); err != nil {
		t.Fatal(err)
	}
	refuse = true
	if _, err := pg.Move(1, "g6-g4"); err != nil {
		t.Fatalf("Black's move, the reply refused: %v, want Black's move played", err)
	}
	due := &Line{Seat: 0, Ply: 2, Moves: theLine[1:]}
	if got := pg.Moves(); len(got) != 2 || !reflect.DeepEqual(pg.Line(0), due) {
		t.Fatalf("moves %v, line %+v: want Black's move, the reply due", got, pg.Line(0))
	}
	if played, err := pg.PlayDue(); played || !errors.Is(err, errStore) {
		t.Errorf("PlayDue while refused: %v, %v", played, err)
	}
	refuse = false
	if played, err := pg.PlayDue(); !played || err != nil || len(pg.Moves()) != 3 {
		t.Errorf("PlayDue: %v, %v, moves %v; want the reply", played, err, pg.Moves())
	}
	if played, err := pg.PlayDue(); played || err != nil {
		t.Errorf("PlayDue with nothing due: %v, %v", played, err)
	}

	// A game resumed from Black's move as kept, four days later (past
	// White's three), plays the reply rather than end on time.
	last := changes[len(changes)-2]
	if last.Kind != Moved || last.Seat != 1 {
		t.Fatalf("the change before the reply: %v by %d", last.Kind, last.Seat)
	}
	tc, _ := timecontrol.DaysPerMove(3)
	ft.advance(96 * time.Hour)
	resumed, err := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 2), Moves: []string{"a1-a3", "g6-g4"},
		Clock: &tc, Now: ft.Now, Resume: &Resume{Clock: last.Clock, Offer: game.NoPlayer, Line: last.Line}})
	if err != nil {
		t.Fatal(err)
	}
	if played, err := resumed.PlayDue(); !played || err != nil {
		t.Fatalf("PlayDue after resuming: %v, %v", played, err)
	}
	if got := resumed.Moves(); !slices.Equal(got, []string{"a1-a3", "g6-g4", "b1-b3"}) || resumed.Result().Over() {
		t.Errorf("resumed: moves %v, result %+v; want the reply, the game going on", got, resumed.Result())
	}
	if l := resumed.Line(0); l == nil || l.Ply != 3 {
		t.Errorf("resumed: line %+v, want it waiting on ply 3", l)
	}
}

// A stored line for another ply than the game's, of no seat or an
// engine's, or in a game that has none, is forgotten.
func TestResumeLine(t *testing.T) {
	tc, _ := timecontrol.DaysPerMove(3)
	g := mustGame(t, "pommel")
	tests := []struct {
		name  string
		line  *Line
		seats []Seat
		clock *timecontrol.Control
		keep  bool
	}{
		{"the game's ply", &Line{Seat: 0, Ply: 1, Moves: theLine}, nil, &tc, true},
		{"a ply played", &Line{Seat: 0, Ply: 0, Moves: theLine}, nil, &tc, false},
		{"seat 2", &Line{Seat: 2, Ply: 1, Moves: theLine}, nil, &tc, false},
		{"no moves", &Line{Seat: 0, Ply: 1}, nil, &tc, false},
		{"an engine's seat", &Line{Seat: 0, Ply: 1, Moves: theLine}, []Seat{{Engine: countingEngine{lim: new(ai.Limits)}}, {}}, &tc, false},
		{"no clock", &Line{Seat: 0, Ply: 1, Moves: theLine}, nil, nil, false},
	}
	for _, tt := range tests {
		seats := tt.seats
		if seats == nil {
			seats = make([]Seat, 2)
		}
		pg, err := New(Config{Game: g, Seats: seats, Moves: []string{"a1-a3"}, Clock: tt.clock,
			Resume: &Resume{Offer: game.NoPlayer, Line: tt.line}})
		if err != nil {
			t.Fatal(err)
		}
		if got := pg.Line(tt.line.Seat) != nil; got != tt.keep {
			t.Errorf("%s: kept %v, want %v", tt.name, got, tt.keep)
		}
	}
}

// The engine's move is matched as a person's is; a line set while the
// engine thinks leaves its search standing.
func TestLineAgainstTheEngine(t *testing.T) {
	ft := newFakeTime()
	tc, _ := timecontrol.DaysPerMove(3)
	wait := Waiting(tc, 2)
	pg, err := New(Config{Game: mustGame(t, "pommel"), Seats: []Seat{{}, {Engine: countingEngine{lim: new(ai.Limits)}}}, Clock: &tc, Now: ft.Now,
		Resume: &Resume{Clock: &wait, Offer: game.NoPlayer}})
	if err != nil {
		t.Fatal(err)
	}
	mustMove(t, pg, 0, "a1-a3")
	turn, err := pg.EngineTurn()
	if err != nil {
		t.Fatal(err)
	}
	st := pg.State()
	m := st.Moves(nil)[0] // the counting engine's
	expected := m.Text(st.Game().Board())
	st.Play(m)
	reply := game.MoveTexts(st)[0]
	if err := pg.SetLine(0, []string{expected, reply}); err != nil {
		t.Fatal(err)
	}
	info := turn.Search(context.Background(), nil)
	if err := pg.PlayTurn(turn, info.Move); err != nil {
		t.Fatalf("the engine's move after a line was set: %v, want it played", err)
	}
	if got := pg.Moves(); !slices.Equal(got, []string{"a1-a3", expected, reply}) {
		t.Errorf("moves %v, want the engine's %s and the reply %s", got, expected, reply)
	}
}
