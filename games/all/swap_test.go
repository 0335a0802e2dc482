package all_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// These tests cover the two options every game takes from the core,
// first (the seat that moves first) and swap (the pie rule), in every
// registered game.

// duels returns the ids of the two-player games.
func duels() []string {
	var ids []string
	for _, d := range game.All() {
		if d.Players == 2 {
			ids = append(ids, d.ID)
		}
	}
	return ids
}

// secondKey is the key of a game's second seat.
func secondKey(t *testing.T, id string) string {
	d, ok := game.Lookup(id)
	if !ok {
		t.Fatalf("no game %s", id)
	}
	return d.Seats[1].Key
}

// TestEveryDuelHasSwap checks that the test cases below cover the games
// the brief names, so that a game left out would fail here.
func TestEveryDuelHasSwap(t *testing.T) {
	want := []string{"checkers-2011", "eximo", "pommel", "pommel-76", "punt-heks-match", "punt-match"}
	if got := duels(); !slices.Equal(got, want) {
		t.Errorf("two-player games %v, want %v", got, want)
	}
	for _, d := range game.All() {
		keys := map[string]bool{}
		for _, o := range d.AllOptions() {
			keys[o.Key] = true
		}
		if !keys[game.FirstKey] || keys[game.SwapKey] != (d.Players == 2) {
			t.Errorf("%s (%d players) lists first %v, swap %v", d.ID, d.Players, keys[game.FirstKey], keys[game.SwapKey])
		}
	}
}

// TestMirrorOfStart checks that every two-player game's start position is
// its own mirror image: the same pieces, the other player to move. The
// pie rule's Swap relies on it (a swap at ply 1 is then a first move by
// the second player).
func TestMirrorOfStart(t *testing.T) {
	for _, id := range duels() {
		t.Run(id, func(t *testing.T) {
			start := gametest.NewGame(t, id).Start()
			mirror, err := game.Mirror(start)
			if err != nil {
				t.Fatal(err)
			}
			other := gametest.NewGame(t, id, "first="+secondKey(t, id)).Start()
			if mirror.FEN() != other.FEN() || mirror.Hash() != other.Hash() {
				t.Errorf("mirror of the start %s (hash %x), want %s (hash %x)", mirror.FEN(), mirror.Hash(), other.FEN(), other.Hash())
			}
		})
	}
}

// perftDepth is how deep the perft comparisons go: perft(3) takes
// milliseconds in every game, perft(4) up to a second.
func perftDepth() int {
	if testing.Short() {
		return 3
	}
	return 4
}

// TestPerftFirstAndSwap compares perft with the options to perft without
// them, by the games' symmetry. Every start position is its own mirror
// image with the colours exchanged (TestMirrorOfStart), and the rules
// treat the sides alike, so the tree from the start with the second seat
// to move is the tree of the default start: the counts are equal. With
// the pie rule, each first move gets one more reply, Swap, after which
// the tree is that of the position after the first move, mirrored (no
// second swap): perft(d) = perft(d, off) + perft(d-1, off) for d >= 2.
func TestPerftFirstAndSwap(t *testing.T) {
	for _, id := range duels() {
		t.Run(id, func(t *testing.T) {
			second := "first=" + secondKey(t, id)
			off := make([]uint64, perftDepth()+1)
			for d := range off {
				off[d] = game.PerftBulk(gametest.NewGame(t, id).Start(), d)
			}
			withSwap := make([]uint64, len(off)-1)
			for d := 1; d < len(off); d++ {
				withSwap[d-1] = off[d]
				if d >= 2 {
					withSwap[d-1] += off[d-1]
				}
			}
			gametest.CheckPerft(t, gametest.NewGame(t, id, second).Start(), off[1:], 20_000)
			gametest.CheckPerft(t, gametest.NewGame(t, id, "swap=on").Start(), withSwap, 20_000)
			gametest.CheckPerft(t, gametest.NewGame(t, id, "swap=on", second).Start(), withSwap, 20_000)
		})
	}
}

// TestPerftFirstThreePlayers checks Punt-Heks-Match for three: its seats
// are turned a third of the board from each other, and the turn goes
// round in the same order from any seat, so that every first seat gives
// the default counts.
func TestPerftFirstThreePlayers(t *testing.T) {
	const id = "punt-heks-match-3p"
	want := make([]uint64, perftDepth())
	for d := range want {
		want[d] = game.PerftBulk(gametest.NewGame(t, id).Start(), d+1)
	}
	for _, key := range []string{"white", "black", "red"} {
		gametest.CheckPerft(t, gametest.NewGame(t, id, "first="+key).Start(), want, 20_000)
	}
}

