package ai

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
)

// buildTables builds Pommel's tables of up to pieces pieces (options
// that do not change the rules, such as maxplies, do not matter).
func buildTables(t testing.TB, pieces int) *endgame.Tables {
	t.Helper()
	_, tb := endgametest.Build(t, "pommel", nil, pieces)
	return tb
}

// tableEngine makes an engine from spec with the tables tb.
func tableEngine(t testing.TB, spec string, tb *endgame.Tables) Engine {
	t.Helper()
	e, err := New(spec, 1, WithTables(tb))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// randomPosition places pieces pieces at random on a fresh state of g
// (each side at least one, no man on its last row) with a random side to
// move, until it finds one whose game is not over.
func randomPosition(t testing.TB, g game.Game, pieces int, rng *rand.Rand) game.State {
	t.Helper()
	n := g.Board().Len()
	for range 10000 {
		s := g.Start()
		placed := make([]game.Placed, 0, pieces)
		used := map[board.Cell]bool{}
		for i := range pieces {
			c := board.Cell(rng.IntN(n))
			if used[c] {
				break
			}
			used[c] = true
			owner := game.Player(rng.IntN(2))
			if i < 2 {
				owner = game.Player(i) // both sides have a piece
			}
			placed = append(placed, game.Placed{Cell: c, Piece: game.Piece{Owner: owner, Rank: game.Rank(rng.IntN(2))}})
		}
		if len(placed) != pieces {
			continue
		}
		if err := s.(game.Placer).Place(placed, game.Player(rng.IntN(2))); err != nil || s.Result().Over() {
			continue
		}
		return s
	}
	t.Fatalf("no position of %d pieces found", pieces)
	return nil
}

// tablePositions returns count random positions of up to pieces pieces.
func tablePositions(t testing.TB, g game.Game, pieces, count int, seed uint64) []game.State {
	rng := rand.New(rand.NewPCG(seed, 9))
	out := make([]game.State, count)
	for i := range out {
		out[i] = randomPosition(t, g, 2+rng.IntN(pieces-1), rng)
	}
	return out
}

// wantScore is the score a table value gives at the root.
func wantScore(v endgame.Value) int {
	switch v.Kind {
	case endgame.Win:
		return Mate - v.Plies
	case endgame.Loss:
		return -Mate + v.Plies
	}
	return 0
}

// checkKeepsValue fails unless playing m in s keeps the tables' value
// v of s: a win in N moves to a loss in N-1 (or ends the game won), a
// draw to a draw, a loss in N to a win in N-1.
func checkKeepsValue(t *testing.T, tb *endgame.Tables, s game.State, v endgame.Value, m game.Move) {
	t.Helper()
	child := s.Clone()
	child.Play(m)
	if r := child.Result(); r.Over() {
		if v.Kind != endgame.Win || v.Plies != 1 || !r.Winners.Has(s.ToMove()) {
			t.Errorf("%s (%v): %s ends the game (%v)", s.FEN(), v, m.Text(s.Game().Board()), r.Describe(s.Game()))
		}
		return
	}
	cv, err := tb.Probe(child)
	if err != nil {
		t.Fatalf("%s after %s: %v", s.FEN(), m.Text(s.Game().Board()), err)
	}
	want := endgame.Value{Kind: endgame.Draw}
	switch v.Kind {
	case endgame.Win:
		want = endgame.Value{Kind: endgame.Loss, Plies: v.Plies - 1}
	case endgame.Loss:
		want = endgame.Value{Kind: endgame.Win, Plies: v.Plies - 1}
	}
	if cv != want {
		t.Errorf("%s (%v): %s leads to %v, want %v", s.FEN(), v, m.Text(s.Game().Board()), cv, want)
	}
}

// rootKeepsValues: at many random table positions ab with tables plays a
// move that keeps the position's value and reports it as its score.
func rootKeepsValues(t *testing.T, tb *endgame.Tables, pieces, count int) {
	g, _ := game.New("pommel", nil)
	e := tableEngine(t, "ab:depth=2,tt=10", tb)
	kinds := map[endgame.Kind]int{}
	for _, s := range tablePositions(t, g, pieces, count, uint64(pieces)) {
		v, err := tb.Probe(s)
		if err != nil {
			t.Fatalf("%s: %v", s.FEN(), err)
		}
		kinds[v.Kind]++
		info := e.Search(context.Background(), s, Limits{}, nil)
		if info.Err != nil {
			t.Fatal(info.Err)
		}
		if info.Score != wantScore(v) {
			t.Errorf("%s (%v): score %s, want %s", s.FEN(), v, ScoreText(info.Score), ScoreText(wantScore(v)))
		}
		if v.Kind != endgame.Draw && len(info.PV) != v.Plies {
			t.Errorf("%s (%v): a line of %d plies", s.FEN(), v, len(info.PV))
		}
		checkKeepsValue(t, tb, s, v, info.Move)
	}
	if kinds[endgame.Win] == 0 || kinds[endgame.Loss] == 0 {
		t.Errorf("the positions' values %v: want wins and losses among them", kinds)
	}
}

// TestTablesRootKeepsValue2: with the 2-piece tables (a build of a tenth
// of a second).
func TestTablesRootKeepsValue2(t *testing.T) {
	rootKeepsValues(t, buildTables(t, 2), 2, 300)
}

// TestTablesThreePieces: with the 3-piece tables (seconds to build, so
// once for the checks that need them): the root keeps its value, draws
// included, and a search probing the tables finds wins beyond its depth.
func TestTablesThreePieces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 3-piece tables: seconds")
	}
	tb := buildTables(t, 3)
	t.Run("root", func(t *testing.T) { rootKeepsValues(t, tb, 3, 400) })
	t.Run("draws", func(t *testing.T) { drawsHeld(t, tb) })
}

