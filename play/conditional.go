package play

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/game"
)

// The refusals of conditional moves.
var (
	ErrNoLines = errors.New("no conditional moves in this game")
	ErrBadLine = errors.New("not a line of conditional moves")
)

// MaxLine bounds a line of conditional moves, in plies: ten times "if
// they play X, I play Y".
const MaxLine = 20

// Line is a seat's conditional moves in a correspondence game between
// two: Moves alternate the opponent's expected move and the seat's reply,
// Moves[0] being for ply Ply, the game's current ply. When the opponent
// plays Moves[0] the line advances to the seat's reply, which is due and
// played at once; any other move drops the whole line. A Line is never
// changed once made (a change's is the game's own): it is replaced.
type Line struct {
	Seat  game.Player
	Ply   int
	Moves []string
}

func (l *Line) clone() *Line {
	if l == nil {
		return nil
	}
	c := *l
	c.Moves = slices.Clone(l.Moves)
	return &c
}

// The rules of conditional moves, which SetLine applies and play keeps:
//
//   - only in a correspondence game (a clock of days a move) between two
//     players: in a game of three the moves between a seat's turns are
//     two other seats', which one expected move cannot say;
//   - a seat sets its line while the opponent is to move (on its own turn
//     its move comes first), in place of any line and any premove it had
//     (a premove set later replaces the line in turn: the latest wins);
//   - every move is checked along the line when it is set, and kept in
//     the notation the game writes, so that the opponent's move is matched
//     by its text;
//   - the reply is played as the seat's move, at once, when the opponent's
//     move matched; any other move of the opponent's, a take-back, a draw
//     offered by the opponent, or the seat's own move drop the line: the
//     server answers nothing for the seat that its line did not foresee.

// SetLine sets seat p's conditional moves in place of any it had (and of
// its premove). No moves clears p's line; clearing none changes nothing.
func (pg *Game) SetLine(p game.Player, moves []string) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkOpen(); err != nil {
		return err
	}
	if p < 0 || int(p) >= len(pg.seats) || !pg.seats[p].Person() {
		return fmt.Errorf("%w: seat %d sets conditional moves", ErrNoPerson, p)
	}
	if err := pg.checkLines(); err != nil {
		return err
	}
	if len(moves) == 0 {
		if pg.line == nil || pg.line.Seat != p {
			return nil
		}
		c := pg.newChange(LineSet, p, pg.now())
		c.Line = nil
		return pg.change(c, func() { pg.line = nil })
	}
	if pg.state.ToMove() == p {
		return fmt.Errorf("%w: it is %s's turn; play the move, then set the line while the opponent thinks", ErrNotYourTurn, pg.g.PlayerName(p))
	}
	if pg.offer != game.NoPlayer && pg.offer != p {
		return fmt.Errorf("%w while %s's draw offer is on the table: answer it first", ErrNoLines, pg.g.PlayerName(pg.offer))
	}
	texts, err := pg.checkLine(p, moves)
	if err != nil {
		return err
	}
	l := &Line{Seat: p, Ply: len(pg.rec.Moves), Moves: texts}
	c := pg.newChange(LineSet, p, pg.now())
	c.Line = l
	if pg.premove != nil && pg.premove.Seat == p {
		c.Premove = nil
	}
	return pg.change(c, func() { pg.line, pg.premove = l, c.Premove })
}

// checkLines refuses conditional moves in a game that has none: not a
// correspondence game, or not one of two players.
func (pg *Game) checkLines() error {
	if pg.clock == nil || !pg.clock.tc.Correspondence() {
		return fmt.Errorf("%w: conditional moves are for correspondence games (days a move)", ErrNoLines)
	}
	if pg.g.Players() != 2 {
		return fmt.Errorf("%w: conditional moves are for games of two players", ErrNoLines)
	}
	return nil
}

