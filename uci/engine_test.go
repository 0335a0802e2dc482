package uci

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

// checkTranscript compares a dialogue's transcript, times masked, with the
// lines wanted.
func checkTranscript(t *testing.T, got []string, want ...string) {
	t.Helper()
	got = maskTimes(got)
	if !slices.Equal(got, want) {
		t.Errorf("transcript:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const (
	noGame     = "info string error: no game: send newgame GAME first"
	noPosition = "info string error: no position: send position startpos|fen FEN [moves ...] first"
	noMove     = "bestmove (none)"
)

// The answer of ab to "go depth 1" at Pommel's start, which the tests use
// to show that a position is set.
var startDepth1 = []string{"info depth 1 score -5 nodes 31 time T pv c2-b3", "bestmove c2-b3"}

func TestServeHandshake(t *testing.T) {
	got := runDialogue(t, "uci", "isready", "frobnicate", "quit", "isready")
	checkTranscript(t, got,
		"> uci",
		"id name arbiter",
		"id author the arbiter developers",
		"option name Player type string default ai:level=6",
		"option name Seed type spin default 1 min 0 max 4294967295",
		"option name Tables type string default <empty>",
		"option name Threads type spin default 1 min 1 max 64",
		"info string games checkers-2011 eximo pommel pommel-76 punt-heks-match punt-heks-match-3p punt-match",
		"uciok",
		"> isready",
		"readyok",
		"> frobnicate",
		`info string error: unknown command "frobnicate"`,
		"> quit",
		"> isready") // after quit nothing answers
}

// TestGoAlwaysAnswers: whatever stands in the way of a search, go says why
// and answers bestmove (none); refused commands leave no game or position
// to search by mistake.
func TestGoAlwaysAnswers(t *testing.T) {
	ab := "setoption name Player value ab"
	tests := []struct {
		name     string
		commands []string
		want     []string
	}{
		{"no newgame", []string{"go depth 1"},
			[]string{"> go depth 1", noGame, noMove}},
		{"position before newgame", []string{"position startpos", "go depth 1"},
			[]string{"> position startpos", noGame, "> go depth 1", noGame, noMove}},
		{"a refused newgame leaves no game", []string{"newgame pommel", "newgame nosuch", "go depth 1"},
			[]string{"> newgame pommel", "> newgame nosuch",
				`info string error: unknown game "nosuch" (games: checkers-2011, eximo, pommel, pommel-76, punt-heks-match, punt-heks-match-3p, punt-match)`,
				"> go depth 1", noGame, noMove}},
		{"newgame without a game", []string{"newgame pommel", "newgame", "go"},
			[]string{"> newgame pommel", "> newgame", "info string error: write newgame GAME [key=value ...]",
				"> go", noGame, noMove}},
		{"newgame with a bad option", []string{"newgame pommel", "newgame pommel maxplies=0", "go"},
			[]string{"> newgame pommel", "> newgame pommel maxplies=0",
				"info string error: pommel: option maxplies=0: the value must be a whole number from 1 to 1000000",
				"> go", noGame, noMove}},
		{"newgame with an option twice", []string{"newgame pommel hop=any hop=friendly", "go"},
			[]string{"> newgame pommel hop=any hop=friendly", "info string error: option hop given twice",
				"> go", noGame, noMove}},
		{"newgame sets the start position", []string{ab, "newgame pommel", "go depth 1"},
			append([]string{"> " + ab, "> newgame pommel", "> go depth 1"}, startDepth1...)},
		{"a bad FEN leaves no position", []string{ab, "newgame pommel", "position fen W:Wz9", "go depth 1"},
			[]string{"> " + ab, "> newgame pommel", "> position fen W:Wz9",
				`info string error: bad FEN "W:Wz9", field 2: "z9" is not a cell of pommel (write cells such as a1, captains as Ka1)`,
				"> go depth 1", noPosition, noMove}},
		{"an illegal move leaves no position, not the previous one",
			[]string{ab, "newgame pommel", "position startpos", "go depth 1", "position startpos moves a1-a3 a1-a3", "go depth 1"},
			append(append([]string{"> " + ab, "> newgame pommel", "> position startpos", "> go depth 1"}, startDepth1...),
				"> position startpos moves a1-a3 a1-a3",
				`info string error: move 2 "a1-a3" is illegal: there is no piece on a1`,
				"> go depth 1", noPosition, noMove)},
		{"the game is over", []string{"newgame pommel", "position fen W:W:B", "go depth 2"},
			[]string{"> newgame pommel", "> position fen W:W:B", "> go depth 2",
				"info string error: the game is over (Black wins: White has no pieces left in play)", noMove}},
		{"the game is over after the moves", []string{"newgame pommel", "position fen W:Wa1:Ba2 moves a1xa3", "go"},
			[]string{"> newgame pommel", "> position fen W:Wa1:Ba2 moves a1xa3", "> go",
				"info string error: the game is over (White wins: Black has no pieces left in play)", noMove}},
	}
	for _, malformed := range []struct{ command, why string }{
		{"position", "write position startpos|fen FEN [moves M1 M2 ...]"},
		{"position sideways", `position "sideways": write startpos or fen FEN`},
		{"position fen", "position fen: the FEN is missing"},
		{"position startpos a1-a3", `position: "a1-a3" where moves was expected`},
	} {
		tests = append(tests, struct {
			name     string
			commands []string
			want     []string
		}{malformed.command, []string{"newgame pommel", malformed.command, "go"},
			[]string{"> newgame pommel", "> " + malformed.command, "info string error: " + malformed.why,
				"> go", noPosition, noMove}})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkTranscript(t, runDialogue(t, tc.commands...), tc.want...)
		})
	}
}

