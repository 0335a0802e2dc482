package match

import (
	"context"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
	"github.com/arbiter-games/arbiter/record"
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
	sum, err := Run(context.Background(), cfg, func([]*record.Record) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 6 || sum.Players[0].Games != 6 || sum.Players[1].Games != 6 {
		t.Fatalf("calls %d, stats %+v", calls, sum.Players)
	}
	if sum.Players[0].Wins < 5 {
		t.Errorf("ab at depth 2 won %d of 6 against random", sum.Players[0].Wins)
	}
	for i, r := range sum.Records {
		// Seats alternate: ab is White in even games, Black in odd ones.
		white := r.Get("White")
		if want := []string{"ab", "random"}[i%2]; white != want {
			t.Errorf("game %d: White is %s, want %s", i+1, white, want)
		}
		// Games i and i+1 share their opening.
		if i%2 == 1 && strings.Join(r.Moves[:2], " ") != strings.Join(sum.Records[i-1].Moves[:2], " ") {
			t.Errorf("games %d and %d open differently: %v / %v", i, i+1, sum.Records[i-1].Moves[:2], r.Moves[:2])
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

func TestElo(t *testing.T) {
	even := Stats{Games: 10, Points: 5, points2: 5}
	if d, _ := even.Elo(); math.Abs(d) > 1e-9 {
		t.Errorf("an even score gives %f Elo", d)
	}
	// 75% is about +191 Elo.
	s := Stats{Games: 100, Points: 75, points2: 75}
	if d, m := s.Elo(); math.Abs(d-190.8) > 0.5 || m <= 0 {
		t.Errorf("75%% gives %f ± %f", d, m)
	}
}

// TestTableNamesSharedResults: with three players a shared first place is
// not called a draw.
func TestTableNamesSharedResults(t *testing.T) {
	two := Summary{Players: []Stats{{Name: "a"}, {Name: "b"}}}
	three := Summary{Players: []Stats{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	if h := strings.SplitN(two.Table(), "\n", 2)[0]; !strings.Contains(h, "draws") {
		t.Errorf("two players: %q", h)
	}
	if h := strings.SplitN(three.Table(), "\n", 2)[0]; !strings.Contains(h, "shared") || strings.Contains(h, "draws") {
		t.Errorf("three players: %q", h)
	}
}
