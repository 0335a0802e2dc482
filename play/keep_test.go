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

// journal is a Keeper that keeps every change and refuses with fail when
// it is set; refused are the kinds of the changes it refused.
type journal struct {
	changes []Change
	refused []ChangeKind
	fail    error
}

func (j *journal) Keep(c Change) error {
	if j.fail != nil {
		j.refused = append(j.refused, c.Kind)
		return j.fail
	}
	j.changes = append(j.changes, c)
	return nil
}

func (j *journal) last(t *testing.T) Change {
	t.Helper()
	if len(j.changes) == 0 {
		t.Fatal("nothing was kept")
	}
	return j.changes[len(j.changes)-1]
}

var errStore = errors.New("the store said no")

// kept starts a Pommel game with a journal and a Fischer clock of
// 1m+2s that waits for the first move; seats nil means two people.
func kept(t *testing.T, ft *fakeTime, seats []Seat) (*Game, *journal) {
	t.Helper()
	if seats == nil {
		seats = make([]Seat, 2)
	}
	j := &journal{}
	tc := timecontrol.Control{Base: time.Minute, Increment: 2 * time.Second}
	wait := Waiting(tc, 2)
	pg, err := New(Config{Game: mustGame(t, "pommel"), Seats: seats, Clock: &tc, Now: ft.Now,
		Keeper: j, Resume: &Resume{Clock: &wait, Offer: game.NoPlayer}, Date: "2026.11.23"})
	if err != nil {
		t.Fatal(err)
	}
	return pg, j
}

// Every kind of change reaches the keeper with the game after it, the
// record included.
func TestKeeperSeesEveryChange(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ft := &fakeTime{now: t0}
	pg, j := kept(t, ft, nil)
	ft.advance(time.Hour) // the clock waits for the first move
	mustMove(t, pg, 0, "a1-a3")
	want := Change{Kind: Moved, Seat: 0, Ply: 0, Move: "a1-a3", At: ft.Now(), Offer: game.NoPlayer, Takeback: game.NoPlayer,
		Clock: &ClockState{Left: []time.Duration{62 * time.Second, time.Minute}, TurnStart: ft.Now()}}
	got := j.last(t)
	if rec := got.Record; !slices.Equal(rec.Moves, []string{"a1-a3"}) || rec.Get("Result") != "*" {
		t.Errorf("move kept with the record %v %v", rec.Moves, rec.Tags)
	}
	if got.Record = nil; !reflect.DeepEqual(got, want) {
		t.Errorf("move kept as %+v, want %+v", got, want)
	}
	ft.advance(5 * time.Second)
	if _, err := pg.OfferDraw(1); err != nil {
		t.Fatal(err)
	}
	if c := j.last(t); c.Kind != DrawOffered || c.Seat != 1 || c.Offer != 1 || c.Ply != 1 {
		t.Errorf("offer kept as %+v", c)
	}
	if err := pg.DeclineDraw(0); err != nil {
		t.Fatal(err)
	}
	if c := j.last(t); c.Kind != DrawDeclined || c.Seat != 0 || c.Offer != game.NoPlayer {
		t.Errorf("decline kept as %+v", c)
	}
	mustMove(t, pg, 1, "g6-g4")
	if _, err := pg.Undo(1); err != nil {
		t.Fatal(err)
	}
	if c := j.last(t); c.Kind != TookBack || c.Ply != 1 || !slices.Equal(c.Record.Moves, []string{"a1-a3"}) {
		t.Errorf("take-back kept as %+v, record %v", c, c.Record.Moves)
	}
	if err := pg.Resign(0); err != nil {
		t.Fatal(err)
	}
	c := j.last(t)
	if c.Kind != Resigned || c.Seat != 0 || c.Result.Reason != game.Resignation || !c.Result.Winners.Has(1) {
		t.Errorf("resignation kept as %+v", c)
	}
	if c.Record.Get("Result") != "0-1" || c.Record.Get("Termination") != "resignation" {
		t.Errorf("resignation kept with the tags %v", c.Record.Tags)
	}
	if len(j.changes) != 6 {
		t.Errorf("%d changes kept, want 6", len(j.changes))
	}
	for k := Moved; k <= TookBack; k++ {
		if strings.HasPrefix(k.String(), "change ") {
			t.Errorf("kind %d has no name", k)
		}
	}
}

