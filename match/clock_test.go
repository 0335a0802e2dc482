package match

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// TestRunRefusesBadClock: a clock filled in by hand is checked as a
// parsed one is.
func TestRunRefusesBadClock(t *testing.T) {
	cfg := sprtConfig(t, 2, "random", "random")
	for _, tc := range []struct {
		clock timecontrol.Control
		want  string
	}{
		{timecontrol.Control{Base: -time.Second}, "out of range"},
		{timecontrol.Control{Increment: time.Second}, "out of range"},
		{timecontrol.Control{Base: time.Second, Increment: -1}, "out of range"},
		{timecontrol.Control{Base: 800 * time.Hour}, "out of range"},
		{timecontrol.Control{PerMove: timecontrol.Day}, "Fischer clocks"},
	} {
		cfg.Clock = tc.clock
		if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("a clock %+v: %v, want a refusal with %q", tc.clock, err, tc.want)
		}
	}
}

// stalling is an engine that never answers on its own: it waits until
// its search is cancelled, which on a match clock is when its flag falls,
// and then plays the first legal move. It stands for an engine that runs
// out of time, which the real engines are built not to do.
type stalling struct{}

func (stalling) Name() string { return "stalling" }

func (stalling) Search(ctx context.Context, s game.State, _ ai.Limits, _ func(ai.Info)) ai.Info {
	<-ctx.Done()
	return ai.Info{Move: s.Moves(nil)[0]}
}

func stallingPlayer(name string) Player {
	return Player{Name: name, New: func(uint64) (ai.Engine, error) { return stalling{}, nil }}
}

// TestFlagFall: a seat whose time runs out before its move arrives loses
// on time: the move is not played, every other seat wins, the record
// says "time forfeit" and gives the TimeControl, and the table counts the
// flag fall. Two stalling players: whoever moves first flags.
func TestFlagFall(t *testing.T) {
	cfg := sprtConfig(t, 2, "x", "y")
	cfg.Players = []Player{stallingPlayer("x"), stallingPlayer("y")}
	cfg.Clock = timecontrol.Control{Base: 20 * time.Millisecond, Increment: 5 * time.Millisecond}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range sum.Games {
		first := game.Player(0) // the opening's plies are even: White moves first
		if want := lostOnTime(first, 2); l.Result != want || len(l.Moves) != 0 {
			t.Errorf("game %d: result %+v after %d moves, want White lost on time at once", i+1, l.Result, len(l.Moves))
		}
		rec := l.Record()
		if rec.Get("Termination") != "time forfeit" || rec.Get("TimeControl") != "0.02+0.005" || rec.Get("Result") != "0-1" {
			t.Errorf("game %d: tags %v", i+1, rec.Tags)
		}
		res, err := record.ParseResult(rec.Get("Result"), rec.Get("Termination"), 2)
		if err != nil || res != l.Result {
			t.Errorf("game %d: the record reads back as %+v, %v; want %+v", i+1, res, err, l.Result)
		}
	}
	for _, st := range sum.Players {
		if st.TimeLosses != 1 || st.Losses != 1 || st.Wins != 1 {
			t.Errorf("%s: %+v, want one win and one loss on time", st.Name, st)
		}
	}
	if table := sum.Table(); !strings.Contains(table, "clock 20ms+5ms: 2 flag falls in 2 games (x 1, y 1)") {
		t.Errorf("the table does not count the flag falls:\n%s", table)
	}
	// An SPRT resumed from these records counts the losses on time.
	if scores, err := ResumeScores(cfg, sum.Records()); err != nil || scores[0] != 0 || scores[1] != 1 {
		t.Errorf("resumed scores %v, %v; want x's 0 (White, flagged) then 1", scores, err)
	}
}

// TestFlagFallThreeSeats: in a game of three, the two other seats share
// the win of the seat that ran out of time.
func TestFlagFallThreeSeats(t *testing.T) {
	g, err := game.New("punt-heks-match-3p", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Players: []Player{stallingPlayer("x"), stallingPlayer("y"), stallingPlayer("z")}, Games: 1,
		Clock: timecontrol.Control{Base: 10 * time.Millisecond}}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := sum.Games[0].Result; r.Reason != game.TimeForfeit || r.Winners.Len() != 2 || r.Winners.Has(0) {
		t.Errorf("result %+v, want the first seat lost on time to the other two", r)
	}
}

