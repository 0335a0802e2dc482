package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/accounts"
	"github.com/arbiter-games/arbiter/store/sqlite"
	"github.com/coder/websocket"
)

// roomyAccountLimits let the tests sign up and log in as often as they
// like from one address; the tests of those limits set their own.
var roomyAccountLimits = accounts.Limits{HashBurst: 1 << 20, HashEvery: time.Nanosecond, HashesAtOnce: 1 << 20,
	SignUpBurst: 1 << 20, SignUpEvery: time.Nanosecond,
	Throttle: account.ThrottleConfig{NameBurst: 1 << 20, AddrBurst: 1 << 20, NameWideBurst: 1 << 20}}

// newFairServer is a test server with cheap hashing and these account
// limits.
func newFairServer(t *testing.T, l accounts.Limits) *testServer {
	t.Helper()
	params := cheapHash
	return newTestServer(t, siteConfig{PasswordHash: &params, Accounts: l})
}

// browserAt is a member's browser whose connections come from the
// loopback address src, with cookies of its own (jar, or a new one).
func (ts *testServer) browserAt(src, name string, jar http.CookieJar) *member {
	if jar == nil {
		jar = mustJar()
	}
	c := clientFrom(src)
	c.Jar = jar
	return &member{t: ts.t, ts: ts, name: name, c: c}
}