// drawsHeld: at table draws of three pieces the engine moves to a draw.
func drawsHeld(t *testing.T, tb *endgame.Tables) {
	g, _ := game.New("pommel", nil)
	e := tableEngine(t, "ab:depth=2,tt=10", tb)
	draws := 0
	for _, s := range tablePositions(t, g, 3, 20000, 7) {
		if v, _ := tb.Probe(s); v.Kind != endgame.Draw {
			continue
		}
		draws++
		info := e.Search(context.Background(), s, Limits{}, nil)
		if info.Score != 0 {
			t.Errorf("%s: a draw scored %s", s.FEN(), ScoreText(info.Score))
		}
		checkKeepsValue(t, tb, s, endgame.Value{Kind: endgame.Draw}, info.Move)
	}
	if draws == 0 {
		t.Fatal("no drawn position among 20000 of three pieces")
	}
}

// TestTablesFindWinsBeyondDepth: from positions of three pieces, which
// the 2-piece tables do not hold, ab at depth 2 with the tables reports a
// forced win where ab at depth 2 without them sees none, the tables' win
// lying beyond its horizon. The win is real: where the line it gives
// reaches a position of the tables, the tables say the same distance.
func TestTablesFindWinsBeyondDepth(t *testing.T) {
	tb := buildTables(t, 2)
	g, _ := game.New("pommel", nil)
	rng := rand.New(rand.NewPCG(5, 5))
	with, plain := tableEngine(t, "ab:depth=2,tt=10", tb), mustEngine(t, "ab:depth=2,tt=10")
	found := 0
	for tries := 0; tries < 5000 && found < 10; tries++ {
		s := randomPosition(t, g, 3, rng)
		w := with.Search(context.Background(), s, Limits{}, nil)
		if w.Score <= Mate-mateBand || Mate-w.Score <= 4 {
			continue
		}
		if p := plain.Search(context.Background(), s, Limits{}, nil); decided(p.Score) {
			continue
		}
		if checkLine(t, tb, s, w) {
			found++
		}
	}
	if found < 10 {
		t.Errorf("%d positions where the tables found a win the search did not, want 10", found)
	}
}

// checkLine follows info's line from s to the first position the tables
// hold and checks that its value is the win info's score says; it
// reports false when the line ends before (in a quiescence capture).
func checkLine(t *testing.T, tb *endgame.Tables, s game.State, info Info) bool {
	t.Helper()
	c := s.Clone()
	for k, m := range info.PV {
		c.Play(m)
		v, err := tb.Probe(c)
		if err != nil {
			continue
		}
		want := endgame.Value{Kind: endgame.Loss, Plies: Mate - info.Score - k - 1}
		if k%2 == 1 {
			want.Kind = endgame.Win
		}
		if v != want {
			t.Errorf("%s: %s, and after %d plies of its line the tables say %v, not %v", s.FEN(), ScoreText(info.Score), k+1, v, want)
		}
		return true
	}
	return false
}

// TestTablesPlyCap: a table win that does not fit under maxplies scores
// as the draw it is; one that fits scores as a win.
func TestTablesPlyCap(t *testing.T) {
	tb := buildTables(t, 2)
	g, _ := game.New("pommel", nil)
	s, v := longWin(t, tb, g, 3)
	for _, tc := range []struct {
		maxPlies int
		want     int
	}{{v.Plies, Mate - v.Plies}, {v.Plies - 1, 0}, {600, Mate - v.Plies}} {
		capped, err := game.New("pommel", map[string]string{"maxplies": strconv.Itoa(tc.maxPlies)})
		if err != nil {
			t.Fatal(err)
		}
		cs, err := capped.ParseFEN(s.FEN())
		if err != nil {
			t.Fatal(err)
		}
		info := tableEngine(t, "ab:depth=3,tt=10", tb).Search(context.Background(), cs, Limits{}, nil)
		if info.Err != nil || info.Score != tc.want {
			t.Errorf("%s (%v) maxplies=%d: score %s (%v), want %s", s.FEN(), v, tc.maxPlies, ScoreText(info.Score), info.Err, ScoreText(tc.want))
		}
	}
}