// checkLine plays seat p's line on a copy of the position: an even number
// of moves, at most MaxLine, the opponent's and p's in turn, each legal
// where it comes and the game going on before it. It answers the moves in
// the game's own notation.
func (pg *Game) checkLine(p game.Player, moves []string) ([]string, error) {
	if len(moves)%2 != 0 || len(moves) > MaxLine {
		return nil, fmt.Errorf("%w: %d moves; want pairs of the opponent's move and your reply, at most %d moves", ErrBadLine, len(moves), MaxLine)
	}
	st := pg.state.Clone()
	texts := make([]string, len(moves))
	for i, text := range moves {
		if st.Result().Over() {
			return nil, fmt.Errorf("%w: the game ends before its move %d", ErrBadLine, i+1)
		}
		owner := p
		if i%2 == 0 {
			owner = 1 - p
		}
		if to := st.ToMove(); to != owner {
			return nil, fmt.Errorf("%w: its move %d would be %s's, not %s's", ErrBadLine, i+1, pg.g.PlayerName(to), pg.g.PlayerName(owner))
		}
		m, err := game.ParseMove(st, text)
		var illegal *game.IllegalMoveError
		if errors.As(err, &illegal) {
			return nil, fmt.Errorf("the line's %w", &game.MoveError{Index: i + 1, Err: illegal})
		}
		if err != nil {
			return nil, fmt.Errorf("the line's move %d: %w", i+1, err)
		}
		texts[i] = m.Text(pg.g.Board())
		st.Play(m)
	}
	return texts, nil
}

// Line is seat p's conditional moves, or nil.
func (pg *Game) Line(p game.Player) *Line {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.line == nil || pg.line.Seat != p {
		return nil
	}
	return pg.line.clone()
}

// lineAfter is the line after move was played for the game's current ply:
// advanced by one when it is the move the line expects (nil when that was
// its last), else dropped; dropped too when the game ended.
func (pg *Game) lineAfter(move string, over bool) *Line {
	l := pg.line
	if l == nil || over || l.Ply != len(pg.rec.Moves) || l.Moves[0] != move || len(l.Moves) == 1 {
		return nil
	}
	return &Line{Seat: l.Seat, Ply: l.Ply + 1, Moves: slices.Clone(l.Moves[1:])}
}

// due reports whether the line's reply is to be played now: its seat is
// to move at its ply, the game going on.
func (pg *Game) due() bool {
	l := pg.line
	return l != nil && !pg.result().Over() && pg.state.ToMove() == l.Seat && l.Ply == len(pg.rec.Moves)
}

// playLine plays the reply due, as the seat's move, at once (the seat is
// charged no thinking time it did not have). A reply that is no longer
// legal (a stored line the rules now read otherwise) drops the line; one
// the keeper refuses stays due, for PlayDue to play. pg.mu is held.
func (pg *Game) playLine() error {
	if !pg.due() {
		return nil
	}
	m, err := game.ParseMove(pg.state, pg.line.Moves[0])
	if err != nil {
		c := pg.newChange(LineSet, pg.line.Seat, pg.now())
		c.Line = nil
		return pg.change(c, func() { pg.line = nil })
	}
	return pg.play(m)
}

// PlayDue plays the conditional reply due, if one is: the opponent's move
// was kept with the line advanced to the reply, and the reply was not (it
// was refused, or the process stopped in between). A server calls it
// when it resumes a game, so that a reply is never lost; it reports
// whether a reply was played. The clock is not looked at first: the reply
// was due when the opponent moved.
func (pg *Game) PlayDue() (bool, error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if !pg.due() {
		return false, nil
	}
	n := len(pg.rec.Moves)
	err := pg.playLine()
	return len(pg.rec.Moves) > n, err
}

// resumeLine restores a stored line: one for the game's ply, of a person's
// seat, in a game that has lines; any other is forgotten.
func (pg *Game) resumeLine(l *Line) {
	if l == nil || len(l.Moves) == 0 || l.Ply != len(pg.rec.Moves) || l.Seat < 0 || int(l.Seat) >= len(pg.seats) ||
		!pg.seats[l.Seat].Person() || pg.checkLines() != nil {
		return
	}
	pg.line = l.clone()
}
