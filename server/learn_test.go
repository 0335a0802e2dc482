package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestLearnLessons checks the tutorials' content against the rules: every
// step's FEN is a position of its game with moves to play, every
// accepted move is legal there, the accepted moves are exactly the legal
// moves the goal describes, and at least one legal move misses it (so
// that a wrong move can be tried and explained).
func TestLearnLessons(t *testing.T) {
	families := map[string]bool{}
	for _, tut := range tutorials() {
		families[tut.Family] = true
		if n := len(tut.Steps); n < 3 || n > 5 {
			t.Errorf("%s has %d steps, want 3 to 5", tut.Family, n)
		}
		if _, ok := rulesFile(tut.Rules); !ok {
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
	for _, tut := range tutorials() {
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

func checkStep(t *testing.T, name string, step lessonStep) {
	t.Helper()
	st, err := step.start()
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

// TestLearnAPI: the list, a tutorial's steps ready to draw, the verdicts
// on a right, a wrong and an illegal move, and the refusals.
func TestLearnAPI(t *testing.T) {
	ts := newTestServer(t, Config{})
	code, body := ts.do("GET", "/api/learn", "", nil)
	var list []learnSummary
	if err := json.Unmarshal(body, &list); code != http.StatusOK || err != nil || len(list) != len(tutorials()) {
		t.Fatalf("GET /api/learn: %d %s", code, body)
	}
	if list[0].Family != "pommel" || list[0].Steps != 5 || !slices.Equal(list[0].Games, []string{"pommel", "pommel-76"}) {
		t.Errorf("the first tutorial is %+v", list[0])
	}
	code, body = ts.do("GET", "/api/learn/punt", "", nil)
	var punt learnView
	if err := json.Unmarshal(body, &punt); code != http.StatusOK || err != nil {
		t.Fatalf("GET /api/learn/punt: %d %s", code, body)
	}
	three := punt.Steps[4]
	if three.Game != "punt-heks-match-3p" || three.Turn != 120 || !slices.Equal(three.Letters, []string{"w", "b", "r"}) ||
		three.Position.Stacks["i3"] != "w" || len(three.Position.EndRows) != 3 || !slices.Contains(three.Legal, "i2-i3") {
		t.Errorf("the three-player step is %+v", three)
	}

	var right, wrong tryView
	code, body = ts.do("GET", "/api/learn/punt/5?move=i2-i3", "", nil)
	if err := json.Unmarshal(body, &right); code != http.StatusOK || err != nil || !right.Correct ||
		right.Position.Stacks["i3"] != "wb" || right.Message != lastPuntDone(t) || right.Effects.Move != "i2-i3" {
		t.Errorf("the right move: %d %s", code, body)
	}
	code, body = ts.do("GET", "/api/learn/pommel/2?move="+url.QueryEscape("b2xb4"), "", nil)
	if err := json.Unmarshal(body, &wrong); code != http.StatusOK || err != nil || wrong.Correct ||
		wrong.Message != "b2xb4 is a legal move, but it takes 1 piece, and the goal is 3 in one move. Look for the soldier whose first jump leads on to more." {
		t.Errorf("the wrong move: %d %s", code, body)
	}
	code, body = ts.do("GET", "/api/learn/eximo/4?move="+url.QueryEscape("b2xd2xd4xd6xd8@b2@c2"), "", nil)
	var won tryView
	if err := json.Unmarshal(body, &won); code != http.StatusOK || err != nil || !won.Correct || !strings.Contains(won.Ended, "Black wins") {
		t.Errorf("the winning capture: %d %s", code, body)
	}

	for _, c := range []struct{ path, code string }{
		{"/api/learn/chess", codeNotFound},
		{"/api/learn/chess/1?move=e2-e4", codeNotFound},
		{"/api/learn/pommel/0?move=c1-c4", codeNotFound},
		{"/api/learn/pommel/6?move=c1-c4", codeNotFound},
		{"/api/learn/pommel/x?move=c1-c4", codeNotFound},
		{"/api/learn/pommel/1?move=c1-c5", codeIllegalMove},
		{"/api/learn/pommel/1?move=", codeIllegalMove},
		{"/api/learn/pommel/1?move=" + strings.Repeat("z", 500), codeIllegalMove},
	} {
		code, body := ts.do("GET", c.path, "", nil)
		if errorCode(body) != c.code || code != statusOf[c.code] {
			t.Errorf("GET %.60s: %d %s, want %s", c.path, code, body, c.code)
		}
		if len(body) > 400 {
			t.Errorf("GET %.60s: the refusal quotes too much: %d bytes", c.path, len(body))
		}
	}
}

// lastPuntDone is the done text of Punt's last step.
func lastPuntDone(t *testing.T) string {
	t.Helper()
	tut, ok := tutorialOf("punt")
	if !ok {
		t.Fatal("no Punt tutorial")
	}
	return tut.Steps[4].Done
}

// TestLearnPages: /learn and each family's page are the shell the script
// draws; an unknown family is a 404 page that names the known ones and
// quotes the unknown one escaped.
func TestLearnPages(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, path := range []string{"/learn", "/learn/pommel", "/learn/eximo", "/learn/checkers-2011", "/learn/punt"} {
		code, body := ts.do("GET", path, "", nil)
		if code != http.StatusOK || !strings.Contains(string(body), `data-page="learn"`) {
			t.Errorf("GET %s: %d", path, code)
		}
	}
	code, body := ts.do("GET", "/learn/%3Cb%3Echess", "", nil)
	page := string(body)
	if code != http.StatusNotFound || !strings.Contains(page, "pommel, eximo, checkers-2011, punt") ||
		strings.Contains(page, "<b>chess") || !strings.Contains(page, "&lt;b&gt;chess") {
		t.Errorf("GET /learn/<b>chess: %d %s", code, page)
	}
}
