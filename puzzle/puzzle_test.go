package puzzle

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// position parses fen in game id.
func position(t *testing.T, id, fen string) game.State {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fakeScorer gives each legal move the score score(s, nodes, move) and
// lists them best first (ties in the order of Moves), as SearchLines
// does, so that a test decides what every search finds.
type fakeScorer func(s game.State, nodes int64, move string) int

func (f fakeScorer) Lines(_ context.Context, s game.State, nodes int64) ([]ai.Line, error) {
	var lines []ai.Line
	for _, m := range s.Moves(nil) {
		lines = append(lines, ai.Line{Score: f(s, nodes, m.Text(s.Game().Board())), PV: []game.Move{m}})
	}
	slices.SortStableFunc(lines, func(a, b ai.Line) int { return b.Score - a.Score })
	return lines, nil
}

// byMove scores the moves named in finding (at the finding search) and
// verifying (at the deeper one); every other move scores rest.
func byMove(finding, verifying map[string]int, rest int) fakeScorer {
	return func(_ game.State, nodes int64, move string) int {
		scores := finding
		if nodes > DefaultNodes {
			scores = verifying
		}
		if v, ok := scores[move]; ok {
			return v
		}
		return rest
	}
}

// TestFindsTheWinningCapture: ab finds the one capture that wins, by the
// real curve and searches.
//
//	8  .  .  .  .  W  W  .  .
//	7  .  .  .  .  .  .  .  .
//	6  .  .  .  .  .  .  .  .
//	5  .  .  .  .  .  .  .  .
//	4  .  .  .  .  .  .  .  .
//	3  .  .  .  .  B  W  .  W
//	2  .  .  B  .  .  .  B  .
//	1  .  .  .  .  .  B  .  .
//	   a  b  c  d  e  f  g  h
//	Black to move
//
// Both e3xg3 (sideways) and g2xe4 take f3; only g2xe4 leaves no man
// that h3 can take back.
func TestFindsTheWinningCapture(t *testing.T) {
	s := position(t, "eximo", "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2")
	p, ok, err := FindIn(context.Background(), s, Config{})
	if err != nil || !ok {
		t.Fatalf("not found: %v", err)
	}
	if p.Solution[0] != "g2xe4" || len(p.Solution)%2 != 1 || p.Margin < DefaultMargin {
		t.Errorf("puzzle %+v, want the solution to start g2xe4, odd length, margin at least %g", p, DefaultMargin)
	}
	if p.Game != "eximo" || p.FEN != s.FEN() || p.ID == "" || p.Rating == 0 || !slices.Contains(p.Themes, OneMove) && len(p.Solution) == 1 {
		t.Errorf("puzzle %+v: fields", p)
	}
}

// TestNotAPuzzle: positions without one clearly best move are refused.
func TestNotAPuzzle(t *testing.T) {
	eximo := "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2" // four men each, several moves
	for _, tc := range []struct {
		name   string
		id     string
		fen    string
		scorer Scorer
	}{
		{"two moves equally good", "eximo", eximo,
			byMove(map[string]int{"g2xe4": 300, "e3xg3": 300}, map[string]int{"g2xe4": 300, "e3xg3": 300}, -300)},
		{"the lead just short of the margin", "eximo", eximo,
			// E(20)-E(0) by eximo's curve is about 0.06.
			byMove(map[string]int{"g2xe4": 20}, map[string]int{"g2xe4": 20}, 0)},
		{"already decided: the second move wins too", "eximo", eximo,
			byMove(map[string]int{"g2xe4": ai.Mate - 5}, map[string]int{"g2xe4": ai.Mate - 5}, 600)},
		// Three moves promote and win at once (ab scores all three as
		// wins): no move is the only one.
		{"several wins (real search)", "pommel", "B:Wd5:Ba6,e2,g5", nil},
		// Two equal captures of the one man and nothing else to do.
		{"one legal move is no puzzle", "eximo", "B:Wd5:Bd4", nil},
	} {
		s := position(t, tc.id, tc.fen)
		p, ok, err := FindIn(context.Background(), s, Config{Scorer: tc.scorer})
		if err != nil || ok {
			t.Errorf("%s: found %+v (%v), want none", tc.name, p, err)
		}
	}
}

// TestVerification: a candidate of the finding search is kept only when
// the deeper search finds the same move unique by the margin.
func TestVerification(t *testing.T) {
	s := position(t, "eximo", "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2")
	finding := map[string]int{"g2xe4": 300} // every other move -300
	for _, tc := range []struct {
		name      string
		verifying map[string]int
		want      bool
	}{
		{"the deeper search agrees", map[string]int{"g2xe4": 300}, true},
		{"the deeper search prefers another move", map[string]int{"e3xg3": 300}, false},
		{"the deeper search finds the lead too small", map[string]int{"g2xe4": -250}, false},
	} {
		var st Stats
		_, ok, err := FindIn(context.Background(), s, Config{Scorer: byMove(finding, tc.verifying, -300), MaxMoves: 1, Stats: &st})
		if err != nil || ok != tc.want {
			t.Errorf("%s: found %v (%v), want %v", tc.name, ok, err, tc.want)
		}
		if want := (Stats{Positions: 1, Candidates: 1, Dropped: map[bool]int{true: 0, false: 1}[tc.want]}); st != want {
			t.Errorf("%s: stats %+v, want %+v", tc.name, st, want)
		}
	}
}

// TestLine: the line goes on while the solver's next move is unique,
// the opponent replying with its best move, and ends with a solver move.
func TestLine(t *testing.T) {
	s := position(t, "eximo", "B:Wb6,c6,d6,f6,g7,b8:Bb1,c1,d1,e2,g2,c3")
	solver := s.ToMove()
	// first: the first legal move of every position leads by far, the
	// opponent's positions included.
	first := func(s game.State, _ int64, move string) int {
		if move == s.Moves(nil)[0].Text(s.Game().Board()) {
			return 400
		}
		return -400
	}
	// once: only the starting position has a unique move; afterwards
	// all the solver's moves are alike.
	once := func(st game.State, n int64, move string) int {
		if st.Ply() == s.Ply() || st.ToMove() != solver {
			return first(st, n, move)
		}
		return 0
	}
	for _, tc := range []struct {
		name     string
		scorer   fakeScorer
		maxMoves int
		want     int
	}{
		{"forced all the way, to the maximum", first, 3, 5},
		{"a maximum of one", first, 1, 1},
		{"the second move is not forced: the reply is dropped", once, 4, 1},
	} {
		p, ok, err := FindIn(context.Background(), s, Config{Scorer: tc.scorer, MaxMoves: tc.maxMoves})
		if err != nil || !ok {
			t.Fatalf("%s: not found (%v)", tc.name, err)
		}
		if len(p.Solution) != tc.want {
			t.Errorf("%s: solution %v, want %d moves", tc.name, p.Solution, tc.want)
		}
		// The solution is playable from the position, alternating sides.
		c := s.Clone()
		for i, text := range p.Solution {
			m, err := game.ParseMove(c, text)
			if err != nil {
				t.Fatalf("%s: move %d: %v", tc.name, i+1, err)
			}
			if want := i%2 == 0; (c.ToMove() == solver) != want {
				t.Errorf("%s: move %d by the wrong side", tc.name, i+1)
			}
			c.Play(m)
		}
	}
}

// TestThemes: each theme from the effects the rules report for a real
// move of its game.
func TestThemes(t *testing.T) {
	for _, tc := range []struct {
		name, id, fen, move string
		want, not           []string
	}{
		{"a Pommel captain's leap", "pommel", "W:Wb3,b4,Kf4,g1:Bf2,f5,f6", "f4xf7", []string{Leap, Captain}, []string{Tempo, MultiJump}},
		{"a sandwich", "checkers-2011", "W:c5=w,d5=b,e5=wbb,g5=w,b2=w,g2=w,d8=b,h7=b,g8=b", "g5-f5", []string{Sandwich}, []string{Tempo}},
		{"a king's double jump taking prisoners", "checkers-2011", "W:d3=W,d4=wbb,g1=w,g2=b,g4=b,a1=w,b7=b,h7=b,e8=b", "d3xd5xd3",
			[]string{MultiJump, King, Takeover}, []string{Leap, Captain}},
		{"Eximo's drops", "eximo", "B:Wc3,d7:Ba1,b1,c1,d1,e1,g1,d2,e2,b4,d6", "d6xd8@b2@c2", []string{Drop}, []string{Tempo}},
		{"Punt lands on a pile", "punt-match", "W:d3=w,d5=b", "d3-d5", []string{Takeover}, []string{Tempo}},
		{"a quiet move", "punt-match", "W:d3=w,d5=b", "d3-d4", []string{Tempo, OneMove, Endgame}, []string{Takeover}},
		{"a promotion", "pommel", "B:Wd5:Ba6,e2,g5", "e2-e1", []string{Promotion, Endgame}, []string{Tempo}},
	} {
		s := position(t, tc.id, tc.fen)
		m, err := game.ParseMove(s, tc.move)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		themes, _, err := Themes(s, []game.Move{m})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, w := range tc.want {
			if !slices.Contains(themes, w) {
				t.Errorf("%s: themes %v, want %s", tc.name, themes, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(themes, n) {
				t.Errorf("%s: themes %v, want no %s", tc.name, themes, n)
			}
		}
	}
}

// TestLengthThemes: the number of solver moves names the length.
func TestLengthThemes(t *testing.T) {
	s := position(t, "eximo", "B:Wb6,c6,d6,f6,g7,b8:Bb1,c1,d1,e2,g2,c3")
	c := s.Clone()
	var line []game.Move
	for range 7 {
		m := c.Moves(nil)[0]
		line = append(line, m)
		c.Play(m)
	}
	for n, want := range map[int]string{1: OneMove, 3: Short, 5: Long, 7: VeryLong} {
		themes, _, err := Themes(s, line[:n])
		if err != nil || !slices.Contains(themes, want) {
			t.Errorf("%d moves: themes %v (%v), want %s", n, themes, err, want)
		}
	}
}

// TestDedup: a position and its mirror image share a key; other
// positions do not; Dedup keeps the first of each key.
func TestDedup(t *testing.T) {
	for _, tc := range []struct{ id, fen, other string }{
		{"pommel", "W:Wb3,b4,Kf4,g1:Bf2,f5,f6", "W:Wb3,b4,Kf4,g1:Bf2,f5,f7"},
		{"eximo", "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2", "W:Wf3,h3,e8,f8:Bf1,g2,e3,c2"},
		{"checkers-2011", "W:c5=w,d5=b,e5=wbb,g5=w,b2=w,g2=w,d8=b,h7=b,g8=b", "W:c5=w,d5=b,e5=wbb,g5=w,b2=w,g2=w,d8=b,h7=b,g8=B"},
	} {
		s := position(t, tc.id, tc.fen)
		m, err := game.Mirror(s)
		if err != nil {
			t.Fatal(err)
		}
		if m.FEN() == s.FEN() {
			t.Fatalf("%s: the mirror is the position itself; pick another", tc.id)
		}
		if Key(s) != Key(m) {
			t.Errorf("%s: keys %q and %q of a position and its mirror", tc.id, Key(s), Key(m))
		}
		o := position(t, tc.id, tc.other)
		if Key(o) == Key(s) {
			t.Errorf("%s: another position has the same key", tc.id)
		}
		ps := Dedup([]Puzzle{{ID: "a", Key: Key(s)}, {ID: "b", Key: Key(o)}, {ID: "c", Key: Key(m)}, {ID: "d", Key: Key(s)}})
		if len(ps) != 2 || ps[0].ID != "a" || ps[1].ID != "b" {
			t.Errorf("%s: dedup kept %+v, want a and b", tc.id, ps)
		}
	}
	// Three players: no mirror, the FEN is the key.
	g, err := game.New("punt-heks-match-3p", nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Start(); Key(s) != s.FEN() {
		t.Errorf("3p key %q, want the FEN", Key(s))
	}
}

// TestDeterministic: the same game and configuration give the same
// puzzles, by the real searches.
func TestDeterministic(t *testing.T) {
	g, err := game.New("eximo", nil)
	if err != nil {
		t.Fatal(err)
	}
	start, moves, err := SelfPlay(context.Background(), g, 1, 1, 200, 8)
	if err != nil {
		t.Fatal(err)
	}
	moves = moves[:min(len(moves), 40)]
	cfg := Config{Nodes: 2000, VerifyNodes: 8000, Source: "test"}
	a, err := Find(context.Background(), g, start, moves, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Find(context.Background(), g, start, moves, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two runs differ:\n%+v\n%+v", a, b)
	}
	if len(a) == 0 {
		t.Errorf("no puzzle in 40 plies of eximo; pick a game with one so that the test compares something")
	}
	for _, p := range a {
		if p.Source != "test" || p.Nodes != 2000 || p.VerifyNodes != 8000 || len(p.Solution)%2 != 1 {
			t.Errorf("puzzle %+v", p)
		}
	}
}

// TestRating: longer solutions, narrower margins and quiet first moves
// start higher, within the bounds.
func TestRating(t *testing.T) {
	if !(Rating(3, 0.5, false) > Rating(1, 0.5, false)) {
		t.Error("a longer solution does not rate higher")
	}
	if !(Rating(1, 0.3, false) > Rating(1, 0.9, false)) {
		t.Error("a narrower margin does not rate higher")
	}
	if !(Rating(1, 0.5, true) > Rating(1, 0.5, false)) {
		t.Error("a quiet first move does not rate higher")
	}
	if r := Rating(41, 0.25, true); r != 2800 {
		t.Errorf("rating %d, want the bound 2800", r)
	}
}

// TestConfigRefusals: a configuration out of bounds is refused.
func TestConfigRefusals(t *testing.T) {
	s := position(t, "eximo", "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2")
	for _, cfg := range []Config{
		{Nodes: -1},
		{Nodes: MaxNodes + 1},
		{Nodes: 1000, VerifyNodes: 1000},
		{Margin: -0.1},
		{Margin: 1.5},
		{MaxMoves: -1},
		{MaxMoves: MaxMaxMoves + 1},
	} {
		if _, _, err := FindIn(context.Background(), s, cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
