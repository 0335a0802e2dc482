package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// tournamentTests are the suite's tests of store.Tournaments.
var tournamentTests = []struct {
	name string
	run  func(*testing.T, Opener, Reopener)
}{
	{"TournamentRoundTrip", testTournamentRoundTrip},
	{"TournamentLimits", testTournamentLimits},
	{"TournamentPlayers", testTournamentPlayers},
	{"TournamentStates", testTournamentStates},
	{"TournamentPairing", testTournamentPairing},
	{"TournamentPairingRace", testTournamentPairingRace},
	{"TournamentArenaBusy", testTournamentArenaBusy},
	{"TournamentEndGameOnce", testTournamentEndGameOnce},
}

// newTournament is a Swiss by creator, created i minutes after base.
func newTournament(id string, creator store.Account, i int) store.Tournament {
	return store.Tournament{ID: id, Creator: creator.ID, Name: "Cup " + id, Kind: "swiss", Game: "checkers",
		Options: map[string]string{}, Clock: &timecontrol.Control{Base: 3 * time.Minute, Increment: 2 * time.Second},
		Rated: true, Rounds: 4, MinRating: 1000, MaxRating: 2000, Invite: true,
		Starts: base.Add(time.Hour), Created: base.Add(time.Duration(i) * time.Minute)}
}

// asStoredTournament is t as the store gives it back, just created.
func asStoredTournament(t store.Tournament) store.Tournament {
	t.State, t.Created, t.Starts = store.TournamentCreated, stored(t.Created), stored(t.Starts)
	return t
}

func mustTournament(t *testing.T, s store.Store, tr store.Tournament) store.Tournament {
	t.Helper()
	if err := s.CreateTournament(context.Background(), tr, 100); err != nil {
		t.Fatalf("CreateTournament(%s): %v", tr.ID, err)
	}
	return asStoredTournament(tr)
}

func testTournamentRoundTrip(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	want := mustTournament(t, s, newTournament("t1", ada, 0))
	got, err := s.Tournament(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "Tournament", got, want)
	arena := newTournament("t2", ada, 1)
	arena.Kind, arena.Rounds, arena.Minutes, arena.Clock, arena.Starts, arena.Rated = "arena", 0, 30, nil, time.Time{}, false
	arena.Options = map[string]string{"variant": "x"}
	wantArena := mustTournament(t, s, arena)
	wantArena.Starts = time.Time{}
	if got, _ := s.Tournament(ctx, "t2"); !equalTournament(got, wantArena) {
		t.Fatalf("an arena without clock nor start: got %+v, want %+v", got, wantArena)
	}
	if _, err := s.Tournament(ctx, "nope"); !errors.Is(err, store.ErrNoTournament) {
		t.Fatalf("Tournament(nope) = %v, want ErrNoTournament", err)
	}
	if err := s.CreateTournament(ctx, newTournament("t1", ada, 2), 100); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("a second t1: %v, want ErrDuplicate", err)
	}
	list, err := s.ListTournaments(ctx, store.TournamentFilter{State: store.TournamentCreated})
	if err != nil || len(list) != 2 || list[0].ID != "t1" || list[1].ID != "t2" {
		t.Fatalf("the upcoming: %v %v; want t1 (scheduled) then t2 (by hand)", ids(list), err)
	}
	if list, _ := s.ListTournaments(ctx, store.TournamentFilter{State: store.TournamentRunning}); len(list) != 0 {
		t.Fatalf("running: %v, want none", ids(list))
	}
	if _, err := s.ListTournaments(ctx, store.TournamentFilter{State: "bogus"}); err == nil {
		t.Fatal("a bogus state was listed")
	}
	if _, err := s.ListTournaments(ctx, store.TournamentFilter{Limit: -1}); err == nil {
		t.Fatal("a negative limit was taken")
	}
}

func equalTournament(a, b store.Tournament) bool {
	return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b)
}

func ids(list []store.Tournament) []string {
	out := []string{}
	for _, t := range list {
		out = append(out, t.ID)
	}
	return out
}

func testTournamentLimits(t *testing.T, open Opener, again Reopener) {
	s, ctx := open(t), context.Background()
	stores := []store.Store{s, again(t, s)}
	ada := mustAccount(t, s, "Ada")
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = stores[i%2].CreateTournament(ctx, newTournament(fmt.Sprint("r", i), ada, i), 3) })
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		switch {
		case err == nil:
			made++
		case !errors.Is(err, store.ErrTooManyTournaments):
			t.Fatal(err)
		}
	}
	if made != 3 {
		t.Fatalf("8 tournaments at once with a limit of 3: %d made", made)
	}
	// A finished one no longer counts.
	list, _ := s.ListTournaments(ctx, store.TournamentFilter{})
	if err := s.StartTournament(ctx, list[0].ID, base); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTournament(ctx, list[0].ID, base); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTournament(ctx, newTournament("after", ada, 9), 3); err != nil {
		t.Fatalf("after one finished: %v", err)
	}
}

