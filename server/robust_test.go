package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
	"github.com/coder/websocket"
)

// refusalOf reads a refusal's code and message.
func refusalOf(t *testing.T, body []byte) apiError {
	t.Helper()
	var e struct{ Error apiError }
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("not a refusal: %s", body)
	}
	return e.Error
}

// TestNonFiniteAndOversizedEngineSpecsAreRefused: a seat spec with a
// number that is not finite once crashed the server (the search
// dereferenced nil in a goroutine, and the game resumed at the next start
// crashed it again); a table of 2^26 entries held a GiB per engine. Each
// is refused with 422 naming the parameter, and the server goes on.
func TestNonFiniteAndOversizedEngineSpecsAreRefused(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, c := range []struct{ spec, param string }{
		{"uct:c=NaN", "c="}, {"mcts:c=NaN", "c="}, {"mcts:scale=NaN", "scale="}, {"uct:c=+Inf", "c="},
		{"mcts:c=-Inf", "c="}, {"uct:c=1e400", "c="}, {"ab:tt=26", "tt="}, {"ab:depth=-1", "depth="},
	} {
		code, body := ts.do("POST", "/api/games", "", map[string]any{"game": "pommel", "seats": []string{c.spec, "human"}})
		if e := refusalOf(t, body); code != http.StatusUnprocessableEntity || e.Code != codeInvalid || !strings.Contains(e.Message, c.param) {
			t.Errorf("%s: %d %s, want 422 invalid naming %s", c.spec, code, body, c.param)
		}
	}
	if code, _ := ts.do("GET", "/healthz", "", nil); code != http.StatusOK {
		t.Fatalf("the server after the refusals: %d", code)
	}
	if games, _ := ts.store.List(t.Context(), storeFilterAll); len(games) != 0 {
		t.Errorf("%d games stored from refused requests", len(games))
	}
}

// panicky is an engine whose search panics, as a bug in a search would.
type panicky struct{}

func (panicky) Name() string { return "random" }
func (panicky) Search(context.Context, game.State, ai.Limits, func(ai.Info)) ai.Info {
	var m map[string]int
	m["boom"]++ // a nil map: the search panics
	return ai.Info{}
}

// enginesWithAPanic makes "random" a search that panics.
func enginesWithAPanic(spec string, seed uint64, opts ...ai.Option) (ai.Engine, error) {
	if spec == "random" {
		return panicky{}, nil
	}
	return ai.New(spec, seed, opts...)
}

// TestAPanickingSearchCostsOnlyItsGame: a search that panics costs its
// game the AI's move (the game says it needs attention); the server, the
// other games and a restart on the same store go on.
func TestAPanickingSearchCostsOnlyItsGame(t *testing.T) {
	st := openTestStore(t)
	ts := newTestServer(t, siteConfig{Store: st, Engines: enginesWithAPanic})
	bad := ts.create(map[string]any{"game": "pommel", "seats": []string{"random", "human"}})
	good := ts.create(map[string]any{"game": "pommel", "seats": []string{"ai:level=1", "human"}})
	waitFor(t, 20*time.Second, "the marked game", func() bool { return ts.game(bad.ID).Attention != "" })
	waitFor(t, 20*time.Second, "the other game's AI move", func() bool { return ts.game(good.ID).Ply == 1 })
	if v := ts.game(bad.ID); v.Ply != 0 || v.Result != nil {
		t.Errorf("the game whose search panicked: %+v", v)
	}

	// A restart: the marked game is resumed and marked again; a game
	// whose AI is to move, and one whose record cannot be read, are
	// stored meanwhile; the first plays, the second only logs.
	ts.srv.Close()
	now := time.Now()
	pending := store.Header{ID: "pending", Game: "pommel", Options: map[string]string{}, Version: 1, DrawOffer: -1,
		Seats: []store.Seat{{Player: "ai:level=1"}, {Player: "human", TokenHash: hashToken("x")}}, Created: now, Updated: now}
	broken := pending
	broken.ID, broken.Game = "broken", "no-such-game"
	for _, h := range []store.Header{pending, broken} {
		if err := st.Create(t.Context(), h); err != nil {
			t.Fatal(err)
		}
	}
	again := newTestServer(t, siteConfig{Store: st, Engines: enginesWithAPanic})
	waitFor(t, 20*time.Second, "the resumed AI move", func() bool { return again.game("pending").Ply == 1 })
	waitFor(t, 20*time.Second, "the game marked again", func() bool { return again.game(bad.ID).Attention != "" })
	if code, body := again.do("GET", "/api/games/broken", "", nil); code != http.StatusInternalServerError {
		t.Errorf("the broken game: %d %s", code, body)
	}
	if code, _ := again.do("GET", "/healthz", "", nil); code != http.StatusOK {
		t.Errorf("healthz after the restart: %d", code)
	}
}