// TestGoArguments: every numeric word of go takes a whole number in its
// range, once; anything else is refused with bestmove (none), and the
// position stays for the next go.
func TestGoArguments(t *testing.T) {
	tests := []struct{ args, why string }{
		{"depth", "go: depth needs a value, a whole number from 1 to 64"},
		{"depth -1", `go: depth "-1": want a whole number from 1 to 64`},
		{"depth 0", `go: depth "0": want a whole number from 1 to 64`},
		{"depth x", `go: depth "x": want a whole number from 1 to 64`},
		{"depth 65", `go: depth "65": want a whole number from 1 to 64`},
		{"depth 2.5", `go: depth "2.5": want a whole number from 1 to 64`},
		{"depth 99999999999999999999", `go: depth "99999999999999999999": want a whole number from 1 to 64`},
		{"movetime 0", `go: movetime "0": want a whole number from 1 to 2147483647`},
		{"movetime 2147483648", `go: movetime "2147483648": want a whole number from 1 to 2147483647`},
		{"movetime 1e3", `go: movetime "1e3": want a whole number from 1 to 2147483647`},
		{"nodes -5", `go: nodes "-5": want a whole number from 1 to 9223372036854775807`},
		{"nodes 9223372036854775808", `go: nodes "9223372036854775808": want a whole number from 1 to 9223372036854775807`},
		{"nodes", "go: nodes needs a value, a whole number from 1 to 9223372036854775807"},
		{"wtime -1 btime 1000", `go: wtime "-1": want a whole number from 0 to 2147483647`},
		{"wtime 1000 btime 99999999999", `go: btime "99999999999": want a whole number from 0 to 2147483647`},
		{"wtime 1000 winc x", `go: winc "x": want a whole number from 0 to 2147483647`},
		{"rinc -3", `go: rinc "-3": want a whole number from 0 to 2147483647`},
		{"wtime 1000 movestogo 0", `go: movestogo "0": want a whole number from 1 to 2147483647`},
		{"depth 2 depth 3", "go: depth given twice"},
		{"infinite infinite", "go: infinite given twice"},
		{"infinite 5", `go: unknown limit "5" (limits: ` + allGoWords + ")"},
		{"ponder", `go: unknown limit "ponder" (limits: ` + allGoWords + ")"},
		{"mate 3", `go: unknown limit "mate" (limits: ` + allGoWords + ")"},
	}
	for _, tc := range tests {
		t.Run(tc.args, func(t *testing.T) {
			got := runDialogue(t, "setoption name Player value ab", "newgame pommel", "go "+tc.args, "go depth 1")
			checkTranscript(t, got, append([]string{"> setoption name Player value ab", "> newgame pommel",
				"> go " + tc.args, "info string error: " + tc.why, noMove, "> go depth 1"}, startDepth1...)...)
		})
	}
}

