package game_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// toyGame is a tiny game that exercises what no registered game does: a
// capture by replacement, where the landing cell loses what stood on it.
// Cells hold zero or one piece; the player to move has the moves listed.
type toyGame struct{ b *board.Board }

func (g toyGame) ID() string                      { return "toy" }
func (g toyGame) Options() game.Options           { return game.Options{} }
func (g toyGame) Players() int                    { return 2 }
func (g toyGame) PlayerName(p game.Player) string { return [...]string{"White", "Black"}[p] }
func (g toyGame) Seat(p game.Player) game.Seat {
	return [...]game.Seat{{Name: "White", Key: "white", Letter: 'w'}, {Name: "Black", Key: "black", Letter: 'b'}}[p]
}
func (g toyGame) Board() *board.Board { return g.b }
func (g toyGame) Start() game.State   { return nil }
func (g toyGame) ParseFEN(string) (game.State, error) {
	return nil, fmt.Errorf("toy positions have no FEN")
}

// toyState is a position of toyGame: a piece per cell, the moves allowed,
// and the positions before each move played, for Undo.
type toyState struct {
	g       toyGame
	cells   []game.Player
	toMove  game.Player
	moves   []game.Move
	history [][]game.Player
}

func (s *toyState) Game() game.Game                   { return s.g }
func (s *toyState) ToMove() game.Player               { return s.toMove }
func (s *toyState) Ply() int                          { return len(s.history) }
func (s *toyState) Moves(buf []game.Move) []game.Move { return append(buf, s.moves...) }
func (s *toyState) Result() game.Result               { return game.Result{} }
func (s *toyState) Owner(c board.Cell) game.Player    { return s.cells[c] }
func (s *toyState) String() string                    { return s.FEN() }
func (s *toyState) Hash() uint64                      { return uint64(len(s.FEN())) }
func (s *toyState) FEN() string                       { return fmt.Sprint(s.toMove, s.cells) }

// Play moves the piece to the last cell of the path, replacing what stood
// there.
func (s *toyState) Play(m game.Move) {
	s.history = append(s.history, slices.Clone(s.cells))
	s.cells[m.To()], s.cells[m.From()] = s.cells[m.From()], game.NoPlayer
	s.toMove = 1 - s.toMove
}

func (s *toyState) Undo() bool {
	if len(s.history) == 0 {
		return false
	}
	s.cells, s.history = s.history[len(s.history)-1], s.history[:len(s.history)-1]
	s.toMove = 1 - s.toMove
	return true
}

func (s *toyState) Clone() game.State {
	c := *s
	c.cells, c.history = slices.Clone(s.cells), slices.Clone(s.history)
	return &c
}

// stackedToy shows its pieces through game.Stacker; toyState alone does not.
type stackedToy struct{ *toyState }

func (s stackedToy) Stack(c board.Cell, buf []game.Piece) []game.Piece {
	if s.cells[c] == game.NoPlayer {
		return buf
	}
	return append(buf, game.Piece{Owner: s.cells[c]})
}

func (s stackedToy) Clone() game.State { return stackedToy{s.toyState.Clone().(*toyState)} }

// newToy is White on a1, Black on c1 of a 3x1 board, White to move with
// one move: a1 takes c1 by replacement.
func newToy() (*toyState, game.Move) {
	b := board.NewSquare(3, 1)
	m := game.Start(0, true)
	m.Land(2)
	return &toyState{g: toyGame{b}, cells: []game.Player{0, game.NoPlayer, 1}, moves: []game.Move{m}}, m
}

// TestMoveEffectsReplacement: a piece that takes by landing on its victim
// shows the landing cell among the captures, with the mover left on it.
func TestMoveEffectsReplacement(t *testing.T) {
	s, m := newToy()
	e, err := game.MoveEffects(stackedToy{s}, m)
	if err != nil {
		t.Fatal(err)
	}
	white, black := game.Piece{Owner: 0}, game.Piece{Owner: 1}
	want := game.Effects{Move: "a1xc1", Player: 0, Capture: true, Path: []string{"a1", "c1"},
		Moving:   []game.Piece{white},
		Captured: []game.Capture{{Cell: "c1", Leg: 1, Taken: []game.Piece{black}, Left: []game.Piece{white}}},
		Landed:   []game.Piece{white}}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("effects\n %+v\nwant\n %+v", e, want)
	}
	if s.FEN() != "0 [0 -1 1]" || s.Ply() != 0 {
		t.Errorf("MoveEffects changed the position: %s, ply %d", s.FEN(), s.Ply())
	}
}

