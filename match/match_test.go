package match

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

func player(name, spec string) Player {
	return Player{Name: name, New: func(seed uint64) (ai.Engine, error) { return ai.New(spec, seed) }}
}

var searchNote = regexp.MustCompile(`^\{([+-][0-9]+|win[0-9]+|loss[0-9]+)(/[0-9]+)? [0-9]+\.[0-9]{2}s\}$`)

func TestRunRotatesSeatsAndKeepsRecords(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Players: []Player{player("ab", "ab"), player("random", "random")},
		Games: 6, Concurrency: 2, Limits: ai.Limits{Depth: 2}, Seed: 5, OpeningPlies: 2}
	calls := 0
	sum, err := Run(context.Background(), cfg, func([]*GameLog) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 6 || sum.Players[0].Games != 6 || sum.Players[1].Games != 6 {
		t.Fatalf("calls %d, stats %+v", calls, sum.Players)
	}
	if sum.Players[0].Wins < 5 {
		t.Errorf("ab at depth 2 won %d of 6 against random", sum.Players[0].Wins)
	}
	checkLogs(t, cfg, sum)
	records := sum.Records()
	for i, r := range records {
		// Seats alternate: ab is White in even games, Black in odd ones.
		white := r.Get("White")
		if want := []string{"ab", "random"}[i%2]; white != want {
			t.Errorf("game %d: White is %s, want %s", i+1, white, want)
		}
		// Games i and i+1 share their opening.
		if i%2 == 1 && strings.Join(r.Moves[:2], " ") != strings.Join(records[i-1].Moves[:2], " ") {
			t.Errorf("games %d and %d open differently: %v / %v", i, i+1, records[i-1].Moves[:2], r.Moves[:2])
		}
		if _, err := r.Replay(i + 1); err != nil {
			t.Errorf("record %d does not replay: %v", i+1, err)
		}
		// Every move after the opening carries what its engine said:
		// ab's score and depth, random's score alone.
		if want := len(r.Moves) - cfg.OpeningPlies; len(r.Notes) != want {
			t.Errorf("game %d: %d comments for %d searched moves", i+1, len(r.Notes), want)
		}
		for _, n := range r.Notes {
			if !searchNote.MatchString(n.Text) || n.Ply <= cfg.OpeningPlies {
				t.Errorf("game %d: note %+v", i+1, n)
			}
		}
	}
	if !strings.Contains(sum.Table(), "ab ") {
		t.Errorf("table:\n%s", sum.Table())
	}
}

// TestElo checks the Elo difference and its 95% interval (Wilson's score
// interval, draws counting half, converted to Elo) from the edges to a
// long match. The expected values were worked out by hand from the
// formulas: a perfect score has an unbounded end and a finite one, an even
// score is 0, never -0.
func TestElo(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name                string
		wins, draws, losses int
		diff, lo, hi        float64
		text                string
	}{
		{"no games", 0, 0, 0, math.NaN(), math.NaN(), math.NaN(), "-"},
		{"6-0", 6, 0, 0, inf, 77.46, inf, "+inf [+77, +inf]"},
		{"0-6", 0, 0, 6, -inf, -inf, -77.46, "-inf [-inf, -77]"},
		{"1-1", 1, 0, 1, 0, -392.52, 392.52, "0 [-393, +393]"},
		{"3-1-1", 3, 1, 1, 147.19, -148.19, 442.57, "+147 [-148, +443]"},
		{"50-30-20", 50, 30, 20, 107.54, 36.65, 178.43, "+108 [+37, +178]"},
		{"75-0-25", 75, 0, 25, 190.85, 112.87, 268.82, "+191 [+113, +269]"},
		{"500-300-200", 500, 300, 200, 107.54, 84.98, 130.10, "+108 [+85, +130]"},
	}
	near := func(got, want float64) bool {
		switch {
		case math.IsNaN(want):
			return math.IsNaN(got)
		case math.IsInf(want, 0):
			return got == want
		}
		return math.Abs(got-want) < 0.01
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Stats{Games: tt.wins + tt.draws + tt.losses, Wins: tt.wins, Draws: tt.draws, Losses: tt.losses,
				Points: float64(tt.wins) + float64(tt.draws)/2}
			d, lo, hi := s.Elo()
			if !near(d, tt.diff) || !near(lo, tt.lo) || !near(hi, tt.hi) {
				t.Errorf("Elo() = %.2f [%.2f, %.2f], want %.2f [%.2f, %.2f]", d, lo, hi, tt.diff, tt.lo, tt.hi)
			}
			if got := s.EloText(); got != tt.text {
				t.Errorf("EloText() = %q, want %q", got, tt.text)
			}
		})
	}
}

// TestEloIntervalNarrows: the same score over more games gives a narrower
// interval, always around the estimate.
func TestEloIntervalNarrows(t *testing.T) {
	width := math.Inf(1)
	for _, n := range []int{4, 20, 100, 1000, 10000} {
		s := Stats{Games: n, Points: 0.6 * float64(n)}
		d, lo, hi := s.Elo()
		if !(lo < d && d < hi) || hi-lo >= width {
			t.Errorf("%d games: %.1f [%.1f, %.1f], previous width %.1f", n, d, lo, hi, width)
		}
		width = hi - lo
	}
}

