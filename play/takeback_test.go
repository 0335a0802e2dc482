package play

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// againstAI starts a Pommel game of a person (seat 0) against a depth-1
// engine, with a journal.
func againstAI(t *testing.T, rated bool) (*Game, *journal) {
	t.Helper()
	e, err := ai.New("ab:depth=1", 1)
	if err != nil {
		t.Fatal(err)
	}
	j := &journal{}
	pg, err := New(Config{Game: mustGame(t, "pommel"), Seats: []Seat{{}, {Engine: e}}, Keeper: j, Rated: rated})
	if err != nil {
		t.Fatal(err)
	}
	return pg, j
}

// Against the AI a casual game takes the person's move and the engine's
// reply back at once; a rated one never does.
func TestTakebackAgainstAI(t *testing.T) {
	for _, rated := range []bool{false, true} {
		pg, j := againstAI(t, rated)
		if _, err := pg.RequestTakeback(0); !errors.Is(err, ErrNothing) {
			t.Errorf("rated %v: a take-back before any move: %v, want ErrNothing", rated, err)
		}
		mustMove(t, pg, 0, "a1-a3")
		if _, err := pg.PlayEngine(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		before := len(j.changes)
		took, err := pg.RequestTakeback(0)
		if rated {
			if !errors.Is(err, ErrNoTakebacks) || took || len(pg.Moves()) != 2 || len(j.changes) != before {
				t.Errorf("rated: take-back = %v, %v, moves %v; want ErrNoTakebacks and nothing kept", took, err, pg.Moves())
			}
			continue
		}
		if err != nil || !took || len(pg.Moves()) != 0 || pg.ToMove() != 0 {
			t.Fatalf("casual: take-back = %v, %v; moves %v, %d to move; want both moves back", took, err, pg.Moves(), pg.ToMove())
		}
		if c := j.last(t); c.Kind != TookBack || c.Ply != 0 {
			t.Errorf("kept %v at ply %d, want a take-back to ply 0", c.Kind, c.Ply)
		}
	}
}

// Between people a take-back is a request: the other seat accepts it
// (the asking seat's move and any after it go back) or declines it, and
// the next move withdraws it.
func TestTakebackBetweenPeople(t *testing.T) {
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	pg, j := kept(t, ft, nil)
	mustMove(t, pg, 0, "a1-a3")
	mustMove(t, pg, 1, "g6-g4")
	if took, err := pg.RequestTakeback(0); err != nil || took || pg.Takeback() != 0 {
		t.Fatalf("request = %v, %v; on the table %d; want a request by seat 0", took, err, pg.Takeback())
	}
	if c := j.last(t); c.Kind != TakebackAsked || c.Takeback != 0 || c.Kind.Recorded() {
		t.Errorf("kept %v with request %d, want an unrecorded take-back request by seat 0", c.Kind, c.Takeback)
	}
	if err := pg.AcceptTakeback(0); !errors.Is(err, ErrNoRequest) {
		t.Errorf("accepting one's own request: %v, want ErrNoRequest", err)
	}
	if err := pg.DeclineTakeback(1); err != nil || pg.Takeback() != game.NoPlayer {
		t.Fatalf("decline: %v; request %d", err, pg.Takeback())
	}
	if err := pg.AcceptTakeback(1); !errors.Is(err, ErrNoRequest) {
		t.Errorf("accepting a declined request: %v, want ErrNoRequest", err)
	}
	pg.RequestTakeback(0)
	if err := pg.AcceptTakeback(1); err != nil || len(pg.Moves()) != 0 || pg.ToMove() != 0 {
		t.Fatalf("accept: %v; moves %v, %d to move; want White's move and Black's reply back", err, pg.Moves(), pg.ToMove())
	}
	mustMove(t, pg, 0, "a1-a3")
	pg.RequestTakeback(0)
	mustMove(t, pg, 1, "g6-g4")
	if pg.Takeback() != game.NoPlayer {
		t.Errorf("a move left the request of seat %d on the table", pg.Takeback())
	}
	// Asking while the other seat asks accepts its request.
	pg.RequestTakeback(1)
	if took, err := pg.RequestTakeback(0); err != nil || !took || len(pg.Moves()) != 1 || pg.ToMove() != 1 {
		t.Errorf("crossed requests = %v, %v; moves %v; want Black's move back", took, err, pg.Moves())
	}
}

// A game created with take-backs off refuses them; a finished game and
// a seat that has not moved have none.
func TestTakebackRefusals(t *testing.T) {
	pg, err := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 2), NoTakebacks: true})
	if err != nil {
		t.Fatal(err)
	}
	mustMove(t, pg, 0, "a1-a3")
	if _, err := pg.RequestTakeback(0); !errors.Is(err, ErrNoTakebacks) {
		t.Errorf("take-backs off: %v, want ErrNoTakebacks", err)
	}
	pg = people(t, "pommel", nil)
	mustMove(t, pg, 0, "a1-a3")
	if _, err := pg.RequestTakeback(1); !errors.Is(err, ErrNothing) {
		t.Errorf("a seat that has not moved: %v, want ErrNothing", err)
	}
	pg.Resign(1)
	if _, err := pg.RequestTakeback(0); !errors.Is(err, ErrOver) {
		t.Errorf("after the end: %v, want ErrOver", err)
	}
	three := people(t, "punt-heks-match-3p", nil)
	mustMove(t, three, 0, game.MoveTexts(three.State())[0])
	if _, err := three.RequestTakeback(0); !errors.Is(err, ErrNoTakebacks) {
		t.Errorf("between people in a game of three: %v, want ErrNoTakebacks", err)
	}
}

