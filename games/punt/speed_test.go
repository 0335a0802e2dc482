package punt_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/punt"
)

// The tests of the fast paths: Moves writing past what it keeps, the undo
// stack that also holds the repetition history, and states that outgrow
// the room a new state has for it.

// TestMovesAppendsAfterWhatTheBufferHolds: Moves makes room for more
// moves than it keeps and writes there; what the buffer held before stays,
// and the moves appended are those of an empty buffer, in the same order,
// whatever the buffer's capacity.
func TestMovesAppendsAfterWhatTheBufferHolds(t *testing.T) {
	for _, id := range ids {
		g := gametest.NewGame(t, id)
		rng := rand.New(rand.NewPCG(71, uint64(len(id))))
		positions := 0
		for range 20 {
			s := g.Start()
			for !s.Result().Over() {
				want := s.Moves(nil)
				held := s.Moves(nil)[:rng.IntN(len(want)+1)]
				for _, buf := range [][]game.Move{
					slices.Clone(held),
					append(make([]game.Move, 0, len(held)+rng.IntN(400)), held...),
				} {
					got := s.Moves(buf)
					if !slices.Equal(got[:len(held)], held) || !slices.Equal(got[len(held):], want) {
						t.Fatalf("%s: Moves after %d held moves changed them or appended %d moves, want %d",
							s.FEN(), len(held), len(got)-len(held), len(want))
					}
				}
				positions++
				s.Play(want[rng.IntN(len(want))])
			}
		}
		t.Logf("%s: %d positions", id, positions)
	}
}

// TestMovesOfTallPiles: piles move 3, 2 or 1 cells by height (RULINGS
// section 4) whatever the height, up to every pawn of the game in one
// pile; Moves reads the reach of each height from a table.
func TestMovesOfTallPiles(t *testing.T) {
	tests := []struct {
		fen  string
		want []string
	}{
		{"W:d3=w", []string{"d3-a3", "d3-b3", "d3-c3", "d3-d4", "d3-d5", "d3-d6", "d3-e3", "d3-f3", "d3-g3"}},
		{"W:d3=ww", []string{"d3-b3", "d3-c3", "d3-d4", "d3-d5", "d3-e3", "d3-f3"}},
		{"W:d3=bww", []string{"d3-c3", "d3-d4", "d3-e3"}},
		{"W:a6=bbbbbbbbbbbbbbwwwwwwwwwwwwww", []string{"a6-a7", "a6-b6"}},
		{"W:d3=w,d4=b,e3=bbbbbbbbbbbbb", []string{"d3-a3", "d3-b3", "d3-c3", "d3-d4", "d3-e3"}},
	}
	g := gametest.NewGame(t, "punt-match")
	for _, tc := range tests {
		if got := gametest.RuleMoves(gametest.MustParse(t, g, tc.fen)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: moves %v, want %v", tc.fen, got, tc.want)
		}
	}
}

// TestEveryHeightOnEveryCell compares Moves with the reference generator
// for one pile of each height, from one pawn to all of them, on each cell
// of each board, for each player, alone and among scattered piles.
func TestEveryHeightOnEveryCell(t *testing.T) {
	for _, id := range refIDs {
		g, rg := gametest.NewGame(t, id), newRefGame(id)
		rng := rand.New(rand.NewPCG(73, uint64(len(id))))
		for seat := range rg.seats {
			// Every other player's pawns first, the mover's on top.
			var pawns []byte
			for other := range rg.seats {
				if other != seat {
					pawns = append(pawns, bytes.Repeat([]byte{rg.seats[other].letter}, rg.perSeat)...)
				}
			}
			pawns = append(pawns, bytes.Repeat([]byte{rg.seats[seat].letter}, rg.perSeat)...)
			for h := 1; h <= len(pawns); h++ {
				for _, c := range rg.cells {
					r := &refPos{g: rg, toMove: seat, piles: map[refPt]string{c: string(pawns[len(pawns)-h:])}}
					if rest := pawns[:len(pawns)-h]; len(rest) > 0 && h%2 == 0 {
						scatter(rg, r, rest, rng)
					}
					if !compareAt(t, gametest.MustParse(t, g, r.fen()), r) {
						return
					}
				}
			}
		}
	}
}