// TestEnginesShareAMemoryBudget: the engines of all games never pass the
// server's AI memory: one client holds at most its share (a second level-6
// game of one address is refused 422), a new game from another client
// lets the engines of a game waiting on its person go, and that game's AI
// makes its engines again on its next turn, within the budget too (they
// were once made past it: 263 MB against 64 MiB). A game that ends gives
// its engines' memory back at once.
func TestEnginesShareAMemoryBudget(t *testing.T) {
	level6, err := ai.Footprint("ai:level=6")
	if err != nil {
		t.Fatal(err)
	}
	budget := 2*level6 + level6/2
	ts := newTestServer(t, siteConfig{AIMemory: budget})
	createFrom := func(src string) (int, []byte) {
		body, _ := json.Marshal(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=6"}})
		req, _ := http.NewRequest("POST", ts.http.URL+"/api/games", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := clientFrom(src).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, data
	}
	created := func(src string) hall.Created {
		code, body := createFrom(src)
		var c hall.Created
		if code != http.StatusCreated || json.Unmarshal(body, &c) != nil {
			t.Fatalf("create from %s: %d %s", src, code, body)
		}
		return c
	}
	within := func(when string) {
		if got := ts.srv.Hall().Stats().EngineBytes; got > budget {
			t.Errorf("%s: %d bytes of engines held, over the budget of %d", when, got, budget)
		}
	}
	first := created("127.0.0.2")
	code, body := createFrom("127.0.0.2")
	if e := refusalOf(t, body); code != http.StatusUnprocessableEntity || e.Code != string(hall.OverBudget) {
		t.Fatalf("a second level-6 game of one client: %d %s, want 422 over_budget", code, body)
	}
	created("127.0.0.3")
	third := created("127.0.0.4") // lets the first game's engines go
	within("three games")
	if evicted := ts.srv.Hall().Stats().EnginesEvicted; evicted != 1 {
		t.Errorf("%d games' engines let go, want 1", evicted)
	}
	if code, ec := ts.move(first.ID, first.Seats[0].Token, ts.game(first.ID).Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, ec)
	}
	waitFor(t, 60*time.Second, "the first game's AI, its engines made again", func() bool { return ts.game(first.ID).Ply == 2 })
	within("the engines made again")
	if code, body := ts.do("POST", "/api/games/"+third.ID+"/resign", third.Seats[0].Token, nil); code != http.StatusOK {
		t.Fatalf("resign: %d %s", code, body)
	}
	if got := ts.srv.Hall().Stats().EngineBytes; got > 2*level6 {
		t.Errorf("%d bytes of engines held for two games of %d", got, level6)
	}
}

// TestGamesWithoutAPersonEndAtACeiling: unless the operator allows them,
// games only engines play end at the ply ceiling (a smaller maxplies of
// their own stands).
func TestGamesWithoutAPersonEndAtACeiling(t *testing.T) {
	for _, c := range []struct {
		allow   bool
		options map[string]string
		want    string
	}{
		{false, nil, "200"}, {false, map[string]string{"maxplies": "1000"}, "200"},
		{false, map[string]string{"maxplies": "30"}, "30"}, {true, nil, ""}, {true, map[string]string{"maxplies": "1000"}, "1000"},
	} {
		ts := newTestServer(t, siteConfig{AllowAIGames: c.allow})
		g := ts.create(map[string]any{"game": "eximo", "options": c.options, "seats": []string{"ai:level=1", "ai:level=1"}})
		if got := g.Game.Options["maxplies"]; got != c.want {
			t.Errorf("allow %v, options %v: maxplies %q, want %q", c.allow, c.options, got, c.want)
		}
		ts.srv.Close()
	}
}

// TestAPersonsAIReplyIsNotStarved: six games of engines only, each move
// a long search, hold the workers; the AI's reply to a person still comes
// at once (it once waited for the whole queue).
func TestAPersonsAIReplyIsNotStarved(t *testing.T) {
	ts := newTestServer(t, siteConfig{Workers: 2, AIMoveTime: 3 * time.Second, AllowAIGames: true})
	for range 6 {
		ts.create(map[string]any{"game": "pommel", "seats": []string{"ab", "ab"}})
	}
	waitFor(t, 10*time.Second, "the engines' searches", func() bool { return ts.srv.Hall().Stats().AIRunning > 0 })
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}})
	if code, ec := ts.move(g.ID, g.Seats[0].Token, ts.game(g.ID).Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move: %d %s", code, ec)
	}
	start := time.Now()
	waitFor(t, 30*time.Second, "the AI's reply", func() bool { return ts.game(g.ID).Ply == 2 })
	if took := time.Since(start); took > 1500*time.Millisecond {
		t.Errorf("the level-1 reply took %s behind six engine games (each search 3s)", took)
	}
}

