package play

import (
	"errors"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// The refusals of take-backs and premoves.
var (
	ErrNoTakebacks = errors.New("this game allows no take-backs")
	ErrNoRequest   = errors.New("no take-back request")
	ErrNoPremove   = errors.New("no premove")
)

// Premove is a move a seat sets while another seat is to move: it is
// played as soon as the seat's turn comes at ply Ply, if it is legal then,
// and dropped otherwise.
type Premove struct {
	Seat game.Player
	Ply  int
	Move string
}

// The rules of take-backs, which RequestTakeback applies:
//
//   - a seat takes back its own last move, with any moves played after
//     it, so that it is to move again;
//   - against the AI (every other seat an engine) a casual game takes it
//     back at once, and a rated one never;
//   - between people (two-player games) it is a request, which the other
//     seat accepts or declines, and which the next move withdraws;
//   - a game created with take-backs turned off refuses them all, and
//     nothing is taken back once the game is over.
//
// The terminal's Undo keeps the same rules (refuseTakeback), its people
// at one keyboard agreeing there and then.

// RequestTakeback is seat p, a person, asking to take its last move back.
// Against the AI the moves go back at once (tookBack reports it); between
// people the request waits for the other seat, and a request while the
// other seat's own is on the table accepts that one.
func (pg *Game) RequestTakeback(p game.Player) (tookBack bool, err error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkTakeback(p); err != nil {
		return false, err
	}
	if err := pg.refuseTakeback(pg.people()); err != nil {
		return false, err
	}
	if pg.people() == 1 {
		_, err := pg.takeBack(pg.untilToMove(p))
		return err == nil, err
	}
	switch pg.takeback {
	case p:
		return false, nil
	case game.NoPlayer:
		c := pg.newChange(TakebackAsked, p, pg.now())
		c.Takeback = p
		return false, pg.change(c, func() { pg.takeback = p })
	}
	_, err = pg.takeBack(pg.untilToMove(pg.takeback))
	return err == nil, err
}

// AcceptTakeback is seat p accepting the other seat's request: the moves
// go back until the asking seat is to move again.
func (pg *Game) AcceptTakeback(p game.Player) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkOpen(); err != nil {
		return err
	}
	if pg.takeback == game.NoPlayer || pg.takeback == p {
		return fmt.Errorf("%w from the other seat to accept", ErrNoRequest)
	}
	_, err := pg.takeBack(pg.untilToMove(pg.takeback))
	return err
}

// DeclineTakeback is seat p withdrawing its request or refusing the other
// seat's.
func (pg *Game) DeclineTakeback(p game.Player) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkOpen(); err != nil {
		return err
	}
	if pg.takeback == game.NoPlayer {
		return fmt.Errorf("%w on the table to decline", ErrNoRequest)
	}
	c := pg.newChange(TakebackDeclined, p, pg.now())
	c.Takeback = game.NoPlayer
	return pg.change(c, func() { pg.takeback = game.NoPlayer })
}

// Takebacks reports whether the game takes moves back at all: not when
// it was made with take-backs off (Config.NoTakebacks).
func (pg *Game) Takebacks() bool { return !pg.noTakebacks }

// Takeback is the seat asking to take its last move back, or NoPlayer.
func (pg *Game) Takeback() game.Player {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.takeback
}

// checkTakeback refuses a take-back request by p: the game is over, p
// is no person, take-backs are off, or p has no move to take back.
func (pg *Game) checkTakeback(p game.Player) error {
	if err := pg.checkOpen(); err != nil {
		return err
	}
	if p < 0 || int(p) >= len(pg.seats) || !pg.seats[p].Person() {
		return fmt.Errorf("%w: seat %d asks for a take-back", ErrNoPerson, p)
	}
	if !pg.hasMoved(p) {
		return fmt.Errorf("%w: %s has not moved yet", ErrNothing, pg.g.PlayerName(p))
	}
	return nil
}

// refuseTakeback applies the rules every take-back keeps, a request's as
// the terminal's Undo, in a game where people seats are persons: none
// when the game turned them off; against the AI (one person), none in a
// rated game; between people, none in a game of three.
func (pg *Game) refuseTakeback(people int) error {
	switch {
	case pg.noTakebacks:
		return ErrNoTakebacks
	case people == 1 && pg.rated:
		return fmt.Errorf("%w: a rated game against the AI takes no moves back", ErrNoTakebacks)
	case people > 1 && pg.g.Players() != 2:
		return fmt.Errorf("%w: between people, moves are taken back in two-player games only", ErrNoTakebacks)
	}
	return nil
}

// hasMoved reports whether seat p played one of the game's moves.
func (pg *Game) hasMoved(p game.Player) bool {
	st := pg.state.Clone()
	for range pg.rec.Moves {
		if !st.Undo() {
			return false
		}
		if st.ToMove() == p {
			return true
		}
	}
	return false
}

// people is how many seats persons play.
func (pg *Game) people() int {
	n := 0
	for _, seat := range pg.seats {
		if seat.Person() {
			n++
		}
	}
	return n
}

// untilToMove is the take-back that goes back over p's last move: at
// least one move, until p is to move.
func (pg *Game) untilToMove(p game.Player) func(game.State, int) bool {
	return func(st game.State, undone int) bool { return undone > 0 && st.ToMove() == p }
}