// A change the keeper refuses is not made: state, record, clock, offer
// and result stay as they were, the error comes back as it is, and the
// same request made again once the keeper takes it is made. One case for
// each kind of change, and each way to ask for it.
func TestRefusedKeepChangesNothing(t *testing.T) {
	played := func(pg *Game, ft *fakeTime) { mustMove(t, pg, 0, "a1-a3"); ft.advance(3 * time.Second) }
	offered := func(pg *Game, ft *fakeTime) {
		played(pg, ft)
		if _, err := pg.OfferDraw(0); err != nil {
			t.Fatal(err)
		}
	}
	released := make(chan struct{})
	close(released)
	tests := []struct {
		name  string
		kind  ChangeKind
		seats []Seat
		setup func(*Game, *fakeTime)
		do    func(*Game) error
	}{
		{"move", Moved, nil, nil, func(pg *Game) error { _, err := pg.Move(0, "a1-a3"); return err }},
		{"engine move", Moved, []Seat{{}, {Engine: blockingEngine{release: released}}}, played,
			func(pg *Game) error { _, err := pg.PlayEngine(context.Background(), nil); return err }},
		{"take-back", TookBack, nil, played, func(pg *Game) error { _, err := pg.Undo(1); return err }},
		{"resignation", Resigned, nil, played, func(pg *Game) error { return pg.Resign(1) }},
		{"draw offer", DrawOffered, nil, played, func(pg *Game) error { _, err := pg.OfferDraw(1); return err }},
		{"draw accepted", DrawAgreed, nil, offered, func(pg *Game) error { return pg.AcceptDraw(1) }},
		{"offer as acceptance", DrawAgreed, nil, offered, func(pg *Game) error { _, err := pg.OfferDraw(1); return err }},
		{"draw declined", DrawDeclined, nil, offered, func(pg *Game) error { return pg.DeclineDraw(1) }},
		{"flag fall", FlagFell, nil, func(pg *Game, ft *fakeTime) { played(pg, ft); ft.advance(time.Hour) },
			func(pg *Game) error { _, err := pg.Tick(); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
			pg, j := kept(t, ft, tt.seats)
			if tt.setup != nil {
				tt.setup(pg, ft)
			}
			before, rec := pg.Snapshot(), pg.Record()
			j.fail = errStore
			if err := tt.do(pg); !errors.Is(err, errStore) {
				t.Errorf("refused: %v, want the keeper's error", err)
			}
			if !slices.Equal(j.refused, []ChangeKind{tt.kind}) {
				t.Errorf("the keeper refused %v, want one %v", j.refused, tt.kind)
			}
			if after := pg.Snapshot(); !sameSnapshot(before, after) || !reflect.DeepEqual(rec, pg.Record()) {
				t.Errorf("a refused %s changed the game:\n%+v\n%+v", tt.kind, before, after)
			}
			j.fail = nil
			if err := tt.do(pg); err != nil || j.last(t).Kind != tt.kind {
				t.Errorf("asked again once the keeper takes it: %v, kept %v", err, j.last(t).Kind)
			}
		})
	}
}

