package punt_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/punt"
)

// The variants of docs/rules/punt.md ("Variants"): end=all-stuck and
// tiebreak=progress|last. The reference model of reference_test.go gets
// end=all-stuck here, written from the page's definition, so that the
// engine's counts are checked against an independent count.

// refAllStuckOver: no seat can move, or fewer than two seats control a
// pile.
func refAllStuckOver(r *refPos) bool {
	in, canMove := 0, false
	for seat := range r.g.seats {
		if len(refPiles(r, seat)) > 0 {
			in++
		}
		c := *r
		c.toMove = seat
		canMove = canMove || len(c.moves()) > 0
	}
	return in < 2 || !canMove
}

// refPiles lists the names of the cells whose pile seat controls, in
// cell order.
func refPiles(r *refPos, seat int) []string {
	var out []string
	for _, p := range r.g.cells {
		if cols, ok := r.piles[p]; ok && cols[len(cols)-1] == r.g.seats[seat].letter {
			out = append(out, r.g.names[p])
		}
	}
	return out
}

// refAllStuckMoves: the usual moves, else a pass written first-pile to
// itself, while the game goes on.
func refAllStuckMoves(r *refPos) []string {
	if refAllStuckOver(r) {
		return nil
	}
	if ms := r.moves(); len(ms) > 0 {
		return ms
	}
	if piles := refPiles(r, r.toMove); len(piles) > 0 {
		return []string{piles[0] + "-" + piles[0]}
	}
	return nil
}

// refAllStuckApply plays a move or a pass, then gives the turn to the
// next seat that controls a pile.
func refAllStuckApply(r *refPos, move string) *refPos {
	from, to, _ := strings.Cut(move, "-")
	var c *refPos
	if from == to {
		c = &refPos{g: r.g, toMove: (r.toMove + 1) % len(r.g.seats), piles: r.piles}
	} else {
		c = r.apply(move)
	}
	refSkipOut(c)
	return c
}

func refSkipOut(r *refPos) {
	for range r.g.seats {
		if len(refPiles(r, r.toMove)) > 0 {
			return
		}
		r.toMove = (r.toMove + 1) % len(r.g.seats)
	}
}

func refAllStuckPerft(r *refPos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range refAllStuckMoves(r) {
		n += refAllStuckPerft(refAllStuckApply(r, m), depth-1)
	}
	return n
}

// allStuckPerft are positions where passes and skipped players matter,
// and two where they do not yet (the counts are those of perftTable).
// The counts of the first rows are derived by hand in their comments; all
// of them are repeated by the reference model above, an independent count
// (to depth 2 under -short, 3 otherwise: it is slow).
var allStuckPerft = []struct {
	name, id, fen string
	counts        []uint64
}{
	// White's only pawn is frozen on a7: White passes (1); Black's pawn
	// on d5 goes 1-3 cells south, east or west (9), none of them to
	// Black's end-row, rank 1; White passes after each (9).
	{"white passes", "punt-match", "W:a7=w,d5=b", []uint64{1, 9, 9, 66}},
	// Both frozen: nobody can move, the game is over.
	{"both frozen", "punt-match", "W:a7=w,d1=b", []uint64{0, 0}},
	// White controls no pile: the position given as White to move is
	// Black's turn, and Black and Red alternate: perft(2) is 19 squared
	// since neither can reach the other's piles in one move.
	{"white buried, black to move instead", "punt-heks-match-3p", "W:c3=wb,e5=wr,f6=r,g4=b", []uint64{19, 361, 5757, 96748}},
	{"white frozen, black and red play on", "punt-heks-match-3p", "W:i3=w,e5=b,d5=r", []uint64{1, 10, 107, 114}},
	{"black takes white's last pile", "punt-match", "B:d4=w,d5=b,a7=b", []uint64{13, 96, 1274, 7952}},
	{"mid-game, three players, nobody stuck yet", "punt-heks-match-3p",
		"R:a1=w,a2=bw,b4=www,b6=w,c5=w,d4=b,d7=w,d8=r,e1=bwbw,e8=rw,e9=r,f1=b,f5=b,f7=r,f8=r,g1=br,g2=bb,g4=r,h4=bbr,h5=r,i4=r,i5=r",
		[]uint64{52, 2604, 86462, 4465878}},
	{"endgame, frozen piles on rows a and i, nobody stuck yet", "punt-heks-match",
		"W:a2=b,a4=wwb,b5=b,c3=b,g4=w,h5=bbw,i1=w,i3=bw", []uint64{14, 210, 2055, 24249}},
}