// clientFrom is an HTTP client whose connections come from the loopback
// address src, a client of its own for the server's limits.
func clientFrom(src string) *http.Client {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	return &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}, Timeout: 10 * time.Second}
}

// TestReadsAreLimitedPerClient: a client flooding reads is answered 429
// while another client reads as usual.
func TestReadsAreLimitedPerClient(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{ReadsPerSecond: 5, ReadBurst: 5}})
	flooder, other := clientFrom("127.0.0.1"), clientFrom("127.0.0.2")
	get := func(c *http.Client, path string) int {
		resp, err := c.Get(ts.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	limited := 0
	for range 30 {
		if get(flooder, "/api/games") == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited < 20 {
		t.Errorf("%d of 30 reads refused at 5 a second", limited)
	}
	if code := get(other, "/api/games"); code != http.StatusOK {
		t.Errorf("another client's read: %d", code)
	}
}

// TestSocketAuthIsRateLimited: tokens cannot be tried at a socket's
// speed.
func TestSocketAuthIsRateLimited(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 2, MoveBurst: 3}})
	g := ts.twoHumans()
	conn, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	next(t, conn)
	for i := range 20 {
		send(t, conn, map[string]string{"type": "auth", "token": fmt.Sprint("guess", i)})
	}
	limited := 0
	for range 20 {
		if ev, _ := next(t, conn); ev.Error != nil && ev.Error.Code == codeRateLimited {
			limited++
		}
	}
	if limited < 15 {
		t.Errorf("%d of 20 guesses refused as too many", limited)
	}
}

