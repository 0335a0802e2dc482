package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPlayWiring: the flags reach the game: the seats, the names, the
// clock, the view and the colour.
func TestPlayWiring(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		input string
		want  []string // in this order
	}{
		{"an engine seat", []string{"--black", "ab:depth=1"}, "a1-a3\n", // the end of the input lets it move
			[]string{"White: a person; Black: the AI (ab:depth=1).", "Black (ab:depth=1) plays "}},
		{"names", []string{"--name", "white=Ann"}, "quit\n", []string{"White: Ann; Black: a person."}},
		{"clock", []string{"--clock", "5m+3s"}, "quit\n", []string{"Clock: *White ", "   Black 5:00\n"}},
		{"view", []string{"--view", "black"}, "quit\n", []string{"    g   f   e   d   c   b   a\n", "White to move"}},
		{"colour", []string{"--color", "always"}, "quit\n", []string{"\x1b["}},
		{"a game of three", []string{"punt-heks-match-3p"}, "draw\nquit\n", []string{"draws are offered in two-player games only"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"play", "pommel"}, tt.args...)
			if !strings.HasPrefix(tt.args[0], "-") {
				args = append([]string{"play"}, tt.args...)
			}
			r := run(t, tt.input, args...)
			if r.code != 0 || r.errOut != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
			}
			inOrder(t, r.out, tt.want...)
		})
	}
}

// TestPlayResignSaved: a resignation is a result in the record.
func TestPlayResignSaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.pdn")
	run(t, "a1-a3\nresign\n", "play", "pommel", "--save", path, "--name", "white=Ann", "--name", "Black=Bob")
	data, _ := os.ReadFile(path)
	for _, want := range []string{`[White "Ann"]`, `[Black "Bob"]`, `[Result "1-0"]`, `[Termination "resignation"]`, "1. a1-a3 1-0"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("record lacks %q:\n%s", want, data)
		}
	}
	out := runOK(t, "replay", path)
	if !strings.Contains(out, "result 1-0") {
		t.Errorf("replay: %s", out)
	}
	// Loaded, the game is over: no move is taken.
	r := run(t, "g6-g4\nquit\n", "play", "--load", path)
	if !strings.Contains(r.out, "Game over: White wins: Black resigned") || !strings.Contains(r.out, `illegal move "g6-g4": the game is over`) {
		t.Errorf("loaded resigned game: %+v", r)
	}
}

// TestPlayLoadNeverRewrites: looking at a game, taking back its moves or
// going on from a finished game never changes the games in the file.
func TestPlayLoadNeverRewrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.pdn")
	const file = `[Game "pommel"]
[White "a"]
[Black "b"]
[Result "1-0"]
[Termination "no pieces"]
[FEN "W:Wc3:Bc4"]

1. c3xc5 1-0

[Game "pommel"]
[White "c"]
[Black "d"]
[Result "*"]

1. a1-a3 g6-g4 2. b1-b3 *
`
	write := func() {
		if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string { data, _ := os.ReadFile(path); return string(data) }

	write()
	run(t, "history\nboard\nquit\n", "play", "--load", path, "--game", "2")
	if read() != file {
		t.Errorf("looking at a game changed the file:\n%s", read())
	}
	run(t, "undo\nundo\nquit\n", "play", "--load", path, "--game", "2")
	got := read()
	if !strings.HasPrefix(got, file) || !strings.Contains(got[len(file):], "1. a1-a3 *") {
		t.Errorf("taking back loaded moves: the original must stay and the new line go at the end:\n%s", got)
	}

	write()
	run(t, "g6-g4\nquit\n", "play", "--load", path, "--game", "2")
	if got := read(); !strings.Contains(got, "1. a1-a3 g6-g4 2. b1-b3 g6-g4 *") && !strings.Contains(got, "2. b1-b3 g6-g4") {
		// g6-g4 is not legal for Black here; the file must then be unchanged.
		if got != file {
			t.Errorf("an illegal move changed the file:\n%s", got)
		}
	}
	run(t, "a6-a4\nquit\n", "play", "--load", path, "--game", "2")
	if got := read(); !strings.Contains(got, "1. a1-a3 g6-g4 2. b1-b3 a6-a4 *") || strings.Count(got, "[Game") != 2 {
		t.Errorf("going on from an unfinished game must save it in place:\n%s", got)
	}

	write()
	run(t, "undo\nquit\n", "play", "--load", path, "--game", "1")
	got = read()
	if !strings.HasPrefix(got, file) || strings.Count(got, "[Game") != 3 {
		t.Errorf("taking back a finished game must add a new game:\n%s", got)
	}

	write()
	other := filepath.Join(dir, "other.pdn")
	run(t, "a6-a4\nquit\n", "play", "--load", path, "--game", "2", "--save", other, "--white", "ai:level=1", "--movetime", "10ms")
	if read() != file {
		t.Errorf("--save elsewhere changed the loaded file:\n%s", read())
	}
	data, err := os.ReadFile(other)
	if err != nil || !strings.Contains(string(data), "2. b1-b3 a6-a4") || !strings.Contains(string(data), `[White "ai:level=1"]`) ||
		!strings.Contains(string(data), `[Black "d"]`) {
		t.Errorf("--save with --load: %v\n%s", err, data)
	}
}

// TestPlayFlagConflicts: flags that contradict each other are refused
// before the game starts.
func TestPlayFlagConflicts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.pdn")
	run(t, "a1-a3\nquit\n", "play", "pommel", "--save", path)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"pommel", "--game", "2"}, "--game 2: say which file with --load"},
		{[]string{"--load", path, "--from", "W:Wa1:Bg6"}, "--from cannot be used with --load"},
		{[]string{"--load", path, "-o", "hop=any"}, "--option cannot be used with --load"},
		{[]string{"--load", path, "--game", "0"}, "--game 0: want the number of a game in the file, 1 or more"},
		{[]string{"--load", path, "--game", "-1"}, "--game -1"},
		{[]string{"--load", path, "--game", "5"}, "--game 5: " + path + " holds 1 game"},
		{[]string{"pommel", "--color", "pink"}, `--color "pink": want auto, always or never`},
		{[]string{"pommel", "--clock", "5x"}, `--clock "5x": the base "5x" is not a duration or a number of seconds; want BASE+INCREMENT`},
		{[]string{"pommel", "--clock", "-1m"}, `--clock "-1m": a base of -1m0s is out of range`},
		{[]string{"pommel", "--name", "Ann"}, `--name "Ann": write SEAT=NAME, such as white=Ann`},
		{[]string{"pommel", "--name", "green=Ann"}, `--name "green": pommel has the seats white, black`},
		{[]string{"pommel", "--name", "white=A", "--name", "white=B"}, "--name: White is named twice"},
		{[]string{"pommel", "--name", `white=A"B`}, "without quotes"},
		{[]string{"pommel", "--view", "red"}, `--view "red": pommel has the seats white, black`},
	}
	for _, tt := range tests {
		args := append([]string{"play"}, tt.args...)
		start := time.Now()
		r := run(t, "quit\n", args...)
		if r.code == 0 || r.out != "" || !strings.HasPrefix(r.errOut, "arbiter: ") || !strings.Contains(r.errOut, tt.want) ||
			strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("arbiter %s: exit %d, stdout %q, stderr %q; want one error line with %q", strings.Join(args, " "), r.code, r.out, r.errOut, tt.want)
		}
		if time.Since(start) > time.Second {
			t.Errorf("arbiter %s took %s", strings.Join(args, " "), time.Since(start))
		}
	}
}