// SetPremove sets seat p's move for its next turn while another seat is
// to move, in place of any premove p had; the move is checked when the
// turn comes, not now. An empty text clears p's premove.
func (pg *Game) SetPremove(p game.Player, text string) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkOpen(); err != nil {
		return err
	}
	if p < 0 || int(p) >= len(pg.seats) || !pg.seats[p].Person() {
		return fmt.Errorf("%w: seat %d sets a premove", ErrNoPerson, p)
	}
	if text == "" {
		if pg.premove == nil || pg.premove.Seat != p {
			return fmt.Errorf("%w to clear", ErrNoPremove)
		}
		c := pg.newChange(PremoveSet, p, pg.now())
		c.Premove = nil
		return pg.change(c, func() { pg.premove = nil })
	}
	if pg.state.ToMove() == p {
		return fmt.Errorf("%w: it is %s's turn; play the move", ErrNotYourTurn, pg.g.PlayerName(p))
	}
	pm := &Premove{Seat: p, Ply: pg.nextTurnOf(p), Move: text}
	if pm.Ply < 0 {
		return fmt.Errorf("%w: %s has no turn to come", ErrNotYourTurn, pg.g.PlayerName(p))
	}
	c := pg.newChange(PremoveSet, p, pg.now())
	c.Premove = pm
	if c.Line != nil && c.Line.Seat == p {
		c.Line = nil // the latest wins: the premove replaces p's conditional moves
	}
	return pg.change(c, func() { pg.premove, pg.line = pm, c.Line })
}

// nextTurnOf is the ply of seat p's next turn when the seats play in
// turn: in a game of two, the next ply; in a game of three, p's turn
// after the seats before it. It is -1 when p is to move (no premove then).
func (pg *Game) nextTurnOf(p game.Player) int {
	to, n := pg.state.ToMove(), pg.g.Players()
	if to == p {
		return -1
	}
	ahead := (int(p) - int(to) + n) % n
	return len(pg.rec.Moves) + ahead
}

// Premove is the premove set, or nil.
func (pg *Game) Premove() *Premove {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.premove == nil {
		return nil
	}
	pm := *pg.premove
	return &pm
}

// playPremove plays the premove whose turn has come: at once, at the
// same reading of the clock as the move before it (no thinking time),
// if it is legal; otherwise it is dropped, and the change says so. A
// premove whose keeper refuses it is dropped too: the move before it
// stands. pg.mu is held.
func (pg *Game) playPremove() {
	pm := pg.premove
	if pm == nil || pg.result().Over() || pg.state.ToMove() != pm.Seat {
		return
	}
	m, err := premoveIn(pg.state, pm.Move)
	if err == nil && pm.Ply == len(pg.rec.Moves) {
		if pg.play(m) == nil {
			return
		}
	}
	c := pg.newChange(PremoveDropped, pm.Seat, pg.now())
	c.Premove, c.Dropped = nil, pm
	if pg.change(c, func() { pg.premove, pg.dropped = nil, pm }) != nil {
		pg.premove = nil // the keeper holds it still; the next change clears it
	}
}

// Dropped is the premove dropped at the game's ply (its seat to move, or
// the game over since), or nil: what a seat away when it went is told.
func (pg *Game) Dropped() *Premove {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.dropped == nil {
		return nil
	}
	pm := *pg.dropped
	return &pm
}

// premoveIn is the legal move of st a premove names: the move of its
// text, or else the one legal move from its first cell to its last (a
// page that cannot know the position to come sets a premove by two
// clicks, the piece and its landing; the capture that lands there is the
// one played, when only one does).
func premoveIn(st game.State, text string) (game.Move, error) {
	m, err := game.ParseMove(st, text)
	if err == nil {
		return m, nil
	}
	from, to, ok := moveEnds(text)
	if !ok {
		return game.Move{}, err
	}
	match := ""
	for _, legal := range game.MoveTexts(st) {
		if f, t, ok := moveEnds(legal); ok && f == from && t == to {
			if match != "" {
				return game.Move{}, err // more than one move lands there
			}
			match = legal
		}
	}
	if match == "" {
		return game.Move{}, err
	}
	return game.ParseMove(st, match)
}

// moveEnds are a move text's first and last cells: the letters and
// digits between its separators, before any drops (Eximo's "@").
func moveEnds(text string) (from, to string, ok bool) {
	if i := strings.IndexByte(text, '@'); i >= 0 {
		text = text[:i]
	}
	cells := strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if len(cells) < 2 {
		return "", "", false
	}
	return cells[0], cells[len(cells)-1], true
}

// resumeWaiting restores a stored take-back request and premove, and the
// premove dropped at the game's ply. A premove whose turn has come
// already (the move before it was stored, and the premove not played) is
// dropped, and its seat told so as of any premove dropped.
func (pg *Game) resumeWaiting(r *Resume) error {
	pg.takeback = game.NoPlayer
	if tb := r.Takeback; tb != nil {
		if *tb < 0 || int(*tb) >= pg.g.Players() {
			return fmt.Errorf("play: a take-back request by seat %d in a game of %d", *tb, pg.g.Players())
		}
		pg.takeback = *tb
	}
	if pm := r.Premove; pm != nil && pm.Seat >= 0 && int(pm.Seat) < pg.g.Players() &&
		pg.state.ToMove() != pm.Seat && pm.Ply >= len(pg.rec.Moves) {
		p := *pm
		pg.premove = &p
	}
	dropped := r.Dropped
	if pm := r.Premove; pm != nil && pg.premove == nil && pm.Ply == len(pg.rec.Moves) && pg.state.ToMove() == pm.Seat {
		dropped = pm
	}
	if pm := dropped; pm != nil && pm.Seat >= 0 && int(pm.Seat) < pg.g.Players() && pm.Ply == len(pg.rec.Moves) {
		p := *pm
		pg.dropped = &p
	}
	pg.resumeLine(r.Line)
	return nil
}
