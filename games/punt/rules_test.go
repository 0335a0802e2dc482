package punt_test

import (
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/game/gametest"
	_ "github.com/arbiter-games/arbiter/games/punt"
)

// The boards in the comments are drawn by "arbiter show ID --from FEN"
// (the empty boards; a position's pieces are named in its test).
//
// punt-match, 7x7: White's home ranks 1-2, end-row rank 7, forward north;
// Black's home ranks 6-7, end-row rank 1, forward south; both sideways
// east and west.
//
//	7  .  .  .  .  .  .  .
//	6  .  .  .  .  .  .  .
//	5  .  .  .  .  .  .  .
//	4  .  .  .  .  .  .  .
//	3  .  .  .  .  .  .  .
//	2  .  .  .  .  .  .  .
//	1  .  .  .  .  .  .  .
//	   a  b  c  d  e  f  g
//
// The hexhex board (both hex ids): rows a..i from the bottom, cells
// numbered from the left of each row.
//
//	            / \ / \ / \ / \ / \
//	        i  |i1 |i2 |i3 |i4 |i5 |
//	          / \ / \ / \ / \ / \ / \
//	      h  |h1 |h2 |h3 |h4 |h5 |h6 |
//	        / \ / \ / \ / \ / \ / \ / \
//	    g  |g1 |g2 |g3 |g4 |g5 |g6 |g7 |
//	      / \ / \ / \ / \ / \ / \ / \ / \
//	  f  |f1 |f2 |f3 |f4 |f5 |f6 |f7 |f8 |
//	    / \ / \ / \ / \ / \ / \ / \ / \ / \
//	e  |e1 |e2 |e3 |e4 |e5 |e6 |e7 |e8 |e9 |
//	    \ / \ / \ / \ / \ / \ / \ / \ / \ /
//	  d  |d1 |d2 |d3 |d4 |d5 |d6 |d7 |d8 |
//	      \ / \ / \ / \ / \ / \ / \ / \ /
//	    c  |c1 |c2 |c3 |c4 |c5 |c6 |c7 |
//	        \ / \ / \ / \ / \ / \ / \ /
//	      b  |b1 |b2 |b3 |b4 |b5 |b6 |
//	          \ / \ / \ / \ / \ / \ /
//	        a  |a1 |a2 |a3 |a4 |a5 |
//	            \ / \ / \ / \ / \ /
//
// White: forward up-left and up-right, sideways along the row, end-row i.
// Black (2 players): forward down-left and down-right, sideways along the
// row, end-row a. Black (3 players): home on the upper-left edge (e1-i1),
// forward right and down-right, sideways up-right and down-left, end-row
// the lower-right edge a5 b6 c7 d8 e9. Red (3 players): home on the
// upper-right edge (e9-i5), forward left and down-left, sideways up-left
// and down-right, end-row the lower-left edge a1 b1 c1 d1 e1.