func TestSetOption(t *testing.T) {
	tests := []struct{ command, answer string }{
		{"setoption name Seed value 4294967295", ""},
		{"setoption name seed value 0", ""},
		{"setoption name Seed value -1", `seed "-1": want a whole number from 0 to 4294967295`},
		{"setoption name Seed value 4294967296", `seed "4294967296": want a whole number from 0 to 4294967295`},
		{"setoption name Seed value 99999999999999999999999", `seed "99999999999999999999999": want a whole number from 0 to 4294967295`},
		{"setoption name Seed value x", `seed "x": want a whole number from 0 to 4294967295`},
		{"setoption name Seed", "write setoption name NAME value VALUE"},
		{"setoption Seed value 3", "write setoption name NAME value VALUE"},
		{"setoption name Colour value red", `unknown option "Colour" (options: Player, Seed, Tables, Threads)`},
		{"setoption name Threads value 2", ""},
		{"setoption name threads value 64", ""},
		{"setoption name Threads value 0", `threads "0": want a whole number from 1 to 64`},
		{"setoption name Threads value -1", `threads "-1": want a whole number from 1 to 64`},
		{"setoption name Threads value 65", `threads "65": want a whole number from 1 to 64`},
		{"setoption name Threads value 99999999999999999999999", `threads "99999999999999999999999": want a whole number from 1 to 64`},
		{"setoption name Threads value two", `threads "two": want a whole number from 1 to 64`},
		{"setoption name Threads value 1.5", `threads "1.5": want a whole number from 1 to 64`},
		{"setoption name Threads value " + strings.Repeat("9", 100), `threads "` + strings.Repeat("9", 80) + `"…: want a whole number from 1 to 64`},
		{"setoption name Player value mcts:c=0.5,cutoff=4", ""},
		{"setoption name Player value chess", `unknown player "chess": use random, uct, mcts, ab or ai:level=1..6`},
		{"setoption name Player value ab:depth=99", `player "ab:depth=99": depth=99: want a whole number from 1 to 64`},
	}
	for _, tc := range tests {
		t.Run(tc.command, func(t *testing.T) {
			want := []string{"> " + tc.command}
			if tc.answer != "" {
				want = append(want, "info string error: "+tc.answer)
			}
			checkTranscript(t, runDialogue(t, tc.command), want...)
		})
	}
}

// TestRefusedOptionKeepsTheOld: the random player shows its seed in the
// moves it picks; a refused Seed leaves the one before.
func TestRefusedOptionKeepsTheOld(t *testing.T) {
	moves := func(commands ...string) []string {
		var best []string
		for _, l := range runDialogue(t, commands...) {
			if m, ok := strings.CutPrefix(l, "bestmove "); ok {
				best = append(best, m)
			}
		}
		return best
	}
	play := []string{"newgame pommel", "go", "go", "go", "go"}
	seven := moves(append([]string{"setoption name Player value random", "setoption name Seed value 7"}, play...)...)
	refused := moves(append([]string{"setoption name Player value random", "setoption name Seed value 7",
		"setoption name Seed value -7", "setoption name Player value nosuch"}, play...)...)
	other := moves(append([]string{"setoption name Player value random", "setoption name Seed value 8"}, play...)...)
	if !slices.Equal(seven, refused) {
		t.Errorf("seed 7 picks %v, after refused options %v", seven, refused)
	}
	if slices.Equal(seven, other) {
		t.Errorf("seeds 7 and 8 pick the same moves %v: the test shows nothing", seven)
	}
}

