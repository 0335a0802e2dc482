package punt_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/punt"
)

var puntIDs = []string{"punt-match", "punt-heks-match", "punt-heks-match-3p"}

func evaluate(t *testing.T, id, fen string) [game.MaxPlayers]int {
	t.Helper()
	g := gametest.NewGame(t, id)
	s := gametest.Position(t, g, fen)
	return s.(game.Evaluator).Evaluate()
}

// weightsOf is the weights g plays with.
func weightsOf(g game.Game) *punt.Weights { return g.(game.Tunable).Weights().(*punt.Weights) }

func TestEvaluateStartIsEven(t *testing.T) {
	for _, id := range puntIDs {
		g := gametest.NewGame(t, id)
		e := evaluate(t, id, "")
		e[g.Start().ToMove()] -= weightsOf(g).Tempo // the mover's tempo aside
		for p := 1; p < g.Players(); p++ {
			if e[p] != e[0] {
				t.Errorf("%s: the start is not even: %v", id, e)
			}
		}
	}
}

// TestEvaluateScored: a pile on its controller's end-row counts all its
// pawns, of any colour, and more than the same pile one line before it.
// A pile that another player controls on that row counts for nobody.
func TestEvaluateScored(t *testing.T) {
	tests := []struct {
		id, better, worse string
		p                 game.Player
	}{
		// Black's pawn on g3 keeps the game going and threatens nothing.
		{"punt-match", "B:a7=ww,g3=b", "B:a6=ww,g3=b", 0},
		{"punt-match", "B:a7=bw,g3=b", "B:a7=w,g3=b", 0},
		{"punt-match", "W:d1=wb,a5=w", "W:d2=wb,a5=w", 1},
		{"punt-heks-match", "B:i3=bww,e5=b", "B:h3=bww,e5=b", 0},
		{"punt-heks-match", "W:a2=bb,e5=w", "W:b2=bb,e5=w", 1},
		{"punt-heks-match-3p", "W:c7=rwb,e5=w", "W:c6=rwb,e5=w", 1},
		{"punt-heks-match-3p", "W:c1=bwr,e5=w", "W:c2=bwr,e5=w", 2},
	}
	for _, tc := range tests {
		better, worse := evaluate(t, tc.id, tc.better), evaluate(t, tc.id, tc.worse)
		if better[tc.p] <= worse[tc.p] {
			t.Errorf("%s: %s is worth %d to player %d, not more than %s (%d)", tc.id, tc.better, better[tc.p], tc.p, tc.worse, worse[tc.p])
		}
	}
	// Two scored pawns are worth twice one, besides the pile's own worth.
	pile := weightsOf(gametest.NewGame(t, "punt-match")).Pile
	if one, two := evaluate(t, "punt-match", "B:a7=w,g3=b"), evaluate(t, "punt-match", "B:a7=bw,g3=b"); two[0]-pile != 2*(one[0]-pile) {
		t.Errorf("a scored pile of two is worth %d, a scored pawn %d (a pile %d)", two[0], one[0], pile)
	}
	// Black's pile on rank 7, White's end-row, is on Black's home row:
	// it scores nothing, and is worth less to Black than one on rank 1.
	if home, end := evaluate(t, "punt-match", "W:a7=wb,g3=w"), evaluate(t, "punt-match", "W:a1=wb,g3=w"); home[1] >= end[1] {
		t.Errorf("a pile on its controller's home row is worth %d, on its end-row %d", home[1], end[1])
	}
}

// TestEvaluateProgress: for every seat of every id, a lone pawn is worth
// no less one line further forward, and strictly more when that line is
// its end-row; and a pawn that needs one move is worth more than one that
// needs two.
func TestEvaluateProgress(t *testing.T) {
	for _, id := range puntIDs {
		g := gametest.NewGame(t, id)
		b := g.Board()
		type endRower interface {
			EndRow(game.Player, board.Cell) bool
			Directions(game.Player) ([]int, []int)
		}
		er := g.(endRower)
		for p := game.Player(0); int(p) < g.Players(); p++ {
			letter := "wbr"[p : p+1]
			lone := func(c board.Cell) int {
				return evaluate(t, id, fmt.Sprintf("%s:%s=%s", strings.ToUpper(letter), b.Name(c), letter))[p]
			}
			forward, _ := er.Directions(p)
			for c := board.Cell(0); int(c) < b.Len(); c++ {
				if er.EndRow(p, c) {
					continue
				}
				for _, d := range forward {
					next := b.Neighbor(c, d)
					if next == board.None {
						continue
					}
					here, there := lone(c), lone(next)
					if there < here || er.EndRow(p, next) && there == here {
						t.Errorf("%s: player %d's pawn on %s is worth %d, on %s %d", id, p, b.Name(c), here, b.Name(next), there)
					}
				}
			}
		}
	}
	// White's pawn on d4 gets home in one move, on d3 in two.
	if near, far := evaluate(t, "punt-match", "W:d4=w"), evaluate(t, "punt-match", "W:d3=w"); near[0] <= far[0] {
		t.Errorf("a pawn one move from home is worth %d, two moves %d", near[0], far[0])
	}
}

