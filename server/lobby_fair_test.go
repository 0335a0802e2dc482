package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/lobby"
)

// newLobbyNet is a test server whose clients come each from the address
// they name in X-Test-Address (as a network of many hosts would), with a
// clock that moves on a millisecond at every reading, so that every seek
// has a time of its own.
func newLobbyNet(t *testing.T) *testServer {
	t.Helper()
	params := cheapHash
	var ms atomic.Int64
	start := time.Now()
	now := func() time.Time { return start.Add(time.Duration(ms.Add(1)) * time.Millisecond) }
	return newTestServerBehind(t, siteConfig{PasswordHash: &params, Now: now}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if a := r.Header.Get("X-Test-Address"); a != "" {
				r.RemoteAddr = a + ":40000"
			}
			next.ServeHTTP(w, r)
		})
	})
}

// fromAddress sends every request with X-Test-Address set.
type fromAddress string

func (a fromAddress) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Test-Address", string(a))
	return http.DefaultTransport.RoundTrip(r)
}

// signUpFrom signs up name from address; the member's every request
// comes from there.
func (ts *testServer) signUpFrom(address, name string) *member {
	ts.t.Helper()
	jar, _ := cookiejar.New(nil)
	m := &member{t: ts.t, ts: ts, name: name, c: &http.Client{Jar: jar, Transport: fromAddress(address)}}
	m.must(201, "POST", "/api/accounts", map[string]string{"name": name, "password": "correct-horse-battery-staple"}, nil)
	return m
}

// listedSeek is a seek as GET /api/seeks lists it, the fields the tests
// read.
type listedSeek struct {
	ID, Game, By, Kind, Cursor string
}

func (m *member) seeks(query string) []listedSeek {
	m.t.Helper()
	var list []listedSeek
	m.must(200, "GET", "/api/seeks"+query, nil, &list)
	return list
}

func seekIDs(list []listedSeek) []string {
	ids := []string{}
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	return ids
}

var (
	realTimeSeek       = map[string]any{"game": "pommel", "rated": true, "clock": map[string]int{"initial": 180, "increment": 2}}
	correspondenceSeek = map[string]any{"game": "pommel", "rated": true, "clock": map[string]int{"days": 3}}
)

// TestLobbyFloodHidesNoNewSeek: a hundred accounts, each from its own
// address, post five correspondence seeks each; a real-time seek made
// after them is listed first, in the list and on the lobby's socket, and
// a new correspondence seek is first of its kind. -short floods with 30
// accounts: 150 seeks, still three pages of the lobby.
func TestLobbyFloodHidesNoNewSeek(t *testing.T) {
	ts := newLobbyNet(t)
	accounts := 100
	if testing.Short() {
		accounts = 30
	}
	for i := range accounts {
		m := ts.signUpFrom(fmt.Sprintf("10.1.%d.%d", i/250, i%250+1), fmt.Sprint("flood", i))
		for range 5 {
			m.must(201, "POST", "/api/seeks", correspondenceSeek, nil)
		}
	}
	ada := ts.signUpFrom("10.2.0.1", "ada")
	var fresh struct{ ID string }
	ada.must(201, "POST", "/api/seeks", realTimeSeek, &fresh)
	list := ada.seeks("")
	if len(list) == 0 || list[0].ID != fresh.ID || list[0].Kind != "realtime" || list[0].By != "ada" {
		t.Fatalf("the lobby after %d correspondence seeks begins %v; want ada's real-time seek %s first", 5*accounts, seekIDs(list[:min(3, len(list))]), fresh.ID)
	}
	if n := len(list); n != 1+lobby.SeekPage {
		t.Errorf("the lobby lists %d seeks; want 1 real-time and a page (%d) of correspondence", n, lobby.SeekPage)
	}
	if rt := ada.seeks("?kind=realtime"); len(rt) != 1 || rt[0].ID != fresh.ID {
		t.Errorf("the real-time seeks: %v; want [%s]", seekIDs(rt), fresh.ID)
	}
	bob := ts.signUpFrom("10.2.0.2", "bob")
	var letter struct{ ID string }
	bob.must(201, "POST", "/api/seeks", correspondenceSeek, &letter)
	if c := bob.seeks("?kind=correspondence"); len(c) != lobby.SeekPage || c[0].ID != letter.ID {
		t.Errorf("the correspondence seeks begin %v (%d); want bob's %s first, a page of %d", seekIDs(c[:min(3, len(c))]), len(c), letter.ID, lobby.SeekPage)
	}

	conn := lobbySocket(t, ts, ada)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, data, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Type  string
		Seeks []listedSeek
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range msg.Seeks {
		found = found || s.ID == fresh.ID
	}
	if msg.Type != "seeks" || !found || len(msg.Seeks) > 2*lobby.SeekPage {
		t.Errorf("the lobby's socket sent %s of %d seeks, ada's real-time one among them: %v", msg.Type, len(msg.Seeks), found)
	}
}

