package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

func TestRateLevelsRefuses(t *testing.T) {
	dir := t.TempDir()
	notLevels := filepath.Join(dir, "notes.json")
	if err := os.WriteFile(notLevels, []byte("[1, 2]"), 0o600); err != nil {
		t.Fatal(err)
	}
	missingDir := filepath.Join(dir, "nosuch", "levels.json")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"pommel", "--games", "0"}, "--games 0: want a whole number from 1 to 100000"},
		{[]string{"pommel", "--games", "-2"}, "--games -2: want a whole number from 1 to 100000"},
		{[]string{"pommel", "--games", "100002"}, "--games 100002: want a whole number from 1 to 100000"},
		{[]string{"pommel", "--games", "99999999999999999999"}, "--games"},
		{[]string{"pommel", "--games", "many"}, `--games "many": want a whole number`},
		{[]string{"pommel", "--games", "3"}, "--games 3: want a multiple of 2"},
		{[]string{"punt-heks-match-3p", "--games", "4"}, "--games 4: want a multiple of 3"},
		{[]string{"pommel", "--opening", "-1"}, "--opening -1: want a whole number from 0 to 599"},
		{[]string{"pommel", "-o", "maxplies=10", "--opening", "10"}, "--opening 10: want a whole number from 0 to 9"},
		{[]string{"pommel", "--movetime", "-1s"}, "--movetime -1s: want a duration"},
		{[]string{"pommel", "--movetime", "25h"}, "--movetime 25h0m0s: want a duration"},
		{[]string{"pommel", "--movetime", "fast"}, `--movetime "fast": want a duration`},
		{[]string{"pommel", "--opening", "x"}, `--opening "x"`},
		{[]string{"pommel", "--seed", "-1"}, `--seed "-1"`},
		{[]string{"pommel", "--quiet=maybe"}, "--quiet"},
		{[]string{"pommel", "-o", "maxplies=0"}, "maxplies"},
		{[]string{"pommel", "-o", "colour=red"}, "colour"},
		{[]string{"nosuch"}, `unknown game "nosuch"`},
		{[]string{"pommel", "--out", notLevels}, "is not a levels file"},
		{[]string{"pommel", "--out", missingDir}, "its directory does not exist"},
		{[]string{"pommel", "--data", dir, "--db", "postgres://u@h/db"}, "--data and --db: give one"},
		{[]string{"pommel", "--db", "mysql://u@h/db"}, "--db: want a PostgreSQL URL"},
		{[]string{"pommel", "eximo"}, "accepts 1 arg"},
		{nil, "accepts 1 arg"},
	} {
		args := append([]string{"rate-levels"}, tt.args...)
		r := run(t, "", args...)
		if r.code == 0 || !strings.HasPrefix(r.errOut, "arbiter: ") || !strings.Contains(r.errOut, tt.want) ||
			strings.Count(r.errOut, "\n") != 1 || r.out != "" || leak.MatchString(r.errOut) {
			t.Errorf("arbiter %s: exit %d, stdout %q, stderr %q; want one line with %q", strings.Join(args, " "), r.code, r.out, r.errOut, tt.want)
		}
	}
	if data, err := os.ReadFile(notLevels); err != nil || string(data) != "[1, 2]" {
		t.Errorf("the refused --out file now holds %q (%v)", data, err)
	}
}

// TestRateLevelsStores: --data stores the ratings as the AI levels'
// accounts' in the server's database.
func TestRateLevelsStores(t *testing.T) {
	dir := t.TempDir()
	out := runOK(t, "rate-levels", "pommel", "-o", "maxplies=3", "--opening", "2", "--movetime", "1ms", "--games", "2", "-q", "--data", dir)
	if !strings.Contains(out, "stored as the ratings of ai-level-1 to ai-level-6 in pommel") {
		t.Fatalf("output %q", out)
	}
	st, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.Ratings(context.Background(), "ai-level-3")
	if err != nil || len(got) != 1 || got[0].Game != "pommel" || got[0].Rating != 1500 || got[0].Games != 8 {
		t.Fatalf("ai-level-3's ratings: %+v, %v", got, err)
	}
}