// TestTablesWhoUsesThem: tables=off and the levels below 6 search as
// they do without tables; ab and level 6 read them.
func TestTablesWhoUsesThem(t *testing.T) {
	tb := buildTables(t, 2)
	g, _ := game.New("pommel", nil)
	s, v := longWin(t, tb, g, 4)
	lim := Limits{Depth: 4}
	for _, tc := range []struct {
		spec      string
		usesThem  bool
		sameAsOff string // the spec without tables it must equal
	}{
		{"ab:depth=4", true, ""},
		{"ab:depth=4,tables=on", true, ""},
		{"ab:depth=4,tables=off", false, "ab:depth=4"},
		{"ai:level=6", true, ""},
		{"ai:level=5", false, "ai:level=5"},
	} {
		info := tableEngine(t, tc.spec, tb).Search(context.Background(), s, lim, nil)
		if got := info.Score == Mate-v.Plies; got != tc.usesThem {
			t.Errorf("%s: score %s at %v: tables used %v, want %v", tc.spec, ScoreText(info.Score), v, got, tc.usesThem)
		}
		if tc.sameAsOff == "" {
			continue
		}
		plain := mustEngine(t, tc.sameAsOff).Search(context.Background(), s, lim, nil)
		if plain.Move != info.Move || plain.Score != info.Score || plain.Nodes != info.Nodes {
			t.Errorf("%s with tables searched differently from %s without", tc.spec, tc.sameAsOff)
		}
	}
}

// TestTablesRefused: tables=on without tables and a bad tables value are
// refused when the engine is made; a search of another game or other
// rules than the tables' fails, naming both.
func TestTablesRefused(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"ab:tables=on", "given no endgame tables"},
		{"ab:tables=yes", "tables=yes: want on or off"},
		{"ab:tables=ON", "tables=ON: want on or off"},
		{"ab:tables=", "write parameters as key=value"},
		{"ab:tables=on,tables=off", "given twice"},
		{"ab:tables=" + strings.Repeat("x", 500), "tables=xxxx"},
		{"mcts:tables=on", "unknown parameter"},
	} {
		_, err := New(tc.spec, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 250 || strings.Contains(err.Error(), "\n") {
			t.Errorf("%.40s: error %v, want one short line with %q", tc.spec, err, tc.want)
		}
	}
	tb := buildTables(t, 2)
	for _, tc := range []struct {
		id   string
		opts map[string]string
		want string
	}{
		{"pommel", map[string]string{"hop": "any"}, "not of pommel (hop=any)"},
		{"pommel-76", nil, "not of pommel-76"},
	} {
		g, err := game.New(tc.id, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		info := tableEngine(t, "ab:depth=2,tt=10", tb).Search(context.Background(), g.Start(), Limits{}, nil)
		if info.Err == nil || !strings.Contains(info.Err.Error(), tc.want) {
			t.Errorf("%s %v: error %v, want %q", tc.id, tc.opts, info.Err, tc.want)
		}
	}
	// Engines that do not read tables take them, so that a command can
	// give them to every player.
	for _, spec := range []string{"random", "uct", "mcts", "ai:level=3"} {
		if _, err := New(spec, 1, WithTables(tb)); err != nil {
			t.Errorf("%s with tables: %v", spec, err)
		}
	}
}

// TestTablesAgreeWithSearch: where ab without tables finds a forced win
// or loss within its horizon, the tables give the same result, in as many
// plies or fewer: ab stops deepening at the first forced result it finds,
// which a deeper search may shorten (a faster win, or a loss that the
// winner's faster win makes shorter), never lengthen.
func TestTablesAgreeWithSearch(t *testing.T) {
	tb := buildTables(t, 2)
	g, _ := game.New("pommel", nil)
	e := mustEngine(t, "ab:depth=8,tt=14")
	seen := 0
	for _, s := range tablePositions(t, g, 2, 200, 11) {
		info := e.Search(context.Background(), s, Limits{}, nil)
		if !decided(info.Score) {
			continue
		}
		seen++
		v, err := tb.Probe(s)
		if err != nil {
			t.Fatal(err)
		}
		n, win := Mate-info.Score, info.Score > 0
		if !win {
			n = Mate + info.Score
		}
		if win != (v.Kind == endgame.Win) || v.Kind == endgame.Draw || v.Plies > n || v.Plies%2 != n%2 {
			t.Errorf("%s: ab finds %s, the tables say %v", s.FEN(), ScoreText(info.Score), v)
		}
	}
	if seen < 20 {
		t.Errorf("ab found only %d forced results among 200 positions", seen)
	}
}

// longWin finds, among 2000 random two-piece positions (seed picks them),
// a win of 9 plies or more, and returns it with its value.
func longWin(t *testing.T, tb *endgame.Tables, g game.Game, seed uint64) (game.State, endgame.Value) {
	t.Helper()
	for _, c := range tablePositions(t, g, 2, 2000, seed) {
		if v, _ := tb.Probe(c); v.Kind == endgame.Win && v.Plies >= 9 {
			return c, v
		}
	}
	t.Fatal("no win of 9 plies or more among 2000 positions")
	return nil, endgame.Value{}
}
