package review

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// testNodes keeps the tests' searches cheap: a few milliseconds a
// position.
const testNodes = 5000

// pommelCurve is a fixed curve for the tests, so that they do not move
// when curves.json is fitted again: Pommel's evaluation scale.
var pommelCurve = Curve{Game: "pommel", Players: 2, K: 0.00889}

func mustGame(t *testing.T, id string) game.Game {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustFEN(t *testing.T, g game.Game, fen string) game.State {
	t.Helper()
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustMove(t *testing.T, s game.State, text string) game.Move {
	t.Helper()
	m, err := game.ParseMove(s, text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// bestGame plays plies moves from s, each the review search's own best
// move, and returns them.
func bestGame(t *testing.T, s game.State, plies int, cfg Config) []game.Move {
	t.Helper()
	s = s.Clone()
	var moves []game.Move
	for range plies {
		if s.Result().Over() {
			break
		}
		cfg, _, err := cfg.resolve(s.Game())
		if err != nil {
			t.Fatal(err)
		}
		info, err := search(context.Background(), s, len(s.Moves(nil)), cfg)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, info.Move)
		s.Play(info.Move)
	}
	return moves
}

// TestBlunderMarked: White, to move in
//
//	W:Wb3,b4,Kf4,g1:Bf2,f5,f6
//
// wins at once with the captain's leap f4xf7; taking the soldier on f2
// with g1xe2 instead gives the game away. Played at ply 0, that capture
// is a blunder, the best move and its line name the leap, and the
// replies that follow, each the search's best, are not marked.
func TestBlunderMarked(t *testing.T) {
	g := mustGame(t, "pommel")
	start := mustFEN(t, g, "W:Wb3,b4,Kf4,g1:Bf2,f5,f6")
	s := start.Clone()
	blunder := mustMove(t, s, "g1xe2")
	s.Play(blunder)
	cfg := Config{Nodes: testNodes, Curve: &pommelCurve}
	moves := append([]game.Move{blunder}, bestGame(t, s, 2, cfg)...)
	res, err := Game(context.Background(), g, start, moves, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Moves[0]
	if m.Ply != 0 || m.Seat != 0 || m.Move != "g1xe2" || m.Mark != Blunder || m.Best != "f4xf7" || m.Line[0] != "f4xf7" {
		t.Errorf("ply 0: %+v, want g1xe2 marked a blunder, best f4xf7", m)
	}
	if !strings.HasPrefix(m.ScoreText, "win") || m.WinChance != 1 || m.Drop < BlunderDrop || m.Loss <= 0 || m.Played >= m.Score {
		t.Errorf("ply 0: score %s, win chance %v, drop %v, loss %d: want a won position thrown away", m.ScoreText, m.WinChance, m.Drop, m.Loss)
	}
	for _, m := range res.Moves[1:] {
		if m.Mark != "" || m.Drop != 0 || m.Loss != 0 {
			t.Errorf("ply %d: %s marked %q (drop %v), want the best move unmarked", m.Ply, m.Move, m.Mark, m.Drop)
		}
	}
	if st := res.Seats[0]; st.Blunders != 1 || st.Mistakes != 0 || st.Moves != 2 || st.Accuracy >= 100 {
		t.Errorf("White: %+v, want one blunder in two moves", st)
	}
	if st := res.Seats[1]; st.Blunders+st.Mistakes+st.Inaccuracies != 0 || st.Accuracy != 100 {
		t.Errorf("Black: %+v, want no marks and accuracy 100", st)
	}
}

// TestMistakeMarked: in the same position f4xf1 takes a soldier but
// lets the win go, keeping White well ahead: a mistake, not a blunder.
func TestMistakeMarked(t *testing.T) {
	g := mustGame(t, "pommel")
	start := mustFEN(t, g, "W:Wb3,b4,Kf4,g1:Bf2,f5,f6")
	res, err := Game(context.Background(), g, start, []game.Move{mustMove(t, start, "f4xf1")}, Config{Nodes: testNodes, Curve: &pommelCurve})
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Moves[0]; m.Mark != Mistake {
		t.Errorf("f4xf1: %q (drop %v, after %v), want a mistake", m.Mark, m.Drop, m.After)
	}
}

// TestBestMovesOnly: a game of only the search's best moves has no
// marks, no loss and accuracy 100 for both seats, in every id.
func TestBestMovesOnly(t *testing.T) {
	ids := []string{"pommel", "eximo", "checkers-2011", "punt-match", "punt-heks-match-3p"}
	if testing.Short() {
		ids = ids[:1]
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			g := mustGame(t, id)
			curve := Curve{Game: id, Players: g.Players(), K: 0.005}
			cfg := Config{Nodes: 2000, Curve: &curve}
			moves := bestGame(t, g.Start(), 12, cfg)
			res, err := Game(context.Background(), g, g.Start(), moves, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range res.Moves {
				if m.Mark != "" || m.Drop != 0 || m.Loss != 0 || m.Best != m.Move {
					t.Errorf("ply %d: %+v, want the best move unmarked", m.Ply, m)
				}
			}
			for p, st := range res.Seats {
				if st.Accuracy != 100 || st.Inaccuracies+st.Mistakes+st.Blunders != 0 {
					t.Errorf("seat %d: %+v, want accuracy 100 and no marks", p, st)
				}
			}
		})
	}
}

// TestDeterministic: two reviews of one game, one after the other in
// one process, are identical to the last field; so are a review and
// one of the same game run concurrently with another review.
func TestDeterministic(t *testing.T) {
	g := mustGame(t, "pommel")
	start, moves, _, err := SelfPlay(context.Background(), g, 3, 0, 300, 8)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) > 30 {
		moves = moves[:30]
	}
	cfg := Config{Nodes: 2000, Curve: &pommelCurve}
	first, err := Game(context.Background(), g, start, moves, cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Result)
	go func() {
		r, _ := Game(context.Background(), g, start, moves, cfg)
		done <- r
	}()
	second, err := Game(context.Background(), g, start, moves, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Result{second, <-done} {
		if !reflect.DeepEqual(first, r) {
			t.Fatalf("two reviews differ:\n%+v\n%+v", first, r)
		}
	}
}

// TestForcedMoveNotMarked: a move that was the only legal one is
// Forced, never marked, and left out of the accuracy.
func TestForcedMoveNotMarked(t *testing.T) {
	g := mustGame(t, "pommel")
	// Black's soldier on c6 must take d5... find such a position in a
	// self-play game rather than by hand: the first with one move.
	start, moves, _, err := SelfPlay(context.Background(), g, 1, 0, 300, 8)
	if err != nil {
		t.Fatal(err)
	}
	s := start.Clone()
	forcedAt := -1
	for i, m := range moves {
		if len(s.Moves(nil)) == 1 {
			forcedAt = i
			break
		}
		s.Play(m)
	}
	if forcedAt < 0 {
		t.Fatal("the game has no forced move")
	}
	res, err := Game(context.Background(), g, start, moves[:forcedAt+1], Config{Nodes: 1000, Curve: &pommelCurve})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Moves[forcedAt]
	if !m.Forced || m.Mark != "" {
		t.Errorf("ply %d, the only move: forced %v, mark %q", m.Ply, m.Forced, m.Mark)
	}
	if st := res.Seats[m.Seat]; st.Forced < 1 {
		t.Errorf("seat %d: %+v, want its forced move counted", m.Seat, st)
	}
	// MarkOf alone would mark a drop that size; the forced move's drop
	// is set by hand here to show the rule, not the search, keeps it
	// unmarked.
	ms := []Move{{Seat: 0, Forced: true, Drop: 0.9}, {Seat: 0, Drop: 0}}
	if a := Accuracy(ms, 0); a != 100 {
		t.Errorf("a forced move's drop counted in the accuracy: %v", a)
	}
}

// TestTablePosition: with Pommel's tables of two pieces, a move that
// keeps the win reads "win in 17", one that throws it away "win in 17
// → loss in 2" and is a blunder; the scores are the tables' exact ones.
func TestTablePosition(t *testing.T) {
	g := mustGame(t, "pommel")
	_, tables := endgametest.Build(t, "pommel", nil, 2)
	start := mustFEN(t, g, "W:WKa4:Bc6")
	cfg := Config{Nodes: testNodes, Tables: tables, Curve: &pommelCurve}
	for _, tc := range []struct {
		move, table string
		mark        Mark
	}{
		{"a4-a5", "win in 17", ""},
		{"a4-c5", "win in 17 → loss in 2", Blunder},
	} {
		res, err := Game(context.Background(), g, start, []game.Move{mustMove(t, start, tc.move)}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		m := res.Moves[0]
		if m.Table != tc.table || m.Mark != tc.mark || m.Score != ai.Mate-17 {
			t.Errorf("%s: table %q, mark %q, score %d; want %q, %q, %d", tc.move, m.Table, m.Mark, m.Score, tc.table, tc.mark, ai.Mate-17)
		}
	}
	// TablesFor picks the folder of the game's id and rules.
	_, tables76 := endgametest.Build(t, "pommel-76", nil, 2)
	if TablesFor([]*endgame.Tables{tables76, tables}, g) != tables || TablesFor([]*endgame.Tables{tables76}, g) != nil {
		t.Error("TablesFor picked the wrong folder")
	}
	// Without tables, no table text.
	res, err := Game(context.Background(), g, start, []game.Move{mustMove(t, start, "a4-a5")}, Config{Nodes: testNodes, Curve: &pommelCurve})
	if err != nil {
		t.Fatal(err)
	}
	if res.Moves[0].Table != "" {
		t.Errorf("no tables: table %q", res.Moves[0].Table)
	}
}

// TestTableWinThrownToDraw: with Pommel's tables of three pieces, Black
// to move in
//
//	B:WKa2:Ba6,Kd4
//
// wins in 7 plies; the captain's d4-a5 lets it go to a draw: "win in 7
// → draw", the score the tables' exact one, the played move scored 0,
// and a blunder (the expected score falls from 1 to 1/2).
func TestTableWinThrownToDraw(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: tables of three pieces take a second or two to build")
	}
	g := mustGame(t, "pommel")
	_, tables := endgametest.Build(t, "pommel", nil, 3)
	start := mustFEN(t, g, "B:WKa2:Ba6,Kd4")
	res, err := Game(context.Background(), g, start, []game.Move{mustMove(t, start, "d4-a5")}, Config{Nodes: testNodes, Tables: tables, Curve: &pommelCurve})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Moves[0]
	if m.Table != "win in 7 → draw" || m.Score != ai.Mate-7 || m.Played != 0 || m.Mark != Blunder || m.Seat != 1 {
		t.Errorf("d4-a5: %+v, want \"win in 7 → draw\" from %d to 0, a blunder by Black", m, ai.Mate-7)
	}
}

// TestThreePlayers: a three-player game's review has a seat for each
// player, every move judged from its mover's point of view, and marks
// by the same rule.
func TestThreePlayers(t *testing.T) {
	g := mustGame(t, "punt-heks-match-3p")
	start, moves, _, err := SelfPlay(context.Background(), g, 1, 0, 200, 8)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) > 24 {
		moves = moves[:24]
	}
	curve := Curve{Game: g.ID(), Players: 3, K: 0.00276}
	res, err := Game(context.Background(), g, start, moves, Config{Nodes: 1000, Curve: &curve})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Seats) != 3 {
		t.Fatalf("%d seats, want 3", len(res.Seats))
	}
	s := start.Clone()
	for i, m := range res.Moves {
		if m.Seat != s.ToMove() {
			t.Errorf("ply %d: seat %d, want %d to move", m.Ply, m.Seat, s.ToMove())
		}
		if m.Drop != max(0, m.WinChance-m.After) || m.Mark != MarkOf(m.Drop) && !m.Forced || m.WinChance != curve.Expected(m.Score) {
			t.Errorf("ply %d: %+v: marks not by the rule", m.Ply, m)
		}
		s.Play(moves[i])
	}
	total := 0
	for _, st := range res.Seats {
		total += st.Moves
		if st.Moves == 0 || st.Accuracy < 0 || st.Accuracy > 100 {
			t.Errorf("seat %+v", st)
		}
	}
	if total != len(moves) {
		t.Errorf("%d moves counted, want %d", total, len(moves))
	}
}

// TestRefusals: what Game refuses, each with its reason.
func TestRefusals(t *testing.T) {
	g := mustGame(t, "pommel")
	start := mustFEN(t, g, "W:Wb3,b4,Kf4,g1:Bf2,f5,f6")
	legal := []game.Move{mustMove(t, start, "f4xf7")}
	other := mustGame(t, "eximo")
	_, tables76 := endgametest.Build(t, "pommel-76", nil, 2)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	wrongGame := Curve{Game: "eximo", Players: 2, K: 0.01}
	noScale := Curve{Game: "pommel", Players: 2}
	// A move of another position: not legal here.
	illegal := mustMove(t, g.Start(), game.MoveTexts(g.Start())[0])
	played, finished, _, err := SelfPlay(context.Background(), g, 1, 0, 200, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		start game.State
		moves []game.Move
		cfg   Config
		want  string
	}{
		{"too many nodes", context.Background(), start, legal, Config{Nodes: MaxNodes + 1}, "nodes"},
		{"negative nodes", context.Background(), start, legal, Config{Nodes: -1}, "nodes"},
		{"another game's start", context.Background(), other.Start(), legal, Config{Nodes: 100}, "start position"},
		{"another game's tables", context.Background(), start, legal, Config{Nodes: 100, Tables: tables76}, "tables"},
		{"another game's curve", context.Background(), start, legal, Config{Nodes: 100, Curve: &wrongGame}, "curve"},
		{"a curve without a scale", context.Background(), start, legal, Config{Nodes: 100, Curve: &noScale}, "scale"},
		{"an illegal move", context.Background(), start, []game.Move{illegal}, Config{Nodes: 100}, "not legal"},
		{"a move after the end", context.Background(), played, append(slices.Clone(finished), illegal), Config{Nodes: 100}, "over"},
		{"cancelled", cancelled, start, legal, Config{Nodes: 100}, "canceled"},
	} {
		_, err := Game(tc.ctx, g, tc.start, tc.moves, tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error about %q", tc.name, err, tc.want)
		}
		if tc.name == "cancelled" && !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v is not context.Canceled", err)
		}
	}
}

