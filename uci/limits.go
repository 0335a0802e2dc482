package uci

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// maxMillis bounds every time in a go command (about 24.8 days, the
// largest 32-bit count of milliseconds): beyond it a number is a mistake,
// and durations stay far from overflowing.
const maxMillis = math.MaxInt32

// defaultMoveTime is the time of a go without limits.
const defaultMoveTime = time.Second

// goRange tells whether key is a numeric word of go and the values it
// takes; letters are the seat letters that have clock words. A zero
// movetime, nodes, depth or movestogo would mean no limit at all, so they
// start at 1; a clock may read 0.
func goRange(key string, letters []byte) (lo, hi int64, ok bool) {
	switch key {
	case "movetime", "movestogo":
		return 1, maxMillis, true
	case "nodes":
		return 1, math.MaxInt64, true
	case "depth":
		return 1, ai.MaxDepth, true
	}
	if isClockWord(key, letters) {
		return 0, maxMillis, true
	}
	return 0, 0, false
}

// clockLetters are the seat letters whose clock words go takes: those of
// every registered game, so that one client's go suits every game (rtime
// is no error in a two-player game), and those of g. A seat's letter, not
// its name's first letter, keeps seats such as Blue and Black apart.
func clockLetters(g game.Game) []byte {
	var letters []byte
	for _, s := range append(game.AllSeats(), game.Seats(g)...) {
		if !slices.Contains(letters, s.Letter) {
			letters = append(letters, s.Letter)
		}
	}
	return letters
}

// isClockWord tells whether key is a seat's time or increment: wtime,
// winc.
func isClockWord(key string, letters []byte) bool {
	rest, ok := strings.CutSuffix(key, "time")
	if !ok {
		rest, ok = strings.CutSuffix(key, "inc")
	}
	return ok && len(rest) == 1 && slices.Contains(letters, rest[0])
}

// goWords lists the words of go, for the error that names an unknown one.
func goWords(letters []byte) string {
	words := []string{"movetime", "nodes", "depth"}
	for _, suffix := range []string{"time", "inc"} {
		for _, l := range letters {
			words = append(words, string(l)+suffix)
		}
	}
	return strings.Join(append(words, "movestogo", "infinite"), ", ")
}

// parseGo reads the limits of "go [movetime MS] [nodes N] [depth D] [wtime
// MS btime MS rtime MS winc MS binc MS rinc MS] [movestogo N] [infinite]".
// Each word may come once; the clock words are those of clockLetters.
// The mover's clock words give the engine its clock, which its time
// manager plans by (within movetime, if given too); without any limit the
// search takes defaultMoveTime, and with infinite it runs until stop (or
// the engine's own end).
func parseGo(f []string, g game.Game, me game.Player) (ai.Limits, error) {
	given := map[string]int64{}
	letters := clockLetters(g)
	infinite := false
	for i := 0; i < len(f); i++ {
		key := f[i]
		if _, twice := given[key]; twice || key == "infinite" && infinite {
			return ai.Limits{}, fmt.Errorf("go: %s given twice", key)
		}
		if key == "infinite" {
			infinite = true
			continue
		}
		lo, hi, ok := goRange(key, letters)
		if !ok {
			return ai.Limits{}, fmt.Errorf("go: unknown limit %q (limits: %s)", key, goWords(letters))
		}
		if i+1 >= len(f) {
			return ai.Limits{}, fmt.Errorf("go: %s needs a value, a whole number from %d to %d", key, lo, hi)
		}
		i++
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil || n < lo || n > hi {
			return ai.Limits{}, fmt.Errorf("go: %s %q: want a whole number from %d to %d", key, f[i], lo, hi)
		}
		given[key] = n
	}
	lim := ai.Limits{
		MoveTime: time.Duration(given["movetime"]) * time.Millisecond,
		Nodes:    given["nodes"],
		Depth:    int(given["depth"]),
	}
	clock, atOnce := clockOf(given, g, me)
	lim.Clock = clock
	if atOnce > 0 {
		lim.MoveTime = atOnce
	}
	if lim == (ai.Limits{}) && !infinite {
		lim.MoveTime = defaultMoveTime
	}
	return lim, nil
}

// clockOf is the mover's clock as go gives it (its seat's letter in the
// clock words), for the engine's time manager (ai.PlanTime) to plan by;
// the zero MoverClock when go gave none. A clock that reads 0 gives instead a
// move time of a millisecond: the engine answers at once.
func clockOf(given map[string]int64, g game.Game, me game.Player) (ai.MoverClock, time.Duration) {
	seat := string(g.Seat(me).Letter)
	left, ok := given[seat+"time"]
	switch {
	case !ok:
		return ai.MoverClock{}, 0
	case left == 0:
		return ai.MoverClock{}, time.Millisecond
	}
	return ai.MoverClock{Left: time.Duration(left) * time.Millisecond, Increment: time.Duration(given[seat+"inc"]) * time.Millisecond,
		MovesToGo: int(given["movestogo"])}, 0
}

// goLimits are the words of go that give lim to an engine whose player
// me is to move in g: movetime, nodes and depth, and the mover's clock
// words (its seat's letter) with movestogo. The protocol counts whole
// milliseconds, movetime from 1.
func goLimits(lim ai.Limits, g game.Game, me game.Player) []string {
	var words []string
	if lim.MoveTime > 0 {
		words = append(words, "movetime", strconv.FormatInt(max(lim.MoveTime.Milliseconds(), 1), 10))
	}
	if lim.Nodes > 0 {
		words = append(words, "nodes", strconv.FormatInt(lim.Nodes, 10))
	}
	if lim.Depth > 0 {
		words = append(words, "depth", strconv.Itoa(lim.Depth))
	}
	if c := lim.Clock; c.On() {
		seat := string(g.Seat(me).Letter)
		words = append(words, seat+"time", strconv.FormatInt(min(c.Left.Milliseconds(), maxMillis), 10),
			seat+"inc", strconv.FormatInt(min(c.Increment.Milliseconds(), maxMillis), 10))
		if c.MovesToGo > 0 {
			words = append(words, "movestogo", strconv.Itoa(min(c.MovesToGo, maxMillis)))
		}
	}
	return words
}