func TestAllStuckPerft(t *testing.T) {
	refDepth := 3
	if testing.Short() {
		refDepth = 2
	}
	for _, tc := range allStuckPerft {
		t.Run(tc.id+" "+tc.name, func(t *testing.T) {
			g := gametest.NewGame(t, tc.id, "end=all-stuck")
			r, err := newRefGame(tc.id).parseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			refSkipOut(r)
			for d, want := range tc.counts[:min(refDepth, len(tc.counts))] {
				if got := refAllStuckPerft(r, d+1); got != want {
					t.Errorf("reference perft(%d) = %d, table %d", d+1, got, want)
				}
			}
			counts := tc.counts
			if i := slices.IndexFunc(counts, func(n uint64) bool { return n > 3_000_000 }); i >= 0 && testing.Short() {
				counts = counts[:i]
			}
			gametest.CheckPerft(t, gametest.MustParse(t, g, tc.fen), counts, 300_000)
		})
	}
}

// TestDefaultOptionsKeepTheRules: the options at their defaults, given
// or not, count what the rules count, and the others the same from the
// start, where nobody can be stuck within three plies (perft ignores the
// safeguards, which repetition= changes, and the scoring, which
// tiebreak= changes).
func TestDefaultOptionsKeepTheRules(t *testing.T) {
	for _, tc := range perftTable {
		if tc.name != "start" {
			continue
		}
		counts := tc.counts[:3]
		for _, opts := range [][]string{{"end=first-stuck", "tiebreak=none", "repetition=draw"}, {"end=all-stuck", "tiebreak=progress", "repetition=scored"}} {
			g := gametest.NewGame(t, tc.id, opts...)
			gametest.CheckPerft(t, g.Start(), counts, 100_000)
		}
	}
}

// TestAllStuckAgainstTheReference plays random games with end=all-stuck
// and compares every position's moves and FEN with the reference model.
func TestAllStuckAgainstTheReference(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 4
	}
	for _, id := range ids {
		g, rg := gametest.NewGame(t, id, "end=all-stuck", "maxplies=100000"), newRefGame(id)
		rng := rand.New(rand.NewPCG(7, uint64(len(id))))
		passes := 0
		for range games {
			s, r := g.Start(), rg.start()
			for !s.Result().Over() {
				if s.FEN() != r.fen() {
					t.Fatalf("%s: engine %s, reference %s", id, s.FEN(), r.fen())
				}
				got, want := gametest.RuleMoves(s), refAllStuckMoves(r)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: moves %v, reference %v", s.FEN(), got, want)
				}
				m := s.Moves(nil)[rng.IntN(len(want))]
				if punt.IsPass(m) {
					passes++
				}
				r = refAllStuckApply(r, m.Text(g.Board()))
				s.Play(m)
			}
			if s.Result().Reason == game.Scored && !refAllStuckOver(r) {
				t.Errorf("%s: the engine ended the game, the reference goes on", s.FEN())
			}
		}
		t.Logf("%s: %d passes in %d games", id, passes, games)
	}
}

