package uci

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// TestGoLimitsRoundTrip: the go a client sends for limits reads back, on
// the engine's side, as the same limits (to whole milliseconds), the clock
// under the mover's own letter in two- and three-seat games.
func TestGoLimitsRoundTrip(t *testing.T) {
	pommel, _ := game.New("pommel", nil)
	three, _ := game.New("punt-heks-match-3p", nil)
	clock := ai.MoverClock{Left: 950 * time.Millisecond, Increment: 10 * time.Millisecond}
	tests := []struct {
		g     game.Game
		me    game.Player
		lim   ai.Limits
		words string
	}{
		{pommel, 0, ai.Limits{Clock: clock}, "wtime 950 winc 10"},
		{pommel, 1, ai.Limits{Clock: clock}, "btime 950 binc 10"},
		{three, 2, ai.Limits{Clock: ai.MoverClock{Left: time.Second, MovesToGo: 5}}, "rtime 1000 rinc 0 movestogo 5"},
		{pommel, 0, ai.Limits{MoveTime: 250 * time.Millisecond, Nodes: 7, Depth: 3, Clock: clock},
			"movetime 250 nodes 7 depth 3 wtime 950 winc 10"},
		{pommel, 0, ai.Limits{MoveTime: 20 * time.Millisecond}, "movetime 20"},
	}
	for _, tc := range tests {
		words := goLimits(tc.lim, tc.g, tc.me)
		if got := strings.Join(words, " "); got != tc.words {
			t.Errorf("goLimits(%+v) for %s = %q, want %q", tc.lim, tc.g.PlayerName(tc.me), got, tc.words)
		}
		back, err := parseGo(words, tc.g, tc.me)
		if err != nil || back != tc.lim {
			t.Errorf("go %s reads back as %+v, %v; want %+v", strings.Join(words, " "), back, err, tc.lim)
		}
	}
}

// TestAnswerTimeout: the client waits for bestmove twice the engine's time
// and 5 s more, its time being the move time or the clock's time left,
// whichever is less; with neither it waits as long as it takes.
func TestAnswerTimeout(t *testing.T) {
	const s = time.Second
	tests := []struct {
		lim  ai.Limits
		want time.Duration
	}{
		{ai.Limits{}, 0},
		{ai.Limits{Depth: 3}, 0},
		{ai.Limits{MoveTime: s}, 7 * s},
		{ai.Limits{Clock: ai.MoverClock{Left: 2 * s}}, 9 * s},
		{ai.Limits{MoveTime: s, Clock: ai.MoverClock{Left: 2 * s}}, 7 * s},
		{ai.Limits{MoveTime: 3 * s, Clock: ai.MoverClock{Left: 2 * s}}, 9 * s},
	}
	for _, tc := range tests {
		if got := answerTimeout(tc.lim); got != tc.want {
			t.Errorf("answerTimeout(%+v) = %s, want %s", tc.lim, got, tc.want)
		}
	}
}
