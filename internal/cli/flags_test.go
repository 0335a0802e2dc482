package cli

import (
	"github.com/arbiter-games/arbiter/internal/testtext"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// leak matches what must never reach a user: a Go panic, a goroutine
// trace, or the text of Go's number and duration parsers.
var leak = regexp.MustCompile(`panic|goroutine|runtime error|strconv|Parse(Int|Uint|Float)|invalid syntax|value out of range|time: `)

// refusalLimit is how long a refusal may take (see runWithin).
const refusalLimit = 30 * time.Second

// runWithin runs args as run does, failing the test if the command takes
// longer than limit (a refusal must come at once, not after a search).
// The limits are far above what a refusal takes (milliseconds) and far
// below what the work it refuses would (a 25-hour search, a match of
// 10^20 games), so that a machine busy with other work never fails them.
func runWithin(t *testing.T, limit time.Duration, in string, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() { done <- r }()
		r = run(t, in, args...)
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(limit):
		t.Fatalf("arbiter %s: no answer within %v", strings.Join(args, " "), limit)
		return result{}
	}
}

// TestBadFlagValues runs every command with bad values of its flags
// (negative, zero where zero means nothing, too large, malformed) and
// checks that each is refused at once: non-zero exit, nothing on stdout,
// one line on stderr that starts "arbiter: " and names the flag, and no
// panic or parser text.
func TestBadFlagValues(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	oneGame := filepath.Join(dir, "one.pdn")
	notes := filepath.Join(dir, "notes.txt")
	testtext.WriteFile(t, oneGame, testtext.ARecord, 0o644)
	testtext.WriteFile(t, notes, "my shopping list\n", 0o644)
	huge := "99999999999999999999"
	match := []string{"match", "pommel", "--player", "a=random", "--player", "b=random", "--depth", "1", "-q"}
	play := []string{"play", "pommel", "--black", "random"}
	tests := []struct {
		args []string
		want []string // parts of the message; the flag's name at least
	}{
		// The root, help and completion.
		{[]string{"--nosuch"}, []string{"--nosuch"}},
		{[]string{"--version=maybe"}, []string{"--version", "true or false"}},
		{[]string{"nosuch"}, []string{`"nosuch"`}},
		{[]string{"help", "nosuch"}, []string{"help", `"nosuch"`}},
		{[]string{"help", "nosuch", "moves"}, []string{"help", `"nosuch moves"`}},
		{[]string{"completion", "nosuch"}, []string{"completion", `"nosuch"`, "bash"}},
		// games and engine take no flags and no arguments.
		{[]string{"games", "--depth", "3"}, []string{"--depth"}},
		{[]string{"games", "extra"}, []string{"games", "usage"}},
		{[]string{"engine", "--depth", "3"}, []string{"--depth"}},
		{[]string{"engine", "extra"}, []string{"engine", "usage"}},
		// bot: its flags, its site, token and engine.
		{[]string{"bot", "--games", "9"}, []string{"--games 9", "1 to 8"}},
		{[]string{"bot", "--overhead", "2m"}, []string{"--overhead 2m0s", "to 1m"}},
		{[]string{"bot", "--movetime", "-1s"}, []string{"--movetime -1s"}},
		{[]string{"bot", "extra"}, []string{"bot", "usage"}},
		{[]string{"bot"}, []string{"--site"}},
		{[]string{"bot", "--site", "ftp://example.org", "--token", "t", "--engine", "e"}, []string{`--site "ftp://example.org"`}},
		{[]string{"bot", "--site", "http://localhost:1", "--engine", "e"}, []string{"--token", "ARBITER_BOT_TOKEN"}},
		{[]string{"bot", "--site", "http://localhost:1", "--token", "t"}, []string{"--engine"}},
		{[]string{"bot", "--site", "http://localhost:1", "--token", "t", "--engine", "e", "--option", "novalue"}, []string{`--option "novalue"`, "NAME=VALUE"}},
		{[]string{"bot", "--site", "http://localhost:1", "--token", "t", "--engine", "no-such-engine-here"}, []string{"the engine", "no-such-engine-here"}},
		// The position flags of moves, fen, show and perft.
		{[]string{"moves", "pommel", "-o", "maxplies=-1"}, []string{"maxplies=-1", "1 to 1000000"}},
		{[]string{"fen", "pommel", "-o", "maxplies=0"}, []string{"maxplies=0", "1 to 1000000"}},
		{[]string{"show", "pommel", "-o", "maxplies=" + huge}, []string{"maxplies=" + huge, "1 to 1000000"}},
		{[]string{"moves", "pommel", "-o", "maxplies=x"}, []string{"maxplies=x", "whole number"}},
		{[]string{"moves", "pommel", "-o"}, []string{"--option", "key=value"}},
		{[]string{"show", "pommel", "--from"}, []string{"--from", "FEN"}},
		{[]string{"fen", "pommel", "--from", "W:Wz9:Ba6"}, []string{"FEN", "z9"}},
		// perft's DEPTH, which is not a flag but is checked the same way.
		{[]string{"perft", "pommel", "-1"}, []string{`"-1"`, "depth", "0 to 32"}},
		{[]string{"perft", "pommel", "33"}, []string{`depth "33"`, "0 to 32"}},
		{[]string{"perft", "pommel", "1000"}, []string{`depth "1000"`, "0 to 32"}},
		{[]string{"perft", "pommel", huge}, []string{`depth "` + huge + `"`, "0 to 32"}},
		{[]string{"perft", "pommel", "x"}, []string{`depth "x"`, "0 to 32"}},
		{[]string{"perft", "pommel", "1", "--divide=maybe"}, []string{"--divide", "true or false"}},
		{[]string{"perft", "pommel", "1", "-o", "maxplies=-5"}, []string{"maxplies=-5"}},
		// replay's --game.
		{[]string{"replay", oneGame, "--game", "-1"}, []string{"--game -1", "0 for every game"}},
		{[]string{"replay", oneGame, "--game", "2"}, []string{"--game 2", "holds 1 game"}},
		{[]string{"replay", oneGame, "--game", huge}, []string{"--game", huge}},
		{[]string{"replay", oneGame, "--game", "x"}, []string{`--game "x"`, "whole number"}},
		// best: the limits, the seed, the engine.
		{[]string{"best", "pommel", "--movetime", "-1s"}, []string{"--movetime -1s", "duration", "or 0"}},
		{[]string{"best", "pommel", "--movetime", "25h"}, []string{"--movetime 25h0m0s", "to 24h"}},
		{[]string{"best", "pommel", "--movetime", "5"}, []string{`--movetime "5"`, "such as 500ms"}},
		{[]string{"best", "pommel", "--movetime", "99999999999h"}, []string{`--movetime "99999999999h"`}},
		{[]string{"best", "pommel", "--movetime", "0"}, []string{"--movetime 0", "--depth or --nodes"}},
		{[]string{"best", "pommel", "--depth", "-3"}, []string{"--depth -3", "1 to 64", "0 for no depth limit"}},
		{[]string{"best", "pommel", "--depth", "65"}, []string{"--depth 65", "1 to 64"}},
		{[]string{"best", "pommel", "--depth", "1.5"}, []string{`--depth "1.5"`, "1 to 64"}},
		{[]string{"best", "pommel", "--depth", huge}, []string{"--depth", "1 to 64"}},
		{[]string{"best", "pommel", "--nodes", "-5"}, []string{"--nodes -5", "1 to 1000000000"}},
		{[]string{"best", "pommel", "--nodes", "1000000001"}, []string{"--nodes 1000000001"}},
		{[]string{"best", "pommel", "--nodes", "many"}, []string{`--nodes "many"`, "whole number"}},
		{[]string{"best", "pommel", "--seed", "-1"}, []string{`--seed "-1"`, "0 or more"}},
		{[]string{"best", "pommel", "--seed", "18446744073709551616"}, []string{"--seed", "0 or more"}},
		{[]string{"best", "pommel", "--seed"}, []string{"--seed needs a value", "0 or more"}},
		{[]string{"best", "pommel", "--player", "nosuch"}, []string{"--player", `"nosuch"`}},
		{[]string{"best", "pommel", "--threads", "0"}, []string{"--threads 0", "1 to 64"}},
		{[]string{"best", "pommel", "--threads", "-2"}, []string{"--threads -2", "1 to 64"}},
		{[]string{"best", "pommel", "--threads", "65"}, []string{"--threads 65", "1 to 64"}},
		{[]string{"best", "pommel", "--threads", huge}, []string{"--threads", "1 to 64"}},
		{[]string{"best", "pommel", "--threads", "2.5"}, []string{`--threads "2.5"`, "1 to 64"}},
		{[]string{"best", "pommel", "--threads", "NaN"}, []string{`--threads "NaN"`, "1 to 64"}},
		// match: counts, limits, players and the record file.
		{append(match, "--games", "-3"), []string{"--games -3", "1 to 100000"}},
		{append(match, "--games", "0"), []string{"--games 0", "1 to 100000"}},
		{append(match, "--games", "100001"), []string{"--games 100001"}},
		{append(match, "--games", "x"), []string{`--games "x"`}},
		{append(match, "--concurrency", "0"), []string{"--concurrency 0", "1 to 64"}},
		{append(match, "--concurrency", "-1"), []string{"--concurrency -1"}},
		{append(match, "--concurrency", "65"), []string{"--concurrency 65"}},
		{append(match, "--opening", "-2"), []string{"--opening -2", "0 to 599"}},
		{append(match, "--opening", "600"), []string{"--opening 600", "0 to 599"}},
		{append(match, "--opening", "10", "-o", "maxplies=10"), []string{"--opening 10", "0 to 9"}},
		{append(match, "--opening", "x"), []string{`--opening "x"`, "maxplies"}},
		{append(match, "--movetime", "-20ms"), []string{"--movetime -20ms"}},
		{append(match, "--movetime", "20"), []string{`--movetime "20"`}},
		{append(match, "--depth", "-2"), []string{"--depth -2"}},
		{append(match, "--depth", "65"), []string{"--depth 65"}},
		{append(match, "--nodes", "-2"), []string{"--nodes -2"}},
		{append(match, "--seed", "-1"), []string{`--seed "-1"`}},
		{[]string{"match", "pommel", "--player", "a=random", "--player", "b=random", "-q"}, []string{"--movetime", "--depth", "--nodes"}},
		{[]string{"match", "pommel", "--player", "a=random", "--player", "a=ab", "--depth", "1"}, []string{"--player a", "twice"}},
		{[]string{"match", "pommel", "--player", "a=random", "--depth", "1"}, []string{"--player", "2 seats", "White, Black", "not 1 time"}},
		{append(match, "--player", "c=ab"), []string{"--player", "2 seats", "not 3 times"}},
		{[]string{"match", "pommel", "--player", "a", "--player", "b=ab", "--depth", "1"}, []string{`--player "a"`, "NAME=SPEC"}},
		{[]string{"match", "pommel", "--player", "a=nosuch", "--player", "b=ab", "--depth", "1"}, []string{"--player a", `"nosuch"`}},
		{append(match, "--out", filepath.Join(dir, "nowhere", "x.pdn")), []string{"--out", filepath.Join(dir, "nowhere", "x.pdn"), "does not exist"}},
		{append(match, "--out", dir), []string{"--out", dir, "is a directory"}},
		{append(match, "--out", notes), []string{"--out", notes, "not a record file"}},
		// play's seat flags (play's own --game, --load, --save are tested
		// with the play command).
		{[]string{"play", "pommel", "--red", "ab"}, []string{"--red", "pommel has no Red seat", "White, Black"}},
		{[]string{"play", "pommel", "--red", "human"}, []string{"--red", "pommel has no Red seat"}},
		{[]string{"play", "pommel", "--white", "nosuch"}, []string{"--white", `"nosuch"`}},
		{[]string{"play", "pommel", "--black", "ab:depth=99"}, []string{"--black", "depth=99"}},
		{append(play, "--movetime", "-1s"), []string{"--movetime -1s", "or 0 for the level's own time"}},
		{append(play, "--movetime", "1"), []string{`--movetime "1"`}},
		{append(play, "--depth", "-1"), []string{"--depth -1", "1 to 64"}},
		{append(play, "--depth", "65"), []string{"--depth 65", "1 to 64"}},
		{append(play, "--nodes", "-5"), []string{"--nodes -5"}},
		{append(play, "--nodes", huge), []string{"--nodes", huge}},
		{append(play, "--seed", "-1"), []string{`--seed "-1"`, "0 or more"}},
		{append(play, "--seed", "x"), []string{`--seed "x"`}},
		// play's own flags.
		{[]string{"play", "pommel", "--game", "2"}, []string{"--game 2", "--load"}},
		{[]string{"play", "--load", oneGame, "--game", "0"}, []string{"--game 0", "1 or more"}},
		{[]string{"play", "--load", oneGame, "--game", "-3"}, []string{"--game -3", "1 or more"}},
		{[]string{"play", "--load", oneGame, "--game", "2"}, []string{"--game 2", "holds 1 game"}},
		{[]string{"play", "--load", oneGame, "--game", huge}, []string{"--game", huge}},
		{[]string{"play", "--load", oneGame, "--game", "x"}, []string{`--game "x"`}},
		{[]string{"play", "--load", oneGame, "--from", "W:Wa1:Bg6"}, []string{"--from", "--load"}},
		{[]string{"play", "--load", oneGame, "-o", "hop=any"}, []string{"--option", "--load"}},
		{[]string{"play", "--load", filepath.Join(dir, "none.pdn")}, []string{"none.pdn"}},
		{[]string{"play", "pommel", "--save", filepath.Join(dir, "no", "dir.pdn")}, []string{"--save", "dir.pdn"}},
		{[]string{"play", "pommel", "--save", dir}, []string{"--save", dir}},
		{[]string{"play", "pommel", "--clock", "-5m"}, []string{"--clock", "-5m"}},
		{[]string{"play", "pommel", "--clock", "0s+1s"}, []string{"--clock", "from 1ms"}},
		{[]string{"play", "pommel", "--clock", "5m+-1s"}, []string{"--clock", "increment"}},
		{[]string{"play", "pommel", "--clock", "99999h"}, []string{"--clock", "to 720h"}},
		{[]string{"play", "pommel", "--clock", "x"}, []string{`--clock "x"`}},
		{[]string{"play", "pommel", "--name", "white"}, []string{"--name", "SEAT=NAME"}},
		{[]string{"play", "pommel", "--name", "red=Ann"}, []string{"--name", "white, black"}},
		{[]string{"play", "pommel", "--view", "red"}, []string{"--view", "white, black"}},
		{[]string{"play", "pommel", "--color", "sometimes"}, []string{"--color", "auto, always or never"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			r := runWithin(t, refusalLimit, "quit\n", tt.args...)
			if r.code == 0 {
				t.Errorf("exit status 0, want non-zero")
			}
			if r.out != "" {
				t.Errorf("stdout %q, want nothing", r.out)
			}
			if !strings.HasPrefix(r.errOut, "arbiter: ") || strings.Count(r.errOut, "\n") != 1 || !strings.HasSuffix(r.errOut, "\n") {
				t.Errorf("stderr %q, want one line \"arbiter: ...\"", r.errOut)
			}
			if leak.MatchString(r.errOut) {
				t.Errorf("stderr %q shows Go's internals", r.errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.errOut, w) {
					t.Errorf("stderr %q does not say %q", r.errOut, w)
				}
			}
		})
	}
	if data, _ := os.ReadFile(notes); string(data) != "my shopping list\n" {
		t.Errorf("match --out changed a file that is not a record: %q", data)
	}
}

