package rating

import (
	"fmt"
	"math"
	"strconv"
	"testing"
)

// TestPeriodGlickmanExample reproduces the worked example of Glickman's
// "Example of the Glicko-2 system" to the digits it prints. The paper
// rounds μ' and φ' to four decimals before turning them back into a rating
// and an RD (173.7178 × −0.2069 + 1500 = 1464.06, where the unrounded μ'
// gives 1464.05), and prints σ' cut to five decimals (0.059996 as
// 0.05999): the test rounds as the paper does, and also asks the unrounded
// numbers to lie within one unit of the last printed digit.
func TestPeriodGlickmanExample(t *testing.T) {
	player := Glicko{Rating: 1500, RD: 200, Volatility: 0.06}
	outcomes := []Outcome{
		{Opponent: Glicko{Rating: 1400, RD: 30}, Score: 1},
		{Opponent: Glicko{Rating: 1550, RD: 100}, Score: 0},
		{Opponent: Glicko{Rating: 1700, RD: 300}, Score: 0},
	}
	got := Period(player, outcomes, 0.5)
	mu := round((got.Rating-1500)/173.7178, 4)
	phi := round(got.RD/173.7178, 4)
	for _, c := range []struct {
		what           string
		paper          string
		printed, exact float64
		unit           float64
	}{
		{"rating", fmt.Sprintf("%.2f", 173.7178*mu+1500), 1464.06, got.Rating, 0.01},
		{"RD", fmt.Sprintf("%.2f", 173.7178*phi), 151.52, got.RD, 0.01},
		{"volatility", fmt.Sprintf("%.5f", math.Floor(got.Volatility*1e5)/1e5), 0.05999, got.Volatility, 0.00001},
	} {
		printed := strconv.FormatFloat(c.printed, 'f', -1, 64)
		if c.paper != printed || math.Abs(c.exact-c.printed) > c.unit {
			t.Errorf("Glickman's example: %s %s as the paper rounds (%.6f unrounded), want %s", c.what, c.paper, c.exact, printed)
		}
	}
}

// round rounds x to the given decimals.
func round(x float64, decimals int) float64 {
	scale := math.Pow(10, float64(decimals))
	return math.Round(x*scale) / scale
}

// TestPeriodWithoutGames: only the RD grows, by the volatility (step 6).
func TestPeriodWithoutGames(t *testing.T) {
	for _, p := range []Glicko{New(), {Rating: 1830, RD: 45, Volatility: 0.06}, {Rating: 900, RD: 120, Volatility: 0.09}} {
		got := Period(p, nil, Tau)
		phi, sigma := p.RD/glickoScale, p.Volatility
		wantRD := math.Sqrt(phi*phi+sigma*sigma) * glickoScale
		if got.Rating != p.Rating || got.Volatility != p.Volatility || math.Abs(got.RD-wantRD) > 1e-9 || got.RD <= p.RD {
			t.Errorf("Period(%+v, no games) = %+v; want the rating and volatility kept and the RD grown to %.4f", p, got, wantRD)
		}
	}
}

func TestNew(t *testing.T) {
	if got, want := New(), (Glicko{Rating: 1500, RD: 350, Volatility: 0.06}); got != want {
		t.Errorf("New() = %+v, want %+v", got, want)
	}
}

func TestProvisional(t *testing.T) {
	for _, tt := range []struct {
		rd   float64
		want bool
	}{{350, true}, {110.01, true}, {110, false}, {45, false}} {
		if got := (Glicko{Rating: 1500, RD: tt.rd, Volatility: 0.06}).Provisional(); got != tt.want {
			t.Errorf("RD %v: Provisional() = %v, want %v", tt.rd, got, tt.want)
		}
	}
}

// TestGameFloorsRD: a settled player's RD would fall below MinRD after a
// game; Game keeps it at MinRD, where Period alone does not.
func TestGameFloorsRD(t *testing.T) {
	settled := Glicko{Rating: 1600, RD: MinRD, Volatility: 0.03}
	opponent := Glicko{Rating: 1600, RD: MinRD, Volatility: 0.03}
	if p := Period(settled, []Outcome{{Opponent: opponent, Score: 1}}, Tau); p.RD >= MinRD {
		t.Fatalf("Period gives RD %.2f: the test needs one below %d", p.RD, MinRD)
	}
	for i, p := range Game([]Glicko{settled, opponent}, []int{1, 2}) {
		if p.RD != MinRD {
			t.Errorf("player %d after the game: RD %v, want the floor %d", i, p.RD, MinRD)
		}
	}
}

// TestGameDraws: a draw between equals moves neither rating but makes both
// surer; a draw against a stronger player gains.
func TestGameDraws(t *testing.T) {
	got := Game([]Glicko{New(), New()}, []int{1, 1})
	for i, p := range got {
		if math.Abs(p.Rating-StartRating) > 1e-9 || p.RD >= StartRD {
			t.Errorf("draw between new players: player %d %+v, want rating 1500 and RD below 350", i, p)
		}
	}
	weak, strong := Glicko{Rating: 1400, RD: 80, Volatility: 0.06}, Glicko{Rating: 1700, RD: 80, Volatility: 0.06}
	got = Game([]Glicko{weak, strong}, []int{1, 1})
	if got[0].Rating <= weak.Rating || got[1].Rating >= strong.Rating {
		t.Errorf("draw 1400 against 1700: %.1f and %.1f; want the weaker up, the stronger down", got[0].Rating, got[1].Rating)
	}
}