// lastNodes returns the node count of the last info line before each
// bestmove.
func lastNodes(t *testing.T, lines []string) []int64 {
	t.Helper()
	var counts []int64
	var last int64 = -1
	for _, l := range lines {
		f := strings.Fields(l)
		if i := slices.Index(f, "nodes"); len(f) > 0 && f[0] == "info" && i >= 0 && i+1 < len(f) {
			n, err := strconv.ParseInt(f[i+1], 10, 64)
			if err != nil {
				t.Fatalf("info line %q: %v", l, err)
			}
			last = n
		}
		if strings.HasPrefix(l, "bestmove") {
			counts = append(counts, last)
			last = -1
		}
	}
	return counts
}

// TestEngineKeptPerGame: the engine, and the transposition table alpha-beta
// keeps in it, lasts from go to go in a game: the same search again visits
// far fewer nodes. newgame, and a new Player or Seed, start afresh.
func TestEngineKeptPerGame(t *testing.T) {
	position := "position startpos moves a1-a3 a6-a4"
	got := runDialogue(t, "setoption name Player value ab", "newgame pommel", position,
		"go depth 5", "go depth 5",
		"newgame pommel", position, "go depth 5",
		"setoption name Seed value 1", "go depth 5",
		"setoption name Player value ab", "go depth 5",
		"position startpos", "go depth 5", position, "go depth 5")
	n := lastNodes(t, got)
	if len(n) != 7 {
		t.Fatalf("%d searches, want 7:\n%s", len(n), strings.Join(got, "\n"))
	}
	first, again := n[0], n[1]
	if again*4 > first {
		t.Errorf("the same search again visited %d nodes, the first %d: the table was not kept", again, first)
	}
	for i, what := range []string{"newgame", "setoption Seed", "setoption Player"} {
		if n[2+i] != first {
			t.Errorf("after %s the search visited %d nodes, a fresh engine %d", what, n[2+i], first)
		}
	}
	if n[6]*4 > first {
		t.Errorf("back at the position after another one, the search visited %d nodes, the first %d", n[6], first)
	}
}

// TestMCTSTreeKept: a one-iteration search of a fresh mcts has seen
// nothing (score 0, its first move); with the tree of the search before,
// it answers what that search found.
func TestMCTSTreeKept(t *testing.T) {
	got := runDialogue(t, "setoption name Player value mcts", "newgame pommel", "position startpos",
		"go nodes 2000", "go nodes 1", "newgame pommel", "position startpos", "go nodes 1")
	var infos []string
	for _, l := range maskTimes(got) {
		if strings.HasPrefix(l, "info depth") {
			infos = append(infos, l)
		}
	}
	if len(infos) != 3 {
		t.Fatalf("want 3 info lines:\n%s", strings.Join(got, "\n"))
	}
	kept := strings.Replace(infos[0], "nodes 2000", "nodes 1", 1)
	if infos[1] != kept {
		t.Errorf("the second search said %q, want %q (the tree of the first)", infos[1], kept)
	}
	if fresh := "info depth 1 score 0 nodes 1 time T pv c2-b3"; infos[2] != fresh {
		t.Errorf("after newgame the search said %q, want %q", infos[2], fresh)
	}
}

// nonSearchLines drops the info lines of searches, whose number depends on
// when a search was stopped, and names any bestmove "bestmove M".
func nonSearchLines(lines []string) []string {
	var kept []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "info depth"):
		case strings.HasPrefix(l, "bestmove ") && l != noMove:
			kept = append(kept, "bestmove M")
		default:
			kept = append(kept, l)
		}
	}
	return kept
}

