package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// finishScored stores the game's first move with a scored result.
func finishScored(t *testing.T, s store.Store, h store.Header, winners, scores []int) {
	t.Helper()
	next := afterMove(h, base.Add(time.Minute))
	next.Result = &store.Result{Winners: winners, Reason: "scored", Scores: scores}
	if err := s.AddMove(context.Background(), store.Move{Ply: 0, Text: "a1-a2", At: next.Updated}, next); err != nil {
		t.Fatalf("AddMove ending %s: %v", h.ID, err)
	}
}

// testRatedScoredThree: in a scored game of three, the seat that scored
// more of the two who did not win is rated above the other (second beats
// third), and the result keeps its scores.
func testRatedScoredThree(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	h := newHeader("scored3", base)
	h.Game, h.Rated = "punt-heks-match-3p", true
	h.Seats = []store.Seat{{Player: "human", Account: ada.ID}, {Player: "human", Account: bob.ID}, {Player: "human", Account: cy.ID}}
	mustCreate(t, s, h)
	finishScored(t, s, h, []int{0}, []int{9, 2, 5})
	ra, rb, rc := ratingOf(t, s, ada.ID, h.Game), ratingOf(t, s, bob.ID, h.Game), ratingOf(t, s, cy.ID, h.Game)
	if !(ra.Rating > rc.Rating && rc.Rating > rb.Rating) {
		t.Fatalf("scores 9, 2, 5 (seat 0 won): ratings %.1f, %.1f, %.1f; want seat 0 first, seat 2 second, seat 1 third",
			ra.Rating, rb.Rating, rc.Rating)
	}
	got, err := s.Get(context.Background(), h.ID)
	if err != nil || got.Result == nil || len(got.Result.Scores) != 3 || got.Result.Scores[2] != 5 {
		t.Fatalf("the stored result: %+v, %v; want its scores kept", got.Result, err)
	}
}

// testRatedOneAccountTwice: a rated game that seats one account twice
// (the hall refuses to make one; this is the store's own guard) changes
// no rating and writes no rating change.
func testRatedOneAccountTwice(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	bot := store.Account{ID: "ai-level-2", Name: "ai-level-2", Kind: store.AILevel, Created: base}
	seed := []store.Rating{{Game: "pommel", Rating: 992.8, RD: 60, Volatility: 0.06, Updated: base}}
	if err := s.EnsureLevel(ctx, bot, seed); err != nil {
		t.Fatal(err)
	}
	h := ratedHeader("twice", bot, bot)
	mustCreate(t, s, h)
	finish(t, s, h, 1)
	if r := ratingOf(t, s, bot.ID, "pommel"); r.Rating != 992.8 || r.Games != 0 {
		t.Fatalf("after a game against itself: %+v; want the seed rating, 0 games", r)
	}
	if list, err := s.GameRatings(ctx, h.ID); err != nil || len(list) != 0 {
		t.Fatalf("rating changes of a game against itself: %+v, %v; want none", list, err)
	}
}