// TestClockedGamesRecordTheClock: engines on a clock play whole games;
// every move's comment gives the mover's clock as it arrived, which never
// reads more than the base and the increments allow. (Whether a busy
// machine made a seat lose on time is TestNoFlagFallAtOneSecond's
// question.)
func TestClockedGamesRecordTheClock(t *testing.T) {
	cfg := sprtConfig(t, 1, "ab", "random")
	cfg.Limits = ai.Limits{}
	cfg.Clock = timecontrol.Control{Base: 400 * time.Millisecond, Increment: 10 * time.Millisecond}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range sum.Games {
		for k, m := range l.Moves {
			limit := cfg.Clock.Base + time.Duration(k/2)*cfg.Clock.Increment
			if m.Left <= 0 || m.Left > limit {
				t.Errorf("game %d, move %d: clock %s, want within (0, %s]", i+1, k+1, m.Left, limit)
			}
			if note := m.comment(true); !strings.Contains(note, "[%clk 0:00:0") {
				t.Errorf("game %d, move %d: comment %q has no clock", i+1, k+1, note)
			}
		}
		if rec := l.Record(); rec.Get("TimeControl") != "0.4+0.01" {
			t.Errorf("game %d: TimeControl %q", i+1, rec.Get("TimeControl"))
		}
	}
}

// TestNoFlagFallAtOneSecond: ab against ab at 1s+10ms, two games at a
// time, loses no game on time. (The 200-game measure of docs/strength.md
// is the same at length.)
func TestNoFlagFallAtOneSecond(t *testing.T) {
	if testing.Short() {
		t.Skip("ten games of about two seconds each")
	}
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Players: []Player{player("a", "ab"), player("b", "ab")}, Games: 10, Concurrency: 2,
		Seed: 11, OpeningPlies: 4, Clock: timecontrol.Control{Base: time.Second, Increment: 10 * time.Millisecond}}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range sum.Players {
		if st.TimeLosses != 0 {
			t.Errorf("%s lost %d games on time:\n%s", st.Name, st.TimeLosses, sum.Table())
		}
	}
}

// listening is an engine that notes the limits each search is given and
// plays the first legal move at once.
type listening struct{ limits *[]ai.Limits }

func (listening) Name() string { return "listening" }

func (e listening) Search(_ context.Context, s game.State, lim ai.Limits, _ func(ai.Info)) ai.Info {
	*e.limits = append(*e.limits, lim)
	return ai.Info{Move: s.Moves(nil)[0]}
}

// TestEngineGivenItsClock: each search is given the mover's own clock,
// the base at its first move, then what is left with the increments added,
// and the match's other limits with it.
func TestEngineGivenItsClock(t *testing.T) {
	var limits []ai.Limits
	cfg := sprtConfig(t, 1, "random", "random")
	cfg.Concurrency, cfg.Limits = 1, ai.Limits{Depth: 3}
	cfg.Players[0] = Player{Name: "x", New: func(uint64) (ai.Engine, error) { return listening{&limits}, nil }}
	cfg.Clock = timecontrol.Control{Base: time.Minute, Increment: time.Second}
	if _, err := Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if len(limits) < 2 || limits[0] != (ai.Limits{Depth: 3, Clock: ai.MoverClock{Left: time.Minute, Increment: time.Second}}) {
		t.Fatalf("limits given %+v, want depth 3, the base and the increment first", limits)
	}
	for k, lim := range limits[1:] {
		c := lim.Clock
		if lim.Depth != 3 || c.Increment != time.Second || c.Left <= time.Minute || c.Left > time.Minute+time.Duration(k+1)*time.Second {
			t.Errorf("move %d: limits %+v, want the minute with %d increments less the time spent", k+2, lim, k+1)
		}
	}
}

// moveless is an engine that answers at once with no move and no error.
type moveless struct{}

func (moveless) Name() string { return "moveless" }

func (moveless) Search(context.Context, game.State, ai.Limits, func(ai.Info)) ai.Info {
	return ai.Info{}
}

// TestNoMoveIsAnError: an engine that answers no move on a clock ends the
// match with an error naming it, not a crash.
func TestNoMoveIsAnError(t *testing.T) {
	cfg := sprtConfig(t, 2, "random", "random")
	cfg.Players[0] = Player{Name: "x", New: func(uint64) (ai.Engine, error) { return moveless{}, nil }}
	cfg.Clock = timecontrol.Control{Base: time.Second}
	if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "(moveless): the engine chose no move") {
		t.Errorf("Run: %v, want the engine named as choosing no move", err)
	}
}
