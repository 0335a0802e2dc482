package all_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// optionSets returns every combination of the values of a game's options
// that have a list of values (integer options keep their defaults); under
// -short, each value alone (see eachOptionAlone).
func optionSets(d game.Descriptor) []map[string]string {
	if testing.Short() {
		return eachOptionAlone(d)
	}
	sets := []map[string]string{{}}
	for _, o := range d.Options {
		var next []map[string]string
		for _, set := range sets {
			for _, v := range o.Values {
				m := map[string]string{o.Key: v}
				for k, x := range set {
					m[k] = x
				}
				next = append(next, m)
			}
		}
		if len(o.Values) > 0 {
			sets = next
		}
	}
	return sets
}

// eachOptionAlone is -short's sample of optionSets: the defaults, and
// every other value of each option with the rest at their defaults (5
// sets for a Punt game where every combination makes 12).
func eachOptionAlone(d game.Descriptor) []map[string]string {
	sets := []map[string]string{{}}
	for _, o := range d.Options {
		for _, v := range o.Values {
			if v != o.Default {
				sets = append(sets, map[string]string{o.Key: v})
			}
		}
	}
	return sets
}

// TestConformance runs the conformance suite over every registered game
// and every set of option values.
func TestConformance(t *testing.T) {
	// Eight random games of up to 400 plies for every set of options (a
	// Punt game has 12): the suite checks each position of each from
	// several goroutines, and the games' own packages play their rules
	// deeper. Twenty games made this CI's longest package.
	games := 8
	if testing.Short() {
		games = 2 // for every set of options, on goroutines of their own
	}
	for _, d := range game.All() {
		for _, opts := range optionSets(d) {
			g, err := game.New(d.ID, opts)
			if err != nil {
				t.Fatal(err)
			}
			n := games
			if testing.Short() && len(opts) > 0 {
				n = 1 // a variant's one game; the defaults get two
			}
			t.Run(d.ID+" "+g.Options().String(), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(uint64(len(d.ID)), 7))
				for i := 0; i < n; i++ {
					gametest.RandomGame(t, g.Start(), rng, 400, nil)
				}
			})
		}
	}
}

func TestRegistry(t *testing.T) {
	ids := map[string]bool{}
	for _, d := range game.All() {
		ids[d.ID] = true
		if d.Summary == "" || d.Players < 2 || d.Players > game.MaxPlayers {
			t.Errorf("%s: incomplete descriptor %+v", d.ID, d)
		}
		g, err := game.New(d.ID, nil)
		if err != nil {
			t.Fatalf("%s with default options: %v", d.ID, err)
		}
		if g.ID() != d.ID || g.Players() != d.Players || g.Options().Get("maxplies") != "600" {
			t.Errorf("%s: built game says id %s, %d players, options %s", d.ID, g.ID(), g.Players(), g.Options())
		}
		gametest.CheckSeats(t, d, g)
	}
	// RULINGS section 0 names every game id; each registered one must be
	// among them.
	known := map[string]bool{"pommel": true, "pommel-76": true, "eximo": true, "checkers-2011": true,
		"punt-match": true, "punt-heks-match": true, "punt-heks-match-3p": true}
	for id := range ids {
		if !known[id] {
			t.Errorf("%s is not a game id of RULINGS section 0", id)
		}
	}
	if _, err := game.New("nosuch", nil); err == nil {
		t.Error("an unknown game was built")
	}
	if _, err := game.New("pommel", map[string]string{"hop": "sideways"}); err == nil {
		t.Error("a bad option value was accepted")
	}
	if _, err := game.New("pommel", map[string]string{"colour": "red"}); err == nil {
		t.Error("an unknown option was accepted")
	}
	if _, err := game.New("pommel", map[string]string{"maxplies": "0"}); err == nil {
		t.Error("maxplies=0 was accepted")
	}
}
