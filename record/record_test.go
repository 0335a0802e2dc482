package record_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
	"github.com/arbiter-games/arbiter/record"
)

const twoGames = `[Event "club night"]
[Date "2026.11.21"]
[Game "pommel"]
[Options "hop=friendly maxplies=600"]
[White "Ann \"the hammer\""]
[Black "Bob"]
[Result "*"]

1. a1-a3 {a quiet start} a6-a4 (a5-a4 is also fine) 2. a3xa6 ; leap and promote
*

[Game "pommel"]
[FEN "W:Wd1:Bd2,e3,f5"]
[Result "1-0"]
[Termination "no pieces"]

1. d1xd3xf4xf6 1-0
`

func TestReadAndReplay(t *testing.T) {
	recs, err := record.Read(strings.NewReader(twoGames))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d games, want 2", len(recs))
	}
	if got := recs[0].Get("White"); got != `Ann "the hammer"` {
		t.Errorf("White = %q", got)
	}
	if want := []string{"a1-a3", "a6-a4", "a3xa6"}; !slices.Equal(recs[0].Moves, want) {
		t.Errorf("moves %v, want %v (comments and variations skipped)", recs[0].Moves, want)
	}
	if recs[0].Line != 1 || recs[1].Line != 12 {
		t.Errorf("games start on lines %d and %d, want 1 and 12", recs[0].Line, recs[1].Line)
	}
	for i, r := range recs {
		s, err := r.Replay(i + 1)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 && record.ResultText(s.Result(), 2) != "1-0" {
			t.Errorf("second game ends %v", s.Result())
		}
	}
}

// TestRoundTrip: records written and read back are the same, for random
// games of every registered game.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var recs []*record.Record
	for _, d := range game.All() {
		g, err := game.New(d.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := g.Start()
		r := record.New(g, "", []string{"Ann", "Bob", "Cy"}, "2026.11.21")
		for !s.Result().Over() {
			moves := s.Moves(nil)
			m := moves[rng.IntN(len(moves))]
			r.Moves = append(r.Moves, m.Text(g.Board()))
			s.Play(m)
		}
		r.Finish(s.Result(), g)
		recs = append(recs, r)
	}
	var buf bytes.Buffer
	if err := record.Write(&buf, recs...); err != nil {
		t.Fatal(err)
	}
	back, err := record.Read(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(back) != len(recs) {
		t.Fatalf("read %d games of %d", len(back), len(recs))
	}
	for i := range recs {
		if !slices.Equal(back[i].Tags, recs[i].Tags) || !slices.Equal(back[i].Moves, recs[i].Moves) {
			t.Errorf("game %d changed:\n%+v\n%+v", i+1, recs[i], back[i])
		}
		if _, err := back[i].Replay(i + 1); err != nil {
			t.Errorf("replay: %v", err)
		}
	}
}

func TestCorruptRecords(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"illegal move", "[Game \"pommel\"]\n\n1. a1-a3 a6-a4 2. a3-a4 *\n",
			`game 1 (line 1), move 3 "a3-a4": capture is compulsory; the captures are a3xa6`},
		{"second game wrong", twoGames + "\n[Game \"pommel\"]\n\n1. a1-a4 *\n",
			`game 3 (line 19), move 1 "a1-a4": the piece on a1 can play a1-a3, a1-d3`},
		{"no game tag", "[White \"Ann\"]\n\n1. a1-a3 *\n", `game 1 (line 1): no [Game "..."] tag`},
		{"unknown game", "[Game \"chess\"]\n\n*\n", `unknown game "chess"`},
		{"bad option", "[Game \"pommel\"]\n[Options \"hop=sideways\"]\n\n*\n", "option hop=sideways"},
		{"bad FEN", "[Game \"pommel\"]\n[FEN \"W:Wz9\"]\n\n*\n", `FEN tag: bad FEN "W:Wz9", field 2`},
		{"result disagrees", "[Game \"pommel\"]\n[FEN \"W:Wd1:Bd2,e3,f5\"]\n[Result \"0-1\"]\n\n1. d1xd3xf4xf6 0-1\n",
			"the Result tag says 0-1 but the moves end the game 1-0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := record.Read(strings.NewReader(tc.text))
			if err == nil {
				for i, r := range recs {
					if _, err = r.Replay(i + 1); err != nil {
						break
					}
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"[Game \"pommel\"]\n\n1. a1-a3\n", "line 1 (game 1): the game that starts here ends without a result"},
		{"[Game pommel]\n*", "line 1 (game 1): the value of tag Game must be in double quotes"},
		{"[Game \"pommel]\n*", `line 1 (game 1): the value of tag Game is not closed with "`},
		{"[Game \"pommel\"\n*", "line 1 (game 1): tag Game is not closed with ]"},
		{"[Game \"pommel\"]\n[Game \"pommel\"]\n*", "line 2 (game 1): tag Game is given twice"},
		{"[Game \"pommel\"]\n1. a1-a3 [White \"x\"] *", "line 2 (game 1): a tag pair after the moves"},
		{"[Game \"pommel\"]\n1. a1-a3 {never closed *", "line 2 (game 1): the comment opened here is never closed"},
		{"[Game \"pommel\"]\n[Result \"1-0\"]\n1. a1-a3 0-1", "the moves end with 0-1 but the Result tag says 1-0"},
		{"*\n[Game \"pommel\"]\n1. A1-a3 *", `line 3 (game 2): "A1-a3" is neither a move nor a result`},
	}
	for _, tc := range tests {
		_, err := record.Read(strings.NewReader(tc.text))
		var se *record.SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) = %v, want a syntax error containing %q", tc.text, err, tc.want)
		}
	}
}

