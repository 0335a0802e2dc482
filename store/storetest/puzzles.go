package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// puzzleTests are the puzzle ratings' part of the suite.
var puzzleTests = []struct {
	name string
	run  func(*testing.T, Opener, Reopener)
}{
	{"PuzzleAttemptRatesOnce", testPuzzleAttemptRatesOnce},
	{"PuzzleAttemptRace", testPuzzleAttemptRace},
	{"PuzzleRatingsNoLostUpdate", testPuzzleRatingsNoLostUpdate},
	{"PuzzleAttemptNoAccount", testPuzzleAttemptNoAccount},
	{"PuzzleDeleteAccount", testPuzzleDeleteAccount},
}

// plusOne is a rater whose effect is easy to see: the player gains a
// point, the puzzle loses one, whatever the result.
func plusOne(p store.PuzzleRating, z store.PuzzleState, _ bool) (store.PuzzleRating, store.PuzzleState) {
	p.Rating++
	z.Rating--
	return p, z
}

func puzzleAttempt(account, puzzle string, solved bool) store.PuzzleAttempt {
	return store.PuzzleAttempt{Account: account, Puzzle: puzzle, Game: "pommel", Solved: solved, At: base,
		Player: store.PuzzleRating{Rating: 1500, RD: 350, Volatility: 0.06},
		Start:  store.PuzzleState{Rating: 1400, RD: 250, Volatility: 0.06}}
}

func mustAttempt(t *testing.T, s store.Store, a store.PuzzleAttempt) store.PuzzleOutcome {
	t.Helper()
	out, err := s.RecordPuzzleAttempt(context.Background(), a, plusOne)
	if err != nil {
		t.Fatalf("RecordPuzzleAttempt(%s, %s): %v", a.Account, a.Puzzle, err)
	}
	return out
}

// testPuzzleAttemptRatesOnce: the first attempt rates from the starts
// given and stores both ratings and the attempt; the second changes
// nothing and answers the ratings as they stand.
func testPuzzleAttemptRatesOnce(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	first := mustAttempt(t, s, puzzleAttempt(ada.ID, "pommel-1", true))
	if !first.Rated || first.Before.Rating != 1500 || first.Player.Rating != 1501 || first.Puzzle.Rating != 1399 {
		t.Fatalf("first attempt: %+v; want rated, 1500 → 1501, the puzzle 1400 → 1399", first)
	}
	if first.Player.Attempts != 1 || first.Puzzle.Plays != 1 || first.Puzzle.Solved != 1 || !first.Player.Updated.Equal(stored(base)) {
		t.Fatalf("first attempt's counts: %+v; want 1 attempt, 1 play, 1 solved, updated %v", first, stored(base))
	}
	again := mustAttempt(t, s, puzzleAttempt(ada.ID, "pommel-1", false))
	if again.Rated || again.Player.Rating != 1501 || again.Before.Rating != 1501 || again.Puzzle.Rating != 1399 || again.Puzzle.Plays != 1 {
		t.Fatalf("second attempt: %+v; want unrated, 1501, the puzzle 1399 after 1 play", again)
	}
	mine, err := s.PuzzleRatings(ctx, ada.ID)
	same(t, "the stored player rating", fmt.Sprint(mine, err),
		fmt.Sprint([]store.PuzzleRating{{Game: "pommel", Rating: 1501, RD: 350, Volatility: 0.06, Attempts: 1, Updated: stored(base)}}, nil))
	states, err := s.PuzzleStates(ctx, "pommel")
	same(t, "the stored puzzle", fmt.Sprint(states, err),
		fmt.Sprint([]store.PuzzleState{{ID: "pommel-1", Game: "pommel", Rating: 1399, RD: 250, Volatility: 0.06, Plays: 1, Solved: 1}}, nil))
	if other, err := s.PuzzleStates(ctx, "eximo"); err != nil || len(other) != 0 {
		t.Fatalf("another game's puzzles: %v, %v; want none", other, err)
	}
	ids, err := s.AttemptedPuzzles(ctx, ada.ID, "pommel")
	same(t, "the attempted puzzles", fmt.Sprint(ids, err), fmt.Sprint([]string{"pommel-1"}, nil))
}

