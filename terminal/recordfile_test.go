package terminal

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/record"
)

// twoGames is a record file of a finished game and an unfinished one.
const twoGames = `[Game "pommel"]
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

// loaded starts people playing on from game index (0-based) of path,
// kept in its file.
func loaded(t *testing.T, path string, index int) *play.Game {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.Read(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	r := recs[index]
	s, err := r.Replay(index + 1)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := play.New(play.Config{Start: s, Record: r, Seats: make([]play.Seat, 2), Keeper: LoadedGameFile(path, index, r)})
	if err != nil {
		t.Fatal(err)
	}
	return pg
}

// games reads the games of path.
func games(t *testing.T, path string) []*record.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.Read(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A game loaded from a file is saved back in its place only while nothing
// saved is lost; taking back a loaded move or going on from a finished
// game adds a new game to the file, the original left as it was.
func TestLoadedGameFile(t *testing.T) {
	t.Parallel()
	move := func(text string) func(*testing.T, *play.Game) {
		return func(t *testing.T, pg *play.Game) {
			if _, err := pg.Move(pg.ToMove(), text); err != nil {
				t.Fatal(err)
			}
		}
	}
	undo := func(t *testing.T, pg *play.Game) {
		if _, err := pg.Undo(1); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		index int
		steps []func(*testing.T, *play.Game)
		// want are the moves of each game of the file after the steps.
		want [][]string
	}{
		{"looking writes nothing", 1, nil, nil},
		{"going on saves in place", 1, []func(*testing.T, *play.Game){move("a6-a4")},
			[][]string{{"c3xc5"}, {"a1-a3", "g6-g4", "b1-b3", "a6-a4"}}},
		{"a take-back adds a new game", 1, []func(*testing.T, *play.Game){undo},
			[][]string{{"c3xc5"}, {"a1-a3", "g6-g4", "b1-b3"}, {"a1-a3", "g6-g4"}}},
		{"the new game goes on in its place", 1, []func(*testing.T, *play.Game){undo, move("b1-b3"), move("a6-a4")},
			[][]string{{"c3xc5"}, {"a1-a3", "g6-g4", "b1-b3"}, {"a1-a3", "g6-g4", "b1-b3", "a6-a4"}}},
		{"a finished game is never rewritten", 0, []func(*testing.T, *play.Game){undo},
			[][]string{{"c3xc5"}, {"a1-a3", "g6-g4", "b1-b3"}, {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "m.pdn")
			if err := os.WriteFile(path, []byte(twoGames), 0o644); err != nil {
				t.Fatal(err)
			}
			pg := loaded(t, path, tt.index)
			for _, step := range tt.steps {
				step(t, pg)
			}
			if tt.want == nil {
				if data, _ := os.ReadFile(path); string(data) != twoGames {
					t.Errorf("the file changed:\n%s", data)
				}
				return
			}
			recs := games(t, path)
			if len(recs) != len(tt.want) {
				t.Fatalf("%d games in the file, want %d", len(recs), len(tt.want))
			}
			for i, r := range recs {
				if !slices.Equal(r.Moves, tt.want[i]) && len(r.Moves)+len(tt.want[i]) > 0 {
					t.Errorf("game %d has the moves %v, want %v", i+1, r.Moves, tt.want[i])
				}
			}
		})
	}
}

// A change the file cannot keep is refused: the player is told what was
// not done and why, the game stays as it was saved, and a loaded game
// keeps its place in the file for when the file takes changes again.
func TestRecordFileRefusesWhatItCannotSave(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "m.pdn")
	if err := os.WriteFile(path, []byte(twoGames), 0o444); err != nil {
		t.Fatal(err)
	}
	pg := loaded(t, path, 1)
	out := runText(t, pg, "a6-a4\nundo\nresign\nquit\n", Options{})
	inOrder(t, out,
		"Black> a6-a4 was not played: could not save the game: "+path+" is read-only",
		"Black> nothing was taken back: could not save the game: ",
		"Black> the game goes on: could not save the game: ",
		"Black> ")
	if moves := pg.Moves(); len(moves) != 3 || pg.Result().Over() {
		t.Errorf("the game after refusals: moves %v, result %+v", moves, pg.Result())
	}
	if data, _ := os.ReadFile(path); string(data) != twoGames {
		t.Errorf("the file changed:\n%s", data)
	}
	// The refused take-back did not make the game a new one: once the
	// file takes changes, the game goes on in its place.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.Move(1, "a6-a4"); err != nil {
		t.Fatal(err)
	}
	if recs := games(t, path); len(recs) != 2 || len(recs[1].Moves) != 4 {
		t.Errorf("after the file took changes again: %d games", len(recs))
	}
}
