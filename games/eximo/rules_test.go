package eximo_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/eximo"
)

// newGame builds Eximo; opts are "key=value" strings.
func newGame(t testing.TB, opts ...string) game.Game {
	t.Helper()
	return gametest.NewGame(t, eximo.ID, opts...)
}

// Black's drop zone, full: a position with these men has no drops.
const blackZone = "b1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2"

// The boards in the comments are drawn as "arbiter show eximo --from FEN"
// draws them: b Black's men, w White's, . an empty square. Black moves up
// the board (north), White down; Black's drop zone is b1-g2, White's b7-g8.
func TestMoveRules(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		from string // if set, only the moves of the man on this cell
		want []string
	}{
		// Ordinary moves.
		{"a black man steps forward or diagonally forward",
			"B:Wh8:Bd4", "", []string{"d4-c5", "d4-d5", "d4-e5"}},
		{"a white man steps the mirrored way, down the board",
			"W:Wd5:Ba1", "", []string{"d5-c4", "d5-d4", "d5-e4"}},
		{"no step sideways or backward; the edge stops a diagonal",
			"B:Wh8:Ba4", "", []string{"a4-a5", "a4-b5"}},
		{"an enemy man in front blocks a step and cannot be jumped without capturing",
			"B:Wd5,d6:Bd4", "", []string{"d4-c5", "d4-e5"}},

		// Jumping moves over friendly men.
		//  6  .  .  .  .  .
		//  5  .  .  .  b  .      d4 may step, or jump d5 to d6
		//  4  .  .  .  b  .      (d4-d6); the jump is optional.
		{"a single jump over a friendly man is written from-to and is optional",
			"B:Wh8:Bd4,d5", "", []string{"d4-c5", "d4-d6", "d4-e5", "d5-c6", "d5-d6", "d5-e6"}},
		//  6  .  .  .  .  .  .
		//  5  .  .  .  b  .  .   c2 jumps c3 to c4, and must then jump
		//  4  .  .  .  .  .  .   d5 to e6: c2-c4-e6, never c2-c4.
		//  3  .  .  b  .  .  .
		//  2  .  .  b  .  .  .
		{"a jumping move must go on while it can: forced continuation",
			"B:Wh8:Bc2,c3,d5", "", []string{"c2-b3", "c2-c4-e6", "c2-d3", "c3-b4", "c3-c4", "c3-d4", "d5-c6", "d5-d6", "d5-e6"}},
		{"a jumping move that can go on two ways gives a move for each",
			"B:Wh8:Bc2,c3,b5,d5", "c2", []string{"c2-b3", "c2-c4-a6", "c2-c4-e6", "c2-d3"}},
		{"a jumping move goes on in any forward direction, three jumps long",
			"B:Wh8:Bb1,b2,c4,d6", "b1", []string{"b1-a2", "b1-b3-d5-d7", "b1-c2"}},
		{"a white jumping move, mirrored",
			"W:Wg8,g7,f5:Ba1", "g8", []string{"g8-f7", "g8-g6-e4", "g8-h7"}},
		{"a jumping move needs an empty square beyond",
			"B:Wh8:Bd4,d5,d6", "", []string{"d4-c5", "d4-e5", "d5-c6", "d5-d7", "d5-e6", "d6-c7", "d6-d7", "d6-e7"}},
		{"no jumps sideways",
			"B:Wh8:Bc4,d4,e4", "", []string{"c4-b5", "c4-c5", "c4-d5", "d4-c5", "d4-d5", "d4-e5", "e4-d5", "e4-e5", "e4-f5"}},
		//  6  .  .  .  .  .
		//  5  .  .  .  w  .      c2-c4 ends on c4 although c4xe6 would be
		//  4  .  .  .  .  .      a capture: a jumping move never captures.
		//  3  .  .  b  .  .
		//  2  .  .  b  .  .
		{"a jumping move never captures, even when a capture appears on the way",
			"B:Wd5:Bc2,c3", "", []string{"c2-b3", "c2-c4", "c2-d3", "c3-b4", "c3-c4", "c3-d4"}},

		// Captures.
		//  6  .  .  .  .  .  .
		//  5  .  .  .  w  .  .   d4 takes forward and sideways only:
		//  4  .  .  w  b  w  .   d4xb4, d4xd6, d4xf4; the men behind it
		//  3  .  .  w  w  w  .   (c3 d3 e3) are safe.
		{"a man captures forward and sideways, never backward",
			"B:Wc3,d3,e3,c4,e4,d5:Bd4", "", []string{"d4xb4", "d4xd6", "d4xf4"}},
		{"a man captures diagonally forward",
			"B:Wc5,e5,c3,e3:Bd4", "", []string{"d4xb6", "d4xf6"}},
		{"a sideways capture from the edge file",
			"B:Wb2:Ba2", "", []string{"a2xc2"}},
		{"white captures the mirrored way: down and sideways",
			"W:Wd5:Bd4,c5,e5,c6,d6,e6", "", []string{"d5xb5", "d5xd3", "d5xf5"}},
		{"white captures diagonally down",
			"W:Wd5:Bc4,e4,d6", "", []string{"d5xb3", "d5xf3"}},
		{"a capture needs an empty square beyond",
			"B:Wd5,d6,c5,b6:Bd4,a1", "", []string{"a1-a2", "a1-b2", "d4-e5"}},
		//  6  .  .  .  .  .  .
		//  5  .  .  .  w  .  .   d4 must take d5 rather than step; a1's
		//  4  .  .  .  b  .  .   jumping move a1-a3 is not allowed
		//  2  b  .  .  .  .  .   either: capture comes before anything.
		//  1  b  .  .  .  .  .
		{"capture precedence: capture is compulsory before steps and jumps",
			"B:Wd5:Bd4,a1,a2", "", []string{"d4xd6"}},
		//  7  .  .  .  .  .  .  .
		//  6  .  .  w  .  .  .  .   c3 must go on after c3xc5, by c6 or b5;
		//  5  .  w  .  .  .  .  .   f3xf5 takes one man and is as legal
		//  4  .  .  w  .  .  w  .   as the chains (no majority rule).
		//  3  .  .  b  .  .  b  .
		{"a capture chain must go on; any sequence may be chosen",
			"B:Wc4,c6,b5,f4,h8:Bc3,f3", "", []string{"c3xc5xa5", "c3xc5xc7", "f3xf5"}},
		{"a chain mixes sideways, diagonal and forward captures",
			"B:Wb2,d3,e5,f6:Ba2", "", []string{"a2xc2xe4xe6xg6"}},

		// The far row.
		//  8  .  .  w  .  .      d4xd6xd8: the man reaches d8 and leaves
		//  7  .  .  .  w  .      the board; the move ends there, although
		//  6  .  .  .  .  .      d8xb8 would take c8. Black's zone is full:
		//  5  .  .  .  w  .      no drop.
		//  4  .  .  .  b  .
		{"a chain is cut short on the far row",
			"B:Wd5,d7,c8:B" + blackZone + ",d4", "", []string{"d4xd6xd8"}},
		{"a white chain is cut short on row 1",
			"W:Wd5,b7,c7,d7,e7,f7,g7,b8,c8,d8,e8,f8,g8:Bd4,d2,e1", "", []string{"d5xd3xd1"}},
		{"a step onto the far row: the man leaves, no drop when the zone is full",
			"B:Wa5:B" + blackZone + ",d7", "d7", []string{"d7-c8", "d7-d8", "d7-e8"}},
		{"a jump onto the far row ends the jumping move",
			"B:Wa5:B" + blackZone + ",d6,d7", "d6", []string{"d6-c7", "d6-d8", "d6-e7"}},
		{"one empty square in the zone: one drop",
			"B:Wa5:Bb1,c1,d1,f1,g1,b2,c2,d2,e2,f2,g2,d7", "d7", []string{"d7-c8@e1", "d7-d8@e1", "d7-e8@e1"}},
		{"two empty squares: both are dropped on, written in cell order",
			"B:Wa5:Bb1,c1,d1,f1,g1,b2,c2,d2,e2,f2,d7", "d7", []string{"d7-c8@e1@g2", "d7-d8@e1@g2", "d7-e8@e1@g2"}},
		{"three empty squares: every pair is a move of its own",
			"B:Wa5:Bc1,d1,e1,f1,g1,b2,d2,e2,f2,d7", "d7", []string{
				"d7-c8@b1@c2", "d7-c8@b1@g2", "d7-c8@c2@g2",
				"d7-d8@b1@c2", "d7-d8@b1@g2", "d7-d8@c2@g2",
				"d7-e8@b1@c2", "d7-e8@b1@g2", "d7-e8@c2@g2"}},
		//  8  .  .  .  .  .  .  .  .
		//  7  .  .  .  w  .  .  .  .   b2xd2xd4xd6xd8 leaves the board;
		//  6  .  .  .  .  .  .  .  .   its start b2, the taken c2 and the
		//  5  .  .  .  w  .  .  .  .   crossed d2 are the empty squares of
		//  4  .  .  .  .  .  .  .  .   the zone after the move: three pairs.
		//  3  .  .  .  w  .  .  .  .
		//  2  .  b  w  .  b  b  b  .
		//  1  .  b  b  b  b  b  b  .
		{"the start square and the captured men's squares count as empty for drops",
			"B:Wc2,d3,d5,d7:Bb1,c1,d1,e1,f1,g1,b2,e2,f2,g2", "b2", []string{
				"b2xd2xd4xd6xd8@b2@c2", "b2xd2xd4xd6xd8@b2@d2", "b2xd2xd4xd6xd8@c2@d2"}},
		{"white drops on its own zone, rows 7 and 8",
			"W:Wb8,c8,d8,e8,f8,g8,b7,c7,d7,e7,f7,d2:Ba4", "d2", []string{"d2-c1@g7", "d2-d1@g7", "d2-e1@g7"}},

		// The end.
		{"no moves once the opponent has no men", "B:W:Bd4", "", nil},
		{"no moves without men", "B:Wd4:B", "", nil},
		{"a blocked man has no move", "B:Wa5,b5,a6,c6:Ba4", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gametest.MustParse(t, newGame(t), tc.fen)
			got := gametest.RuleMoves(s)
			if tc.from != "" {
				got = slices.DeleteFunc(got, func(m string) bool {
					return !strings.HasPrefix(m, tc.from+"-") && !strings.HasPrefix(m, tc.from+"x")
				})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s\nmoves: %v\nwant:  %v", tc.fen, got, tc.want)
			}
		})
	}
}

// TestDropPairs: with k empty squares in the zone, a path to the far row
// gives k(k-1)/2 moves (one when k is 1, one without drops when k is 0).
func TestDropPairs(t *testing.T) {
	zone := strings.Split(blackZone, ",")
	for empty := 0; empty <= len(zone); empty++ {
		fen := "B:Wa5:B" + strings.Join(append([]string{"d7"}, zone[empty:]...), ",")
		s := gametest.MustParse(t, newGame(t), fen)
		n := 0
		for _, m := range gametest.RuleMoves(s) {
			if strings.HasPrefix(m, "d7-d8") {
				n++
				if drops := strings.Count(m, "@"); drops != min(empty, 2) {
					t.Errorf("%s: %s has %d drops, want %d", fen, m, drops, min(empty, 2))
				}
			}
		}
		want := max(1, empty*(empty-1)/2)
		if n != want {
			t.Errorf("%d empty squares: %d moves d7-d8, want %d", empty, n, want)
		}
	}
}
