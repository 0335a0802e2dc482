package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// tview is GET /api/tournaments/{id} as the tests read it.
type tview struct {
	State     string `json:"state"`
	Round     int    `json:"round"`
	Standings []struct {
		Name      string    `json:"name"`
		Score     float64   `json:"score"`
		Tiebreaks []float64 `json:"tiebreaks"`
		Points    []int     `json:"points"`
		Games     int       `json:"games"`
	} `json:"standings"`
	Rounds []struct {
		Round int `json:"round"`
		Games []struct {
			ID      string   `json:"id"`
			Seats   []string `json:"seats"`
			Result  string   `json:"result"`
			Berserk []bool   `json:"berserk"`
		} `json:"games"`
	} `json:"rounds"`
	Podium []string `json:"podium"`
}

// pollTournament reads tournament id until ok holds, failing after a
// generous deadline (a busy machine is slow, never wrong).
func pollTournament(t *testing.T, m *member, id, what string, ok func(tview) bool) tview {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var v tview
		m.must(200, "GET", "/api/tournaments/"+id, nil, &v)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %+v", what, v)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// playMoves plays n moves of game id, each by the member to move.
func playMoves(t *testing.T, seats []*member, id string, n int) {
	t.Helper()
	for range n {
		var g struct {
			Ply    int      `json:"ply"`
			ToMove int      `json:"toMove"`
			Legal  []string `json:"legal"`
		}
		seats[0].must(200, "GET", "/api/games/"+id, nil, &g)
		seats[g.ToMove].must(200, "POST", "/api/games/"+id+"/moves", map[string]any{"move": g.Legal[0], "ply": g.Ply}, nil)
	}
}

// swissGame is one game of the test's own record of the Swiss.
type swissGame struct {
	round        int
	white, black string
	points       float64 // white's
}

// The acceptance test of the Swiss: 9 accounts over 4 rounds, driven
// through the API, the games played by the test (wins by resignation,
// draws by agreement). Each round must keep the rules (no rematch, no
// colour three times running, colour difference at most 2, one bye each
// at most, everyone present paired once), and the final standings and
// tie-breaks must equal the test's own computation.
func TestSwissAcceptance(t *testing.T) {
	t.Parallel()
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, TournamentTick: 20 * time.Millisecond,
		Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	byName := map[string]*member{}
	var names []string
	for i := range 9 {
		m := ts.signUp(fmt.Sprint("sw", i))
		byName[m.name] = m
		names = append(names, m.name)
	}
	boss := byName[names[0]]
	var made struct{ ID string }
	boss.must(201, "POST", "/api/tournaments", map[string]any{"kind": "swiss", "game": "checkers-2011",
		"clock": map[string]int{"initial": 600}, "rounds": 4}, &made)
	for _, n := range names {
		byName[n].must(204, "POST", "/api/tournaments/"+made.ID+"/join", nil, nil)
	}
	byName[names[1]].must(403, "POST", "/api/tournaments/"+made.ID+"/start", nil, nil)
	boss.must(204, "POST", "/api/tournaments/"+made.ID+"/start", nil, nil)

	var games []swissGame
	byes := map[string]int{}
	for round := 1; round <= 4; round++ {
		v := pollTournament(t, boss, made.ID, fmt.Sprint("round ", round), func(v tview) bool { return len(v.Rounds) == round })
		seen := map[string]bool{}
		for board, g := range v.Rounds[round-1].Games {
			for _, s := range g.Seats {
				if seen[s] {
					t.Fatalf("round %d: %s paired twice", round, s)
				}
				seen[s] = true
			}
			if len(g.Seats) == 1 {
				if byes[g.Seats[0]]++; byes[g.Seats[0]] > 1 {
					t.Fatalf("round %d: a second bye for %s", round, g.Seats[0])
				}
				continue
			}
			w, b := g.Seats[0], g.Seats[1]
			for _, old := range games {
				if old.white == w && old.black == b || old.white == b && old.black == w {
					t.Fatalf("round %d: %s and %s meet again", round, w, b)
				}
			}
			seats := []*member{byName[w], byName[b]}
			// A pairing is stored with its games' ids before the hall makes
			// the games (a crash in between makes them on the next pass),
			// so the view may name a game a moment before it exists.
			waitFor(t, 20*time.Second, "game "+g.ID+" made", func() bool {
				code, _ := seats[0].call("GET", "/api/games/"+g.ID, nil)
				return code == http.StatusOK
			})
			playMoves(t, seats, g.ID, 2)
			sg := swissGame{round: round, white: w, black: b}
			switch (round + board) % 3 {
			case 0: // white resigns
				seats[0].must(200, "POST", "/api/games/"+g.ID+"/resign", nil, nil)
			case 1: // black resigns
				seats[1].must(200, "POST", "/api/games/"+g.ID+"/resign", nil, nil)
				sg.points = 1
			case 2: // a draw, offered and accepted
				seats[0].must(200, "POST", "/api/games/"+g.ID+"/draw", map[string]string{"action": "offer"}, nil)
				seats[1].must(200, "POST", "/api/games/"+g.ID+"/draw", map[string]string{"action": "accept"}, nil)
				sg.points = 0.5
			}
			games = append(games, sg)
		}
		if len(seen) != 9 {
			t.Fatalf("round %d paired %d of 9 players", round, len(seen))
		}
		checkColours(t, names, games)
	}
	v := pollTournament(t, boss, made.ID, "the end", func(v tview) bool { return v.State == "finished" })
	want := swissTable(names, games, byes, 4)
	if len(v.Standings) != 9 {
		t.Fatalf("%d standings", len(v.Standings))
	}
	for i, sd := range v.Standings {
		w := want[sd.Name]
		if sd.Score != w[0] || len(sd.Tiebreaks) != 2 || sd.Tiebreaks[0] != w[1] || sd.Tiebreaks[1] != w[2] {
			t.Errorf("%s: score %v tie-breaks %v; want %v", sd.Name, sd.Score, sd.Tiebreaks, w)
		}
		if i > 0 {
			p := v.Standings[i-1]
			if slices.Compare([]float64{p.Score, p.Tiebreaks[0], p.Tiebreaks[1]}, []float64{sd.Score, sd.Tiebreaks[0], sd.Tiebreaks[1]}) < 0 {
				t.Errorf("%s ranked above %s with less", p.Name, sd.Name)
			}
		}
	}
	if len(v.Podium) != 3 || v.Podium[0] != v.Standings[0].Name {
		t.Errorf("podium %v", v.Podium)
	}
	// The games, as one PDN file, each tagged with the event and round.
	code, pdn := boss.call("GET", "/api/tournaments/"+made.ID+"/games.pdn", nil)
	if code != 200 || strings.Count(string(pdn), `[Event "sw0's Swiss"]`) != len(games) || !strings.Contains(string(pdn), `[Round "4.1"]`) {
		t.Errorf("games.pdn: %d, %d events for %d games:\n%.600s", code, strings.Count(string(pdn), "[Event "), len(games), pdn)
	}
}

// checkColours fails when a player had a colour three times running or
// a colour difference beyond 2.
func checkColours(t *testing.T, names []string, games []swissGame) {
	t.Helper()
	for _, n := range names {
		var cs []int
		for _, g := range games {
			switch n {
			case g.white:
				cs = append(cs, 1)
			case g.black:
				cs = append(cs, -1)
			}
		}
		sum := 0
		for i, c := range cs {
			sum += c
			if i >= 2 && cs[i-1] == c && cs[i-2] == c {
				t.Fatalf("%s has one colour three times running: %v", n, cs)
			}
		}
		if sum > 2 || sum < -2 {
			t.Fatalf("%s has a colour difference of %d: %v", n, sum, cs)
		}
	}
}

// swissTable computes each player's score, Buchholz and Sonneborn-Berger
// from the games, by FIDE's rules: a bye counts a win against a virtual
// opponent who had the player's score before the round, lost it, and
// drew every later round.
func swissTable(names []string, games []swissGame, byes map[string]int, rounds int) map[string][3]float64 {
	type result struct {
		opp    string
		points float64
	}
	byRound := map[string]map[int]result{}
	for _, n := range names {
		byRound[n] = map[int]result{}
	}
	for _, g := range games {
		byRound[g.white][g.round] = result{g.black, g.points}
		byRound[g.black][g.round] = result{g.white, 1 - g.points}
	}
	score := map[string]float64{}
	for _, n := range names {
		for r := 1; r <= rounds; r++ {
			if res, ok := byRound[n][r]; ok {
				score[n] += res.points
			} else {
				score[n]++ // the bye
			}
		}
	}
	out := map[string][3]float64{}
	for _, n := range names {
		var buchholz, sb, before float64
		for r := 1; r <= rounds; r++ {
			res, ok := byRound[n][r]
			opp, points := 0.0, 1.0
			if ok {
				opp, points = score[res.opp], res.points
			} else {
				opp = before + 0 + 0.5*float64(rounds-r)
			}
			buchholz += opp
			sb += points * opp
			before += points
		}
		out[n] = [3]float64{score[n], buchholz, sb}
	}
	_ = byes
	return out
}

// Every field of POST /api/tournaments is checked, and the actions need
// a session, a tournament and the right person.
func TestTournamentRefusals(t *testing.T) {
	ts := newAccountServer(t)
	ada := ts.signUp("ada")
	good := func() map[string]any {
		return map[string]any{"kind": "arena", "game": "checkers-2011", "clock": map[string]int{"initial": 30}, "minutes": 3}
	}
	tests := []struct {
		name string
		edit func(map[string]any)
		code int
	}{
		{"bad kind", func(b map[string]any) { b["kind"] = "ladder" }, 422},
		{"negative minutes", func(b map[string]any) { b["minutes"] = -3 }, 422},
		{"zero minutes", func(b map[string]any) { b["minutes"] = 0 }, 422},
		{"huge minutes", func(b map[string]any) { b["minutes"] = 1e15 }, 422},
		{"fractional minutes", func(b map[string]any) { b["minutes"] = 2.5 }, 400},
		{"minutes as text", func(b map[string]any) { b["minutes"] = "NaN" }, 400},
		{"overflowing minutes", func(b map[string]any) { b["minutes"] = 1e300 }, 400},
		{"rounds in an arena", func(b map[string]any) { b["rounds"] = 3 }, 422},
		{"no clock", func(b map[string]any) { delete(b, "clock") }, 422},
		{"negative clock", func(b map[string]any) { b["clock"] = map[string]int{"initial": -1} }, 422},
		{"malformed start", func(b map[string]any) { b["start"] = "tomorrow" }, 422},
		{"over-long start", func(b map[string]any) { b["start"] = strings.Repeat("9", 5000) }, 422},
		{"past start", func(b map[string]any) { b["start"] = "2001-01-01T00:00:00Z" }, 422},
		{"unknown game", func(b map[string]any) { b["game"] = strings.Repeat("g", 300) }, 422},
		{"too many options", func(b map[string]any) {
			o := map[string]string{}
			for i := range 40 {
				o[fmt.Sprint("k", i)] = "v"
			}
			b["options"] = o
		}, 422},
		{"unknown field", func(b map[string]any) { b["prize"] = 100 }, 400},
		{"bad rating bounds", func(b map[string]any) { b["minRating"], b["maxRating"] = 2000, 1000 }, 422},
	}
	for _, tt := range tests {
		b := good()
		tt.edit(b)
		if code, body := ada.call("POST", "/api/tournaments", b); code != tt.code {
			t.Errorf("%s: %d %s; want %d", tt.name, code, body, tt.code)
		}
	}
	var made struct{ ID string }
	ada.must(201, "POST", "/api/tournaments", good(), &made)
	bob := ts.signUp("bob")
	bob.must(403, "POST", "/api/tournaments/"+made.ID+"/start", nil, nil)
	bob.must(409, "POST", "/api/tournaments/"+made.ID+"/withdraw", nil, nil)
	bob.must(404, "POST", "/api/tournaments/nope/join", nil, nil)
	bob.must(404, "GET", "/api/tournaments/nope", nil, nil)
	bob.must(204, "POST", "/api/tournaments/"+made.ID+"/join", nil, nil)
	bob.must(422, "POST", "/api/tournaments/"+made.ID+"/berserk", map[string]any{}, nil)
	bob.must(204, "POST", "/api/tournaments/"+made.ID+"/berserk", map[string]any{"on": true}, nil)
	ada.must(409, "POST", "/api/tournaments/"+made.ID+"/start", nil, nil) // one player
	// Three not finished per creator.
	ada.must(201, "POST", "/api/tournaments", good(), nil)
	ada.must(201, "POST", "/api/tournaments", good(), nil)
	ada.must(429, "POST", "/api/tournaments", good(), nil)
	var anon member = *bob
	anon.c = &http.Client{}
	anon.must(401, "POST", "/api/tournaments", good(), nil)
	var lists map[string][]map[string]any
	bob.must(200, "GET", "/api/tournaments", nil, &lists)
	if len(lists["upcoming"]) != 3 || len(lists["running"]) != 0 || len(lists["finished"]) != 0 {
		t.Errorf("lists: %v", lists)
	}
}