// testPuzzleAttemptRace: ten attempts at once by one account at one
// puzzle, through two stores on one database, rate exactly once.
func testPuzzleAttemptRace(t *testing.T, open Opener, again Reopener) {
	s := open(t)
	stores := []store.Store{s, again(t, s)}
	ada := mustAccount(t, s, "Ada")
	outs := make([]store.PuzzleOutcome, 10)
	errs := make([]error, 10)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range outs {
		wg.Go(func() {
			<-start
			outs[i], errs[i] = stores[i%2].RecordPuzzleAttempt(context.Background(), puzzleAttempt(ada.ID, "pommel-1", i%3 == 0), plusOne)
		})
	}
	close(start)
	wg.Wait()
	rated := 0
	for i, out := range outs {
		if errs[i] != nil {
			t.Fatalf("attempt %d: %v", i, errs[i])
		}
		if out.Rated {
			rated++
		}
	}
	if rated != 1 {
		t.Fatalf("%d of 10 concurrent attempts were rated; want exactly 1", rated)
	}
	states, err := s.PuzzleStates(context.Background(), "pommel")
	if err != nil || len(states) != 1 || states[0].Plays != 1 || states[0].Rating != 1399 {
		t.Fatalf("the puzzle after the race: %+v, %v; want 1 play, rating 1399", states, err)
	}
}

// testPuzzleRatingsNoLostUpdate: rated attempts at once, by many
// accounts at one puzzle and by one account at many puzzles, each
// count: no update is lost.
func testPuzzleRatingsNoLostUpdate(t *testing.T, open Opener, again Reopener) {
	s := open(t)
	stores := []store.Store{s, again(t, s)}
	const n = 8
	var accounts []store.Account
	for i := range n {
		accounts = append(accounts, mustAccount(t, s, fmt.Sprintf("P%d", i)))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() { // accounts[i] at the shared puzzle
			_, err := stores[i%2].RecordPuzzleAttempt(context.Background(), puzzleAttempt(accounts[i].ID, "pommel-shared", true), plusOne)
			errs <- err
		})
		wg.Go(func() { // accounts[0] at puzzles of its own
			_, err := stores[(i+1)%2].RecordPuzzleAttempt(context.Background(), puzzleAttempt(accounts[0].ID, fmt.Sprintf("pommel-%d", i), true), plusOne)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	states, err := s.PuzzleStates(ctx, "pommel")
	if err != nil {
		t.Fatal(err)
	}
	for _, z := range states {
		if z.ID == "pommel-shared" && (z.Plays != n || z.Rating != 1400-n) {
			t.Fatalf("the shared puzzle: %+v; want %d plays, rating %d", z, n, 1400-n)
		}
	}
	mine, err := s.PuzzleRatings(ctx, accounts[0].ID)
	if err != nil || len(mine) != 1 || mine[0].Attempts != n+1 || mine[0].Rating != 1500+n+1 {
		t.Fatalf("the busy account: %+v, %v; want %d attempts, rating %d", mine, err, n+1, 1500+n+1)
	}
}

// testPuzzleAttemptNoAccount: an attempt by an account that is not
// there, or is deleted, is ErrNoAccount and stores nothing.
func testPuzzleAttemptNoAccount(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	if _, err := s.RecordPuzzleAttempt(ctx, puzzleAttempt("nobody", "pommel-1", true), plusOne); !errors.Is(err, store.ErrNoAccount) {
		t.Fatalf("an attempt by no account: %v; want %v", err, store.ErrNoAccount)
	}
	ada := mustAccount(t, s, "Ada")
	if err := s.DeleteAccount(ctx, ada.ID, base.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordPuzzleAttempt(ctx, puzzleAttempt(ada.ID, "pommel-1", true), plusOne); !errors.Is(err, store.ErrNoAccount) {
		t.Fatalf("an attempt by a deleted account: %v; want %v", err, store.ErrNoAccount)
	}
	if states, err := s.PuzzleStates(ctx, "pommel"); err != nil || len(states) != 0 {
		t.Fatalf("puzzles after refused attempts: %+v, %v; want none", states, err)
	}
}

// testPuzzleDeleteAccount: deleting an account removes its puzzle
// ratings and attempts; the puzzles keep what its attempts did to them.
func testPuzzleDeleteAccount(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	mustAttempt(t, s, puzzleAttempt(ada.ID, "pommel-1", true))
	mustAttempt(t, s, puzzleAttempt(bob.ID, "pommel-1", true))
	if err := s.DeleteAccount(ctx, ada.ID, base.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if mine, err := s.PuzzleRatings(ctx, ada.ID); err != nil || len(mine) != 0 {
		t.Fatalf("a deleted account's puzzle ratings: %+v, %v; want none", mine, err)
	}
	if ids, err := s.AttemptedPuzzles(ctx, ada.ID, "pommel"); err != nil || len(ids) != 0 {
		t.Fatalf("a deleted account's attempts: %v, %v; want none", ids, err)
	}
	if theirs, err := s.PuzzleRatings(ctx, bob.ID); err != nil || len(theirs) != 1 {
		t.Fatalf("another account's puzzle ratings: %+v, %v; want kept", theirs, err)
	}
	if states, err := s.PuzzleStates(ctx, "pommel"); err != nil || len(states) != 1 || states[0].Plays != 2 {
		t.Fatalf("the puzzle: %+v, %v; want its 2 plays kept", states, err)
	}
}