// A premove is played as soon as its seat's turn comes, at no cost on
// the clock; one no longer legal then is dropped, and the change says so.
func TestPremove(t *testing.T) {
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	pg, j := kept(t, ft, nil)
	if err := pg.SetPremove(0, "a1-a3"); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("a premove on one's own turn: %v, want ErrNotYourTurn", err)
	}
	mustMove(t, pg, 0, "a1-a3")
	ft.advance(10 * time.Second)
	if err := pg.SetPremove(0, "b1-b3"); err != nil {
		t.Fatal(err)
	}
	if pm := pg.Premove(); pm == nil || pm.Seat != 0 || pm.Ply != 2 || pm.Move != "b1-b3" {
		t.Fatalf("premove %+v, want b1-b3 by seat 0 for ply 2", pm)
	}
	left := pg.Clocks()[0]
	ft.advance(5 * time.Second)
	mustMove(t, pg, 1, "g6-g4")
	if !slices.Equal(pg.Moves(), []string{"a1-a3", "g6-g4", "b1-b3"}) || pg.Premove() != nil {
		t.Fatalf("after Black's move: moves %v, premove %+v; want the premove played", pg.Moves(), pg.Premove())
	}
	if got := pg.Clocks()[0]; got != left+2*time.Second {
		t.Errorf("White's clock %v after the premove, want %v (its time, and the increment)", got, left+2*time.Second)
	}
	// A premove that is illegal when its turn comes is dropped.
	if err := pg.SetPremove(0, "a1-a7"); err != nil {
		t.Fatal(err)
	}
	mustMove(t, pg, 1, "g5-g3")
	if len(pg.Moves()) != 4 || pg.Premove() != nil || pg.ToMove() != 0 {
		t.Errorf("an illegal premove: moves %v, premove %+v", pg.Moves(), pg.Premove())
	}
	if c := j.last(t); c.Kind != PremoveDropped || c.Seat != 0 || c.Premove != nil {
		t.Errorf("kept %v by %d, want the premove of seat 0 dropped", c.Kind, c.Seat)
	}
	// Clearing: a seat clears its own premove only.
	mustMove(t, pg, 0, game.MoveTexts(pg.State())[0])
	pg.SetPremove(0, "a3-a4")
	if err := pg.SetPremove(1, ""); !errors.Is(err, ErrNoPremove) {
		t.Errorf("clearing another seat's premove: %v, want ErrNoPremove", err)
	}
	if err := pg.SetPremove(0, ""); err != nil || pg.Premove() != nil {
		t.Errorf("clearing: %v, premove %+v", err, pg.Premove())
	}
}