func player(tr string, a store.Account, rating float64) store.TournamentPlayer {
	return store.TournamentPlayer{Tournament: tr, Account: a.ID, Name: a.Name, Rating: rating, Joined: true, At: stored(base)}
}

func testTournamentPlayers(t *testing.T, open Opener, again Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	mustTournament(t, s, newTournament("t1", ada, 0))
	var accounts []store.Account
	for i := range 6 {
		accounts = append(accounts, mustAccount(t, s, fmt.Sprint("p", i)))
	}
	invited := player("t1", accounts[5], 0)
	invited.Joined, invited.Invited = false, true
	if err := s.SetTournamentPlayer(ctx, invited, 4); err != nil {
		t.Fatal(err)
	}
	// Racing joins from two stores: exactly the limit gets in.
	stores := []store.Store{s, again(t, s)}
	errs := make([]error, 5)
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() { errs[i] = stores[i%2].SetTournamentPlayer(ctx, player("t1", accounts[i], float64(1500+i)), 4) })
	}
	wg.Wait()
	full := 0
	for _, err := range errs {
		if errors.Is(err, store.ErrTournamentFull) {
			full++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if full != 1 {
		t.Fatalf("5 joins for 4 places: %d refused, want 1 (%v)", full, errs)
	}
	list, err := s.TournamentPlayers(ctx, "t1")
	if err != nil || len(list) != 5 {
		t.Fatalf("players: %d, %v; want 4 joined and 1 invited", len(list), err)
	}
	// A joined player's change (a withdrawal) is no second join.
	var in store.TournamentPlayer
	for _, p := range list {
		if p.Joined {
			in = p
		}
	}
	in.Withdrawn, in.Paused, in.Berserk, in.Score = true, true, true, 2.5
	if err := s.SetTournamentPlayer(ctx, in, 4); err != nil {
		t.Fatalf("withdrawing from a full tournament: %v", err)
	}
	list, _ = s.TournamentPlayers(ctx, "t1")
	for _, p := range list {
		if p.Account == in.Account {
			same(t, "the withdrawn player", p, in)
		}
		if p.Account == invited.Account {
			same(t, "the invited player", p, invited)
		}
	}
	if err := s.SetTournamentPlayer(ctx, player("nope", ada, 0), 4); !errors.Is(err, store.ErrNoTournament) {
		t.Fatalf("joining no tournament: %v", err)
	}
}

func testTournamentStates(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	mustTournament(t, s, newTournament("t1", ada, 0))
	if err := s.FinishTournament(ctx, "t1", base); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("finishing a tournament not started: %v", err)
	}
	if err := s.StartTournament(ctx, "t1", base); err != nil {
		t.Fatal(err)
	}
	if err := s.StartTournament(ctx, "t1", base); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("starting twice: %v", err)
	}
	if err := s.StartTournament(ctx, "nope", base); !errors.Is(err, store.ErrNoTournament) {
		t.Fatalf("starting no tournament: %v", err)
	}
	if err := s.FinishTournament(ctx, "t1", base.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Tournament(ctx, "t1")
	if got.State != store.TournamentFinished || !got.Started.Equal(stored(base)) || !got.Ended.Equal(stored(base.Add(time.Hour))) {
		t.Fatalf("finished: %+v", got)
	}
	if err := s.SetTournamentPlayer(ctx, player("t1", ada, 0), 4); !errors.Is(err, store.ErrNoTournament) {
		t.Fatalf("joining a finished tournament: %v", err)
	}
}

// board is a game of round r at board b between seats.
func board(r, b int, seats ...string) store.TournamentGame {
	return store.TournamentGame{Tournament: "t1", Round: r, Board: b, Game: fmt.Sprintf("g%d-%d", r, b), Seats: seats,
		Berserk: make([]bool, len(seats)), Places: []int{}, Created: stored(base)}
}

// startedWith is a running t1 with accounts a, b, c, d.
func startedWith(t *testing.T, s store.Store) {
	t.Helper()
	ada := mustAccount(t, s, "Ada")
	mustTournament(t, s, newTournament("t1", ada, 0))
	if err := s.StartTournament(context.Background(), "t1", base); err != nil {
		t.Fatal(err)
	}
}

