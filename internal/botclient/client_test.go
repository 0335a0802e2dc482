package botclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/ai"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/internal/site"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store/sqlite"
	"github.com/arbiter-games/arbiter/uci"
)

// The client's tests run it against a whole site (internal/site over
// SQLite, served by httptest): the bot's account is made and upgraded
// through the API, a person challenges it through the API, and the
// engine is the project's own, in process or, through Command, the test
// binary itself speaking the engine protocol (engineEnv).

// engineEnv, when set, makes the test binary an engine.
const engineEnv = "ARBITER_BOTCLIENT_TEST_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(engineEnv) == "1" {
		if err := uci.Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testSite is a running site.
type testSite struct {
	t    *testing.T
	srv  *server.Server
	base string
	// streams counts the bot API's stream requests.
	streams atomic.Int64
}

// startSite serves a fresh site, its handler wrapped by wrap (nil: none),
// its keep-alive short, until the test ends.
func startSite(t *testing.T, wrap func(*testSite, http.Handler) http.Handler) *testSite {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	params := account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	srv, err := site.New(site.Config{Store: st, Hall: hall.Config{Workers: 1},
		Accounts: accounts.Config{Params: &params, Limits: accounts.Limits{SignUpBurst: 100, HashBurst: 1000}},
		Server: server.Config{Limits: server.Limits{ReadsPerSecond: 1000, ReadBurst: 1000, MovesPerSecond: 1000, MoveBurst: 1000, GamesPerHour: 1000},
			Timeouts: server.Timeouts{KeepAlive: 100 * time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ts := &testSite{t: t, srv: srv}
	var h http.Handler = srv.Handler()
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/stream/") {
			ts.streams.Add(1)
		}
		h.ServeHTTP(w, r)
	})
	h2 := http.Handler(counted)
	if wrap != nil {
		h2 = wrap(ts, counted)
	}
	hs := httptest.NewServer(h2)
	t.Cleanup(hs.Close)
	ts.base = hs.URL
	return ts
}

// person is an account at the site, with its cookie.
type person struct {
	ts   *testSite
	name string
	c    *http.Client
}

func (ts *testSite) signUp(name string) *person {
	ts.t.Helper()
	jar, _ := cookiejar.New(nil)
	p := &person{ts: ts, name: name, c: &http.Client{Jar: jar}}
	p.must(201, "POST", "/api/accounts", map[string]string{"name": name, "password": "a-long-password-of-" + strings.Repeat("x", 3)}, nil)
	return p
}

// call sends a request with p's cookie, or with token when it is not "".
func (p *person) call(token, method, path string, body, v any) int {
	p.ts.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = strings.NewReader(string(data))
	}
	req, err := http.NewRequest(method, p.ts.base+path, rd)
	if err != nil {
		p.ts.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := p.c.Do(req)
	if err != nil {
		p.ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if v != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, v); err != nil {
			p.ts.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return resp.StatusCode
}

func (p *person) must(want int, method, path string, body, v any) {
	p.ts.t.Helper()
	if code := p.call("", method, path, body, v); code != want {
		p.ts.t.Fatalf("%s: %s %s answered %d, want %d", p.name, method, path, code, want)
	}
}

// newBot makes the account name a bot and answers its token.
func (ts *testSite) newBot(name string) string {
	ts.t.Helper()
	p := ts.signUp(name)
	var made struct{ Token string }
	p.must(201, "POST", "/api/account/tokens", map[string]string{"description": "test engine"}, &made)
	if code := p.call(made.Token, "POST", "/api/bot/account/upgrade", nil, nil); code != 200 {
		ts.t.Fatalf("upgrading %s: %d", name, code)
	}
	return made.Token
}

// gameView is what the tests read of a game.
type gameView struct {
	Ply    int      `json:"ply"`
	ToMove int      `json:"toMove"`
	Legal  []string `json:"legal"`
	Moves  []string `json:"moves"`
	You    *int     `json:"you"`
	Result *struct {
		Winners []int  `json:"winners"`
		Reason  string `json:"reason"`
	} `json:"result"`
	Seats []struct {
		Account string `json:"account"`
		Bot     bool   `json:"bot"`
	} `json:"seats"`
	Ratings []struct {
		Seat          int
		Before, After float64
	} `json:"ratings"`
}

func (p *person) game(id string) gameView {
	p.ts.t.Helper()
	var v gameView
	p.must(200, "GET", "/api/games/"+id, nil, &v)
	return v
}

// challenge challenges the bot named to and answers the challenge's id.
func (p *person) challenge(to, gameID string) string {
	p.ts.t.Helper()
	var seek struct{ ID string }
	p.must(201, "POST", "/api/seeks", map[string]any{"game": gameID, "rated": true, "clock": map[string]int{"initial": 600, "increment": 5}, "to": to}, &seek)
	return seek.ID
}

// waitGame waits for p's game against the bot to start, and answers it.
func (p *person) waitGame() string {
	p.ts.t.Helper()
	var id string
	waitFor(p.ts.t, "the game's start", func() bool {
		var games []struct{ ID string }
		p.must(200, "GET", "/api/account/games", nil, &games)
		if len(games) > 0 {
			id = games[0].ID
		}
		return id != ""
	})
	return id
}

// playUntil plays p's moves (the legal move in the middle of the list)
// until the game has plies plies, the bot answering each.
// The bot's answers are timed, from the move's answer to the first
// read that sees the bot's (within the 20 ms of a poll), and logged.
func (p *person) playUntil(id string, plies int) gameView {
	p.ts.t.Helper()
	var v gameView
	var moved time.Time
	var answers []time.Duration
	waitFor(p.ts.t, fmt.Sprintf("ply %d", plies), func() bool {
		v = p.game(id)
		if v.Result != nil {
			p.ts.t.Fatalf("the game ended at ply %d: %+v", v.Ply, v.Result)
		}
		if v.Ply >= plies {
			return true
		}
		if v.You != nil && v.ToMove == *v.You {
			if !moved.IsZero() {
				answers = append(answers, time.Since(moved))
			}
			p.must(200, "POST", "/api/games/"+id+"/moves", map[string]any{"move": v.Legal[len(v.Legal)/2], "ply": v.Ply}, nil)
			moved = time.Now()
		}
		return false
	})
	p.ts.t.Logf("the bot's answers took %v", answers)
	return v
}

// waitFor polls ok until it holds, failing after 60 s.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 60 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// inProcess is an engine of the ai package, in this process.
type inProcess struct{ ai.Engine }

func (inProcess) Close() error { return nil }

func levelOne() (Engine, error) {
	e, err := ai.New("ai:level=1", 1)
	return inProcess{e}, err
}

// runBot runs a bot of cfg until the test ends; Run's error comes on the
// channel.
func runBot(t *testing.T, cfg Config) chan error {
	t.Helper()
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done, finished := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(finished)
		done <- b.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-finished:
		case <-time.After(30 * time.Second):
			t.Error("Run did not return within 30 s of its context's end")
		}
	})
	return done
}