// TestEmptyGame: a game with no moves reviews to no moves and every
// seat at 100.
func TestEmptyGame(t *testing.T) {
	g := mustGame(t, "eximo")
	res, err := Game(context.Background(), g, g.Start(), nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Moves) != 0 || len(res.Seats) != 2 || res.Seats[0].Accuracy != 100 || res.Nodes != DefaultNodes || res.Curve.Game != "eximo" {
		t.Errorf("%+v", res)
	}
}

// TestCurve: a two-player curve is 1/2 at 0 and a three-player one 1/3,
// both rise with the score, and forced results are 1 and 0.
func TestCurve(t *testing.T) {
	for _, c := range []Curve{pommelCurve, {Game: "punt-heks-match-3p", Players: 3, K: 0.003}} {
		if got, want := c.Expected(0), 1/float64(c.Players); math.Abs(got-want) > 1e-12 {
			t.Errorf("%d players: E(0) = %v, want %v", c.Players, got, want)
		}
		prev := -1.0
		for s := -2000; s <= 2000; s += 10 {
			e := c.Expected(s)
			if e <= prev || e < 0 || e > 1 {
				t.Fatalf("%d players: E(%d) = %v after %v: not rising within 0 to 1", c.Players, s, e, prev)
			}
			prev = e
		}
		if c.Expected(ai.Mate-30) != 1 || c.Expected(-ai.Mate+30) != 0 {
			t.Errorf("%d players: forced results %v, %v; want 1, 0", c.Players, c.Expected(ai.Mate-30), c.Expected(-ai.Mate+30))
		}
	}
	// Two players: symmetric, what one gains the other loses.
	for _, s := range []int{1, 50, 300, 2000} {
		if sum := pommelCurve.Expected(s) + pommelCurve.Expected(-s); math.Abs(sum-1) > 1e-12 {
			t.Errorf("E(%d) + E(-%d) = %v, want 1", s, s, sum)
		}
	}
}

// TestCurvesFile: every id has a fitted curve of its seats, made at the
// review's node budget by the fit command, with its scale inside its
// interval.
func TestCurvesFile(t *testing.T) {
	curves, err := Curves()
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"checkers-2011", "eximo", "pommel", "pommel-76", "punt-heks-match", "punt-heks-match-3p", "punt-match"}
	if len(curves) != len(ids) {
		t.Errorf("%d curves, want one for each of %v", len(curves), ids)
	}
	for _, id := range ids {
		c, ok := CurveFor(id)
		if !ok {
			t.Errorf("%s: no curve", id)
			continue
		}
		g := mustGame(t, id)
		if err := c.check(g); err != nil {
			t.Error(err)
		}
		if c.Nodes != DefaultNodes || c.Games < 1 || c.Positions < 1 || !strings.HasPrefix(c.Command, "arbiter review fit "+id+" ") ||
			!(c.KLow <= c.K && c.K <= c.KHigh) {
			t.Errorf("%s: %+v: want a fit at %d nodes, its command and interval", id, c, DefaultNodes)
		}
	}
	if _, ok := CurveFor("chess"); ok {
		t.Error("a curve for chess")
	}
}
