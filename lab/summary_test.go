package lab

import (
	"slices"
	"strconv"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

func newGame(t *testing.T, id string) game.Game {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestSummarizeTwoPlayers(t *testing.T) {
	g := newGame(t, "pommel")
	games := []GameStats{
		{Index: 0, Moves: []string{"a"}, Seats: []string{"a", "b"}, Winners: []int{0}, Reason: "no moves", Plies: 10, Decisions: 8, Captures: 2},
		{Index: 1, Moves: []string{"b"}, Seats: []string{"b", "a"}, Winners: []int{1}, Reason: "no pieces", Plies: 20, Decisions: 10, Captures: 4},
		{Index: 2, Moves: []string{"c"}, Seats: []string{"a", "b"}, Winners: []int{}, Reason: "repetition", Plies: 30, Decisions: 12, LeadChanges: 3},
		{Index: 3, Moves: []string{"d"}, Seats: []string{"b", "a"}, Winners: []int{}, Reason: "ply cap", Plies: 39, Decisions: 10, LeadChanges: 1},
	}
	plies := []PlyStats{{Game: 0, Ply: 1, Legal: 10}, {Game: 0, Ply: 2, Legal: 20, Searched: true, Eval: 40},
		{Game: 1, Ply: 1, Legal: 4}, {Game: 1, Ply: 2, Legal: 1, Searched: true, Eval: -20}}
	s := summarize(g, Manifest{Game: "pommel"}, games, plies)
	if s.Games != 4 || s.Distinct != 4 || s.Draws != 2 || s.Wins["White"] != 1 || s.Wins["Black"] != 1 || s.Shared != 0 {
		t.Errorf("games %d draws %d wins %v shared %d, want 4, 2, White 1 Black 1, 0", s.Games, s.Draws, s.Wins, s.Shared)
	}
	if s.DrawsBy["repetition"].Count != 1 || s.DrawsBy["ply cap"].Count != 1 || s.DrawsBy["ply cap"].Of != 4 ||
		s.Endings["no moves"] != 1 || len(s.DrawsBy) != 2 {
		t.Errorf("draws by %v, endings %v", s.DrawsBy, s.Endings)
	}
	// White: one win and two half points of four: a score of one half,
	// no edge.
	fp := s.FirstPlayer
	if fp.Seat != "White" || fp.Score.Rate != 0.5 || fp.Edge != 0 || !near(fp.Lo, NewRate(2, 4).Lo-0.5) {
		t.Errorf("first player %+v, want White scoring 0.5, edge 0", fp)
	}
	if s.Seats[0].Wins != NewRate(1, 4) || s.Seats[1].Seat != "Black" {
		t.Errorf("seats %+v", s.Seats)
	}
	if s.Plies.Mean != 24.75 || s.Plies.Median != 25 || s.Decisions.Mean != 10 {
		t.Errorf("plies %+v decisions %+v", s.Plies, s.Decisions)
	}
	if s.PerGame["captures"] != 1.5 || s.PerGame["leadChanges"] != 1 || s.PerGame["drops"] != 0 {
		t.Errorf("per game %v", s.PerGame)
	}
	// The longest game has 39 plies: buckets of one ply. Branching per ply: 7 at ply 1, 10.5 at ply 2; the evaluation is
	// averaged over searched plies only.
	if s.Branching.Mean != 8.75 || len(s.Branching.Buckets) != 2 || s.Branching.Buckets[0].Mean != 7 ||
		s.Branching.Buckets[1] != (Bucket{From: 2, To: 3, Count: 2, Mean: 10.5}) {
		t.Errorf("branching %+v", s.Branching)
	}
	if s.Eval.Mean != 10 || len(s.Eval.Buckets) != 1 || s.Eval.Buckets[0].From != 2 {
		t.Errorf("evaluation %+v", s.Eval)
	}
	if s.DecisionShare != 40.0/99 {
		t.Errorf("decision share %v", s.DecisionShare)
	}
	// a won games 1 (as White) and 2 (as Black) and drew 3 and 4.
	if len(s.ByPlayer) != 2 || s.ByPlayer[0].Name != "a" || s.ByPlayer[0].Wins != 2 || s.ByPlayer[0].Shared != 2 ||
		s.ByPlayer[1].Losses != 2 || s.ByPlayer[0].Score.Rate != 0.75 {
		t.Errorf("by player %+v", s.ByPlayer)
	}
}

func TestSummarizeThreePlayers(t *testing.T) {
	g := newGame(t, "punt-heks-match-3p")
	games := []GameStats{
		{Index: 0, Moves: []string{"a"}, Seats: []string{"x", "x", "x"}, Winners: []int{0}, Reason: "scored", Plies: 5},
		{Index: 1, Moves: []string{"b"}, Seats: []string{"x", "x", "x"}, Winners: []int{0, 2}, Reason: "scored", Plies: 5},
		{Index: 2, Moves: []string{"c"}, Seats: []string{"x", "x", "x"}, Winners: []int{}, Reason: "scored", Plies: 5},
	}
	s := summarize(g, Manifest{}, games, nil)
	// White: 1 + 1/2 + 1/3 of 3 games; its fair share is a third.
	want := (1 + 0.5 + 1.0/3) / 3
	if s.Wins["White"] != 1 || s.Wins["Red"] != 0 || s.Shared != 1 || s.Draws != 1 || !near(s.FirstPlayer.Score.Rate, want) ||
		!near(s.FirstPlayer.Edge, want-1.0/3) || s.ByPlayer != nil {
		t.Errorf("wins %v shared %d draws %d first %+v by player %v", s.Wins, s.Shared, s.Draws, s.FirstPlayer, s.ByPlayer)
	}
	if s.DrawsBy["scored"].Count != 1 || s.Plies.Mean != 5 || s.Branching.Buckets != nil {
		t.Errorf("draws by %v plies %+v branching %+v", s.DrawsBy, s.Plies, s.Branching)
	}
}

func newGameWith(t *testing.T, id, key, value string) game.Game {
	t.Helper()
	g, err := game.New(id, map[string]string{key: value})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func slicesEqual(a, b []int) bool { return slices.Equal(a, b) }

func itoa(n int) string { return strconv.Itoa(n) }
