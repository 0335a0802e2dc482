package ai

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// numericParam is a numeric parameter of an engine, with its range.
type numericParam struct {
	kind, key string
	lo, hi    string
	float     bool
}

// numericParams is every numeric parameter of every engine.
func numericParams() []numericParam {
	return []numericParam{
		{"uct", "c", "0", "100", true},
		{"uct", "playout", "1", "100000", false},
		{"uct", "tree", "1", "16384", false},
		{"mcts", "c", "0", "100", true},
		{"mcts", "cutoff", "0", "10000", false},
		{"mcts", "scale", "1", "100000", true},
		{"mcts", "tt", "0", "1", false},
		{"mcts", "tree", "1", "16384", false},
		{"ab", "depth", "1", "64", false},
		{"ab", "tt", "10", "26", false},
		{"ab", "threads", "1", "64", false},
		{"ai", "level", "1", "6", false},
	}
}

// TestParamsRefused: every numeric parameter refuses NaN, the infinities,
// values out of its range and malformed numbers, and the error names the
// parameter and its range.
func TestParamsRefused(t *testing.T) {
	bad := []string{"NaN", "nan", "Inf", "-Inf", "+Inf", "inf", "Infinity", "-1", "-0.5", "1e300", "99999999999999999999", "1x", "0x", "1,5", "--1", " 1"}
	for _, p := range numericParams() {
		values := append([]string{outOfRange(p.hi)}, bad...)
		if p.lo != "0" {
			values = append(values, "0")
		}
		if !p.float {
			values = append(values, "1.5", "1e3")
		}
		for _, v := range values {
			spec := fmt.Sprintf("%s:%s=%s", p.kind, p.key, v)
			t.Run(spec, func(t *testing.T) {
				e, err := New(spec, 1)
				if err == nil || e != nil {
					t.Fatalf("engine %v, error %v; want nil and an error", e, err)
				}
				number := "a whole number"
				if p.float {
					number = "a number"
				}
				if v == "1,5" { // the comma splits parameters
					return
				}
				want := fmt.Sprintf("player %q: %s=%s: want %s from %s to %s", spec, p.key, clip.Bare(v), number, p.lo, p.hi)
				if err.Error() != want {
					t.Errorf("error %q, want %q", err, want)
				}
			})
		}
	}
}

// outOfRange is a whole number just above hi.
func outOfRange(hi string) string {
	var n int
	fmt.Sscan(hi, &n)
	return fmt.Sprint(n + 1)
}

// TestParamsAccepted: both ends of every range are accepted, and so are
// the spellings of a number that ParseFloat reads, for the floats.
func TestParamsAccepted(t *testing.T) {
	for _, p := range numericParams() {
		values := []string{p.lo, p.hi}
		if p.float {
			values = append(values, p.hi+".0", "1.5", "2e1")
		}
		for _, v := range values {
			spec := fmt.Sprintf("%s:%s=%s", p.kind, p.key, v)
			if spec == "ab:tt=26" {
				continue // a table of 1 GiB: TestFootprint knows its size without making it
			}
			if _, err := parseConfig(spec); err != nil {
				t.Errorf("%s: %v", spec, err)
			}
		}
	}
}

func TestSpecErrors(t *testing.T) {
	long := strings.Repeat("x", 5000)
	tests := []struct{ spec, want string }{
		{"uct:c=NaN", `player "uct:c=NaN": c=NaN: want a number from 0 to 100`},
		{"mcts:scale=NaN", `player "mcts:scale=NaN": scale=NaN: want a number from 1 to 100000`},
		{"uct:c=1,c=2", `player "uct:c=1,c=2": parameter "c" given twice`},
		{"uct:c", `player "uct:c": write parameters as key=value`},
		{"uct:c=", `player "uct:c=": write parameters as key=value`},
		{"ab:deep=3,wide=2", `player "ab:deep=3,wide=2": unknown parameter "deep"`},
		{"ai", `player "ai": ai needs level=1..6`},
		{"chess", `unknown player "chess": use random, uct, mcts, ab or ai:level=1..6`},
		{"uct:c=" + long, `player "uct:c=` + long[:74] + `"…: c="` + long[:80] + `"…: want a number from 0 to 100`},
		{"uct:c=\t1", `player "uct:c=\t1": c="\t1": want a number from 0 to 100`},
		{long, `unknown player "` + long[:80] + `"…: use random, uct, mcts, ab or ai:level=1..6`},
	}
	for _, tc := range tests {
		if _, err := New(tc.spec, 1); err == nil || err.Error() != tc.want {
			t.Errorf("%.30q: error %v, want %s", tc.spec, err, tc.want)
		}
	}
}

// TestExtremeParamsSearch: engines made with the ends of their ranges
// search a few games without panicking and answer a legal move.
func TestExtremeParamsSearch(t *testing.T) {
	specs := []string{
		"uct:c=0,playout=1,tree=1", "uct:c=100,playout=100000",
		"mcts:c=0,cutoff=0,scale=1,tree=1", "mcts:c=100,cutoff=10000,scale=100000,tt=1",
		"mcts:c=0,scale=100000,tt=1,tree=1",
		"ab:depth=1,tt=10", "ab:depth=64,tt=10", "ai:level=1", "ai:level=6", "random",
	}
	games := []string{"pommel", "eximo", "checkers-2011", "punt-heks-match-3p"}
	lim := Limits{Nodes: 300, MoveTime: 5 * time.Second}
	if testing.Short() {
		games = games[:2]
	}
	for _, spec := range specs {
		for _, id := range games {
			t.Run(spec+" "+id, func(t *testing.T) {
				s := newState(t, id, "")
				e := mustEngine(t, spec)
				for range 3 { // the same engine again, as in a game (mcts reuses its tree)
					info := e.Search(context.Background(), s, lim, nil)
					if info.Err != nil {
						t.Fatal(info.Err)
					}
					if _, err := game.ParseMove(s, info.Move.Text(s.Game().Board())); err != nil {
						t.Fatal(err)
					}
					s.Play(info.Move)
					if s.Result().Over() {
						break
					}
				}
			})
		}
	}
}
