package tune

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/games/pommel"
)

func newGame(t *testing.T, id string) game.Game {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// generate makes a small position file of id.
func generate(t *testing.T, id string, positions, workers int) []byte {
	t.Helper()
	var buf bytes.Buffer
	cfg := GenConfig{Game: newGame(t, id), Positions: positions, Nodes: 50, RandomPlies: 6, Seed: 7, Workers: workers}
	st, err := Generate(context.Background(), cfg, &buf)
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions != positions {
		t.Fatalf("%d positions written, want %d", st.Positions, positions)
	}
	return buf.Bytes()
}

func TestGenerateDoesNotDependOnWorkers(t *testing.T) {
	t.Parallel()
	one, two := generate(t, "pommel", 300, 1), generate(t, "pommel", 300, 2)
	if !bytes.Equal(one, two) {
		t.Fatal("one worker and two wrote different files")
	}
}

// TestGeneratedPositions checks what each line of a file holds in every
// game: a position of the game that goes on, where the side to move has
// no capture, met once, with points that a result gives.
func TestGeneratedPositions(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"pommel", "eximo", "checkers-2011", "punt-match", "punt-heks-match-3p"} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			g := newGame(t, id)
			data := generate(t, id, 200, 2)
			lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			if lines[0] != (GenConfig{Game: g, Nodes: 50, RandomPlies: 6, Seed: 7}).Header().String() {
				t.Fatalf("first line %q", lines[0])
			}
			seen := map[uint64]bool{}
			for _, line := range lines[1:] {
				fen, pts, _ := strings.Cut(line, "\t")
				s, err := g.ParseFEN(fen)
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				if s.Result().Over() || seen[s.Hash()] {
					t.Fatalf("%q: over, or met before", line)
				}
				seen[s.Hash()] = true
				if lt, ok := s.(game.LeafTester); ok && lt.HasCapture() {
					t.Fatalf("%q: the side to move can capture", line)
				}
				if n := len(strings.Fields(pts)); n != g.Players() {
					t.Fatalf("%q: %d points for %d players", line, n, g.Players())
				}
			}
			set, err := Load(bytes.NewReader(data), g)
			if err != nil {
				t.Fatal(err)
			}
			if len(set.States) != 200 {
				t.Fatalf("Load read %d positions", len(set.States))
			}
		})
	}
}

func TestGenConfigRefusals(t *testing.T) {
	t.Parallel()
	g := newGame(t, "pommel")
	ok := GenConfig{Game: g, Positions: 10, Nodes: 10, RandomPlies: 0, Workers: 1}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(*GenConfig)
	}{
		{"no game", func(c *GenConfig) { c.Game = nil }},
		{"positions 0", func(c *GenConfig) { c.Positions = 0 }},
		{"positions huge", func(c *GenConfig) { c.Positions = MaxPositions + 1 }},
		{"nodes 0", func(c *GenConfig) { c.Nodes = 0 }},
		{"nodes -1", func(c *GenConfig) { c.Nodes = -1 }},
		{"nodes huge", func(c *GenConfig) { c.Nodes = MaxNodes + 1 }},
		{"random plies -1", func(c *GenConfig) { c.RandomPlies = -1 }},
		{"random plies huge", func(c *GenConfig) { c.RandomPlies = MaxRandomPlies + 1 }},
		{"workers 0", func(c *GenConfig) { c.Workers = 0 }},
		{"workers huge", func(c *GenConfig) { c.Workers = MaxWorkers + 1 }},
	} {
		cfg := ok
		tc.edit(&cfg)
		if err := cfg.Check(); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
		if _, err := Generate(context.Background(), cfg, &bytes.Buffer{}); err == nil {
			t.Errorf("%s: Generate accepted it", tc.name)
		}
	}
}

