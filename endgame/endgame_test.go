package endgame

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

// builtTables builds Pommel tables of k pieces once per test binary and
// key, into a folder kept until the tests end.
var builtTables sync.Map // key -> *builtOnce

type builtOnce struct {
	once sync.Once
	dir  string
	err  error
}

// tablesFor returns a folder of tables of id with k pieces, built once.
func tablesFor(t *testing.T, id string, opts map[string]string, k int) (game.Game, string) {
	t.Helper()
	g, err := game.New(id, opts)
	if err != nil {
		t.Fatal(err)
	}
	key := id + " " + RulesOf(g) + " " + string(rune('0'+k))
	v, _ := builtTables.LoadOrStore(key, &builtOnce{})
	b := v.(*builtOnce)
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "endgame-test-")
		if b.err == nil {
			_, b.err = Build(context.Background(), Config{Game: g, Pieces: k, Dir: b.dir})
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return g, b.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	builtTables.Range(func(_, v any) bool {
		os.RemoveAll(v.(*builtOnce).dir)
		return true
	})
	os.Exit(code)
}

// smallPieces is the table size tests build: three pieces in the full
// run, two under -short.
func smallPieces() int {
	if testing.Short() {
		return 2
	}
	return 3
}

// TestLayoutRoundTrip turns every index of the small materials into
// pieces and back, on both boards: index(position(i)) = i makes position
// one-to-one, so no two indexes share a position.
func TestLayoutRoundTrip(t *testing.T) {
	for _, n := range []int{45, 76} {
		bin := newBinomials(n)
		for _, m := range Materials(smallPieces()) {
			l := newLayout(m, n, bin)
			for i := range l.size() {
				pieces, toMove := l.position(i, nil)
				if got := l.index(pieces, toMove); got != i {
					t.Fatalf("%s on %d cells: index %d reads back as %d", m, n, i, got)
				}
				if materialOf(pieces) != m {
					t.Fatalf("%s: index %d holds %s", m, i, materialOf(pieces))
				}
				for k := 1; k < len(pieces); k++ {
					if pieces[k-1].Cell >= pieces[k].Cell || int(pieces[k].Cell) >= n {
						t.Fatalf("%s: index %d: cells out of order, twice or off the board: %v", m, i, pieces)
					}
				}
			}
		}
	}
}

// TestMaterials checks the order a build needs and the names.
func TestMaterials(t *testing.T) {
	ms := Materials(4)
	if len(ms) != 4+12+25 {
		t.Fatalf("%d materials of 2 to 4 pieces, want 41", len(ms))
	}
	for i, m := range ms {
		if i > 0 && (m.Total() < ms[i-1].Total() || m.Total() == ms[i-1].Total() && m.Men() < ms[i-1].Men()) {
			t.Errorf("%s comes after %s", m, ms[i-1])
		}
		back, err := ParseMaterial(m.String())
		if err != nil || back != m {
			t.Errorf("%s reads back as %s, %v", m, back, err)
		}
	}
	for _, bad := range []string{"", "KM", "vK", "Kv", "MKvK", "KvKx", "KvvK", strings.Repeat("K", 70) + "vK"} {
		if _, err := ParseMaterial(bad); err == nil {
			t.Errorf("ParseMaterial(%q) accepted", bad)
		}
	}
}

// TestValuesByHand probes positions whose values are worked out by hand.
func TestValuesByHand(t *testing.T) {
	g, dir := tablesFor(t, "pommel", nil, 2)
	tb, err := Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, fen, want string
	}{
		// a1 jumps a2 to a3: Black has nothing left.
		{"a capture that empties a side", "W:Wa1:Ba2", "win 1"},
		// Black's a2 cannot step onto White's a1, nor jump it (the board
		// ends below a1): its one move is a2-b2, and then a1 jumps b2 to
		// c2, taking Black's last piece.
		{"a forced step into a capture", "B:Wa1:Ba2", "loss 2"},
	}
	for _, tt := range tests {
		s, err := g.ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		v, err := tb.Probe(s)
		if err != nil || v.String() != tt.want {
			t.Errorf("%s: %s is %v (%v), want %s", tt.name, tt.fen, v, err, tt.want)
		}
	}
}