// TestGoodFlagValues: the edges of each range are accepted, and 0 keeps
// meaning "no limit" where the help says so.
func TestGoodFlagValues(t *testing.T) {
	t.Parallel()
	tests := [][]string{
		{"perft", "pommel", "0"},
		{"best", "pommel", "--depth", "1", "--movetime", "0"},
		{"best", "pommel", "--depth", "3", "--movetime", "0", "--threads", "2"},
		{"best", "pommel", "--nodes", "1", "--movetime", "0", "--seed", "0"},
		{"best", "pommel", "--depth", "1", "--nodes", "0", "--seed", "18446744073709551615"},
		{"match", "pommel", "--player", "a=random", "--player", "b=random", "--games", "1", "--concurrency", "64",
			"--opening", "0", "--nodes", "1", "-q"},
		{"match", "pommel", "--player", "a=random", "--player", "b=random", "--games", "1", "--opening", "9",
			"-o", "maxplies=10", "--movetime", "1ms", "-q"},
		{"play", "pommel", "--black", "random", "--depth", "64", "--movetime", "0", "--nodes", "0"},
		{"play", "punt-heks-match-3p", "--red", "random"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			if r := runWithin(t, 4*refusalLimit, "quit\n", args...); r.code != 0 || r.errOut != "" {
				t.Errorf("exit %d, stderr %q; want 0 and nothing", r.code, r.errOut)
			}
		})
	}
}