// The AI's reply brings a person's premove in at once, as a person's
// move does.
func TestPremoveAfterTheAI(t *testing.T) {
	pg, _ := againstAI(t, false)
	mustMove(t, pg, 0, "a1-a3")
	if err := pg.SetPremove(0, "a3-a4"); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.PlayEngine(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	moves := pg.Moves()
	legal := len(moves) == 3 && moves[2] == "a3-a4"
	dropped := len(moves) == 2
	if !legal && !dropped || pg.Premove() != nil {
		t.Errorf("moves %v, premove %+v: want a3-a4 played after the AI's reply, or dropped", moves, pg.Premove())
	}
}

// A stored request and premove come back with the game; a premove whose
// turn came already is dropped.
func TestResumeWaiting(t *testing.T) {
	g := mustGame(t, "pommel")
	one := game.Player(1)
	pg, err := New(Config{Game: g, Seats: make([]Seat, 2), Moves: []string{"a1-a3"},
		Resume: &Resume{Offer: game.NoPlayer, Takeback: &one, Premove: &Premove{Seat: 0, Ply: 2, Move: "b1-b3"}}})
	if err != nil {
		t.Fatal(err)
	}
	if pg.Takeback() != 1 || pg.Premove() == nil {
		t.Errorf("resumed request %d, premove %+v", pg.Takeback(), pg.Premove())
	}
	pg, _ = New(Config{Game: g, Seats: make([]Seat, 2), Moves: []string{"a1-a3", "g6-g4"},
		Resume: &Resume{Offer: game.NoPlayer, Premove: &Premove{Seat: 0, Ply: 2, Move: "b1-b3"}}})
	if pg.Premove() != nil {
		t.Errorf("a premove whose turn came was kept: %+v", pg.Premove())
	}
	if d := pg.Dropped(); d == nil || d.Move != "b1-b3" {
		t.Errorf("a premove whose turn came: dropped %+v, want b1-b3 told as dropped", d)
	}
	bad := game.Player(5)
	if _, err := New(Config{Game: g, Seats: make([]Seat, 2), Resume: &Resume{Offer: game.NoPlayer, Takeback: &bad}}); err == nil {
		t.Error("a take-back request by seat 5 was resumed")
	}
}

// A premove given as its piece and its landing plays the one legal move
// between them, a capture's path included; two moves landing there, or
// none, drop it.
func TestPremoveByItsEnds(t *testing.T) {
	st := mustGame(t, "eximo").Start()
	for _, text := range game.MoveTexts(st) {
		from, to, _ := moveEnds(text)
		same := 0
		for _, other := range game.MoveTexts(st) {
			if f, l, _ := moveEnds(other); f == from && l == to {
				same++
			}
		}
		m, err := premoveIn(st, from+"-"+to)
		switch {
		case same == 1 && (err != nil || m.Text(st.Game().Board()) != text):
			t.Errorf("premove %s-%s: %v, %v; want %s", from, to, m.Text(st.Game().Board()), err, text)
		case same > 1 && err == nil && m.Text(st.Game().Board()) != from+"-"+to:
			t.Errorf("premove %s-%s matched %s of %d moves", from, to, m.Text(st.Game().Board()), same)
		}
	}
	// A chain of Eximo's, after six plies of middle moves: e1-e3-g5 is the
	// one move from e1 to g5.
	for range 6 {
		ms := st.Moves(nil)
		st.Play(ms[len(ms)/2])
	}
	if m, err := premoveIn(st, "e1-g5"); err != nil || m.Text(st.Game().Board()) != "e1-e3-g5" {
		t.Errorf("premove e1-g5 in %s: %v, %v; want e1-e3-g5", st.FEN(), m.Text(st.Game().Board()), err)
	}
	if _, err := premoveIn(st, "a1-h8"); err == nil {
		t.Error("a premove no move makes was matched")
	}
	if _, err := premoveIn(st, "zz"); err == nil {
		t.Error("a premove of one cell was matched")
	}
}

// The terminal's Undo keeps the rules a request does: none in a game
// that turned take-backs off, against the AI in a rated game, or between
// people in a game of three; a casual game against the AI takes back.
func TestUndoKeepsTheRules(t *testing.T) {
	off, err := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 2), NoTakebacks: true})
	if err != nil {
		t.Fatal(err)
	}
	mustMove(t, off, 0, "a1-a3")
	if _, err := off.Undo(0); !errors.Is(err, ErrNoTakebacks) || len(off.Moves()) != 1 {
		t.Errorf("take-backs off: undo = %v, moves %v; want ErrNoTakebacks and the move kept", err, off.Moves())
	}
	for _, rated := range []bool{true, false} {
		pg, _ := againstAI(t, rated)
		mustMove(t, pg, 0, "a1-a3")
		if _, err := pg.PlayEngine(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		undone, err := pg.Undo(0)
		switch {
		case rated && (!errors.Is(err, ErrNoTakebacks) || len(pg.Moves()) != 2):
			t.Errorf("rated against the AI: undo = %v, moves %v; want ErrNoTakebacks", err, pg.Moves())
		case !rated && (err != nil || len(undone) != 2 || len(pg.Moves()) != 0):
			t.Errorf("casual against the AI: undo = %v, %v; want both moves back", undone, err)
		}
	}
	three := people(t, "punt-heks-match-3p", nil)
	mustMove(t, three, 0, game.MoveTexts(three.State())[0])
	if _, err := three.Undo(1); !errors.Is(err, ErrNoTakebacks) || len(three.Moves()) != 1 {
		t.Errorf("people in a game of three: undo = %v, moves %v; want ErrNoTakebacks", err, three.Moves())
	}
}

