package match

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/punt"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// sprtConfig is a cheap match of two engines on short pommel games.
func sprtConfig(t *testing.T, games int, first, second string) Config {
	t.Helper()
	g, err := game.New("pommel", map[string]string{"maxplies": "40"})
	if err != nil {
		t.Fatal(err)
	}
	return Config{Game: g, Players: []Player{player(first, first), player(second, second)}, Games: games,
		Concurrency: 2, Limits: ai.Limits{Depth: 2}, Seed: 3, OpeningPlies: 2}
}

// TestRunSPRTCountsOnlyWholePairs: with games finishing out of order, the
// pairs counted are exactly the pairs whose two games were played, each
// from the first player's two scores.
func TestRunSPRTCountsOnlyWholePairs(t *testing.T) {
	cfg := sprtConfig(t, 12, "random", "ab")
	test := SPRT{Elo0: -5, Elo1: 5, Alpha: 0.01, Beta: 0.01}
	out, err := RunSPRT(context.Background(), cfg, test, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want Pentanomial
	for k := 0; 2*k+1 < len(out.Games); k++ {
		a, b := out.Games[2*k], out.Games[2*k+1]
		if a == nil || b == nil {
			continue
		}
		if a.Players[0] == b.Players[0] {
			t.Errorf("pair %d: the first player sat in seat %d both times", k, a.Players[0])
		}
		if err := want.Add(FirstScore(a), FirstScore(b)); err != nil {
			t.Fatal(err)
		}
	}
	if out.Counts != want || out.LLR != test.LLR(want) {
		t.Errorf("counts %v LLR %g, the games give %v LLR %g", out.Counts, out.LLR, want, test.LLR(want))
	}
}

// TestRunSPRTPriorDecides: earlier games that already cross a bound give
// the verdict with no game played; earlier games of half a pair wait for
// the other half.
func TestRunSPRTPriorDecides(t *testing.T) {
	cfg := sprtConfig(t, 400, "ab", "random")
	test := SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}
	prior := map[int]float64{}
	for i := range 100 {
		prior[i] = 1
	}
	prior[101] = 0 // half of pair 50
	played := 0
	out, err := RunSPRT(context.Background(), cfg, test, prior, func([]*GameLog) { played++ })
	if err != nil {
		t.Fatal(err)
	}
	if played != 0 || out.Verdict != "H1 accepted" || out.Resumed != 50 || out.Counts != (Pentanomial{4: 50}) {
		t.Errorf("played %d, verdict %q, resumed %d, counts %v; want 0, H1 accepted, 50, [0 0 0 0 50]",
			played, out.Verdict, out.Resumed, out.Counts)
	}
}