// TestAllStuckRules: the passes, the skipped players and the end, each on
// a position built by FEN.
func TestAllStuckRules(t *testing.T) {
	for _, tc := range []struct {
		name, id, fen string
		moves         []string
		toMove        string // the FEN's first field after the moves
		want          []string
		reason        game.Reason
	}{
		{"a frozen player passes, and only passes", "punt-match", "W:a7=w,d5=b", nil, "W", []string{"a7-a7"}, game.Ongoing},
		{"the pass gives the turn on", "punt-match", "W:a7=w,d5=b", []string{"a7-a7"}, "B",
			[]string{"d5-a5", "d5-b5", "d5-c5", "d5-d2", "d5-d3", "d5-d4", "d5-e5", "d5-f5", "d5-g5"}, game.Ongoing},
		{"the pass is on the first frozen pile in cell order", "punt-match", "W:e7=ww,b7=w,d5=b", nil, "W", []string{"b7-b7"}, game.Ongoing},
		{"the game ends when nobody can move", "punt-match", "W:a7=w,d2=b", []string{"a7-a7", "d2-d1"}, "W", nil, game.Scored},
		{"a buried player to move is skipped", "punt-heks-match-3p", "W:c3=wb,e5=wr,f6=r,g4=b", nil, "B", nil, game.Ongoing},
		{"a player buried by a move is skipped", "punt-heks-match-3p", "W:a3=w,b3=b,g6=r", []string{"a3-b3"}, "R", nil, game.Ongoing},
		{"a player left alone ends the game", "punt-match", "W:d4=w,d5=b", []string{"d4-d5"}, "W", nil, game.Scored},
		{"a frozen player is not out: a pass, not a skip", "punt-heks-match-3p", "W:i3=w,e5=b,d5=r", nil, "W", []string{"i3-i3"}, game.Ongoing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gametest.NewGame(t, tc.id, "end=all-stuck")
			s := gametest.MustParse(t, g, tc.fen)
			if err := game.PlayMoves(s, tc.moves); err != nil {
				t.Fatal(err)
			}
			if side, _, _ := strings.Cut(s.FEN(), ":"); side != tc.toMove {
				t.Errorf("%s to move, want %s", side, tc.toMove)
			}
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if tc.want != nil && !slices.Equal(game.MoveTexts(s), want) {
				t.Errorf("moves %v, want %v", game.MoveTexts(s), want)
			}
			if r := s.Result(); r.Reason != tc.reason {
				t.Errorf("result %v, want %v", r.Reason, tc.reason)
			}
		})
	}
}

// TestAllStuckSafeguards: passes never make an endless game; a frozen
// player's passes and the other's shuffles repeat a position, and the ply
// cap counts passes as plies.
func TestAllStuckSafeguards(t *testing.T) {
	shuffle := []string{"a7-a7", "d5-e5", "a7-a7", "e5-d5", "a7-a7", "d5-e5", "a7-a7", "e5-d5"}
	for _, tc := range []struct {
		name   string
		opts   []string
		moves  []string
		reason game.Reason
	}{
		{"two rounds of shuffles: not yet", []string{"end=all-stuck"}, shuffle[:7], game.Ongoing},
		{"the third occurrence draws", []string{"end=all-stuck"}, shuffle, game.Repetition},
		{"passes count as plies", []string{"end=all-stuck", "maxplies=3"}, []string{"a7-a7", "d5-d4", "a7-a7"}, game.PlyCap},
		{"repetition=draw is the rules' draw", []string{"end=all-stuck", "repetition=draw"}, shuffle, game.Repetition},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gametest.NewGame(t, "punt-match", tc.opts...)
			gametest.CheckResult(t, gametest.MustParse(t, g, "W:a7=w,d5=b"), tc.moves, tc.reason, 0)
		})
	}
}

