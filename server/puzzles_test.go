package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// puzzleSets is GET /api/puzzles as a test reads it.
type puzzleSets struct {
	Games []struct {
		Game   string `json:"game"`
		Name   string `json:"name"`
		Count  int    `json:"count"`
		Themes []struct {
			Theme string `json:"theme"`
			Count int    `json:"count"`
		} `json:"themes"`
		Rating *struct {
			Rating      float64 `json:"rating"`
			RD          float64 `json:"rd"`
			Provisional bool    `json:"provisional"`
			Attempts    int     `json:"attempts"`
		} `json:"rating"`
	} `json:"games"`
}

// puzzleAnswer is GET /api/puzzles/{game}.
type puzzleAnswer struct {
	ID         string   `json:"id"`
	Game       string   `json:"game"`
	FEN        string   `json:"fen"`
	Solution   []string `json:"solution"`
	Themes     []string `json:"themes"`
	Rating     float64  `json:"rating"`
	Plays      int      `json:"plays"`
	Source     string   `json:"source"`
	SourceGame string   `json:"sourceGame"`
	Player     *struct {
		Rating      float64 `json:"rating"`
		RD          float64 `json:"rd"`
		Provisional bool    `json:"provisional"`
	} `json:"player"`
}

// attemptAnswer is POST /api/puzzles/{id}/attempt.
type attemptAnswer struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Volatility  float64 `json:"volatility"`
	Change      float64 `json:"change"`
	Provisional bool    `json:"provisional"`
	Rated       bool    `json:"rated"`
	Puzzle      struct {
		ID     string  `json:"id"`
		Rating float64 `json:"rating"`
	} `json:"puzzle"`
}