// answer sends a request as m and returns the status, the Retry-After
// header and the body.
func (m *member) answer(method, path string, body string) (int, string, string) {
	m.t.Helper()
	req, err := http.NewRequest(method, m.ts.http.URL+path, strings.NewReader(body))
	if err != nil {
		m.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := m.c.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(data)
}

func loginBody(name, password string) string {
	return `{"name":"` + name + `","password":"` + password + `"}`
}

// mustRetryAfter fails unless the answer is a 429 with a positive
// Retry-After.
func mustRetryAfter(t *testing.T, what string, code int, retry, body string) {
	t.Helper()
	if n, err := strconv.Atoi(retry); code != http.StatusTooManyRequests || err != nil || n < 1 || errorCode([]byte(body)) != codeRateLimited {
		t.Errorf("%s: %d, Retry-After %q, %s; want 429 with a Retry-After", what, code, retry, body)
	}
}

// TestCorrectLoginsSpendTheAddressHashBudget: the flood was of
// right passwords, which the failure throttle never saw. Every password
// check is paid from its address's budget, one at a time: 20 parallel
// right logins from one address get at most the budget's 5 hashes and
// then 429 with Retry-After, while another address logs in at once.
func TestCorrectLoginsSpendTheAddressHashBudget(t *testing.T) {
	ts := newFairServer(t, accounts.Limits{HashBurst: 5, HashEvery: time.Hour, HashesAtOnce: 1})
	owner := ts.browserAt("127.0.0.2", "ada", nil)
	if code, _, body := owner.answer("POST", "/api/accounts", loginBody("ada", "correct-horse-ada")); code != 201 {
		t.Fatalf("sign up: %d %s", code, body)
	}
	flooder := ts.browserAt("127.0.0.1", "ada", nil)
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			code, retry, body := flooder.answer("POST", "/api/session", loginBody("ada", "correct-horse-ada"))
			if code == http.StatusTooManyRequests {
				mustRetryAfter(t, "a refused login", code, retry, body)
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if codes[200] > 5 || codes[429] < 15 || codes[200]+codes[429] != 20 {
		t.Errorf("20 parallel right logins from one address: %v; want at most 5 of 200, the rest 429", codes)
	}
	// Those refused for a hash in flight did not spend the budget: one
	// at a time, the address gets the rest of its 5, then 429.
	admitted := codes[200]
	for range 6 {
		code, retry, body := flooder.answer("POST", "/api/session", loginBody("ada", "correct-horse-ada"))
		if code != 200 {
			mustRetryAfter(t, "a right login past the budget", code, retry, body)
			break
		}
		admitted++
	}
	if admitted != 5 {
		t.Errorf("%d right logins from one address admitted, want the budget's 5", admitted)
	}
	if code, _, body := owner.answer("POST", "/api/session", loginBody("ada", "correct-horse-ada")); code != 200 {
		t.Errorf("the owner's login from another address during the flood: %d %s", code, body)
	}
}

// TestOthersFailuresDoNotLockTheOwnerOut: wrong passwords from one
// address throttle that address's tries at the name, not the owner's
// right password from elsewhere; and when the name is guessed at from so
// many addresses that unknown devices wait, the owner's browser, which
// logged in before (its device cookie), still logs in, even from the
// guessers' address.
func TestOthersFailuresDoNotLockTheOwnerOut(t *testing.T) {
	ts := newFairServer(t, accounts.Limits{Throttle: account.ThrottleConfig{NameBurst: 5, NameWideBurst: 8}})
	owner := ts.browserAt("127.0.0.2", "ada", nil)
	if code, _, body := owner.answer("POST", "/api/accounts", loginBody("ada", "correct-horse-ada")); code != 201 {
		t.Fatalf("sign up: %d %s", code, body)
	}
	guesser := ts.browserAt("127.0.0.1", "x", nil)
	for i := range 5 {
		if code, _, body := guesser.answer("POST", "/api/session", loginBody("ada", "wrong-guess-"+strconv.Itoa(i))); code != 401 {
			t.Fatalf("wrong password %d: %d %s", i, code, body)
		}
	}
	code, retry, body := guesser.answer("POST", "/api/session", loginBody("ada", "correct-horse-ada"))
	mustRetryAfter(t, "the guessing address's sixth try", code, retry, body)

	elsewhere := ts.browserAt("127.0.0.3", "ada", nil)
	if code, _, body := elsewhere.answer("POST", "/api/session", loginBody("ada", "correct-horse-ada")); code != 200 {
		t.Fatalf("the owner's right password from another address: %d %s, want 200", code, body)
	}

	// Three more guesses from a fourth address: eight at the name in all.
	other := ts.browserAt("127.0.0.4", "x", nil)
	for i := range 3 {
		other.answer("POST", "/api/session", loginBody("ada", "other-guess-"+strconv.Itoa(i)))
	}
	code, retry, body = ts.browserAt("127.0.0.5", "ada", nil).answer("POST", "/api/session", loginBody("ada", "correct-horse-ada"))
	mustRetryAfter(t, "an unknown device while the name is guessed at from everywhere", code, retry, body)
	known := ts.browserAt("127.0.0.1", "ada", owner.c.Jar) // the owner's browser, on the guessers' network
	if code, _, body := known.answer("POST", "/api/session", loginBody("ada", "correct-horse-ada")); code != 200 {
		t.Errorf("the owner's known device: %d %s, want 200", code, body)
	}
	forged := mustJar()
	forged.SetCookies(mustParse(ts.http.URL+"/api/"), []*http.Cookie{{Name: deviceCookie, Value: "u1.nonce.mac", Path: "/api/"}})
	code, retry, body = ts.browserAt("127.0.0.5", "ada", forged).answer("POST", "/api/session", loginBody("ada", "correct-horse-ada"))
	mustRetryAfter(t, "a forged device cookie", code, retry, body)
}

// TestSignUpsAreLimitedPerAddress: an address makes its burst of accounts,
// then is refused 429 with Retry-After; another address signs up.
func TestSignUpsAreLimitedPerAddress(t *testing.T) {
	ts := newFairServer(t, accounts.Limits{SignUpBurst: 2, SignUpEvery: time.Hour})
	for i, name := range []string{"ada", "bob"} {
		if code, _, body := ts.browserAt("127.0.0.1", name, nil).answer("POST", "/api/accounts", loginBody(name, "correct-horse-"+name)); code != 201 {
			t.Fatalf("sign-up %d: %d %s", i, code, body)
		}
	}
	code, retry, body := ts.browserAt("127.0.0.1", "cy", nil).answer("POST", "/api/accounts", loginBody("cy", "correct-horse-cy"))
	mustRetryAfter(t, "a third sign-up", code, retry, body)
	if !strings.Contains(body, "accounts made from this address") {
		t.Errorf("the refusal does not say why: %s", body)
	}
	if _, err := ts.store.AccountByName(t.Context(), "cy"); err == nil {
		t.Error("the refused account was made")
	}
	if code, _, body := ts.browserAt("127.0.0.2", "cy", nil).answer("POST", "/api/accounts", loginBody("cy", "correct-horse-cy")); code != 201 {
		t.Errorf("a sign-up from another address: %d %s", code, body)
	}
}

// sessionGame starts an unrated game between two accounts by a seek, and
// returns its id and the member whose move it is.
func sessionGame(t *testing.T, a, b *member) (string, *member) {
	t.Helper()
	var seek struct{ ID string }
	a.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel"}, &seek)
	var started struct{ Game string }
	b.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	var g gameAnswer
	a.must(200, "GET", "/api/games/"+started.Game, nil, &g)
	if g.Seats[g.ToMove].Account == b.name {
		return started.Game, b
	}
	return started.Game, a
}

// sessionSocket opens a game's socket with m's cookies and authenticates
// it by m's session (an auth without a token).
func sessionSocket(t *testing.T, ts *testServer, m *member, id string) *websocket.Conn {
	t.Helper()
	header := http.Header{}
	for _, c := range m.c.Jar.Cookies(mustParse(ts.http.URL)) {
		header.Add("Cookie", c.String())
	}
	conn, err := ts.dial(id, header)
	if err != nil {
		t.Fatal(err)
	}
	next(t, conn)
	send(t, conn, map[string]any{"type": "auth"})
	if ev, _ := next(t, conn); ev.Type != "auth" || ev.Seat == nil {
		t.Fatalf("auth by session: %+v", ev)
	}
	return conn
}

// closedWith reads the socket until it closes, and returns the close
// status (-1 when it sent a game event first: a move was played).
func closedWith(t *testing.T, conn *websocket.Conn) websocket.StatusCode {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return websocket.CloseStatus(err)
		}
		if strings.Contains(string(data), `"type":"game"`) {
			return -1
		}
	}
}