// TestVersion: --version prints "arbiter VERSION", the version coming from
// the build: the module version, else the commit, else "(devel)".
func TestVersion(t *testing.T) {
	t.Parallel()
	out := runOK(t, "--version")
	if !regexp.MustCompile(`^arbiter \S.*\n$`).MatchString(out) {
		t.Errorf("arbiter --version printed %q", out)
	}
	setting := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build information", nil, false, "(devel)"},
		{"go install at a version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, true, "v1.2.0"},
		{"built in a clone", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: setting("vcs.revision", "37ae571ecb17", "vcs.modified", "false")}, true, "37ae571ecb17"},
		{"built with changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: setting("vcs.revision", "37ae571ecb17", "vcs.modified", "true")}, true, "37ae571ecb17 (modified)"},
		{"no version control", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "(devel)"},
	}
	for _, tt := range tests {
		if got := buildVersion(tt.info, tt.ok); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestHelpAndCompletion: help for a command and a completion script for a
// shell still work.
func TestHelpAndCompletion(t *testing.T) {
	t.Parallel()
	if out := runOK(t, "help", "match"); !strings.Contains(out, "--concurrency") || !strings.Contains(out, "1 to 64") {
		t.Errorf("help match:\n%s", out)
	}
	if out := runOK(t, "completion", "bash"); !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash printed %.200q", out)
	}
	if out := runOK(t, "completion"); !strings.Contains(out, "zsh") {
		t.Errorf("completion alone printed %q", out)
	}
}