// TestRunSPRTRefusals: a match that cannot be played in pairs, a bad test
// and bad earlier scores are refused before any game.
func TestRunSPRTRefusals(t *testing.T) {
	good := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	three, err := game.New("punt-heks-match-3p", nil)
	if err != nil {
		t.Fatal(err)
	}
	threeCfg := Config{Game: three, Players: []Player{player("a", "random"), player("b", "random"), player("c", "random")}, Games: 2}
	threeWhole := threeCfg
	threeWhole.Games = 3
	for _, c := range []struct {
		name  string
		cfg   Config
		test  SPRT
		prior map[int]float64
		want  string
	}{
		{"odd games", sprtConfig(t, 3, "random", "random"), good, nil, "3 games do not make pairs"},
		{"three players, games not rotations", threeCfg, good, nil, "2 games do not make rotations of 3 games: give a multiple of 3"},
		{"three players, prior score", threeWhole, good, map[int]float64{0: 0.25}, "score 0.25, want 0, 0.333, 0.5 or 1"},
		{"two players, a third", sprtConfig(t, 2, "random", "random"), good, map[int]float64{0: 1. / 3}, "want 0, 0.5 or 1"},
		{"bad test", sprtConfig(t, 2, "random", "random"), SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, nil, "must be below"},
		{"prior outside", sprtConfig(t, 2, "random", "random"), good, map[int]float64{2: 1}, "earlier game 3"},
		{"prior negative", sprtConfig(t, 2, "random", "random"), good, map[int]float64{-1: 1}, "earlier game 0"},
		{"prior score", sprtConfig(t, 2, "random", "random"), good, map[int]float64{0: 0.7}, "score 0.7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := RunSPRT(context.Background(), c.cfg, c.test, c.prior, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

// TestResumeScores: the records of a match give back each game's score
// for the first player; a round twice, or a game of another match, is
// refused.
func TestResumeScores(t *testing.T) {
	cfg := sprtConfig(t, 4, "ab", "random")
	recs := checkResumeScores(t, cfg)
	other := cfg
	other.Seed++
	clocked := cfg
	clocked.Clock = timecontrol.Control{Base: time.Second}
	checkResumeRefused(t, []resumeRefusal{
		{"twice", cfg, append(recs, recs[1]), "round 2 is in the file twice"},
		{"other seed", other, recs, "not a game of this match"},
		{"other clock", clocked, recs, "not a game of this match"},
		{"players swapped", sprtConfig(t, 4, "random", "ab"), recs, "not a game of this match"},
		{"fewer games", sprtConfig(t, 2, "ab", "random"), recs, "not a game of this match"},
	})
}

// checkResumeScores plays the match cfg and checks that ResumeScores reads
// every game's score for the first player back from its records, which
// it returns.
func checkResumeScores(t *testing.T, cfg Config) []*record.Record {
	t.Helper()
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	recs := sum.Records()
	scores, err := ResumeScores(cfg, recs)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range sum.Games {
		if got, want := scores[i], FirstScore(l); got != want || len(scores) != cfg.Games {
			t.Errorf("game %d: score %g of %d, want %g of %d", i, got, len(scores), want, cfg.Games)
		}
	}
	return recs
}

// resumeRefusal is records that ResumeScores must refuse for a match.
type resumeRefusal struct {
	name string
	cfg  Config
	recs []*record.Record
	want string
}

func checkResumeRefused(t *testing.T, cases []resumeRefusal) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ResumeScores(c.cfg, c.recs); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

// threeConfig is a cheap match of three engines on punt-heks-match-3p.
func threeConfig(t *testing.T, games int, specs ...string) Config {
	t.Helper()
	g, err := game.New("punt-heks-match-3p", nil)
	if err != nil {
		t.Fatal(err)
	}
	var players []Player
	for k, spec := range specs {
		players = append(players, player(fmt.Sprintf("%s%d", spec, k), spec))
	}
	return Config{Game: g, Players: players, Games: games, Concurrency: 2, Limits: ai.Limits{Nodes: 200}, Seed: 3, OpeningPlies: 2}
}

// TestRunSPRTThreePlayers: with three players the test counts exactly
// the rotations whose three games were played, the first player in each
// seat once per rotation, each rotation from the first player's shares;
// the LLR is the test's on those counts.
func TestRunSPRTThreePlayers(t *testing.T) {
	cfg := threeConfig(t, 12, "random", "random", "random")
	test := SPRT{Elo0: -5, Elo1: 5, Alpha: 0.01, Beta: 0.01}
	out, err := RunSPRT(context.Background(), cfg, test, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := NewUnits(3)
	for k := 0; 3*k+2 < len(out.Games); k++ {
		unit := out.Games[3*k : 3*k+3]
		if slices.Contains(unit, nil) {
			continue
		}
		var seats []game.Player
		var scores []float64
		for _, l := range unit {
			seats, scores = append(seats, l.Players[0]), append(scores, FirstScore(l))
		}
		if slices.Sort(seats); !slices.Equal(seats, []game.Player{0, 1, 2}) {
			t.Errorf("rotation %d: the first player sat in seats %v", k, seats)
		}
		if err := want.Add(scores...); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(out.Units.Counts, want.Counts) || out.LLR != test.UnitsLLR(want) || out.Counts != (Pentanomial{}) {
		t.Errorf("units %v LLR %g pentanomial %v; the games give %v LLR %g", out.Units, out.LLR, out.Counts, want, test.UnitsLLR(want))
	}
	if out.Played() != 3*want.Total() || out.Verdict != "" || want.Total() != 4 {
		t.Errorf("played %d, verdict %q, %d rotations; want 12 games, no verdict, 4 rotations", out.Played(), out.Verdict, want.Total())
	}
}

// TestRunSPRTThreePlayerPriorDecides: earlier three-player games that
// cross a bound give the verdict with no game played; a rotation with
// only two of its games in waits for the third.
func TestRunSPRTThreePlayerPriorDecides(t *testing.T) {
	cfg := threeConfig(t, 300, "random", "random", "random")
	test := SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}
	prior := map[int]float64{}
	for i := range 90 {
		prior[i] = []float64{1, 0.5, 1}[i%3]
	}
	prior[90], prior[91] = 1, 1 // two of rotation 30's games
	played := 0
	out, err := RunSPRT(context.Background(), cfg, test, prior, func([]*GameLog) { played++ })
	if err != nil {
		t.Fatal(err)
	}
	want := NewUnits(3)
	want.Counts[15] = 30 // 2.5 points in sixths
	if played != 0 || out.Verdict != "H1 accepted" || out.Resumed != 30 || !slices.Equal(out.Units.Counts, want.Counts) {
		t.Errorf("played %d, verdict %q, resumed %d, units %v; want 0, H1 accepted, 30, %v", played, out.Verdict, out.Resumed, out.Units, want)
	}
}

// TestResumeScoresThreePlayers: the records of a three-player match give
// back each game's share for the first player, whatever seat it sat in;
// a game of another match is refused.
func TestResumeScoresThreePlayers(t *testing.T) {
	cfg := threeConfig(t, 6, "ab", "random", "random")
	recs := checkResumeScores(t, cfg)
	other := cfg
	other.Seed++
	const foreign = "not a game of this match"
	checkResumeRefused(t, []resumeRefusal{
		{"players rotated", threeConfig(t, 6, "random", "ab", "random"), recs, foreign},
		{"other seed", other, recs, foreign},
		{"two players", sprtConfig(t, 6, "ab", "random"), recs, foreign},
	})
}