// TestBotPlaysARatedGame: a bot whose engine is a program speaking the
// engine protocol (this test binary) accepts a person's challenge and
// answers each of their moves; the person resigns; both ratings change.
func TestBotPlaysARatedGame(t *testing.T) {
	ts := startSite(t, nil)
	token := ts.newBot("zed")
	ann := ts.signUp("ann")
	t.Setenv(engineEnv, "1")
	newEngine, games, err := Command([]string{os.Args[0]}, []Option{{"Player", "ai:level=1"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) == 0 {
		t.Fatal("the engine's handshake named no game")
	}
	runBot(t, Config{Site: ts.base, Token: token, NewEngine: newEngine, Games: games, Limits: ai.Limits{MoveTime: 50 * time.Millisecond}})
	ann.challenge("zed", "pommel")
	id := ann.waitGame()
	v := ann.playUntil(id, 12)
	for i, seat := range v.Seats {
		if seat.Bot != (seat.Account == "zed") {
			t.Errorf("seat %d: %+v; want the bot's seat, and it alone, marked", i, seat)
		}
	}
	ann.must(200, "POST", "/api/games/"+id+"/resign", nil, nil)
	waitFor(t, "the ratings", func() bool { v = ann.game(id); return len(v.Ratings) == 2 })
	for _, rc := range v.Ratings {
		if rc.After == rc.Before {
			t.Errorf("seat %d's rating did not change: %+v", rc.Seat, rc)
		}
	}
}

// TestBotDeclines: a challenge to a game the engine does not play is
// declined, and one past MaxGames; one it plays is accepted.
func TestBotDeclines(t *testing.T) {
	ts := startSite(t, nil)
	token := ts.newBot("zed")
	ann, bob := ts.signUp("ann"), ts.signUp("bob")
	runBot(t, Config{Site: ts.base, Token: token, NewEngine: levelOne, Games: []string{"pommel"}, MaxGames: 1, Limits: ai.Limits{Depth: 1}})
	eximo := ann.challenge("zed", "eximo")
	waitGone(t, ann, eximo)
	if games := seatsOf(t, ann); games != 0 {
		t.Fatalf("ann has %d games after a declined challenge", games)
	}
	ann.challenge("zed", "pommel")
	id := ann.waitGame()
	second := bob.challenge("zed", "pommel")
	waitGone(t, bob, second)
	if games := seatsOf(t, bob); games != 0 {
		t.Errorf("bob has %d games: the bot took a second game past MaxGames 1", games)
	}
	ann.playUntil(id, 2)
}

// waitGone waits until the challenge id is no longer open.
func waitGone(t *testing.T, p *person, id string) {
	t.Helper()
	waitFor(t, "the challenge's end", func() bool {
		var seeks []struct{ ID string }
		p.must(200, "GET", "/api/seeks", nil, &seeks)
		for _, s := range seeks {
			if s.ID == id {
				return false
			}
		}
		return true
	})
}

// seatsOf counts p's games in play.
func seatsOf(t *testing.T, p *person) int {
	t.Helper()
	var games []struct{ ID string }
	p.must(200, "GET", "/api/account/games", nil, &games)
	return len(games)
}

// TestBotReconnects: the site drops the bot's first event stream and
// first game stream a moment after they open; the bot opens them again
// and plays on.
func TestBotReconnects(t *testing.T) {
	var events, games atomic.Int64
	ts := startSite(t, func(ts *testSite, h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			first := strings.HasPrefix(r.URL.Path, "/api/bot/stream/event") && events.Add(1) == 1 ||
				strings.HasPrefix(r.URL.Path, "/api/bot/game/stream/") && games.Add(1) == 1
			if first {
				ctx, cancel := context.WithTimeout(r.Context(), 300*time.Millisecond)
				defer cancel()
				r = r.WithContext(ctx)
			}
			h.ServeHTTP(w, r)
		})
	})
	token := ts.newBot("zed")
	ann := ts.signUp("ann")
	runBot(t, Config{Site: ts.base, Token: token, NewEngine: levelOne, Limits: ai.Limits{Depth: 1}, MinWait: 50 * time.Millisecond})
	waitFor(t, "the event stream opened again", func() bool { return events.Load() >= 2 })
	ann.challenge("zed", "pommel")
	id := ann.waitGame()
	waitFor(t, "the game's stream opened again", func() bool { return games.Load() >= 2 })
	ann.playUntil(id, 8)
}

