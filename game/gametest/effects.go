package gametest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// CheckEffects checks game.MoveEffects (and game.PlayEffects, which must
// agree with it and play the move) for every move of moves (the legal
// moves of s) against the positions before and after the move: computing
// the effects leaves s unchanged; the move, player, path and the moving
// stack are s's; pieces are conserved, player by player and rank by rank
// (before, less what left the board, plus drops and promotions, is after);
// every cell that lost pieces lost a top part of its stack and shows what
// is left; no other cell changed; a capture takes something and a move
// that is not a capture takes nothing, unless the game is a
// game.Custodian, where it may remove stacks after the move but takes no
// prisoner; scores appear exactly in games whose states are game.Scorers
// and agree with them. fail is called with the first property that does
// not hold.
func CheckEffects(fail func(string, ...any), s game.State, moves []game.Move) {
	fen, hash := s.FEN(), s.Hash()
	// The position after each move is s itself for a moment, compared
	// with a copy of the position before it read from its FEN (cheaper
	// than a clone of s with all its history).
	before, err := s.Game().ParseFEN(fen)
	if err != nil {
		fail("the state's own FEN %q does not parse: %v", fen, err)
		return
	}
	var scratch game.Scratch // reused, as a game in play reuses it
	for _, m := range moves {
		e, err := game.MoveEffects(s, m)
		if err != nil {
			fail("MoveEffects(%s): %v", m.Text(s.Game().Board()), err)
			return
		}
		if s.FEN() != fen || s.Hash() != hash {
			fail("MoveEffects(%s) changed the position to %s (hash %x), want %s (hash %x)",
				e.Move, s.FEN(), s.Hash(), fen, hash)
			return
		}
		// PlayEffects makes the move on s itself, and must see what
		// MoveEffects saw on its copy.
		played, err := scratch.PlayEffects(s, m)
		if err == nil && !reflect.DeepEqual(played, e) {
			err = fmt.Errorf("PlayEffects says %+v, MoveEffects %+v", played, e)
		}
		if err == nil {
			err = checkEffects(before, s, m, e)
		}
		s.Undo()
		if err != nil {
			fail("effects of %s: %v (effects %+v)", m.Text(s.Game().Board()), err, e)
			return
		}
	}
}

// checkEffects checks one move's effects e against before and after.
func checkEffects(before, after game.State, m game.Move, e game.Effects) error {
	if m.IsSwap() || e.Swap {
		return checkSwapEffects(before, after, m, e)
	}
	checks := []func(before, after game.State, m game.Move, e game.Effects) error{
		checkMover, checkCells, checkConservation, checkCaptureFlag, checkScores,
	}
	for _, check := range checks {
		if err := check(before, after, m, e); err != nil {
			return err
		}
	}
	return nil
}

// checkSwapEffects checks the effects of the pie rule's Swap: flagged as
// one, no path and nothing moving, and the position after it the mirror
// image of the one before.
func checkSwapEffects(before, after game.State, m game.Move, e game.Effects) error {
	switch {
	case !m.IsSwap():
		return fmt.Errorf("the effects of a move that is no swap say swap")
	case !e.Swap || e.Move != game.SwapText || len(e.Path) != 0 || len(e.Moving) != 0 || e.Capture:
		return fmt.Errorf("the effects of swap are not flagged swap, or have a path or a moving stack")
	}
	mirror, err := game.Mirror(before)
	if err != nil {
		return err
	}
	if mirror.FEN() != after.FEN() {
		return fmt.Errorf("after swap %s, want the mirror image %s", after.FEN(), mirror.FEN())
	}
	return nil
}

// stackOf reads one cell's stack.
func stackOf(s game.State, c board.Cell) []game.Piece {
	return s.(game.Stacker).Stack(c, nil)
}

// checkMover checks what the effects say of the move itself: its text,
// player, path, the stack that leaves the start cell, and where it lands.
func checkMover(before, after game.State, m game.Move, e game.Effects) error {
	b := before.Game().Board()
	var path []string
	for i := range m.Len() {
		path = append(path, b.Name(m.At(i)))
	}
	switch {
	case e.Move != m.Text(b) || e.Capture != m.IsCapture():
		return fmt.Errorf("move %q capture %v, want %q capture %v", e.Move, e.Capture, m.Text(b), m.IsCapture())
	case e.Player != before.ToMove():
		return fmt.Errorf("player %d, want the player to move, %d", e.Player, before.ToMove())
	case !slices.Equal(e.Path, path):
		return fmt.Errorf("path %v, want %v", e.Path, path)
	case !slices.Equal(e.Moving, stackOf(before, m.From())):
		return fmt.Errorf("moving %v, want the start cell's stack %v", e.Moving, stackOf(before, m.From()))
	case len(e.Moving) == 0 || e.Moving[len(e.Moving)-1].Owner != before.ToMove():
		return fmt.Errorf("the path does not start at a stack of the player to move: %v", e.Moving)
	}
	landed := withoutDrop(after, m, m.To())
	if !slices.Equal(e.Landed, landed) {
		return fmt.Errorf("landed %v, want the last cell's stack %v", e.Landed, landed)
	}
	if n := len(landed) - len(e.Moving); !e.Removed && (n < 0 || !sameOwners(landed[n:], e.Moving)) {
		return fmt.Errorf("the moving stack %v is not on top of the last cell's stack %v, yet not removed", e.Moving, landed)
	}
	if e.Promoted != "" && (e.Promoted != b.Name(m.To()) || e.Removed) {
		return fmt.Errorf("promoted on %s, the move ends on %s (removed %v)", e.Promoted, b.Name(m.To()), e.Removed)
	}
	return nil
}