// TestSearchStoppedAnswersOnce: stop, go, position, newgame and quit end a
// running search, whose go gets its one bestmove first.
func TestSearchStoppedAnswersOnce(t *testing.T) {
	for _, then := range [][]string{
		{"stop", "stop"},
		{"go depth x"},
		{"go depth 1"},
		{"position startpos", "go depth 1"},
		{"newgame pommel", "go depth 1"},
		{"quit"},
	} {
		t.Run(then[0], func(t *testing.T) {
			commands := append([]string{"setoption name Player value ab", "newgame pommel", "&go infinite"}, then...)
			got := nonSearchLines(runDialogue(t, commands...))
			want := []string{"> setoption name Player value ab", "> newgame pommel", "> go infinite",
				"> " + then[0], "bestmove M"}
			switch then[0] {
			case "stop":
				want = append(want, "> stop")
			case "go depth x":
				want = append(want, `info string error: go: depth "x": want a whole number from 1 to 64`, noMove)
			case "go depth 1":
				want = append(want, "bestmove M")
			case "quit":
			default:
				want = append(want, "> go depth 1", "bestmove M")
			}
			if !slices.Equal(got, want) {
				t.Errorf("transcript:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// failing is an engine that cannot choose: the arbiter engines always
// can, so only a stand-in reaches this path.
type failing struct{ err error }

func (f failing) Name() string { return "failing" }

func (f failing) Search(context.Context, game.State, ai.Limits, func(ai.Info)) ai.Info {
	return ai.Info{Err: f.err}
}

// TestSearchFailure: an engine that fails, or answers no move, still ends
// its go with bestmove (none), after saying so.
func TestSearchFailure(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.New("out of ideas"), "info string error: failing: out of ideas"},
		{nil, "info string error: failing chose no move"},
	} {
		var out strings.Builder
		sv := &server{out: &out, player: "ab", seed: 1, threads: 1}
		if err := sv.command([]string{"newgame", "pommel"}); err != nil {
			t.Fatal(err)
		}
		sv.eng = failing{tc.err}
		sv.command([]string{"go", "depth", "1"})
		sv.stop()
		if got, want := out.String(), fmt.Sprintf("%s\n%s\n", tc.want, noMove); got != want {
			t.Errorf("answered %q, want %q", got, want)
		}
	}
}

// allGoWords are the words of go with the seats of the games registered
// today: White's, Black's and Red's clocks.
const allGoWords = "movetime, nodes, depth, wtime, btime, rtime, winc, binc, rinc, movestogo, infinite"

// blueBlack is Pommel with seats named so that their first letters
// collide: a clock read by the seat's name would give Blue Black's time.
type blueBlack struct{ game.Game }

func (blueBlack) Seat(p game.Player) game.Seat {
	return [...]game.Seat{{Name: "Blue", Key: "blue", Letter: 'u'}, {Name: "Black", Key: "black", Letter: 'b'}}[p]
}

func TestParseGoClockByLetter(t *testing.T) {
	pommel, _ := game.New("pommel", nil)
	g := blueBlack{pommel}
	if err := game.CheckSeats(game.Seats(g)); err != nil {
		t.Fatalf("the test's seats are wrong: %v", err)
	}
	tests := []struct {
		g    game.Game
		args string
		me   game.Player
		want ai.Limits
		err  string
	}{
		{g, "utime 60000 btime 3000", 0, ai.Limits{Clock: ai.MoverClock{Left: time.Minute}}, ""},
		{g, "utime 60000 btime 3000", 1, ai.Limits{Clock: ai.MoverClock{Left: 3 * time.Second}}, ""},
		{g, "btime 3000 uinc 1000", 0, ai.Limits{MoveTime: time.Second}, ""},
		{g, "btime 3000 binc 1000", 1, ai.Limits{Clock: ai.MoverClock{Left: 3 * time.Second, Increment: time.Second}}, ""},
		// Every registered game's clock words stay valid, and the game's
		// own join them.
		{g, "rtime 5", 0, ai.Limits{MoveTime: time.Second}, ""},
		{g, "xtime 5", 0, ai.Limits{}, `go: unknown limit "xtime" (limits: movetime, nodes, depth, wtime, btime, rtime, utime, winc, binc, rinc, uinc, movestogo, infinite)`},
		{pommel, "utime 5", 0, ai.Limits{}, `go: unknown limit "utime" (limits: ` + allGoWords + ")"},
		{pommel, "time 5", 0, ai.Limits{}, `go: unknown limit "time"`},
		{pommel, "wwtime 5", 0, ai.Limits{}, `go: unknown limit "wwtime"`},
		{pommel, "Wtime 5", 0, ai.Limits{}, `go: unknown limit "Wtime"`},
	}
	for _, tc := range tests {
		lim, err := parseGo(strings.Fields(tc.args), tc.g, tc.me)
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("go %s in %s: %v, want %s", tc.args, tc.g.Seat(tc.me).Name, err, tc.err)
			}
			continue
		}
		if err != nil || lim != tc.want {
			t.Errorf("go %s for %s: %+v %v, want %+v", tc.args, tc.g.Seat(tc.me).Name, lim, err, tc.want)
		}
	}
}

func TestParseGoClock(t *testing.T) {
	g, _ := game.New("pommel", nil)
	tests := []struct {
		args string
		me   game.Player
		want ai.Limits
	}{
		// The mover's clock goes to the engine's time manager
		// (ai.PlanTime), which plans by it.
		{"wtime 60000 btime 1000 winc 1000", 0, ai.Limits{Clock: ai.MoverClock{Left: time.Minute, Increment: time.Second}}},
		{"wtime 60000 btime 3000 movestogo 10", 1, ai.Limits{Clock: ai.MoverClock{Left: 3 * time.Second, MovesToGo: 10}}},
		// Nothing left: answer at once.
		{"wtime 0 btime 1000", 0, ai.Limits{MoveTime: time.Millisecond}},
		{"movetime 500 wtime 0", 0, ai.Limits{MoveTime: time.Millisecond}},
		// movetime caps the clock; the other seat's clock is not ours.
		{"movetime 500 wtime 60000", 0, ai.Limits{MoveTime: 500 * time.Millisecond, Clock: ai.MoverClock{Left: time.Minute}}},
		{"btime 3000", 0, ai.Limits{MoveTime: time.Second}},
		{"wtime 2147483647 winc 2147483647 movestogo 2147483647", 0, ai.Limits{Clock: ai.MoverClock{Left: 2147483647 * time.Millisecond,
			Increment: 2147483647 * time.Millisecond, MovesToGo: 2147483647}}},
		{"", 0, ai.Limits{MoveTime: time.Second}},
		{"infinite", 0, ai.Limits{}},
		{"depth 64 nodes 9223372036854775807", 0, ai.Limits{Depth: 64, Nodes: 9223372036854775807}},
		{"depth 3 infinite", 0, ai.Limits{Depth: 3}},
	}
	for _, tc := range tests {
		lim, err := parseGo(strings.Fields(tc.args), g, tc.me)
		if err != nil || lim != tc.want {
			t.Errorf("go %s for %s: %+v %v, want %+v", tc.args, g.PlayerName(tc.me), lim, err, tc.want)
		}
	}
}

// TestThreadsOption: with Threads 2 a go searches with two threads and
// answers a move; Threads makes a new engine, so that back at one thread
// the search visits what a fresh engine of one thread visits.
func TestThreadsOption(t *testing.T) {
	position := "position startpos moves a1-a3 a6-a4"
	got := runDialogue(t, "setoption name Player value ab", "newgame pommel", position, "go depth 5",
		"setoption name Threads value 2", "go depth 5",
		"setoption name Threads value 1", "go depth 5")
	n := lastNodes(t, got)
	if len(n) != 3 {
		t.Fatalf("%d searches, want 3:\n%s", len(n), strings.Join(got, "\n"))
	}
	if n[2] != n[0] {
		t.Errorf("after Threads the search visited %d nodes, a fresh engine %d", n[2], n[0])
	}
	var answers []string
	for _, l := range got {
		if strings.HasPrefix(l, "bestmove") {
			answers = append(answers, l)
		}
	}
	if slices.Contains(answers, noMove) {
		t.Errorf("a search gave no move: %v", answers)
	}
}
