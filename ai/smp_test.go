package ai

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// TestTableRoundTrip: an entry comes back from the table as it went in,
// at the ends of every field's range, written plainly or atomically.
func TestTableRoundTrip(t *testing.T) {
	for _, shared := range []bool{false, true} {
		tt := newTranspositions(minTTBits)
		tt.shared = shared
		checkRoundTrip(t, tt)
	}
}

func checkRoundTrip(t *testing.T, tt transpositions) {
	entries := []ttEntry{
		{key: 1, score: 0, depth: 1, bound: boundExact, best: 0},
		{key: 0xdeadbeefcafef00d, score: -Mate - 200, depth: MaxDepth, bound: boundUpper, best: 0xffff},
		{key: 1 << 63, score: Mate + 200, depth: -1, bound: boundLower, best: 1234},
		{key: 0x1234, score: -1, depth: 0, bound: 0, best: 7},
	}
	for _, en := range entries {
		tt.store(en)
		got, ok := tt.probe(en.key)
		if !ok || got != en {
			t.Errorf("shared %v: stored %+v, probed %+v (found %v)", tt.shared, en, got, ok)
		}
	}
}

// TestTableRefusesTornAndOtherEntries: a slot whose two words come from
// two different stores (as a thread reading while another writes may see
// it), or that holds another position, reads as empty.
func TestTableRefusesTornAndOtherEntries(t *testing.T) {
	tt := newTranspositions(minTTBits)
	size := uint64(len(tt.slots))
	a := ttEntry{key: 5, score: 100, depth: 3, bound: boundExact, best: 2}
	b := ttEntry{key: 5 + size, score: -40, depth: 7, bound: boundLower, best: 9}
	tt.store(a)
	if _, ok := tt.probe(b.key); ok {
		t.Error("a slot of another position with the same index was read as this one's")
	}
	tt.store(b)
	slot := &tt.slots[a.key&(size-1)]
	slot.check = a.key ^ packEntry(a) // a's check word over b's data word
	for _, key := range []uint64{a.key, b.key} {
		if got, ok := tt.probe(key); ok {
			t.Errorf("a torn slot read as the entry %+v of key %d", got, key)
		}
	}
}

// smpPositions are positions of several games (two and three players,
// stacks) that the threads search.
var smpPositions = []struct{ id, fen string }{
	{"pommel", ""},
	{"pommel", "W:Wa1,b1,b2,d2,Kd7,e1,f1,f3,g1,g2:Bb5,c4"},
	{"eximo", ""},
	{"checkers-2011", ""},
	{"punt-heks-match-3p", ""},
}

// TestThreadsSearchLegally: with two and three threads at a fixed depth,
// every search answers a legal move at that depth with a line that
// starts with it, counts the nodes of every thread, and leaves its state
// as it was. Run it with -race: the threads share the table.
func TestThreadsSearchLegally(t *testing.T) {
	for i, pos := range smpPositions {
		for _, threads := range []string{"2", "3"} {
			t.Run(pos.id+" threads="+threads, func(t *testing.T) {
				if testing.Short() && (i > 1 || threads != "2") {
					t.Skip("-short: two threads in the Pommel positions only")
				}
				s := newState(t, pos.id, pos.fen)
				fen := s.FEN()
				const depth = 4
				info := mustEngine(t, "ab:threads="+threads).Search(context.Background(), s, Limits{Depth: depth}, nil)
				if !slices.Contains(s.Moves(nil), info.Move) {
					t.Fatalf("answered %v, not a legal move", info.Move)
				}
				if info.Depth != depth || len(info.PV) == 0 || info.PV[0] != info.Move {
					t.Errorf("depth %d, line %v for move %v; want depth %d and a line from the move", info.Depth, info.PV, info.Move, depth)
				}
				one := mustEngine(t, "ab").Search(context.Background(), s, Limits{Depth: depth}, nil)
				if info.Nodes <= one.Nodes/2 {
					t.Errorf("%d nodes counted with %s threads, %d with one: the helpers' are not counted", info.Nodes, threads, one.Nodes)
				}
				if s.FEN() != fen {
					t.Error("the search changed the state it was given")
				}
			})
		}
	}
}