// TestARevokedSessionClosesItsSockets: the socket, opened under a
// session, played two moves after "log out everywhere". Revoking the
// session (log out everywhere, log out) closes its sockets at once on
// this server, and a session deleted by another server sharing the store
// (here: straight in the store) is refused at the socket's next move,
// which closes it.
func TestARevokedSessionClosesItsSockets(t *testing.T) {
	ts := newAccountServer(t)
	ada, bob := ts.signUp("ada"), ts.signUp("bob")
	for _, c := range []struct {
		name   string
		revoke func(mover *member)
	}{
		{"log out everywhere", func(mover *member) { mover.must(204, "DELETE", "/api/account/sessions", nil, nil) }},
		{"log out", func(mover *member) { mover.must(204, "DELETE", "/api/session", nil, nil) }},
		{"another server", func(mover *member) {
			a, err := ts.store.AccountByName(t.Context(), mover.name)
			if err == nil {
				err = ts.store.DeleteSessions(t.Context(), a.ID, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			id, mover := sessionGame(t, ada, bob)
			conn := sessionSocket(t, ts, mover, id)
			legal := ts.game(id).Legal[0]
			c.revoke(mover)
			// The write may fail once the server has closed the socket.
			data := `{"type":"move","move":"` + legal + `","ply":0}`
			_ = conn.Write(context.Background(), websocket.MessageText, []byte(data))
			if status := closedWith(t, conn); status != websocket.StatusPolicyViolation {
				t.Errorf("the revoked session's socket: close status %v, want %v", status, websocket.StatusPolicyViolation)
			}
			if g := ts.game(id); g.Ply != 0 {
				t.Errorf("the revoked session's socket played a move")
			}
			// Sign in again for the next case.
			mover.c.Jar = mustJar()
			mover.must(200, "POST", "/api/session", map[string]string{"name": mover.name, "password": "correct-horse-" + mover.name}, nil)
		})
	}
}

// TestExportsRunOneAtATimeAndPayByTheirSize: an account's second export
// while one runs is refused 429; an export pays its client's read budget
// a read for every 10 games, so that a loop of big exports is stopped
// long before a loop of small reads would be.
func TestExportsRunOneAtATimeAndPayByTheirSize(t *testing.T) {
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, Limits: Limits{ReadsPerSecond: 0.001, ReadBurst: 12, GamesPerHour: 1000,
		MovesPerSecond: 1000, MoveBurst: 1000}})
	ada, bob := ts.signUp("ada"), ts.signUp("bob")
	for range 30 {
		var seek struct{ ID string }
		ada.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel"}, &seek)
		var started struct{ Game string }
		bob.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
		ada.must(200, "POST", "/api/games/"+started.Game+"/resign", nil, nil)
	}
	a, err := ts.store.AccountByName(t.Context(), "ada")
	if err != nil {
		t.Fatal(err)
	}
	export, err := ts.srv.accounts.StartExport(t.Context(), a.ID) // an export of ada's runs
	if err != nil {
		t.Fatalf("no export runs, yet one cannot start: %v", err)
	}
	code, retry, body := ada.answer("GET", "/api/account/export", "")
	mustRetryAfter(t, "a second export at once", code, retry, body)
	export.Done()

	// An export of 30 games costs 1 + 3 reads: of the 11 left, two
	// exports take 8, and the 3 left are not enough for a third.
	codes := []int{}
	for range 4 {
		code, retry, body := ada.answer("GET", "/api/account/export", "")
		codes = append(codes, code)
		if code == http.StatusTooManyRequests && retry == "" {
			t.Errorf("a refused export without Retry-After: %s", body)
		}
	}
	if want := []int{200, 200, 429, 429}; !slices.Equal(codes, want) {
		t.Errorf("four exports of 30 games with 11 reads left: %v, want %v", codes, want)
	}
}

