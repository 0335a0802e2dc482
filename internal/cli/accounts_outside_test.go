package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// person is one browser talking to a real "arbiter serve": its own
// cookies.
type person struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newPerson(t *testing.T, base string) *person {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &person{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// call sends a request with a JSON body (nil for none) and gives the
// status and the decoded answer (nil when it is not JSON).
func (p *person) call(method, path string, body any, header ...string) (int, map[string]any, http.Header) {
	p.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, p.base+path, rd)
	if err != nil {
		p.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := p.c.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if json.Unmarshal(data, &v) != nil {
		v = map[string]any{"raw": string(data)}
	}
	return resp.StatusCode, v, resp.Header
}

// want fails unless the answer has the status (and, when given, the
// error code).
func (p *person) want(what string, status int, code string, got int, body map[string]any) {
	p.t.Helper()
	gotCode := ""
	if e, ok := body["error"].(map[string]any); ok {
		gotCode, _ = e["code"].(string)
	}
	if got != status || code != "" && gotCode != code {
		p.t.Fatalf("%s: %d %v; want %d %s", what, got, body, status, code)
	}
}

// TestAccountsContractFromOutside checks section 9 of the contract
// against a real "arbiter serve" process, as a client sees it: sign-up,
// login, logout, cookies, every refusal, seeks, seats played by the
// cookie, and ratings after a rated game.
func TestAccountsContractFromOutside(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and hashes passwords at full cost")
	}
	srv := startServe(t, t.TempDir())
	ada, bob, cy := newPerson(t, srv.base), newPerson(t, srv.base), newPerson(t, srv.base)

	t.Run("sign up", func(t *testing.T) {
		status, body, header := ada.call("POST", "/api/accounts", map[string]string{"name": "Ada", "password": "lovelace-engine-1843"})
		ada.want("sign up", 201, "", status, body)
		if body["name"] != "Ada" {
			t.Fatalf("sign-up answer %v", body)
		}
		cookie := header.Get("Set-Cookie")
		for _, part := range []string{"arbiter_session=", "HttpOnly", "SameSite=Lax", "Path=/"} {
			if !strings.Contains(cookie, part) {
				t.Fatalf("cookie %q lacks %s", cookie, part)
			}
		}
		if strings.Contains(cookie, "Secure") {
			t.Fatalf("cookie %q is Secure over plain http", cookie)
		}
		for _, p := range []struct {
			who        *person
			name, pass string
		}{{bob, "bob", "babbage-difference-2"}, {cy, "cy_3", "cyrus-the-great-99x"}} {
			status, body, _ := p.who.call("POST", "/api/accounts", map[string]string{"name": p.name, "password": p.pass})
			p.who.want("sign up "+p.name, 201, "", status, body)
		}
	})

	t.Run("refusals of sign-up", func(t *testing.T) {
		other := newPerson(t, srv.base)
		for _, c := range []struct {
			name, password string
			status         int
			code           string
		}{
			{"ADA", "another-long-secret-1", 409, "name_taken"},
			{"ada", "another-long-secret-1", 409, "name_taken"},
			{"x", "another-long-secret-1", 422, "invalid"},
			{"twenty-one-characters", "another-long-secret-1", 422, "invalid"},
			{"a b", "another-long-secret-1", 422, "invalid"},
			{"zoë", "another-long-secret-1", 422, "invalid"},
			{"ai-level-1", "another-long-secret-1", 422, "invalid"},
			{"newcomer", "short7!", 422, "invalid"},
			{"newcomer", "password1", 422, "invalid"},
			{"newcomer", "Qwerty123!", 422, "invalid"},
			{"newcomer", strings.Repeat("x", 257), 422, "invalid"},
		} {
			status, body, _ := other.call("POST", "/api/accounts", map[string]string{"name": c.name, "password": c.password})
			other.want("sign up "+c.name+" / "+c.password[:min(len(c.password), 12)], c.status, c.code, status, body)
		}
	})

	t.Run("session", func(t *testing.T) {
		status, body, _ := ada.call("GET", "/api/session", nil)
		ada.want("GET /api/session signed in", 200, "", status, body)
		if body["name"] != "Ada" {
			t.Fatalf("session %v", body)
		}
		stranger := newPerson(t, srv.base)
		status, body, _ = stranger.call("GET", "/api/session", nil)
		stranger.want("GET /api/session of a stranger", 401, "", status, body)
		// A second browser logs in, logs out, and its cookie is dead on the server.
		laptop := newPerson(t, srv.base)
		status, body, _ = laptop.call("POST", "/api/session", map[string]string{"name": "ada", "password": "lovelace-engine-1843"})
		laptop.want("log in", 200, "", status, body)
		u := mustURL(t, srv.base)
		old := laptop.c.Jar.Cookies(u)
		status, body, _ = laptop.call("DELETE", "/api/session", nil)
		laptop.want("log out", 204, "", status, body)
		replay := newPerson(t, srv.base)
		replay.c.Jar.SetCookies(u, old)
		status, body, _ = replay.call("GET", "/api/session", nil)
		replay.want("the cookie of a session logged out", 401, "", status, body)
	})

	t.Run("wrong name and wrong password answer alike", func(t *testing.T) {
		var wrongName, wrongPassword []time.Duration
		var bodies []string
		probe := newPerson(t, srv.base)
		for i := range 4 {
			for _, name := range []string{"nobody-" + string(rune('a'+i)), "bob"} {
				start := time.Now()
				status, body, _ := probe.call("POST", "/api/session", map[string]string{"name": name, "password": "not-the-password-0"})
				took := time.Since(start)
				probe.want("a wrong login", 401, "bad_login", status, body)
				b, _ := json.Marshal(body)
				bodies = append(bodies, string(b))
				if name == "bob" {
					wrongPassword = append(wrongPassword, took)
				} else {
					wrongName = append(wrongName, took)
				}
			}
		}
		slices.Sort(bodies)
		if len(slices.Compact(bodies)) != 1 {
			t.Fatalf("the answers differ: %v", bodies)
		}
		slices.Sort(wrongName)
		slices.Sort(wrongPassword)
		a, b := wrongName[len(wrongName)/2], wrongPassword[len(wrongPassword)/2]
		// Both hash a password at full cost (tens of ms): a wrong name
		// answered without hashing would take a fraction of a
		// millisecond.
		if a < b/3 || b < a/3 {
			t.Fatalf("median time: wrong name %v, wrong password %v; want the same work", a, b)
		}
		t.Logf("median time: wrong name %v, wrong password %v", a, b)
	})

	t.Run("cross-origin change with a valid cookie", func(t *testing.T) {
		status, body, _ := ada.call("POST", "/api/seeks", map[string]any{"game": "pommel", "rated": false, "clock": nil},
			"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
		ada.want("a cross-origin seek", 403, "forbidden", status, body)
		status, body, _ = ada.call("DELETE", "/api/session", nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
		ada.want("a cross-origin logout", 403, "forbidden", status, body)
	})

	var gameID string
	t.Run("seek and accept", func(t *testing.T) {
		status, body, _ := ada.call("POST", "/api/seeks", map[string]any{"game": "pommel", "options": map[string]string{}, "rated": true,
			"clock": map[string]int{"initial": 180, "increment": 2}})
		ada.want("a seek", 201, "", status, body)
		seek, _ := body["id"].(string)
		var list []map[string]any
		getJSON(t, srv.base+"/api/seeks", &list)
		if len(list) != 1 || list[0]["id"] != seek || list[0]["by"] != "Ada" || list[0]["rating"] != 1500.0 || list[0]["rated"] != true {
			t.Fatalf("seeks %v", list)
		}
		status, body, _ = ada.call("POST", "/api/seeks/"+seek+"/accept", nil)
		ada.want("accepting one's own seek", 409, "own_seek", status, body)
		status, body, _ = newPerson(t, srv.base).call("POST", "/api/seeks/"+seek+"/accept", nil)
		ada.want("accepting without an account", 401, "", status, body)
		status, body, _ = bob.call("POST", "/api/seeks/"+seek+"/accept", nil)
		bob.want("bob accepts", 201, "", status, body)
		gameID, _ = body["game"].(string)
		status, body, _ = cy.call("POST", "/api/seeks/"+seek+"/accept", nil)
		cy.want("accepting a seek taken", 404, "", status, body)
		getJSON(t, srv.base+"/api/seeks", &list)
		if len(list) != 0 {
			t.Fatalf("seeks after the accept: %v", list)
		}
	})

	t.Run("seats played by the cookie", func(t *testing.T) {
		var g struct {
			ToMove int      `json:"toMove"`
			Ply    int      `json:"ply"`
			Legal  []string `json:"legal"`
			Rated  bool     `json:"rated"`
			Seats  []struct {
				Account string `json:"account"`
			} `json:"seats"`
		}
		getJSON(t, srv.base+"/api/games/"+gameID, &g)
		names := []string{g.Seats[0].Account, g.Seats[1].Account}
		slices.Sort(names)
		if !g.Rated || !slices.Equal(names, []string{"Ada", "bob"}) {
			t.Fatalf("the seek's game: %+v", g)
		}
		toMove, waiting := ada, bob
		if g.Seats[g.ToMove].Account == "bob" {
			toMove, waiting = bob, ada
		}
		move := map[string]any{"move": g.Legal[0], "ply": 0}
		status, body, _ := cy.call("POST", "/api/games/"+gameID+"/moves", move)
		cy.want("a move by an account with no seat", 403, "forbidden", status, body)
		status, body, _ = waiting.call("POST", "/api/games/"+gameID+"/moves", move)
		waiting.want("a move for the other account", 409, "not_your_turn", status, body)
		status, body, _ = newPerson(t, srv.base).call("POST", "/api/games/"+gameID+"/moves", move)
		cy.want("a move with no cookie nor token", 401, "", status, body)
		status, body, _ = toMove.call("POST", "/api/games/"+gameID+"/moves", move)
		toMove.want("the move of the seat to move", 200, "", status, body)
		status, body, _ = waiting.call("POST", "/api/games/"+gameID+"/resign", nil)
		waiting.want("a resignation", 200, "", status, body)
		if body["you"] == nil {
			t.Fatalf("the answer does not say which seat is mine: %v", body)
		}
	})

	t.Run("ratings after the rated game", func(t *testing.T) {
		for _, name := range []string{"Ada", "bob"} {
			var u struct {
				Name    string `json:"name"`
				Ratings map[string]struct {
					Rating      float64 `json:"rating"`
					RD          float64 `json:"rd"`
					Volatility  float64 `json:"volatility"`
					Games       int     `json:"games"`
					Provisional bool    `json:"provisional"`
				} `json:"ratings"`
			}
			getJSON(t, srv.base+"/api/users/"+strings.ToLower(name), &u)
			r, ok := u.Ratings["pommel"]
			if u.Name != name || !ok || r.Games != 1 || r.Rating == 1500 || r.RD >= 350 || !r.Provisional || r.Volatility <= 0 {
				t.Fatalf("%s after one rated game: %+v", name, u)
			}
			if _, other := u.Ratings["pommel-76"]; other {
				t.Fatalf("a pommel game rated pommel-76: %+v", u)
			}
		}
		status, body, _ := cy.call("GET", "/api/users/nobody-here", nil)
		cy.want("no such user", 404, "", status, body)
	})

	t.Run("AI levels are accounts", func(t *testing.T) {
		var level struct {
			Name  string `json:"name"`
			Level bool   `json:"level"`
			Bot   bool   `json:"bot"`
		}
		getJSON(t, srv.base+"/api/users/ai-level-1", &level)
		if level.Name != "ai-level-1" || !level.Level || level.Bot {
			t.Fatalf("ai-level-1: %+v; want an AI level, not a bot", level)
		}
		status, body, _ := cy.call("POST", "/api/games", map[string]any{"game": "eximo", "seats": []string{"human", "ai:level=1"}, "rated": true, "clock": "5m+3s"})
		cy.want("a rated game against level 1", 201, "", status, body)
		id := body["id"].(string)
		status, body, _ = cy.call("POST", "/api/games/"+id+"/resign", nil)
		cy.want("resigning against level 1", 200, "", status, body)
		var after struct {
			Ratings map[string]struct {
				Games int `json:"games"`
			} `json:"ratings"`
		}
		getJSON(t, srv.base+"/api/users/ai-level-1", &after)
		if after.Ratings["eximo"].Games < 1 {
			t.Fatalf("level 1 after a rated game: %+v", after)
		}
		status, body, _ = newPerson(t, srv.base).call("POST", "/api/games", map[string]any{"game": "eximo", "seats": []string{"human", "ai:level=1"}, "rated": true, "clock": "5m+3s"})
		cy.want("a rated game without an account", 422, "invalid", status, body)
	})

	t.Run("repeated failures are throttled", func(t *testing.T) {
		thief := newPerson(t, srv.base)
		var status int
		var header http.Header
		for range 8 {
			status, _, header = thief.call("POST", "/api/session", map[string]string{"name": "cy_3", "password": "guess-guess-guess"})
			if status == 429 {
				break
			}
		}
		if status != 429 || header.Get("Retry-After") == "" {
			t.Fatalf("after many wrong passwords: %d, Retry-After %q", status, header.Get("Retry-After"))
		}
	})
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
