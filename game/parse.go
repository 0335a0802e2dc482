package game

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// IllegalMoveError says which move was refused and why.
type IllegalMoveError struct {
	Move   string // the move as given
	Reason string
}

// Error quotes at most the start of a long move: the move is the user's,
// and may be of any length.
func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("illegal move %s: %s", clip.Quote(e.Move), e.Reason)
}

// MoveError is an illegal move in a sequence, with its 1-based index.
type MoveError struct {
	Index int
	Err   *IllegalMoveError
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("move %d %s is illegal: %s", e.Index, clip.Quote(e.Err.Move), e.Err.Reason)
}

func (e *MoveError) Unwrap() error { return e.Err }

// MoveTexts returns the notation of every legal move of s, sorted in byte
// order, as the moves command prints them. A game that is over, draw
// safeguards included, has none.
func MoveTexts(s State) []string {
	var sc Scratch
	return sc.MoveTexts(s)
}

// ParseMove finds the legal move of s written as text. ':' is accepted for
// 'x'. When there is none, the error says why the move is not legal.
func ParseMove(s State, text string) (Move, error) {
	var sc Scratch
	return sc.ParseMove(s, text)
}

// ParseRuleMove is ParseMove ignoring the draw safeguards, as perft does.
func ParseRuleMove(s State, text string) (Move, error) {
	var sc Scratch
	return sc.parseMove(s, text, false)
}

// Scratch lists legal moves into a buffer it keeps, for a caller that
// lists them on every move of a game (a game in play): MoveTexts,
// ParseMove and PlayEffects as the functions of those names, without
// growing new lists each time. It is not safe for concurrent use; the
// zero Scratch is ready.
type Scratch struct {
	moves    []Move
	text     []byte
	was, now stackList // the stacks before and after a move (PlayEffects)
}

// Scratches lends Scratch buffers to the games in play of a process: a
// game borrows one for a move or a view and gives it back, so that the
// buffers are reused from move to move and no idle game holds one. Safe
// for concurrent use; the zero Scratches is ready.
type Scratches struct{ pool sync.Pool }

// Get lends a Scratch; give it back with Put.
func (p *Scratches) Get() *Scratch {
	if sc, ok := p.pool.Get().(*Scratch); ok {
		return sc
	}
	return new(Scratch)
}

// Put gives sc back: its caller no longer uses it, nor anything it
// answered that shares its buffers (none of its answers do).
func (p *Scratches) Put(sc *Scratch) { p.pool.Put(sc) }

// legal lists the legal moves of s in the scratch buffer.
func (sc *Scratch) legal(s State) []Move {
	sc.moves = s.Moves(sc.moves[:0])
	return sc.moves
}

// MoveTexts is MoveTexts(s).
func (sc *Scratch) MoveTexts(s State) []string {
	if s.Result().Over() {
		return nil
	}
	b := s.Game().Board()
	moves := sc.legal(s)
	texts := make([]string, 0, len(moves))
	for _, m := range moves {
		texts = append(texts, m.Text(b))
	}
	slices.Sort(texts)
	return texts
}

// ParseMove is ParseMove(s, text).
func (sc *Scratch) ParseMove(s State, text string) (Move, error) {
	return sc.parseMove(s, text, true)
}

func (sc *Scratch) parseMove(s State, text string, safeguards bool) (Move, error) {
	norm := normalizeMoveText(text)
	if norm == SwapText {
		return parseSwap(s, text, safeguards)
	}
	b := s.Game().Board()
	cells, err := splitMove(b, norm)
	if err != nil {
		return Move{}, &IllegalMoveError{Move: text, Reason: err.Error()}
	}
	if r := s.Result(); r.Over() && (safeguards || r.Reason != Repetition && r.Reason != PlyCap) {
		return Move{}, &IllegalMoveError{Move: text, Reason: "the game is over (" + r.Describe(s.Game()) + ")"}
	}
	moves := sc.legal(s)
	for _, m := range moves {
		sc.text = m.AppendText(sc.text[:0], b)
		if string(sc.text) == norm {
			return m, nil
		}
	}
	return Move{}, &IllegalMoveError{Move: text, Reason: whyIllegal(s, moves, cells[0], norm)}
}

// parseSwap finds the pie rule's move among the legal moves of s, or says
// why it is not one.
func parseSwap(s State, text string, safeguards bool) (Move, error) {
	if r := s.Result(); r.Over() && (safeguards || r.Reason != Repetition && r.Reason != PlyCap) {
		return Move{}, &IllegalMoveError{Move: text, Reason: "the game is over (" + r.Describe(s.Game()) + ")"}
	}
	swap := Swap()
	if slices.Contains(s.Moves(nil), swap) {
		return swap, nil
	}
	reason := "swap is the second player's first move, only in a game played from the start"
	if s.Game().Options().Get(SwapKey) != "on" {
		reason = "swap is a move only with the option swap=on (the pie rule)"
	}
	return Move{}, &IllegalMoveError{Move: text, Reason: reason}
}