// TestRateLevelsMerges plays the levels in games cut short by maxplies
// (so the test is quick: every game a draw) and checks the table and the
// levels file: the game's levels written, another game's kept.
func TestRateLevelsMerges(t *testing.T) {
	out := filepath.Join(t.TempDir(), "levels.json")
	other := rating.LevelRating{Rating: 1234.5, RD: 80, Volatility: 0.06, Games: 12}
	kept, err := rating.Levels{"eximo": {"1": other}}.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, kept, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		id    string
		games string
		// played: how many games each level played, by the pairings.
		played []int
	}{
		{"pommel", "2", []int{4, 6, 8, 8, 6, 4}},
		{"punt-heks-match-3p", "3", []int{6, 9, 12, 12, 9, 6}},
	} {
		table := runOK(t, "rate-levels", tt.id, "-o", "maxplies=3", "--opening", "2", "--movetime", "1ms",
			"--games", tt.games, "-q", "--out", out)
		rows := lines(t, table)
		if len(rows) != 7 || !strings.HasPrefix(rows[0], "level") {
			t.Fatalf("%s: table\n%s\nwant a header and six levels", tt.id, table)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		levels, err := rating.ParseLevels(data)
		if err != nil {
			t.Fatalf("%s: the levels file: %v", tt.id, err)
		}
		if levels["eximo"]["1"] != other || len(levels["eximo"]) != 1 {
			t.Errorf("%s: the other game's levels became %+v", tt.id, levels["eximo"])
		}
		for n, games := range tt.played {
			got, ok := levels[tt.id][strconv.Itoa(n+1)]
			// Every game a draw: every level rated 1500.
			if !ok || got.Rating != 1500 || got.RD < rating.MinRD || got.Volatility != rating.StartVolatility || got.Games != games {
				t.Errorf("%s level %d: %+v, want 1500 after %d drawn games, RD at least %d", tt.id, n+1, got, games, rating.MinRD)
			}
			if fields := strings.Fields(rows[n+1]); len(fields) != 5 || fields[3] != strconv.Itoa(games) || fields[4] != "50.0%" {
				t.Errorf("%s: table row %q, want %d games and a score of 50.0%%", tt.id, rows[n+1], games)
			}
		}
	}
}

func TestLevelPairings(t *testing.T) {
	for _, tt := range []struct {
		players int
		want    [][]int
	}{
		{2, [][]int{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {1, 3}, {2, 4}, {3, 5}, {4, 6}}},
		{3, [][]int{{1, 2, 3}, {2, 3, 4}, {3, 4, 5}, {4, 5, 6}, {1, 3, 5}, {2, 4, 6}}},
	} {
		if got := levelPairings(tt.players); !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("levelPairings(%d) = %v, want %v", tt.players, got, tt.want)
		}
	}
}

// TestPlayerPlaces: places by score in a scored game, else the winners
// first; the players sit in rotated seats.
func TestPlayerPlaces(t *testing.T) {
	win := func(seats ...game.Player) game.PlayerSet {
		var s game.PlayerSet
		for _, p := range seats {
			s = s.Add(p)
		}
		return s
	}
	for _, tt := range []struct {
		name   string
		result game.Result
		seats  []game.Player
		want   []int
	}{
		{"two players, seat 1 wins", game.Win(1, game.NoMoves), []game.Player{1, 0}, []int{1, 2}},
		{"two players, a draw", game.DrawBy(game.PlyCap), []game.Player{0, 1}, []int{1, 1}},
		{"three players, one winner", game.Win(2, game.NoMoves), []game.Player{0, 1, 2}, []int{2, 2, 1}},
		{"three players, two share the win", game.Result{Reason: game.NoMoves, Winners: win(0, 2)}, []game.Player{2, 0, 1}, []int{1, 1, 3}},
		{"three players scored", game.Result{Reason: game.Scored, Winners: win(1), Scores: [game.MaxPlayers]int{3, 9, 5}},
			[]game.Player{1, 2, 0}, []int{1, 2, 3}},
		{"three players scored, a tie below", game.Result{Reason: game.Scored, Winners: win(0), Scores: [game.MaxPlayers]int{7, 2, 2}},
			[]game.Player{0, 1, 2}, []int{1, 2, 2}},
	} {
		if got := playerPlaces(tt.result, tt.seats); !slices.Equal(got, tt.want) {
			t.Errorf("%s: places %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRateLevelsLimits: levels 1 to 5 search to their depth whatever the
// match's limits, as the hall plays them; level 6 for --movetime.
func TestRateLevelsLimits(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	f := rateLevelsFlags{games: 2, moveTime: 250 * time.Millisecond}
	cfg := f.config(g, []int{5, 6})
	for k, want := range []ai.Limits{{}, {MoveTime: 250 * time.Millisecond}} {
		e, err := cfg.Players[k].New(1)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := e.(ownLimits); !ok || got.lim != want || got.Name() != cfg.Players[k].Name {
			t.Errorf("%s: engine %#v, want limits %+v", cfg.Players[k].Name, e, want)
		}
	}
}