func TestHeaderRoundTrip(t *testing.T) {
	t.Parallel()
	for _, h := range []Header{
		{Game: "pommel", Seed: 1, Nodes: 500, RandomPlies: 8},
		{Game: "punt-match", Options: "maxplies=300 tiebreak=last", Seed: math.MaxUint64, Nodes: 1, RandomPlies: 0},
	} {
		got, err := parseHeader(h.String())
		if err != nil || got != h {
			t.Errorf("%q read back as %+v, %v", h.String(), got, err)
		}
	}
}

func TestLoadRefusals(t *testing.T) {
	t.Parallel()
	g := newGame(t, "pommel")
	head := GenConfig{Game: g, Nodes: 50, RandomPlies: 6, Seed: 7}.Header().String() + "\n"
	fen := g.Start().FEN()
	good := strings.Repeat(fen+"\t1 0\n", holdOut)
	if _, err := Load(strings.NewReader(head+good), g); err != nil {
		t.Fatalf("a good file: %v", err)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "empty"},
		{"no header", good, "first line"},
		{"other game", strings.Replace(head, "game=pommel", "game=eximo", 1) + good, "not pommel"},
		{"bad field", strings.Replace(head, "seed=7", "seed=x", 1) + good, "bad seed"},
		{"unknown field", strings.Replace(head, "seed=7", "colour=7", 1) + good, "unknown field"},
		{"no tab", head + fen + " 1 0\n" + good, "line 2"},
		{"bad fen", head + "W:Wz99\t1 0\n" + good, "line 2"},
		{"too few points", head + fen + "\t1\n" + good, "one number for each"},
		{"points over 1", head + fen + "\t2 -1\n" + good, "from 0 to 1"},
		{"points not adding up", head + fen + "\t1 1\n" + good, "add up to 1"},
		{"NaN", head + fen + "\tNaN 0\n" + good, "from 0 to 1"},
		{"too few positions", head + fen + "\t1 0\n", "at least"},
		{"line too long", head + strings.Repeat("x", 70_000) + "\n", "too long"},
	} {
		_, err := Load(strings.NewReader(tc.text), g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
}

// TestTuneFindsKnownWeights labels positions with the points an
// evaluation by known weights predicts, then tunes from the game's own
// weights: the fit must find the known ones, which fit exactly.
func TestTuneFindsKnownWeights(t *testing.T) {
	t.Parallel()
	g := newGame(t, "pommel")
	truth := *g.(game.Tunable).Weights().(*pommel.Weights)
	truth.Captain, truth.Advance = 333, 9 // the others held as the game has them
	const k = 0.012
	ev := pommel.Evaluation(truth)
	set := &Set{Players: 2}
	rng := rand.New(rand.NewPCG(1, 2))
	for len(set.States) < 3000 {
		s := randomPosition(g, rng)
		e := ev.Evaluate(s)
		p := 1 / (1 + math.Exp(-k*float64(e[0]-e[1])))
		set.States = append(set.States, s)
		set.Points = append(set.Points, [game.MaxPlayers]float32{float32(p), float32(1 - p)})
	}
	res, err := Tune(context.Background(), set, g.(game.Tunable), Config{Workers: 2, Steps: DefaultSteps(), Fixed: []string{"Soldier", "Home", "Edge", "Threatened", "Tempo"}})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Weights.(*pommel.Weights)
	if *got != truth {
		t.Errorf("tuned %+v, want %+v", *got, truth)
	}
	if math.Abs(res.K-k) > 0.0005 || res.After.Train > 1e-6 || res.After.Validation > 1e-6 {
		t.Errorf("k %.5f, errors %+v: want k %.3f and no error", res.K, res.After, k)
	}
	if res.Before.Train <= res.After.Train {
		t.Errorf("the error did not fall: %+v -> %+v", res.Before, res.After)
	}
}

// randomPosition plays 10 to 40 random plies of g, and a position with
// captains: the known weights must show in the positions.
func randomPosition(g game.Game, rng *rand.Rand) game.State {
	for {
		s := g.Start()
		for range 10 + rng.IntN(30) {
			if s.Result().Over() {
				break
			}
			moves := s.Moves(nil)
			s.Play(moves[rng.IntN(len(moves))])
		}
		if !s.Result().Over() {
			return s
		}
	}
}

func TestTuneRefusals(t *testing.T) {
	t.Parallel()
	g := newGame(t, "pommel").(game.Tunable)
	set := &Set{Players: 2}
	for _, cfg := range []Config{{Workers: 0}, {Workers: MaxWorkers + 1}, {Workers: 1, Fixed: []string{"Nosuch"}}} {
		if _, err := Tune(context.Background(), set, g, cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

func TestPoints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r       game.Result
		players int
		want    string
	}{
		{game.Win(0, game.NoMoves), 2, "1 0"},
		{game.Win(1, game.NoMoves), 2, "0 1"},
		{game.DrawBy(game.PlyCap), 2, "0.5 0.5"},
		{game.DrawBy(game.PlyCap), 3, "0.3333 0.3333 0.3333"},
		{game.Result{Reason: game.NoMoves, Winners: game.PlayerSet(0).Add(0).Add(2)}, 3, "0.5 0 0.5"},
	} {
		if got := formatPoints(points(tc.r, tc.players), tc.players); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
}

// randomSet is n random positions of g, each scored as a draw.
func randomSet(g game.Game, n int) *Set {
	rng := rand.New(rand.NewPCG(3, 4))
	set := &Set{Players: g.Players()}
	for len(set.States) < n {
		set.States = append(set.States, randomPosition(g, rng))
		var pts [game.MaxPlayers]float32
		for p := range g.Players() {
			pts[p] = 1 / float32(g.Players())
		}
		set.Points = append(set.Points, pts)
	}
	return set
}

// TestModel checks the linear model of the evaluations in every game.
// Pommel's and Eximo's evaluations are sums of counts times weights, so
// the model must compute every position, and exactly, however far the
// weights move. Checkers 2011 (hunting past a lead) and Punt (a threat
// times a weight divided by 100) are not linear everywhere: the model
// must find positions to leave to the evaluation in full, and wherever
// it was made and probed it must agree with the evaluation exactly.
func TestModel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id     string
		linear bool
	}{
		{"pommel", true}, {"pommel-76", true}, {"eximo", true},
		{"checkers-2011", false}, {"punt-match", false}, {"punt-heks-match-3p", false},
	} {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			g := newGame(t, tc.id).(game.Tunable)
			w := g.Weights()
			vals := game.WeightValues(w)
			tr := &tuner{set: randomSet(g.(game.Game), 400), g: g, w: w, workers: 2}
			m, err := tr.newModel(context.Background(), vals, map[int]bool{0: true}, 32)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(m.full) == 0, tc.linear; got != want {
				t.Fatalf("%d of 400 positions left to the evaluation in full", len(m.full))
			}
			ev, err := tr.evaluation(vals)
			if err != nil {
				t.Fatal(err)
			}
			full := tr.set.errorOf(ev, 0.01, 2)
			if got, err := m.errorOf(tr, vals, 0.01); err != nil || got != full {
				t.Fatalf("model errors %+v (%v), evaluation's %+v", got, err, full)
			}
			if missed, err := m.misses(tr, vals); err != nil || missed != 0 {
				t.Fatalf("%d positions missed where the model was made (%v)", missed, err)
			}
			if !tc.linear {
				return
			}
			rng := rand.New(rand.NewPCG(5, 6))
			for range 5 {
				far := make([]int, len(vals))
				for j := range far {
					far[j] = rng.IntN(601) - 300
				}
				if missed, err := m.misses(tr, far); err != nil || missed != 0 {
					t.Fatalf("%d positions missed at %v (%v)", missed, far, err)
				}
			}
		})
	}
}