// TestFirst checks that the first= seat is to move at the start, in
// every game and for every seat, and that the turn goes on in the seats'
// order.
func TestFirst(t *testing.T) {
	for _, d := range game.All() {
		for i, seat := range d.Seats {
			g := gametest.NewGame(t, d.ID, "first="+seat.Key)
			s := g.Start()
			if s.ToMove() != game.Player(i) {
				t.Errorf("%s first=%s: %s to move", d.ID, seat.Key, g.PlayerName(s.ToMove()))
				continue
			}
			moves := s.Moves(nil)
			s.Play(moves[0])
			if next := game.Player((i + 1) % d.Players); s.ToMove() != next {
				t.Errorf("%s first=%s: after a move %s to move, want %s", d.ID, seat.Key, g.PlayerName(s.ToMove()), g.PlayerName(next))
			}
		}
	}
}

// TestOptionRefusals checks that bad values of first and swap, and swap in
// a three-player game, are refused in one line that says what is allowed.
func TestOptionRefusals(t *testing.T) {
	tests := []struct {
		id, key, value, want string
	}{
		{"pommel", "first", "red", "must be one of white, black"},
		{"pommel", "first", "White", "must be one of white, black"},
		{"pommel", "first", "", "must be one of white, black"},
		{"eximo", "first", strings.Repeat("b", 500), "must be one of black, white"},
		{"punt-heks-match-3p", "first", "blue", "must be one of white, black, red"},
		{"pommel", "swap", "yes", "must be one of off, on"},
		{"checkers-2011", "swap", "ON", "must be one of off, on"},
		{"punt-heks-match-3p", "swap", "on", "the pie rule is for two players"},
		{"punt-heks-match-3p", "swap", "off", "the pie rule is for two players"},
	}
	for _, tt := range tests {
		_, err := game.New(tt.id, map[string]string{tt.key: tt.value})
		switch {
		case err == nil:
			t.Errorf("%s %s=%.20q: accepted", tt.id, tt.key, tt.value)
		case !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 200:
			t.Errorf("%s %s=%.20q: error %q, want one short line with %q", tt.id, tt.key, tt.value, err, tt.want)
		}
	}
}

// TestSwapWhen checks when Swap is a move: only at ply 1 of a game with
// the pie rule played from the start, once; never from a FEN, never at
// ply 0 or 2, never twice, and never without the option. ParseMove says
// why.
func TestSwapWhen(t *testing.T) {
	for _, id := range duels() {
		t.Run(id, func(t *testing.T) {
			g := gametest.NewGame(t, id, "swap=on")
			s := g.Start()
			gametest.CheckIllegal(t, s, "swap", "second player's first move")
			first := s.Moves(nil)[0]
			s.Play(first)
			if !hasSwap(s) {
				t.Fatalf("no swap at ply 1: %v", game.MoveTexts(s))
			}
			atOne, hashOne := s.FEN(), s.Hash()
			fromFEN := gametest.MustParse(t, g, atOne)
			if hasSwap(fromFEN) {
				t.Errorf("swap from a FEN of the position at ply 1")
			}
			gametest.CheckIllegal(t, fromFEN, "swap", "only in a game played from the start")
			swap, err := game.ParseMove(s, " swap ")
			if err != nil {
				t.Fatal(err)
			}
			s.Play(swap)
			if s.Ply() != 2 || s.ToMove() != g.Start().ToMove() || hasSwap(s) {
				t.Errorf("after swap: ply %d, %s to move, swap again %v", s.Ply(), g.PlayerName(s.ToMove()), hasSwap(s))
			}
			gametest.CheckIllegal(t, s, "swap", "second player's first move")
			if !s.Undo() || s.FEN() != atOne || s.Hash() != hashOne || s.Ply() != 1 || !hasSwap(s) {
				t.Errorf("undo of swap: %s (hash %x, ply %d), want %s (hash %x, ply 1) with swap", s.FEN(), s.Hash(), s.Ply(), atOne, hashOne)
			}
			s.Play(firstRuleMove(s))
			if hasSwap(s) {
				t.Errorf("swap at ply 2 after a reply")
			}
			off := gametest.NewGame(t, id).Start()
			off.Play(first)
			gametest.CheckIllegal(t, off, "swap", "only with the option swap=on")
		})
	}
}

func hasSwap(s game.State) bool { return slices.Contains(s.Moves(nil), game.Swap()) }

// firstRuleMove is the first legal move that is not Swap.
func firstRuleMove(s game.State) game.Move {
	for _, m := range s.Moves(nil) {
		if !m.IsSwap() {
			return m
		}
	}
	panic("no move but swap")
}

