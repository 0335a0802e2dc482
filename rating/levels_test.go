package rating

import (
	"math"
	"strconv"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// TestLevelEveryGame: the embedded file rates all six levels of every
// registered game, with the levels' mean at the anchor (1500, to the
// file's rounding), an RD no lower than the floor and the starting
// volatility, and Level returns what the file holds. (Whether each level
// is above the one below is a measurement, not a rule: in the
// three-player game level 4 measured below level 3, docs/strength.md.)
func TestLevelEveryGame(t *testing.T) {
	levels, err := ParseLevels(levelsJSON)
	if err != nil {
		t.Fatalf("levels.json: %v", err)
	}
	for _, d := range game.All() {
		var sum float64
		for n := 1; n <= 6; n++ {
			got, ok := Level(d.ID, n)
			entry := levels[d.ID][strconv.Itoa(n)]
			want := Glicko{Rating: entry.Rating, RD: entry.RD, Volatility: entry.Volatility}
			if !ok || got != want || got.RD < MinRD || got.Volatility != StartVolatility || entry.Games < 1 {
				t.Errorf("Level(%q, %d) = %+v, %v; the file holds %+v", d.ID, n, got, ok, entry)
			}
			sum += got.Rating
		}
		if mean := sum / 6; math.Abs(mean-StartRating) > 0.1 {
			t.Errorf("%s: the levels' mean is %.2f, want %d", d.ID, mean, StartRating)
		}
	}
}

func TestLevelUnknown(t *testing.T) {
	for _, tt := range []struct {
		id string
		n  int
	}{{"nosuch", 3}, {"pommel", 0}, {"pommel", 7}, {"pommel", -1}, {"", 1}} {
		if got, ok := Level(tt.id, tt.n); ok || got != (Glicko{}) {
			t.Errorf("Level(%q, %d) = %+v, %v; want nothing", tt.id, tt.n, got, ok)
		}
	}
}

// TestLevelsRoundTrip: what Marshal writes, ParseLevels reads back.
func TestLevelsRoundTrip(t *testing.T) {
	levels := Levels{"pommel": {"1": {Rating: 1034.5, RD: 61.2, Volatility: 0.06, Games: 80}}, "eximo": {}}
	data, err := levels.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseLevels(data)
	if err != nil || len(back) != 2 || back["pommel"]["1"] != levels["pommel"]["1"] || data[len(data)-1] != '\n' {
		t.Errorf("wrote\n%s\nread back %+v, %v", data, back, err)
	}
}

func TestParseLevelsRefuses(t *testing.T) {
	for _, text := range []string{"", "[]", `{"pommel": 3}`, `{"pommel": {"1": {"rating": "high"}}}`, "{"} {
		if _, err := ParseLevels([]byte(text)); err == nil {
			t.Errorf("ParseLevels(%q) accepted it", text)
		}
	}
}
