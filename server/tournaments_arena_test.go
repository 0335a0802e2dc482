package server

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// shiftClock is the real time moved on by what a test adds: an arena's
// minutes pass at once, the games' clocks with them.
type shiftClock struct{ by atomic.Int64 }

func (c *shiftClock) now() time.Time { return time.Now().Add(time.Duration(c.by.Load())) }

func (c *shiftClock) add(d time.Duration) { c.by.Add(int64(d)) }

// arenaGame is one game of the test's own record of an arena, from one
// player's side.
type arenaGame struct {
	id       string
	opponent []string
	place    int // 1 the winner; a two-player draw is place 1 shared
	shared   int
	plies    int
	berserk  bool
	players  int
	countsAt time.Time // its end
}

// gameResult is GET /api/games/{id} as the arena tests read it.
type gameResult struct {
	Ply    int `json:"ply"`
	Result *struct {
		Winners []int `json:"winners"`
		Scores  []int `json:"scores"`
	} `json:"result"`
	Clock *struct {
		LeftMs []int64 `json:"leftMs"`
	} `json:"clock"`
}

// arenaPoints is the test's own reading of lichess's arena rules: a win
// 2, a draw 1, a loss 0 (three players: by place 2, 1, 0, a shared place
// the mean of its places rounded down); after two wins running a game
// counts double until one is not won; a berserk win one point more when
// every player made 7 moves; a draw in fewer than 20 plies nothing, and
// a draw when the last game not lost was a draw nothing unless it lasted
// 60 plies.
func arenaPoints(games []arenaGame) (total int, points []int) {
	won := func(g arenaGame) bool { return g.place == 1 && g.shared == 1 }
	drawn := func(g arenaGame) bool { return g.players == 2 && g.shared == 2 }
	for i, g := range games {
		fire := i >= 2 && won(games[i-1]) && won(games[i-2])
		lastNotLostWasDraw := false
		for j := i - 1; j >= 0; j-- {
			if drawn(games[j]) || won(games[j]) {
				lastNotLostWasDraw = drawn(games[j])
				break
			}
		}
		p := 0
		switch {
		case drawn(g) && (g.plies < 20 || !fire && g.plies < 60 && lastNotLostWasDraw):
		default:
			byPlace := map[int][]int{2: {2, 0}, 3: {2, 1, 0}}[g.players]
			sum := 0
			for _, x := range byPlace[g.place-1 : g.place-1+g.shared] {
				sum += x
			}
			p = sum / g.shared
			if fire {
				p *= 2
			}
			if won(g) && g.berserk && g.plies >= 7*g.players {
				p++
			}
		}
		points = append(points, p)
		total += p
	}
	return total, points
}

// placesOfResult are the places of a game's seats: the winners first,
// then (Punt) by score, the rest sharing the next place.
func placesOfResult(winners, scores []int, seats int) (places []int) {
	for i := range seats {
		place := 1
		for j := range seats {
			if beats(winners, scores, j, i) {
				place++
			}
		}
		places = append(places, place)
	}
	return places
}

func beats(winners, scores []int, a, b int) bool {
	wa, wb := slices.Contains(winners, a), slices.Contains(winners, b)
	if wa != wb {
		return wa
	}
	return !wa && a < len(scores) && b < len(scores) && scores[a] > scores[b]
}

// arenaRun drives one arena through the API: each game in play, one at
// a time, ended as decide says, and the test's record of every player's
// games kept in the order they ended.
type arenaRun struct {
	t      *testing.T
	ts     *testServer
	id     string
	byName map[string]*member
	boss   *member
	games  map[string][]arenaGame
	done   map[string]bool
	last   map[string][]string // each player's last opponents
	ended  int
}

// next waits for a game of the arena in play that the run has not ended
// and returns its id and seats' names; every player is in at most one
// game in play, and no two players meet twice running when others were
// free to pair.
func (r *arenaRun) next() (string, []string, tview) {
	r.t.Helper()
	var id string
	var seats []string
	v := pollTournament(r.t, r.boss, r.id, "a game in play", func(v tview) bool {
		inPlay := map[string]bool{}
		id = ""
		for _, rd := range v.Rounds {
			for _, g := range rd.Games {
				if g.Result != "*" {
					continue
				}
				for _, s := range g.Seats {
					if inPlay[s] {
						r.t.Fatalf("%s is in two games in play: %+v", s, v.Rounds)
					}
					inPlay[s] = true
				}
				if !r.done[g.ID] && id == "" {
					id, seats = g.ID, g.Seats
				}
			}
		}
		return id != ""
	})
	waitFor(r.t, 20*time.Second, "game "+id+" made", func() bool {
		code, _ := r.boss.call("GET", "/api/games/"+id, nil)
		return code == http.StatusOK
	})
	return id, seats, v
}

