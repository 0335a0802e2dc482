package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// TestSeatFlagsFromKeys: play has one seat flag for the key of every seat
// of every registered game, and today's flags are among them.
func TestSeatFlagsFromKeys(t *testing.T) {
	t.Parallel()
	flags := playCmd().Flags()
	var keys []string
	for _, s := range game.AllSeats() {
		keys = append(keys, s.Key)
		f := flags.Lookup(s.Key)
		if f == nil || f.DefValue != "human" || !strings.HasPrefix(f.Usage, "who plays "+s.Key+": ") {
			t.Errorf("--%s: flag %+v, want a seat flag defaulting to human", s.Key, f)
		}
	}
	if want := []string{"white", "black", "red"}; !slices.Equal(keys, want) {
		t.Errorf("seat flags %v, want %v", keys, want)
	}
}

// TestSeatFlagsByKey: a seat flag sets the seat with its key, whatever its
// place in the turn order (Eximo's White is its second player).
func TestSeatFlagsByKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"eximo", "--white", "random"}, "eximo. Black: a person; White: the AI (random)."},
		{[]string{"eximo", "--black", "random"}, "eximo. Black: the AI (random); White: a person."},
		{[]string{"pommel", "--black", "random"}, "pommel. White: a person; Black: the AI (random)."},
		{[]string{"punt-heks-match-3p", "--red", "random", "--name", "WHITE=Ann", "--name", "black=Bob"},
			"punt-heks-match-3p. White: Ann; Black: Bob; Red: the AI (random)."},
		{[]string{"eximo", "--name", "White=Ann"}, "eximo. Black: a person; White: Ann."},
	}
	for _, tt := range tests {
		args := append([]string{"play"}, tt.args...)
		r := run(t, "quit\n", args...)
		if r.code != 0 || !strings.Contains(r.out, tt.want) {
			t.Errorf("arbiter %s: exit %d, stderr %q; want %q in:\n%s", strings.Join(args, " "), r.code, r.errOut, tt.want, r.out)
		}
	}
}

// TestSeatFlagRefused: a seat flag of a seat the game lacks names the
// seat and the game's own flags, in its turn order.
func TestSeatFlagRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"eximo", "--red", "ab"}, "arbiter: --red: eximo has no Red seat; its seats are Black, White (--black, --white)\n"},
		{[]string{"punt-match", "--red", "human"}, "arbiter: --red: punt-match has no Red seat; its seats are White, Black (--white, --black)\n"},
		{[]string{"eximo", "--white", "nosuch"}, `arbiter: --white: `},
	}
	for _, tt := range tests {
		args := append([]string{"play"}, tt.args...)
		r := run(t, "quit\n", args...)
		if r.code == 0 || r.out != "" || !strings.HasPrefix(r.errOut, tt.want) || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("arbiter %s: exit %d, stdout %q, stderr %q; want %q", strings.Join(args, " "), r.code, r.out, r.errOut, tt.want)
		}
	}
}

// TestSeatByName: --view and --name find a seat by its key or its name in
// any case, and a miss lists the keys.
func TestSeatByName(t *testing.T) {
	t.Parallel()
	eximo, _ := game.New("eximo", nil)
	punt3, _ := game.New("punt-heks-match-3p", nil)
	tests := []struct {
		g    game.Game
		text string
		want game.Player
		err  string
	}{
		{eximo, "black", 0, ""},
		{eximo, "Black", 0, ""},
		{eximo, "white", 1, ""},
		{eximo, "WHITE", 1, ""},
		{eximo, "w", 0, `--view "w": eximo has the seats black, white`},
		{eximo, "red", 0, `--view "red": eximo has the seats black, white`},
		{punt3, "red", 2, ""},
		{punt3, "Red", 2, ""},
		{punt3, "blue", 0, `--view "blue": punt-heks-match-3p has the seats white, black, red`},
	}
	for _, tc := range tests {
		p, err := seatByName(tc.g, tc.text, "--view")
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%s %q: error %v, want %s", tc.g.ID(), tc.text, err, tc.err)
		case tc.err == "" && (err != nil || p != tc.want):
			t.Errorf("%s %q: seat %d, %v; want %d", tc.g.ID(), tc.text, p, err, tc.want)
		}
	}
}

// TestSeatNamesByKey: --name SEAT=NAME puts each name on the seat its key
// or name says, in turn order, and its example uses the first seat's key.
func TestSeatNamesByKey(t *testing.T) {
	t.Parallel()
	eximo, _ := game.New("eximo", nil)
	pf := playFlags{names: []string{"white=Ann", "BLACK=Bob"}}
	names, err := pf.seatNames(eximo)
	if err != nil || !slices.Equal(names, []string{"Bob", "Ann"}) {
		t.Errorf("eximo names %q, %v; want [Bob Ann]", names, err)
	}
	pf = playFlags{names: []string{"Ann"}}
	if _, err := pf.seatNames(eximo); err == nil || err.Error() != `--name "Ann": write SEAT=NAME, such as black=Ann` {
		t.Errorf("eximo --name Ann: %v", err)
	}
}
