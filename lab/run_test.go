package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/record"
)

func engine(spec string) Player {
	return Player{Spec: spec, New: func(seed uint64) (ai.Engine, error) { return ai.New(spec, seed) }}
}

// smallRun is a quick run: Pommel between ab at depth 1 and random.
func smallRun(t *testing.T, games int) Config {
	return Config{Game: newGame(t, "pommel"), Players: []Player{engine("ab"), engine("random")}, Games: games,
		Limits: ai.Limits{Depth: 1}, Seed: 3, OpeningPlies: 2, Date: "2026.01.02"}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// timeless is games.jsonl without the searches' times, which no two runs
// share.
func timeless(t *testing.T, dir string) string {
	return regexp.MustCompile(`"us":[0-9]+`).ReplaceAllString(string(readFile(t, filepath.Join(dir, GamesFile))), `"us":0`)
}

func TestRunWritesEveryFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := smallRun(t, 4)
	cfg.Concurrency = 2
	var calls []int
	sum, err := Run(context.Background(), cfg, dir, func(played, total int) { calls = append(calls, played, total) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 4, 1, 4, 2, 4, 3, 4, 4, 4}; !slicesEqual(calls, want) {
		t.Errorf("progress calls %v, want %v", calls, want)
	}
	// The contract's summary fields, read back as plain JSON.
	var js map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, SummaryFile)), &js); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"game", "options", "games", "distinct", "draws", "wins", "plies"} {
		if _, ok := js[key]; !ok {
			t.Errorf("summary.json has no %q", key)
		}
	}
	wins := js["wins"].(map[string]any)
	if js["game"] != "pommel" || js["games"] != 4.0 || js["plies"].(map[string]any)["mean"] != sum.Plies.Mean ||
		wins["White"].(float64)+wins["Black"].(float64)+js["draws"].(float64) != 4 {
		t.Errorf("summary.json: %v", js)
	}
	recs, err := record.Read(bytes.NewReader(readFile(t, filepath.Join(dir, RecordFile))))
	if err != nil || len(recs) != 4 {
		t.Fatalf("games.pdn: %d records, %v", len(recs), err)
	}
	plies := 0
	for i, r := range recs {
		if _, err := r.Replay(i + 1); err != nil {
			t.Errorf("game %d does not replay: %v", i+1, err)
		}
		if r.Get("Result") == "*" || r.Get("Round") != itoa(i+1) {
			t.Errorf("game %d: Result %q, Round %q", i+1, r.Get("Result"), r.Get("Round"))
		}
		plies += len(r.Moves)
	}
	// ab sits White in games 1 and 3, as the seats rotate.
	if recs[0].Get("White") != "ab" || recs[1].Get("White") != "random" || recs[2].Get("White") != "ab" {
		t.Errorf("seats not rotated: %s, %s, %s", recs[0].Get("White"), recs[1].Get("White"), recs[2].Get("White"))
	}
	if n := bytes.Count(readFile(t, filepath.Join(dir, GamesCSV)), []byte("\n")); n != 5 {
		t.Errorf("games.csv has %d lines, want a header and 4", n)
	}
	if n := bytes.Count(readFile(t, filepath.Join(dir, PliesCSV)), []byte("\n")); n != plies+1 {
		t.Errorf("plies.csv has %d lines, want a header and %d", n, plies)
	}
}