// play plays n plies of game id, each by the seat to move (its first
// legal move), and reads the game.
func (r *arenaRun) play(id string, seats []*member, n int) gameResult {
	r.t.Helper()
	r.moves(id, seats, n, func(legal []string) string { return legal[0] })
	var g gameResult
	seats[0].must(200, "GET", "/api/games/"+id, nil, &g)
	return g
}

// moves plays up to n plies of game id, each by the seat to move, the
// move pick chooses, and reports whether the game ended.
func (r *arenaRun) moves(id string, seats []*member, n int, pick func(legal []string) string) bool {
	r.t.Helper()
	for range n {
		var g struct {
			Ply    int      `json:"ply"`
			ToMove int      `json:"toMove"`
			Legal  []string `json:"legal"`
			Result any      `json:"result"`
		}
		seats[0].must(200, "GET", "/api/games/"+id, nil, &g)
		if g.Result != nil {
			return true
		}
		seats[g.ToMove].must(200, "POST", "/api/games/"+id+"/moves", map[string]any{"move": pick(g.Legal), "ply": g.Ply}, nil)
	}
	return false
}

// record writes game id's end into every seat's sheet, from the game's
// own result.
func (r *arenaRun) record(id string, names []string, berserk map[string]bool) {
	r.t.Helper()
	var g gameResult
	r.boss.must(200, "GET", "/api/games/"+id, nil, &g)
	if g.Result == nil {
		r.t.Fatalf("game %s has not ended", id)
	}
	places := placesOfResult(g.Result.Winners, g.Result.Scores, len(names))
	for i, n := range names {
		shared := 0
		for _, p := range places {
			if p == places[i] {
				shared++
			}
		}
		others := slices.DeleteFunc(slices.Clone(names), func(x string) bool { return x == n })
		r.games[n] = append(r.games[n], arenaGame{id: id, opponent: others, place: places[i], shared: shared,
			plies: g.Ply, berserk: berserk[n], players: len(names)})
	}
	r.done[id] = true
	r.ended++
}

// checkTable compares the arena's table with the test's own scores,
// each player's points game by game.
func (r *arenaRun) checkTable(v tview) {
	r.t.Helper()
	for _, sd := range v.Standings {
		total, points := arenaPoints(r.games[sd.Name])
		if int(sd.Score) != total || !slices.Equal(sd.Points, points) {
			r.t.Errorf("%s: score %v points %v; the test's rules give %d %v", sd.Name, sd.Score, sd.Points, total, points)
		}
	}
	for i := 1; i < len(v.Standings); i++ {
		if v.Standings[i].Score > v.Standings[i-1].Score {
			r.t.Errorf("%s ranked below %s with more points", v.Standings[i].Name, v.Standings[i-1].Name)
		}
	}
}