// getJSON fails unless GET path answers 200, and decodes it into v.
func (ts *testServer) getJSON(path string, v any) {
	ts.t.Helper()
	code, body := ts.do("GET", path, "", nil)
	if code != http.StatusOK {
		ts.t.Fatalf("GET %s: %d %s", path, code, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		ts.t.Fatalf("GET %s: %v in %s", path, err, body)
	}
}

// TestPuzzleSetsAndNext: every game id has a set; a puzzle has the
// fields of RULINGS section 10 and a solution legal from its position.
func TestPuzzleSetsAndNext(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	var sets puzzleSets
	ts.getJSON("/api/puzzles", &sets)
	var ids []string
	for _, g := range sets.Games {
		ids = append(ids, g.Game)
		if g.Count == 0 || g.Name == "" || g.Rating != nil {
			t.Errorf("set %+v: want puzzles, a name, no rating for a signed-out caller", g)
		}
	}
	for _, d := range game.All() {
		if !slices.Contains(ids, d.ID) {
			t.Errorf("no puzzle set for %s (sets: %v)", d.ID, ids)
		}
	}
	for _, id := range ids {
		code, body := ts.do("GET", "/api/puzzles/"+id, "", nil)
		if code != http.StatusOK {
			t.Fatalf("GET /api/puzzles/%s: %d %s", id, code, body)
		}
		var raw map[string]json.RawMessage
		_ = json.Unmarshal(body, &raw)
		for _, field := range []string{"id", "game", "fen", "solution", "themes", "rating", "plays", "source", "sourceGame", "ply", "table", "player"} {
			if _, ok := raw[field]; !ok {
				t.Errorf("%s's puzzle has no %q: %s", id, field, body)
			}
		}
		var p puzzleAnswer
		_ = json.Unmarshal(body, &p)
		checkSolution(t, p)
		if p.Game != id || p.Player != nil || p.Rating <= 0 {
			t.Errorf("%s's puzzle: %+v; want the game, no player for a signed-out caller, a rating", id, p)
		}
	}
}

// checkSolution fails unless the puzzle's solution is legal, move by
// move, from its position, with an odd number of moves.
func checkSolution(t *testing.T, p puzzleAnswer) {
	t.Helper()
	g, err := game.New(p.Game, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.ParseFEN(p.FEN)
	if err != nil {
		t.Fatalf("puzzle %s: %v", p.ID, err)
	}
	if len(p.Solution)%2 != 1 {
		t.Errorf("puzzle %s: %d solution moves; want an odd number", p.ID, len(p.Solution))
	}
	if err := game.PlayMoves(s, p.Solution); err != nil {
		t.Errorf("puzzle %s: %v", p.ID, err)
	}
}

// TestPuzzleRatedAttempts: solving raises the player's rating and
// lowers the puzzle's; failing another lowers the player's and raises
// that puzzle's; a second attempt at a puzzle is unrated.
func TestPuzzleRatedAttempts(t *testing.T) {
	ts := newAccountServer(t)
	ada := ts.signUp("Ada")
	var p puzzleAnswer
	ada.must(200, "GET", "/api/puzzles/eximo", nil, &p)
	if p.Player == nil || p.Player.Rating != 1500 || !p.Player.Provisional {
		t.Fatalf("a new account's player: %+v; want 1500, provisional", p.Player)
	}
	var won attemptAnswer
	ada.must(200, "POST", "/api/puzzles/"+p.ID+"/attempt", map[string]any{"solved": true}, &won)
	if !won.Rated || won.Rating <= 1500 || won.Change <= 0 || won.Puzzle.ID != p.ID || won.Puzzle.Rating >= p.Rating || won.RD >= 350 {
		t.Fatalf("solving %s (rated %.1f): %+v; want rated, above 1500, the puzzle below %.1f", p.ID, p.Rating, won, p.Rating)
	}
	var after puzzleAnswer
	ada.must(200, "GET", "/api/puzzles/eximo?id="+p.ID, nil, &after)
	if after.Plays != 1 || after.Rating != won.Puzzle.Rating || after.Player.Rating != won.Rating {
		t.Fatalf("the puzzle after the attempt: %+v; want 1 play, rating %.1f, the player at %.1f", after, won.Puzzle.Rating, won.Rating)
	}
	var again attemptAnswer
	ada.must(200, "POST", "/api/puzzles/"+p.ID+"/attempt", map[string]any{"solved": false}, &again)
	if again.Rated || again.Rating != won.Rating || again.Change != 0 || again.Puzzle.Rating != won.Puzzle.Rating {
		t.Fatalf("a second attempt: %+v; want unrated, nothing changed from %+v", again, won)
	}
	var next puzzleAnswer
	ada.must(200, "GET", "/api/puzzles/eximo", nil, &next)
	if next.ID == p.ID {
		t.Fatalf("the next puzzle is %s again, already attempted", p.ID)
	}
	var lost attemptAnswer
	ada.must(200, "POST", "/api/puzzles/"+next.ID+"/attempt", map[string]any{"solved": false, "mode": "rated"}, &lost)
	if !lost.Rated || lost.Rating >= won.Rating || lost.Change >= 0 || lost.Puzzle.Rating <= next.Rating {
		t.Fatalf("failing %s (rated %.1f) from %.1f: %+v; want rated, lower, the puzzle higher", next.ID, next.Rating, won.Rating, lost)
	}
	var sets puzzleSets
	ada.must(200, "GET", "/api/puzzles", nil, &sets)
	for _, g := range sets.Games {
		if g.Game == "eximo" && (g.Rating == nil || g.Rating.Attempts != 2 || g.Rating.Rating != lost.Rating) {
			t.Fatalf("eximo's set for Ada: %+v; want 2 attempts, rating %.1f", g.Rating, lost.Rating)
		}
		if g.Game != "eximo" && g.Rating != nil {
			t.Fatalf("%s's set for Ada: %+v; want no rating", g.Game, g.Rating)
		}
	}
}

// TestPuzzleConcurrentAttemptsRateOnce: eight attempts at once by one
// account at one puzzle: exactly one is rated.
func TestPuzzleConcurrentAttemptsRateOnce(t *testing.T) {
	ts := newAccountServer(t)
	ada := ts.signUp("Ada")
	var p puzzleAnswer
	ada.must(200, "GET", "/api/puzzles/pommel", nil, &p)
	answers := make([]attemptAnswer, 8)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			code, body := ada.call("POST", "/api/puzzles/"+p.ID+"/attempt", map[string]any{"solved": i%2 == 0})
			if code != 200 {
				t.Errorf("attempt %d: %d %s", i, code, body)
			}
			_ = json.Unmarshal(body, &answers[i])
		})
	}
	wg.Wait()
	rated := 0
	for _, a := range answers {
		if a.Rated {
			rated++
		}
	}
	var after puzzleAnswer
	ada.must(200, "GET", "/api/puzzles/pommel?id="+p.ID, nil, &after)
	if rated != 1 || after.Plays != 1 {
		t.Fatalf("8 concurrent attempts: %d rated, the puzzle played %d times; want 1 and 1", rated, after.Plays)
	}
}

