package learn

import (
	"errors"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/docs"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// TestLearnLessons checks the tutorials' content against the rules: every
// step's FEN is a position of its game with moves to play, every
// accepted move is legal there, the accepted moves are exactly the legal
// moves the goal describes, and at least one legal move misses it (so
// that a wrong move can be tried and explained).
func TestLearnLessons(t *testing.T) {
	families := map[string]bool{}
	for _, tut := range Tutorials() {
		families[tut.Family] = true
		if n := len(tut.Steps); n < 3 || n > 5 {
			t.Errorf("%s has %d steps, want 3 to 5", tut.Family, n)
		}
		if _, err := fs.Stat(docs.Rules(), tut.Rules+".md"); err != nil {
			t.Errorf("%s: no rules page %q", tut.Family, tut.Rules)
		}
		for _, id := range tut.Games {
			if _, ok := game.Lookup(id); !ok {
				t.Errorf("%s: unknown game %q", tut.Family, id)
			}
		}
		for i, step := range tut.Steps {
			if !slices.Contains(tut.Games, step.Game) {
				t.Errorf("%s step %d is played in %s, not one of the tutorial's games", tut.Family, i+1, step.Game)
			}
			checkStep(t, tut.Family+" step "+step.Title, step)
		}
	}
	// Every game of the program is taught by one tutorial.
	taught := map[string]bool{}
	for _, tut := range Tutorials() {
		for _, id := range tut.Games {
			taught[id] = true
		}
	}
	for _, d := range game.All() {
		if !taught[d.ID] {
			t.Errorf("no tutorial teaches %s", d.ID)
		}
	}
}

func checkStep(t *testing.T, name string, step Step) {
	t.Helper()
	st, err := step.Start()
	if err != nil {
		t.Errorf("%s: the FEN %q: %v", name, step.FEN, err)
		return
	}
	if st.Result().Over() {
		t.Errorf("%s: the game is over in %q", name, step.FEN)
	}
	if step.Title == "" || step.Text == "" || step.Goal == "" || step.Done == "" {
		t.Errorf("%s: a title, text, goal or done text is missing", name)
	}
	legal := game.MoveTexts(st)
	for _, m := range step.Accept {
		if !slices.Contains(legal, m) {
			t.Errorf("%s: accepted move %s is not legal in %q; legal: %v", name, m, step.FEN, legal)
		}
	}
	var reached []string
	for _, m := range legal {
		p, err := play(st, m)
		if err != nil {
			t.Fatalf("%s: legal move %s: %v", name, m, err)
		}
		ok, why := step.goal.check(p)
		if ok {
			reached = append(reached, m)
		} else if why == "" {
			t.Errorf("%s: %s misses the goal with no reason", name, m)
		}
	}
	accepted := slices.Sorted(slices.Values(step.Accept))
	if !slices.Equal(accepted, reached) {
		t.Errorf("%s: accepts %v, but the goal is reached by exactly %v", name, accepted, reached)
	}
	if len(reached) == len(legal) {
		t.Errorf("%s: every legal move reaches the goal; a step needs a wrong move", name)
	}
}

// TestLearnGoals checks each kind of goal on a position where the
// answer is worked out by hand from the rules page, both ways.
func TestLearnGoals(t *testing.T) {
	cases := []struct {
		game, fen, move string
		goal            goal
		want            bool
		why             string // part of the reason a move misses the goal
	}{
		{"pommel", "W:Wc1,c2,c3:Bg5", "c1-c4", goal{kind: goalPath, from: "c1", to: "c4"}, true, ""},
		{"pommel", "W:Wc1,c2,c3:Bg5", "c2-c4", goal{kind: goalPath, from: "c1", to: "c4"}, false, "take the piece on c1 to c4"},
		{"pommel", "W:Wd2:Bd3,d4,e5", "d2xd5", goal{kind: goalCapture, n: 2}, true, ""},
		{"pommel", "W:Wd2:Bd3,d4,e5", "d2xd5", goal{kind: goalCapture, n: 3}, false, "takes 2 pieces, and the goal is 3"},
		{"pommel", "W:Wc4:Bc5,d6", "c4xc6xe5", goal{kind: goalPromote}, false, "promotes nothing"}, // passes c6, ends on e5
		{"pommel", "W:Wd3:Bd4,d6", "d3xd5xd7", goal{kind: goalPromote}, true, ""},
		{"eximo", "B:Wh8:Bc2,c3,b5,d5", "c2-c4-a6", goal{kind: goalOwnJumps, n: 2}, true, ""},
		{"eximo", "B:Wh8:Bc2,c3,b5,d5", "c3-c4", goal{kind: goalOwnJumps, n: 2}, false, "lands once, and the goal is a jumping move that lands twice"},
		{"eximo", "B:Wa5:Bb1,c1,d1,f1,g1,b2,c2,d2,e2,f2,d7", "d7-d8@e1@g2", goal{kind: goalLeave, n: 2}, true, ""},
		{"eximo", "B:Wa5:Bb1,c1,d1,f1,g1,b2,c2,d2,e2,f2,d7", "d7-d8@e1@g2", goal{kind: goalLeave, n: 1}, false, "drops 2 men, and the goal is 1"},
		{"checkers-2011", "W:c3=w,d4=b,f3=w,g4=B,a8=b", "c3xe5", goal{kind: goalTakeKing}, false, "takes no king"},
		{"checkers-2011", "W:c3=w,d4=Wb,h8=B", "c3xe5", goal{kind: goalLiberate}, true, ""},
		{"checkers-2011", "W:c3=w,d4=Wbb,h8=B", "c3xe5", goal{kind: goalLiberate}, false, "frees none"},
		{"checkers-2011", "W:f3=w,b4=w,c4=wb,d4=B,h8=B", "f3-e4", goal{kind: goalEliminate, n: 2}, true, ""},
		{"checkers-2011", "W:f3=w,b4=w,c4=wb,d4=B,h8=B", "f3-e4", goal{kind: goalCapture, n: 2}, false, "takes no piece"},                  // a sandwich is no jump
		{"punt-match", "W:a3=w,c3=bw,f3=bbw,a7=b", "a3-c3", goal{kind: goalTakeOver}, false, "lands on no pawn or pile of another player"}, // lands on its own pile
		{"punt-heks-match", "W:a1=wb,a3=w,h3=b,i2=w,i4=wb", "a3-a1", goal{kind: goalTakeOver}, true, ""},
		{"punt-match", "W:a4=w,c5=bw,g7=b", "a4-a7", goal{kind: goalScore, n: 1}, true, ""},
		{"punt-heks-match", "W:a1=wb,h1=w,i3=bw", "h1-h2", goal{kind: goalWin}, false, "the game goes on"},
		{"punt-match", "W:a4=w,c5=bw,g7=b", "a4-a5", goal{kind: goalScore, n: 2}, false, "scores nothing, and the goal is to score 2"},
		{"punt-match", "W:a4=w,c5=bw,g7=b", "a4-a7", goal{kind: goalScore, n: 2}, false, "changes your score by 1"},
	}
	for _, c := range cases {
		rules, err := game.New(c.game, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, err := rules.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		p, err := play(st, c.move)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.move, err)
		}
		got, why := c.goal.check(p)
		if got != c.want {
			t.Errorf("%s %s, goal %+v: %v (%s), want %v", c.fen, c.move, c.goal, got, why, c.want)
		}
		if !got && !strings.Contains(why, c.why) {
			t.Errorf("%s %s, goal %+v: the reason is %q, want it to say %q", c.fen, c.move, c.goal, why, c.why)
		}
	}
}

