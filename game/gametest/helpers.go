package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// The helpers below are the steps every game's own tests take: build a
// game, read a position, and check a move, a result, a perft count or a
// parser's answer to any text. They live here so that each game's tests
// say only what is particular to its rules.

// NewGame builds a registered game; opts are "key=value" strings.
func NewGame(t T, id string, opts ...string) game.Game {
	t.Helper()
	m := map[string]string{}
	for _, o := range opts {
		k, v, err := game.ParseOption(o)
		if err != nil {
			t.Fatalf("%v", err)
		}
		m[k] = v
	}
	g, err := game.New(id, m)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return g
}

// MustParse reads a FEN of g, failing the test when it does not parse.
func MustParse(t T, g game.Game, fen string) game.State {
	t.Helper()
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return s
}

// Position is the starting position of g when fen is empty, else the
// position fen writes.
func Position(t T, g game.Game, fen string) game.State {
	t.Helper()
	if fen == "" {
		return g.Start()
	}
	return MustParse(t, g, fen)
}

// RuleMoves lists the legal moves of s by the rules, sorted in byte order,
// ignoring the draw safeguards (unlike game.MoveTexts).
func RuleMoves(s game.State) []string {
	var out []string
	for _, m := range s.Moves(nil) {
		out = append(out, m.Text(s.Game().Board()))
	}
	slices.Sort(out)
	return out
}

// CheckPlay plays move on s with play (game.PlayMoves, or
// game.PlayRuleMoves to ignore the draw safeguards), checks that the FEN
// reached is want and that the incremental hash is the hash of that FEN,
// then undoes the move and checks that s is back where it was.
func CheckPlay(t T, s game.State, play func(game.State, []string) error, move, want string) {
	t.Helper()
	before, hash := s.FEN(), s.Hash()
	if err := play(s, []string{move}); err != nil {
		t.Fatalf("%v", err)
	}
	if got := s.FEN(); got != want {
		t.Errorf("%s after %s:\n got %s\nwant %s", before, move, got, want)
	}
	if again := MustParse(t, s.Game(), s.FEN()); again.Hash() != s.Hash() {
		t.Errorf("incremental hash %x, hash of the same FEN %x", s.Hash(), again.Hash())
	}
	s.Undo()
	if s.FEN() != before || s.Hash() != hash {
		t.Errorf("undo gave %s (hash %x), want %s (hash %x)", s.FEN(), s.Hash(), before, hash)
	}
}

// CheckResult plays moves on s and checks the result: its reason and
// winners, and that a finished game lists no moves.
func CheckResult(t T, s game.State, moves []string, reason game.Reason, winners game.PlayerSet) {
	t.Helper()
	if err := game.PlayMoves(s, moves); err != nil {
		t.Fatalf("%v", err)
	}
	r := s.Result()
	if r.Reason != reason || r.Winners != winners {
		t.Fatalf("result %v winners %b, want %v winners %b", r.Reason, r.Winners, reason, winners)
	}
	if r.Over() && len(game.MoveTexts(s)) != 0 {
		t.Errorf("a finished game lists moves %v", game.MoveTexts(s))
	}
}

// CheckIllegal checks that move is refused on s with a
// *game.IllegalMoveError that names the move and says reason.
func CheckIllegal(t T, s game.State, move, reason string) {
	t.Helper()
	_, err := game.ParseMove(s, move)
	var ill *game.IllegalMoveError
	if !errors.As(err, &ill) || !strings.Contains(err.Error(), reason) || !strings.Contains(err.Error(), move) {
		t.Errorf("%s %s %s: got %v, want an error naming the move and saying %q", s.Game().ID(), s.FEN(), move, err, reason)
	}
}

// CheckPerft checks game.PerftBulk and game.Perft from s at each depth d
// against counts[d-1], and that counting leaves s as it was. Playing every
// leaf is slow: Perft is checked only for counts below playBelow (0: all).
func CheckPerft(t T, s game.State, counts []uint64, playBelow uint64) {
	t.Helper()
	fen, hash := s.FEN(), s.Hash()
	for i, want := range counts {
		if got := game.PerftBulk(s, i+1); got != want {
			t.Errorf("bulk perft(%d) = %d, want %d", i+1, got, want)
		}
		if playBelow == 0 || want < playBelow {
			if got := game.Perft(s, i+1); got != want {
				t.Errorf("perft(%d) = %d, want %d", i+1, got, want)
			}
		}
	}
	if s.FEN() != fen || s.Hash() != hash {
		t.Errorf("perft left %s (hash %x), want %s (hash %x)", s.FEN(), s.Hash(), fen, hash)
	}
}

// CheckParseFEN checks what g makes of any text, as a fuzz target does: an
// error and no state, or a state whose FEN reads back the same and passes
// CheckPosition. It returns the state, or nil after an error.
func CheckParseFEN(t T, g game.Game, fen string) game.State {
	t.Helper()
	s, err := g.ParseFEN(fen)
	if err != nil {
		if s != nil {
			t.Fatalf("ParseFEN(%q) returned a state with error %v", fen, err)
		}
		return nil
	}
	again, err := g.ParseFEN(s.FEN())
	if err != nil || again.FEN() != s.FEN() || again.Hash() != s.Hash() {
		t.Fatalf("%q: FEN %q does not read back the same: %v", fen, s.FEN(), err)
	}
	CheckPosition(func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s", s.FEN(), fmt.Sprintf(format, args...))
	}, s)
	return s
}

// CheckParseMove checks what game.ParseMove makes of any text on s, as a
// fuzz target does: the legal move it writes (':' read as 'x'), or an
// error that quotes it.
func CheckParseMove(t T, s game.State, text string) {
	t.Helper()
	m, err := game.ParseMove(s, text)
	if err != nil {
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", text)) {
			t.Fatalf("error %q does not quote the move %q", err, text)
		}
		return
	}
	if got, want := m.Text(s.Game().Board()), strings.ReplaceAll(strings.TrimSpace(text), ":", "x"); got != want {
		t.Fatalf("%q parsed as %s", text, got)
	}
}

// BenchPerft reports nodes per second of a perft of s with bulk counting
// at the leaves.
func BenchPerft(b *testing.B, s game.State, depth int) {
	var nodes uint64
	for b.Loop() {
		nodes += game.PerftBulk(s, depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// Mover is what a playout needs of a state. A game's concrete state type
// satisfies it, so that BenchPlayouts runs without game.State's Result
// and Clone, as an engine's playouts do.
type Mover interface {
	Ply() int
	Moves([]game.Move) []game.Move
	Play(game.Move)
}

// BenchPlayouts plays random games from newState() until no move is left
// or 600 plies are played, and reports games per second and plies per
// game. bufCap sizes the move buffer, which is reused.
func BenchPlayouts[S Mover](b *testing.B, newState func() S, bufCap int) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]game.Move, 0, bufCap)
	plies := 0
	for b.Loop() {
		s := newState()
		for s.Ply() < 600 {
			buf = s.Moves(buf[:0])
			if len(buf) == 0 {
				break
			}
			s.Play(buf[rng.IntN(len(buf))])
			plies++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}

// BenchGames plays random games as the bench command does: through the
// game.State interface from g.Start, asking Result at every ply, and
// reports games per second and plies per game.
func BenchGames(b *testing.B, g game.Game) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]game.Move, 0, 256)
	plies := 0
	for b.Loop() {
		s := g.Start()
		for !s.Result().Over() {
			buf = s.Moves(buf[:0])
			s.Play(buf[rng.IntN(len(buf))])
			plies++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}