// TestRepetitionScored: with repetition=scored the third occurrence of a
// position ends the game and scores it, tie-breaks included; the ply cap
// still draws without scores.
func TestRepetitionScored(t *testing.T) {
	shuffle := []string{"a7-a7", "d5-e5", "a7-a7", "e5-d5", "a7-a7", "d5-e5", "a7-a7", "e5-d5"}
	w := game.PlayerSet(1 << punt.White)
	for _, tc := range []struct {
		name, fen string
		opts      []string
		moves     []string
		reason    game.Reason
		winners   game.PlayerSet
		scores    [game.MaxPlayers]int
	}{
		{"the player ahead wins", "W:a7=w,d5=b", []string{"end=all-stuck", "repetition=scored"}, shuffle, game.Repetition, w, [game.MaxPlayers]int{1, 0}},
		{"equal scores draw", "W:a7=w,d5=b,g1=b", []string{"end=all-stuck", "repetition=scored"}, shuffle, game.Repetition, 0, [game.MaxPlayers]int{1, 1}},
		// Black's d5 pawn is 2 ranks from home: progress 6 + 2 beats 6.
		{"the tie-break applies", "W:a7=w,d5=b,g1=b", []string{"end=all-stuck", "repetition=scored", "tiebreak=progress"}, shuffle, game.Repetition,
			game.PlayerSet(1 << punt.Black), [game.MaxPlayers]int{1, 1}},
		{"with end=first-stuck too: 0-0 scored is a draw", "W:a3=w,g5=b", []string{"repetition=scored"},
			[]string{"a3-b3", "g5-f5", "b3-a3", "f5-g5", "a3-b3", "g5-f5", "b3-a3", "f5-g5"}, game.Repetition, 0, [game.MaxPlayers]int{}},
		{"the ply cap still draws, unscored", "W:a7=w,d5=b", []string{"end=all-stuck", "repetition=scored", "maxplies=3"}, shuffle[:3], game.PlyCap, 0, [game.MaxPlayers]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, gametest.NewGame(t, "punt-match", tc.opts...), tc.fen)
			gametest.CheckResult(t, s, tc.moves, tc.reason, tc.winners)
			if got := s.Result().Scores; got != tc.scores {
				t.Errorf("scores %v, want %v", got, tc.scores)
			}
		})
	}
}

// TestTiebreak: who wins a tie on score under each tiebreak, and that
// the scores stay the players' scores.
func TestTiebreak(t *testing.T) {
	const (
		w = game.PlayerSet(1 << punt.White)
		b = game.PlayerSet(1 << punt.Black)
		r = game.PlayerSet(1 << punt.Red)
	)
	for _, tc := range []struct {
		name, id, opts, fen string
		moves               []string
		winners             game.PlayerSet
	}{
		// White 1 (a7), Black 1 (d1). Progress: White 1 pawn 6 ranks up
		// = 6; Black 6 (d1) + 2 (c5 is 2 ranks down from rank 7) = 8.
		{"no tie-break: a draw", "punt-match", "tiebreak=none", "W:a7=w,d1=b,c5=b", nil, 0},
		{"progress: Black's c5 pawn is ahead", "punt-match", "tiebreak=progress", "W:a7=w,d1=b,c5=b", nil, b},
		// Heights and foreign pawns count: 2x6 each, and Black's c6 pawn
		// is 1 rank down from rank 7.
		{"progress tied again: a draw", "punt-match", "tiebreak=progress", "W:a7=bw,d1=wb", nil, 0},
		{"progress: one rank breaks it", "punt-match", "tiebreak=progress", "W:a7=bw,d1=wb,c6=b", nil, b},
		{"last: from a FEN nobody has moved: a draw", "punt-match", "tiebreak=last", "W:a7=w,d1=b", nil, 0},
		{"last: White moved last", "punt-match", "tiebreak=last", "W:a6=w,d1=b", []string{"a6-a7"}, w},
		{"last: a winner by score is not touched", "punt-match", "tiebreak=last", "W:a6=w,d1=bb", []string{"a6-a7"}, b},
		// Three players all at 0, White buried: Red moved last of all.
		{"last, three players: the latest mover", "punt-heks-match-3p", "tiebreak=last", "R:c3=wb,e5=wr,f6=r,g4=b", []string{"f6-g5"}, r},
		// Black: c3 (2 pawns, 4 lines from the upper-left edge) and g4
		// (1 pawn, 3 lines) = 11; Red: e5 (2 pawns, 4 lines from the
		// upper-right edge) and f6 (1 pawn, 2 lines) = 10.
		{"progress, three players", "punt-heks-match-3p", "tiebreak=progress", "W:c3=wb,e5=wr,f6=r,g4=b", nil, b},
		{"none, three players share", "punt-heks-match-3p", "tiebreak=none", "W:c3=wb,e5=wr,f6=r,g4=b", nil, w | b | r},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gametest.NewGame(t, tc.id, tc.opts)
			s := gametest.MustParse(t, g, tc.fen)
			before := s.(*punt.State).Scores()
			gametest.CheckResult(t, s, tc.moves, game.Scored, tc.winners)
			if got := s.Result().Scores; len(tc.moves) == 0 && got != before {
				t.Errorf("scores %v, want the position's %v", got, before)
			}
		})
	}
}