// TestRunRefusesBadConfig: a match that cannot be played is an error, not
// a panic.
func TestRunRefusesBadConfig(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	two := []Player{player("a", "random"), player("b", "random")}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"negative games", Config{Game: g, Players: two, Games: -3}, "-3 games"},
		{"no games", Config{Game: g, Players: two, Games: 0}, "0 games"},
		{"negative opening", Config{Game: g, Players: two, Games: 1, OpeningPlies: -2}, "-2 plies"},
		{"one player", Config{Game: g, Players: two[:1], Games: 1}, "seats 2 players"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(context.Background(), tt.cfg, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestTableShowsInterval: the two-player table shows the interval, never
// a "± 0" or a "-0".
func TestTableShowsInterval(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := summaryOf(g, []string{"a", "b"}, 6, func(i int) game.Player { return 0 }, func(i int) string { return fmt.Sprint(i) })
	table := sum.Table()
	for _, want := range []string{"Elo [95% interval]", "+inf [+77, +inf]", "-inf [-inf, -77]"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	even := summaryOf(g, []string{"a", "b"}, 2, func(i int) game.Player { return game.Player(i) }, func(i int) string { return fmt.Sprint(i) })
	if table := even.Table(); strings.Contains(table, "-0") || strings.Contains(table, "±") || !strings.Contains(table, "0 [-393, +393]") {
		t.Errorf("1-1 table:\n%s", table)
	}
}

// TestTableCountsDistinctGames: six games that are one game played six
// times are n = 1, and the interval is that of one game, with a warning;
// six different games are n = 6 and no warning.
func TestTableCountsDistinctGames(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	winsA := func(int) game.Player { return 0 }
	tests := []struct {
		name      string
		moves     func(i int) string
		n         int
		elo, warn string
	}{
		// One win in one game: Wilson's interval starts at 0.206, Elo -234.
		{"one game six times", func(int) string { return "a1-a3" }, 1, "+inf [-234, +inf]", "5 of the 6 games repeat"},
		{"six games", func(i int) string { return fmt.Sprint(i) }, 6, "+inf [+77, +inf]", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum := summaryOf(g, []string{"a", "b"}, 6, winsA, tt.moves)
			if got := len(sum.Distinct()); got != tt.n {
				t.Errorf("%d distinct games, want %d", got, tt.n)
			}
			table := sum.Table()
			if !strings.Contains(table, tt.elo) || !strings.Contains(table, fmt.Sprintf("%6d %6d %6d %6d %6d", 6, 6, 0, 0, tt.n)) {
				t.Errorf("table lacks n = %d and %q:\n%s", tt.n, tt.elo, table)
			}
			if got := sum.RepeatWarning(); tt.warn == "" && got != "" || !strings.Contains(got, tt.warn) {
				t.Errorf("warning %q, want %q", got, tt.warn)
			}
		})
	}
}

// summaryOf is a match of games between two named players, player a in
// the first seat, whose game i the seat winner(i) won after the moves
// moves(i): the players' stats tallied as Run tallies them.
func summaryOf(g game.Game, names []string, games int, winner func(i int) game.Player, moves func(i int) string) Summary {
	sum := Summary{Players: make([]Stats, len(names))}
	for k, name := range names {
		sum.Players[k].Name = name
	}
	for i := range games {
		l := &GameLog{Game: g, Round: i + 1, Seats: names, Players: []game.Player{0, 1},
			Moves: []Search{{Move: moves(i)}}, Result: game.Win(winner(i), game.NoMoves)}
		sum.Games = append(sum.Games, l)
		tally(sum.Players, l)
	}
	return sum
}

// checkLogs checks the structured log of every game against a replay:
// the seats, the opening, each search's seat, the result.
func checkLogs(t *testing.T, cfg Config, sum Summary) {
	t.Helper()
	for i, l := range sum.Games {
		if l == nil || l.Round != i+1 || len(l.Opening) != cfg.OpeningPlies || len(l.Seats) != 2 {
			t.Fatalf("game %d: log %+v", i+1, l)
		}
		// Player k sat in seat Players[k], named there.
		for k, p := range cfg.Players {
			if l.Seats[l.Players[k]] != p.Name {
				t.Errorf("game %d: player %s in seat %d, named %q there", i+1, p.Name, l.Players[k], l.Seats[l.Players[k]])
			}
		}
		s := cfg.Game.Start()
		if err := game.PlayMoves(s, l.Opening); err != nil {
			t.Fatal(err)
		}
		for j, m := range l.Moves {
			if m.Seat != s.ToMove() || m.Elapsed < 0 || m.Nodes < 1 {
				t.Errorf("game %d move %d: %+v with %d to move", i+1, j+1, m, s.ToMove())
			}
			if l.Seats[m.Seat] == "ab" && (m.Depth < 1 || m.Depth > 2) { // 1 when the move is forced
				t.Errorf("game %d move %d: ab searched to depth %d, not 1 or 2", i+1, j+1, m.Depth)
			}
			if err := game.PlayMoves(s, []string{m.Move}); err != nil {
				t.Fatalf("game %d move %d: %v", i+1, j+1, err)
			}
		}
		if s.Result() != l.Result || !l.Result.Over() {
			t.Errorf("game %d: logged result %+v, replayed %+v", i+1, l.Result, s.Result())
		}
	}
}

func TestPlayGivesRunsGames(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Players: []Player{player("a", "ab"), player("r", "random")},
		Games: 4, Limits: ai.Limits{Depth: 1}, Seed: 9, OpeningPlies: 2}
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := cfg.Games - 1; i >= 0; i-- { // in reverse: no game depends on another
		log, err := Play(context.Background(), cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		want := sum.Games[i]
		if strings.Join(log.Opening, " ") != strings.Join(want.Opening, " ") || len(log.Moves) != len(want.Moves) ||
			log.Seats[0] != want.Seats[0] || log.Result != want.Result || log.Round != want.Round {
			t.Errorf("game %d alone differs from the match's", i)
		}
	}
	for _, i := range []int{-1, 4} {
		if _, err := Play(context.Background(), cfg, i); err == nil || !strings.Contains(err.Error(), "want 0 to 3") {
			t.Errorf("Play(%d): %v, want a refusal naming 0 to 3", i, err)
		}
	}
}
