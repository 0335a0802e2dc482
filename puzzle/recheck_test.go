package puzzle

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
)

// TestRecheck: a deeper search that agrees confirms a solution; one that
// prefers another move, finds the lead too small or a better reply
// names the move it faults.
func TestRecheck(t *testing.T) {
	fen := "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2"
	p := Puzzle{ID: "eximo-test", Game: "eximo", FEN: fen, Solution: []string{"g2xe4"}, VerifyNodes: DefaultVerify}
	deeper := func(scores map[string]int) Scorer { return byMove(scores, scores, -300) }
	for _, tc := range []struct {
		name   string
		scorer Scorer
		fault  string
	}{
		{"the deeper search agrees", deeper(map[string]int{"g2xe4": 300}), ""},
		{"the deeper search prefers another move", deeper(map[string]int{"e3xg3": 300}), "not the best"},
		{"the lead shrank", deeper(map[string]int{"g2xe4": -280}), "under the margin"},
	} {
		faults, err := RecheckPuzzle(context.Background(), p, Recheck{Scorer: tc.scorer})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		switch {
		case tc.fault == "" && len(faults) != 0:
			t.Errorf("%s: faults %v, want none", tc.name, faults)
		case tc.fault != "" && (len(faults) != 1 || faults[0].Index != 0 || !strings.Contains(faults[0].Why, tc.fault)):
			t.Errorf("%s: faults %v, want one on the first move saying %q", tc.name, faults, tc.fault)
		}
	}
}

// TestRecheckReply: a reply of the solution that the deeper search finds
// clearly worse than another is faulted; one within the slack is not.
func TestRecheckReply(t *testing.T) {
	s := position(t, "eximo", "B:Wb6,c6,d6,f6,g7,b8:Bb1,c1,d1,e2,g2,c3")
	solver := s.ToMove()
	// The first legal move leads by far for the solver; the replies
	// score by reply.
	scorer := func(reply map[int]int) fakeScorer {
		return func(st game.State, _ int64, move string) int {
			moves := st.Moves(nil)
			for i, m := range moves {
				if m.Text(st.Game().Board()) != move {
					continue
				}
				if st.ToMove() != solver {
					return reply[i]
				}
				if i == 0 {
					return 400
				}
			}
			return -400
		}
	}
	p, ok, err := FindIn(context.Background(), s, Config{Scorer: scorer(map[int]int{0: 0}), MaxMoves: 2})
	if err != nil || !ok || len(p.Solution) != 3 {
		t.Fatalf("found %+v %v (%v), want a solution of three moves", p, ok, err)
	}
	p.VerifyNodes = DefaultVerify
	for _, tc := range []struct {
		name  string
		reply map[int]int
		fault bool
	}{
		{"the reply is still the best", map[int]int{0: 0}, false},
		{"another reply is a little better", map[int]int{0: 0, 1: 5}, false},
		{"another reply is much better", map[int]int{0: 0, 1: 400}, true},
	} {
		faults, err := RecheckPuzzle(context.Background(), p, Recheck{Scorer: scorer(tc.reply)})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := len(faults) == 1 && faults[0].Index == 1 && strings.Contains(faults[0].Why, "weak reply")
		if got != tc.fault || (!tc.fault && len(faults) != 0) {
			t.Errorf("%s: faults %v, want a fault on the reply: %v", tc.name, faults, tc.fault)
		}
	}
}

// TestRecheckTables: in a position the tables hold, the tables judge:
// the only winning move is confirmed, a move that wins among others is
// not, and a move that throws the win away is not.
func TestRecheckTables(t *testing.T) {
	_, tables := endgametest.Build(t, "pommel", nil, 2)
	for _, tc := range []struct {
		fen, move, fault string
	}{
		{"W:WKa1:Bf3", "a1-a5", ""},
		{"W:WKa1:Bf3", "a1-b1", "turns a win into a loss"},
		{"W:WKa4:Bc6", "a4-a5", "moves keep the win"},
	} {
		s := position(t, "pommel", tc.fen)
		p := Puzzle{ID: "pommel-test", Game: "pommel", FEN: tc.fen, Solution: []string{tc.move}, VerifyNodes: DefaultVerify}
		if _, err := game.ParseMove(s, tc.move); err != nil {
			t.Fatalf("%s %s: %v", tc.fen, tc.move, err)
		}
		faults, err := RecheckPuzzle(context.Background(), p, Recheck{Tables: tables})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.fen, tc.move, err)
		}
		if tc.fault == "" && len(faults) != 0 || tc.fault != "" && (len(faults) != 1 || !strings.Contains(faults[0].Why, tc.fault)) {
			t.Errorf("%s %s: faults %v, want %q", tc.fen, tc.move, faults, tc.fault)
		}
	}
}

// TestRecheckRefusals: a puzzle that cannot be replayed, or a recheck no
// deeper than the puzzle's own verification, is an error.
func TestRecheckRefusals(t *testing.T) {
	good := Puzzle{ID: "x", Game: "eximo", FEN: "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2", Solution: []string{"g2xe4"}, VerifyNodes: DefaultVerify}
	for _, tc := range []struct {
		name string
		edit func(p *Puzzle, rc *Recheck)
	}{
		{"an unknown game", func(p *Puzzle, _ *Recheck) { p.Game = "chess" }},
		{"a bad FEN", func(p *Puzzle, _ *Recheck) { p.FEN = "W:nonsense" }},
		{"an illegal move", func(p *Puzzle, _ *Recheck) { p.Solution = []string{"a1-a2"} }},
		{"an even solution", func(p *Puzzle, _ *Recheck) { p.Solution = []string{"g2xe4", "f8-f7"} }},
		{"a recheck no deeper", func(_ *Puzzle, rc *Recheck) { rc.Nodes = DefaultVerify }},
		{"a recheck too deep", func(_ *Puzzle, rc *Recheck) { rc.Nodes = MaxNodes + 1 }},
		{"a margin above 1", func(_ *Puzzle, rc *Recheck) { rc.Margin = 1.5 }},
		{"a negative slack", func(_ *Puzzle, rc *Recheck) { rc.ReplySlack = -0.1 }},
	} {
		p, rc := good, Recheck{Scorer: byMove(map[string]int{"g2xe4": 300}, map[string]int{"g2xe4": 300}, -300)}
		tc.edit(&p, &rc)
		if _, err := RecheckPuzzle(context.Background(), p, rc); err == nil {
			t.Errorf("%s: rechecked, want an error", tc.name)
		}
	}
}
