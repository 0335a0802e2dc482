package rating

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// simulate plays games between the pairs of players with the given true
// Elo ratings: the expected score E follows the Elo curve, draws come with
// chance draws·4E(1−E) (most often between equals, at most 50%), wins
// with chance E less half the draws.
func simulate(rng *rand.Rand, truth []float64, pairs [][2]int, games int, draws float64) []Pair {
	var results []Pair
	for _, pr := range pairs {
		expected := 1 / (1 + math.Pow(10, (truth[pr[1]]-truth[pr[0]])/400))
		for range games {
			draw := draws * 4 * expected * (1 - expected)
			score := 0.0
			switch u := rng.Float64(); {
			case u < draw:
				score = 0.5
			case u < expected+draw/2:
				score = 1
			}
			results = append(results, Pair{A: pr[0], B: pr[1], Score: score})
		}
	}
	return results
}

// ladderPairs are the pairings rate-levels plays for two players: the
// next and the next-but-one.
func ladderPairs(n int) [][2]int {
	var pairs [][2]int
	for gap := 1; gap <= 2; gap++ {
		for a := 0; a+gap < n; a++ {
			pairs = append(pairs, [2]int{a, a + gap})
		}
	}
	return pairs
}

// TestBradleyTerryRecoversKnownGaps fits simulated ladders with known Elo
// gaps: every fitted rating lies within three standard errors of the
// truth (shifted to the anchor), and the mean is the anchor.
func TestBradleyTerryRecoversKnownGaps(t *testing.T) {
	for _, tt := range []struct {
		name  string
		truth []float64
		games int
		draws float64
	}{
		{"even steps", []float64{0, 150, 300, 450, 600, 750}, 2000, 0},
		{"uneven steps, draws", []float64{-200, 100, 130, 400, 520, 900}, 2000, 0.5},
		{"two players", []float64{0, 120}, 4000, 0.1},
	} {
		rng := rand.New(rand.NewPCG(7, uint64(len(tt.name))))
		results := simulate(rng, tt.truth, ladderPairs(len(tt.truth)), tt.games, tt.draws)
		ratings, se, err := BradleyTerry(len(tt.truth), results, 1500)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		shift := 1500 - mean(tt.truth)
		if m := mean(ratings); math.Abs(m-1500) > 1e-6 {
			t.Errorf("%s: mean %.6f, want 1500", tt.name, m)
		}
		for i, r := range ratings {
			want := tt.truth[i] + shift
			if se[i] <= 0 || se[i] > 30 || math.Abs(r-want) > 3*se[i] {
				t.Errorf("%s: player %d fitted %.1f ± %.1f, true %.1f", tt.name, i, r, se[i], want)
			}
		}
	}
}

func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// TestBradleyTerryTwoPlayers checks the fit against the closed form for
// two players: the gap is the Elo difference of the score (the virtual
// draw included), each rating's standard error half the gap's.
func TestBradleyTerryTwoPlayers(t *testing.T) {
	var results []Pair
	for i := range 40 {
		results = append(results, Pair{A: 0, B: 1, Score: float64(i % 4 / 3)}) // 10 wins of 40
	}
	ratings, se, err := BradleyTerry(2, results, 1500)
	if err != nil {
		t.Fatal(err)
	}
	p := (10 + 0.5) / 41.0
	gap := 400 * math.Log10(p/(1-p))
	gapSE := 1 / (eloSlope * math.Sqrt(41*p*(1-p)))
	if math.Abs(ratings[0]-ratings[1]-gap) > 1e-6 || math.Abs(ratings[0]+ratings[1]-3000) > 1e-6 {
		t.Errorf("10 wins in 40: ratings %v, want a gap of %.4f about 1500", ratings, gap)
	}
	for i := range se {
		if math.Abs(se[i]-gapSE/2) > 1e-6 {
			t.Errorf("10 wins in 40: player %d's standard error %.4f, want %.4f", i, se[i], gapSE/2)
		}
	}
}

// TestBradleyTerryAllWins: a player who won every game still gets a
// finite rating, above the others.
func TestBradleyTerryAllWins(t *testing.T) {
	var results []Pair
	for range 30 {
		results = append(results, Pair{A: 0, B: 1, Score: 1}, Pair{A: 1, B: 2, Score: 1})
	}
	ratings, se, err := BradleyTerry(3, results, 1500)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ratings {
		if !finite(ratings[i]) || !finite(se[i]) || i > 0 && ratings[i] >= ratings[i-1] {
			t.Errorf("a ladder of sure wins: ratings %v, standard errors %v", ratings, se)
		}
	}
}

func TestBradleyTerryRefuses(t *testing.T) {
	win := []Pair{{A: 0, B: 1, Score: 1}}
	for _, tt := range []struct {
		name    string
		n       int
		results []Pair
		want    string
	}{
		{"one player", 1, nil, "a fit of 1 players: want 2 or more"},
		{"a player beyond n", 2, []Pair{{A: 0, B: 2, Score: 1}}, "players 0 and 2: want two different players from 0 to 1"},
		{"a negative player", 2, []Pair{{A: -1, B: 0, Score: 1}}, "want two different players"},
		{"a player against itself", 2, []Pair{{A: 1, B: 1, Score: 1}}, "want two different players"},
		{"a score above 1", 2, []Pair{{A: 0, B: 1, Score: 1.5}}, "a score of 1.5: want 0 to 1"},
		{"a negative score", 2, []Pair{{A: 0, B: 1, Score: -0.5}}, "a score of -0.5: want 0 to 1"},
		{"a NaN score", 2, []Pair{{A: 0, B: 1, Score: math.NaN()}}, "a score of NaN: want 0 to 1"},
		{"a player who never played", 3, win, "not all connected"},
		{"two groups", 4, append(win, Pair{A: 2, B: 3, Score: 0.5}), "not all connected"},
		{"no games", 2, nil, "not all connected"},
	} {
		_, _, err := BradleyTerry(tt.n, tt.results, 1500)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}