// scatter puts some of the pawns left, one by one, on random empty cells.
func scatter(rg *refGame, r *refPos, pawns []byte, rng *rand.Rand) {
	for _, l := range pawns[:rng.IntN(len(pawns)+1)] {
		if c := rg.cells[rng.IntN(len(rg.cells))]; r.piles[c] == "" {
			r.piles[c] = string(l)
		}
	}
}

// TestUndoRestoresTheRepetitionHistory plays long games that favour
// sideways moves to empty cells, so that positions repeat, on two states:
// one only moves forward, the other tries a random move and takes it back
// before each move. Both must see the same results at every ply, the
// repetition draws included; the games outgrow a new state's undo room,
// and a clone taken late on goes on alike.
func TestUndoRestoresTheRepetitionHistory(t *testing.T) {
	for _, id := range ids {
		g := gametest.NewGame(t, id, "maxplies=100000")
		rng := rand.New(rand.NewPCG(72, uint64(len(id))))
		repetitions, longest := 0, 0
		for range 30 {
			plain, tried := g.Start(), g.Start()
			var clone game.State
			for {
				r := plain.Result()
				if got := tried.Result(); got != r || tried.Hash() != plain.Hash() {
					t.Fatalf("%s ply %d: result %v after undone tries, want %v", plain.FEN(), plain.Ply(), got, r)
				}
				if clone != nil {
					if got := clone.Result(); got != r || clone.FEN() != plain.FEN() {
						t.Fatalf("%s ply %d: clone has %s, result %v, want %v", plain.FEN(), plain.Ply(), clone.FEN(), got, r)
					}
				}
				if r.Over() {
					repetitions += boolInt(r.Reason == game.Repetition)
					break
				}
				moves := plain.Moves(nil)
				tried.Play(moves[rng.IntN(len(moves))])
				tried.Undo()
				m := sidewaysFirst(g, plain, moves, rng)
				plain.Play(m)
				tried.Play(m)
				if clone != nil {
					clone.Play(m)
				} else if plain.Ply() == 150 {
					clone = plain.Clone()
				}
			}
			longest = max(longest, plain.Ply())
		}
		t.Logf("%s: %d repetition draws, longest game %d plies", id, repetitions, longest)
		if repetitions == 0 || longest <= 150 {
			t.Errorf("%s: %d repetition draws, longest game %d plies: the test tests too little", id, repetitions, longest)
		}
	}
}

// sidewaysFirst picks a random move, favouring sideways moves to empty
// cells as TestRepetitionMatchesAFullScan does.
func sidewaysFirst(g game.Game, s game.State, moves []game.Move, rng *rand.Rand) game.Move {
	m := moves[rng.IntN(len(moves))]
	for try := 0; try < 6 && (s.Owner(m.To()) != game.NoPlayer || !sideways(g, s.ToMove(), m)); try++ {
		m = moves[rng.IntN(len(moves))]
	}
	return m
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPlayAllocatesNothing: once a state has room, Moves, Play, Undo and
// Result allocate nothing (a playout's steady state).
func TestPlayAllocatesNothing(t *testing.T) {
	for _, id := range ids {
		s := gametest.NewGame(t, id).(*punt.Game).NewState()
		buf := make([]game.Move, 0, 512)
		allocs := testing.AllocsPerRun(100, func() {
			buf = s.Moves(buf[:0])
			s.Play(buf[len(buf)/2])
			_ = s.Result()
			s.Undo()
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Moves, Play, Result and Undo, want 0", id, allocs)
		}
	}
}