// A flag fall the keeper refuses is not shown, and a move sent meanwhile
// is refused too; once the keeper takes the flag fall, the game ends on
// time.
func TestRefusedFlagFallRefusesMoves(t *testing.T) {
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	pg, j := kept(t, ft, nil)
	mustMove(t, pg, 0, "a1-a3")
	if _, err := pg.OfferDraw(0); err != nil {
		t.Fatal(err)
	}
	j.fail = errStore
	ft.advance(time.Hour)
	if _, err := pg.Tick(); !errors.Is(err, errStore) || pg.Result().Over() {
		t.Errorf("refused flag fall: %v, result %+v", err, pg.Result())
	}
	if _, err := pg.Move(1, "g6-g4"); !errors.Is(err, errStore) || len(pg.Moves()) != 1 {
		t.Errorf("a late move with the flag fall refused: %v, moves %v", err, pg.Moves())
	}
	j.fail = nil
	if _, err := pg.Move(1, "g6-g4"); !errors.Is(err, ErrOver) {
		t.Errorf("a late move: %v, want ErrOver", err)
	}
	c := j.last(t)
	if c.Kind != FlagFell || c.Seat != 1 || c.Result.Reason != game.TimeForfeit || c.Clock.Left[1] != 0 || c.Offer != game.NoPlayer {
		t.Errorf("flag fall kept as %+v", c)
	}
}

// KeepFunc makes a function a Keeper.
func TestKeepFunc(t *testing.T) {
	var kinds []ChangeKind
	keep := KeepFunc(func(c Change) error { kinds = append(kinds, c.Kind); return nil })
	pg, err := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 2), Keeper: keep})
	if err != nil {
		t.Fatal(err)
	}
	mustMove(t, pg, 0, "a1-a3")
	if !slices.Equal(kinds, []ChangeKind{Moved}) {
		t.Errorf("kept %v, want one move", kinds)
	}
}

// A keeper asks for what it keeps: a change carries the record unless
// NoRecord, and a move's effects with Effects, as game.MoveEffects tells
// them from the position before it.
func TestChangeCarriesWhatTheKeeperAsks(t *testing.T) {
	rules := mustGame(t, "pommel")
	before := rules.Start()
	m, err := game.ParseMove(before, "a1-a3")
	if err != nil {
		t.Fatal(err)
	}
	want, err := game.MoveEffects(before, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name              string
		noRecord, effects bool
	}{
		{"record only", false, false},
		{"no record", true, false},
		{"effects", false, true},
		{"effects, no record", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var kept []Change
			keep := KeepFunc(func(ch Change) error { kept = append(kept, ch); return nil })
			pg, err := New(Config{Game: rules, Seats: make([]Seat, 2), Keeper: keep, NoRecord: c.noRecord, Effects: c.effects})
			if err != nil {
				t.Fatal(err)
			}
			mustMove(t, pg, 0, "a1-a3")
			ch := kept[0]
			if (ch.Record == nil) != c.noRecord {
				t.Errorf("record %v with NoRecord %v", ch.Record, c.noRecord)
			}
			if c.effects != (ch.Effects != nil) || c.effects && !reflect.DeepEqual(*ch.Effects, want) {
				t.Errorf("effects %+v with Effects %v, want %+v", ch.Effects, c.effects, want)
			}
		})
	}
}

// Read shows the game as Snapshot does, with no copy of its position.
func TestReadIsSnapshot(t *testing.T) {
	pg := people(t, "pommel", nil)
	mustMove(t, pg, 0, "a1-a3")
	var read Snapshot
	pg.Read(func(snap Snapshot) { read = snap })
	if snap := pg.Snapshot(); !sameSnapshot(read, snap) {
		t.Errorf("read %+v, snapshot %+v", read, snap)
	}
}

func sameSnapshot(a, b Snapshot) bool {
	return a.State.FEN() == b.State.FEN() && a.State.Ply() == b.State.Ply() && slices.Equal(a.Moves, b.Moves) &&
		reflect.DeepEqual(a.Result, b.Result) && a.Offer == b.Offer && reflect.DeepEqual(a.Clock, b.Clock)
}

