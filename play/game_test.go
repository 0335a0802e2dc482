package play

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// savedRecords is a Keeper that keeps every record a change shows, as a
// record file does.
type savedRecords struct {
	mu    sync.Mutex
	saves []record.Record
}

func (s *savedRecords) Keep(c Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.Kind.Recorded() {
		s.saves = append(s.saves, *c.Record)
	}
	return nil
}

func (s *savedRecords) last(t *testing.T) record.Record {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.saves) == 0 {
		t.Fatal("nothing was saved")
	}
	return s.saves[len(s.saves)-1]
}

// fakeTime is a clock the test moves by hand.
type fakeTime struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeTime) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

func mustGame(t *testing.T, id string) game.Game {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// people starts a game of id with a person in every seat.
func people(t *testing.T, id string, keeper Keeper) *Game {
	t.Helper()
	g := mustGame(t, id)
	pg, err := New(Config{Game: g, Seats: make([]Seat, g.Players()), Keeper: keeper, Date: "2026.11.23"})
	if err != nil {
		t.Fatal(err)
	}
	return pg
}

func mustMove(t *testing.T, pg *Game, p game.Player, text string) {
	t.Helper()
	if _, err := pg.Move(p, text); err != nil {
		t.Fatalf("move %s by seat %d: %v", text, p, err)
	}
}

func TestMoveRefusals(t *testing.T) {
	store := &savedRecords{}
	pg := people(t, "pommel", store)
	if _, err := pg.Move(1, "g6-g4"); !errors.Is(err, ErrNotYourTurn) || !strings.Contains(err.Error(), "White is to move") {
		t.Errorf("Black moving first: %v, want ErrNotYourTurn naming White", err)
	}
	var illegal *game.IllegalMoveError
	if _, err := pg.Move(0, "a1-a4"); !errors.As(err, &illegal) || !strings.Contains(err.Error(), "the piece on a1 can play") {
		t.Errorf("illegal move: %v, want an IllegalMoveError saying why", err)
	}
	if len(store.saves) != 0 || len(pg.Moves()) != 0 {
		t.Errorf("refused moves changed the game: %d saves, moves %v", len(store.saves), pg.Moves())
	}
	mustMove(t, pg, 0, "a1-a3")
	if got := store.last(t).Moves; !slices.Equal(got, []string{"a1-a3"}) {
		t.Errorf("saved moves %v, want [a1-a3]", got)
	}

	g := mustGame(t, "pommel")
	e, _ := ai.New("random", 1)
	pg, _ = New(Config{Game: g, Seats: []Seat{{}, {Engine: e}}})
	mustMove(t, pg, 0, "a1-a3")
	if _, err := pg.Move(1, "g6-g4"); !errors.Is(err, ErrNoPerson) {
		t.Errorf("a person moving for the engine's seat: %v, want ErrNoPerson", err)
	}
}

func TestNewRefusesWrongSeats(t *testing.T) {
	if _, err := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 3)}); err == nil {
		t.Error("three seats for a two-player game were accepted")
	}
	if _, err := New(Config{Seats: make([]Seat, 2)}); err == nil {
		t.Error("a game without rules was accepted")
	}
}