// TestArenaAcceptance: an arena of 6 accounts for 3 minutes on a 30+0
// clock, driven through the API, one game ended at a time: ar0 wins every
// game (from its third win on, each counts double), ar1 goes berserk (its clock halved, a long
// win one point more, a short one not), the others draw (a second draw
// running scoring nothing, a quick one nothing) or lose. Nobody meets the
// same opponent twice running, nobody plays two games at once, the table
// equals the test's own scoring after every game, and at the end a game
// still in play counts for nothing.
func TestArenaAcceptance(t *testing.T) {
	t.Parallel()
	params := cheapHash
	clock := &shiftClock{}
	ts := newTestServer(t, siteConfig{PasswordHash: &params, TournamentTick: 20 * time.Millisecond, Now: clock.now,
		Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	r := &arenaRun{t: t, ts: ts, byName: map[string]*member{}, games: map[string][]arenaGame{}, done: map[string]bool{}}
	var names []string
	for i := range 6 {
		m := ts.signUp(fmt.Sprint("ar", i))
		r.byName[m.name] = m
		names = append(names, m.name)
	}
	r.boss = r.byName["ar0"]
	var made struct{ ID string }
	r.boss.must(201, "POST", "/api/tournaments", map[string]any{"kind": "arena", "game": "checkers-2011",
		"clock": map[string]int{"initial": 30}, "minutes": 3, "rated": true}, &made)
	r.id = made.ID
	for _, n := range names {
		r.byName[n].must(204, "POST", "/api/tournaments/"+r.id+"/join", nil, nil)
	}
	r.byName["ar1"].must(204, "POST", "/api/tournaments/"+r.id+"/berserk", map[string]bool{"on": true}, nil)
	r.boss.must(204, "POST", "/api/tournaments/"+r.id+"/start", nil, nil)

	berserk := map[string]bool{"ar1": true}
	ar1Wins, draws := 0, 0
	for r.ended < 16 {
		id, seats, v := r.next()
		ms := []*member{r.byName[seats[0]], r.byName[seats[1]]}
		r.checkBerserk(v, id, seats, berserk)
		if berserk["ar1"] && ar1Wins >= 2 && slices.Contains(seats, "ar1") {
			// ar1 calms down while it plays: its next games are on the
			// whole clock.
			r.byName["ar1"].must(204, "POST", "/api/tournaments/"+r.id+"/berserk", map[string]bool{"on": false}, nil)
			berserk["ar1"] = false
		}
		loser := -1
		plies := 2
		switch {
		case slices.Contains(seats, "ar0"):
			loser = 1 - slices.Index(seats, "ar0")
		case slices.Contains(seats, "ar1"):
			loser = 1 - slices.Index(seats, "ar1")
			if ar1Wins%2 == 0 {
				plies = 14 // seven moves each: the berserk point
			}
			ar1Wins++
		default:
			plies = 20 // long enough to count, unless quick
			if draws%3 == 2 {
				plies = 4
			}
			draws++
		}
		g := r.play(id, ms, plies)
		if g.Result == nil {
			if loser >= 0 {
				ms[loser].must(200, "POST", "/api/games/"+id+"/resign", nil, nil)
			} else {
				ms[0].must(200, "POST", "/api/games/"+id+"/draw", map[string]string{"action": "offer"}, nil)
				ms[1].must(200, "POST", "/api/games/"+id+"/draw", map[string]string{"action": "accept"}, nil)
			}
		}
		r.record(id, seats, berserkOf(v, id))
		v = pollTournament(t, r.boss, r.id, "game "+id+" scored", func(v tview) bool { return gameScored(v, id) })
		r.checkTable(v)
	}
	if berserk["ar1"] {
		t.Errorf("ar1 never won twice going berserk in %d games", r.ended)
	}
	r.checkNoRematchRunning()
	r.checkRulesSeen()

	// Time is up: the games in play count for nothing, and the arena
	// ends with a podium.
	id, seats, _ := r.next()
	clock.add(3 * time.Minute)
	v := pollTournament(t, r.boss, r.id, "the end", func(v tview) bool { return v.State == "finished" })
	if !gameScored(v, id) || resultOf(v, id) != "0-0" {
		t.Errorf("a game in play at the end: %q, want 0-0 (counting for nothing)", resultOf(v, id))
	}
	r.byName[seats[0]].call("POST", "/api/games/"+id+"/resign", nil)
	r.checkTable(pollTournament(t, r.boss, r.id, "the table after the end", func(v tview) bool { return true }))
	if len(v.Podium) != 3 || v.Podium[0] != "ar0" {
		t.Errorf("podium %v, want ar0 first", v.Podium)
	}
}

// gameScored: game id's board has a result.
func gameScored(v tview, id string) bool {
	res := resultOf(v, id)
	return res != "" && res != "*"
}

func resultOf(v tview, id string) string {
	for _, rd := range v.Rounds {
		for _, g := range rd.Games {
			if g.ID == id {
				return g.Result
			}
		}
	}
	return ""
}

// checkBerserk: game id's seats went berserk as their players asked
// when it was paired, and a berserk player's clock starts at half the
// limit (15 of 30 seconds), the others' at the whole.
func (r *arenaRun) checkBerserk(v tview, id string, seats []string, berserk map[string]bool) {
	r.t.Helper()
	flags := berserkOf(v, id)
	var g gameResult
	r.boss.must(200, "GET", "/api/games/"+id, nil, &g)
	if g.Clock == nil || len(g.Clock.LeftMs) != len(seats) {
		r.t.Fatalf("game %s: clock %+v", id, g.Clock)
	}
	for i, n := range seats {
		want := int64(30000)
		if berserk[n] {
			want = 15000
		}
		if flags[n] != berserk[n] {
			r.t.Errorf("game %s: %s berserk %v in the table, want %v", id, n, flags[n], berserk[n])
		}
		if left := g.Clock.LeftMs[i]; left > want || left < want-5000 {
			r.t.Errorf("game %s: %s (berserk %v) starts with %d ms, want about %d", id, n, berserk[n], left, want)
		}
	}
}

// berserkOf is who went berserk in game id, by the tournament's table.
func berserkOf(v tview, id string) map[string]bool {
	out := map[string]bool{}
	for _, rd := range v.Rounds {
		for _, g := range rd.Games {
			if g.ID != id {
				continue
			}
			for i, b := range g.Berserk {
				out[g.Seats[i]] = b
			}
		}
	}
	return out
}

// checkNoRematchRunning: no two players met in two games running.
func (r *arenaRun) checkNoRematchRunning() {
	r.t.Helper()
	for n, gs := range r.games {
		for i := 1; i < len(gs); i++ {
			if slices.Equal(gs[i].opponent, gs[i-1].opponent) {
				r.t.Errorf("%s met %v in two games running (%s, %s)", n, gs[i].opponent, gs[i-1].id, gs[i].id)
			}
		}
	}
}

// checkRulesSeen: the run went through each rule it is meant to test,
// so that a change in who is paired with whom cannot leave one untried.
func (r *arenaRun) checkRulesSeen() {
	r.t.Helper()
	seen := map[string]bool{}
	for _, gs := range r.games {
		_, points := arenaPoints(gs)
		for i, g := range gs {
			won := g.place == 1 && g.shared == 1
			switch {
			case won && i >= 2 && gs[i-1].place == 1 && gs[i-1].shared == 1 && gs[i-2].place == 1 && gs[i-2].shared == 1:
				seen["a doubled win"] = true
			case won && g.berserk && g.plies >= 7*g.players:
				seen["a berserk point"] = true
			case won && g.berserk:
				seen["a berserk win too short for its point"] = true
			case g.shared == 2 && points[i] == 1:
				seen["a draw"] = true
			case g.shared == 2 && g.plies < 20:
				seen["a quick draw"] = true
			case g.shared == 2 && points[i] == 0:
				seen["a second draw running"] = true
			}
		}
	}
	for _, rule := range []string{"a doubled win", "a berserk point", "a berserk win too short for its point", "a draw", "a quick draw", "a second draw running"} {
		if !seen[rule] {
			r.t.Errorf("the run never had %s: %v", rule, seen)
		}
	}
}

// playOut plays game id to its end, each seat moving at random (seeded),
// within a bound of plies.
func (r *arenaRun) playOut(id string, seats []*member, rng *rand.Rand, bound int) {
	r.t.Helper()
	if !r.moves(id, seats, bound+1, func(legal []string) string { return legal[rng.IntN(len(legal))] }) {
		r.t.Fatalf("game %s did not end in %d plies", id, bound)
	}
}

// TestArenaThreePlayers: an arena of a three-player game seats its six
// free players at two tables of three, and scores each game by place (2,
// 1, 0; a shared place the mean of its places, rounded down), as the
// test's own scoring does, game after game; the games are played out to
// their end on the board (places from the score) or resigned (the two
// others sharing the first place).
func TestArenaThreePlayers(t *testing.T) {
	t.Parallel()
	params := cheapHash
	ts := newTestServer(t, siteConfig{PasswordHash: &params, TournamentTick: 20 * time.Millisecond,
		Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
	r := &arenaRun{t: t, ts: ts, byName: map[string]*member{}, games: map[string][]arenaGame{}, done: map[string]bool{}}
	var names []string
	for i := range 6 {
		m := ts.signUp(fmt.Sprint("tp", i))
		r.byName[m.name] = m
		names = append(names, m.name)
	}
	r.boss = r.byName["tp0"]
	var made struct{ ID string }
	r.boss.must(201, "POST", "/api/tournaments", map[string]any{"kind": "arena", "game": "punt-heks-match-3p",
		"clock": map[string]int{"initial": 300}, "minutes": 30}, &made)
	r.id = made.ID
	for _, n := range names {
		r.byName[n].must(204, "POST", "/api/tournaments/"+r.id+"/join", nil, nil)
	}
	r.boss.must(204, "POST", "/api/tournaments/"+r.id+"/start", nil, nil)
	first := pollTournament(t, r.boss, r.id, "the first tables", func(v tview) bool { return len(v.Rounds) > 0 })
	if games := first.Rounds[0].Games; len(games) != 2 || len(games[0].Seats) != 3 || len(games[1].Seats) != 3 {
		t.Fatalf("six free players at %+v, want two tables of three", games)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	places := map[string]bool{}
	for r.ended < 5 {
		id, seats, _ := r.next()
		if len(seats) != 3 {
			t.Fatalf("game %s seats %v, want three", id, seats)
		}
		ms := []*member{r.byName[seats[0]], r.byName[seats[1]], r.byName[seats[2]]}
		if r.ended%2 == 0 {
			r.playOut(id, ms, rng, 2000)
		} else {
			r.play(id, ms, 3)
			ms[r.ended%3].must(200, "POST", "/api/games/"+id+"/resign", nil, nil)
		}
		r.record(id, seats, nil)
		for _, n := range seats {
			g := r.games[n][len(r.games[n])-1]
			places[fmt.Sprint(g.place, "/", g.shared)] = true
		}
		v := pollTournament(t, r.boss, r.id, "game "+id+" scored", func(v tview) bool { return gameScored(v, id) })
		r.checkTable(v)
	}
	if !places["1/2"] || !places["2/1"] || !places["3/1"] {
		t.Errorf("places seen %v: want a shared first place (a resignation), a sole second (an end on the board) and a sole last", places)
	}
}

// TestArenaAcrossServers: two servers on one store, both running the
// tournaments (their passes 20 ms apart at most), run one arena of six
// without a double pairing: nobody sits at two games in play, every
// game is scored once, and the table equals the test's scoring, the
// games' moves and resignations sent to either server. On SQLite, and on
// PostgreSQL when it is there (-short skips it unless
// ARBITER_TEST_STORE=postgres).
func TestArenaAcrossServers(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			if kind == "postgres" && os.Getenv("ARBITER_TEST_STORE") != "postgres" && testing.Short() {
				t.Skip("-short: PostgreSQL only with ARBITER_TEST_STORE=postgres")
			}
			stores := twoStores(t, kind)
			params := cheapHash
			var sites [2]*testServer
			for i, st := range stores {
				sites[i] = newTestServer(t, siteConfig{Store: st, PasswordHash: &params, TournamentTick: 20 * time.Millisecond,
					Limits: Limits{MovesPerSecond: 1000, MoveBurst: 1000}})
			}
			r := &arenaRun{t: t, ts: sites[0], byName: map[string]*member{}, games: map[string][]arenaGame{}, done: map[string]bool{}}
			onB := map[string]*member{}
			var names []string
			for i := range 6 {
				m := sites[0].signUp(fmt.Sprint("du", i))
				b := *m
				b.ts = sites[1]
				r.byName[m.name], onB[m.name] = m, &b
				names = append(names, m.name)
			}
			r.boss = r.byName["du0"]
			var made struct{ ID string }
			r.boss.must(201, "POST", "/api/tournaments", map[string]any{"kind": "arena", "game": "checkers-2011",
				"clock": map[string]int{"initial": 60}, "minutes": 30}, &made)
			r.id = made.ID
			for i, n := range names {
				who := map[bool]*member{true: r.byName[n], false: onB[n]}[i%2 == 0]
				who.must(204, "POST", "/api/tournaments/"+r.id+"/join", nil, nil)
			}
			r.boss.must(204, "POST", "/api/tournaments/"+r.id+"/start", nil, nil)
			for r.ended < 6 {
				id, seats, _ := r.next()
				side := map[bool]map[string]*member{true: r.byName, false: onB}[r.ended%2 == 0]
				ms := []*member{side[seats[0]], side[seats[1]]}
				if g := r.play(id, ms, 2); g.Result == nil {
					ms[r.ended%2].must(200, "POST", "/api/games/"+id+"/resign", nil, nil)
				}
				r.record(id, seats, nil)
				v := pollTournament(t, r.boss, r.id, "game "+id+" scored", func(v tview) bool { return gameScored(v, id) })
				r.checkTable(v)
				rounds := map[int]bool{}
				for _, rd := range v.Rounds {
					if rounds[rd.Round] {
						t.Fatalf("round %d paired twice: %+v", rd.Round, v.Rounds)
					}
					rounds[rd.Round] = true
				}
			}
			r.checkNoRematchRunning()
		})
	}
}