func TestResultText(t *testing.T) {
	tests := []struct {
		r       game.Result
		players int
		want    string
	}{
		{game.Result{}, 2, "*"},
		{game.Win(0, game.NoPieces), 2, "1-0"},
		{game.Win(1, game.NoMoves), 2, "0-1"},
		{game.DrawBy(game.Repetition), 2, "1/2-1/2"},
		{game.Win(2, game.Scored), 3, "0-0-1"},
		{game.Result{Reason: game.Scored, Winners: game.PlayerSet(0).Add(0).Add(2)}, 3, "1/2-0-1/2"},
		{game.DrawBy(game.PlyCap), 3, "1/3-1/3-1/3"},
	}
	for _, tc := range tests {
		if got := record.ResultText(tc.r, tc.players); got != tc.want {
			t.Errorf("ResultText(%+v, %d) = %s, want %s", tc.r, tc.players, got, tc.want)
		}
	}
}

// TestNotesKept: comments, variations and escape lines are written back
// where they stood, so that a file read and saved again loses nothing.
func TestNotesKept(t *testing.T) {
	text := `% written by hand
{a club file}
[Game "pommel"]
[Result "*"]

{before the first move} 1. a1-a3 {a quiet start} a6-a4 (a5-a4 (or a6-a5) is
also fine) 2. a3xa6 ; leap and promote
*
{after the result}
`
	want := `% written by hand
{a club file}
[Game "pommel"]
[Result "*"]

{before the first move} 1. a1-a3 {a quiet start} 1... a6-a4
(a5-a4 (or a6-a5) is
also fine) 2. a3xa6 ; leap and promote
* {after the result}
`
	recs, err := record.Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	wantNotes := []record.Note{
		{Ply: record.BeforeTags, Text: "% written by hand"},
		{Ply: record.BeforeTags, Text: "{a club file}"},
		{Ply: 0, Text: "{before the first move}"},
		{Ply: 1, Text: "{a quiet start}"},
		{Ply: 2, Text: "(a5-a4 (or a6-a5) is\nalso fine)"},
		{Ply: 3, Text: "; leap and promote"},
		{Ply: record.AfterResult, Text: "{after the result}"},
	}
	if len(recs) != 1 || !slices.Equal(recs[0].Notes, wantNotes) {
		t.Fatalf("notes read:\n%+v\nwant\n%+v", recs[0].Notes, wantNotes)
	}
	var buf bytes.Buffer
	if err := record.Write(&buf, recs...); err != nil {
		t.Fatal(err)
	}
	if buf.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", buf.String(), want)
	}
	if _, err := recs[0].Replay(1); err != nil {
		t.Errorf("notes got in the way of the moves: %v", err)
	}
	// Taking back a move takes its notes with it, and only those.
	recs[0].Truncate(1)
	if got := len(recs[0].Notes); got != 5 || recs[0].Notes[4].Ply != record.AfterResult {
		t.Errorf("after taking back to one move the notes are %+v", recs[0].Notes)
	}
}

// FuzzRead: any text is either a syntax error or records that write and
// read back the same.
func FuzzRead(f *testing.F) {
	f.Add(twoGames)
	f.Add("[A \"\\\\\"]\n*")
	f.Add("(((")
	// Games set up with another seat to move, numbered old and new.
	f.Add("[Game \"pommel\"]\n[FEN \"" + pommelBlackToMove + "\"]\n\n1. a5-a4 a3xa5 {x} 2. a6xa4 *\n")
	f.Add("[Game \"pommel\"]\n[FEN \"" + pommelBlackToMove + "\"]\n\n1... a5-a4 {x} 2. a3xa5 a6xa4 *\n")
	f.Add("[Game \"punt-heks-match-3p\"]\n[FEN \"R:" + heksPieces + "\"]\n\n1... d8-d7 2. a1-a2 ; x\n2... d1-d2 *\n")
	f.Fuzz(func(t *testing.T, text string) {
		recs, err := record.Read(strings.NewReader(text))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := record.Write(&buf, recs...); err != nil {
			t.Fatal(err)
		}
		back, err := record.Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("written records do not read back: %v\n%s", err, buf.String())
		}
		if len(back) != len(recs) {
			t.Fatalf("%d games became %d", len(recs), len(back))
		}
		for i := range recs {
			if !slices.Equal(back[i].Moves, recs[i].Moves) || !slices.Equal(back[i].Tags, recs[i].Tags) ||
				!slices.Equal(back[i].Notes, recs[i].Notes) {
				t.Fatalf("game %d changed: %+v became %+v", i+1, recs[i], back[i])
			}
			recs[i].Replay(i + 1) // must not panic
		}
	})
}
