package game

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Effects is what one move does to the board, as plain data that a browser
// animates and a lab counts without knowing the game. Cells are named as
// the move notation names them. Stacks are listed bottom first; in games
// without stacks a cell holds zero or one piece.
//
// Where the pieces go: the pieces in Moving travel along Path and end on
// its last cell (Landed shows that cell afterwards), unless Removed says
// they left the board there. Every other cell that lost pieces is in
// Captured; of the pieces taken, those listed in Prisoners stay on the
// board under the mover, the others leave the board. Drops are new pieces.
type Effects struct {
	// Move is the move in the project's notation.
	Move string `json:"move"`
	// Player is the player who made the move.
	Player Player `json:"player"`
	// Capture is the move's capture flag, as the notation writes it.
	Capture bool `json:"capture"`
	// Path is the start cell and every landing cell, in order.
	Path []string `json:"path"`
	// Moving is the stack that left the start cell: the moving piece, or
	// the whole stack or pile.
	Moving []Piece `json:"moving"`
	// Captured lists every cell that lost pieces to the move, the start
	// cell excepted: first those the path passes over or lands on, leg by
	// leg and nearest first, then those removed after the move (as by a Checkers
	// 2011 sandwich) in cell order. Absent when nothing was taken.
	Captured []Capture `json:"captured,omitempty"`
	// Prisoners are the taken pieces that stay on the board, put under the
	// mover on its last cell (Checkers 2011), bottom first.
	Prisoners []Piece `json:"prisoners,omitempty"`
	// Promoted is the cell where a moving piece was promoted, or "".
	Promoted string `json:"promoted,omitempty"`
	// Removed reports that the moving pieces left the board on the last
	// cell of the path (an Eximo man reaching the far row).
	Removed bool `json:"removed,omitempty"`
	// Drops are the cells that received a new piece, in the move's order.
	Drops []Drop `json:"drops,omitempty"`
	// Landed is the stack on the last cell of the path after the move,
	// bottom first: empty when the mover was removed.
	Landed []Piece `json:"landed"`
	// Swap reports the pie rule's move: the whole position was turned half
	// a turn with the sides exchanged (Mirror), so that no piece moved
	// along a path; Path and Moving are empty, and the position after it
	// is the one to show.
	Swap bool `json:"swap,omitempty"`
	// Scores are every player's scores after the move, and ScoreChange
	// what the move changed, in turn order; both are absent in games that
	// do not score (whose states are not Scorers).
	Scores      []int `json:"scores,omitempty"`
	ScoreChange []int `json:"scoreChange,omitempty"`
}

// Capture is one cell that lost pieces to a move.
type Capture struct {
	Cell string `json:"cell"`
	// Leg is the first leg of the path that passes over or lands on the
	// cell: 1 for the leg from Path[0] to Path[1], and so on (a Pommel leap
	// takes a whole line in one leg). 0 when no leg reaches it: the pieces
	// were removed after the move, as by a sandwich.
	Leg int `json:"leg"`
	// Taken are the pieces the cell lost, bottom first: the top piece of a
	// jumped stack, or a whole stack.
	Taken []Piece `json:"taken"`
	// Left is what stays on the cell, bottom first: empty when the cell was
	// emptied; its top piece commands the rest (a liberation when it is the
	// mover's). A piece dropped on the cell afterwards is not in Left but
	// in Drops.
	Left []Piece `json:"left"`
}

// Drop is a new piece put on a cell by a move.
type Drop struct {
	Cell  string `json:"cell"`
	Piece Piece  `json:"piece"`
}

// Scorer is implemented by states of games that score (the Punt games):
// what each player would score if the game ended now, in turn order.
type Scorer interface {
	Scores() [MaxPlayers]int
}

// Custodian is implemented by games whose rules remove pieces without
// jumping them, after any move (Checkers 2011's sandwiches), so that a
// move written without a capture may still take pieces. Custodial reports
// whether the game, with its options, does so.
type Custodian interface {
	Custodial() bool
}

// MoveEffects computes what m does on s, through the interfaces only: it
// plays m on a clone of s and compares the stacks of every cell before and
// after (through Stacker), reading the move's path and drops. s is left
// unchanged. It assumes, as every game here does, that a move carries the
// whole stack on its start cell.
//
// It refuses a move that is not one of s's legal moves (by the rules of
// play, as Moves lists them), and a state that does not show its stacks.
func MoveEffects(s State, m Move) (Effects, error) {
	if _, err := stacker(s); err != nil {
		return Effects{}, err
	}
	if !slices.Contains(s.Moves(nil), m) {
		text := m.Text(s.Game().Board())
		if m.Len() == 0 {
			text = "(with no path)"
		}
		return Effects{}, fmt.Errorf("%s: move %s is not a legal move in %s", s.Game().ID(), text, s.FEN())
	}
	return PlayEffects(s.Clone(), m)
}