// TestLogOutWithUnknownCookiesIsLimited: DELETE /api/session with a
// random, well-formed cookie once wrote to the store every time, without
// a limit. It now reads within the client's read limit and writes only
// for a session that exists.
func TestLogOutWithUnknownCookiesIsLimited(t *testing.T) {
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, Limits: Limits{ReadsPerSecond: 0.001, ReadBurst: 5}})
	codes := map[int]int{}
	for range 10 {
		b := make([]byte, 32)
		rand.Read(b)
		c := &http.Cookie{Name: account.SessionCookie, Value: base64.RawURLEncoding.EncodeToString(b)}
		code, _ := ts.doWith("DELETE", "/api/session", "", http.Header{"Cookie": {c.String()}}, nil)
		codes[code]++
	}
	if codes[204] != 5 || codes[429] != 5 {
		t.Errorf("10 log-outs with random cookies: %v; want 5 answered 204, then 429", codes)
	}
}

// TestAccountLimitsChecked: a negative account limit is refused at New;
// zero fields take the defaults.
func TestAccountLimitsChecked(t *testing.T) {
	for _, l := range []accounts.Limits{{HashBurst: -1}, {HashEvery: -time.Second}, {HashesAtOnce: -1},
		{SignUpBurst: -5}, {SignUpEvery: -1}} {
		if _, err := newSite(siteConfig{Store: openTestStore(t), Accounts: l}); err == nil {
			t.Errorf("New with account limits %+v: no error", l)
		}
	}
	got, err := accounts.Limits{HashBurst: 7}.WithDefaults()
	want := accounts.DefaultLimits
	want.HashBurst = 7
	if err != nil || got != want {
		t.Errorf("accounts.Limits{HashBurst: 7}.WithDefaults() = %+v, %v; want %+v", got, err, want)
	}
}

// TestARevokedSessionClosesSocketsOnAnotherServer: the session is ended
// on one server; on another sharing the database, the socket that plays
// by it is refused its next move and closed, and a socket that only
// watches under it closes at its next ping.
func TestARevokedSessionClosesSocketsOnAnotherServer(t *testing.T) {
	dir := t.TempDir()
	stores := make([]*sqlite.Store, 2)
	for i := range stores {
		st, err := sqlite.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		stores[i] = st
	}
	params := cheapHash
	a := newTestServer(t, siteConfig{Store: stores[0], PasswordHash: &params})
	b := newTestServer(t, siteConfig{Store: stores[1], PasswordHash: &params, Timeouts: Timeouts{Ping: 200 * time.Millisecond}})
	ada, bob := a.signUp("ada"), a.signUp("bob")
	id, mover := sessionGame(t, ada, bob)
	moverOnB := &member{t: t, ts: b, name: mover.name, c: mover.c}
	player := sessionSocket(t, b, moverOnB, id)
	header := http.Header{}
	for _, c := range mover.c.Jar.Cookies(mustParse(b.http.URL)) {
		header.Add("Cookie", c.String())
	}
	watcher, err := b.dial(id, header)
	if err != nil {
		t.Fatal(err)
	}
	next(t, watcher)
	legal := b.game(id).Legal[0]

	mover.must(204, "DELETE", "/api/account/sessions", nil, nil)
	if status := closedWith(t, watcher); status != websocket.StatusPolicyViolation {
		t.Errorf("the watching socket on the other server: close status %v, want %v", status, websocket.StatusPolicyViolation)
	}
	_ = player.Write(context.Background(), websocket.MessageText, []byte(`{"type":"move","move":"`+legal+`","ply":0}`))
	if status := closedWith(t, player); status != websocket.StatusPolicyViolation {
		t.Errorf("the playing socket on the other server: close status %v, want %v", status, websocket.StatusPolicyViolation)
	}
	if g := a.game(id); g.Ply != 0 {
		t.Errorf("the revoked session played a move on the other server")
	}
}