// sameOwners reports whether two stacks have the same owners, piece by
// piece (a promotion changes a rank, never an owner).
func sameOwners(a, b []game.Piece) bool {
	return slices.EqualFunc(a, b, func(x, y game.Piece) bool { return x.Owner == y.Owner })
}

// withoutDrop is c's stack after the move less a piece dropped on it.
func withoutDrop(after game.State, m game.Move, c board.Cell) []game.Piece {
	st := stackOf(after, c)
	if slices.Contains(m.Drops(), c) && len(st) > 0 {
		st = st[:len(st)-1]
	}
	return st
}

// checkCells checks the cells: each captured cell lost the top of its
// stack and shows what is left, each drop is the mover's piece on its
// cell, and every cell the effects do not name is as it was.
func checkCells(before, after game.State, m game.Move, e game.Effects) error {
	b := before.Game().Board()
	// The last cell may have lost pieces too: a Pommel captain may end on
	// a cell it emptied earlier in its chain.
	named := map[board.Cell]bool{m.From(): true}
	for _, cp := range e.Captured {
		c, ok := b.Parse(cp.Cell)
		switch {
		case !ok || named[c]:
			return fmt.Errorf("captured cell %q is not a cell, or is the start or listed twice", cp.Cell)
		case cp.Leg < 0 || cp.Leg >= m.Len():
			return fmt.Errorf("captured cell %s on leg %d of a path of %d cells", cp.Cell, cp.Leg, m.Len())
		}
		named[c] = true
		was := stackOf(before, c)
		if len(cp.Taken) == 0 || len(cp.Taken) > len(was) || !slices.Equal(was[len(was)-len(cp.Taken):], cp.Taken) {
			return fmt.Errorf("%s: taken %v is not the top of its stack %v", cp.Cell, cp.Taken, was)
		}
		if left := withoutDrop(after, m, c); !slices.Equal(cp.Left, left) {
			return fmt.Errorf("%s: left %v, the stack after the move is %v", cp.Cell, cp.Left, left)
		}
	}
	named[m.To()] = true
	var drops []string
	for i, d := range e.Drops {
		c, _ := b.Parse(d.Cell)
		st := stackOf(after, c)
		if len(st) == 0 || st[len(st)-1] != d.Piece || d.Piece.Owner != e.Player {
			return fmt.Errorf("drop %d: %v on %s, the cell holds %v after the move", i, d.Piece, d.Cell, st)
		}
		drops = append(drops, d.Cell)
		named[c] = true
	}
	var want []string
	for _, c := range m.Drops() {
		want = append(want, b.Name(c))
	}
	if !slices.Equal(drops, want) {
		return fmt.Errorf("drops on %v, the move drops on %v", drops, want)
	}
	for c := range b.Len() {
		cell := board.Cell(c)
		if !named[cell] && !slices.Equal(stackOf(before, cell), stackOf(after, cell)) {
			return fmt.Errorf("%s changed from %v to %v, yet the effects do not name it",
				b.Name(cell), stackOf(before, cell), stackOf(after, cell))
		}
	}
	return nil
}

// tally counts pieces by player and rank.
type tally [game.MaxPlayers][2]int

func (t *tally) add(ps []game.Piece, sign int) {
	for _, p := range ps {
		t[p.Owner][min(int(p.Rank), 1)] += sign
	}
}

// checkConservation checks, for every player and rank, that the pieces
// before the move, less those taken and not kept as prisoners, less the
// mover when it left the board, plus the drops, with a promoted piece
// changing rank, are the pieces after the move, counted with
// game.CountPieces.
func checkConservation(before, after game.State, m game.Move, e game.Effects) error {
	countsOf := func(s game.State) (tally, error) {
		var t tally
		counts, err := game.CountPieces(s)
		for p, c := range counts {
			t[p] = [2]int{c.Pieces - c.Kings, c.Kings}
		}
		return t, err
	}
	want, err := countsOf(before)
	if err != nil {
		return err
	}
	for _, cp := range e.Captured {
		want.add(cp.Taken, -1)
	}
	want.add(e.Prisoners, +1)
	if e.Removed {
		want.add(e.Moving, -1)
	}
	for _, d := range e.Drops {
		want.add([]game.Piece{d.Piece}, +1)
	}
	if e.Promoted != "" {
		want[e.Player][game.Man]--
		want[e.Player][game.King]++
	}
	got, err := countsOf(after)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("pieces by player and rank [man king] after the move %v, want %v", got, want)
	}
	return nil
}

