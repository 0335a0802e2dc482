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

// Stacker is implemented by the state of every game, so that drawings
// (textboard), records, the AI and the browser can show what stands on each
// cell without knowing the game: Checkers 2011's columns and Punt's piles
// as whole stacks, Pommel's and Eximo's cells as zero or one piece with its
// rank (a Pommel captain is a King). Owner(c) is the owner of the top
// piece, the one that commands or controls the stack; the conformance
// suite (game/gametest) checks that on every position it visits. It stays
// an interface apart from State so that a game is written against the
// smaller contract first.
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

// LeafTester is implemented by states that can tell, without listing
// their moves, what a search needs to know of a position at its horizon:
// whether the player to move has a legal move (HasMove: exactly when
// Moves is non-empty, the draw safeguards aside) and whether it must
// capture (HasCapture: then every move Moves returns is a capture, else
// none is). Most positions at a search's horizon are quiet, and then an
// engine only evaluates them. The conformance suite checks both answers
// against Moves at every position it visits.
type LeafTester interface {
	HasMove() bool
	HasCapture() bool
}

// Evaluation judges positions of one game for the AI by weights of its
// own, as Evaluator does by the game's default ones. Games that have
// weights make one from a set of them (a function Evaluation(Weights) in
// the game's package); it keeps its own copy, so it is immutable and safe
// for concurrent use, and two engines of one process can judge the same
// game by two weight sets at once.
type Evaluation interface {
	// Judges reports whether s is a state of the game the evaluation was
	// made for; an engine asks once, at the root of a search.
	Judges(s State) bool
	// Evaluate scores s, a state Judges accepts, as Evaluator does.
	Evaluate(s State) [MaxPlayers]int
}

// Placed is one piece on one cell.
type Placed struct {
	Cell  board.Cell
	Piece Piece
}

// Placer is implemented by the states of games whose cells hold at most
// one piece (Pommel), so that endgame tables can list and set positions
// fast, without a FEN or a scan of every cell.
type Placer interface {
	// Placement appends the pieces to buf in cell order and returns it.
	Placement(buf []Placed) []Placed
	// Place makes the state the position where pieces stand and toMove is
	// to move, with no history: Ply is 0 and no earlier position counts
	// for repetition. It refuses what the game's FEN refuses (two pieces
	// on a cell, a cell off the board, a piece that would have been
	// promoted) and leaves the state unchanged then.
	Place(pieces []Placed, toMove Player) error
}