// splitMove checks the syntax of a move and returns its cells.
func splitMove(b *board.Board, text string) ([]board.Cell, error) {
	if text == "" {
		return nil, fmt.Errorf("empty move")
	}
	if strings.ToLower(text) != text {
		if len(text) > clip.Max { // the move is quoted already; once is enough
			return nil, fmt.Errorf("moves are written in lower case")
		}
		return nil, fmt.Errorf("moves are written in lower case: %s", strings.ToLower(text))
	}
	path, drops, hasDrops := strings.Cut(text, "@")
	hasDash, hasX := strings.Contains(path, "-"), strings.Contains(path, "x")
	if hasDash && hasX {
		return nil, fmt.Errorf("a move uses either '-' (no capture) or 'x' (capture) between its cells, not both")
	}
	names := strings.FieldsFunc(path, func(r rune) bool { return r == '-' || r == 'x' })
	if len(names) < 2 || strings.Count(path, "-")+strings.Count(path, "x") != len(names)-1 {
		return nil, fmt.Errorf("write a move as from-to, from-to-to... or fromxtoxto..., with cells such as %s", b.Name(0))
	}
	if hasDrops {
		names = append(names, strings.Split(drops, "@")...)
	}
	var cells []board.Cell
	for _, name := range names {
		c, ok := b.Parse(name)
		if !ok {
			if name == "" {
				return nil, fmt.Errorf("a cell is missing")
			}
			return nil, fmt.Errorf("%s is not a cell of this board", clip.Quote(name))
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// whyIllegal explains why a well-formed move starting at from is not among
// the legal moves.
func whyIllegal(s State, moves []Move, from board.Cell, text string) string {
	g, b := s.Game(), s.Game().Board()
	me := s.ToMove()
	if why := wrongDrops(moves, b, text); why != "" {
		return why
	}
	switch owner := s.Owner(from); {
	case owner == NoPlayer:
		return fmt.Sprintf("there is no piece on %s", b.Name(from))
	case owner != me:
		return fmt.Sprintf("the piece on %s is %s's, and %s is to move", b.Name(from), g.PlayerName(owner), g.PlayerName(me))
	}
	var fromHere, captures []string
	for _, m := range moves {
		if m.IsCapture() {
			captures = append(captures, m.Text(b))
		}
		if m.From() == from {
			fromHere = append(fromHere, m.Text(b))
		}
	}
	slices.Sort(fromHere)
	slices.Sort(captures)
	switch {
	case len(captures) > 0 && !strings.Contains(text, "x"):
		return "capture is compulsory; the captures are " + list(captures)
	case len(fromHere) == 0 && len(captures) > 0:
		return fmt.Sprintf("the piece on %s cannot capture, and capture is compulsory; the captures are %s", b.Name(from), list(captures))
	case len(fromHere) == 0:
		return fmt.Sprintf("the piece on %s has no legal move", b.Name(from))
	default:
		return fmt.Sprintf("the piece on %s can play %s", b.Name(from), list(fromHere))
	}
}

// wrongDrops explains a move whose path is legal but whose drops (Eximo's
// men placed after reaching the far row) are missing, out of order or on
// the wrong cells; "" when no legal move has text's path.
func wrongDrops(moves []Move, b *board.Board, text string) string {
	path, drops, hasDrops := strings.Cut(text, "@")
	var same []string
	for _, m := range moves {
		t := m.Text(b)
		if p, _, ok := strings.Cut(t, "@"); ok && p == path {
			same = append(same, t)
		}
	}
	if len(same) == 0 {
		return ""
	}
	slices.Sort(same)
	if !hasDrops {
		return "this move ends on the far row: add the drops, e.g. " + same[0] +
			fmt.Sprintf(" (%d ways: moves lists them)", len(same))
	}
	cells := strings.Split(drops, "@")
	if !slices.IsSortedFunc(cells, func(x, y string) int {
		cx, _ := b.Parse(x)
		cy, _ := b.Parse(y)
		return int(cx) - int(cy)
	}) {
		return "the drops are written in cell order (a1 < h1 < a2), e.g. " + same[0]
	}
	return "the drops must go on empty cells of your drop zone, as many as the rules allow; this move's are " + list(same)
}

// list joins up to a dozen moves for a message.
func list(moves []string) string {
	const most = 12
	if len(moves) > most {
		return strings.Join(moves[:most], ", ") + fmt.Sprintf(" and %d more", len(moves)-most)
	}
	return strings.Join(moves, ", ")
}

// PlayMoves parses and plays each move in turn. On an illegal move it stops
// and returns a *MoveError naming the move and its 1-based index; the moves
// before it stay played.
func PlayMoves(s State, moves []string) error {
	return playMoves(s, moves, ParseMove)
}

// PlayRuleMoves is PlayMoves ignoring the draw safeguards, as perft does.
func PlayRuleMoves(s State, moves []string) error {
	return playMoves(s, moves, ParseRuleMove)
}

func playMoves(s State, moves []string, parse func(State, string) (Move, error)) error {
	for i, text := range moves {
		m, err := parse(s, text)
		if err != nil {
			return &MoveError{Index: i + 1, Err: err.(*IllegalMoveError)}
		}
		s.Play(m)
	}
	return nil
}