// checkCaptureFlag checks that a capture takes something, and that a move
// that is not a capture takes nothing, except stacks removed after the
// move in a game.Custodian's game.
func checkCaptureFlag(before, _ game.State, m game.Move, e game.Effects) error {
	if m.IsCapture() {
		if len(e.Captured) == 0 {
			return fmt.Errorf("a capture that takes nothing")
		}
		return nil
	}
	if len(e.Prisoners) > 0 {
		return fmt.Errorf("a move that is not a capture takes prisoners %v", e.Prisoners)
	}
	cu, ok := before.Game().(game.Custodian)
	custodial := ok && cu.Custodial()
	for _, cp := range e.Captured {
		if !custodial || cp.Leg != 0 {
			return fmt.Errorf("a move that is not a capture takes %v from %s (leg %d; custodial game: %v)",
				cp.Taken, cp.Cell, cp.Leg, custodial)
		}
	}
	return nil
}

// checkScores checks that scores appear exactly in scoring games, agree
// with the state's scores before and after, and with the result of a game
// that the move ends and scores.
func checkScores(before, after game.State, _ game.Move, e game.Effects) error {
	sb, ok := before.(game.Scorer)
	if !ok {
		if e.Scores != nil || e.ScoreChange != nil {
			return fmt.Errorf("scores %v change %v in a game that does not score", e.Scores, e.ScoreChange)
		}
		return nil
	}
	n := before.Game().Players()
	was, now := sb.Scores(), after.(game.Scorer).Scores()
	if len(e.Scores) != n || len(e.ScoreChange) != n {
		return fmt.Errorf("scores %v change %v, want one per player (%d)", e.Scores, e.ScoreChange, n)
	}
	for p := range n {
		if e.Scores[p] != now[p] || e.ScoreChange[p] != now[p]-was[p] {
			return fmt.Errorf("scores %v change %v, want %v change from %v", e.Scores, e.ScoreChange, now[:n], was[:n])
		}
	}
	if r := after.Result(); r.Reason == game.Scored && !slices.Equal(r.Scores[:n], e.Scores) {
		return fmt.Errorf("scores %v, the result scores %v", e.Scores, r.Scores[:n])
	}
	return nil
}

// EffectsText writes e in a short form for tests to compare, clauses
// separated by "; ", empty ones left out: "moving w", one "CELL leg N
// loses STACK leaving STACK" per captured cell, "prisoners STACK",
// "promoted CELL", "removed", "drop CELL PIECE" per drop, "landed STACK",
// "scores 3 2 change +1 +0". A stack is its pieces bottom first, one
// letter each: the first letter of the owner's name as g gives it, upper
// case for a promoted piece; "-" is an empty stack.
func EffectsText(g game.Game, e game.Effects) string {
	letters := func(ps []game.Piece) string {
		if len(ps) == 0 {
			return "-"
		}
		var sb strings.Builder
		for _, p := range ps {
			l := strings.ToLower(g.PlayerName(p.Owner)[:1])
			if p.Rank == game.King {
				l = strings.ToUpper(l)
			}
			sb.WriteString(l)
		}
		return sb.String()
	}
	parts := []string{"moving " + letters(e.Moving)}
	for _, cp := range e.Captured {
		parts = append(parts, fmt.Sprintf("%s leg %d loses %s leaving %s", cp.Cell, cp.Leg, letters(cp.Taken), letters(cp.Left)))
	}
	if len(e.Prisoners) > 0 {
		parts = append(parts, "prisoners "+letters(e.Prisoners))
	}
	if e.Promoted != "" {
		parts = append(parts, "promoted "+e.Promoted)
	}
	if e.Removed {
		parts = append(parts, "removed")
	}
	for _, d := range e.Drops {
		parts = append(parts, "drop "+d.Cell+" "+letters([]game.Piece{d.Piece}))
	}
	parts = append(parts, "landed "+letters(e.Landed))
	if e.Scores != nil {
		parts = append(parts, fmt.Sprintf("scores %s change %s", joinInts(e.Scores, "%d"), joinInts(e.ScoreChange, "%+d")))
	}
	return strings.Join(parts, "; ")
}

// joinInts writes numbers in a format, separated by spaces.
func joinInts(ns []int, format string) string {
	var out []string
	for _, n := range ns {
		out = append(out, fmt.Sprintf(format, n))
	}
	return strings.Join(out, " ")
}

// CheckEffectsText parses fen in g, computes the effects of move on it and
// checks them, written by EffectsText, against want.
func CheckEffectsText(t T, g game.Game, fen, move, want string) {
	t.Helper()
	s := Position(t, g, fen)
	m, err := game.ParseRuleMove(s, move)
	if err != nil {
		t.Fatalf("%v", err)
	}
	e, err := game.MoveEffects(s, m)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if got := EffectsText(g, e); got != want {
		t.Errorf("%s %s %s:\n got %s\nwant %s", g.ID(), fen, move, got, want)
	}
}