func testTournamentPairing(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	startedWith(t, s)
	bye := store.TournamentGame{Tournament: "t1", Round: 1, Board: 3, Seats: []string{"e"}, Ended: true, Places: []int{1},
		Created: stored(base), Finished: stored(base)}
	round1 := []store.TournamentGame{board(1, 1, "a", "b"), board(1, 2, "c", "d"), bye}
	if err := s.PairTournament(ctx, "t1", 2, round1, false); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("pairing round 2 before 1: %v", err)
	}
	if err := s.PairTournament(ctx, "t1", 1, round1, false); err != nil {
		t.Fatal(err)
	}
	if err := s.PairTournament(ctx, "t1", 1, round1, false); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("pairing round 1 twice: %v", err)
	}
	// A player twice in one round is refused whole.
	twice := []store.TournamentGame{board(2, 1, "a", "c"), board(2, 2, "a", "d")}
	if err := s.PairTournament(ctx, "t1", 2, twice, false); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a player twice in round 2: %v", err)
	}
	got, err := s.TournamentGames(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the games of round 1", got, round1)
	if tr, _ := s.Tournament(ctx, "t1"); tr.Round != 1 {
		t.Fatalf("round %d after a refused round 2, want 1", tr.Round)
	}
	// Each game names its tournament; a bye's empty id and a game of no
	// tournament name none.
	for game, want := range map[string]string{round1[0].Game: "t1", round1[1].Game: "t1", "": "", "nogame": ""} {
		if got, err := s.TournamentOfGame(ctx, game); err != nil || got != want {
			t.Errorf("TournamentOfGame(%q) = %q, %v; want %q", game, got, err, want)
		}
	}
}

func testTournamentPairingRace(t *testing.T, open Opener, again Reopener) {
	s, ctx := open(t), context.Background()
	startedWith(t, s)
	stores := []store.Store{s, again(t, s)}
	for round := 1; round <= 5; round++ {
		errs := make([]error, 6)
		var wg sync.WaitGroup
		for i := range errs {
			// Each writer pairs the round its own way, as two servers
			// reading the same standings may.
			games := []store.TournamentGame{board(round, 1, "a", fmt.Sprint("b", i)), board(round, 2, "c", fmt.Sprint("d", i))}
			wg.Go(func() { errs[i] = stores[i%2].PairTournament(ctx, "t1", round, games, false) })
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			if err == nil {
				won++
			} else if !errors.Is(err, store.ErrConflict) {
				t.Fatal(err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d paired by %d of 6 racing writers, want 1", round, won)
		}
	}
	games, _ := s.TournamentGames(ctx, "t1")
	if len(games) != 10 {
		t.Fatalf("%d games stored, want 10", len(games))
	}
}

func testTournamentArenaBusy(t *testing.T, open Opener, again Reopener) {
	s, ctx := open(t), context.Background()
	startedWith(t, s)
	if err := s.PairTournament(ctx, "t1", 1, []store.TournamentGame{board(1, 1, "a", "b")}, true); err != nil {
		t.Fatal(err)
	}
	// a is still playing: a new game of a's is refused, and the round with it.
	if err := s.PairTournament(ctx, "t1", 2, []store.TournamentGame{board(2, 1, "c", "d"), board(2, 2, "a", "e")}, true); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("pairing a busy player: %v", err)
	}
	g := board(1, 1, "a", "b")
	g.Ended, g.Places, g.Plies, g.Finished = true, []int{1, 2}, 30, stored(base)
	if _, err := s.EndTournamentGame(ctx, g, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.PairTournament(ctx, "t1", 2, []store.TournamentGame{board(2, 1, "c", "d"), board(2, 2, "a", "e")}, true); err != nil {
		t.Fatalf("pairing a player whose game ended: %v", err)
	}
}

func testTournamentEndGameOnce(t *testing.T, open Opener, again Reopener) {
	s, ctx := open(t), context.Background()
	startedWith(t, s)
	for _, a := range []string{"a", "b"} {
		if err := s.SetTournamentPlayer(ctx, store.TournamentPlayer{Tournament: "t1", Account: "id-Ada", Name: a, Joined: true}, 10); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PairTournament(ctx, "t1", 1, []store.TournamentGame{board(1, 1, "id-Ada", "b")}, false); err != nil {
		t.Fatal(err)
	}
	g := board(1, 1, "id-Ada", "b")
	g.Ended, g.Places, g.Plies, g.Finished = true, []int{1, 1}, 44, stored(base.Add(time.Minute))
	stores := []store.Store{s, again(t, s)}
	ended := make([]bool, 4)
	var wg sync.WaitGroup
	for i := range ended {
		wg.Go(func() {
			var err error
			ended[i], err = stores[i%2].EndTournamentGame(ctx, g, map[string]float64{"id-Ada": 0.5})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	n := 0
	for _, e := range ended {
		if e {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("a result written %d times by 4 racing writers, want once", n)
	}
	games, _ := s.TournamentGames(ctx, "t1")
	same(t, "the ended game", games, []store.TournamentGame{g})
	players, _ := s.TournamentPlayers(ctx, "t1")
	if len(players) != 1 || players[0].Score != 0.5 {
		t.Fatalf("the score: %+v", players)
	}
}
