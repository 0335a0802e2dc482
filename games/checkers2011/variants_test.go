package checkers2011_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/checkers2011"
)

// The options of docs/rules/checkers-2011.md ("Variants"): ownjump=on and
// sidejump=on. The reference generator of reference_test.go knows them
// (refRules), written from the page, so that the engine is compared with
// an independent reading here too.

// TestVariantRules: each option's rules, on positions built by FEN, with
// the moves worked out by hand. Black's king on h8 (or h1) only keeps
// Black in the game.
func TestVariantRules(t *testing.T) {
	for _, tc := range []struct {
		name, opts, fen string
		want            []string
	}{
		{"off: no jump over a friend", "ownjump=off", "W:d4=w,d5=w,h8=B",
			[]string{"d4-c4", "d4-c5", "d4-e4", "d4-e5", "d5-c5", "d5-c6", "d5-d6", "d5-e5", "d5-e6"}},
		{"on: d4 jumps its friend on d5", "ownjump=on", "W:d4=w,d5=w,h8=B",
			[]string{"d4-c4", "d4-c5", "d4-d6", "d4-e4", "d4-e5", "d5-c5", "d5-c6", "d5-d6", "d5-e5", "d5-e6"}},
		{"on: a friend is the commander, prisoners below it do not matter", "ownjump=on", "W:d4=w,d5=bw,h8=B",
			[]string{"d4-c4", "d4-c5", "d4-d6", "d4-e4", "d4-e5", "d5-c5", "d5-c6", "d5-d6", "d5-e5", "d5-e6"}},
		{"on: only to an empty cell, and never a second jump", "ownjump=on", "W:d4=w,d5=w,d6=w,h8=B",
			[]string{"d4-c4", "d4-c5", "d4-e4", "d4-e5", "d5-c5", "d5-c6", "d5-d7", "d5-e5", "d5-e6",
				"d6-c6", "d6-c7", "d6-d7", "d6-e6", "d6-e7"}},
		{"on: a capture is still compulsory", "ownjump=on", "W:d4=w,d5=w,e5=b,h8=B", []string{"d4xf6"}},
		{"on: a king leaps in its six jump directions, not sideways", "ownjump=on", "W:d4=W,e4=w,d5=w,h8=B",
			[]string{"d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d6", "d4-e3", "d4-e5",
				"d5-c5", "d5-c6", "d5-d6", "d5-e5", "d5-e6", "e4-c6", "e4-e5", "e4-f4", "e4-f5"}},
		{"on with sidejump: the king leaps sideways too", "ownjump=on sidejump=on", "W:d4=W,e4=w,d5=w,h8=B",
			[]string{"d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d6", "d4-e3", "d4-e5", "d4-f4",
				"d5-c5", "d5-c6", "d5-d6", "d5-e5", "d5-e6", "e4-c4", "e4-c6", "e4-e5", "e4-f4", "e4-f5"}},
		{"sidejump off: a soldier does not capture sideways", "sidejump=off", "W:d4=w,e4=b,h8=B",
			[]string{"d4-c4", "d4-c5", "d4-d5", "d4-e5"}},
		{"sidejump on: it must", "sidejump=on", "W:d4=w,e4=b,a1=w,h8=B", []string{"d4xf4"}},
		{"sidejump on: a soldier does not jump straight back", "sidejump=on", "W:d4=w,e4=bb,h8=B", []string{"d4xf4"}},
		{"sidejump on: a king does, and must (the longest)", "sidejump=on", "W:d4=W,e4=bb,h8=B", []string{"d4xf4xd4"}},
		{"sidejump on: two jumps along a rank", "sidejump=on", "W:a4=w,b4=b,d4=b,h8=B", []string{"a4xc4xe4"}},
		{"sidejump on: a soldier goes on along the last rank", "sidejump=on", "W:b6=w,b7=b,c8=b,h1=B", []string{"b6xb8xd8"}},
		{"sidejump off: the sequence stops on the last rank", "sidejump=off", "W:b6=w,b7=b,c8=b,h1=B", []string{"b6xb8"}},
		{"sidejump on: a king captures sideways", "sidejump=on", "W:d4=W,e4=b,h8=B", []string{"d4xf4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, newGame(t, strings.Fields(tc.opts)...), tc.fen)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if got := gametest.RuleMoves(s); !slices.Equal(got, want) {
				t.Errorf("moves %v\nwant  %v", got, want)
			}
		})
	}
}

