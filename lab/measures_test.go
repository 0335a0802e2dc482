package lab

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

func TestUtilitiesAndOutcomeUniformity(t *testing.T) {
	for _, tt := range []struct {
		winners []int
		scores  []int
		n       int
		want    []float64
	}{
		{[]int{0}, nil, 2, []float64{1, -1}},
		{nil, nil, 2, []float64{0, 0}},
		// Three seats: ranks 1, 2, 3 are worth 1, 0, -1; the two losers
		// share ranks 2 and 3 (2.5: -0.5 each).
		{[]int{1}, nil, 3, []float64{-0.5, 1, -0.5}},
		// A scored game of three: the losers' scores place them 2 and 3.
		{[]int{0}, []int{9, 2, 5}, 3, []float64{1, -1, 0}},
		// Two winners share ranks 1 and 2 (1.5: 0.5); the loser is third.
		{[]int{0, 2}, nil, 3, []float64{0.5, -1, 0.5}},
	} {
		got := utilities(GameStats{Winners: tt.winners, Scores: tt.scores}.places(tt.n))
		for p := range tt.want {
			if !near(got[p], tt.want[p]) {
				t.Errorf("utilities(%v, %d) = %v, want %v", tt.winners, tt.n, got, tt.want)
				break
			}
		}
	}
	// White wins, Black wins, a draw: each seat's utilities 1, -1, 0
	// have a variance of 2/3, so the uniformity is 1/3. Two games won by
	// White: no variance, 1.
	mixed := []GameStats{{Winners: []int{0}}, {Winners: []int{1}}, {Winners: []int{}}}
	same := []GameStats{{Winners: []int{0}}, {Winners: []int{0}}}
	for _, tt := range []struct {
		games []GameStats
		want  float64
	}{{mixed, 1.0 / 3}, {same, 1}, {nil, 0}} {
		if got := outcomeUniformity(tt.games, 2); !near(got, tt.want) {
			t.Errorf("outcome uniformity of %v: %v, want %v", tt.games, got, tt.want)
		}
	}
}

func TestImbalance(t *testing.T) {
	won := func(w ...int) GameStats { return GameStats{Winners: w} }
	tests := []struct {
		name  string
		games []GameStats
		n     int
		want  float64
	}{
		// Scores 1 and 0 against a fair 1/2: sqrt(2 * (1/4 + 1/4)) = 1.
		{"one seat wins everything", []GameStats{won(0), won(0)}, 2, 1},
		{"a win each", []GameStats{won(0), won(1)}, 2, 0},
		{"draws are fair", []GameStats{won(), won()}, 3, 0},
		// Scores 3/4 and 1/4: sqrt(2 * (1/16 + 1/16)) = 1/2.
		{"three wins of four", []GameStats{won(0), won(0), won(0), won(1)}, 2, 0.5},
		// Three seats, seat 0 wins all: sqrt(3/2 * (4/9 + 1/9 + 1/9)) = 1.
		{"three seats, one wins everything", []GameStats{won(0)}, 3, 1},
		// Seats 0 and 2 share every game: scores 1/2, 0, 1/2:
		// sqrt(3/2 * (1/36 + 1/9 + 1/36)) = 1/2.
		{"three seats, two always share", []GameStats{won(0, 2), won(0, 2)}, 3, 0.5},
	}
	for _, tt := range tests {
		got := imbalance(tt.games, tt.n)
		if !near(got.Value, tt.want) || got.Lo > got.Value+1e-9 || got.Hi < got.Value-1e-9 || got.Lo < 0 || got.Hi > 1+1e-9 {
			t.Errorf("%s: %+v, want %v inside its interval", tt.name, got, tt.want)
		}
		if again := imbalance(tt.games, tt.n); again != got {
			t.Errorf("%s: %+v then %+v: the bootstrap must not vary", tt.name, got, again)
		}
	}
	// Eight games, five won by White: the interval is wide but excludes
	// nothing it should not: it holds the value and stays in 0..1.
	var games []GameStats
	for i := range 8 {
		games = append(games, won(min(1, i/5)))
	}
	if got := imbalance(games, 2); got.Hi-got.Lo < 0.2 {
		t.Errorf("eight games: %+v, an interval too narrow for so few games", got)
	}
	if got := imbalance(nil, 2); got != (Interval{Hi: 1}) {
		t.Errorf("no games: %+v, want the whole range", got)
	}
}

