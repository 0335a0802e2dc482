// Package gametest is the conformance suite every game must pass: random
// games that check, at every position, that moves print and parse back to
// themselves, that play and undo restore the position and its hash, that
// the incremental hash matches the hash of the same position read from its
// FEN, that clones are independent, that the result agrees with the legal
// moves, that the stacks shown through game.Stacker agree with Owner,
// that game.MoveEffects agrees with the positions before and after every
// legal move, and that several goroutines may read one position at once
// (CheckConcurrentReads). It also holds the helpers the games' own tests
// share.
package gametest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// T is the part of testing.TB the suite uses, so that fuzz targets and
// tests can both call it.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Invariant checks a game-specific property of one move: before is the
// position before m was played (a clone), after the position after it.
// It returns an error describing what broke.
type Invariant func(before, after game.State, m game.Move) error

// concurrentEvery is how often, in plies, RandomGame checks concurrent
// reads besides the positions it always checks.
const concurrentEvery = 64

// RandomGame plays a random game from s, choosing moves with rng, for at
// most maxPlies plies or until the game ends, checking every property of
// the suite at every position and inv (if not nil) at every move. It checks
// concurrent reads (CheckConcurrentReads) and the building of the position
// from its stacks (CheckFromStacks) at the first position with a capture to
// make, every concurrentEvery plies and at the last position.
// It then takes every move back and checks that s is where it started.
func RandomGame(t T, s game.State, rng *rand.Rand, maxPlies int, inv Invariant) {
	t.Helper()
	startFEN, startHash, startPly := s.FEN(), s.Hash(), s.Ply()
	var played []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s %s after [%s] (from %s): %s", s.Game().ID(), s.Game().Options(),
			strings.Join(played, " "), startFEN, fmt.Sprintf(format, args...))
	}
	capturesRead := false
	for ply := 0; ply < maxPlies; ply++ {
		moves := CheckPosition(fail, s)
		if len(moves) == 0 || s.Result().Over() {
			break
		}
		if capture := moves[0].IsCapture(); capture && !capturesRead || ply%concurrentEvery == 0 {
			CheckConcurrentReads(fail, s)
			CheckFromStacks(fail, s)
			capturesRead = capturesRead || capture
		}
		m := moves[rng.IntN(len(moves))]
		var before game.State
		if inv != nil {
			before = s.Clone()
		}
		played = append(played, m.Text(s.Game().Board()))
		s.Play(m)
		if inv != nil {
			if err := inv(before, s, m); err != nil {
				fail("invariant broken by %s: %v", played[len(played)-1], err)
			}
		}
	}
	// The last position: the game's end, or as far as maxPlies went.
	CheckConcurrentReads(fail, s)
	CheckFromStacks(fail, s)
	for range played {
		if !s.Undo() {
			fail("Undo reported nothing to undo before the start")
		}
	}
	if s.Undo() {
		fail("Undo went back past the start")
	}
	if s.FEN() != startFEN || s.Hash() != startHash || s.Ply() != startPly {
		fail("undoing the whole game gave %s (hash %x), want %s (hash %x)", s.FEN(), s.Hash(), startFEN, startHash)
	}
}

// CheckLeafTester checks, for a state that is a game.LeafTester, that
// HasMove and HasCapture say what its legal moves say.
func CheckLeafTester(fail func(string, ...any), s game.State, moves []game.Move) {
	lt, ok := s.(game.LeafTester)
	if !ok {
		return
	}
	if lt.HasMove() != (len(moves) > 0) {
		fail("HasMove %v with %d legal moves", lt.HasMove(), len(moves))
	}
	capture := lt.HasCapture()
	for _, m := range moves {
		if m.IsCapture() != capture {
			fail("HasCapture %v but move %s", capture, m.Text(s.Game().Board()))
			return
		}
	}
	if capture && len(moves) == 0 {
		fail("HasCapture with no legal move")
	}
}

// CheckPosition checks one position and returns its legal moves. fail is
// called with a description of the first property that does not hold.
func CheckPosition(fail func(string, ...any), s game.State) []game.Move {
	g, b := s.Game(), s.Game().Board()
	fen, hash, ply := s.FEN(), s.Hash(), s.Ply()
	again, err := g.ParseFEN(fen)
	switch {
	case err != nil:
		fail("the state's own FEN %q does not parse: %v", fen, err)
	case again.FEN() != fen:
		fail("FEN round trip: %q became %q", fen, again.FEN())
	case again.Hash() != hash:
		fail("incremental hash %x differs from the hash %x of the same FEN %s", hash, again.Hash(), fen)
	}
	CheckStacks(fail, s)
	moves := s.Moves(nil)
	seen := map[string]bool{}
	r := s.Result()
	for _, m := range moves {
		text := m.Text(b)
		if seen[text] {
			fail("move %s listed twice", text)
		}
		seen[text] = true
		parsed, err := game.ParseRuleMove(s, text)
		if err != nil || parsed != m {
			fail("move %s does not parse back to itself: %v", text, err)
		}
		if !r.Over() {
			if parsed, err := game.ParseMove(s, strings.ReplaceAll(text, "x", ":")); err != nil || parsed != m {
				fail("move %s written with ':' does not parse: %v", text, err)
			}
		}
		s.Play(m)
		if s.Ply() != ply+1 {
			fail("Play %s: ply %d, want %d", text, s.Ply(), ply+1)
		}
		s.Undo()
		if s.FEN() != fen || s.Hash() != hash || s.Ply() != ply {
			fail("Play then Undo of %s gave %s (hash %x), want %s (hash %x)", text, s.FEN(), s.Hash(), fen, hash)
		}
	}
	CheckLeafTester(fail, s, moves)
	endsByRule := r.Reason == game.NoMoves || r.Reason == game.NoPieces || r.Reason == game.Scored
	if len(moves) == 0 && !endsByRule || r.Reason == game.NoMoves && len(moves) > 0 {
		fail("%d legal moves but result %v", len(moves), r.Reason)
	}
	if r.Over() && len(game.MoveTexts(s)) != 0 {
		fail("the game is over (%v) but MoveTexts lists moves", r.Reason)
	}
	if len(moves) > 0 {
		c := s.Clone()
		c.Play(moves[0])
		if s.FEN() != fen || s.Hash() != hash {
			fail("playing on a clone changed the original")
		}
		if c.Undo(); c.FEN() != fen {
			fail("a clone's undo gave %s, want %s", c.FEN(), fen)
		}
	}
	CheckEffects(fail, s, moves)
	return moves
}