// TestEvaluateThreat: a scored pile that an opponent can land on is worth
// less to its controller.
func TestEvaluateThreat(t *testing.T) {
	// Black's pawn on a7, on its home row, can slide onto c7 (reach 3);
	// on a6 it cannot (Black never moves up).
	safe := evaluate(t, "punt-match", "W:c7=ww,a6=b,g3=w")
	threatened := evaluate(t, "punt-match", "W:c7=ww,a7=b,g3=w")
	if safe[0] <= threatened[0] {
		t.Errorf("White's scored pile is worth %d safe, %d threatened", safe[0], threatened[0])
	}
	// On the three-player board Red's pawn on i5 slides along row i onto
	// White's pile on i3; on h6 it cannot reach it.
	safe = evaluate(t, "punt-heks-match-3p", "W:i3=ww,h6=r,e5=b")
	threatened = evaluate(t, "punt-heks-match-3p", "W:i3=ww,i5=r,e5=b")
	if safe[0] <= threatened[0] || safe[1] != threatened[1] {
		t.Errorf("White's scored pile is worth %d safe, %d threatened (Black %d, %d)", safe[0], threatened[0], safe[1], threatened[1])
	}
}

// TestEvaluateSeatsAlike: mirroring a two-player position top to bottom
// and swapping the colours swaps the evaluations; turning a
// three-player position a third of a turn, so that each player takes the
// next one's seat, passes each player's evaluation on with it.
func TestEvaluateSeatsAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, id := range puntIDs {
		g := gametest.NewGame(t, id)
		b := g.Board()
		n := g.Players()
		var cells []board.Cell
		if b.Kind() == board.Square {
			// The middle square stays; north and south swap.
			cells = mapBoard(b, "d4", func(d int) int { return (12 - d) % 8 })
		} else if n == 2 {
			// The middle cell stays; up and down swap.
			cells = mapBoard(b, "e5", func(d int) int { return (6 - d) % 6 })
		} else {
			// A third of a turn clockwise: White's forward directions
			// north-west and north-east become Black's, east and
			// south-east.
			cells = mapBoard(b, "e5", func(d int) int { return (d + 4) % 6 })
		}
		next := func(p game.Player) game.Player { return (p + 1) % game.Player(n) }
		// The map takes every seat's end-row to the next seat's.
		type endRower interface {
			EndRow(game.Player, board.Cell) bool
		}
		for c := board.Cell(0); int(c) < b.Len(); c++ {
			for p := game.Player(0); int(p) < n; p++ {
				if g.(endRower).EndRow(p, c) != g.(endRower).EndRow(next(p), cells[c]) {
					t.Fatalf("%s: the map takes %s to %s, which is not on the next seat's end-row", id, b.Name(c), b.Name(cells[c]))
				}
			}
		}
		for i := 0; i < 30; i++ {
			s := g.Start()
			for ply := 0; ply < 80 && !s.Result().Over(); ply++ {
				moves := s.Moves(nil)
				s.Play(moves[rng.IntN(len(moves))])
				if ply%5 != 0 {
					continue
				}
				turned := gametest.MustParse(t, g, turnFEN(s, cells, next))
				e, f := evaluateState(s), evaluateState(turned)
				for p := game.Player(0); int(p) < n; p++ {
					if f[next(p)] != e[p] {
						t.Fatalf("%s: %s evaluates to %v, turned %s to %v", id, s.FEN(), e, turned.FEN(), f)
					}
				}
			}
		}
	}
}

func evaluateState(s game.State) [game.MaxPlayers]int {
	return s.(game.Evaluator).Evaluate()
}

// mapBoard maps every cell of b by a symmetry that keeps the cell named
// centre and turns direction d into dir(d).
func mapBoard(b *board.Board, centre string, dir func(int) int) []board.Cell {
	c0, _ := b.Parse(centre)
	cells := make([]board.Cell, b.Len())
	for i := range cells {
		cells[i] = board.None
	}
	cells[c0] = c0
	queue := []board.Cell{c0}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for d := 0; d < b.Dirs(); d++ {
			if x := b.Neighbor(c, d); x != board.None && cells[x] == board.None {
				cells[x] = b.Neighbor(cells[c], dir(d))
				queue = append(queue, x)
			}
		}
	}
	return cells
}

// turnFEN writes s with every pile moved by cells and every pawn handed to
// the next player.
func turnFEN(s game.State, cells []board.Cell, next func(game.Player) game.Player) string {
	const letters = "wbr"
	b := s.Game().Board()
	var piles []string
	var buf []game.Piece
	for c := board.Cell(0); int(c) < b.Len(); c++ {
		buf = s.(game.Stacker).Stack(c, buf[:0])
		if len(buf) == 0 {
			continue
		}
		pile := b.Name(cells[c]) + "="
		for _, pc := range buf {
			pile += letters[next(pc.Owner) : next(pc.Owner)+1]
		}
		piles = append(piles, pile)
	}
	return strings.ToUpper(letters[next(s.ToMove()):next(s.ToMove())+1]) + ":" + strings.Join(piles, ",")
}

func TestEvaluateDoesNotAllocate(t *testing.T) {
	for _, id := range puntIDs {
		s := gametest.NewGame(t, id).Start().(game.Evaluator)
		if n := testing.AllocsPerRun(100, func() { s.Evaluate() }); n != 0 {
			t.Errorf("%s: Evaluate allocates %.0f times", id, n)
		}
	}
}