// A take-back puts the clocks back as they read before the moves taken
// back: the time the asking seat thought and the time its opponent spent
// on the request are both given back, and the seat to move again starts
// thinking when the moves go.
func TestTakebackClocks(t *testing.T) {
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	pg, _ := kept(t, ft, nil)
	mustMove(t, pg, 0, "a1-a3")
	ft.advance(7 * time.Second)
	mustMove(t, pg, 1, "g6-g4")
	before := pg.Clocks()
	ft.advance(4 * time.Second)
	mustMove(t, pg, 0, "b1-b3")
	ft.advance(5 * time.Second)
	if _, err := pg.RequestTakeback(0); err != nil {
		t.Fatal(err)
	}
	ft.advance(3 * time.Second)
	if err := pg.AcceptTakeback(1); err != nil {
		t.Fatal(err)
	}
	if got := pg.Clocks(); !slices.Equal(got, before) || pg.ToMove() != 0 {
		t.Errorf("clocks after the take-back %v (%d to move), want %v as before White's move", got, pg.ToMove(), before)
	}
	ft.advance(2 * time.Second)
	if got := pg.Clocks()[0]; got != before[0]-2*time.Second {
		t.Errorf("White's clock %v two seconds after the take-back, want %v: it runs again", got, before[0]-2*time.Second)
	}
}

// A premove dropped is remembered at its ply, so that its seat is told
// even after a reload: with the change that dropped it, with every change
// at that ply, and with the game resumed from the store; the next move
// or a take-back forgets it.
func TestDroppedPremoveRemembered(t *testing.T) {
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	pg, j := kept(t, ft, nil)
	mustMove(t, pg, 0, "a1-a3")
	if err := pg.SetPremove(0, "a1-a7"); err != nil {
		t.Fatal(err)
	}
	mustMove(t, pg, 1, "g6-g4")
	want := Premove{Seat: 0, Ply: 2, Move: "a1-a7"}
	if d := pg.Dropped(); d == nil || *d != want {
		t.Fatalf("dropped %+v, want %+v", d, want)
	}
	if c := j.last(t); c.Kind != PremoveDropped || c.Dropped == nil || *c.Dropped != want {
		t.Errorf("kept %v dropping %+v, want %+v", c.Kind, c.Dropped, want)
	}
	if _, err := pg.OfferDraw(1); err != nil {
		t.Fatal(err)
	}
	if c := j.last(t); c.Dropped == nil || *c.Dropped != want {
		t.Errorf("a draw offer at the same ply kept dropped %+v, want %+v", c.Dropped, want)
	}
	resume := func(moves []string, d *Premove) *Game {
		r, err := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 2), Moves: moves,
			Resume: &Resume{Offer: game.NoPlayer, Dropped: d}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if d := resume([]string{"a1-a3", "g6-g4"}, &want).Dropped(); d == nil || *d != want {
		t.Errorf("resumed at its ply: dropped %+v", d)
	}
	if d := resume([]string{"a1-a3", "g6-g4", "b1-b3"}, &want).Dropped(); d != nil {
		t.Errorf("resumed a move later: dropped %+v, want none", d)
	}
	mustMove(t, pg, 0, "b1-b3")
	if d, c := pg.Dropped(), j.last(t); d != nil || c.Dropped != nil {
		t.Errorf("after White's move: dropped %+v, kept %+v; want none", d, c.Dropped)
	}
	pg.SetPremove(0, "a1-a7")
	mustMove(t, pg, 1, "g4-g3")
	if pg.Dropped() == nil {
		t.Fatalf("moves %v: the second premove was not dropped", pg.Moves())
	}
	if _, err := pg.RequestTakeback(1); err != nil {
		t.Fatal(err)
	}
	if err := pg.AcceptTakeback(0); err != nil || pg.Dropped() != nil {
		t.Errorf("after a take-back: %v, dropped %+v; want none", err, pg.Dropped())
	}
}

// A premove set while the engine thinks leaves its search standing: the
// engine's move is played, and the premove after it (or dropped), with
// no search thrown away.
func TestPremoveWhileTheEngineThinks(t *testing.T) {
	pg, _ := againstAI(t, false)
	mustMove(t, pg, 0, "a1-a3")
	turn, err := pg.EngineTurn()
	if err != nil {
		t.Fatal(err)
	}
	if err := pg.SetPremove(0, "a3-a4"); err != nil {
		t.Fatal(err)
	}
	info := turn.Search(context.Background(), nil)
	if err := pg.PlayTurn(turn, info.Move); err != nil {
		t.Fatalf("the engine's move after a premove was set: %v, want it played", err)
	}
	if n := len(pg.Moves()); n != 3 && n != 2 || pg.Premove() != nil {
		t.Errorf("moves %v, premove %+v: want the engine's reply, then the premove played or dropped", pg.Moves(), pg.Premove())
	}
}