// TestPuzzleSignedOut: a signed-out attempt is rated from the rating the
// browser sends (a new player's without one), and moves no stored
// rating.
func TestPuzzleSignedOut(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	var p puzzleAnswer
	ts.getJSON("/api/puzzles/eximo?rating=1700", &p)
	var fresh, kept attemptAnswer
	code, body := ts.do("POST", "/api/puzzles/"+p.ID+"/attempt", "", map[string]any{"solved": true})
	if code != 200 || json.Unmarshal(body, &fresh) != nil || fresh.Rated || fresh.Rating <= 1500 || fresh.Change <= 0 {
		t.Fatalf("a signed-out new player's solve: %d %s; want 200, unrated, above 1500", code, body)
	}
	sent := map[string]any{"rating": fresh.Rating, "rd": fresh.RD, "volatility": fresh.Volatility}
	code, body = ts.do("POST", "/api/puzzles/"+p.ID+"/attempt", "", map[string]any{"solved": false, "rating": sent})
	if code != 200 || json.Unmarshal(body, &kept) != nil || kept.Rated || kept.Rating >= fresh.Rating || kept.RD >= fresh.RD {
		t.Fatalf("a signed-out fail from %+v: %d %s; want unrated, lower, surer", fresh, code, body)
	}
	var after puzzleAnswer
	ts.getJSON("/api/puzzles/eximo?id="+p.ID, &after)
	if after.Plays != 0 || after.Rating != p.Rating {
		t.Fatalf("the puzzle after signed-out attempts: %+v; want it as it was (%.1f, 0 plays)", after, p.Rating)
	}
}

// TestPuzzleStreakUnrated: streak mode chooses by the streak, and its
// attempts change no rating, an account's or the puzzle's.
func TestPuzzleStreakUnrated(t *testing.T) {
	ts := newAccountServer(t)
	ada := ts.signUp("Ada")
	var first, later puzzleAnswer
	ada.must(200, "GET", "/api/puzzles/pommel-76?streak=0", nil, &first)
	ada.must(200, "GET", "/api/puzzles/pommel-76?streak=10000", nil, &later)
	if later.Rating < first.Rating {
		t.Fatalf("streak 10000's puzzle is rated %.1f, below streak 0's %.1f", later.Rating, first.Rating)
	}
	var a attemptAnswer
	ada.must(200, "POST", "/api/puzzles/"+first.ID+"/attempt", map[string]any{"solved": true, "mode": "streak"}, &a)
	if a.Rated || a.Rating != 1500 || a.Change != 0 || a.Puzzle.Rating != first.Rating {
		t.Fatalf("a streak attempt: %+v; want unrated, 1500, the puzzle at %.1f", a, first.Rating)
	}
	// Not counted as the account's attempt either: its rated one still is.
	ada.must(200, "POST", "/api/puzzles/"+first.ID+"/attempt", map[string]any{"solved": true}, &a)
	if !a.Rated {
		t.Fatalf("the rated attempt after a streak one: %+v; want rated", a)
	}
}

