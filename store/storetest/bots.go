package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// botTests are the suite's tests of store.Bots.
var botTests = []struct {
	name string
	run  func(*testing.T, Opener, Reopener)
}{
	{"BotTokens", testAPITokens},
	{"BotTokenRace", testTokenRace},
	{"BotMakeBot", testMakeBot},
	{"BotMakeBotRefuses", testMakeBotRefuses},
	{"BotSeatsAndLeaderboard", testBotSeatsAndLeaderboard},
	{"BotChallenges", testBotChallenges},
}

func apiToken(id string, of store.Account, i int) store.APIToken {
	return store.APIToken{ID: id, Hash: hash("token " + id), Account: of.ID, Description: "engine " + id,
		Created: base.Add(time.Duration(i) * time.Second)}
}

// testAPITokens: tokens are listed oldest first without their hashes, find
// their account by hash, stop at the limit, are revoked one by one by
// their own account only, and go with a deleted account.
func testAPITokens(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	for i, id := range []string{"t2", "t1", "t3"} {
		if err := s.CreateAPIToken(ctx, apiToken(id, ada, i), 3); err != nil {
			t.Fatalf("CreateAPIToken(%s): %v", id, err)
		}
	}
	wantErr(t, "a fourth token over a limit of 3", s.CreateAPIToken(ctx, apiToken("t4", ada, 4), 3), store.ErrTooManyAPITokens)
	if err := s.CreateAPIToken(ctx, apiToken("b1", bob, 0), 3); err != nil {
		t.Fatalf("another account's token: %v", err)
	}
	list, err := s.APITokens(ctx, ada.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.APIToken{}
	for i, id := range []string{"t2", "t1", "t3"} {
		tok := apiToken(id, ada, i)
		tok.Hash, tok.Created = nil, stored(tok.Created)
		want = append(want, tok)
	}
	same(t, "Ada's tokens, oldest first, without hashes", list, want)

	got, err := s.APITokenAccount(ctx, hash("token t1"))
	if err != nil {
		t.Fatal(err)
	}
	same(t, "the account of t1", got, ada)
	_, err = s.APITokenAccount(ctx, hash("token t9"))
	wantErr(t, "an unknown token", err, store.ErrNoAPIToken)

	wantErr(t, "Bob revoking Ada's token", s.DeleteAPIToken(ctx, bob.ID, "t1"), store.ErrNoAPIToken)
	if err := s.DeleteAPIToken(ctx, ada.ID, "t1"); err != nil {
		t.Fatal(err)
	}
	_, err = s.APITokenAccount(ctx, hash("token t1"))
	wantErr(t, "a revoked token", err, store.ErrNoAPIToken)
	wantErr(t, "revoking it again", s.DeleteAPIToken(ctx, ada.ID, "t1"), store.ErrNoAPIToken)
	if _, err := s.APITokenAccount(ctx, hash("token t2")); err != nil {
		t.Fatalf("revoking one token revoked another: %v", err)
	}

	if err := s.DeleteAccount(ctx, ada.ID, base); err != nil {
		t.Fatal(err)
	}
	_, err = s.APITokenAccount(ctx, hash("token t2"))
	wantErr(t, "a deleted account's token", err, store.ErrNoAPIToken)
	if list, err := s.APITokens(ctx, ada.ID); err != nil || len(list) != 0 {
		t.Fatalf("a deleted account's tokens: %+v, %v; want none", list, err)
	}
	if _, err := s.APITokenAccount(ctx, hash("token b1")); err != nil {
		t.Fatalf("deleting Ada revoked Bob's token: %v", err)
	}
}

// testTokenRace: of ten tokens made at once (through two stores, as by
// two servers) under a limit of 3, exactly 3 are kept.
func testTokenRace(t *testing.T, open Opener, again Reopener) {
	s := open(t)
	other := again(t, s)
	ada := mustAccount(t, s, "Ada")
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		st := s
		if i%2 == 1 {
			st = other
		}
		wg.Go(func() { errs[i] = st.CreateAPIToken(context.Background(), apiToken(fmt.Sprint("r", i), ada, i), 3) })
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		switch {
		case err == nil:
			made++
		default:
			wantErr(t, "a token over the limit", err, store.ErrTooManyAPITokens)
		}
	}
	list, err := s.APITokens(context.Background(), ada.ID)
	if err != nil || made != 3 || len(list) != 3 {
		t.Fatalf("%d tokens made and %d kept of ten raced (%v), want 3", made, len(list), err)
	}
}