// PlayEffects plays m on s, a move the caller knows to be legal (parsed
// from s's moves, or one of them), and answers what it did, as
// MoveEffects does: it reads the stacks before and after the move in
// place, without a copy of the position or another list of the legal
// moves, for a game in play, where each move counts. A state that does not
// show its stacks is refused before the move is played.
func PlayEffects(s State, m Move) (Effects, error) {
	var sc Scratch
	return sc.PlayEffects(s, m)
}

// PlayEffects is PlayEffects(s, m), reading the stacks into buffers kept
// from move to move.
func (sc *Scratch) PlayEffects(s State, m Move) (Effects, error) {
	st, err := stacker(s)
	if err != nil {
		return Effects{}, err
	}
	b := s.Game().Board()
	e := Effects{Move: m.Text(b), Player: s.ToMove(), Capture: m.IsCapture()}
	scorer, scores := s.(Scorer)
	var before [MaxPlayers]int
	if scores {
		before = scorer.Scores()
	}
	was, now := &sc.was, &sc.now
	if !m.IsSwap() {
		was.read(st, b.Len())
	}
	s.Play(m)
	if scores {
		e.scores(before, scorer.Scores(), s.Game().Players())
	}
	if m.IsSwap() {
		e.Swap, e.Path, e.Moving, e.Landed = true, []string{}, []Piece{}, []Piece{}
		return e, nil
	}
	e.Path = make([]string, 0, m.Len())
	for i := 0; i < m.Len(); i++ {
		e.Path = append(e.Path, b.Name(m.At(i)))
	}
	now.read(st, b.Len())
	e.takeDrops(b, m, now)
	e.collectCaptures(b, m, was, now, e.land(b, m, was, now))
	return e, nil
}

// stacker returns s as a Stacker, or an error saying it shows no stacks.
func stacker(s State) (Stacker, error) {
	st, ok := s.(Stacker)
	if !ok {
		return nil, fmt.Errorf("%s: the state does not show its pieces (it is not a game.Stacker)", s.Game().ID())
	}
	return st, nil
}

// stackList is every cell's stack, bottom first, in one buffer: cell c's
// stack is pieces[spans[c].start:spans[c].end].
type stackList struct {
	pieces []Piece
	spans  []span
}

type span struct{ start, end int32 }

// read lists every cell's stack, in the list's buffers.
func (l *stackList) read(st Stacker, cells int) {
	if cap(l.spans) < cells {
		l.pieces, l.spans = make([]Piece, 0, 2*cells), make([]span, cells)
	}
	l.pieces, l.spans = l.pieces[:0], l.spans[:cells]
	for c := range cells {
		start := int32(len(l.pieces))
		l.pieces = st.Stack(board.Cell(c), l.pieces)
		l.spans[c] = span{start, int32(len(l.pieces))}
	}
}

// at is cell c's stack, bottom first; it shares the list's buffer.
func (l *stackList) at(c board.Cell) []Piece {
	sp := l.spans[c]
	return l.pieces[sp.start:sp.end:sp.end]
}

// dropTop takes the top piece off cell c's stack, if it has one.
func (l *stackList) dropTop(c board.Cell) {
	if sp := &l.spans[c]; sp.end > sp.start {
		sp.end--
	}
}

// takeDrops records each dropped piece, the top of its cell after the
// move, and takes it off now so that the rest of the cell compares with
// what was there before.
func (e *Effects) takeDrops(b *board.Board, m Move, now *stackList) {
	for _, c := range m.Drops() {
		st := now.at(c)
		if len(st) == 0 {
			continue
		}
		e.Drops = append(e.Drops, Drop{Cell: b.Name(c), Piece: st[len(st)-1]})
		now.dropTop(c)
	}
}