// TestVariantPlay: what the new moves do when played.
func TestVariantPlay(t *testing.T) {
	for _, tc := range []struct {
		name, opts, fen, move, after string
	}{
		// c6 is caught between d6 and b6 after the leap (no capture was
		// possible: b7 blocks d5xb7).
		{"a leap sandwiches", "ownjump=on", "W:d4=w,d5=w,c6=b,b6=w,b7=w,h8=B", "d4-d6", "B:d5=w,b6=w,d6=w,b7=w,h8=B"},
		{"a leap to the last rank promotes", "ownjump=on", "W:d6=w,d7=w,h1=B", "d6-d8", "B:h1=B,d7=w,d8=W"},
		{"a leap leaves the friend as it was", "ownjump=on", "W:d4=w,d5=bw,h8=B", "d4-d6", "B:d5=bw,d6=w,h8=B"},
		{"two prisoners, promoted at the end", "sidejump=on", "W:b6=w,b7=b,c8=b,h1=B", "b6xb8xd8", "B:h1=B,d8=bbW"},
		{"a king takes the same stack twice sideways", "sidejump=on", "W:d4=W,e4=bb,h8=B", "d4xf4xd4", "B:d4=bbW,h8=B"},
		// Jumping a stack on Black's last rank frees a Black soldier
		// there: it stays a soldier until it moves.
		{"a soldier freed on its last rank", "sidejump=on", "W:c1=w,d1=bB,h8=B", "c1xe1", "B:d1=b,e1=Bw,h8=B"},
		{"it is promoted by a move ending there", "sidejump=on", "B:d1=b,e1=Bw,h8=B", "d1xf1", "W:e1=B,f1=wB,h8=B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, newGame(t, strings.Fields(tc.opts)...), tc.fen)
			gametest.CheckPlay(t, s, game.PlayMoves, tc.move, tc.after)
		})
	}
}

// variantPerft counts from the start and from positions where the
// options matter. The start's counts are derived by hand: White's 8
// soldiers on rank 2 step north, and 7 of them north-east and 7
// north-west (22); with ownjump=on the 8 on rank 1 also leap over rank 2
// to rank 3, straight (8) and diagonally (6 and 6), making 42. Black is
// the mirror image and the two sides are out of each other's reach:
// perft(2) is the square. sidejump changes nothing until the armies
// meet. The counts to depth 3 come from the reference generator, which
// the test repeats (to depth 2 under -short); the start's perft(4) is the
// engine's, pinned.
var variantPerft = []struct {
	name, opts, fen string
	counts          []uint64
}{
	{"start", "ownjump=on", "", []uint64{42, 1764, 77700, 3422500}},
	{"start", "sidejump=on", "", []uint64{22, 484, 12892, 343396}},
	{"start, both", "ownjump=on sidejump=on", "", []uint64{42, 1764, 80472, 3671056}},
	{"sandwiches round two corners", "sidejump=on",
		"W:c1=B,b1=B,a1=B,a2=b,a3=bB,a4=w,d2=W,g2=w,f3=bw,e7=B,g8=W,h8=W,h7=w,h6=b,c6=bbww,d5=Wb,b5=b", []uint64{28, 55, 888}},
	{"lines along the edges", "ownjump=on sidejump=on",
		"B:b1=w,c1=W,e1=B,f1=w,a2=w,a3=W,a4=b,a5=b,a6=w,h2=w,h3=w,h4=bb,h5=wB,h6=w,h7=b,c8=B,d8=W,f8=b,g7=bbwB,c3=w,d4=wwbW,e5=bB", []uint64{2, 4, 4}},
	{"a middle game with tall stacks", "ownjump=on",
		"B:a1=w,b1=w,f1=w,h1=w,a2=w,c2=w,e2=w,h2=w,c3=W,f3=w,h4=w,a5=w,e5=bbbb,h5=bw,d6=bw,f6=b,g7=b,h7=b,b8=b,d8=bbbW,f8=bbW,h8=b", []uint64{22, 216, 4129}},
	{"a king's back-and-forth chain", "sidejump=on",
		"W:c3=W,d4=bbB,f4=wbw,d6=bwb,f6=b,b6=bb,h6=B,c7=b,e7=wB,a1=w,e1=w,g1=w,b2=w", []uint64{1, 1, 22}},
}

func TestVariantPerft(t *testing.T) {
	refDepth := 3
	if testing.Short() {
		refDepth = 2
	}
	for _, tc := range variantPerft {
		t.Run(tc.name+" "+tc.opts, func(t *testing.T) {
			g := newGame(t, strings.Fields(tc.opts)...)
			fen := tc.fen
			if fen == "" {
				fen = startFEN
			}
			ref, err := refParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			rules := rulesOf(g)
			counts := tc.counts
			for d, want := range counts[:min(refDepth, len(counts))] {
				if got := refPerftWith(ref, rules, d+1); got != want {
					t.Errorf("reference perft(%d) = %d, table %d", d+1, got, want)
				}
			}
			if i := slices.IndexFunc(counts, func(n uint64) bool { return n > 1_000_000 }); i >= 0 && testing.Short() {
				counts = counts[:i]
			}
			gametest.CheckPerft(t, gametest.MustParse(t, g, fen), counts, 500_000)
		})
	}
}