// TestThreadsFindTheSameWin: in positions won by force within the depth,
// and in the lost positions after the winning move, two threads find the
// score one thread finds (the quickest win, the longest defence) and the
// winning move.
func TestThreadsFindTheSameWin(t *testing.T) {
	tests := []struct{ id, fen, win string }{
		{"pommel", "B:Wa3,b2,c1,e1,e2,g2:Bc3,c4,d6,e6,Kf1,f5,f6,f7,g4", "f1xd2xf3xb1xb3"},
		{"pommel", "W:Wb3,b4,Kf4,g1:Bf2,f5,f6", "f4xf7"},
		{"pommel-76", "B:Wb8:Bb3", "b3-b2"},
	}
	for _, tc := range tests {
		t.Run(tc.fen, func(t *testing.T) {
			won := newState(t, tc.id, tc.fen)
			lost := won.Clone()
			m, err := game.ParseMove(lost, tc.win)
			if err != nil {
				t.Fatal(err)
			}
			lost.Play(m)
			for i, s := range []game.State{won, lost} {
				one, two := searchBoth(t, s, Limits{Depth: 6})
				if got := two.Move.Text(s.Game().Board()); i == 0 && got != tc.win {
					t.Errorf("two threads play %s, want %s", got, tc.win)
				}
				if one.Score < Mate-MaxDepth && one.Score > -Mate+MaxDepth {
					t.Fatalf("one thread scores %d: not a forced result, the test needs another position", one.Score)
				}
				if two.Score != one.Score {
					t.Errorf("%s: two threads score %d, one thread %d", s.FEN(), two.Score, one.Score)
				}
			}
		})
	}
}

// searchBoth searches s with one thread and with two.
func searchBoth(t *testing.T, s game.State, lim Limits) (one, two Info) {
	t.Helper()
	one = mustEngine(t, "ab").Search(context.Background(), s, lim, nil)
	two = mustEngine(t, "ab:threads=2").Search(context.Background(), s, lim, nil)
	return one, two
}

// TestThreadsShareTheNodeLimit: a node limit bounds every thread
// together, not each one.
func TestThreadsShareTheNodeLimit(t *testing.T) {
	s := newState(t, "pommel", "")
	const limit = 20000
	for _, threads := range []int{2, 4} {
		info := mustEngine(t, "ab:threads="+strconv.Itoa(threads)).Search(context.Background(), s, Limits{Nodes: limit}, nil)
		// Each thread stops within a node or two of its share; the search
		// ends when the main thread has spent its own.
		if info.Nodes > limit+int64(2*threads) || info.Nodes < limit/int64(threads) {
			t.Errorf("%d threads: %d nodes under a limit of %d", threads, info.Nodes, limit)
		}
	}
}

// TestThreadsStopWithTheContext: cancelling a search of several threads
// stops every thread, and the reports count the helpers' nodes.
func TestThreadsStopWithTheContext(t *testing.T) {
	s := newState(t, "pommel", "")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	var reported []Info
	info := mustEngine(t, "ab:threads=2").Search(ctx, s, Limits{}, func(i Info) { reported = append(reported, i) })
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the search went on %v after its context ended", took)
	}
	if len(reported) == 0 || !slices.Contains(s.Moves(nil), info.Move) {
		t.Fatalf("%d reports, move %v", len(reported), info.Move)
	}
	if last := reported[len(reported)-1]; last.Nodes > info.Nodes {
		t.Errorf("a report counted %d nodes, the answer %d", last.Nodes, info.Nodes)
	}
}

// TestSkipsDepth: the main thread searches every depth; each helper
// skips depths of its own, in runs that grow with its number.
func TestSkipsDepth(t *testing.T) {
	searched := func(skew int) string {
		e := &ab{skew: skew}
		var b strings.Builder
		for d := 1; d <= 8; d++ {
			if e.skipsDepth(d) {
				b.WriteByte('.')
			} else {
				b.WriteByte('x')
			}
		}
		return b.String()
	}
	tests := []struct {
		skew int
		want string
	}{
		{0, "xxxxxxxx"},
		{1, "x.x.x.x."},
		{2, ".x.x.x.x"},
		{3, "xx..xx.."},
		{4, "x..xx..x"},
	}
	for _, tc := range tests {
		if got := searched(tc.skew); got != tc.want {
			t.Errorf("skew %d searches %s, want %s", tc.skew, got, tc.want)
		}
	}
}