func TestMoveAt(t *testing.T) {
	pg := people(t, "pommel", nil)
	for _, c := range []struct {
		seat game.Player
		ply  int
		want error
	}{{0, 1, ErrWrongPly}, {0, -1, ErrWrongPly}, {1, 0, ErrNotYourTurn}} {
		if _, err := pg.MoveAt(c.seat, c.ply, "a1-a3"); !errors.Is(err, c.want) {
			t.Errorf("seat %d at ply %d: %v, want %v", c.seat, c.ply, err, c.want)
		}
	}
	if _, err := pg.MoveAt(0, 0, "a1-a3"); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.MoveAt(1, 0, "g6-g4"); !errors.Is(err, ErrWrongPly) || !strings.Contains(err.Error(), "the game is at ply 1") {
		t.Errorf("a move for a ply played: %v", err)
	}
	pg.Resign(1)
	if _, err := pg.MoveAt(1, 5, "g6-g4"); !errors.Is(err, ErrOver) {
		t.Errorf("a move for a future ply of a game over: %v, want ErrOver first", err)
	}
}

func TestDrawRefusals(t *testing.T) {
	pg := people(t, "pommel", nil)
	if err := pg.AcceptDraw(0); !errors.Is(err, ErrNoOffer) {
		t.Errorf("accepting no offer: %v", err)
	}
	if err := pg.DeclineDraw(0); !errors.Is(err, ErrNoOffer) {
		t.Errorf("declining no offer: %v", err)
	}
	pg.OfferDraw(0)
	if err := pg.AcceptDraw(0); !errors.Is(err, ErrNoOffer) {
		t.Errorf("accepting one's own offer: %v", err)
	}
	if err := pg.DeclineDraw(0); err != nil || pg.DrawOffer() != game.NoPlayer {
		t.Errorf("withdrawing one's own offer: %v, offer %d", err, pg.DrawOffer())
	}
	pg.OfferDraw(1)
	if err := pg.AcceptDraw(0); err != nil || pg.Result().Reason != game.Agreement {
		t.Errorf("accepting: %v, result %+v", err, pg.Result())
	}
	three := people(t, "punt-heks-match-3p", nil)
	for name, err := range map[string]error{"accept": three.AcceptDraw(0), "decline": three.DeclineDraw(0)} {
		if !errors.Is(err, ErrNoDraws) {
			t.Errorf("%s in a game of three: %v", name, err)
		}
	}
}