// TestPuzzleThemeFilter: with a theme, every puzzle chosen has it.
func TestPuzzleThemeFilter(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	var sets puzzleSets
	ts.getJSON("/api/puzzles", &sets)
	for _, g := range sets.Games {
		for _, th := range g.Themes {
			for _, q := range []string{"", "&streak=0", "&rating=2500"} {
				var p puzzleAnswer
				ts.getJSON("/api/puzzles/"+g.Game+"?theme="+th.Theme+q, &p)
				if !slices.Contains(p.Themes, th.Theme) {
					t.Errorf("%s with theme %s%s: puzzle %s has themes %v", g.Game, th.Theme, q, p.ID, p.Themes)
				}
			}
		}
	}
}

// TestPuzzleRefusals: each refusal, with its status and code.
func TestPuzzleRefusals(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	var p puzzleAnswer
	ts.getJSON("/api/puzzles/eximo", &p)
	long := strings.Repeat("x", 300)
	attempt := "/api/puzzles/" + p.ID + "/attempt"
	tests := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"unknown game", "GET", "/api/puzzles/chess", nil, 404, codeNotFound},
		{"long game", "GET", "/api/puzzles/" + long, nil, 404, codeNotFound},
		{"unknown id", "GET", "/api/puzzles/eximo?id=eximo-0000000000", nil, 404, codeNotFound},
		{"another game's id", "GET", "/api/puzzles/pommel?id=" + p.ID, nil, 404, codeNotFound},
		{"long id", "GET", "/api/puzzles/eximo?id=" + long, nil, 404, codeNotFound},
		{"unknown theme", "GET", "/api/puzzles/eximo?theme=nosuch", nil, 400, codeBadRequest},
		{"long theme", "GET", "/api/puzzles/eximo?theme=" + long, nil, 400, codeBadRequest},
		{"empty theme", "GET", "/api/puzzles/eximo?theme=", nil, 400, codeBadRequest},
		{"rating not a number", "GET", "/api/puzzles/eximo?rating=high", nil, 400, codeBadRequest},
		{"rating NaN", "GET", "/api/puzzles/eximo?rating=NaN", nil, 400, codeBadRequest},
		{"rating infinite", "GET", "/api/puzzles/eximo?rating=Inf", nil, 400, codeBadRequest},
		{"rating too high", "GET", "/api/puzzles/eximo?rating=4001", nil, 400, codeBadRequest},
		{"rating negative", "GET", "/api/puzzles/eximo?rating=-1", nil, 400, codeBadRequest},
		{"streak negative", "GET", "/api/puzzles/eximo?streak=-1", nil, 400, codeBadRequest},
		{"streak too long", "GET", "/api/puzzles/eximo?streak=10001", nil, 400, codeBadRequest},
		{"streak not a number", "GET", "/api/puzzles/eximo?streak=two", nil, 400, codeBadRequest},
		{"attempt at no puzzle", "POST", "/api/puzzles/eximo-0000000000/attempt", map[string]any{"solved": true}, 404, codeNotFound},
		{"attempt at a long id", "POST", "/api/puzzles/" + long + "/attempt", map[string]any{"solved": true}, 404, codeNotFound},
		{"malformed JSON", "POST", attempt, `{"solved": tru`, 400, codeBadRequest},
		{"not an object", "POST", attempt, `[true]`, 400, codeBadRequest},
		{"unknown field", "POST", attempt, map[string]any{"solved": true, "moves": 3}, 400, codeBadRequest},
		{"solved missing", "POST", attempt, map[string]any{"mode": "rated"}, 400, codeBadRequest},
		{"solved not a bool", "POST", attempt, map[string]any{"solved": "yes"}, 400, codeBadRequest},
		{"empty body", "POST", attempt, "", 400, codeBadRequest},
		{"unknown mode", "POST", attempt, map[string]any{"solved": true, "mode": "blitz"}, 400, codeBadRequest},
		{"NaN rating", "POST", attempt, `{"solved": true, "rating": {"rating": NaN, "rd": 100, "volatility": 0.06}}`, 400, codeBadRequest},
		{"overflowing rating", "POST", attempt, `{"solved": true, "rating": {"rating": 1e400, "rd": 100, "volatility": 0.06}}`, 400, codeBadRequest},
		{"huge rating", "POST", attempt, map[string]any{"solved": true, "rating": map[string]any{"rating": 1e300, "rd": 100, "volatility": 0.06}}, 400, codeBadRequest},
		{"rd too small", "POST", attempt, map[string]any{"solved": true, "rating": map[string]any{"rating": 1500, "rd": 10, "volatility": 0.06}}, 400, codeBadRequest},
		{"rd too large", "POST", attempt, map[string]any{"solved": true, "rating": map[string]any{"rating": 1500, "rd": 351, "volatility": 0.06}}, 400, codeBadRequest},
		{"volatility zero", "POST", attempt, map[string]any{"solved": true, "rating": map[string]any{"rating": 1500, "rd": 100, "volatility": 0}}, 400, codeBadRequest},
		{"volatility too large", "POST", attempt, map[string]any{"solved": true, "rating": map[string]any{"rating": 1500, "rd": 100, "volatility": 0.5}}, 400, codeBadRequest},
		{"rating incomplete", "POST", attempt, map[string]any{"solved": true, "rating": map[string]any{"rating": 1500}}, 400, codeBadRequest},
		{"oversized body", "POST", attempt, `{"solved": true, "mode": "` + strings.Repeat("r", 1<<20) + `"}`, 413, codeTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := ts.do(tt.method, tt.path, "", tt.body)
			if code != tt.status || errorCode(body) != tt.code {
				t.Fatalf("%s %s: %d %s; want %d %s", tt.method, tt.path, code, body, tt.status, tt.code)
			}
			if strings.Contains(string(body), strings.Repeat("x", 81)) {
				t.Fatalf("the refusal quotes more than 80 characters: %s", body)
			}
		})
	}
	code, body := ts.doWith("POST", attempt, "", http.Header{"Content-Type": {"text/plain"}}, `{"solved": true}`)
	if code != http.StatusUnsupportedMediaType {
		t.Fatalf("a text/plain attempt: %d %s; want 415", code, body)
	}
}