func TestSelfPlayGivesEveryGameItsOpening(t *testing.T) {
	dir := t.TempDir()
	cfg := smallRun(t, 4)
	cfg.Players = []Player{engine("ab")} // deterministic at depth 1
	if _, err := Run(context.Background(), cfg, dir, nil); err != nil {
		t.Fatal(err)
	}
	games, err := readGames(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range games {
		key := strings.Join(d.Opening, " ")
		if seen[key] || d.Seats[0] != "ab" || d.Seats[1] != "ab" {
			t.Errorf("game %d: opening %s seen before, or seats %v", d.Index+1, key, d.Seats)
		}
		seen[key] = true
	}
}

func TestRunResumes(t *testing.T) {
	whole, part := t.TempDir(), t.TempDir()
	if _, err := Run(context.Background(), smallRun(t, 5), whole, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), smallRun(t, 3), part, nil); err != nil {
		t.Fatal(err)
	}
	first := timeless(t, part)
	// A run killed while writing a game leaves half a line: it is dropped.
	f, err := os.OpenFile(filepath.Join(part, GamesFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"index":3,"seats":["ab"`)
	f.Close()
	var total int
	sum, err := Run(context.Background(), smallRun(t, 5), part, func(_, n int) { total = n })
	if err != nil {
		t.Fatal(err)
	}
	if total != 2 || sum.Games != 5 {
		t.Errorf("the continued run played %d games and holds %d, want 2 and 5", total, sum.Games)
	}
	if got := timeless(t, part); !strings.HasPrefix(got, first) || got != timeless(t, whole) {
		t.Errorf("the continued run differs from the run played in one go:\n%s\nwant\n%s", got, timeless(t, whole))
	}
	// Once complete, running again plays nothing.
	if _, err := Run(context.Background(), smallRun(t, 5), part, func(_, n int) { total = n }); err != nil || total != 0 {
		t.Errorf("a complete run played %d more games (%v)", total, err)
	}
}

func TestRunRefuses(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(context.Background(), smallRun(t, 2), dir, nil); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	cfg := func(change func(*Config)) Config {
		c := smallRun(t, 2)
		change(&c)
		return c
	}
	tests := []struct {
		name string
		cfg  Config
		dir  string
		want string
	}{
		{"another seed", cfg(func(c *Config) { c.Seed = 4 }), dir, "holds another run (seed 3 there, 4 here)"},
		{"another option", cfg(func(c *Config) { c.Game = newGameWith(t, "pommel", "hop", "any") }), dir, "options first=white hop=friendly maxplies=600 swap=off there, first=white hop=any maxplies=600 swap=off here"},
		{"another engine", cfg(func(c *Config) { c.Players[1] = engine("ab") }), dir, "players [ab random] there, [ab ab] here"},
		{"a shard of it", cfg(func(c *Config) { c.Shard = Shard{0, 2} }), dir, "shard all there, 0/2 here"},
		{"fewer games", cfg(func(c *Config) { c.Games = 1 }), dir, "give --games 2 or more"},
		{"a folder of other files", smallRun(t, 2), other, "holds files but no run.json"},
		{"three players for two seats", cfg(func(c *Config) { c.Players = append(c.Players, engine("ab")) }), t.TempDir(),
			"3 players for pommel: give one (it plays every seat) or one per seat (2)"},
		{"no games", cfg(func(c *Config) { c.Games = 0 }), t.TempDir(), "a run of 0 games: want 1 or more"},
		{"no limit", cfg(func(c *Config) { c.Limits = ai.Limits{} }), t.TempDir(), "the engines need a limit"},
		{"a long opening", cfg(func(c *Config) { c.OpeningPlies = 600 }), t.TempDir(), "want 0 to 599"},
		{"a bad shard", cfg(func(c *Config) { c.Shard = Shard{2, 2} }), t.TempDir(), "shard 2/2: want I/N"},
	}
	for _, tt := range tests {
		if _, err := Run(context.Background(), tt.cfg, tt.dir, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.want)
		}
	}
	if n := strings.Count(timeless(t, dir), "\n"); n != 2 {
		t.Errorf("the refusals changed the run: %d games", n)
	}
}

func TestRunStoppedKeepsItsGames(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Run(ctx, smallRun(t, 4), dir, func(played, _ int) {
		if played == 1 {
			cancel()
		}
	})
	if err == nil || !strings.Contains(err.Error(), "run the same command again to continue") {
		t.Fatalf("a stopped run: %v", err)
	}
	games, err := readGames(dir)
	if err != nil || len(games) != 1 {
		t.Errorf("kept %d games (%v), want the one played", len(games), err)
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("1/3"); err != nil || s != (Shard{1, 3}) || s.String() != "1/3" || !s.Has(4) || s.Has(3) {
		t.Errorf("ParseShard(1/3) = %v, %v", s, err)
	}
	for _, text := range []string{"3/3", "-1/2", "1", "a/b", "0/0", ""} {
		if _, err := ParseShard(text); err == nil || !strings.Contains(err.Error(), "want I/N with 0 <= I < N") {
			t.Errorf("ParseShard(%q): %v", text, err)
		}
	}
}

func TestReportIsOnePageWithInlinePlots(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(context.Background(), smallRun(t, 3), dir, nil); err != nil {
		t.Fatal(err)
	}
	page := string(readFile(t, filepath.Join(dir, ReportFile)))
	for _, banned := range []string{"http:", "https:", "src=", "href=", "<script", "<link", "@import", "<?xml"} {
		if strings.Contains(page, banned) {
			t.Errorf("report.html holds %q: it must stand alone", banned)
		}
	}
	for _, want := range []string{"<!doctype html>", "<h1>pommel", "White wins", "Black wins", "Results by seat", "Game length",
		"Branching over the game", "Evaluation over the game", "chains (captures of more than one leg)", "limits: depth 1",
		"Who wins: the player with the", "How games are won"} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 7 {
		t.Errorf("report.html has %d inline SVG plots, want 7 (results, length, branching, evaluation, pieces, "+
			"static evaluation, who wins)", n)
	}
}