func TestClarityHelpers(t *testing.T) {
	// Mean 50, best 200: threshold 50 + 0.75*150 = 162.5; only 200 is at
	// or above it: 1 of 4.
	if got := narrowShare([]float64{0, 0, 0, 200}); got != 0.25 {
		t.Errorf("narrowness %v, want 0.25", got)
	}
	// All equal: every move is best.
	if got := narrowShare([]float64{30, 30, 30}); got != 1 {
		t.Errorf("narrowness of equal moves %v, want 1", got)
	}
	// Mean 2, deviations -2 0 2: variance 8/3.
	if got := variance([]float64{0, 2, 4}); !near(got, 8.0/3) {
		t.Errorf("variance %v, want 8/3", got)
	}
	for _, tt := range []struct {
		d    int
		want float64
	}{{0, 1}, {200, 1 - math.Tanh(0.5)}, {-200, 1 - math.Tanh(0.5)}, {EvalCap, 1 - math.Tanh(5)}} {
		if got := uncertainty(tt.d); !near(got, tt.want) {
			t.Errorf("uncertainty(%d) = %v, want %v", tt.d, got, tt.want)
		}
	}
	if got := uncertainty(DecisiveMargin); math.Abs(got-0.54) > 0.01 {
		t.Errorf("uncertainty at two pieces %v, want about 0.54 as documented", got)
	}
}

