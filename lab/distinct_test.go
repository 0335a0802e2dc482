package lab

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
)

// gameOf is one game's stats for the summaries below: its moves tell it
// apart from the others.
func gameOf(index int, moves string, seats []string, winners ...int) GameStats {
	reason := "no moves"
	if len(winners) == 0 {
		reason = "repetition"
	}
	return GameStats{Index: index, Moves: strings.Fields(moves), Seats: seats, Winners: append([]int{}, winners...),
		Reason: reason, Plies: len(strings.Fields(moves))}
}

func TestSummarizeCountsIdenticalGamesOnce(t *testing.T) {
	g := newGame(t, "pommel")
	self := []string{"ab", "ab"}
	same := func(n int) []GameStats {
		var games []GameStats
		for i := range n {
			games = append(games, gameOf(i, "a1-a2 b7-b6 c1-c2", self, 0))
		}
		return games
	}
	mix := append(same(3), gameOf(3, "a1-a2 b7-b6", self), gameOf(4, "a1-a2 b7-b5 c1-c2", self, 1))
	tests := []struct {
		name                        string
		games                       []GameStats
		distinct, whiteWins, draws  int
		whiteRate, firstScore, draw Rate
		pliesMean                   float64
	}{
		// Six identical White wins are one game: every interval is the
		// interval of one game.
		{"six identical games", same(6), 1, 6, 0, NewRate(1, 1), NewRate(1, 1), NewRate(0, 1), 3},
		{"one game", same(1), 1, 1, 0, NewRate(1, 1), NewRate(1, 1), NewRate(0, 1), 3},
		// Three identical White wins, a draw and a Black win: three
		// distinct games, White's score 1 + 1/2 of 3, their mean length 8/3
		// (not 14/5, the mean of the five played).
		{"a mix", mix, 3, 3, 1, NewRate(1, 3), shareRate(1.5, 3, 1), NewRate(1, 3), 8.0 / 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := summarize(g, Manifest{Game: "pommel"}, tt.games, nil)
			if s.Games != len(tt.games) || s.Distinct != tt.distinct || s.Wins["White"] != tt.whiteWins || s.Draws != tt.draws {
				t.Errorf("games %d distinct %d White wins %d draws %d, want %d, %d, %d, %d", s.Games, s.Distinct,
					s.Wins["White"], s.Draws, len(tt.games), tt.distinct, tt.whiteWins, tt.draws)
			}
			if s.Seats[0].Wins != tt.whiteRate || s.FirstPlayer.Score != tt.firstScore || s.DrawRate != tt.draw {
				t.Errorf("White wins %+v, first score %+v, draws %+v; want %+v, %+v, %+v", s.Seats[0].Wins,
					s.FirstPlayer.Score, s.DrawRate, tt.whiteRate, tt.firstScore, tt.draw)
			}
			if fair := 0.5; !near(s.FirstPlayer.Lo, tt.firstScore.Lo-fair) || !near(s.FirstPlayer.Hi, tt.firstScore.Hi-fair) {
				t.Errorf("edge [%v, %v], want the interval of %d distinct games", s.FirstPlayer.Lo, s.FirstPlayer.Hi, tt.distinct)
			}
			if !near(s.Plies.Mean, tt.pliesMean) {
				t.Errorf("mean length %v, want %v", s.Plies.Mean, tt.pliesMean)
			}
			warned := s.RepeatWarning() != ""
			if warned != (tt.distinct < len(tt.games)) || strings.Contains(Text(s), "warning:") != warned {
				t.Errorf("warning %q for %d of %d distinct games", s.RepeatWarning(), tt.distinct, len(tt.games))
			}
		})
	}
}

func TestDistinctGamesKeepsTheFirstAndItsPlies(t *testing.T) {
	self := []string{"x", "x"}
	games := []GameStats{gameOf(0, "a b", self, 0), gameOf(1, "a b", self, 0), gameOf(2, "a c", self)}
	plies := []PlyStats{{Game: 0, Ply: 1, Legal: 3}, {Game: 1, Ply: 1, Legal: 3}, {Game: 2, Ply: 1, Legal: 5}}
	kept, keptPlies := distinctGames(games, plies)
	if len(kept) != 2 || kept[0].Index != 0 || kept[1].Index != 2 || len(keptPlies) != 2 || keptPlies[1].Game != 2 {
		t.Errorf("kept games %+v plies %+v, want games 0 and 2 with their plies", kept, keptPlies)
	}
	// The same moves by the engines in swapped seats: one game for the
	// seats, two for the engines (each played it from both seats).
	swapped := []GameStats{gameOf(0, "a b", []string{"p", "q"}, 0), gameOf(1, "a b", []string{"q", "p"}, 0),
		gameOf(2, "a b", []string{"p", "q"}, 0)}
	s := summarize(newGame(t, "pommel"), Manifest{}, swapped, nil)
	if s.Distinct != 1 || len(s.ByPlayer) != 2 || s.ByPlayer[0].Games != 2 || s.ByPlayer[0].Wins != 1 {
		t.Errorf("distinct %d by player %+v, want 1 distinct game, p 1 win of 2", s.Distinct, s.ByPlayer)
	}
	// The same moves from two starts (a book's FEN lines) are two games.
	other := gameOf(1, "a b", self, 0)
	other.From = "W:Wa1:Bh8"
	if kept, _ := distinctGames([]GameStats{gameOf(0, "a b", self, 0), other}, nil); len(kept) != 2 {
		t.Errorf("kept %d games, want the same moves from two starts counted as two", len(kept))
	}
}

// TestRunOfIdenticalGames is the run in small: ab against itself
// with no opening plays the same game every time.
func TestRunOfIdenticalGames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := Config{Game: newGameWith(t, "pommel", "maxplies", "16"), Players: []Player{engine("ab")}, Games: 3,
		Limits: ai.Limits{Depth: 1}, Seed: 1, Date: "2026.01.02"}
	sum, err := Run(context.Background(), cfg, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var js struct{ Games, Distinct int }
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, SummaryFile)), &js); err != nil {
		t.Fatal(err)
	}
	text := Text(sum)
	if js.Games != 3 || js.Distinct != 1 || sum.DrawRate.Of != 1 ||
		!strings.Contains(text, "3 games, n = 1 distinct") || !strings.Contains(text, "warning: 2 of the 3 games repeat") {
		t.Errorf("summary.json games %d distinct %d, draws of %d, text:\n%s", js.Games, js.Distinct, sum.DrawRate.Of, text)
	}
	if page := string(readFile(t, filepath.Join(dir, ReportFile))); !strings.Contains(page, "<strong>1 distinct game</strong> (3 played)") ||
		!strings.Contains(page, "warning: 2 of the 3 games repeat") {
		t.Errorf("report.html gives neither n nor the warning")
	}
}
