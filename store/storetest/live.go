package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// liveTests are the suite's tests of store.Live.
var liveTests = []struct {
	name string
	run  func(*testing.T, Opener, Reopener)
}{
	{"TopGames", testTopGames},
	{"TopGamesLimit", testTopGamesLimit},
}

// liveGame is a two-seat real-time game between accounts, created i
// minutes after base.
func liveGame(id string, i int, seats ...store.Account) store.Header {
	h := newHeader(id, base.Add(time.Duration(i)*time.Minute))
	h.Seats = nil
	for _, a := range seats {
		h.Seats = append(h.Seats, store.Seat{Player: "human", Name: a.Name, Account: a.ID, TokenHash: hash(id + a.ID)})
	}
	h.Clock = &store.Clock{Control: timecontrol.Control{Base: 3 * time.Minute, Increment: 2 * time.Second},
		Left: []time.Duration{3 * time.Minute, 3 * time.Minute}}
	return h
}

func testTopGames(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	startedWith(t, s) // a running t1, by Ada
	acc := map[string]store.Account{}
	for _, n := range []string{"Bea", "Cas", "Dan", "Eve", "Fay", "Gus", "Lev"} {
		acc[n] = mustAccount(t, s, n)
	}
	for n, r := range map[string]float64{"Bea": 2100, "Cas": 1900, "Dan": 1300, "Eve": 1200, "Fay": 1700} {
		if err := s.SetRating(ctx, acc[n].ID, store.Rating{Game: "pommel", Rating: r, RD: 80, Volatility: 0.06, Updated: base}); err != nil {
			t.Fatal(err)
		}
	}
	// Gus has no rating: he counts as a new player's start, 1500.
	games := map[string]store.Header{
		"casual-high": liveGame("casual-high", 1, acc["Bea"], acc["Cas"]), // mean 2000
		"casual-mid":  liveGame("casual-mid", 2, acc["Fay"], acc["Gus"]),  // mean 1600
		"tour-low":    liveGame("tour-low", 0, acc["Dan"], acc["Eve"]),    // mean 1250, tournament t1
		"tie-newer":   liveGame("tie-newer", 3, acc["Fay"], acc["Gus"]),   // mean 1600, newer than casual-mid
	}
	corr := liveGame("corr", 9, acc["Bea"], acc["Cas"])
	corr.Clock = &store.Clock{Control: timecontrol.Control{PerMove: 72 * time.Hour}, Left: []time.Duration{72 * time.Hour, 72 * time.Hour}}
	untimed := liveGame("untimed", 9, acc["Bea"], acc["Cas"])
	untimed.Clock = nil
	anon := liveGame("anon", 9, acc["Bea"], acc["Cas"])
	anon.Seats[1].Account, anon.Seats[1].Name = "", "someone"
	level := liveGame("level", 9, acc["Bea"], acc["Cas"])
	level.Seats[1] = store.Seat{Player: "ai:level=6", Account: acc["Lev"].ID} // as an AI level's seat
	openSeat := liveGame("open", 9, acc["Bea"])
	openSeat.Seats = append(openSeat.Seats, store.Seat{Player: "human", Open: true})
	ended := liveGame("ended", 9, acc["Bea"], acc["Cas"])
	for _, h := range []store.Header{corr, untimed, anon, level, openSeat, ended} {
		games[h.ID] = h
	}
	for _, h := range games {
		if err := s.Create(ctx, h); err != nil {
			t.Fatalf("Create(%s): %v", h.ID, err)
		}
	}
	done := ended
	done.Version, done.Result, done.Updated = 2, &store.Result{Winners: []int{0}, Reason: "resignation"}, base.Add(time.Hour)
	if err := s.Update(ctx, done); err != nil {
		t.Fatal(err)
	}
	tg := board(1, 1, acc["Dan"].ID, acc["Eve"].ID)
	tg.Game = "tour-low"
	if err := s.PairTournament(ctx, "t1", 1, []store.TournamentGame{tg}, false); err != nil {
		t.Fatal(err)
	}

	got, err := s.TopGames(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, g := range got {
		order = append(order, g.Header.ID)
	}
	// The tournament's game first however low; then by the mean rating,
	// the newer of two equal first; the rest are not shown at all.
	if want := []string{"tour-low", "casual-high", "tie-newer", "casual-mid"}; !slices.Equal(order, want) {
		t.Fatalf("TopGames = %v, want %v", order, want)
	}
	if g := got[0]; g.Tournament == nil || *g.Tournament != (store.LiveTournament{ID: "t1", Name: "Cup t1"}) ||
		!slices.Equal(g.Ratings, []float64{1300, 1200}) || g.Mean != 1250 || g.Header.Seats[0].Name != "Dan" {
		t.Fatalf("the tournament's game: %+v (tournament %+v)", g, g.Tournament)
	}
	if g := got[1]; g.Tournament != nil || !slices.Equal(g.Ratings, []float64{2100, 1900}) || g.Mean != 2000 {
		t.Fatalf("the casual game: %+v", g)
	}
	if g := got[3]; !slices.Equal(g.Ratings, []float64{1700, 1500}) {
		t.Fatalf("a new player's rating: %v, want 1700 and the start, 1500", g.Ratings)
	}

	// Once its tournament is over, a game ranks as a casual one.
	if err := s.FinishTournament(ctx, "t1", base.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err = s.TopGames(ctx, 10)
	if err != nil || len(got) != 4 || got[0].Header.ID != "casual-high" || got[3].Header.ID != "tour-low" || got[3].Tournament != nil {
		t.Fatalf("after the tournament: %v %v, want casual-high first and tour-low last, without its tournament", liveIDs(got), err)
	}
}

func liveIDs(list []store.LiveGame) []string {
	out := []string{}
	for _, g := range list {
		out = append(out, g.Header.ID)
	}
	return out
}

func testTopGamesLimit(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bea := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bea")
	if got, err := s.TopGames(ctx, 1); err != nil || len(got) != 0 {
		t.Fatalf("nothing in play: %v %v", liveIDs(got), err)
	}
	for i, id := range []string{"a", "b", "c"} {
		if err := s.Create(ctx, liveGame(id, i, ada, bea)); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.TopGames(ctx, 2); err != nil || !slices.Equal(liveIDs(got), []string{"c", "b"}) {
		t.Fatalf("TopGames(2) = %v %v, want the two newest, c and b", liveIDs(got), err)
	}
	for _, bad := range []int{0, -1, store.MaxTopGames + 1} {
		if _, err := s.TopGames(ctx, bad); err == nil {
			t.Errorf("TopGames(%d) was taken", bad)
		}
	}
}
