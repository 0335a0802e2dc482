package server

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
)

// TestAnonymousNamesCannotPassForAccounts: a seat played without an
// account may not take a name that folds (case, width, dashes) to an
// account's or to one the site keeps (admin, the AI levels), neither when
// the game is made nor when an open seat is joined; a level's seat goes
// by its level whatever name it was given.
func TestAnonymousNamesCannotPassForAccounts(t *testing.T) {
	ts := newAccountServer(t)
	signUpAs(ts, "alice")
	for _, name := range []string{"alice", "ALICE", "Ａｌｉｃｅ", "ai-level-6", "AI‐Level‐6", "ai-bot", "admin", "Administrator", "root"} {
		t.Run(name, func(t *testing.T) {
			code, body := ts.do("POST", "/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "open"}, "names": []string{name}})
			if code != 422 || !strings.Contains(string(body), name) {
				t.Errorf("create with seat name %q: %d %s; want 422 quoting it", name, code, body)
			}
			g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "open"}})
			if code, body := ts.do("POST", "/api/games/"+g.ID+"/join", "", map[string]any{"seat": 1, "name": name}); code != 422 {
				t.Errorf("join as %q: %d %s; want 422", name, code, body)
			}
		})
	}
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=2"}, "names": []string{"Bob", "Bobby"}})
	seats := ts.game(g.ID).Seats
	if seats[0].Name != "Bob" || seats[0].Account != "" || seats[1].Name != "" || seats[1].Account != "ai-level-2" {
		t.Errorf("seats named Bob and Bobby (a level): %+v; want Bob without an account, the level by its account alone", seats)
	}
}

// TestAnonymousOpponentIsNoProfile: the games lists say of each opponent
// whether an account plays it, so that the page links only those; an
// anonymous name stays anonymous even once an account takes that name.
func TestAnonymousOpponentIsNoProfile(t *testing.T) {
	ts := newAccountServer(t)
	alice := signUpAs(ts, "alice")
	var g struct{ ID string }
	alice.must(201, "POST", "/api/games", map[string]any{"game": "pommel", "seats": []string{"human", "open"}}, &g)
	if code, body := ts.do("POST", "/api/games/"+g.ID+"/join", "", map[string]any{"seat": 1, "name": "carol"}); code != 200 {
		t.Fatalf("join as carol: %d %s", code, body)
	}
	signUpAs(ts, "carol")
	for _, path := range []string{"/api/account/games", "/api/users/alice/games", "/api/account/turn"} {
		code, body := alice.call("GET", path, nil)
		var list []struct {
			ID               string
			Opponents        []string
			OpponentAccounts *[]bool `json:"opponentAccounts"`
		}
		if err := json.Unmarshal(body, &list); code != 200 || err != nil || len(list) != 1 {
			t.Fatalf("GET %s: %d %s %v", path, code, body, err)
		}
		if got := list[0]; len(got.Opponents) != 1 || got.Opponents[0] != "carol" || got.OpponentAccounts == nil ||
			len(*got.OpponentAccounts) != 1 || (*got.OpponentAccounts)[0] {
			t.Errorf("GET %s: %s; want the opponent carol marked as no account", path, body)
		}
	}
	if seat := ts.game(g.ID).Seats[1]; seat.Name != "carol" || seat.Account != "" {
		t.Errorf("the game's seat 1: %+v; want carol without an account", seat)
	}
}

// signUpAs signs up name with a password that does not hold the name
// (signUp's does, for a name of five letters or more).
func signUpAs(ts *testServer, name string) *member {
	ts.t.Helper()
	jar, _ := cookiejar.New(nil)
	m := &member{t: ts.t, ts: ts, name: name, c: &http.Client{Jar: jar}}
	if code, body := m.call("POST", "/api/accounts", map[string]string{"name": name, "password": "correct-horse-battery-staple-9"}); code != 201 {
		ts.t.Fatalf("sign up %s: %d %s", name, code, body)
	}
	return m
}