// A game restored from what a server stores: the moves, the clock's
// reading, the offer on the table and an end off the board.
func TestResume(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ft := &fakeTime{now: t0.Add(10 * time.Second)}
	g := mustGame(t, "pommel")
	tc := timecontrol.Control{Base: time.Minute, Increment: 2 * time.Second}
	reading := ClockState{Left: []time.Duration{40 * time.Second, 30 * time.Second}, TurnStart: t0}
	pg, err := New(Config{Game: g, Seats: make([]Seat, 2), Moves: []string{"a1-a3"}, Clock: &tc, Now: ft.Now,
		Resume: &Resume{Clock: &reading, Offer: 0}, Date: "2026.11.23"})
	if err != nil {
		t.Fatal(err)
	}
	snap := pg.Snapshot()
	if !slices.Equal(snap.Moves, []string{"a1-a3"}) || snap.State.ToMove() != 1 || snap.Offer != 0 {
		t.Errorf("restored moves %v, to move %d, offer %d", snap.Moves, snap.State.ToMove(), snap.Offer)
	}
	if !slices.Equal(snap.Left, []time.Duration{40 * time.Second, 20 * time.Second}) || !snap.Running || snap.Control.String() != "1m+2s" {
		t.Errorf("restored clock: left %v running %v control %v", snap.Left, snap.Running, snap.Control)
	}
	if rec := pg.Record(); rec.Get("Date") != "2026.11.23" || !slices.Equal(rec.Moves, []string{"a1-a3"}) {
		t.Errorf("record %v %v", rec.Tags, rec.Moves)
	}
	mustMove(t, pg, 1, "g6-g4") // declines White's offer
	if pg.DrawOffer() != game.NoPlayer {
		t.Error("a restored offer was not declined by the other seat's move")
	}

	resigned := game.Win(1, game.Resignation)
	pg, err = New(Config{Game: g, Seats: make([]Seat, 2), Moves: []string{"a1-a3"}, Resume: &Resume{Offer: game.NoPlayer, Ended: &resigned}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pg.Move(1, "g6-g4"); !errors.Is(err, ErrOver) || pg.Result().Reason != game.Resignation {
		t.Errorf("restored resignation: %v, %+v", err, pg.Result())
	}

	for name, cfg := range map[string]Config{
		"illegal move":     {Game: g, Seats: make([]Seat, 2), Moves: []string{"a1-a9"}},
		"moves and record": {Game: g, Seats: make([]Seat, 2), Moves: []string{}, Record: pg.Record()},
		"short clock":      {Game: g, Seats: make([]Seat, 2), Clock: &tc, Resume: &Resume{Clock: &ClockState{Left: []time.Duration{1}}, Offer: game.NoPlayer}},
		"offer of seat 2":  {Game: g, Seats: make([]Seat, 2), Resume: &Resume{Offer: 2}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A clock that waits charges nobody and lets no flag fall until the
// first move; then it runs as the terminal's does.
func TestWaitingClock(t *testing.T) {
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	pg, _ := kept(t, ft, nil)
	ft.advance(24 * time.Hour)
	if over, err := pg.Tick(); over || err != nil {
		t.Errorf("a waiting clock ended the game: %v %v", over, err)
	}
	if snap := pg.Snapshot(); snap.Running || snap.Left[0] != time.Minute {
		t.Errorf("waiting clock: running %v, left %v", snap.Running, snap.Left)
	}
	if d, ok := pg.TimeToFlag(); ok {
		t.Errorf("a waiting clock's flag falls in %s", d)
	}
	mustMove(t, pg, 0, "a1-a3")
	ft.advance(10 * time.Second)
	if snap := pg.Snapshot(); !snap.Running || !slices.Equal(snap.Left, []time.Duration{62 * time.Second, 50 * time.Second}) {
		t.Errorf("after the first move: running %v, left %v", snap.Running, snap.Left)
	}
	if d, ok := pg.TimeToFlag(); !ok || d != 50*time.Second {
		t.Errorf("Black's flag falls in %s, %v; want 50s", d, ok)
	}
	pg.Resign(1)
	if d, ok := pg.TimeToFlag(); ok {
		t.Errorf("a finished game's flag falls in %s", d)
	}
}

func TestCorrespondence(t *testing.T) {
	tc, err := timecontrol.DaysPerMove(3)
	if err != nil {
		t.Fatal(err)
	}
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	wait := Waiting(tc, 2)
	pg, _ := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 2), Clock: &tc, Now: ft.Now,
		Resume: &Resume{Clock: &wait, Offer: game.NoPlayer}})
	mustMove(t, pg, 0, "a1-a3")
	ft.advance(50 * time.Hour)
	mustMove(t, pg, 1, "g6-g4") // 22h left, then three days afresh
	if got := pg.Clocks(); got[1] != 72*time.Hour || got[0] != 72*time.Hour {
		t.Errorf("correspondence clocks after a move %v: each move has its days afresh", got)
	}
	ft.advance(72 * time.Hour)
	if over, _ := pg.Tick(); !over || pg.Result().Reason != game.TimeForfeit || !pg.Result().Winners.Has(1) {
		t.Errorf("three days without a move: %+v", pg.Result())
	}
}

// countingEngine counts the engines made and plays the first legal move.
type countingEngine struct{ lim *ai.Limits }

func (countingEngine) Name() string { return "counting" }

func (c countingEngine) Search(_ context.Context, s game.State, lim ai.Limits, _ func(ai.Info)) ai.Info {
	*c.lim = lim
	return ai.Info{Move: s.Moves(nil)[0]}
}

// A seat's engine is made on its first turn, once, and searches within
// its seat's limits and a running clock, which it plans its time by.
func TestEngineSeats(t *testing.T) {
	made := 0
	var seen ai.Limits
	seat := Seat{Name: "counting", Limits: &ai.Limits{MoveTime: time.Hour}, NewEngine: func() (ai.Engine, error) {
		made++
		return countingEngine{lim: &seen}, nil
	}}
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	tc := timecontrol.Control{Base: time.Minute}
	wait := Waiting(tc, 2)
	pg, err := New(Config{Game: mustGame(t, "pommel"), Seats: []Seat{{}, seat}, Clock: &tc, Now: ft.Now,
		Limits: ai.Limits{Depth: 3}, Resume: &Resume{Clock: &wait, Offer: game.NoPlayer}})
	if err != nil {
		t.Fatal(err)
	}
	if made != 0 || pg.Seats()[1].Person() {
		t.Fatalf("an engine made before its turn (%d), or the seat taken for a person's", made)
	}
	if _, err := pg.EngineTurn(); !errors.Is(err, ErrNoEngine) {
		t.Errorf("EngineTurn on a person's turn: %v", err)
	}
	mustMove(t, pg, 0, "a1-a3")
	for range 2 {
		if _, err := pg.PlayEngine(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if seen.MoveTime != time.Hour || seen.Depth != 0 || seen.Clock != (ai.MoverClock{Left: time.Minute}) {
			t.Errorf("limits %+v: want the seat's, with the minute left on the clock", seen)
		}
		mustMove(t, pg, 0, game.MoveTexts(pg.State())[0])
	}
	if made != 1 {
		t.Errorf("%d engines made for one seat, want 1", made)
	}
	failing := Seat{NewEngine: func() (ai.Engine, error) { return nil, errors.New("no such engine") }}
	pg, _ = New(Config{Game: mustGame(t, "pommel"), Seats: []Seat{failing, {}}})
	if _, err := pg.EngineTurn(); err == nil || !strings.Contains(err.Error(), "no such engine") {
		t.Errorf("an engine that cannot be made: %v", err)
	}
}

// Any change between a turn's preparation and its move drops the move,
// even one that leaves the ply as it was.
func TestEngineTurnDroppedWhenTheGameChanged(t *testing.T) {
	e := blockingEngine{release: make(chan struct{})}
	close(e.release)
	for name, change := range map[string]func(*Game){
		"an offer":        func(pg *Game) { pg.OfferDraw(0) },
		"undo and a move": func(pg *Game) { pg.Undo(1); mustMove(t, pg, 0, "b1-b3") },
		"a resignation":   func(pg *Game) { pg.Resign(0) },
	} {
		pg, _ := New(Config{Game: mustGame(t, "pommel"), Seats: []Seat{{}, {Engine: e}}})
		mustMove(t, pg, 0, "a1-a3")
		turn, err := pg.EngineTurn()
		if err != nil {
			t.Fatal(err)
		}
		info := turn.Search(context.Background(), nil)
		change(pg)
		before := pg.Moves()
		if err := pg.PlayTurn(turn, info.Move); !errors.Is(err, ErrChanged) || !slices.Equal(pg.Moves(), before) {
			t.Errorf("%s: %v, moves %v", name, err, pg.Moves())
		}
	}
	pg, _ := New(Config{Game: mustGame(t, "pommel"), Seats: []Seat{{}, {Engine: e}}})
	mustMove(t, pg, 0, "a1-a3")
	turn, _ := pg.EngineTurn()
	other, _ := New(Config{Game: mustGame(t, "pommel"), Seats: []Seat{{}, {Engine: e}}, Moves: []string{"a1-a3"}})
	if err := other.PlayTurn(turn, turn.Search(context.Background(), nil).Move); !errors.Is(err, ErrChanged) {
		t.Errorf("a turn played on another game: %v", err)
	}
}