// TestSeeksPerAddress: one address holds at most lobby.MaxSeeksPerAddress
// open seeks, whatever its accounts; another address is not held back,
// and a seek withdrawn makes room.
func TestSeeksPerAddress(t *testing.T) {
	ts := newLobbyNet(t)
	var first *member
	var firstSeek string
	for i := range lobby.MaxSeeksPerAddress / lobby.MaxSeeksPerAccount {
		m := ts.signUpFrom("10.3.0.1", fmt.Sprint("p", i))
		for range lobby.MaxSeeksPerAccount {
			var s struct{ ID string }
			m.must(201, "POST", "/api/seeks", correspondenceSeek, &s)
			if i == 0 {
				first, firstSeek = m, s.ID
			}
		}
	}
	late := ts.signUpFrom("10.3.0.1", "late")
	code, body := late.call("POST", "/api/seeks", realTimeSeek)
	if code != http.StatusTooManyRequests || errorCode(body) != codeRateLimited || !strings.Contains(string(body), "address") {
		t.Fatalf("seek %d from one address: %d %s; want 429 rate_limited", lobby.MaxSeeksPerAddress+1, code, body)
	}
	other := ts.signUpFrom("10.3.0.2", "other")
	other.must(201, "POST", "/api/seeks", realTimeSeek, nil)
	first.must(204, "DELETE", "/api/seeks/"+firstSeek, nil, nil)
	late.must(201, "POST", "/api/seeks", realTimeSeek, nil)
	if n := len(late.seeks("")); n != lobby.MaxSeeksPerAddress+1 {
		t.Errorf("%d seeks listed; want %d", n, lobby.MaxSeeksPerAddress+1)
	}
}

// TestSeeksFiltersAndPages: the list keeps a game and a kind, pages by
// the cursor without a seek twice or missed, and refuses a bad parameter
// with a 400 that quotes little of it.
func TestSeeksFiltersAndPages(t *testing.T) {
	ts := newLobbyNet(t)
	ada := ts.signUpFrom("10.4.0.1", "ada")
	bob := ts.signUpFrom("10.4.0.2", "bob")
	var made []string // newest first
	for _, c := range []struct {
		by   *member
		body map[string]any
	}{
		{ada, map[string]any{"game": "eximo", "clock": map[string]int{"days": 1}}},
		{ada, map[string]any{"game": "pommel"}},
		{ada, map[string]any{"game": "eximo", "clock": map[string]int{"initial": 60}}},
		{bob, map[string]any{"game": "pommel", "clock": map[string]int{"days": 2}}},
		{bob, map[string]any{"game": "eximo"}},
		{bob, map[string]any{"game": "pommel", "clock": map[string]int{"days": 5}}},
	} {
		var s struct{ ID string }
		c.by.must(201, "POST", "/api/seeks", c.body, &s)
		made = append([]string{s.ID}, made...)
	}
	all := ada.seeks("")
	same := func(what string, got, want []string) {
		t.Helper()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: %v; want %v", what, got, want)
		}
	}
	same("every seek, newest first", seekIDs(all), made)
	// made[0] is the newest: bob's pommel by correspondence.
	same("eximo", seekIDs(ada.seeks("?game=eximo")), []string{made[1], made[3], made[5]})
	same("correspondence", seekIDs(ada.seeks("?kind=correspondence")), []string{made[0], made[2], made[5]})
	same("real time", seekIDs(ada.seeks("?kind=realtime")), []string{made[1], made[3], made[4]})
	same("eximo by correspondence", seekIDs(ada.seeks("?game=eximo&kind=correspondence")), []string{made[5]})
	same("a page of one of each kind", seekIDs(ada.seeks("?limit=1")), []string{made[0], made[1]})
	var paged []string
	query := "?kind=realtime&limit=2"
	for range 5 {
		page := ada.seeks(query)
		if len(page) == 0 {
			break
		}
		paged = append(paged, seekIDs(page)...)
		query = "?kind=realtime&limit=2&before=" + url.QueryEscape(page[len(page)-1].Cursor)
	}
	same("the real-time seeks in pages of 2", paged, []string{made[1], made[3], made[4]})

	huge := strings.Repeat("x", 5000)
	for _, q := range []string{
		"game=chess", "game=" + huge, "game=pommel&game=eximo",
		"kind=blitz", "kind=REALTIME", "kind=" + huge,
		"limit=0", "limit=-1", "limit=101", "limit=abc", "limit=1e3", "limit=99999999999999999999", "limit=" + huge,
		"before=abc", "before=.abc", "before=12.", "before=-5.abc", "before=12.ABC", "before=12.a%2Fb",
		"before=1234567890123456.abc", "before=12." + huge, "before=" + huge,
	} {
		code, body := ada.call("GET", "/api/seeks?"+q, nil)
		if code != http.StatusBadRequest || errorCode(body) != codeBadRequest || strings.Contains(string(body), strings.Repeat("x", 81)) {
			t.Errorf("GET /api/seeks?%.40s: %d %.200s; want 400 quoting at most 80 characters", q, code, body)
		}
	}
}
