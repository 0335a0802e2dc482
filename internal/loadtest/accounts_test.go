package loadtest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/internal/site"
	"github.com/arbiter-games/arbiter/server"
)

// newAccountServer is a test server whose move limits let a game's
// players move as fast as the test plays.
func newAccountServer(t *testing.T, wrap func(http.Handler) http.Handler) *testServer {
	t.Helper()
	return newTestServerConfig(t, site.Config{Server: server.Config{Limits: server.Limits{ReadsPerSecond: 1000, ReadBurst: 1000,
		MovesPerSecond: 1000, MoveBurst: 1000}}}, nil, wrap)
}

// storedGame is what the tests read of a game through the API.
type storedGame struct {
	Moves []string `json:"moves"`
	Rated bool     `json:"rated"`
	Seats []struct {
		Account string `json:"account"`
	} `json:"seats"`
}

// getJSON reads path from the server into out and answers the status.
func getJSON(t *testing.T, addr, path string, out any) int {
	t.Helper()
	resp, err := http.Get("http://" + addr + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK && out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	return resp.StatusCode
}

func TestRunPlaysAccountGames(t *testing.T) {
	for _, c := range []struct {
		game               string
		games, players     int
		moves              int
		wantReplaced       bool
		wantAcceptsPerGame int
	}{
		// 40 random moves of pommel end some games before the slot's
		// moves are played: the next game starts from the same accounts.
		{game: "pommel", games: 2, players: 2, moves: 40, wantReplaced: true, wantAcceptsPerGame: 1},
		// three seats: the second player's accept waits (202), the third
		// starts the game
		{game: "punt-heks-match-3p", games: 1, players: 3, moves: 6, wantAcceptsPerGame: 2},
	} {
		t.Run(c.game, func(t *testing.T) {
			ts := newAccountServer(t, nil)
			rep, err := Run(context.Background(), Config{Addr: ts.addr, Game: c.game, Games: c.games, Moves: c.moves,
				Accounts: true, Duration: time.Minute, Think: time.Millisecond, Level: 1, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Errors) != 0 {
				t.Errorf("errors: %v", rep.Errors)
			}
			if rep.Held != c.games || rep.Finished != c.games || rep.Moves != c.games*c.moves {
				t.Errorf("held %d, finished %d, %d moves; want %d, %d, %d", rep.Held, rep.Finished, rep.Moves, c.games, c.games, c.games*c.moves)
			}
			if c.wantReplaced != (rep.Replaced > 0) {
				t.Errorf("%d games replaced; want some: %v", rep.Replaced, c.wantReplaced)
			}
			a := rep.Accounts
			played := len(rep.Games)
			if a == nil || a.Accounts != c.games*c.players || a.SignUp.N != a.Accounts || a.Seek.N != played ||
				a.Lobby.N != played*(c.players-1) || a.Accept.N != played*c.wantAcceptsPerGame {
				t.Fatalf("accounts %+v for %d games played; want %d sign-ups, a seek a game, a lobby read and an accept a joining player",
					a, played, c.games*c.players)
			}
			checkAccountGames(t, ts.addr, rep, c.players)
		})
	}
}

// checkAccountGames checks that every game the run played is stored with
// its moves, rated, with the accounts the run says on its seats; that
// each slot's games kept the same accounts; and that each account exists.
func checkAccountGames(t *testing.T, addr string, rep *Report, players int) {
	t.Helper()
	names := map[string]bool{}
	for _, g := range rep.Games {
		var stored storedGame
		if status := getJSON(t, addr, "/api/games/"+g.ID, &stored); status != http.StatusOK {
			t.Fatalf("GET game %s: %d", g.ID, status)
		}
		if !slices.Equal(stored.Moves, g.Moves) || !stored.Rated {
			t.Errorf("game %s: stored %v, rated %v; acknowledged %v, rated", g.ID, stored.Moves, stored.Rated, g.Moves)
		}
		var seated []string
		for _, s := range stored.Seats {
			seated = append(seated, s.Account)
		}
		if len(g.Accounts) != players || !slices.Equal(seated, g.Accounts) {
			t.Errorf("game %s: seats held by %v; the run played them as %v", g.ID, seated, g.Accounts)
		}
		for _, n := range g.Accounts {
			names[n] = true
		}
	}
	if len(names) != rep.Accounts.Accounts {
		t.Errorf("the games were played by %d accounts; the run signed up %d", len(names), rep.Accounts.Accounts)
	}
	for n := range names {
		if status := getJSON(t, addr, "/api/users/"+n, nil); status != http.StatusOK {
			t.Errorf("GET /api/users/%s: %d", n, status)
		}
	}
}

func TestRunWithdrawsTheSeeksItCouldNotPair(t *testing.T) {
	// A proxy in front of the real server refuses every accept, as a
	// server out of capacity would.
	refuseAccepts := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/accept") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				w.Write([]byte(`{"error":{"code":"unavailable","message":"busy"}}`))
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	ts := newAccountServer(t, refuseAccepts)
	_, err := Run(context.Background(), Config{Addr: ts.addr, Games: 2, Moves: 4, Accounts: true,
		Duration: time.Minute, Level: 1})
	if err == nil || !strings.Contains(err.Error(), "no game could be set up") || !strings.Contains(err.Error(), "accept: 503 unavailable ×2") {
		t.Fatalf("err %v; want no game set up, 2 accepts refused", err)
	}
	var seeks []listedSeek
	if status := getJSON(t, ts.addr, "/api/seeks", &seeks); status != http.StatusOK || len(seeks) != 0 {
		t.Errorf("GET /api/seeks: %d, %v; want every seek withdrawn", status, seeks)
	}
}

func TestRunCountsASeekMissingFromTheLobby(t *testing.T) {
	// A proxy in front of the real server hides the seeks: the accepts go
	// on with the seeks' ids, and the run counts what the lobby missed.
	hideSeeks := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/api/seeks" {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`[]`))
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	ts := newAccountServer(t, hideSeeks)
	rep, err := Run(context.Background(), Config{Addr: ts.addr, Games: 2, Moves: 4, Accounts: true,
		Duration: time.Minute, Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	missed := rep.Errors["lobby: the seek is not in GET /api/seeks"]
	if missed == nil || missed.N != len(rep.Games) || len(rep.Errors) != 1 {
		t.Errorf("errors %v; want one missing seek for each of the %d games", rep.Errors, len(rep.Games))
	}
	if rep.Moves != 8 || rep.Finished != 2 {
		t.Errorf("%d moves, %d finished; the games play all the same", rep.Moves, rep.Finished)
	}
}

func TestSeatsOf(t *testing.T) {
	players := []*player{{name: "a"}, {name: "b"}, {name: "c"}}
	seated := func(you int, names ...string) view {
		var v view
		for _, n := range names {
			v.Seats = append(v.Seats, struct {
				Account string `json:"account"`
			}{n})
		}
		if you >= 0 {
			v.You = &you
		}
		return v
	}
	for _, c := range []struct {
		name string
		v    view
		want []int
		err  string
	}{
		{"in order", seated(0, "a", "b", "c"), []int{0, 1, 2}, ""},
		{"shuffled", seated(2, "c", "b", "a"), []int{2, 1, 0}, ""},
		{"a seat too few", seated(0, "a", "b"), nil, "2 seats for 3 accounts"},
		{"a stranger", seated(0, "a", "b", "x"), nil, `seat 2 is "x"'s`},
		{"anonymous", seated(0, "a", "", "c"), nil, `seat 1 is ""'s`},
		{"one account twice", seated(0, "a", "b", "a"), nil, `seat 2 is "a"'s`},
		{"no you", seated(-1, "a", "b", "c"), nil, `does not show the seeker its seat`},
		{"you is another", seated(1, "a", "b", "c"), nil, `does not show the seeker its seat`},
		{"you past the seats", seated(3, "a", "b", "c"), nil, `does not show the seeker its seat`},
	} {
		got, err := seatsOf(c.v, players)
		switch {
		case c.err == "" && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || errorKind("seats", err) != "seats: "+errSeats.Error()):
			t.Errorf("%s: %v, %v; want an error with %q", c.name, got, err, c.err)
		}
	}
}

func TestAccountNamesAndPasswordsAreAccepted(t *testing.T) {
	r := &run{players: 3, tag: runTag(), target: netip.MustParseAddrPort("127.0.0.1:1")}
	players, err := r.newPlayers(&slot{idx: MaxGames - 1})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range players {
		if err := account.CheckName(p.name); err != nil || seen[p.name] {
			t.Errorf("name %q: %v, or used twice", p.name, err)
		}
		seen[p.name] = true
		if err := account.NewPasswords().Check(p.password, p.name); err != nil {
			t.Errorf("password of %s: %v", p.name, err)
		}
	}
	if runTag() == r.tag {
		t.Error("two runs drew the same tag")
	}
}
