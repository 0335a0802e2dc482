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

// accountTests are the suite's tests of store.Accounts.
var accountTests = []struct {
	name string
	run  func(*testing.T, Opener, Reopener)
}{
	{"Accounts", testAccounts},
	{"AccountNameRace", testAccountNameRace},
	{"Sessions", testSessions},
	{"PasswordRevokesSessions", testPasswordRevokesSessions},
	{"DeleteAccount", testDeleteAccount},
	{"Levels", testLevels},
	{"RatedGame", testRatedGame},
	{"RatedDrawAndThreePlayers", testRatedDrawAndThree},
	{"RatedScoredThreePlayers", testRatedScoredThree},
	{"RatedOneAccountTwice", testRatedOneAccountTwice},
	{"UnratedAndRefusedWritesRateNothing", testUnratedAndRefused},
	{"Leaderboard", testLeaderboard},
	{"PlayerGames", testPlayerGames},
	{"Seeks", testSeeks},
	{"SeekOfThree", testSeekOfThree},
	{"SeekRace", testSeekRace},
	{"SeeksPerAddress", testSeeksPerAddress},
	{"SeekPages", testSeekPages},
	{"SeekLimitsRace", testSeekLimitsRace},
	{"Passkeys", testPasskeys},
	{"Ceremonies", testCeremonies},
}

func mustAccount(t *testing.T, s store.Store, name string) store.Account {
	t.Helper()
	a := store.Account{ID: "id-" + name, Name: name, Password: "hash-of-" + name, Created: base}
	if err := s.CreateAccount(context.Background(), a); err != nil {
		t.Fatalf("CreateAccount(%s): %v", name, err)
	}
	a.Created, a.Kind = stored(base), store.Person // an account made without a kind is a person's
	return a
}

func testAccounts(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	got, err := s.Account(ctx, ada.ID)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "Account", got, ada)
	for _, name := range []string{"Ada", "ada", "ADA"} {
		got, err := s.AccountByName(ctx, name)
		if err != nil {
			t.Fatalf("AccountByName(%s): %v", name, err)
		}
		same(t, "AccountByName("+name+")", got, ada)
		err = s.CreateAccount(ctx, store.Account{ID: "other-" + name, Name: name, Created: base})
		wantErr(t, "CreateAccount of a taken name "+name, err, store.ErrNameTaken)
	}
	_, err = s.Account(ctx, "nobody")
	wantErr(t, "Account of no one", err, store.ErrNoAccount)
	_, err = s.AccountByName(ctx, "nobody")
	wantErr(t, "AccountByName of no one", err, store.ErrNoAccount)
}

// testAccountNameRace: of ten sign-ups of one name in different cases at
// once, exactly one is stored.
func testAccountNameRace(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := []string{"grace", "Grace", "GRACE", "gRace", "graCE"}[i%5]
			errs[i] = s.CreateAccount(context.Background(), store.Account{ID: fmt.Sprint("g", i), Name: name, Created: base})
		}()
	}
	wg.Wait()
	stored := 0
	for _, err := range errs {
		switch {
		case err == nil:
			stored++
		case !errors.Is(err, store.ErrNameTaken):
			t.Fatalf("a racing sign-up: %v", err)
		}
	}
	if stored != 1 {
		t.Fatalf("%d sign-ups of one name stored, want 1", stored)
	}
}

func session(account, token string, expires time.Time) store.Session {
	return store.Session{Hash: hash(token), Account: account, Created: base, Expires: expires}
}

