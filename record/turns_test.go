package record_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
)

// Positions with each seat to move: pommel after 1. a1-a3, and the start
// of the three-player game with the side to move changed.
const (
	pommelBlackToMove = "B:Wa2,a3,b1,b2,c1,c2,d1,d2,e1,e2,f1,f2,g1,g2:Ba5,a6,b6,b7,c5,c6,d6,d7,e5,e6,f6,f7,g5,g6"
	heksPieces        = "a1=w,a2=w,a3=w,a4=w,a5=w,b1=w,b2=w,b3=w,b4=w,b5=w,b6=w,d1=b,d8=r,e1=b,e2=b,e8=r,e9=r," +
		"f1=b,f2=b,f7=r,f8=r,g1=b,g2=b,g6=r,g7=r,h1=b,h2=b,h5=r,h6=r,i1=b,i2=b,i4=r,i5=r"
)

// movetext is what Write puts after the tags and the blank line.
func movetext(t *testing.T, r *record.Record) string {
	t.Helper()
	var buf bytes.Buffer
	if err := record.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	_, text, _ := strings.Cut(buf.String(), "\n\n")
	return text
}

// TestMoveNumbers: each move is numbered with the turn of the seat that
// makes it. A game set up with another seat than the first to move starts
// with the end of a turn, "1...", so that other programs give each move to
// its seat; a note in the middle of a turn is followed by the turn's
// number again.
func TestMoveNumbers(t *testing.T) {
	tests := []struct {
		name, game, fen string
		moves           []string
		notes           []record.Note
		want            string
	}{
		{name: "White to move", game: "pommel", moves: []string{"a1-a3", "a5-a4", "a3xa5"},
			want: "1. a1-a3 a5-a4 2. a3xa5 *\n"},
		{name: "Black to move", game: "pommel", fen: pommelBlackToMove, moves: []string{"a5-a4", "a3xa5", "a6xa4"},
			want: "1... a5-a4 2. a3xa5 a6xa4 *\n"},
		{name: "Black to move, a note first", game: "pommel", fen: pommelBlackToMove, moves: []string{"a5-a4", "a3xa5"},
			notes: []record.Note{record.Comment(0, "set up"), record.Comment(1, "forced")},
			want:  "{set up} 1... a5-a4 {forced} 2. a3xa5 *\n"},
		{name: "three seats, the first to move", game: "punt-heks-match-3p", fen: "W:" + heksPieces,
			moves: []string{"a1-a2", "d1-d2", "d8-d7", "a2-a3"}, want: "1. a1-a2 d1-d2 d8-d7 2. a2-a3 *\n"},
		{name: "three seats, the second to move", game: "punt-heks-match-3p", fen: "B:" + heksPieces,
			moves: []string{"d1-d2", "d8-d7", "a1-a2", "d2-d3"}, want: "1... d1-d2 d8-d7 2. a1-a2 d2-d3 *\n"},
		{name: "three seats, the third to move", game: "punt-heks-match-3p", fen: "R:" + heksPieces,
			moves: []string{"d8-d7", "a1-a2", "d1-d2", "d7-d6"}, want: "1... d8-d7 2. a1-a2 d1-d2 d7-d6 *\n"},
		{name: "three seats, a note in the middle of a turn", game: "punt-heks-match-3p", fen: "B:" + heksPieces,
			moves: []string{"d1-d2", "d8-d7", "a1-a2"}, notes: []record.Note{record.Comment(1, "so")},
			want: "1... d1-d2 {so} 1... d8-d7 2. a1-a2 *\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := game.New(tc.game, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := record.New(g, tc.fen, nil, "2026.11.26")
			r.Moves, r.Notes = tc.moves, tc.notes
			if got := movetext(t, r); got != tc.want {
				t.Errorf("moves written as\n%q, want\n%q", got, tc.want)
			}
			if _, err := r.Replay(1); err != nil {
				t.Errorf("the test's moves are not legal: %v", err)
			}
		})
	}
}

// TestMoveNumbersWithoutAPosition: a record whose tags name no known game,
// or a position that cannot be read, is numbered from the first seat, as
// every record was before, and is still written whole.
func TestMoveNumbersWithoutAPosition(t *testing.T) {
	for _, tags := range [][2]string{{"chess", "B:Wa1:Bb2"}, {"pommel", "B:Wz9"}, {"pommel", "X:Wa1:Bb2"}} {
		r := &record.Record{Moves: []string{"a1-a2", "b2-b1", "a2-a3"}}
		r.Set("Game", tags[0])
		r.Set("FEN", tags[1])
		r.Set("Result", "*")
		if got, want := movetext(t, r), "1. a1-a2 b2-b1 2. a2-a3 *\n"; got != want {
			t.Errorf("%v: moves written as %q, want %q", tags, got, want)
		}
	}
}

