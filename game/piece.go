package game

import "github.com/arbiter-games/arbiter/board"

// Rank is a piece's rank: the plain piece every game starts with, or the
// promoted one.
type Rank uint8

// The ranks.
const (
	Man  Rank = iota // soldier (Pommel, Checkers 2011), man (Eximo), pawn (Punt)
	King             // captain (Pommel), king (Checkers 2011)
)

// Piece is one piece as a viewer sees it: its owner and its rank.
type Piece struct {
	Owner Player
	Rank  Rank
}

// Stacker is implemented by states whose cells hold stacks of pieces
// (Checkers 2011's columns, Punt's piles), so that drawings, records and
// the browser can show whole stacks without knowing the game. Owner(c) is
// the owner of the top piece, the one that commands or controls the stack.
type Stacker interface {
	// Stack appends the pieces on c to buf, bottom first, and returns it;
	// an empty cell appends nothing.
	Stack(c board.Cell, buf []Piece) []Piece
}

// Evaluator is implemented by states that can judge their position for
// the AI: a score for each player, higher is better, in hundredths of a
// plain piece. Only differences between players matter. Games that do not
// implement it get a material count from the AI.
type Evaluator interface {
	Evaluate() [MaxPlayers]int
}