// TestVerify checks a fresh build passes the self-consistency check on
// every position, and that the check finds a single value changed.
func TestVerify(t *testing.T) {
	g, dir := tablesFor(t, "pommel", nil, smallPieces())
	tb, err := Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Verify(t.Context(), tb, 2, nil)
	if err != nil || r.Failures != 0 {
		t.Fatalf("fresh tables: %+v, %v", r, err)
	}
	var positions uint64
	for _, ms := range tb.Manifest().Materials {
		positions += ms.Positions
	}
	if r.Positions != positions || positions == 0 {
		t.Fatalf("checked %d positions, the manifest lists %d", r.Positions, positions)
	}

	// Make one win a move longer: its own check fails, and so may its
	// parents'.
	bad := copyDir(t, dir)
	man, err := readManifest(bad)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := ParseMaterial("MvM")
	l := newLayout(m, g.Board().Len(), newBinomials(g.Board().Len()))
	vals, err := readMaterial(bad, man, m, l.size())
	if err != nil {
		t.Fatal(err)
	}
	changed := -1
	for i, v := range vals {
		if v != notAPosition && v&winBit != 0 {
			vals[i], changed = v+1, i
			break
		}
	}
	if err := writeMaterial(bad, man, m, vals); err != nil {
		t.Fatal(err)
	}
	tb, err = Open(bad, g)
	if err != nil {
		t.Fatal(err)
	}
	r, err = Verify(t.Context(), tb, 2, nil)
	if err != nil || r.Failures == 0 || len(r.Examples) == 0 {
		t.Fatalf("one value changed (index %d of MvM): %+v, %v", changed, r, err)
	}
	pieces, toMove := l.position(uint64(changed), nil)
	if fen := fenOfPlaced(g, pieces, toMove); !strings.Contains(strings.Join(r.Examples, "\n"), fen) {
		t.Errorf("the failures %q do not name the changed position %s", r.Examples, fen)
	}
}