// TestTuneNotLinear fits Checkers 2011, whose evaluation is not linear in
// its weights everywhere, to labels its own evaluation with other weights
// generated: the error must fall, and the errors reported must be those of
// the evaluation in full at the weights found.
func TestTuneNotLinear(t *testing.T) {
	t.Parallel()
	g := newGame(t, "checkers-2011")
	tg := g.(game.Tunable)
	truth := game.WeightValues(tg.Weights())
	truth[1] += 64 // King
	truth[3] -= 32 // Liberation
	w := tg.Weights()
	if err := game.SetWeightValues(w, truth); err != nil {
		t.Fatal(err)
	}
	ev, err := tg.EvaluationOf(w)
	if err != nil {
		t.Fatal(err)
	}
	set := randomSet(g, 2000)
	for i, s := range set.States {
		e := ev.Evaluate(s)
		p := 1 / (1 + math.Exp(-0.01*float64(e[0]-e[1])))
		set.Points[i] = [game.MaxPlayers]float32{float32(p), float32(1 - p)}
	}
	res, err := Tune(context.Background(), set, tg, Config{Workers: 2, Steps: []int{32, 8, 2}, Fixed: []string{"Soldier"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.After.Train >= res.Before.Train/4 {
		t.Errorf("error %+v -> %+v: it should fall to a small part", res.Before, res.After)
	}
	after, err := tg.EvaluationOf(res.Weights)
	if err != nil {
		t.Fatal(err)
	}
	if full := set.errorOf(after, res.K, 2); full != res.After {
		t.Errorf("reported %+v, the evaluation gives %+v", res.After, full)
	}
}

// cliff is a made-up tunable evaluation whose weight X counts a feature
// linearly up to 70 and falls off a cliff beyond: a model made near 0 and
// checked up to 64 away cannot see it.
type cliffWeights struct{ Unit, X int }

type cliffGame struct{}

func (cliffGame) Weights() any { return &cliffWeights{Unit: 100} }

func (cliffGame) EvaluationOf(w any) (game.Evaluation, error) {
	return game.EvaluationFrom(w, func(w cliffWeights) game.Evaluation { return cliffEvaluation{w} })
}

type cliffEvaluation struct{ w cliffWeights }

func (cliffEvaluation) Judges(game.State) bool { return true }

func (e cliffEvaluation) Evaluate(s game.State) [game.MaxPlayers]int {
	x := e.w.X
	if x > 70 {
		x -= 300
	}
	return [game.MaxPlayers]int{e.w.Unit*unitFeature(s) + x*cliffFeature(s), 0}
}

// cliffFeature and unitFeature are numbers from -3 to 3 and -2 to 2 that
// the position fixes; the unit's fixes the scale k.
func cliffFeature(s game.State) int { return int(s.Hash()%7) - 3 }
func unitFeature(s game.State) int  { return int(s.Hash()>>8%5) - 2 }

// TestTuneConfirmsInFull fits X to labels a weight of 100 would give: the
// model, made at 0, finds 32, 64 and then 96 better, but beyond 70 the
// evaluation falls off its cliff. 96 must be refused by the evaluation in
// full, and the fit must end at 64 with the evaluation's own errors.
func TestTuneConfirmsInFull(t *testing.T) {
	t.Parallel()
	set := randomSet(newGame(t, "pommel"), 1000)
	for i, s := range set.States {
		p := 1 / (1 + math.Exp(-0.01*float64(100*unitFeature(s)+100*cliffFeature(s))))
		set.Points[i] = [game.MaxPlayers]float32{float32(p), float32(1 - p)}
	}
	res, err := Tune(context.Background(), set, cliffGame{}, Config{Workers: 2, Steps: []int{32}, Fixed: []string{"Unit"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Weights.(*cliffWeights).X; got != 64 {
		t.Fatalf("X %d, want 64", got)
	}
	if res.Confirmations <= 2 {
		t.Errorf("%d trials judged in full: 32 and 64 were kept, and 96 should have been refused", res.Confirmations)
	}
	ev, _ := cliffGame{}.EvaluationOf(res.Weights)
	if full := set.errorOf(ev, res.K, 2); full != res.After {
		t.Errorf("reported %+v, the evaluation gives %+v", res.After, full)
	}
}