// TestOldNumberingReads: records saved before the moves were numbered by
// the seat that makes them ("1. a5-a4 a3xa5" for a game with Black to
// move) read as they always did, the same as the new form: the reader
// takes move numbers as separators.
func TestOldNumberingReads(t *testing.T) {
	const tags = "[Game \"pommel\"]\n[FEN \"" + pommelBlackToMove + "\"]\n[Result \"*\"]\n\n"
	var states []string
	for _, moves := range []string{"1. a5-a4 a3xa5 2. a6xa4 *", "1... a5-a4 2. a3xa5 a6xa4 *", "1...a5-a4 2.a3xa5 2...a6xa4 *"} {
		recs, err := record.Read(strings.NewReader(tags + moves + "\n"))
		if err != nil {
			t.Fatalf("%s: %v", moves, err)
		}
		if want := []string{"a5-a4", "a3xa5", "a6xa4"}; len(recs) != 1 || !slices.Equal(recs[0].Moves, want) {
			t.Fatalf("%s: read %+v, want the moves %v", moves, recs, want)
		}
		s, err := recs[0].Replay(1)
		if err != nil {
			t.Fatalf("%s: %v", moves, err)
		}
		states = append(states, s.FEN())
	}
	if states[0] != states[1] || states[1] != states[2] {
		t.Errorf("the forms end in different positions: %v", states)
	}
}

// TestRoundTripFromEverySeat: random games started with each seat to
// move, written and read back, have the same start and moves, and every
// number in the text names the turn of the seat that played the move
// after it: "N." only before the first seat's move, turn N counted from 1
// and moved on by each move of the first seat.
func TestRoundTripFromEverySeat(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2))
	for _, id := range []string{"pommel", "eximo", "punt-heks-match-3p"} {
		g, err := game.New(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		letters := "WB" // the seats' letters, in whatever order the game seats them
		if g.Players() == 3 {
			letters = "WBR"
		}
		for _, letter := range []byte(letters) {
			fen := startWithMover(t, g, letter)
			t.Run(fmt.Sprintf("%s/%s", id, fen[:1]), func(t *testing.T) {
				r, movers := randomGame(t, g, fen, rng)
				text := movetext(t, r)
				checkNumbers(t, text, movers)
				var buf bytes.Buffer
				if err := record.Write(&buf, r); err != nil {
					t.Fatal(err)
				}
				back, err := record.Read(&buf)
				if err != nil {
					t.Fatal(err)
				}
				if len(back) != 1 || !slices.Equal(back[0].Moves, r.Moves) || back[0].Get("FEN") != fen {
					t.Fatalf("read back %+v, want the moves %v from %s", back, r.Moves, fen)
				}
				if _, err := back[0].Replay(1); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// startWithMover is the game's start with the seat of letter to move.
func startWithMover(t *testing.T, g game.Game, letter byte) string {
	t.Helper()
	fen := string(letter) + g.Start().FEN()[1:]
	if _, err := g.ParseFEN(fen); err != nil {
		t.Fatal(err)
	}
	return fen
}

// randomGame plays up to 40 random moves from fen and records them, with
// the seat that made each.
func randomGame(t *testing.T, g game.Game, fen string, rng *rand.Rand) (*record.Record, []game.Player) {
	t.Helper()
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	r := record.New(g, fen, nil, "2026.11.26")
	var movers []game.Player
	for range 40 {
		moves := s.Moves(nil)
		if s.Result().Over() || len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		mover := s.ToMove()
		s.Play(m)
		if s.Result().Over() {
			break // the record is of an unfinished game: its Result tag is *
		}
		r.Moves = append(r.Moves, m.Text(g.Board()))
		movers = append(movers, mover)
	}
	return r, movers
}

// checkNumbers reads the numbers of written movetext against the seats
// that made the moves.
func checkNumbers(t *testing.T, text string, movers []game.Player) {
	t.Helper()
	turn, ply := 1, 0
	number, opens := 0, false // the last number read, and whether it was "N."
	for _, tok := range strings.Fields(text) {
		if n, dots, ok := strings.Cut(tok, "."); ok {
			if number, _ = strconv.Atoi(n); number == 0 {
				t.Fatalf("%q is no move number", tok)
			}
			opens = dots == ""
			continue
		}
		if ply == len(movers) {
			break // the result
		}
		if ply > 0 && movers[ply] == 0 {
			turn++
		}
		if number != turn || opens != (movers[ply] == 0) {
			t.Fatalf("move %d %s of seat %d (turn %d) comes after number %d (opens a turn: %v):\n%s",
				ply+1, tok, movers[ply], turn, number, opens, text)
		}
		number, opens = turn, false // a move without a number before it goes on the same turn
		ply++
	}
	if ply != len(movers) {
		t.Errorf("%d moves in the text, want %d:\n%s", ply, len(movers), text)
	}
}