// TestResume builds again into a finished folder: every material is read
// back, not built, and the files stay byte for byte the same. A damaged
// file stops the build with a message naming it.
func TestResume(t *testing.T) {
	g, dir := tablesFor(t, "pommel", nil, 2)
	again := copyDir(t, dir)
	var loaded []bool
	if _, err := Build(t.Context(), Config{Game: g, Pieces: 2, Dir: again, Progress: func(p Progress) { loaded = append(loaded, p.Loaded) }}); err != nil {
		t.Fatal(err)
	}
	if len(loaded) == 0 || !loaded[len(loaded)-1] {
		t.Errorf("the second build did not read its materials back: %v", loaded)
	}
	sameFiles(t, dir, again)

	for _, tc := range []struct {
		name string
		g    game.Game
		k    int
		want string
	}{
		{"the same pieces again", g, 2, ""},
		{"fewer pieces than the folder holds", g, 2, "holds tables of up to 3 pieces"},
		{"other rules", mustGame(t, "pommel", map[string]string{"hop": "any"}), 2, "not of pommel (hop=any)"},
	} {
		if tc.name == "fewer pieces than the folder holds" {
			man, err := readManifest(again)
			if err != nil {
				t.Fatal(err)
			}
			man.Pieces = 3
			if err := man.write(again); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Build(t.Context(), Config{Game: tc.g, Pieces: tc.k, Dir: again}); (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}

	damaged := copyDir(t, dir)
	path := filepath.Join(damaged, "KvM.wdl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Build(t.Context(), Config{Game: g, Pieces: 2, Dir: damaged})
	if err == nil || !strings.Contains(err.Error(), "KvM.wdl") || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a damaged file: %v", err)
	}
}

// TestOpenAndProbeRefuse lists what Open and Probe refuse.
func TestOpenAndProbeRefuse(t *testing.T) {
	g, dir := tablesFor(t, "pommel", nil, 2)
	other := func(id string, opts map[string]string) game.Game {
		o, err := game.New(id, opts)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	for _, tc := range []struct {
		name string
		dir  string
		g    game.Game
		want string
	}{
		{"no tables", t.TempDir(), g, "holds no endgame tables"},
		{"another board", dir, other("pommel-76", nil), "not of pommel-76"},
		{"other rules", dir, other("pommel", map[string]string{"hop": "any"}), "hop=any"},
	} {
		if _, err := Open(tc.dir, tc.g); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open: %v, want %q", tc.name, err, tc.want)
		}
	}
	// Options that change nothing on the board do not matter.
	if _, err := Open(dir, other("pommel", map[string]string{"maxplies": "100", "swap": "on"})); err != nil {
		t.Errorf("tables refused a game with another ply cap and the pie rule: %v", err)
	}
	tb, err := Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, fen, want string }{
		{"too many pieces", "W:Wa1,b1:Ba6", "has 3 pieces"},
		{"a side has none", "W:Wa1:B", "game is over"},
	} {
		s, err := g.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := tb.Probe(s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Probe(%s) = %v, %v; want %q", tc.name, tc.fen, v, err, tc.want)
		}
	}
	if _, err := tb.Probe(other("pommel-76", nil).Start()); err == nil {
		t.Error("Probe answered for a position of another game")
	}
	// A damaged file: the probe says so, and the prober does not answer.
	damaged := copyDir(t, dir)
	if err := os.WriteFile(filepath.Join(damaged, "KvK.dtm"), []byte("ARBEGT1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err = Open(damaged, g)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := g.ParseFEN("W:WKa1:BKg6")
	if _, err := tb.Probe(s); err == nil || !strings.Contains(err.Error(), "KvK.dtm") {
		t.Errorf("a damaged file: %v", err)
	}
	if _, ok := tb.NewProber().Lookup(s); ok {
		t.Error("Lookup answered from a damaged file")
	}
}

// TestNoMoveIsLost finds a position where the side to move has no legal
// move (a White soldier walled in by four Black soldiers it cannot take)
// and checks a build scores it a loss in 0 plies.
func TestNoMoveIsLost(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.ParseFEN("W:Wa5:Ba6,b6,c6,d7")
	if err != nil {
		t.Fatal(err)
	}
	if moves := s.Moves(nil); len(moves) != 0 {
		t.Fatalf("the walled-in soldier has %d moves", len(moves))
	}
	b, err := newBuilder(Config{Game: g, Pieces: 5, Dir: t.TempDir(), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := ParseMaterial("MvMMMM")
	l := b.layouts[m]
	pieces := s.(game.Placer).Placement(nil)
	i := l.index(pieces, s.ToMove())
	w := b.newWorker(l, make([]uint16, l.size()), make([]int16, l.slices))
	w.reset(int(l.sliceSize()))
	base := i - i%l.sliceSize()
	if err := w.expand(base, i-base); err != nil {
		t.Fatal(err)
	}
	if len(w.buckets) == 0 || len(w.buckets[0]) != 1 || w.buckets[0][0] != uint32(i-base)<<1|1 {
		t.Fatalf("the position was not scheduled as a loss in 0: %v", w.buckets)
	}
	v, err := (&checker{st: s, pl: s.(game.Placer)}).fromChildren(0)
	if err != nil || v != (Value{Kind: Loss}) {
		t.Errorf("the check's own rule says %v, %v", v, err)
	}
}

func copyDir(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	entries, err := os.ReadDir(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		x, _ := os.ReadFile(filepath.Join(a, e.Name()))
		y, err := os.ReadFile(filepath.Join(b, e.Name()))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs after the second build (%v)", e.Name(), err)
		}
	}
}

func mustGame(t *testing.T, id string, opts map[string]string) game.Game {
	t.Helper()
	g, err := game.New(id, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