// TestWithThreads: WithThreads sets the threads of ab and the levels,
// over the spec's; it refuses a count out of range.
func TestWithThreads(t *testing.T) {
	tests := []struct {
		spec    string
		threads int
		want    int
		err     string
	}{
		{"ab", 2, 2, ""},
		{"ab:threads=4", 2, 2, ""},
		{"ai:level=6", 3, 3, ""},
		{"ab", 1, 1, ""},
		{"ab", MaxThreads, MaxThreads, ""},
		{"ab", 0, 0, "threads 0: want a whole number from 1 to 64"},
		{"ab", -2, 0, "threads -2: want a whole number from 1 to 64"},
		{"ab", MaxThreads + 1, 0, "threads 65: want a whole number from 1 to 64"},
		{"ab", 1 << 40, 0, "threads 1099511627776: want a whole number from 1 to 64"},
		{"uct", 2, 0, ""},
	}
	for _, tc := range tests {
		e, err := New(tc.spec, 1, WithThreads(tc.threads))
		if got := errText(err); got != tc.err {
			t.Errorf("%s with %d threads: error %q, want %q", tc.spec, tc.threads, got, tc.err)
			continue
		}
		if got := threadsOf(e); err == nil && got != tc.want {
			t.Errorf("%s with %d threads: searches with %d", tc.spec, tc.threads, got)
		}
		if a := abOf(e); a != nil && a.tt.shared != (tc.want > 1) {
			t.Errorf("%s with %d threads: table shared %v", tc.spec, tc.threads, a.tt.shared)
		}
	}
}

// threadsOf is the threads of an ab or a level, 0 for other engines.
func threadsOf(e Engine) int {
	if a := abOf(e); a != nil {
		return a.threads
	}
	return 0
}

// abOf is the ab of an ab or a level, nil for other engines.
func abOf(e Engine) *ab {
	switch e := e.(type) {
	case *ab:
		return e
	case *level:
		return e.inner
	}
	return nil
}

// TestThreadsSpec: threads=N in a spec of ab or a level, refused out of
// range and by the other engines.
func TestThreadsSpec(t *testing.T) {
	tests := []struct{ spec, err string }{
		{"ab:threads=2", ""},
		{"ai:level=6,threads=2", ""},
		{"ab:threads=0", `player "ab:threads=0": threads=0: want a whole number from 1 to 64`},
		{"ai:level=6,threads=65", `player "ai:level=6,threads=65": threads=65: want a whole number from 1 to 64`},
		{"ab:threads=two", `player "ab:threads=two": threads=two: want a whole number from 1 to 64`},
		{"uct:threads=2", `player "uct:threads=2": unknown parameter "threads"`},
		{"mcts:threads=2", `player "mcts:threads=2": unknown parameter "threads"`},
	}
	for _, tc := range tests {
		_, err := New(tc.spec, 1)
		if got := errText(err); got != tc.err {
			t.Errorf("%s: error %q, want %q", tc.spec, got, tc.err)
		}
	}
}

// TestThreadsAreOneByDefault: without threads=N an engine searches as it
// always did, with one thread, no helpers and a table of its own written
// plainly; with threads its table is written atomically.
func TestThreadsAreOneByDefault(t *testing.T) {
	for _, spec := range []string{"ab", "ai:level=6", "ai:level=1"} {
		e := mustEngine(t, spec)
		if got := threadsOf(e); got != 1 {
			t.Errorf("%s: %d threads", spec, got)
		}
		s := newState(t, "pommel", "")
		e.Search(context.Background(), s, Limits{Depth: 2}, nil)
		if a, ok := e.(*ab); ok && (a.lazy != nil || a.tt.shared) {
			t.Errorf("%s: made helpers or shares its table", spec)
		}
	}
}

// TestFootprintCountsHelpers: each thread past the first holds an ab of
// its own on the one table.
func TestFootprintCountsHelpers(t *testing.T) {
	for _, spec := range []string{"ab", "ai:level=6"} {
		one := mustFootprint(t, spec)
		sep := ":"
		if strings.Contains(spec, ":") {
			sep = ","
		}
		if got := mustFootprint(t, spec+sep+"threads=3") - one; got != 2*sizeOf[ab]() {
			t.Errorf("%s: three threads hold %d bytes more than one, want two helpers' %d", spec, got, 2*sizeOf[ab]())
		}
	}
}