// testMakeBot: a person's account with no game turns into a bot, which
// ends its sessions and withdraws its seeks; it reads back as a bot, and
// keeps its tokens.
func testMakeBot(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	if err := s.CreateSession(ctx, session(ada.ID, "ada", base.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, session(bob.ID, "bob", base.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSeek(ctx, seek("s1", ada, 2), 5, 10); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateAPIToken(ctx, apiToken("t1", ada, 0), 3); err != nil {
		t.Fatal(err)
	}
	if err := s.MakeBot(ctx, ada.ID); err != nil {
		t.Fatalf("MakeBot of a person without games: %v", err)
	}
	got, err := s.Account(ctx, ada.ID)
	if err != nil || !got.IsBot() || got.IsLevel() || got.Kind != store.Bot {
		t.Fatalf("the account after MakeBot: %+v, %v; want a bot", got, err)
	}
	_, err = s.SessionAccount(ctx, hash("ada"), base)
	wantErr(t, "the bot's session", err, store.ErrNoSession)
	if _, err := s.SessionAccount(ctx, hash("bob"), base); err != nil {
		t.Fatalf("another account's session ended: %v", err)
	}
	if list, err := s.Seeks(ctx, base, store.SeekFilter{}); err != nil || len(list) != 0 {
		t.Fatalf("the bot's seeks: %+v, %v; want them withdrawn", list, err)
	}
	if tok, err := s.APITokenAccount(ctx, hash("token t1")); err != nil || !tok.IsBot() {
		t.Fatalf("the bot's token: %+v, %v; want it kept, naming the bot", tok, err)
	}
	wantErr(t, "MakeBot of a bot", s.MakeBot(ctx, ada.ID), store.ErrNotPerson)
}

// testMakeBotRefuses: an account with a game (even one in play, even
// casual) cannot turn; nor can an AI level, a deleted account or none.
func testMakeBotRefuses(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bob, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	h := ratedHeader("g1", ada, bob)
	h.Rated = false
	mustCreate(t, s, h)
	wantErr(t, "MakeBot of an account in a game", s.MakeBot(ctx, ada.ID), store.ErrPlayed)
	finish(t, s, h, 0)
	wantErr(t, "MakeBot of an account that played", s.MakeBot(ctx, bob.ID), store.ErrPlayed)
	if got, err := s.Account(ctx, bob.ID); err != nil || got.Kind != store.Person {
		t.Fatalf("a refused MakeBot changed the account: %+v, %v", got, err)
	}
	level := store.Account{ID: "lvl", Name: "ai-level-1", Created: base}
	if err := s.EnsureLevel(ctx, level, nil); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "MakeBot of an AI level", s.MakeBot(ctx, level.ID), store.ErrNotPerson)
	if err := s.DeleteAccount(ctx, cy.ID, base); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "MakeBot of a deleted account", s.MakeBot(ctx, cy.ID), store.ErrNotPerson)
	wantErr(t, "MakeBot of no account", s.MakeBot(ctx, "nobody"), store.ErrNoAccount)
}

// testBotSeatsAndLeaderboard: a seat keeps its bot mark; a bot that
// played rated is on the leaderboard, marked, as a person is; an AI
// level never is.
func testBotSeatsAndLeaderboard(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bot := mustAccount(t, s, "Ada"), mustAccount(t, s, "Engine")
	if err := s.MakeBot(ctx, bot.ID); err != nil {
		t.Fatal(err)
	}
	level := store.Account{ID: "lvl", Name: "ai-level-6", Created: base}
	if err := s.EnsureLevel(ctx, level, []store.Rating{{Game: "pommel", Rating: 2400, RD: 50, Volatility: 0.06, Games: 100, Updated: base}}); err != nil {
		t.Fatal(err)
	}
	h := ratedHeader("g1", ada, bot)
	h.Seats[1].Bot = true
	mustCreate(t, s, h)
	if g := mustGet(t, s, h.ID); g.Seats[1].Bot != true || g.Seats[0].Bot {
		t.Fatalf("the seats read back: %+v; want the second marked a bot's", g.Seats)
	}
	finish(t, s, h, 1)
	board, err := s.Leaderboard(ctx, "pommel", base, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(board) != 2 || board[0].Name != "Engine" || !board[0].Bot || board[1].Name != "Ada" || board[1].Bot {
		t.Fatalf("the leaderboard: %+v; want the bot first, marked, then Ada, and no AI level", board)
	}
	if r := ratingOf(t, s, bot.ID, "pommel"); r.Games != 1 || r.Rating <= 1500 {
		t.Fatalf("the bot's rating after a win: %+v; want it rated as anyone", r)
	}
}

// testBotChallenges: the challenges to an account are listed by target,
// and that account alone declines one, while it is open.
func testBotChallenges(t *testing.T, open Opener, _ Reopener) {
	s, ctx := open(t), context.Background()
	ada, bot, cy := mustAccount(t, s, "Ada"), mustAccount(t, s, "Engine"), mustAccount(t, s, "Cy")
	toBot := seek("s1", ada, 2)
	toBot.Target = bot.ID
	toCy := seek("s2", ada, 2)
	toCy.Target = cy.ID
	gone := seek("s3", cy, 2)
	gone.Target, gone.Expires = bot.ID, base.Add(time.Second)
	for _, sk := range []store.Seek{toBot, toCy, gone, seek("s4", cy, 2)} {
		if err := s.CreateSeek(ctx, sk, 5, 10); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(at time.Time, target string) []string {
		list, err := s.Seeks(ctx, at, store.SeekFilter{Target: target})
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, sk := range list {
			out = append(out, sk.ID)
		}
		return out
	}
	same(t, "the challenges to the bot", ids(base, bot.ID), []string{"s3", "s1"})
	later := base.Add(time.Minute)
	same(t, "the challenges to the bot once one expired", ids(later, bot.ID), []string{"s1"})
	wantErr(t, "declining an expired challenge", s.DeclineSeek(ctx, "s3", bot.ID, later), store.ErrNoSeek)
	wantErr(t, "declining another's challenge", s.DeclineSeek(ctx, "s2", bot.ID, later), store.ErrNoSeek)
	wantErr(t, "declining an open seek", s.DeclineSeek(ctx, "s4", bot.ID, later), store.ErrNoSeek)
	if err := s.DeclineSeek(ctx, "s1", bot.ID, later); err != nil {
		t.Fatal(err)
	}
	same(t, "the challenges once declined", ids(later, bot.ID), []string{})
	same(t, "Cy's challenge", ids(later, cy.ID), []string{"s2"})
}
