package cli

import (
	"github.com/arbiter-games/arbiter/internal/testtext"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlaySavesAndResumes: a game played with --save is in the file after
// every move, undo included; --load resumes it and saves back in place,
// keeping the other games of the file.
func TestPlaySavesAndResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pdn")
	if r := run(t, "a1-a3\na6-a4\na3xa6\nundo\nquit\n", "play", "pommel", "--save", path); r.code != 0 {
		t.Fatalf("play: %+v", r)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{`[Game "pommel"]`, `[Options "first=white hop=friendly maxplies=600 swap=off"]`, "1. a1-a3 a6-a4 *"} {
		if !strings.Contains(text, want) {
			t.Errorf("saved file lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "a3xa6") {
		t.Errorf("the undone move is still saved:\n%s", text)
	}
	// A second game goes after the first.
	run(t, "g1-g3\nquit\n", "play", "pommel-76", "--save", path)
	// Resume the first game: the capture a3xa6 is forced.
	r := run(t, "a3xa6\nquit\n", "play", "--load", path, "--game", "1")
	if r.code != 0 || !strings.Contains(r.out, "Legal moves (1): a3xa6") {
		t.Fatalf("resume: %+v", r)
	}
	out := runOK(t, "replay", path)
	for _, want := range []string{"Game 1: pommel (first=white hop=friendly maxplies=600 swap=off), White ? vs Black ?; 3 moves", "Game 2: pommel-76", "; 1 move;"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
}

// TestPlayKeepsNotes: comments and variations in a record file, in the
// game played on and in the others, are still there after saving; so is a
// comment in a file that holds no game yet.
func TestPlayKeepsNotes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "annotated.pdn")
	const annotated = `{the club's games}
[Game "pommel"]
[Result "*"]

1. a1-a3 {a quiet start} a6-a4 (a5-a4 is also fine) *

[Game "pommel"]
[Result "*"]

1. g1-g3 ; the other wing
*
`
	if err := os.WriteFile(path, []byte(annotated), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, "a3xa6\nquit\n", "play", "--load", path, "--game", "1"); r.code != 0 {
		t.Fatalf("play: %+v", r)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"{the club's games}", "{a quiet start}", "(a5-a4 is also fine) 2. a3xa6", "; the other wing"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the saved file lost %q:\n%s", want, data)
		}
	}
	only := filepath.Join(dir, "new.pdn")
	os.WriteFile(only, []byte("{games of the spring season}\n"), 0o644)
	run(t, "a1-a3\nquit\n", "play", "pommel", "--save", only)
	data, _ = os.ReadFile(only)
	if !strings.HasPrefix(string(data), "{games of the spring season}\n\n[") || !strings.Contains(string(data), "1. a1-a3 *") {
		t.Errorf("saving into a file of comments gave:\n%s", data)
	}
}

// TestPlayNeverOverwritesAForeignFile: a file that is not a record file is
// left as it was.
func TestPlayNeverOverwritesAForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	const notes = "my shopping list {milk\n"
	if err := os.WriteFile(path, []byte(notes), 0o644); err != nil {
		t.Fatal(err)
	}
	// Refused before the game starts, naming the file.
	r := run(t, "a1-a3\nquit\n", "play", "pommel", "--save", path)
	if r.code == 0 || r.out != "" || !strings.Contains(r.errOut, "arbiter: --save: "+path+" is not a record file") {
		t.Errorf("want a refusal before the game: %+v", r)
	}
	if data, _ := os.ReadFile(path); string(data) != notes {
		t.Errorf("the file was changed to %q", data)
	}
}

func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pdn")
	os.WriteFile(bad, []byte("[Game \"pommel\"]\n\n1. a1-a3 a6-a4 2. b1-b3 *\n"), 0o644)
	r := run(t, "", "replay", bad)
	if r.code == 0 || !strings.Contains(r.errOut, `game 1 (line 1), move 3 "b1-b3": capture is compulsory`) {
		t.Errorf("replay of an illegal move: %+v", r)
	}
	r = run(t, "", "replay", filepath.Join(dir, "missing.pdn"))
	if r.code == 0 || !strings.Contains(r.errOut, "missing.pdn") {
		t.Errorf("replay of a missing file: %+v", r)
	}
	r = run(t, "", "play", "--load", bad)
	if r.code == 0 || !strings.Contains(r.errOut, "capture is compulsory") {
		t.Errorf("load of a bad record: %+v", r)
	}
}