// TestGameSymmetry: between equals the winner gains what the loser loses,
// and the players' order in the call changes nothing.
func TestGameSymmetry(t *testing.T) {
	a, b := Glicko{Rating: 1620, RD: 90, Volatility: 0.06}, Glicko{Rating: 1620, RD: 90, Volatility: 0.06}
	got := Game([]Glicko{a, b}, []int{1, 2})
	if gain, loss := got[0].Rating-a.Rating, b.Rating-got[1].Rating; gain <= 0 || math.Abs(gain-loss) > 1e-9 || got[0].RD != got[1].RD {
		t.Errorf("equals, one wins: %+v; want equal gain and loss and equal RDs", got)
	}
	c := Glicko{Rating: 1480, RD: 200, Volatility: 0.07}
	forward := Game([]Glicko{a, c}, []int{2, 1})
	backward := Game([]Glicko{c, a}, []int{1, 2})
	if forward[0] != backward[1] || forward[1] != backward[0] {
		t.Errorf("the same game in the other order: %+v and %+v", forward, backward)
	}
}

// TestGameThreePlayers: a three-player game is one period with two
// opponents each, scored by placing, against the ratings before the game.
func TestGameThreePlayers(t *testing.T) {
	first, second, third := New(), New(), New()
	got := Game([]Glicko{first, second, third}, []int{1, 2, 3})
	if got[0].Rating <= StartRating || got[2].Rating >= StartRating || math.Abs(got[1].Rating-StartRating) > 1e-9 {
		t.Errorf("equals placed 1, 2, 3: ratings %.2f %.2f %.2f; want up, unchanged, down", got[0].Rating, got[1].Rating, got[2].Rating)
	}
	// The winner gains against both: more than for beating either alone.
	alone := Game([]Glicko{first, second}, []int{1, 2})[0]
	if got[0].Rating <= alone.Rating {
		t.Errorf("winning a three-player game: %.2f; beating one player: %.2f; want more", got[0].Rating, alone.Rating)
	}
	// Unequal players: each is Period against the others' old ratings.
	players := []Glicko{{1700, 60, 0.06}, {1500, 120, 0.05}, {1350, 300, 0.08}}
	places := []int{2, 1, 2}
	got = Game(players, places)
	want := []Glicko{
		Period(players[0], []Outcome{{players[1], 0}, {players[2], 0.5}}, Tau),
		Period(players[1], []Outcome{{players[0], 1}, {players[2], 1}}, Tau),
		Period(players[2], []Outcome{{players[0], 0.5}, {players[1], 0}}, Tau),
	}
	for i := range want {
		want[i].RD = max(want[i].RD, MinRD)
		if got[i] != want[i] {
			t.Errorf("places %v: player %d %+v, want %+v", places, i, got[i], want[i])
		}
	}
	if got[1].Rating <= players[1].Rating || got[0].Rating >= players[0].Rating {
		t.Errorf("places %v: %+v; want the winner up and the favourite down", places, got)
	}
}

// TestGameSecondPlace: second gains against third and loses against first.
func TestGameSecondPlace(t *testing.T) {
	first, second, third := Glicko{1600, 100, 0.06}, Glicko{1500, 100, 0.06}, Glicko{1400, 100, 0.06}
	got := Game([]Glicko{first, second, third}, []int{1, 2, 3})[1].Rating
	beatThird := Game([]Glicko{second, third}, []int{1, 2})[0].Rating
	lostToFirst := Game([]Glicko{second, first}, []int{2, 1})[0].Rating
	if !(lostToFirst < got && got < beatThird) || beatThird <= second.Rating || lostToFirst >= second.Rating {
		t.Errorf("second place: %.2f; beating third alone %.2f, losing to first alone %.2f; want between", got, beatThird, lostToFirst)
	}
}

// TestGameExtremes: no NaN or infinity for ratings far apart and RDs at
// both ends, whoever wins.
func TestGameExtremes(t *testing.T) {
	unknown := Glicko{Rating: 0, RD: StartRD, Volatility: StartVolatility}
	settled := Glicko{Rating: 3000, RD: MinRD, Volatility: StartVolatility}
	for _, places := range [][]int{{1, 2}, {2, 1}, {1, 1}} {
		for _, players := range [][]Glicko{{unknown, settled}, {settled, unknown}, {{-5000, 350, 0.2}, {9000, 45, 0.001}}} {
			for i, p := range Game(players, places) {
				if !finite(p.Rating) || !finite(p.RD) || !finite(p.Volatility) || p.RD < MinRD || p.Volatility <= 0 {
					t.Errorf("%+v placed %v: player %d %+v", players, places, i, p)
				}
			}
		}
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func TestGameRefusesPlacesOfAnotherLength(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Game with two players and three places did not panic")
		}
	}()
	Game([]Glicko{New(), New()}, []int{1, 2, 3})
}
