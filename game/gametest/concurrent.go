package gametest

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/textboard"
)

// readers is how many goroutines CheckConcurrentReads runs at once, and
// readRounds how many times each calls every read method: enough for the
// race detector to see two readers overlap, few enough for -race runs.
const (
	readers    = 4
	readRounds = 2
)

// reading is everything the read methods of a State say about one
// position, gathered so that concurrent readers can compare theirs with
// the answers taken before.
type reading struct {
	toMove     game.Player
	ply        int
	moves      []game.Move
	result     game.Result
	fen        string
	hash       uint64
	owners     []game.Player
	drawing    string
	cloneMoves []game.Move
	stacks     [][]game.Piece
	evaluation [game.MaxPlayers]int
}

// read calls every read method of s once: Moves into a buffer of its own,
// Result, FEN, Hash, Owner on every cell, its drawing (textboard.String), Clone then Moves on the
// clone, Stack on every cell when s is a game.Stacker and Evaluate when it
// is a game.Evaluator.
func read(s game.State) reading {
	r := reading{
		toMove:  s.ToMove(),
		ply:     s.Ply(),
		moves:   s.Moves(make([]game.Move, 0, 64)),
		result:  s.Result(),
		fen:     s.FEN(),
		hash:    s.Hash(),
		drawing: textboard.String(s),
	}
	n := s.Game().Board().Len()
	stacker, stacked := s.(game.Stacker)
	for c := range board.Cell(n) {
		r.owners = append(r.owners, s.Owner(c))
		if stacked {
			r.stacks = append(r.stacks, stacker.Stack(c, nil))
		}
	}
	r.cloneMoves = s.Clone().Moves(nil)
	if ev, ok := s.(game.Evaluator); ok {
		r.evaluation = ev.Evaluate()
	}
	return r
}

// diff names the first answer in which got differs from want, or returns
// "" when they agree.
func (want reading) diff(got reading) string {
	switch {
	case got.toMove != want.toMove || got.ply != want.ply:
		return fmt.Sprintf("ToMove/Ply %d/%d, want %d/%d", got.toMove, got.ply, want.toMove, want.ply)
	case !slices.Equal(got.moves, want.moves):
		return fmt.Sprintf("Moves listed %d moves, want %d (or in another order)", len(got.moves), len(want.moves))
	case got.result != want.result:
		return fmt.Sprintf("Result %+v, want %+v", got.result, want.result)
	case got.fen != want.fen:
		return fmt.Sprintf("FEN %q, want %q", got.fen, want.fen)
	case got.hash != want.hash:
		return fmt.Sprintf("Hash %x, want %x", got.hash, want.hash)
	case !slices.Equal(got.owners, want.owners):
		return fmt.Sprintf("Owner over the cells %v, want %v", got.owners, want.owners)
	case got.drawing != want.drawing:
		return fmt.Sprintf("the drawing (textboard.String)\n%s\nwant\n%s", got.drawing, want.drawing)
	case !slices.Equal(got.cloneMoves, want.moves):
		return fmt.Sprintf("Moves on a clone listed %d moves, want %d", len(got.cloneMoves), len(want.moves))
	case !slices.EqualFunc(got.stacks, want.stacks, slices.Equal[[]game.Piece]):
		return "Stack over the cells differs"
	case got.evaluation != want.evaluation:
		return fmt.Sprintf("Evaluate %v, want %v", got.evaluation, want.evaluation)
	}
	return ""
}

// CheckConcurrentReads checks the State contract for concurrent readers:
// several goroutines at once call every read method of s (see read), with
// no one playing a move, and each must get the answers a single reader got
// before, and leave s as it was. Run under -race, it also finds a read
// method that writes to the state, even when it puts things back. fail is
// called, from the calling goroutine only, with the first difference.
func CheckConcurrentReads(fail func(string, ...any), s game.State) {
	want := read(s)
	errs := make([]string, readers)
	var wg sync.WaitGroup
	for i := range readers {
		wg.Go(func() {
			for range readRounds {
				if d := want.diff(read(s)); d != "" {
					errs[i] = d
					return
				}
			}
		})
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			fail("reader %d of %d at %s: %s", i+1, readers, want.fen, e)
			return
		}
	}
	if d := want.diff(read(s)); d != "" {
		fail("after the concurrent reads at %s: %s", want.fen, d)
	}
}

// CheckReadsDoNotAllocate checks that the reads an engine makes at every
// node allocate nothing: Moves into a buffer with room, Result, Hash,
// Owner, and Evaluate when s is a game.Evaluator.
func CheckReadsDoNotAllocate(fail func(string, ...any), s game.State) {
	buf := make([]game.Move, 0, 1024)
	n := board.Cell(s.Game().Board().Len())
	ev, _ := s.(game.Evaluator)
	allocs := testing.AllocsPerRun(10, func() {
		buf = s.Moves(buf[:0])
		s.Result()
		s.Hash()
		for c := range n {
			s.Owner(c)
		}
		if ev != nil {
			ev.Evaluate()
		}
	})
	if allocs != 0 {
		fail("the reads at %s allocate %v times", s.FEN(), allocs)
	}
}