// moveRules are the rules of RULINGS section 4 about which moves exist,
// each on a hand-built position, for every seat.
var moveRules = []struct {
	name, id, fen string
	want          []string
}{
	// punt-match
	{"square: a pawn moves 1-3 cells north, east or west, never back or diagonally", "punt-match",
		"W:d3=w,d7=b", []string{"d3-a3", "d3-b3", "d3-c3", "d3-d4", "d3-d5", "d3-d6", "d3-e3", "d3-f3", "d3-g3"}},
	{"square: a black pawn moves south, east or west", "punt-match",
		"B:a1=w,d5=b", []string{"d5-a5", "d5-b5", "d5-c5", "d5-d2", "d5-d3", "d5-d4", "d5-e5", "d5-f5", "d5-g5"}},
	{"square: a pile of two moves 1-2 cells", "punt-match",
		"W:d3=bw,g7=b", []string{"d3-b3", "d3-c3", "d3-d4", "d3-d5", "d3-e3", "d3-f3"}},
	{"square: a pile of three moves 1 cell", "punt-match",
		"W:d3=wbw,g7=b", []string{"d3-c3", "d3-d4", "d3-e3"}},
	{"square: a black pile of five moves 1 cell", "punt-match",
		"B:a1=w,d4=wwbwb", []string{"d4-c4", "d4-d3", "d4-e4"}},
	{"square: pawns cross empty cells only and may land on the first pile, own or enemy", "punt-match",
		"W:b2=b,d2=w,f2=wb,d4=w", []string{"d2-b2", "d2-c2", "d2-d3", "d2-d4", "d2-e2", "d2-f2",
			"d4-a4", "d4-b4", "d4-c4", "d4-d5", "d4-d6", "d4-d7", "d4-e4", "d4-f4", "d4-g4"}},
	{"square: the board edge cuts moves short", "punt-match",
		"W:a6=w,g7=b", []string{"a6-a7", "a6-b6", "a6-c6", "a6-d6"}},
	{"square: white piles on rank 7 are frozen", "punt-match",
		"W:a1=b,e6=w,c7=w,d7=bw", []string{"e6-b6", "e6-c6", "e6-d6", "e6-e7", "e6-f6", "e6-g6"}},
	{"square: black piles on rank 1 are frozen", "punt-match",
		"B:d1=wb,e3=b,a7=w", []string{"e3-b3", "e3-c3", "e3-d3", "e3-e1", "e3-e2", "e3-f3", "e3-g3"}},
	{"square: a white pile on Black's end-row moves", "punt-match",
		"W:c1=bw,g7=b", []string{"c1-a1", "c1-b1", "c1-c2", "c1-c3", "c1-d1", "c1-e1"}},
	{"square: a pile Black took over on White's end-row moves for Black", "punt-match",
		"B:a1=w,d7=wb", []string{"d7-b7", "d7-c7", "d7-d5", "d7-d6", "d7-e7", "d7-f7"}},
	{"square: only the top pawn's colour controls a pile", "punt-match",
		"W:a2=w,d4=wwb", []string{"a2-a3", "a2-a4", "a2-a5", "a2-b2", "a2-c2", "a2-d2"}},

	// punt-heks-match
	{"hex: a white pawn moves up-left, up-right and along its row, 1-3 cells", "punt-heks-match",
		"W:a1=b,e5=w", []string{"e5-e2", "e5-e3", "e5-e4", "e5-e6", "e5-e7", "e5-e8",
			"e5-f4", "e5-f5", "e5-g3", "e5-g5", "e5-h2", "e5-h5"}},
	{"hex: a black pawn moves down-left, down-right and along its row", "punt-heks-match",
		"B:e5=b,i1=w", []string{"e5-b2", "e5-b5", "e5-c3", "e5-c5", "e5-d4", "e5-d5",
			"e5-e2", "e5-e3", "e5-e4", "e5-e6", "e5-e7", "e5-e8"}},
	{"hex: a white pawn in a corner", "punt-heks-match",
		"W:a1=w,i1=b", []string{"a1-a2", "a1-a3", "a1-a4", "a1-b1", "a1-b2", "a1-c1", "a1-c3", "a1-d1", "a1-d4"}},
	{"hex: a pile of two moves 1-2 cells, a pile of three 1", "punt-heks-match",
		"W:c3=bw,g4=bbw,i1=b", []string{"c3-c1", "c3-c2", "c3-c4", "c3-c5", "c3-d3", "c3-d4", "c3-e3", "c3-e5",
			"g4-g3", "g4-g5", "g4-h3", "g4-h4"}},
	{"hex: crossing only empty cells, landing on the first pile, own or enemy", "punt-heks-match",
		"B:c5=b,d3=w,e5=b,e6=bw", []string{"c5-a3", "c5-a5", "c5-b4", "c5-b5", "c5-c2", "c5-c3", "c5-c4", "c5-c6", "c5-c7",
			"e5-b2", "e5-c3", "e5-c5", "e5-d4", "e5-d5", "e5-e2", "e5-e3", "e5-e4", "e5-e6"}},
	{"hex: frozen on the own end-row, free on the opponent's", "punt-heks-match",
		"W:a1=wb,a3=w,h3=b,i2=w,i4=bw", []string{"a3-a1", "a3-a2", "a3-a4", "a3-a5", "a3-b3", "a3-b4", "a3-c3", "a3-c5", "a3-d3", "a3-d6"}},
	{"hex: Black's pile on row a is frozen, its pile on row i moves", "punt-heks-match",
		"B:a1=w,a3=wb,i3=wb", []string{"i3-h3", "i3-h4", "i3-i1", "i3-i2", "i3-i4", "i3-i5", "i3-g3", "i3-g5"}},

	// punt-heks-match-3p, every seat
	{"3p: White's pawn moves up-left, up-right and along its row", "punt-heks-match-3p",
		"W:a1=b,e5=w,i1=r", []string{"e5-e2", "e5-e3", "e5-e4", "e5-e6", "e5-e7", "e5-e8",
			"e5-f4", "e5-f5", "e5-g3", "e5-g5", "e5-h2", "e5-h5"}},
	{"3p: Black's pawn moves right, down-right, up-right and down-left", "punt-heks-match-3p",
		"B:a1=w,e5=b,i1=r", []string{"e5-b2", "e5-b5", "e5-c3", "e5-c5", "e5-d4", "e5-d5",
			"e5-e6", "e5-e7", "e5-e8", "e5-f5", "e5-g5", "e5-h5"}},
	{"3p: Red's pawn moves left, down-left, up-left and down-right", "punt-heks-match-3p",
		"R:a1=w,e5=r,i1=b", []string{"e5-b2", "e5-b5", "e5-c3", "e5-c5", "e5-d4", "e5-d5",
			"e5-e2", "e5-e3", "e5-e4", "e5-f4", "e5-g3", "e5-h2"}},
	{"3p: Black's piles of two and three; landing on White's pawn", "punt-heks-match-3p",
		"B:a1=w,c3=rb,g4=wrb,i1=r", []string{"c3-a1", "c3-a3", "c3-b2", "c3-b3", "c3-c4", "c3-c5", "c3-d4", "c3-e5",
			"g4-f4", "g4-f5", "g4-g5", "g4-h4"}},
	{"3p: Red's piles of two and three", "punt-heks-match-3p",
		"R:a1=w,c5=br,g4=wbr,i1=b", []string{"c5-a3", "c5-a5", "c5-b4", "c5-b5", "c5-c3", "c5-c4", "c5-d5", "c5-e5",
			"g4-f4", "g4-f5", "g4-g3", "g4-h3"}},
	{"3p: Black crosses empty cells only, lands on White's and Red's pawns, stops at the edge", "punt-heks-match-3p",
		"B:c3=w,e3=b,e5=r", []string{"e3-c1", "e3-c3", "e3-d2", "e3-d3", "e3-e4", "e3-e5", "e3-f3", "e3-g3", "e3-h3"}},
	{"3p: White's pile on row i is frozen, its pile on Black's end-row moves", "punt-heks-match-3p",
		"W:d1=b,e9=bw,i3=w,i5=r", []string{"e9-e7", "e9-e8", "e9-f8", "e9-g7"}},
	{"3p: Black's pawn on the lower-right edge is frozen, its pile on Red's end-row moves", "punt-heks-match-3p",
		"B:a1=w,a5=b,d1=rb,i1=r", []string{"d1-b1", "d1-c1", "d1-d2", "d1-d3", "d1-e2", "d1-f2"}},
	{"3p: Red's pile taken over on its own end-row is frozen", "punt-heks-match-3p",
		"R:a3=rb,a5=w,c4=r,e1=br", []string{"c4-a2", "c4-a4", "c4-b3", "c4-b4", "c4-c1", "c4-c2", "c4-c3", "c4-d4", "c4-e4", "c4-f3"}},
	{"3p: a pile Black took over on White's end-row moves for Black", "punt-heks-match-3p",
		"B:a3=w,g6=r,i3=wb", []string{"i3-g3", "i3-g5", "i3-h3", "i3-h4", "i3-i4", "i3-i5"}},
	{"3p: a player with only frozen piles has no move", "punt-heks-match-3p",
		"R:a1=r,c1=wbr,e9=b,i1=w", nil},
}

func TestMoveRules(t *testing.T) {
	for _, tc := range moveRules {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, gametest.NewGame(t, tc.id), tc.fen)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if got := gametest.RuleMoves(s); !slices.Equal(got, want) {
				t.Errorf("%s %s\nmoves: %v\nwant:  %v", tc.id, tc.fen, got, want)
			}
		})
	}
}