// land finds the moving stack on the last cell after the move: on top,
// maybe promoted, over what the cell held before (Punt) and the prisoners
// taken on the way (Checkers 2011). When it is not there, it left the
// board. The start cell's old stack is the mover, so a path that comes
// back to its start finds the cell otherwise empty. land returns what the
// last cell lost of what it held before.
func (e *Effects) land(b *board.Board, m Move, was, now *stackList) []Piece {
	from, to := m.From(), m.To()
	e.Moving = slices.Clone(was.at(from))
	e.Landed = slices.Clone(now.at(to))
	under := now.at(to)
	if n := len(under) - len(e.Moving); n >= 0 && sameOwners(under[n:], e.Moving) {
		if promotedIn(e.Moving, under[n:]) {
			e.Promoted = b.Name(to)
		}
		under = under[:n]
	} else {
		e.Removed = true
	}
	base := was.at(to)
	if to == from {
		base = nil
	}
	k := commonPrefix(base, under)
	if k < len(under) {
		e.Prisoners = slices.Clone(under[k:])
	}
	return base[k:]
}

// sameOwners reports whether two stacks have the same owners, piece by
// piece.
func sameOwners(a, b []Piece) bool {
	return slices.EqualFunc(a, b, func(x, y Piece) bool { return x.Owner == y.Owner })
}

// promotedIn reports whether a piece of before is promoted in after.
func promotedIn(before, after []Piece) bool {
	for i := range before {
		if before[i].Rank == Man && after[i].Rank == King {
			return true
		}
	}
	return false
}

// commonPrefix is how many pieces two stacks share from the bottom.
func commonPrefix(a, b []Piece) int {
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	return k
}

// collectCaptures lists the cells other than the start that lost pieces:
// the ones the path reaches first, leg by leg, then the others.
// lostAtTo is what the last cell lost (see land).
func (e *Effects) collectCaptures(b *board.Board, m Move, was, now *stackList, lostAtTo []Piece) {
	taken := func(c board.Cell) []Piece {
		switch c {
		case m.From():
			return nil
		case m.To():
			return lostAtTo
		}
		before := was.at(c)
		return before[commonPrefix(before, now.at(c)):]
	}
	seen := make([]bool, b.Len())
	add := func(c board.Cell, leg int) {
		seen[c] = true
		if t := taken(c); len(t) > 0 {
			e.Captured = append(e.Captured, Capture{Cell: b.Name(c), Leg: leg,
				Taken: slices.Clone(t), Left: slices.Clone(now.at(c))})
		}
	}
	for leg := 1; leg < m.Len(); leg++ {
		for _, c := range along(b, m.At(leg-1), m.At(leg)) {
			if !seen[c] {
				add(c, leg)
			}
		}
	}
	for c := range b.Len() {
		if !seen[c] {
			add(board.Cell(c), 0)
		}
	}
}

// along lists the cells a leg passes over or lands on, from the cell
// after from to to itself; none when the two are not on a line.
func along(b *board.Board, from, to board.Cell) []board.Cell {
	d, ok := b.DirTo(from, to)
	if !ok {
		return nil
	}
	ray := b.Ray(from, d)
	if i := slices.Index(ray, to); i >= 0 {
		return ray[:i+1]
	}
	return nil
}

// scores records the scores after the move and what it changed.
func (e *Effects) scores(before, after [MaxPlayers]int, players int) {
	for p := range players {
		e.Scores = append(e.Scores, after[p])
		e.ScoreChange = append(e.ScoreChange, after[p]-before[p])
	}
}

// rankNames are the ranks as JSON writes them.
var rankNames = [...]string{Man: "man", King: "king"}

// pieceJSON is a Piece as JSON writes it: {"owner":0,"rank":"king"}.
type pieceJSON struct {
	Owner Player `json:"owner"`
	Rank  string `json:"rank"`
}

// MarshalJSON writes a piece as {"owner":0,"rank":"man"}, the rank as a
// word so that a browser needs no table of numbers.
func (p Piece) MarshalJSON() ([]byte, error) {
	if int(p.Rank) >= len(rankNames) {
		return nil, fmt.Errorf("piece of player %d has rank %d (ranks: man, king)", p.Owner, p.Rank)
	}
	return json.Marshal(pieceJSON{Owner: p.Owner, Rank: rankNames[p.Rank]})
}

// UnmarshalJSON reads a piece as MarshalJSON writes it.
func (p *Piece) UnmarshalJSON(data []byte) error {
	var v pieceJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	r := slices.Index(rankNames[:], v.Rank)
	if r < 0 {
		return fmt.Errorf("piece rank %s (ranks: man, king)", clip.Quote(v.Rank))
	}
	if v.Owner < 0 || v.Owner >= MaxPlayers {
		return fmt.Errorf("piece owner %d (owners: 0 to %d)", v.Owner, MaxPlayers-1)
	}
	*p = Piece{Owner: v.Owner, Rank: Rank(r)}
	return nil
}