// TestPuzzleAccountDeletedRatingsGone: deleting an account removes its
// puzzle ratings; signing up again under another name starts afresh.
func TestPuzzleAccountDeletedRatingsGone(t *testing.T) {
	ts := newAccountServer(t)
	ada := ts.signUp("Ada")
	var p puzzleAnswer
	ada.must(200, "GET", "/api/puzzles/eximo", nil, &p)
	ada.must(200, "POST", "/api/puzzles/"+p.ID+"/attempt", map[string]any{"solved": true}, nil)
	mine, err := ts.store.PuzzleRatings(t.Context(), accountIDOf(t, ts, "Ada"))
	if err != nil || len(mine) != 1 {
		t.Fatalf("Ada's puzzle ratings: %+v, %v; want one", mine, err)
	}
	id := accountIDOf(t, ts, "Ada")
	code, body := ada.call("DELETE", "/api/account", map[string]string{"password": "correct-horse-Ada"})
	if code/100 != 2 {
		t.Fatalf("DELETE /api/account: %d %s", code, body)
	}
	if mine, err := ts.store.PuzzleRatings(t.Context(), id); err != nil || len(mine) != 0 {
		t.Fatalf("a deleted account's puzzle ratings: %+v, %v; want none", mine, err)
	}
	if ids, err := ts.store.AttemptedPuzzles(t.Context(), id, "eximo"); err != nil || len(ids) != 0 {
		t.Fatalf("a deleted account's attempts: %v, %v; want none", ids, err)
	}
}

func accountIDOf(t *testing.T, ts *testServer, name string) string {
	t.Helper()
	a, err := ts.store.AccountByName(t.Context(), name)
	if err != nil {
		t.Fatal(fmt.Errorf("account %s: %w", name, err))
	}
	return a.ID
}