func TestUndo(t *testing.T) {
	g := mustGame(t, "pommel")
	e, _ := ai.New("ab:depth=1", 1)
	store := &savedRecords{}
	pg, err := New(Config{Game: g, Seats: []Seat{{Name: "Ann"}, {Engine: e, Name: e.Name()}}, Keeper: store})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pg.Undo(0); !errors.Is(err, ErrNothing) {
		t.Errorf("undo at the start: %v, want ErrNothing", err)
	}
	if _, err := pg.Undo(-1); err == nil {
		t.Error("undo -1 was accepted")
	}
	mustMove(t, pg, 0, "a1-a3")
	if _, err := pg.PlayEngine(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	mustMove(t, pg, 0, "b1-b3")
	if _, err := pg.PlayEngine(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	four := pg.Moves()
	// A plain undo goes back to the person's turn: the engine's reply and
	// the person's move.
	undone, err := pg.Undo(0)
	if err != nil || !slices.Equal(undone, []string{four[3], four[2]}) {
		t.Fatalf("undo = %v, %v; want %v", undone, err, []string{four[3], four[2]})
	}
	if pg.ToMove() != 0 || !slices.Equal(pg.Moves(), four[:2]) || !slices.Equal(store.last(t).Moves, four[:2]) {
		t.Errorf("after undo: to move %d, moves %v, saved %v", pg.ToMove(), pg.Moves(), store.last(t).Moves)
	}
	// undo N takes back exactly N, and no more than there are.
	if undone, _ := pg.Undo(1); len(undone) != 1 || pg.ToMove() != 1 {
		t.Errorf("undo 1 took back %v, now %d to move", undone, pg.ToMove())
	}
	if undone, _ := pg.Undo(50); len(undone) != 1 || len(pg.Moves()) != 0 {
		t.Errorf("undo 50 took back %v, moves left %v", undone, pg.Moves())
	}
	if st := pg.State(); st.FEN() != g.Start().FEN() {
		t.Errorf("after undoing everything the position is %s", st.FEN())
	}
}

func TestResign(t *testing.T) {
	store := &savedRecords{}
	pg := people(t, "pommel", store)
	mustMove(t, pg, 0, "a1-a3")
	if err := pg.Resign(0); err != nil { // White resigns on Black's turn
		t.Fatal(err)
	}
	res := pg.Result()
	if res.Reason != game.Resignation || !res.Winners.Has(1) || res.Winners.Has(0) {
		t.Errorf("result %+v, want Black winning by resignation", res)
	}
	if got := res.Describe(pg.Game()); got != "Black wins: White resigned" {
		t.Errorf("Describe = %q", got)
	}
	rec := store.last(t)
	if rec.Get("Result") != "0-1" || rec.Get("Termination") != "resignation" {
		t.Errorf("saved result %q termination %q", rec.Get("Result"), rec.Get("Termination"))
	}
	if _, err := pg.Move(1, "g6-g4"); !errors.Is(err, ErrOver) {
		t.Errorf("a move after resignation: %v, want ErrOver", err)
	}
	if _, err := pg.Undo(0); !errors.Is(err, ErrOver) {
		t.Errorf("undo after resignation: %v, want ErrOver", err)
	}
	if err := pg.Resign(1); !errors.Is(err, ErrOver) {
		t.Errorf("a second resignation: %v, want ErrOver", err)
	}

	// Three players: the others share the win.
	pg = people(t, "punt-heks-match-3p", nil)
	if err := pg.Resign(1); err != nil {
		t.Fatal(err)
	}
	if res := pg.Result(); res.Winners.Len() != 2 || res.Winners.Has(1) {
		t.Errorf("three-player resignation: %+v", res)
	}
	if got := record.ResultText(pg.Result(), 3); got != "1/2-0-1/2" {
		t.Errorf("result text %q, want 1/2-0-1/2", got)
	}
}

func TestDrawOffers(t *testing.T) {
	store := &savedRecords{}
	pg := people(t, "pommel", store)
	if drawn, err := pg.OfferDraw(0); drawn || err != nil || pg.DrawOffer() != 0 {
		t.Fatalf("offer: %v %v, offer on the table %d", drawn, err, pg.DrawOffer())
	}
	if drawn, _ := pg.OfferDraw(0); drawn {
		t.Error("offering twice drew the game")
	}
	mustMove(t, pg, 0, "a1-a3")
	if pg.DrawOffer() != 0 {
		t.Error("the offerer's own move withdrew the offer")
	}
	mustMove(t, pg, 1, "g6-g4") // Black plays on: declined
	if pg.DrawOffer() != game.NoPlayer {
		t.Error("a move by the other side did not decline the offer")
	}
	pg.OfferDraw(0)
	if drawn, err := pg.OfferDraw(1); !drawn || err != nil {
		t.Fatalf("accepting: %v %v", drawn, err)
	}
	if res := pg.Result(); res.Reason != game.Agreement || !res.Draw() {
		t.Errorf("result %+v, want a draw by agreement", res)
	}
	if rec := store.last(t); rec.Get("Result") != "1/2-1/2" || rec.Get("Termination") != "agreement" {
		t.Errorf("saved %q %q", rec.Get("Result"), rec.Get("Termination"))
	}
	if _, err := people(t, "punt-heks-match-3p", nil).OfferDraw(0); err == nil {
		t.Error("a draw offer in a three-player game was accepted")
	}
	pg = people(t, "pommel", nil)
	pg.OfferDraw(0)
	pg.DeclineDraw(1)
	if drawn, _ := pg.OfferDraw(1); drawn {
		t.Error("a declined offer could still be accepted")
	}
}

func TestClock(t *testing.T) {
	ft := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	g := mustGame(t, "pommel")
	store := &savedRecords{}
	pg, err := New(Config{Game: g, Seats: make([]Seat, 2), Clock: &timecontrol.Control{Base: time.Minute, Increment: 2 * time.Second},
		Now: ft.Now, Keeper: store})
	if err != nil {
		t.Fatal(err)
	}
	ft.advance(10 * time.Second)
	if got := pg.Clocks(); got[0] != 50*time.Second || got[1] != time.Minute {
		t.Errorf("after 10s of White's thinking: %v", got)
	}
	mustMove(t, pg, 0, "a1-a3") // 50s + 2s
	ft.advance(5 * time.Second)
	if got := pg.Clocks(); got[0] != 52*time.Second || got[1] != 55*time.Second {
		t.Errorf("after White's move and 5s of Black's: %v", got)
	}
	mustMove(t, pg, 1, "g6-g4") // 55s + 2s
	if _, err := pg.Undo(1); err != nil {
		t.Fatal(err)
	}
	if got := pg.Clocks(); got[0] != 52*time.Second || got[1] != time.Minute {
		t.Errorf("undo did not put the clocks back: %v", got)
	}
	ft.advance(61 * time.Second) // Black's flag falls
	if over, err := pg.Tick(); !over || err != nil {
		t.Fatalf("Tick after the flag fell: %v, %v", over, err)
	}
	res := pg.Result()
	if res.Reason != game.TimeForfeit || !res.Winners.Has(0) {
		t.Errorf("result %+v, want White winning on time", res)
	}
	if got := res.Describe(g); got != "White wins: Black ran out of time" {
		t.Errorf("Describe = %q", got)
	}
	if rec := store.last(t); rec.Get("Termination") != "time forfeit" || rec.Get("Result") != "1-0" {
		t.Errorf("saved %q %q", rec.Get("Result"), rec.Get("Termination"))
	}
	if got := pg.Clocks(); got[1] != 0 || got[0] != 52*time.Second {
		t.Errorf("clocks after the flag fall %v: they must stop", got)
	}
	ft.advance(time.Hour)
	if got := pg.Clocks(); got[0] != 52*time.Second {
		t.Errorf("a finished game's clock runs on: %v", got)
	}
}

// A move sent after the flag fell loses on time instead of being played.
func TestMoveAfterFlagFall(t *testing.T) {
	ft := &fakeTime{now: time.Now()}
	pg, _ := New(Config{Game: mustGame(t, "pommel"), Seats: make([]Seat, 2), Clock: &timecontrol.Control{Base: time.Second}, Now: ft.Now})
	ft.advance(2 * time.Second)
	if _, err := pg.Move(0, "a1-a3"); !errors.Is(err, ErrOver) {
		t.Errorf("late move: %v, want ErrOver", err)
	}
	if len(pg.Moves()) != 0 || pg.Result().Reason != game.TimeForfeit {
		t.Errorf("moves %v result %+v", pg.Moves(), pg.Result())
	}
}

// blockingEngine waits for its release (or the context) before it plays
// its first legal move: it lets a test act while a search runs. It tells
// started (when not nil) that the search has begun.
type blockingEngine struct{ release, started chan struct{} }

func (b blockingEngine) Name() string { return "blocking" }

func (b blockingEngine) Search(ctx context.Context, s game.State, _ ai.Limits, _ func(ai.Info)) ai.Info {
	if b.started != nil {
		b.started <- struct{}{}
	}
	select {
	case <-b.release:
	case <-ctx.Done():
	}
	return ai.Info{Move: s.Moves(nil)[0]}
}

func TestPlayEngine(t *testing.T) {
	g := mustGame(t, "pommel")
	e := blockingEngine{release: make(chan struct{}), started: make(chan struct{}, 3)}
	pg, _ := New(Config{Game: g, Seats: []Seat{{}, {Engine: e}}})
	if _, err := pg.PlayEngine(context.Background(), nil); err == nil {
		t.Error("PlayEngine with a person to move was accepted")
	}
	mustMove(t, pg, 0, "a1-a3")

	// Cancelled: no move.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pg.PlayEngine(ctx, nil); !errors.Is(err, context.Canceled) || len(pg.Moves()) != 1 {
		t.Errorf("cancelled search: %v, moves %v", err, pg.Moves())
	}

	// The person takes back while the engine thinks: its move is dropped,
	// and the person can be answered meanwhile (the lock is not held).
	for len(e.started) > 0 {
		<-e.started // the cancelled search's
	}
	done := make(chan error)
	go func() {
		_, err := pg.PlayEngine(context.Background(), nil)
		done <- err
	}()
	<-e.started
	if _, err := pg.Undo(1); err != nil {
		t.Fatal(err)
	}
	close(e.release)
	if err := <-done; err == nil || !strings.Contains(err.Error(), "changed while") {
		t.Errorf("a search over a position taken back: %v", err)
	}
	if len(pg.Moves()) != 0 {
		t.Errorf("moves %v after the undo", pg.Moves())
	}
	mustMove(t, pg, 0, "a1-a3")
	if _, err := pg.PlayEngine(context.Background(), nil); err != nil || len(pg.Moves()) != 2 {
		t.Errorf("engine move: %v, moves %v", err, pg.Moves())
	}
	if m, ok := pg.LastMove(); !ok || m.Text(g.Board()) != pg.Moves()[1] {
		t.Errorf("LastMove = %v %v", m, ok)
	}
}

// A record loaded with a result the board does not show (a resignation)
// is over; its tags stay, a new engine's spec replaces the seat's name.
func TestLoadedRecord(t *testing.T) {
	g := mustGame(t, "pommel")
	r := record.New(g, "", []string{"Ann", "Bob"}, "2026.01.01")
	r.Moves = []string{"a1-a3"}
	r.Set("Result", "0-1")
	r.Set("Termination", "resignation")
	s := g.Start()
	game.PlayMoves(s, r.Moves)
	e, _ := ai.New("ai:level=2", 1)
	pg, err := New(Config{Start: s, Record: r, Seats: []Seat{{}, {Engine: e, Name: e.Name()}}})
	if err != nil {
		t.Fatal(err)
	}
	if res := pg.Result(); res.Reason != game.Resignation || !res.Winners.Has(1) {
		t.Errorf("loaded result %+v", res)
	}
	rec := pg.Record()
	if rec.Get("White") != "Ann" || rec.Get("Black") != "ai:level=2" || rec.Get("Date") != "2026.01.01" {
		t.Errorf("tags %v", rec.Tags)
	}
	r.Moves = nil
	if _, err := New(Config{Start: s, Record: r, Seats: make([]Seat, 2)}); err == nil {
		t.Error("a record whose moves are not the position's history was accepted")
	}
}

// Readers and writers from several goroutines at once (run with -race).
func TestConcurrentUse(t *testing.T) {
	pg := people(t, "eximo", &savedRecords{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				pg.State().FEN()
				pg.Result()
				pg.Moves()
				pg.Record()
				pg.LastMove()
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			s := pg.State()
			moves := game.MoveTexts(s)
			if len(moves) == 0 {
				return
			}
			pg.Move(s.ToMove(), moves[0])
		}
	})
	wg.Wait()
	if len(pg.Moves()) != 20 {
		t.Errorf("%d moves played, want 20", len(pg.Moves()))
	}
}
