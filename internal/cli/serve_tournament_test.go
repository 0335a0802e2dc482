package cli

import (
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"syscall"
	"testing"
	"time"
)

// personFrom is a person whose connections come from address src (a
// loopback address of its own: serve lets an address make only a few
// accounts).
func personFrom(t *testing.T, base, src string) *person {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 10 * time.Second}
	return &person{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		Transport: &http.Transport{DialContext: d.DialContext}}}
}

// arenaBoard is a board of GET /api/tournaments/{id}.
type arenaBoard struct {
	id     string
	seats  []string
	result string
}

// arenaOf reads tournament id: its state, its boards and each player's
// score; "" for the state when serve asks the client to slow down.
func arenaOf(p *person, id string) (string, []arenaBoard, map[string]float64) {
	p.t.Helper()
	code, v, _ := p.call("GET", "/api/tournaments/"+id, nil)
	if code == http.StatusTooManyRequests {
		return "", nil, nil
	}
	if code != 200 {
		p.t.Fatalf("GET tournament: %d %v", code, v)
	}
	var boards []arenaBoard
	rounds, _ := v["rounds"].([]any)
	for _, r := range rounds {
		games, _ := r.(map[string]any)["games"].([]any)
		for _, g := range games {
			g := g.(map[string]any)
			b := arenaBoard{result: fmt.Sprint(g["result"])}
			b.id, _ = g["id"].(string)
			for _, s := range g["seats"].([]any) {
				b.seats = append(b.seats, s.(string))
			}
			boards = append(boards, b)
		}
	}
	scores := map[string]float64{}
	table, _ := v["standings"].([]any)
	for _, line := range table {
		l := line.(map[string]any)
		scores[l["name"].(string)], _ = l["score"].(float64)
	}
	return fmt.Sprint(v["state"]), boards, scores
}

// waitArena reads the arena until ok holds, failing after a generous
// deadline.
func waitArena(t *testing.T, p *person, id, what string, ok func([]arenaBoard, map[string]float64) bool) ([]arenaBoard, map[string]float64) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		state, boards, scores := arenaOf(p, id)
		if state != "" && ok(boards, scores) {
			return boards, scores
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %+v %v", what, boards, scores)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// inPlay is the boards going on.
func inPlay(boards []arenaBoard) []arenaBoard {
	var out []arenaBoard
	for _, b := range boards {
		if b.result == "*" {
			out = append(out, b)
		}
	}
	return out
}

// checkOneGameEach fails when a player sits at two boards going on.
func checkOneGameEach(t *testing.T, boards []arenaBoard) {
	t.Helper()
	seen := map[string]bool{}
	for _, b := range inPlay(boards) {
		for _, s := range b.seats {
			if seen[s] {
				t.Fatalf("%s is paired twice: %+v", s, boards)
			}
			seen[s] = true
		}
	}
}

// TestServeKeepsAnArenaThroughSIGKILL: an arena of four accounts on a
// real serve process, killed with SIGKILL twice: right after a
// resignation is acknowledged (the tournament may not have read it yet),
// and right after a new pairing shows (its games may not be made yet).
// Restarted on the same folder, the arena has every result, scores them,
// makes the games it paired, and pairs nobody twice.
func TestServeKeepsAnArenaThroughSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts serve three times")
	}
	dir := t.TempDir()
	p := startServe(t, dir)
	names := []string{"kim", "lee", "max", "ned"}
	people := map[string]*person{}
	for i, n := range names {
		people[n] = personFrom(t, p.base, fmt.Sprint("127.0.0.", 10+i))
		code, v, _ := people[n].call("POST", "/api/accounts", map[string]string{"name": n, "password": "arena-night-" + n + "-2026"})
		people[n].want("sign up "+n, 201, "", code, v)
	}
	kim := people["kim"]
	code, v, _ := kim.call("POST", "/api/tournaments", map[string]any{"kind": "arena", "game": "checkers-2011",
		"clock": map[string]int{"initial": 30}, "minutes": 30})
	kim.want("create", 201, "", code, v)
	id := v["id"].(string)
	for _, n := range names {
		code, v, _ := people[n].call("POST", "/api/tournaments/"+id+"/join", nil)
		people[n].want("join "+n, 204, "", code, v)
	}
	code, v, _ = kim.call("POST", "/api/tournaments/"+id+"/start", nil)
	kim.want("start", 204, "", code, v)
	boards, _ := waitArena(t, kim, id, "two games", func(b []arenaBoard, _ map[string]float64) bool { return len(inPlay(b)) == 2 })

	restart := func() {
		t.Helper()
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = p.cmd.Wait()
		p = startServe(t, dir)
		for _, who := range people {
			who.base = p.base
		}
	}
	resign := func(b arenaBoard) string {
		t.Helper()
		waitGame(t, kim, b.id)
		who := people[b.seats[1]]
		code, v, _ := who.call("POST", "/api/games/"+b.id+"/resign", nil)
		who.want("resign", 200, "", code, v)
		return b.seats[0]
	}

	// A resignation, then SIGKILL at once.
	first := boards[0]
	winner := resign(first)
	restart()
	_, scores := waitArena(t, kim, id, "the first result", func(b []arenaBoard, _ map[string]float64) bool {
		for _, x := range b {
			if x.id == first.id {
				return x.result == "1-0"
			}
		}
		return false
	})
	if scores[winner] != 2 {
		t.Errorf("after SIGKILL: %s scores %v, want 2 for the win", winner, scores[winner])
	}

	// The second game ends; as soon as the arena pairs the four again,
	// SIGKILL.
	rest := inPlay(boards)[1:]
	if len(rest) != 1 {
		t.Fatalf("boards %+v", boards)
	}
	second := resign(rest[0])
	boards, _ = waitArena(t, kim, id, "the next pairing", func(b []arenaBoard, _ map[string]float64) bool { return len(b) > 2 })
	restart()
	boards, scores = waitArena(t, kim, id, "both results", func(b []arenaBoard, s map[string]float64) bool {
		return s[winner] == 2 && s[second] == 2
	})
	checkOneGameEach(t, boards)
	if len(boards) != 4 || len(inPlay(boards)) != 2 {
		t.Errorf("after two kills the arena has boards %+v, want the two played and the two paired", boards)
	}
	for _, b := range inPlay(boards) {
		waitGame(t, kim, b.id)
	}
}

// waitGame waits for game id to be made: a pairing is stored with its
// games' ids before they are made (the next pass makes any a crash left
// unmade), so a board may name its game a moment early.
func waitGame(t *testing.T, p *person, id string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, _, _ := p.call("GET", "/api/games/"+id, nil)
		if code == 200 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("paired game %s was never made: %d", id, code)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