// TestChangesNeedJSONFromThisSite: a page of another site cannot create
// games from its visitors' browsers: a body that is not JSON is refused
// 415, and a browser's cross-site request 403.
func TestChangesNeedJSONFromThisSite(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, siteConfig{})
	body := `{"game":"pommel","seats":["human","human"]}`
	for _, c := range []struct {
		headers http.Header
		want    int
	}{
		{http.Header{"Content-Type": {"text/plain"}}, http.StatusUnsupportedMediaType},
		{http.Header{}, http.StatusUnsupportedMediaType},
		{http.Header{"Content-Type": {"application/json"}, "Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}}, http.StatusForbidden},
		{http.Header{"Content-Type": {"application/json"}, "Origin": {"https://evil.example"}}, http.StatusForbidden},
		{http.Header{"Content-Type": {"application/json"}, "Sec-Fetch-Site": {"same-origin"}}, http.StatusCreated},
		{http.Header{"Content-Type": {"application/json; charset=utf-8"}}, http.StatusCreated},
	} {
		if code, got := ts.doWith("POST", "/api/games", "", c.headers, body); code != c.want {
			t.Errorf("%v: %d %s, want %d", c.headers, code, got, c.want)
		}
	}
}

// TestNamesCannotPassForOthers: names are counted in characters, kept in
// NFC, and refused with controls, bidi overrides, zero-width characters
// or invalid UTF-8.
func TestNamesCannotPassForOthers(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, siteConfig{})
	for _, name := range []string{"Ann\u202eeve", "A\u200bnn", "Ann\x7f", "Ann\xff", "An\u2066n", "Ann\u00ad", strings.Repeat("a", 41), "Ann\nBob"} {
		code, body := ts.do("POST", "/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "open"}, "names": []string{name}})
		if code != http.StatusUnprocessableEntity {
			t.Errorf("name %q: %d %s", name, code, body)
		}
	}
	long := strings.Repeat("é", 40) // 80 bytes, 40 characters
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "open"}, "names": []string{long}})
	if g.Game.Seats[0].Name != long {
		t.Errorf("name %q kept as %q", long, g.Game.Seats[0].Name)
	}
	code, body := ts.do("POST", "/api/games/"+g.ID+"/join", "", map[string]any{"seat": 1, "name": "Jose\u0301"})
	if code != http.StatusOK {
		t.Fatalf("join: %d %s", code, body)
	}
	if got := ts.game(g.ID).Seats[1].Name; got != "José" {
		t.Errorf("a decomposed name kept as %q, want NFC %q", got, "José")
	}
	if code, body := ts.do("POST", "/api/games/"+g.ID+"/join", "", map[string]any{"seat": 1, "name": "\u202e"}); code != http.StatusUnprocessableEntity {
		t.Errorf("join with a bidi override: %d %s", code, body)
	}
}

// TestRefusalsQuoteLittleOfTheInput: a refusal quotes at most 80
// characters of what it refuses.
func TestRefusalsQuoteLittleOfTheInput(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	huge := strings.Repeat("x", 60_000)
	g := ts.twoHumans()
	for _, c := range []struct {
		path, token string
		body        any
	}{
		{"/api/games", "", map[string]any{"game": huge, "seats": []string{"human", "human"}}},
		{"/api/games", "", map[string]any{"game": "pommel", "seats": []string{"ab:" + huge, "human"}}},
		{"/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "fen": huge}},
		{"/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "options": map[string]string{"hop": huge}}},
		{"/api/games/" + g.ID + "/moves", g.Seats[0].Token, map[string]any{"move": huge, "ply": 0}},
		{"/api/games/" + g.ID + "/draw", g.Seats[0].Token, map[string]any{"action": huge}},
		{"/api/games/" + huge[:2000], "", map[string]any{}},
	} {
		_, body := ts.do("POST", c.path, c.token, c.body)
		if len(body) > 400 {
			t.Errorf("%.40s: a refusal of %d bytes: %.200s", c.path, len(body), body)
		}
	}
}

// TestGamesNobodyStartsAreAborted: a game with a clock whose first move
// does not come in time is aborted; a started one is not.
func TestGamesNobodyStartsAreAborted(t *testing.T) {
	ts := newTestServer(t, siteConfig{AbortAfter: 300 * time.Millisecond})
	idle := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "5m+0s"})
	started := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "clock": "5m+0s"})
	first := ts.game(started.ID).Legal[0]
	ts.move(started.ID, started.Seats[0].Token, first, 0)
	waitFor(t, 10*time.Second, "the abort", func() bool { return ts.game(idle.ID).Result != nil })
	if v := ts.game(idle.ID); v.Result.Reason != "aborted" || len(v.Result.Winners) != 0 || !strings.Contains(v.Description, "aborted") {
		t.Errorf("the idle game ended as %+v (%s)", v.Result, v.Description)
	}
	if code, _ := ts.move(idle.ID, idle.Seats[0].Token, first, 0); code != http.StatusConflict {
		t.Errorf("a move in the aborted game: %d", code)
	}
	time.Sleep(400 * time.Millisecond)
	if v := ts.game(started.ID); v.Result != nil {
		t.Errorf("the started game ended: %+v", v.Result)
	}
}

