package lab

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// openingsDecide is a run of n games whose game i the first seat wins when
// i%3 == 0, the second when i%3 == 1, and is drawn otherwise: the
// openings decide, as they do in real runs. changed(i) true makes the
// first seat win game i instead.
func openingsDecide(n int, changed func(i int) bool) []GameData {
	var games []GameData
	for i := range n {
		d := GameData{Index: i, Seats: []string{"p", "q"}, Opening: []string{fmt.Sprint("o", i)},
			Moves: []Search{{Move: "m"}}, Reason: "no moves", Winners: []int{}}
		switch {
		case changed(i) || i%3 == 0:
			d.Winners = []int{0}
		case i%3 == 1:
			d.Winners = []int{1}
		default:
			d.Reason = "repetition"
		}
		games = append(games, d)
	}
	return games
}

// TestPairedDifference: B makes the first seat win one game in ten. Worked
// by hand over 300 games: of the 30 games changed, 10 were won already,
// 10 lost (+1 each) and 10 drawn (+1/2 each), so B − A = 15/300 = +5
// points. The paired bootstrap's interval holds it and is as wide as the
// normal approximation's; the unpaired one, which counts the openings'
// spread as noise, is far wider.
func TestPairedDifference(t *testing.T) {
	a := openingsDecide(300, func(int) bool { return false })
	b := openingsDecide(300, func(i int) bool { return i%10 == 0 })
	first := measures(a, b)[0]
	paired := pairedDifference(runGames{a, 0}, runGames{b, 0}, first)
	unpaired := unpairedDifference(runGames{a, 0}, runGames{b, 0}, first)
	if math.Abs(paired.Diff-0.05) > 1e-12 || math.Abs(unpaired.Diff-0.05) > 1e-12 || paired.N != 300 {
		t.Fatalf("paired %+v, unpaired %+v: want a difference of 0.05 over 300 games", paired, unpaired)
	}
	// The normal approximation: the differences are 1 (10 games), 1/2
	// (10) and 0 (280).
	variance := (10*1.0+10*0.25)/300 - 0.05*0.05
	half := 1.959964 * math.Sqrt(variance/300)
	if got := (paired.Hi - paired.Lo) / 2; math.Abs(got-half) > 0.15*half || paired.Lo > 0.05 || paired.Hi < 0.05 {
		t.Errorf("paired interval [%.4f, %.4f]: half-width %.4f, the normal approximation's %.4f", paired.Lo, paired.Hi, got, half)
	}
	if unpaired.Hi-unpaired.Lo < 2*(paired.Hi-paired.Lo) {
		t.Errorf("unpaired [%.4f, %.4f] not far wider than paired [%.4f, %.4f]", unpaired.Lo, unpaired.Hi, paired.Lo, paired.Hi)
	}
	if again := pairedDifference(runGames{a, 0}, runGames{b, 0}, first); again != paired {
		t.Errorf("the bootstrap is not seeded: %+v then %+v", paired, again)
	}
}

// TestPairedCountsDistinctPairs: a pair of games repeated counts once.
func TestPairedCountsDistinctPairs(t *testing.T) {
	a := openingsDecide(6, func(int) bool { return false })
	for i := range a {
		a[i].Opening = []string{"same"}
		a[i].Winners, a[i].Reason = []int{0}, "no moves"
	}
	if d := pairedDifference(runGames{a, 0}, runGames{a, 0}, measures(a, a)[0]); d.N != 1 || d.Diff != 0 {
		t.Errorf("six copies of one pair: %+v, want n = 1 and no difference", d)
	}
}