// TestSwapIsTheMirroredGame plays random games with the pie rule where the
// second player swaps, and beside each the game where the second seat
// moves first and opens with the first move turned half a turn: after the
// swap both games are in the same position (FEN and hash) at every move,
// and end with the same result by seat.
func TestSwapIsTheMirroredGame(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 2
	}
	for _, id := range duels() {
		t.Run(id, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(id)), 22))
			swapped := gametest.NewGame(t, id, "swap=on", "maxplies=2000")
			mirrored := gametest.NewGame(t, id, "first="+secondKey(t, id), "maxplies=2000")
			for range games {
				a, b := swapped.Start(), mirrored.Start()
				opening := a.Moves(nil)[rng.IntN(len(a.Moves(nil)))]
				a.Play(opening)
				a.Play(game.Swap())
				b.Play(turnedMove(t, b, opening))
				for a.FEN() == b.FEN() && a.Hash() == b.Hash() && !a.Result().Over() {
					moves := a.Moves(nil)
					m := moves[rng.IntN(len(moves))]
					a.Play(m)
					b.Play(m)
				}
				if a.FEN() != b.FEN() || a.Hash() != b.Hash() {
					t.Fatalf("after swap %s (hash %x), in the mirrored game %s (hash %x)", a.FEN(), a.Hash(), b.FEN(), b.Hash())
				}
				ra, rb := a.Result(), b.Result()
				if ra.Reason != rb.Reason || ra.Winners != rb.Winners {
					t.Errorf("result after swap %v %v, in the mirrored game %v %v", ra.Reason, ra.Winners, rb.Reason, rb.Winners)
				}
			}
		})
	}
}

// turnedMove finds the legal move of s that is m turned half a turn on
// the board: its path and drops on the turned cells.
func turnedMove(t *testing.T, s game.State, m game.Move) game.Move {
	t.Helper()
	b := s.Game().Board()
	turn := func(cs []board.Cell) []board.Cell {
		out := make([]board.Cell, len(cs))
		for i, c := range cs {
			out[i] = b.HalfTurn(c)
		}
		return out
	}
	var path []board.Cell
	for i := range m.Len() {
		path = append(path, m.At(i))
	}
	path = turn(path)
	drops := turn(m.Drops())
	slices.Sort(drops)
	for _, c := range s.Moves(nil) {
		var cp []board.Cell
		for i := range c.Len() {
			cp = append(cp, c.At(i))
		}
		if slices.Equal(cp, path) && slices.Equal(c.Drops(), drops) && c.IsCapture() == m.IsCapture() {
			return c
		}
	}
	t.Fatalf("no legal move is %s turned half a turn in %s", m.Text(b), s.FEN())
	return game.Move{}
}

// TestConformanceFirstAndSwap runs the conformance suite on every game
// with its last seat moving first, and on every two-player game with the
// pie rule: the suite plays Swap whenever the dice choose it.
func TestConformanceFirstAndSwap(t *testing.T) {
	games, plies := 4, 400
	if testing.Short() {
		games, plies = 1, 12 // the start, the swap and a few moves after it
	}
	for _, d := range game.All() {
		sets := [][]string{{"first=" + d.Seats[len(d.Seats)-1].Key}}
		if d.Players == 2 {
			sets = append(sets, []string{"swap=on"}, []string{"swap=on", "first=" + d.Seats[1].Key})
		}
		for _, opts := range sets {
			g := gametest.NewGame(t, d.ID, opts...)
			t.Run(d.ID+" "+g.Options().String(), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(uint64(len(d.ID)), 11))
				for range games {
					if !testing.Short() {
						// Its concurrent reads cost tens of milliseconds:
						// under -short the perft tests cover first=.
						gametest.RandomGame(t, g.Start(), rng, plies, nil)
					}
					if g.Options().Get("swap") == "on" {
						swappedGame(t, g.Start(), rng, plies)
					}
				}
			})
		}
	}
}

// swappedGame plays a random game from s, of at most plies plies, in
// which the second player swaps, checking every position after the swap as the conformance suite
// does, then takes every move back.
func swappedGame(t *testing.T, s game.State, rng *rand.Rand, plies int) {
	t.Helper()
	fen, hash := s.FEN(), s.Hash()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s %s after swap at ply %d: "+format, append([]any{s.Game().ID(), s.Game().Options(), s.Ply()}, args...)...)
	}
	gametest.CheckPosition(fail, s)
	s.Play(firstRuleMove(s))
	gametest.CheckPosition(fail, s) // swap among the moves
	s.Play(game.Swap())
	for !s.Result().Over() && s.Ply() < plies {
		moves := gametest.CheckPosition(fail, s)
		if s.Ply()%64 == 2 {
			gametest.CheckFromStacks(fail, s)
		}
		s.Play(moves[rng.IntN(len(moves))])
	}
	for s.Undo() {
	}
	if s.FEN() != fen || s.Hash() != hash || s.Ply() != 0 {
		fail("undoing the game gave %s (hash %x), want %s (hash %x)", s.FEN(), s.Hash(), fen, hash)
	}
}

// TestMirrorRefusals: a three-player position has no mirror image, and
// says so in one line.
func TestMirrorRefusals(t *testing.T) {
	_, err := game.Mirror(gametest.NewGame(t, "punt-heks-match-3p").Start())
	if err == nil || !strings.Contains(err.Error(), "only a two-player position") || strings.Contains(err.Error(), "\n") {
		t.Errorf("mirror of a three-player start: %v", err)
	}
}