// TestTry: the verdicts on a right, a wrong and a winning move, and the
// refusals, each with its code.
func TestTry(t *testing.T) {
	right, err := Try("punt", 5, "i2-i3")
	if err != nil || !right.Correct || right.Move != "i2-i3" || right.Effects.Move != "i2-i3" || right.Ended != "" {
		t.Fatalf("the right move: %+v, %v", right, err)
	}
	punt, _ := Find("punt")
	if right.Message != punt.Steps[4].Done {
		t.Errorf("the right move says %q, want the step's done text", right.Message)
	}
	i3, _ := right.After.Game().Board().Parse("i3")
	if right.After.Owner(i3) != 1 {
		t.Errorf("after i2-i3 the pile on i3 is player %d's, want Black's (1)", right.After.Owner(i3))
	}

	wrong, err := Try("pommel", 2, "b2xb4")
	if err != nil || wrong.Correct ||
		wrong.Message != "b2xb4 is a legal move, but it takes 1 piece, and the goal is 3 in one move. Look for the soldier whose first jump leads on to more." {
		t.Errorf("the wrong move: %+v, %v", wrong, err)
	}
	won, err := Try("eximo", 4, "b2xd2xd4xd6xd8@b2@c2")
	if err != nil || !won.Correct || !strings.Contains(won.Ended, "Black wins") {
		t.Errorf("the winning capture: %+v, %v", won, err)
	}

	for _, c := range []struct {
		family string
		step   int
		move   string
		code   Code
		says   string
	}{
		{"chess", 1, "e2-e4", NoTutorial, `no tutorial "chess"; want one of pommel, eximo, checkers-2011, punt`},
		{"pommel", 0, "c1-c4", NoStep, `no step "0" in tutorial pommel: its steps are 1 to 5`},
		{"pommel", 6, "c1-c4", NoStep, "its steps are 1 to 5"},
		{"pommel", 1, "c1-c5", IllegalMove, "c1-c5"},
		{"pommel", 1, "", IllegalMove, ""},
		{"pommel", 1, strings.Repeat("z", 500), IllegalMove, "zzz"},
		{strings.Repeat("y", 500), 1, "c1-c4", NoTutorial, "yyy"},
	} {
		_, err := Try(c.family, c.step, c.move)
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Message, c.says) {
			t.Errorf("Try(%.20q, %d, %.20q): %v, want %s saying %q", c.family, c.step, c.move, err, c.code, c.says)
			continue
		}
		if len(e.Message) > 300 {
			t.Errorf("Try(%.20q, %d, %.20q): the refusal quotes too much: %d bytes", c.family, c.step, c.move, len(e.Message))
		}
	}
}

// TestLearnKnowsNoHTTP: the tutorials serve any transport, so the package
// imports no net/http, directly or through another package.
func TestLearnKnowsNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "net/http/") {
			t.Errorf("learn depends on %s", dep)
		}
	}
}