// TestDefaultsKeepThePerft: the options at their defaults count what the
// rules count.
func TestDefaultsKeepThePerft(t *testing.T) {
	g := newGame(t, "ownjump=off", "sidejump=off")
	for _, tc := range perftTable {
		gametest.CheckPerft(t, gametest.Position(t, g, tc.fen), tc.counts[:3], 100_000)
	}
}

// TestVariantsAgainstTheReference compares random games and random
// positions with the reference, the options on.
func TestVariantsAgainstTheReference(t *testing.T) {
	games, plies, positions := 20, 300, 1000
	if testing.Short() {
		games, plies, positions = 1, 60, 30
	}
	for _, opts := range [][]string{{"ownjump=on"}, {"sidejump=on"}, {"ownjump=on", "sidejump=on"}} {
		g := newGame(t, opts...)
		rng := rand.New(rand.NewPCG(2011, uint64(len(opts[0]))))
		for range games {
			s := g.Start()
			for ply := 0; ply < plies && compareAt(t, s, nil); ply++ {
				moves := s.Moves(nil)
				if len(moves) == 0 {
					break
				}
				s.Play(moves[rng.IntN(len(moves))])
			}
		}
		for range positions {
			fen := randomFEN(rng, 4+rng.IntN(26), 0.3)
			if !compareAt(t, gametest.MustParse(t, g, fen), nil) {
				return
			}
		}
	}
}

// TestVariantOptionsRefused: bad values are refused in one short line.
func TestVariantOptionsRefused(t *testing.T) {
	long := strings.Repeat("on", 300)
	for _, tc := range []struct{ key, value string }{
		{"ownjump", ""}, {"ownjump", "yes"}, {"ownjump", "ON"}, {"ownjump", "1"}, {"ownjump", "-1"},
		{"ownjump", "NaN"}, {"ownjump", long},
		{"sidejump", "true"}, {"sidejump", "0"}, {"sidejump", "Inf"}, {"sidejump", " on"}, {"sidejump", long},
	} {
		_, err := game.New(checkers2011.ID, map[string]string{tc.key: tc.value})
		switch {
		case err == nil:
			t.Errorf("%s=%.20q accepted", tc.key, tc.value)
		case !strings.Contains(err.Error(), "option "+tc.key+"=") || !strings.Contains(err.Error(), "must be one of off, on") ||
			strings.Contains(err.Error(), "\n") || len(err.Error()) > 200:
			t.Errorf("%s=%.20q: %q, want one short line naming the option and its values", tc.key, tc.value, err)
		}
	}
}

// conformancePlies is how far the conformance suite plays a random game:
// the options matter from the first contact on, and under -short the
// first 80 plies keep the test quick.
func conformancePlies() int {
	if testing.Short() {
		return 80
	}
	return 400
}

// TestVariantsConformance: the conformance suite with the options on.
func TestVariantsConformance(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 1
	}
	for _, opts := range [][]string{{"ownjump=on"}, {"sidejump=on"}, {"ownjump=on", "sidejump=on"}} {
		g := newGame(t, opts...)
		rng := rand.New(rand.NewPCG(5, uint64(len(opts))))
		for range n {
			gametest.RandomGame(t, g.Start(), rng, conformancePlies(), nil)
		}
	}
}

// FuzzVariantGame: a random game chosen by the fuzzer, with the options
// chosen by it too, keeps the conformance suite at every move.
func FuzzVariantGame(f *testing.F) {
	f.Add(uint64(1), uint8(1))
	f.Add(uint64(2), uint8(2))
	f.Add(uint64(3), uint8(3))
	f.Fuzz(func(t *testing.T, seed uint64, options uint8) {
		onOff := [2]string{"off", "on"}
		g := newGame(t, "ownjump="+onOff[options&1], "sidejump="+onOff[options>>1&1])
		gametest.RandomGame(t, g.Start(), rand.New(rand.NewPCG(seed, seed>>32)), conformancePlies(), nil)
	})
}

// TestFreedSoldierFEN: a soldier commanding on its own last rank can
// only come from a sideways jump, so only sidejump=on games read it.
func TestFreedSoldierFEN(t *testing.T) {
	const fen = "B:d1=b,e1=Bw,h8=B"
	if _, err := newGame(t).ParseFEN(fen); err == nil || !strings.Contains(err.Error(), "would have been promoted") {
		t.Errorf("the rules' game reads %s: %v", fen, err)
	}
	s := gametest.MustParse(t, newGame(t, "sidejump=on"), fen)
	if s.FEN() != fen {
		t.Errorf("read as %s", s.FEN())
	}
}