// served starts srv.Serve on a real listener, as arbiter serve does, and
// returns its address.
func served(t *testing.T, cfg siteConfig) (*Server, string) {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = openTestStore(t)
	}
	srv, err := newSite(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, time.Second) }()
	t.Cleanup(func() {
		stop()
		<-done
	})
	return srv, ln.Addr().String()
}

// dialFrom opens a TCP connection to addr from the loopback address src.
func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedWithin reports whether the server closes c within limit (a read
// ends with an error or EOF); what the server wrote first is read away.
func closedWithin(c net.Conn, limit time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(limit))
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			var ne net.Error
			return !(errors.As(err, &ne) && ne.Timeout())
		}
	}
}

// TestSlowConnectionsAreCutOff: a body trickled a byte at a time, an idle
// keep-alive connection and a connection that sends nothing are closed
// after the documented timeouts (short here), not kept for ever.
func TestSlowConnectionsAreCutOff(t *testing.T) {
	_, addr := served(t, siteConfig{Timeouts: Timeouts{ReadHeader: 300 * time.Millisecond, Read: 600 * time.Millisecond, Idle: 300 * time.Millisecond}})
	silent := dialFrom(t, "127.0.0.1", addr)
	idle := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	trickle := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(trickle, "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	go func() {
		for range 20 {
			time.Sleep(100 * time.Millisecond)
			if _, err := trickle.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	for name, c := range map[string]net.Conn{"silent": silent, "idle keep-alive": idle, "trickled body": trickle} {
		if !closedWithin(c, 3*time.Second) {
			t.Errorf("the %s connection is still open after 3s", name)
		}
	}
}

// TestConnectionsAreBoundedPerAddress: one address cannot hold more
// connections than its share, and another address still gets in.
func TestConnectionsAreBoundedPerAddress(t *testing.T) {
	srv, addr := served(t, siteConfig{ConnsPerAddr: 5})
	var held []net.Conn
	for range 5 {
		held = append(held, dialFrom(t, "127.0.0.1", addr))
	}
	waitFor(t, 5*time.Second, "the five connections", func() bool { return srv.connStats().open == 5 })
	extra := dialFrom(t, "127.0.0.1", addr)
	reply, _ := io.ReadAll(io.LimitReader(extra, 200))
	if !strings.HasPrefix(string(reply), "HTTP/1.1 503") {
		t.Errorf("a sixth connection from one address: %q, want a 503 and a close", reply)
	}
	resp, err := clientFrom("127.0.0.2").Get("http://" + addr + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("another address: %v %v", resp, err)
	}
	resp.Body.Close()
	if srv.connStats().refused == 0 {
		t.Error("no refusal counted")
	}
	_ = held
}

// TestSocketsThatDoNotAnswerPingsAreClosed: a websocket whose client
// never reads (so never answers a ping) is closed by the server.
func TestSocketsThatDoNotAnswerPingsAreClosed(t *testing.T) {
	srv, addr := served(t, siteConfig{Timeouts: Timeouts{Ping: 200 * time.Millisecond, Pong: 200 * time.Millisecond}})
	g, err := srv.Hall().Create(t.Context(), hall.NewGame{Game: "pommel", Seats: []string{"human", "human"}})
	if err != nil {
		t.Fatal(err)
	}
	conn, _, err := websocket.Dial(t.Context(), "ws://"+addr+"/api/games/"+g.ID+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	// The client reads nothing: its library answers no ping.
	waitFor(t, 10*time.Second, "the socket's close", func() bool { return srv.Hall().Stats().Watchers == 0 })
}