func TestLeadAndAdvantage(t *testing.T) {
	sc := [game.MaxPlayers]int{300, 100, 250}
	for _, tt := range []struct {
		name      string
		got, want int
	}{
		{"two players: the first seat's side", lead(sc, 2), 200},
		{"three players: leader less runner-up", lead(sc, 3), 50},
		{"three players, a tie on top", lead([game.MaxPlayers]int{5, 5, 1}, 3), 0},
		{"seat 1's advantage over the best other", advantage(sc, 1, 3), -200},
		{"seat 0's advantage", advantage(sc, 0, 3), 50},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}

func TestStateSpaceBound(t *testing.T) {
	for _, id := range []string{"pommel", "checkers-2011"} {
		g := newGame(t, id)
		c, k := float64(g.Board().Len()), 4.0 // two players' two ranks
		// One piece at most: empty, or any kind on any cell, either
		// player to move, with or without stacks.
		one := math.Log10(2 * (1 + k*c))
		// Two pieces: without stacks C(C,2) pairs of cells; with stacks
		// C(C+1, 2) ways to make a row of two into C stacks.
		pairs := c * (c - 1) / 2
		if id == "checkers-2011" {
			pairs = c * (c + 1) / 2
		}
		two := math.Log10(2 * (1 + k*c + k*k*pairs))
		if got := stateSpaceBound(g, 1); !near(got, one) {
			t.Errorf("%s, one piece: %v, want %v", id, got, one)
		}
		if got := stateSpaceBound(g, 2); !near(got, two) {
			t.Errorf("%s, two pieces: %v, want %v", id, got, two)
		}
	}
	if got := logSum([]float64{2, 2}); !near(got, math.Log10(200)) {
		t.Errorf("logSum of 100 and 100: %v", got)
	}
}

func TestTravel(t *testing.T) {
	b := newGame(t, "checkers-2011").Board()
	for _, tt := range []struct {
		path []string
		want int
	}{{[]string{"a1", "a2"}, 1}, {[]string{"a1", "a4"}, 3}, {[]string{"a1", "c3", "e5"}, 4}, {[]string{"d4", "d2", "f2"}, 4},
		{[]string{"a1"}, 0}, {[]string{"a1", "b3"}, 1}} {
		if got := travel(b, tt.path); got != tt.want {
			t.Errorf("travel %v: %d, want %d", tt.path, got, tt.want)
		}
	}
}

// TestRepetition: two kings step out and back; the positions are the
// start, then after each move: P0 P1 P2 P3 P0 P1, two of six repeats.
func TestRepetition(t *testing.T) {
	g := newGame(t, "checkers-2011")
	s, err := g.ParseFEN("W:a1=W,h8=B")
	if err != nil {
		t.Fatal(err)
	}
	m := newMeter(s)
	for _, text := range []string{"a1-a2", "h8-h7", "a2-a1", "h7-h8", "a1-a2"} {
		mv, err := game.ParseMove(s, text)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(mv)
		m.position(s)
	}
	gm := m.finish(nil, true)
	if !near(gm.StateRepetition, 2.0/6) || !near(gm.PositionalRepetition, 2.0/6) {
		t.Errorf("repetition %v state, %v positional, want 1/3 each", gm.StateRepetition, gm.PositionalRepetition)
	}
	// a1, a2, h8 and h7 held a piece: 4 of 64 cells.
	if !near(gm.CoverageOccupied, 4.0/64) {
		t.Errorf("occupied %v, want 4/64", gm.CoverageOccupied)
	}
}

// TestGameMeasuresFromPlies: the per-game means from hand-made plies.
func TestGameMeasuresFromPlies(t *testing.T) {
	m := &meter{advantages: [][]float64{{100, 300}, {-100, -300}}, used: []bool{true, false, false, false},
		occupied: []bool{true, true, false, false}}
	plies := []PlyStats{
		{Legal: 1, Travel: 1, Static: 0},
		{Legal: 4, Travel: 2, Static: 200, Narrowness: 0.25, Spread: 1},
		{Legal: 6, Travel: 3, Static: -200, Narrowness: 0.5, Spread: 3},
	}
	gm := m.finish(plies, true)
	want := GameMeasures{
		DecisionFactor: 5, // (4 + 6) / 2: the forced move is no decision
		Evaluated:      true,
		Narrowness:     0.375, ClarityVariance: 2,
		// Uncertainty: (1 + 2 (1 - tanh 0.5)) / 3.
		Uncertainty: (1 + 2*(1-math.Tanh(0.5))) / 3,
		// Each player's advantages are ±1 piece about their mean: 1 piece².
		Stability:    1,
		CoverageUsed: 0.25, CoverageOccupied: 0.5,
		Travel: 2,
	}
	if !near(gm.Uncertainty, want.Uncertainty) {
		t.Errorf("uncertainty %v, want %v", gm.Uncertainty, want.Uncertainty)
	}
	gm.Uncertainty = want.Uncertainty
	if gm != want {
		t.Errorf("measures\n%+v, want\n%+v", gm, want)
	}
	if plain := m.finish(plies, false); plain.Narrowness != 0 || plain.Stability != 0 || plain.Uncertainty != 0 {
		t.Errorf("a game without static evaluation: %+v", plain)
	}
}

// TestReportRowsApply: each game's report shows the rows its rules can
// make, and no others: no leaps or sandwiches in Eximo, scores only in
// Punt, sandwiches only in Checkers 2011, drops only in Eximo, no
// captures in Punt.
func TestReportRowsApply(t *testing.T) {
	rows := []struct{ text, only string }{
		{"leaps (legs that took more than one cell)", "pommel"},
		{"sandwiches (cells taken with no leg over them)", "checkers-2011"},
		{"drops</td>", "eximo"},
		{"moves that changed a score", "punt"},
		{"takeovers (landing on", "checkers-2011 punt"},
		{"promotions</td>", "pommel checkers-2011"},
		{"Score lead over the game", "punt"},
		{"captures (moves that took", "pommel eximo checkers-2011"},
		{"chains (captures of more", "pommel eximo checkers-2011"},
	}
	for _, d := range game.All() {
		page, err := syntheticRun(t, d.ID, 4, 6).Report()
		if err != nil {
			t.Fatal(err)
		}
		family := strings.SplitN(d.ID, "-", 2)[0]
		if strings.HasPrefix(d.ID, "checkers-2011") {
			family = "checkers-2011"
		}
		for _, r := range rows {
			want := strings.Contains(" "+r.only+" ", " "+family+" ")
			if got := strings.Contains(string(page), r.text); got != want {
				t.Errorf("%s: report has %q: %v, want %v", d.ID, r.text, got, want)
			}
		}
	}
}

// TestMeasuresOfARealRun: a short run of Eximo at depth 1 gives every
// measure in its range, and its report lists the measures by the static
// evaluation.
func TestMeasuresOfARealRun(t *testing.T) {
	g, err := game.New("eximo", map[string]string{"maxplies": "40"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Players: []Player{engine("ab"), engine("random")}, Games: 2, Limits: ai.Limits{Depth: 1},
		Seed: 5, OpeningPlies: 2, Date: "2026.01.02"}
	dir := filepath.Join(t.TempDir(), "run")
	s, err := Run(context.Background(), cfg, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := s.Measures
	if !m.Evaluated || m.ScoreLead != nil || m.StaticEval == nil || len(m.Pieces.Buckets) == 0 {
		t.Errorf("Eximo: evaluated %v, score lead %v, static %v, pieces %d buckets", m.Evaluated, m.ScoreLead,
			m.StaticEval, len(m.Pieces.Buckets))
	}
	for name, v := range map[string][2]float64{
		"outcome uniformity": {m.OutcomeUniformity, 1}, "narrowness": {m.Narrowness, 1}, "uncertainty": {m.Uncertainty, 1},
		"board used": {m.CoverageUsed, 1}, "board occupied": {m.CoverageOccupied, 1},
		"state repetition": {m.StateRepetition, 1}, "positional repetition": {m.PositionalRepetition, 1},
	} {
		if v[0] < 0 || v[0] > v[1] || math.IsNaN(v[0]) {
			t.Errorf("%s = %v, outside 0..%v", name, v[0], v[1])
		}
	}
	if m.DecisionFactor < s.Branching.Mean*0.99 || m.Travel < 1 || m.StateSpace <= m.GameTree/100 {
		t.Errorf("decision factor %v below the branching %v, travel %v, state space %v", m.DecisionFactor,
			s.Branching.Mean, m.Travel, m.StateSpace)
	}
	if want := s.Plies.Mean * math.Log10(s.Branching.Mean); !near(m.GameTree, want) {
		t.Errorf("game tree 10^%v, want 10^%v", m.GameTree, want)
	}
	page := string(readFile(t, filepath.Join(dir, ReportFile)))
	for _, want := range []string{"clarity: narrowness (static)", "Static evaluation over the game", "Pieces on the board"} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// The new curves' captions say what their images draw, as every
	// figure's must (TestCaptionsMatchTheImages, on made-up runs without
	// a static evaluation).
	a, _, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := a.plots()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		for _, c := range []struct{ shows, says string }{{">quartiles<", "lower to the upper quartile"},
			{">games left<", "counts the games still going"}, {">Static evaluation over the game<", "static evaluation"},
			{">Pieces on the board<", "pieces on the board"}} {
			if strings.Contains(string(f.SVG), c.shows) && !strings.Contains(f.Caption, c.says) {
				t.Errorf("the image shows %q, its caption does not say %q: %s", c.shows, c.says, f.Caption)
			}
		}
	}
}

// TestMeasuresCountDistinctGamesOnce: a game played again move for move
// adds nothing to the measures' means, and the console gives the short
// ones.
func TestMeasuresCountDistinctGamesOnce(t *testing.T) {
	g := newGame(t, "pommel")
	a := GameStats{Index: 0, Moves: []string{"a"}, Winners: []int{0}, Plies: 2,
		Measures: GameMeasures{DecisionFactor: 10, CoverageUsed: 0.5, Evaluated: true, Uncertainty: 0.2}}
	again := a
	again.Index = 1
	b := GameStats{Index: 2, Moves: []string{"b"}, Winners: []int{1}, Plies: 2,
		Measures: GameMeasures{DecisionFactor: 20, CoverageUsed: 0.25, Evaluated: true, Uncertainty: 0.6}}
	plies := []PlyStats{{Game: 0, Ply: 1, Legal: 10, Pieces: 30}, {Game: 1, Ply: 1, Legal: 10, Pieces: 30},
		{Game: 2, Ply: 1, Legal: 20, Pieces: 20}}
	s := summarize(g, Manifest{Game: "pommel"}, []GameStats{a, again, b}, plies)
	m := s.Measures
	// The means of a and b alone: (10+20)/2, (0.5+0.25)/2, (0.2+0.6)/2;
	// one win each: imbalance 0, each seat's outcomes 1 and -1: variance
	// 1, uniformity 0.
	if m.DecisionFactor != 15 || m.CoverageUsed != 0.375 || !near(m.Uncertainty, 0.4) || m.Imbalance.Value != 0 ||
		m.OutcomeUniformity != 0 || m.Pieces.Mean != 25 {
		t.Errorf("measures %+v", m)
	}
	text := Text(s)
	for _, want := range []string{"outcome uniformity 0.00; seat imbalance 0.00", "decision factor 15.0", "complexity: game tree 10^"} {
		if !strings.Contains(text, want) {
			t.Errorf("the console lacks %q:\n%s", want, text)
		}
	}
}

// TestCompareOldSummary: a summary written before the measures shows "-"
// in their rows, not zeros that would read as measured.
func TestCompareOldSummary(t *testing.T) {
	old := &Summary{Game: "pommel", Games: 2, Distinct: 2, Plies: Distribution{Mean: 40}}
	now := &Summary{Game: "pommel", Games: 2, Distinct: 2, Plies: Distribution{Mean: 40},
		Measures: Measures{DecisionFactor: 12.5, OutcomeUniformity: 0.25}}
	rows := compareRows([]Compared{{Label: "old", Dir: "a", Summary: old}, {Label: "now", Dir: "b", Summary: now}})
	want := map[string][2]string{"decision factor": {"-", "12.50"}, "outcome uniformity (÷n; Ludii ÷(n−1))": {"-", "0.25"},
		"clarity: narrowness": {"-", "-"}, "score lead: mean": {"-", "-"}}
	for _, r := range rows {
		if w, ok := want[r[0]]; ok {
			if r[1] != w[0] || r[2] != w[1] {
				t.Errorf("row %q: %q %q, want %q %q", r[0], r[1], r[2], w[0], w[1])
			}
			delete(want, r[0])
		}
	}
	if len(want) > 0 {
		t.Errorf("rows missing: %v", want)
	}
}