// TestMoveEffectsRefusals: a move that is not legal, and a state that
// does not show its stacks, are errors that say so.
func TestMoveEffectsRefusals(t *testing.T) {
	s, _ := newToy()
	tests := []struct {
		name  string
		state game.State
		move  game.Move
		want  string
	}{
		{"an illegal move", stackedToy{s}, game.Step(2, 1), "toy: move c1-b1 is not a legal move in 0 [0 -1 1]"},
		{"a move with no path", stackedToy{s}, game.Move{}, "toy: move (with no path) is not a legal move in 0 [0 -1 1]"},
		{"a state that is no Stacker", s, s.moves[0], "toy: the state does not show its pieces (it is not a game.Stacker)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := game.MoveEffects(tc.state, tc.move)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := game.CountPieces(s); err == nil || !strings.Contains(err.Error(), "not a game.Stacker") {
		t.Errorf("CountPieces of a state with no stacks: error %v", err)
	}
}

// TestEffectsJSON: effects are written with lower-case field names,
// pieces as {"owner":N,"rank":"man"|"king"}, and read back the same.
func TestEffectsJSON(t *testing.T) {
	e := game.Effects{Move: "d6xd8", Capture: true, Path: []string{"d6", "d8"},
		Moving:    []game.Piece{{Owner: 0}},
		Captured:  []game.Capture{{Cell: "d7", Leg: 1, Taken: []game.Piece{{Owner: 1, Rank: game.King}}, Left: []game.Piece{}}},
		Prisoners: []game.Piece{{Owner: 1, Rank: game.King}},
		Promoted:  "d8",
		Landed:    []game.Piece{{Owner: 1, Rank: game.King}, {Owner: 0, Rank: game.King}}}
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"move":"d6xd8","player":0,"capture":true,"path":["d6","d8"],` +
		`"moving":[{"owner":0,"rank":"man"}],` +
		`"captured":[{"cell":"d7","leg":1,"taken":[{"owner":1,"rank":"king"}],"left":[]}],` +
		`"prisoners":[{"owner":1,"rank":"king"}],"promoted":"d8",` +
		`"landed":[{"owner":1,"rank":"king"},{"owner":0,"rank":"king"}]}`
	if string(data) != want {
		t.Errorf("JSON\n %s\nwant\n %s", data, want)
	}
	var back game.Effects
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, e) {
		t.Errorf("read back %+v (%v), want %+v", back, err, e)
	}
}

// TestPieceJSONRefusals: a piece with an unknown rank or owner is an
// error naming what is allowed, both ways.
func TestPieceJSONRefusals(t *testing.T) {
	if _, err := json.Marshal(game.Piece{Owner: 0, Rank: 7}); err == nil || !strings.Contains(err.Error(), "ranks: man, king") {
		t.Errorf("a piece of rank 7 written: %v", err)
	}
	for text, want := range map[string]string{
		`{"owner":0,"rank":"queen"}`: `piece rank "queen" (ranks: man, king)`,
		`{"owner":4,"rank":"man"}`:   "piece owner 4 (owners: 0 to 3)",
		`{"owner":-1,"rank":"man"}`:  "piece owner -1 (owners: 0 to 3)",
		`{"owner":"x"}`:              "cannot unmarshal",
		// A long rank is quoted by its start only.
		`{"owner":0,"rank":"` + strings.Repeat("q", 10_000) + `"}`: `piece rank "` + strings.Repeat("q", 80) + `"… (ranks: man, king)`,
	} {
		var p game.Piece
		if err := json.Unmarshal([]byte(text), &p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", text, err, want)
		}
	}
}