// TestProgress pins the measure tiebreak=progress compares.
func TestProgress(t *testing.T) {
	for _, tc := range []struct {
		id, fen string
		want    []int
	}{
		{"punt-match", "W:a1=w,a7=w,c4=bw,d1=b,g7=b", []int{0 + 6 + 2*3, 6 + 0}},
		{"punt-match", "", []int{7, 7}},
		{"punt-heks-match", "W:e5=w,i1=bbw,a1=b", []int{4 + 3*8, 8}},
		{"punt-heks-match-3p", "", []int{6, 6, 6}},
	} {
		s := gametest.Position(t, gametest.NewGame(t, tc.id), tc.fen).(*punt.State)
		for p, want := range tc.want {
			if got := s.Progress(game.Player(p)); got != want {
				t.Errorf("%s %s: progress of %d is %d, want %d", tc.id, tc.fen, p, got, want)
			}
		}
	}
}

// TestVariantOptionsRefused: bad values are refused in one line that
// quotes at most the start of the value.
func TestVariantOptionsRefused(t *testing.T) {
	long := strings.Repeat("x", 500)
	for _, tc := range []struct{ key, value, want string }{
		{"end", "", "end=: the value must be one of first-stuck, all-stuck"},
		{"end", "ALL-STUCK", "the value must be one of first-stuck, all-stuck"},
		{"end", "all", "the value must be one of"},
		{"end", "NaN", "the value must be one of"},
		{"end", long, "the value must be one of"},
		{"tiebreak", "-1", "the value must be one of none, progress, last"},
		{"tiebreak", "0", "the value must be one of none, progress, last"},
		{"tiebreak", "Inf", "the value must be one of"},
		{"tiebreak", "progress ", "the value must be one of"},
		{"tiebreak", long, "the value must be one of"},
		{"repetition", "", "the value must be one of draw, scored"},
		{"repetition", "1", "the value must be one of draw, scored"},
		{"repetition", "-3", "the value must be one of draw, scored"},
		{"repetition", "NaN", "the value must be one of draw, scored"},
		{"repetition", "Scored", "the value must be one of draw, scored"},
		{"repetition", long, "the value must be one of draw, scored"},
	} {
		for _, id := range ids {
			_, err := game.New(id, map[string]string{tc.key: tc.value})
			switch {
			case err == nil:
				t.Errorf("%s %s=%q accepted", id, tc.key, tc.value)
			case !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 200:
				t.Errorf("%s %s=%.20q: %q, want one short line saying %q", id, tc.key, tc.value, err, tc.want)
			}
		}
	}
}

// passInvariant is pileInvariant for the variants: a pass changes nothing
// but the player to move, and is the mover's only move; after any move
// the turn goes to the next player in turn order, with end=all-stuck the
// next who controls a pile (the mover, when nobody else does).
func passInvariant(before, after game.State, m game.Move) error {
	_, was, _ := strings.Cut(before.FEN(), ":")
	_, is, _ := strings.Cut(after.FEN(), ":")
	switch {
	case punt.IsPass(m) && (was != is || len(before.Moves(nil)) != 1):
		return fmt.Errorf("a pass changed the piles from %s to %s, or was one of %d moves", was, is, len(before.Moves(nil)))
	case punt.IsPass(m):
	default:
		// The turn is checked below, with the skipped players.
		if err := pileInvariant(before, after, m); err != nil && !strings.Contains(err.Error(), "to move after") {
			return err
		}
	}
	n := after.Game().Players()
	next := (before.ToMove() + 1) % game.Player(n)
	for range n {
		if after.Game().Options().Get("end") != "all-stuck" || controlsAPile(after, next) {
			break
		}
		next = (next + 1) % game.Player(n)
	}
	if after.ToMove() != next {
		return fmt.Errorf("%v to move after %v moved, want %v", after.ToMove(), before.ToMove(), next)
	}
	return nil
}