// TestBotSilentStream: a stream that sends nothing for Silence (the
// site's keep-alive is far longer here) is taken for dropped, and opened
// again.
func TestBotSilentStream(t *testing.T) {
	ts := startSite(t, nil)
	token := ts.newBot("zed")
	start := ts.streams.Load()
	runBot(t, Config{Site: ts.base, Token: token, NewEngine: levelOne, Silence: 30 * time.Millisecond, MinWait: 10 * time.Millisecond, MaxWait: 20 * time.Millisecond})
	waitFor(t, "three streams", func() bool { return ts.streams.Load()-start >= 3 })
}

// TestBotRefusedTokens: Run ends with the site's refusal of a token that
// is no bot's, or revoked: no wait mends either.
func TestBotRefusedTokens(t *testing.T) {
	ts := startSite(t, nil)
	ann := ts.signUp("ann")
	var made struct{ Token, ID string }
	ann.must(201, "POST", "/api/account/tokens", map[string]string{}, &made)
	revoked := ts.newBot("zed")
	var listed struct{ Tokens []struct{ ID string } }
	bot := &person{ts: ts, name: "zed", c: &http.Client{}}
	if code := bot.call(revoked, "GET", "/api/account/tokens", nil, &listed); code != 200 || len(listed.Tokens) != 1 {
		t.Fatalf("the bot's tokens: %d %+v", code, listed)
	}
	if code := bot.call(revoked, "DELETE", "/api/account/tokens/"+listed.Tokens[0].ID, nil, nil); code != 204 {
		t.Fatalf("revoking: %d", code)
	}
	for name, token := range map[string]string{"a person's token": made.Token, "a revoked token": revoked} {
		done := runBot(t, Config{Site: ts.base, Token: token, NewEngine: levelOne})
		select {
		case err := <-done:
			var ae *APIError
			if !errors.As(err, &ae) || (ae.Status != 401 && ae.Status != 403) {
				t.Errorf("%s: Run returned %v; want the site's refusal", name, err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("%s: Run still runs", name)
		}
	}
}

// TestCommandRefuses: an engine that is no program, or that refuses an
// option, fails at once.
func TestCommandRefuses(t *testing.T) {
	if _, _, err := Command(nil, nil); err == nil {
		t.Error("no command: no error")
	}
	if _, err := exec.LookPath("no-such-engine-here"); err == nil {
		t.Skip("a program is named no-such-engine-here")
	}
	if _, _, err := Command([]string{"no-such-engine-here"}, nil); err == nil {
		t.Error("a program that is not there: no error")
	}
	t.Setenv(engineEnv, "1")
	if _, _, err := Command([]string{os.Args[0]}, []Option{{"Colour", "blue"}}); err == nil || !strings.Contains(err.Error(), "Colour") {
		t.Errorf("an option the engine refuses: %v; want its complaint", err)
	}
}