// TestMatchWritesRecords: every game of a match is in the record file and
// replays.
func TestMatchWritesRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "match.pdn")
	out := runOK(t, "match", "pommel", "--player", "a=ab", "--player", "b=random", "--games", "4", "--depth", "1", "-q", "--out", path)
	if !strings.Contains(out, "a ") || !strings.Contains(out, "average length") {
		t.Errorf("table:\n%s", out)
	}
	replay := runOK(t, "replay", path)
	if !strings.Contains(replay, "Game 4: pommel") || strings.Contains(replay, "Game 5:") || !strings.Contains(replay, "White a vs Black b") || !strings.Contains(replay, "White b vs Black a") {
		t.Errorf("replay of the match file:\n%s", replay)
	}
}

// TestMatchAddsToARecordFile: --out into a record file keeps its games and
// its notes, the match's games after them; a file of comments alone keeps
// them too.
func TestMatchAddsToARecordFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "club.pdn")
	const club = "{the club's games}\n[Game \"pommel\"]\n[White \"Ann\"]\n[Result \"*\"]\n\n1. a1-a3 {a quiet start} *\n"
	testtext.WriteFile(t, path, club, 0o640)
	runOK(t, "match", "pommel", "--player", "a=random", "--player", "b=random", "--games", "2", "--nodes", "1", "-q", "--out", path)
	text := testtext.ReadFile(t, path)
	if !strings.HasPrefix(text, strings.TrimSuffix(club, "\n")+"\n\n[") {
		t.Errorf("the file's own game is not kept at its head:\n%s", text)
	}
	replay := runOK(t, "replay", path)
	for _, want := range []string{"Game 1: pommel (first=white hop=friendly maxplies=600 swap=off), White Ann", "Game 2: pommel", "Game 3: pommel"} {
		if !strings.Contains(replay, want) {
			t.Errorf("replay lacks %q:\n%s", want, replay)
		}
	}
	if strings.Contains(replay, "Game 4:") {
		t.Errorf("more games than 1 + 2:\n%s", replay)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("the file's mode became %v", info.Mode().Perm())
	}
	comments := filepath.Join(dir, "comments.pdn")
	testtext.WriteFile(t, comments, "{spring season}\n", 0o644)
	runOK(t, "match", "pommel", "--player", "a=random", "--player", "b=random", "--games", "1", "--nodes", "1", "-q", "--out", comments)
	if text := testtext.ReadFile(t, comments); !strings.HasPrefix(text, "{spring season}\n\n[Event \"arbiter match\"]") {
		t.Errorf("a file of comments became:\n%s", text)
	}
}

// TestMatchOutRefusedFirst: a --out that cannot be saved into is refused
// before the first game (no table printed), naming the user's path, and
// leaves a read-only file as it was.
func TestMatchOutRefusedFirst(t *testing.T) {
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked.pdn")
	testtext.WriteFile(t, locked, testtext.ARecord, 0o444)
	for _, out := range []string{locked, filepath.Join(dir, "nowhere", "x.pdn")} {
		r := run(t, "", "match", "pommel", "--player", "a=random", "--player", "b=random", "--games", "2", "--nodes", "1", "-q", "--out", out)
		if r.code == 0 || r.out != "" || !strings.Contains(r.errOut, out) || strings.Contains(r.errOut, ".tmp") {
			t.Errorf("--out %s: %+v", out, r)
		}
	}
	if text := testtext.ReadFile(t, locked); text != testtext.ARecord {
		t.Errorf("the read-only file became:\n%s", text)
	}
}

// TestReplayNoGame: a file with no game, empty or comments alone, is an
// error saying so.
func TestReplayNoGame(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"empty.pdn": "", "comments.pdn": "{nothing yet}\n; still nothing\n"} {
		path := filepath.Join(dir, name)
		testtext.WriteFile(t, path, text, 0o644)
		r := run(t, "", "replay", path)
		if r.code == 0 || r.out != "" || r.errOut != "arbiter: "+path+" holds no game\n" {
			t.Errorf("replay %s: %+v", name, r)
		}
	}
}