func controlsAPile(s game.State, p game.Player) bool {
	for c := range s.Game().Board().Len() {
		if s.Owner(board.Cell(c)) == p {
			return true
		}
	}
	return false
}

// nearTheEnd plays a random game to its end without checks, takes back
// the last plies plies and returns that position, read from its FEN
// (with no history, as RandomGame wants): the part where players get
// stuck, pass and are skipped, for the checks that are too slow for whole
// games under -short.
func nearTheEnd(t testing.TB, g game.Game, rng *rand.Rand, plies int) game.State {
	s := g.Start()
	for !s.Result().Over() {
		moves := s.Moves(nil)
		s.Play(moves[rng.IntN(len(moves))])
	}
	for i := 0; i < plies && s.Undo(); i++ {
	}
	return gametest.MustParse(t, g, s.FEN())
}

// TestVariantsConformance: the conformance suite with the options on,
// on whole games, or on their last 40 plies under -short.
func TestVariantsConformance(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 1
	}
	for _, id := range ids {
		for _, opts := range [][]string{{"end=all-stuck", "tiebreak=last"}, {"end=all-stuck", "tiebreak=progress", "repetition=scored"}, {"tiebreak=last", "repetition=scored"}} {
			g := gametest.NewGame(t, id, opts...)
			rng := rand.New(rand.NewPCG(11, uint64(len(id))))
			for range n {
				s := g.Start()
				if testing.Short() {
					s = nearTheEnd(t, g, rng, 40)
				}
				gametest.RandomGame(t, s, rng, 600, passInvariant)
			}
		}
	}
}

// FuzzVariantGame: a random game chosen by the fuzzer, with the options
// on, keeps the conformance suite and the invariants at every move.
func FuzzVariantGame(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(0))
	f.Add(uint64(2), uint8(1), uint8(1))
	f.Add(uint64(3), uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, variant, tiebreak uint8) {
		tb := []string{"none", "progress", "last"}[int(tiebreak)%3]
		g := gametest.NewGame(t, ids[int(variant)%len(ids)], "end=all-stuck", "tiebreak="+tb)
		rng := rand.New(rand.NewPCG(seed, seed>>32))
		s := g.Start()
		if testing.Short() {
			s = nearTheEnd(t, g, rng, 40)
		}
		gametest.RandomGame(t, s, rng, 600, passInvariant)
	})
}

// TestEnginesPlayTheVariant: a pass is just a legal move to the engines.
// White's only pawn is frozen on a7 (1-0); with end=all-stuck White
// passes and Black, left to move, brings both pawns home for a 2-1 win,
// where the rules would have ended the game 1-0 at once.
func TestEnginesPlayTheVariant(t *testing.T) {
	g := gametest.NewGame(t, "punt-match", "end=all-stuck")
	s := gametest.MustParse(t, g, "W:a7=w,d3=b,f3=b")
	e, err := ai.New("ab", 1)
	if err != nil {
		t.Fatal(err)
	}
	var played []string
	for !s.Result().Over() && len(played) < 20 {
		info := e.Search(context.Background(), s, ai.Limits{Depth: 4}, nil)
		played = append(played, info.Move.Text(g.Board()))
		s.Play(info.Move)
	}
	r := s.Result()
	if r.Reason != game.Scored || r.Winners != game.PlayerSet(1<<punt.Black) || r.Scores[0] != 1 || r.Scores[1] != 2 {
		t.Errorf("after %v: %s, want Black to win 2-1", played, r.Describe(g))
	}
	if played[0] != "a7-a7" {
		t.Errorf("White's first move %s, want the pass a7-a7", played[0])
	}
}