func testSessions(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	for _, token := range []string{"one", "two", "old"} {
		expires := base.Add(time.Hour)
		if token == "old" {
			expires = base.Add(-time.Second)
		}
		if err := s.CreateSession(ctx, session(ada.ID, token, expires)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.SessionAccount(ctx, hash("one"), base)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the session's account", got, ada)
	_, err = s.SessionAccount(ctx, hash("old"), base)
	wantErr(t, "an expired session", err, store.ErrNoSession)
	_, err = s.SessionAccount(ctx, hash("one"), base.Add(2*time.Hour))
	wantErr(t, "a session read after it expired", err, store.ErrNoSession)
	_, err = s.SessionAccount(ctx, hash("never"), base)
	wantErr(t, "an unknown session", err, store.ErrNoSession)
	if err := s.DeleteSession(ctx, hash("one")); err != nil {
		t.Fatal(err)
	}
	_, err = s.SessionAccount(ctx, hash("one"), base)
	wantErr(t, "a session logged out", err, store.ErrNoSession)
	if _, err := s.SessionAccount(ctx, hash("two"), base); err != nil {
		t.Fatalf("logging out one session ended another: %v", err)
	}
	if err := s.DeleteSessions(ctx, ada.ID, nil); err != nil {
		t.Fatal(err)
	}
	_, err = s.SessionAccount(ctx, hash("two"), base)
	wantErr(t, "a session after logging out everywhere", err, store.ErrNoSession)

	// Past 100 sessions, a new login ends the oldest.
	for i := range 101 {
		sn := session(ada.ID, fmt.Sprint("login", i), base.Add(time.Hour))
		sn.Created = base.Add(time.Duration(i) * time.Second)
		if err := s.CreateSession(ctx, sn); err != nil {
			t.Fatal(err)
		}
	}
	_, err = s.SessionAccount(ctx, hash("login0"), base)
	wantErr(t, "the oldest of 101 sessions", err, store.ErrNoSession)
	for _, token := range []string{"login1", "login100"} {
		if _, err := s.SessionAccount(ctx, hash(token), base); err != nil {
			t.Fatalf("session %s of the newest 100: %v", token, err)
		}
	}
}

func testPasswordRevokesSessions(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	for _, sn := range []store.Session{session(ada.ID, "here", base.Add(time.Hour)), session(ada.ID, "there", base.Add(time.Hour)),
		session(bob.ID, "bob", base.Add(time.Hour))} {
		if err := s.CreateSession(ctx, sn); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetPassword(ctx, ada.ID, "new-hash", hash("here")); err != nil {
		t.Fatal(err)
	}
	got, err := s.SessionAccount(ctx, hash("here"), base)
	if err != nil {
		t.Fatalf("the session that changed the password ended: %v", err)
	}
	if got.Password != "new-hash" {
		t.Fatalf("password hash %q after the change", got.Password)
	}
	_, err = s.SessionAccount(ctx, hash("there"), base)
	wantErr(t, "another session after a password change", err, store.ErrNoSession)
	if _, err := s.SessionAccount(ctx, hash("bob"), base); err != nil {
		t.Fatalf("another account's session ended: %v", err)
	}
	wantErr(t, "SetPassword of no one", s.SetPassword(ctx, "nobody", "x", nil), store.ErrNoAccount)
}

// ratedHeader is a rated two-seat game between two accounts.
func ratedHeader(id string, a, b store.Account) store.Header {
	h := newHeader(id, base)
	h.Rated = true
	h.Seats = []store.Seat{
		{Player: "human", Name: a.Name, Account: a.ID},
		{Player: "human", Name: b.Name, Account: b.ID},
	}
	return h
}

// finish stores the game's first move together with its result.
func finish(t *testing.T, s store.Store, h store.Header, winners ...int) store.Header {
	t.Helper()
	next := afterMove(h, base.Add(time.Minute))
	next.Result = &store.Result{Winners: winners, Reason: "resignation"}
	if winners == nil {
		next.Result.Winners = []int{}
	}
	if err := s.AddMove(context.Background(), store.Move{Ply: 0, Text: "a1-a2", At: next.Updated}, next); err != nil {
		t.Fatalf("AddMove ending %s: %v", h.ID, err)
	}
	return next
}

func ratingOf(t *testing.T, s store.Store, account, game string) store.Rating {
	t.Helper()
	list, err := s.Ratings(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		if r.Game == game {
			return r
		}
	}
	return store.Rating{}
}

func testDeleteAccount(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	h := ratedHeader("g1", ada, bob)
	mustCreate(t, s, h)
	finish(t, s, h, 0)
	if err := s.CreateSession(ctx, session(ada.ID, "ada", base.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSeek(ctx, store.Seek{ID: "s1", Account: ada.ID, Game: "pommel", Seats: 2, Created: base, Expires: base.Add(time.Hour)}, 5, 10); err != nil {
		t.Fatal(err)
	}
	before := mustGet(t, s, "g1")
	if err := s.DeleteAccount(ctx, ada.ID, base.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	after := mustGet(t, s, "g1")
	if after.Seats[0].Name != store.DeletedName || after.Seats[1].Name != "Bob" || after.Version != before.Version+1 {
		t.Fatalf("seats %+v version %d after deleting the first seat's account (was %d)", after.Seats, after.Version, before.Version)
	}
	same(t, "the result after deleting an account", after.Result, before.Result)
	same(t, "the moves after deleting an account", after.Moves, before.Moves)
	_, err := s.SessionAccount(ctx, hash("ada"), base)
	wantErr(t, "a deleted account's session", err, store.ErrNoSession)
	seeks, err := s.Seeks(ctx, base, store.SeekFilter{})
	if err != nil || len(seeks) != 0 {
		t.Fatalf("seeks after deleting their account: %v, %v", seeks, err)
	}
	board, err := s.Leaderboard(ctx, "pommel", base, 10)
	if err != nil || len(board) != 1 || board[0].Name != "Bob" {
		t.Fatalf("leaderboard after deleting an account: %+v, %v", board, err)
	}
	err = s.CreateAccount(ctx, store.Account{ID: "new", Name: "ada", Created: base})
	wantErr(t, "taking a deleted account's name", err, store.ErrNameTaken)
	got, err := s.Account(ctx, ada.ID)
	if err != nil || !got.Deleted || got.Name != store.DeletedName || got.Password != "" {
		t.Fatalf("the deleted account: %+v, %v", got, err)
	}
	wantErr(t, "deleting it again", s.DeleteAccount(ctx, ada.ID, base), store.ErrNoAccount)
}

func testLevels(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	bot := store.Account{ID: "bot3", Name: "ai-level-3", Created: base}
	seed := []store.Rating{{Game: "pommel", Rating: 1650, RD: 60, Volatility: 0.06, Games: 40, Updated: base}}
	if err := s.EnsureLevel(ctx, bot, seed); err != nil {
		t.Fatal(err)
	}
	r := ratingOf(t, s, "bot3", "pommel")
	if r.Rating != 1650 || r.RD != 60 || r.Games != 40 {
		t.Fatalf("the bot's seeded rating: %+v", r)
	}
	if err := s.SetRating(ctx, "bot3", store.Rating{Game: "pommel", Rating: 1700, RD: 50, Volatility: 0.06, Games: 41, Updated: base}); err != nil {
		t.Fatal(err)
	}
	again := store.Account{ID: "other-id", Name: "AI-Level-3", Created: base}
	if err := s.EnsureLevel(ctx, again, seed); err != nil {
		t.Fatal(err)
	}
	if r := ratingOf(t, s, "bot3", "pommel"); r.Rating != 1700 {
		t.Fatalf("EnsureLevel again overwrote a rating: %+v", r)
	}
	got, err := s.AccountByName(ctx, "ai-level-3")
	if err != nil || !got.IsLevel() || got.IsBot() || got.ID != "bot3" {
		t.Fatalf("the AI level: %+v, %v", got, err)
	}
	mustAccount(t, s, "Mallory")
	err = s.EnsureLevel(ctx, store.Account{ID: "m", Name: "mallory", Created: base}, nil)
	if err == nil {
		t.Fatal("EnsureLevel took over a person's account")
	}
}

func testRatedGame(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	h := ratedHeader("g1", ada, bob)
	mustCreate(t, s, h)
	if got := ratingOf(t, s, ada.ID, "pommel"); got.Games != 0 {
		t.Fatalf("a rating before the game ended: %+v", got)
	}
	end := finish(t, s, h, 0)
	winner, loser := ratingOf(t, s, ada.ID, "pommel"), ratingOf(t, s, bob.ID, "pommel")
	if winner.Games != 1 || loser.Games != 1 || winner.Rating <= 1500 || loser.Rating >= 1500 || winner.RD >= 350 {
		t.Fatalf("after a win: winner %+v, loser %+v", winner, loser)
	}
	if d := (winner.Rating - 1500) + (loser.Rating - 1500); d > 1e-9 || d < -1e-9 {
		t.Fatalf("equal new players: the gain %.3f and the loss %.3f differ", winner.Rating-1500, 1500-loser.Rating)
	}
	changes, err := s.GameRatings(ctx, "g1")
	if err != nil || len(changes) != 2 {
		t.Fatalf("the game's rating changes: %+v, %v", changes, err)
	}
	if changes[0].Name != "Ada" || changes[0].Before != 1500 || changes[0].Rating != winner.Rating || changes[1].Rating != loser.Rating {
		t.Fatalf("the game's rating changes: %+v", changes)
	}
	// A later write of the finished game (the seats renamed, say) rates
	// nothing again.
	later := end
	later.Version++
	later.Updated = base.Add(2 * time.Minute)
	if err := s.Update(ctx, later); err != nil {
		t.Fatal(err)
	}
	if again := ratingOf(t, s, ada.ID, "pommel"); again != winner {
		t.Fatalf("a second write of the result rated again: %+v, was %+v", again, winner)
	}
	hist, err := s.RatingHistory(ctx, ada.ID, "pommel", 0)
	if err != nil || len(hist) != 1 || hist[0].GameID != "g1" {
		t.Fatalf("history: %+v, %v", hist, err)
	}
	if other := ratingOf(t, s, ada.ID, "pommel-76"); other.Games != 0 {
		t.Fatalf("a pommel game rated pommel-76: %+v", other)
	}
}

func testRatedDrawAndThree(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	h := ratedHeader("draw", ada, bob)
	mustCreate(t, s, h)
	finish(t, s, h)
	a, b := ratingOf(t, s, ada.ID, "pommel"), ratingOf(t, s, bob.ID, "pommel")
	if a.Rating != 1500 || b.Rating != 1500 || a.RD >= 350 || a.Games != 1 {
		t.Fatalf("after a draw of equals: %+v, %+v", a, b)
	}
	three := newHeader("three", base)
	three.Game = "punt-heks-match-3p"
	three.Rated = true
	three.Seats = []store.Seat{{Player: "human", Account: ada.ID}, {Player: "human", Account: bob.ID}, {Player: "human", Account: cy.ID}}
	mustCreate(t, s, three)
	finish(t, s, three, 1)
	ra, rb, rc := ratingOf(t, s, ada.ID, three.Game), ratingOf(t, s, bob.ID, three.Game), ratingOf(t, s, cy.ID, three.Game)
	if rb.Rating <= 1500 || ra.Rating >= 1500 || rc.Rating >= 1500 || ra.Rating != rc.Rating {
		t.Fatalf("3 players, the second seat won: %+v %+v %+v", ra, rb, rc)
	}
}

func testUnratedAndRefused(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	casual := ratedHeader("casual", ada, bob)
	casual.Rated = false
	mustCreate(t, s, casual)
	finish(t, s, casual, 0)
	rated := ratedHeader("rated", ada, bob)
	mustCreate(t, s, rated)
	stale := afterMove(rated, base)
	stale.Version += 5
	stale.Result = &store.Result{Winners: []int{0}, Reason: "resignation"}
	err := s.AddMove(ctx, store.Move{Ply: 0, Text: "a1-a2", At: base}, stale)
	wantErr(t, "a stale ending move", err, store.ErrConflict)
	if list, err := s.Ratings(ctx, ada.ID); err != nil || len(list) != 0 {
		t.Fatalf("ratings after a casual game and a refused ending: %+v, %v", list, err)
	}
	anonymous := newHeader("anon", base)
	anonymous.Rated = true
	mustCreate(t, s, anonymous)
	finish(t, s, anonymous, 0)
	if list, err := s.Ratings(ctx, ada.ID); err != nil || len(list) != 0 {
		t.Fatalf("ratings after a game without accounts: %+v, %v", list, err)
	}
}

func testLeaderboard(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	if err := s.EnsureLevel(ctx, store.Account{ID: "bot", Name: "ai-level-6", Created: base},
		[]store.Rating{{Game: "pommel", Rating: 2400, RD: 50, Volatility: 0.06, Games: 100, Updated: base}}); err != nil {
		t.Fatal(err)
	}
	for i, pair := range [][2]store.Account{{ada, bob}, {ada, cy}} {
		h := ratedHeader(fmt.Sprint("g", i), pair[0], pair[1])
		mustCreate(t, s, h)
		finish(t, s, h, 0)
	}
	board, err := s.Leaderboard(ctx, "pommel", base, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(board) != 3 || board[0].Name != "Ada" || board[0].Games != 2 {
		t.Fatalf("leaderboard %+v", board)
	}
	for i := 1; i < len(board); i++ {
		if board[i].Rating.Rating > board[i-1].Rating.Rating {
			t.Fatalf("leaderboard out of order: %+v", board)
		}
	}
	if later, err := s.Leaderboard(ctx, "pommel", base.Add(time.Hour), 10); err != nil || len(later) != 0 {
		t.Fatalf("leaderboard of players active since after their games: %+v, %v", later, err)
	}
	if other, err := s.Leaderboard(ctx, "eximo", base, 10); err != nil || len(other) != 0 {
		t.Fatalf("leaderboard of a game nobody played: %+v, %v", other, err)
	}
}

func testPlayerGames(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	for i := range 5 {
		h := ratedHeader(fmt.Sprint("g", i), ada, bob)
		h.Created = base.Add(time.Duration(i) * time.Minute)
		if i%2 == 1 {
			h.Game = "eximo"
		}
		mustCreate(t, s, h)
		if i == 0 {
			finish(t, s, h, 0)
		}
	}
	other := newHeader("anon", base)
	mustCreate(t, s, other)
	ids := func(f store.GameFilter) []string {
		list, err := s.PlayerGames(ctx, bob.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range list {
			ids = append(ids, h.ID)
		}
		return ids
	}
	same(t, "all games", ids(store.GameFilter{}), []string{"g4", "g3", "g2", "g1", "g0"})
	same(t, "eximo games", ids(store.GameFilter{Game: "eximo"}), []string{"g3", "g1"})
	same(t, "ongoing pommel games", ids(store.GameFilter{Game: "pommel", Ongoing: true}), []string{"g4", "g2"})
	same(t, "a page", ids(store.GameFilter{Limit: 2, Before: base.Add(3 * time.Minute)}), []string{"g2", "g1"})
	// Seating an account in a game that exists (claiming it) lists it.
	g := mustGet(t, s, "anon")
	next := g.Header
	next.Version++
	next.Seats[0].Account = bob.ID
	if err := s.Update(ctx, next); err != nil {
		t.Fatal(err)
	}
	if got := ids(store.GameFilter{Limit: 1}); len(got) != 1 || got[0] != "g4" {
		t.Fatalf("newest game after a claim: %v", got)
	}
	if got := ids(store.GameFilter{}); len(got) != 6 {
		t.Fatalf("games after a claim: %v", got)
	}
	if _, err := s.PlayerGames(ctx, bob.ID, store.GameFilter{Limit: -1}); err == nil {
		t.Fatal("a negative limit was taken")
	}
}

func seek(id string, by store.Account, seats int) store.Seek {
	return store.Seek{ID: id, Account: by.ID, Game: "pommel", Options: map[string]string{"maxplies": "300"}, Rated: true,
		Clock: &timecontrol.Control{Base: 3 * time.Minute, Increment: 2 * time.Second}, Seats: seats, Created: base, Expires: base.Add(time.Hour)}
}

func testSeeks(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	open1 := seek("s1", ada, 2)
	if err := s.CreateSeek(ctx, open1, 2, 10); err != nil {
		t.Fatal(err)
	}
	challenge := seek("s2", ada, 2)
	challenge.Target, challenge.Clock, challenge.Rated = bob.ID, &timecontrol.Control{PerMove: 2 * timecontrol.Day}, false
	challenge.NoTakebacks = true // kept, and given back with the seek
	challenge.Created = base.Add(time.Second)
	if err := s.CreateSeek(ctx, challenge, 2, 10); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "a third seek over the limit", s.CreateSeek(ctx, seek("s3", ada, 2), 2, 10), store.ErrTooManySeeks)
	list, err := s.Seeks(ctx, base, store.SeekFilter{})
	if err != nil {
		t.Fatal(err)
	}
	open1.Created, open1.Expires = stored(open1.Created), stored(open1.Expires)
	challenge.Created, challenge.Expires = stored(challenge.Created), stored(challenge.Expires)
	same(t, "the seeks, newest first", list, []store.Seek{challenge, open1})

	_, _, err = s.TakeSeek(ctx, "s1", ada.ID, base)
	wantErr(t, "accepting one's own seek", err, store.ErrOwnSeek)
	_, _, err = s.TakeSeek(ctx, "s2", cy.ID, base)
	wantErr(t, "accepting a challenge to another", err, store.ErrNotForYou)
	got, full, err := s.TakeSeek(ctx, "s2", bob.ID, base)
	if err != nil || !full || got.Target != bob.ID || len(got.Joined) != 1 || got.Joined[0] != bob.ID {
		t.Fatalf("the challenged account accepts: %+v full %v, %v", got, full, err)
	}
	_, _, err = s.TakeSeek(ctx, "s2", bob.ID, base)
	wantErr(t, "accepting a seek taken", err, store.ErrNoSeek)
	if err := s.RestoreSeek(ctx, challenge); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "withdrawing another's seek", s.DeleteSeek(ctx, "s2", bob.ID), store.ErrNoSeek)
	if err := s.DeleteSeek(ctx, "s2", ada.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.TakeSeek(ctx, "s1", bob.ID, base.Add(2*time.Hour))
	wantErr(t, "accepting an expired seek", err, store.ErrNoSeek)
	if err := s.ExtendSeeks(ctx, ada.ID, base.Add(30*time.Minute), base.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if list, err := s.Seeks(ctx, base.Add(2*time.Hour), store.SeekFilter{}); err != nil || len(list) != 1 {
		t.Fatalf("seeks after their seeker kept them: %+v, %v", list, err)
	}
}

func testSeekOfThree(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	if err := s.CreateSeek(ctx, seek("s", ada, 3), 5, 10); err != nil {
		t.Fatal(err)
	}
	got, full, err := s.TakeSeek(ctx, "s", bob.ID, base)
	if err != nil || full || len(got.Joined) != 1 {
		t.Fatalf("the first to join: %+v full %v, %v", got, full, err)
	}
	_, _, err = s.TakeSeek(ctx, "s", bob.ID, base)
	wantErr(t, "joining twice", err, store.ErrOwnSeek)
	got, full, err = s.TakeSeek(ctx, "s", cy.ID, base)
	if err != nil || !full {
		t.Fatalf("the second to join: %+v full %v, %v", got, full, err)
	}
	same(t, "who joined", got.Joined, []string{bob.ID, cy.ID})
	if list, err := s.Seeks(ctx, base, store.SeekFilter{}); err != nil || len(list) != 0 {
		t.Fatalf("a full seek is still listed: %+v, %v", list, err)
	}
}

// testSeekRace: of ten accounts accepting one seek at once, one gets it.
func testSeekRace(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	if err := s.CreateSeek(ctx, seek("s", ada, 2), 5, 10); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range 10 {
		taker := mustAccount(t, s, fmt.Sprint("p", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, full, err := s.TakeSeek(ctx, "s", taker.ID, base)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && full:
				won++
			case !errors.Is(err, store.ErrNoSeek):
				t.Errorf("a racing accept: full %v, %v", full, err)
			}
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d accounts got one seek", won)
	}
}

// testSeeksPerAddress: one address's open seeks are bounded whatever
// their accounts; expired ones and other addresses' do not count, and an
// address stored is read back.
func testSeeksPerAddress(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	from := func(id string, by store.Account, address string) store.Seek {
		sk := seek(id, by, 2)
		sk.Address = address
		return sk
	}
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	for i, by := range []store.Account{ada, ada, bob} {
		if err := s.CreateSeek(ctx, from(fmt.Sprint("a", i), by, "10.0.0.1"), 5, 3); err != nil {
			t.Fatal(err)
		}
	}
	wantErr(t, "a fourth seek from one address", s.CreateSeek(ctx, from("a3", cy, "10.0.0.1"), 5, 3), store.ErrTooManyAddressSeeks)
	if err := s.CreateSeek(ctx, from("b0", cy, "10.0.0.2"), 5, 3); err != nil {
		t.Fatalf("a seek from another address: %v", err)
	}
	if err := s.CreateSeek(ctx, from("n0", cy, ""), 5, 3); err != nil {
		t.Fatalf("a seek with no address: %v", err)
	}
	later := from("a4", cy, "10.0.0.1")
	later.Created, later.Expires = base.Add(2*time.Hour), base.Add(3*time.Hour)
	if err := s.CreateSeek(ctx, later, 5, 3); err != nil {
		t.Fatalf("a seek from the address once its seeks expired: %v", err)
	}
	list, err := s.Seeks(ctx, base.Add(2*time.Hour), store.SeekFilter{})
	if err != nil || len(list) != 1 || list[0].Address != "10.0.0.1" {
		t.Fatalf("the seeks after the others expired: %+v, %v", list, err)
	}
}

// testSeekPages: the seeks newest first, by kind and game, in pages that
// neither skip nor repeat a seek of the same millisecond.
func testSeekPages(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	var accounts []store.Account
	for i := range 4 {
		accounts = append(accounts, mustAccount(t, s, fmt.Sprint("p", i)))
	}
	// Seeks s00 to s11, every other one correspondence and every third
	// one eximo; s04 and s05 are made in the same millisecond.
	for i := range 12 {
		sk := seek(fmt.Sprintf("s%02d", i), accounts[i%4], 2)
		sk.Created = base.Add(time.Duration(i) * time.Second)
		if i == 5 {
			sk.Created = base.Add(4 * time.Second)
		}
		sk.Expires = base.Add(time.Hour)
		if i%2 == 1 {
			sk.Clock = &timecontrol.Control{PerMove: 3 * timecontrol.Day}
		}
		if i%3 == 0 {
			sk.Game = "eximo"
		}
		if err := s.CreateSeek(ctx, sk, 5, 100); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(f store.SeekFilter) []string {
		t.Helper()
		list, err := s.Seeks(ctx, base, f)
		if err != nil {
			t.Fatalf("Seeks(%+v): %v", f, err)
		}
		got := []string{}
		for _, sk := range list {
			got = append(got, sk.ID)
		}
		return got
	}
	same(t, "every seek", ids(store.SeekFilter{}), []string{"s11", "s10", "s09", "s08", "s07", "s06", "s05", "s04", "s03", "s02", "s01", "s00"})
	same(t, "real time", ids(store.SeekFilter{Kind: store.RealTime}), []string{"s10", "s08", "s06", "s04", "s02", "s00"})
	same(t, "correspondence", ids(store.SeekFilter{Kind: store.Correspondence}), []string{"s11", "s09", "s07", "s05", "s03", "s01"})
	same(t, "eximo", ids(store.SeekFilter{Game: "eximo"}), []string{"s09", "s06", "s03", "s00"})
	same(t, "eximo by correspondence", ids(store.SeekFilter{Game: "eximo", Kind: store.Correspondence}), []string{"s09", "s03"})
	var paged []string
	cursor := store.SeekCursor{}
	for range 10 {
		page := ids(store.SeekFilter{Limit: 3, Before: cursor})
		if len(page) == 0 {
			break
		}
		paged = append(paged, page...)
		last := page[len(page)-1]
		var n int
		fmt.Sscanf(last, "s%d", &n)
		at := base.Add(time.Duration(n) * time.Second)
		if n == 5 {
			at = base.Add(4 * time.Second)
		}
		cursor = store.SeekCursor{Created: at, ID: last}
	}
	same(t, "every seek in pages of 3", paged, ids(store.SeekFilter{}))
	if _, err := s.Seeks(ctx, base, store.SeekFilter{Limit: -1}); err == nil {
		t.Fatal("a negative limit was taken")
	}
	if _, err := s.Seeks(ctx, base, store.SeekFilter{Kind: "blitz"}); err == nil {
		t.Fatal("an unknown kind was taken")
	}
}

// testSeekLimitsRace: of seeks made at once, from one address by many
// accounts or by one account from many addresses, no more are stored
// than the bound allows.
func testSeekLimitsRace(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada := mustAccount(t, s, "Ada")
	var takers []store.Account
	for i := range 10 {
		takers = append(takers, mustAccount(t, s, fmt.Sprint("p", i)))
	}
	race := func(what string, seekOf func(i int) store.Seek, want int, tooMany error) {
		t.Helper()
		var wg sync.WaitGroup
		errs := make([]error, 10)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = s.CreateSeek(ctx, seekOf(i), 2, 3)
			}()
		}
		wg.Wait()
		stored := 0
		for _, err := range errs {
			switch {
			case err == nil:
				stored++
			case !errors.Is(err, tooMany):
				t.Errorf("%s: %v", what, err)
			}
		}
		if stored != want {
			t.Errorf("%s: %d stored; want %d", what, stored, want)
		}
	}
	race("ten accounts seeking at once from one address", func(i int) store.Seek {
		sk := seek(fmt.Sprint("a", i), takers[i], 2)
		sk.Address = "10.0.0.1"
		return sk
	}, 3, store.ErrTooManyAddressSeeks)
	race("one account seeking at once from ten addresses", func(i int) store.Seek {
		sk := seek(fmt.Sprint("b", i), ada, 2)
		sk.Address = fmt.Sprint("10.0.1.", i)
		return sk
	}, 2, store.ErrTooManySeeks)
}

func testPasskeys(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	key := store.Passkey{ID: "cred-1", Account: ada.ID, Name: "laptop", Credential: []byte(`{"k":1}`), Created: base, Used: base}
	if err := s.AddPasskey(ctx, key, 2); err != nil {
		t.Fatal(err)
	}
	second := key
	second.ID, second.Name, second.Created = "cred-2", "phone", base.Add(time.Second)
	if err := s.AddPasskey(ctx, second, 2); err != nil {
		t.Fatal(err)
	}
	third := key
	third.ID = "cred-3"
	wantErr(t, "a passkey over the limit", s.AddPasskey(ctx, third, 2), store.ErrTooManyPasskeys)
	list, err := s.Passkeys(ctx, ada.ID)
	if err != nil || len(list) != 2 || list[0].ID != "cred-1" || string(list[0].Credential) != `{"k":1}` || list[1].Name != "phone" {
		t.Fatalf("ada's passkeys: %+v, %v", list, err)
	}
	if err := s.UsePasskey(ctx, "cred-1", []byte(`{"k":2}`), base.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Passkey(ctx, "cred-1")
	if err != nil || string(got.Credential) != `{"k":2}` || !got.Used.Equal(stored(base.Add(time.Hour))) {
		t.Fatalf("the passkey after a login: %+v, %v", got, err)
	}
	wantErr(t, "deleting another's passkey", s.DeletePasskey(ctx, bob.ID, "cred-1"), store.ErrNoPasskey)
	if err := s.DeletePasskey(ctx, ada.ID, "cred-1"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Passkey(ctx, "cred-1")
	wantErr(t, "a deleted passkey", err, store.ErrNoPasskey)
	if err := s.DeleteAccount(ctx, ada.ID, base); err != nil {
		t.Fatal(err)
	}
	_, err = s.Passkey(ctx, "cred-2")
	wantErr(t, "a deleted account's passkey", err, store.ErrNoPasskey)
}

func testCeremonies(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	now := time.Now()
	if err := s.PutCeremony(ctx, "c1", "acc", []byte("challenge"), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutCeremony(ctx, "c2", "", []byte("old"), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	account, data, err := s.TakeCeremony(ctx, "c1", now)
	if err != nil || account != "acc" || string(data) != "challenge" {
		t.Fatalf("TakeCeremony: %q %q %v", account, data, err)
	}
	_, _, err = s.TakeCeremony(ctx, "c1", now)
	wantErr(t, "a ceremony taken twice", err, store.ErrNoCeremony)
	_, _, err = s.TakeCeremony(ctx, "c2", now.Add(2*time.Minute))
	wantErr(t, "an expired ceremony", err, store.ErrNoCeremony)
	_, _, err = s.TakeCeremony(ctx, "never", now)
	wantErr(t, "an unknown ceremony", err, store.ErrNoCeremony)
}
