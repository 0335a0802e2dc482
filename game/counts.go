package game

import "github.com/arbiter-games/arbiter/board"

// Counts is one player's material on the board, as a lab tallies it for
// any game.
type Counts struct {
	// Pieces counts every piece of the player on the board, wherever it
	// stands in a stack: a Checkers 2011 prisoner counts for its own
	// colour, not for the stack's commander.
	Pieces int `json:"pieces"`
	// Kings counts those of Pieces that are promoted (Pommel's captains,
	// Checkers 2011's kings, prisoners included).
	Kings int `json:"kings"`
	// Stacks counts the cells whose top piece is the player's: the stacks
	// they command or the piles they control. Without stacks it equals
	// Pieces.
	Stacks int `json:"stacks"`
	// Commanded counts every piece, of any colour, in those stacks: Punt's
	// pawns under control, Checkers 2011's stacks with their prisoners.
	Commanded int `json:"commanded"`
}

// CountPieces counts each player's material on s, in turn order, reading
// every cell's stack through Stacker. It refuses a state that does not
// show its stacks.
func CountPieces(s State) ([MaxPlayers]Counts, error) {
	var counts [MaxPlayers]Counts
	st, err := stacker(s)
	if err != nil {
		return counts, err
	}
	var buf []Piece
	for c := range s.Game().Board().Len() {
		buf = st.Stack(board.Cell(c), buf[:0])
		if len(buf) == 0 {
			continue
		}
		top := buf[len(buf)-1].Owner
		counts[top].Stacks++
		counts[top].Commanded += len(buf)
		for _, p := range buf {
			counts[p.Owner].Pieces++
			if p.Rank == King {
				counts[p.Owner].Kings++
			}
		}
	}
	return counts, nil
}