// TestCompareSaysPairing: runs with the same seed, openings and games are
// paired; another seed, book, start or game count falls back to an
// unpaired interval, and the table says which and why.
func TestCompareSaysPairing(t *testing.T) {
	a := openingsDecide(30, func(int) bool { return false })
	b := openingsDecide(30, func(i int) bool { return i%10 == 0 })
	base := Manifest{Game: "pommel", Seed: 3, Games: 30, Opening: 4}
	tests := []struct {
		name string
		edit func(m *Manifest)
		want string
	}{
		{"same run", func(*Manifest) {}, "paired game by game"},
		{"another seed", func(m *Manifest) { m.Seed = 4 }, "unpaired: seed 3 and 4"},
		{"another book", func(m *Manifest) { m.Book = "abcdef0123456789" }, "unpaired: openings book none and sha256:abcdef012345"},
		{"another start", func(m *Manifest) { m.From = "W:Wa1:Bb2" }, "unpaired: from the start and"},
		{"more games", func(m *Manifest) { m.Games = 40 }, "unpaired: games 30 and 40"},
		{"another game", func(m *Manifest) { m.Game = "eximo" }, "unpaired: game pommel and eximo"},
		{"a variant", func(m *Manifest) { m.Options = map[string]string{"hop": "any"} }, "paired game by game"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mb := base
			tt.edit(&mb)
			runs := []Compared{{Label: "a", Summary: &Summary{Run: base}, games: a}, {Label: "b", Summary: &Summary{Run: mb}, games: b}}
			rows := map[string][]string{}
			for _, r := range differenceRows(runs) {
				rows[r[0]] = r[1:]
			}
			if got := rows["B − A: pairing"]; len(got) != 2 || !strings.HasPrefix(got[1], tt.want) {
				t.Errorf("pairing row %q, want %q", got, tt.want)
			}
			how := strings.Fields(tt.want)[0]
			how = strings.TrimSuffix(how, ":")
			for _, name := range []string{"first player's score", "draws", "plies: mean", "p's score", "q's score"} {
				if got := rows["B − A: "+name]; len(got) != 2 || got[0] != "-" || !strings.Contains(got[1], how) {
					t.Errorf("row %q is %q, want a difference %s", name, got, how)
				}
			}
		})
	}
}

func TestDifferenceText(t *testing.T) {
	points := measure{unit: "points", scale: 100}
	for _, tt := range []struct {
		d    Difference
		want string
	}{
		{Difference{Diff: 0.05, Lo: -0.0004, Hi: 0.1, N: 9, Paired: true}, "+5.0 [+0.0, +10.0] points, paired, n = 9"},
		{Difference{Diff: -0.25, Lo: -0.75, Hi: 0, N: 4}, "-25.0 [-75.0, +0.0] points, unpaired, n = 4"},
		{Difference{}, "-"},
	} {
		if got := tt.d.text(points); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestNoEngineRowsInSelfPlay: one engine in every seat scores a fair
// share in every game: no row for it.
func TestNoEngineRowsInSelfPlay(t *testing.T) {
	a := openingsDecide(6, func(int) bool { return false })
	for i := range a {
		a[i].Seats = []string{"ab", "ab"}
	}
	if ms := measures(a, a); len(ms) != 3 {
		t.Errorf("%d measures in self-play, want 3 (no engine's score)", len(ms))
	}
}

// TestPairedFirstPlayerIsTheFirstMover: with first=black the first
// player's score is Black's, in comparisons as in the summary.
func TestPairedFirstPlayerIsTheFirstMover(t *testing.T) {
	s := &Summary{Run: Manifest{Game: "pommel", Options: map[string]string{"first": "black"}}}
	r := gamesOf(s, []GameData{{Index: 0, Seats: []string{"ab", "ab"}, Winners: []int{1}}})
	if r.first != 1 {
		t.Fatalf("first mover %d with first=black, want 1 (Black)", r.first)
	}
	if o := outcomeOf(r.games[0], r.first); o.first != 1 {
		t.Errorf("Black won moving first: the first player's points are %v, want 1", o.first)
	}
	if def := gamesOf(&Summary{Run: Manifest{Game: "pommel"}}, nil); def.first != 0 {
		t.Errorf("first mover %d by default, want 0 (White)", def.first)
	}
}
