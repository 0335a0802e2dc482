package lobby

import (
	"context"
	"testing"

	"github.com/arbiter-games/arbiter/store"
)

// TestBotMeetsPeopleByChallenges: a bot posts no seek, open or a
// challenge; it joins no open seek (found in the lobby's list or not)
// and no challenge to another; it is listed its challenges, accepts one,
// and plays it, its seat marked a bot's.
func TestBotMeetsPeopleByChallenges(t *testing.T) {
	l, st := newTestLobby(t)
	ctx := context.Background()
	ada, bob := addAccount(t, st, "ada", store.Person), addAccount(t, st, "bob", store.Person)
	bot := addAccount(t, st, "engine", store.Bot)
	for _, req := range []SeekRequest{{Game: "pommel"}, {Game: "pommel", To: "ada"}} {
		if _, err := l.Post(ctx, bot, "", req); codeOf(err) != Forbidden {
			t.Errorf("the bot posts %+v: %v; want forbidden", req, err)
		}
	}
	open, err := l.Post(ctx, ada, "", SeekRequest{Game: "pommel"})
	if err != nil {
		t.Fatal(err)
	}
	toBob, err := l.Post(ctx, ada, "", SeekRequest{Game: "pommel", To: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	toBot, err := l.Post(ctx, bob, "", SeekRequest{Game: "eximo", To: "engine"})
	if err != nil {
		t.Fatalf("bob challenges the bot: %v", err)
	}
	for name, id := range map[string]string{"an open seek": open, "a challenge to bob": toBob, "no seek": "nosuchseek"} {
		if _, err := l.Accept(ctx, id, bot); codeOf(err) != NotFound {
			t.Errorf("the bot accepts %s: %v; want not found", name, err)
		}
	}
	list, err := l.Challenges(ctx, bot)
	if err != nil || len(list) != 1 || list[0].ID != toBot || list[0].By != "bob" || list[0].Game != "eximo" {
		t.Fatalf("the bot's challenges: %+v, %v; want bob's one", list, err)
	}
	taken, err := l.Accept(ctx, toBot, bot)
	if err != nil || taken.Game == "" {
		t.Fatalf("the bot accepts bob's challenge: %+v, %v", taken, err)
	}
	g, err := st.Get(ctx, taken.Game)
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range g.Seats {
		if seat.Bot != (seat.Account == bot) {
			t.Errorf("seat %+v: want the bot's seat, and only it, marked a bot's", seat)
		}
	}
	if _, err := l.Accept(ctx, open, bob); err != nil {
		t.Errorf("a person accepts the open seek the bot could not: %v", err)
	}
}

// TestBotLimits: a bot plays at most BotGames games at once and accepts
// at most BotChallengesPerHour challenges an hour; a challenge refused so
// stays open for later.
func TestBotLimits(t *testing.T) {
	for _, c := range []struct {
		name          string
		cfg           Config
		endFirstGame  bool
		wantSecondOK  bool
		wantCodeAfter Code
	}{
		{"one game at once, the first going on", Config{BotGames: 1, BotChallengesPerHour: 10}, false, false, TooMany},
		{"one game at once, the first over", Config{BotGames: 1, BotChallengesPerHour: 10}, true, true, ""},
		{"one challenge an hour", Config{BotGames: 10, BotChallengesPerHour: 1}, true, false, TooMany},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, st := newTestLobbyWith(t, c.cfg)
			ctx := context.Background()
			ada := addAccount(t, st, "ada", store.Person)
			bot := addAccount(t, st, "engine", store.Bot)
			first, err := l.Post(ctx, ada, "", SeekRequest{Game: "pommel", To: "engine"})
			if err != nil {
				t.Fatal(err)
			}
			second, err := l.Post(ctx, ada, "", SeekRequest{Game: "pommel", To: "engine"})
			if err != nil {
				t.Fatal(err)
			}
			taken, err := l.Accept(ctx, first, bot)
			if err != nil {
				t.Fatal(err)
			}
			if c.endFirstGame {
				if err := l.hall.ResignAll(ctx, bot); err != nil {
					t.Fatal(err)
				}
			}
			_, err = l.Accept(ctx, second, bot)
			if (err == nil) != c.wantSecondOK || codeOf(err) != c.wantCodeAfter {
				t.Fatalf("the second accept (after game %s): %v; want ok %v, code %q", taken.Game, err, c.wantSecondOK, c.wantCodeAfter)
			}
			if err != nil {
				if list, _ := l.Challenges(ctx, bot); len(list) != 1 || list[0].ID != second {
					t.Errorf("the refused challenge: %+v; want it still open", list)
				}
			}
		})
	}
}

// TestDecline: only the challenged account declines a challenge, once;
// it is gone for everyone after.
func TestDecline(t *testing.T) {
	l, st := newTestLobby(t)
	ctx := context.Background()
	ada, bob := addAccount(t, st, "ada", store.Person), addAccount(t, st, "bob", store.Person)
	bot := addAccount(t, st, "engine", store.Bot)
	id, err := l.Post(ctx, ada, "", SeekRequest{Game: "pommel", To: "engine"})
	if err != nil {
		t.Fatal(err)
	}
	open, err := l.Post(ctx, ada, "", SeekRequest{Game: "pommel"})
	if err != nil {
		t.Fatal(err)
	}
	for name, who := range map[string]string{"its sender": ada, "another": bob} {
		if err := l.Decline(ctx, id, who); codeOf(err) != NotFound {
			t.Errorf("%s declines the challenge: %v; want not found", name, err)
		}
	}
	if err := l.Decline(ctx, open, bot); codeOf(err) != NotFound {
		t.Errorf("declining an open seek: %v; want not found", err)
	}
	if err := l.Decline(ctx, id, bot); err != nil {
		t.Fatalf("the bot declines: %v", err)
	}
	if err := l.Decline(ctx, id, bot); codeOf(err) != NotFound {
		t.Errorf("declining twice: %v; want not found", err)
	}
	if list, err := l.List(ctx, Query{}); err != nil || len(list) != 1 || list[0].ID != open {
		t.Errorf("the lobby after the decline: %+v, %v; want the open seek alone", list, err)
	}
}
