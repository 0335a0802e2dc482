// Package session is one game being played, with no terminal and no
// network: the position and its history, who sits in each seat, the AI's
// turns, take-backs, resignation and draw offers, clocks, and the record
// kept in a Store after every change. The terminal's play command, the
// server and tests all drive this same code.
//
// A Session is safe for use by several goroutines: every method takes its
// lock, and an engine searches a copy of the position outside it, so a
// person can quit, resign or be told of a flag fall while the AI thinks.
package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
)

// Seat is who plays one seat: a person (Engine nil) or an engine.
type Seat struct {
	// Name goes into the record's tag for the seat: a person's name, or
	// the engine's spec; "?" when empty.
	Name   string
	Engine ai.Engine
}

// Person reports whether a person plays the seat.
func (s Seat) Person() bool { return s.Engine == nil }

// Store keeps a session's record after every change. Save is called with
// the lock held, so a store never sees two saves of one session at once.
type Store interface {
	Save(*record.Record) error
}

// Config is what a session starts from.
type Config struct {
	// Start is the position play starts from, with any moves already
	// played (a loaded game); it is cloned. Nil means the game's start.
	Game  game.Game
	Start game.State
	// Record, when not nil, is the record the game was loaded from: its
	// tags and notes are kept; its moves must be Start's history.
	Record *record.Record
	// StartFEN is the position the record starts from when it is not the
	// game's own start ("" for the start).
	StartFEN string
	Seats    []Seat
	// Limits bound every engine's search; with a clock, a search also
	// stays within the mover's share of its time.
	Limits ai.Limits
	// Clock, when not nil, is the time control for every seat.
	Clock *TimeControl
	// Store, when not nil, receives the record after every change.
	Store Store
	// Now tells the time; nil means time.Now (tests give their own).
	Now func() time.Time
	// Date is the record's Date tag for a new game.
	Date string
}

// Session is one game in play.
type Session struct {
	mu     sync.Mutex
	g      game.Game
	state  game.State
	seats  []Seat
	limits ai.Limits
	rec    *record.Record
	store  Store
	now    func() time.Time
	clock  *clock
	// base is how many moves the state had when the session began, and
	// loaded what the Result tag said then, for a game loaded as over.
	base  int
	ended *game.Result // an end decided by the players or the clock
	offer game.Player  // who offers a draw, or NoPlayer
}

// The errors a refused request returns; each comes wrapped with its
// details, so callers test with errors.Is.
var (
	ErrOver        = errors.New("the game is over")
	ErrNotYourTurn = errors.New("not your turn")
	ErrNoPerson    = errors.New("no person plays that seat")
	ErrNothing     = errors.New("nothing to take back")
)

// New starts a session. The seats must be one per player.
func New(cfg Config) (*Session, error) {
	g := cfg.Game
	if g == nil && cfg.Start != nil {
		g = cfg.Start.Game()
	}
	if g == nil {
		return nil, fmt.Errorf("session: no game")
	}
	if len(cfg.Seats) != g.Players() {
		return nil, fmt.Errorf("session: %s has %d seats, %d given", g.ID(), g.Players(), len(cfg.Seats))
	}
	s := g.Start()
	if cfg.Start != nil {
		s = cfg.Start.Clone()
	}
	ss := &Session{g: g, state: s, seats: cfg.Seats, limits: cfg.Limits, store: cfg.Store,
		now: cfg.Now, offer: game.NoPlayer, base: s.Ply()}
	if ss.now == nil {
		ss.now = time.Now
	}
	ss.rec = cfg.Record
	if ss.rec == nil {
		ss.rec = record.New(g, cfg.StartFEN, ss.names(), cfg.Date)
	} else if err := ss.adoptRecord(); err != nil {
		return nil, err
	}
	if cfg.Clock != nil {
		ss.clock = newClock(*cfg.Clock, g.Players(), ss.now())
	}
	return ss, nil
}

// names are the seats' names for the record's tags.
func (ss *Session) names() []string {
	names := make([]string, len(ss.seats))
	for i, seat := range ss.seats {
		names[i] = seat.Name
		if names[i] == "" {
			names[i] = "?"
		}
	}
	return names
}

// adoptRecord checks a loaded record against the state and takes its end
// when the record says the game ended off the board (a resignation).
func (ss *Session) adoptRecord() error {
	if len(ss.rec.Moves) != ss.state.Ply() {
		return fmt.Errorf("session: the record has %d moves, the position %d", len(ss.rec.Moves), ss.state.Ply())
	}
	for p, seat := range ss.seats {
		if seat.Name != "" {
			ss.rec.Set(ss.g.PlayerName(game.Player(p)), seat.Name)
		}
	}
	tag := ss.rec.Get("Result")
	if tag == "" || tag == "*" || ss.state.Result().Over() {
		return nil
	}
	res, err := record.ParseResult(tag, ss.rec.Get("Termination"), ss.g.Players())
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	ss.ended = &res
	return nil
}

// Game is the game being played.
func (ss *Session) Game() game.Game { return ss.g }

// Seats returns the seats, in turn order.
func (ss *Session) Seats() []Seat { return append([]Seat(nil), ss.seats...) }

// State returns a copy of the position, history included.
func (ss *Session) State() game.State {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.state.Clone()
}

// Result is the game's result: the board's, or an end the players or the
// clock decided.
func (ss *Session) Result() game.Result {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.result()
}

func (ss *Session) result() game.Result {
	if ss.ended != nil {
		return *ss.ended
	}
	return ss.state.Result()
}

// ToMove is the seat whose turn it is.
func (ss *Session) ToMove() game.Player {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.state.ToMove()
}

// Moves returns the moves played, in the notation.
func (ss *Session) Moves() []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return append([]string(nil), ss.rec.Moves...)
}

// Record returns a copy of the game's record, its result set.
func (ss *Session) Record() *record.Record {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.finishRecord()
	r := *ss.rec
	r.Tags = append([]record.Tag(nil), ss.rec.Tags...)
	r.Moves = append([]string(nil), ss.rec.Moves...)
	r.Notes = append([]record.Note(nil), ss.rec.Notes...)
	return &r
}

func (ss *Session) finishRecord() {
	res := ss.result()
	ss.rec.Finish(res, ss.g)
	if !res.Over() {
		ss.rec.Del("Termination")
	}
}

// save hands the record to the store.
func (ss *Session) save() error {
	if ss.store == nil {
		return nil
	}
	ss.finishRecord()
	return ss.store.Save(ss.rec)
}

// EngineToMove is the engine whose turn it is, or nil when a person is to
// move or the game is over.
func (ss *Session) EngineToMove() ai.Engine {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.engineToMove()
}

func (ss *Session) engineToMove() ai.Engine {
	if ss.result().Over() {
		return nil
	}
	return ss.seats[ss.state.ToMove()].Engine
}

// checkTurn refuses a request from seat p when the game is over or it is
// not p's turn.
func (ss *Session) checkTurn(p game.Player) error {
	if err := ss.checkOpen(); err != nil {
		return err
	}
	if to := ss.state.ToMove(); p != to {
		return fmt.Errorf("%w: %s is to move", ErrNotYourTurn, ss.g.PlayerName(to))
	}
	return nil
}

func (ss *Session) checkOpen() error {
	ss.tick()
	if r := ss.result(); r.Over() {
		return fmt.Errorf("%w (%s)", ErrOver, r.Describe(ss.g))
	}
	return nil
}

// Move plays a move given in the notation for seat p, a person. It is
// refused when the game is over, it is not p's turn or the move is illegal
// (the error is a *game.IllegalMoveError saying why). The record is saved
// before Move returns; a failed save is returned with the move played.
func (ss *Session) Move(p game.Player, text string) (game.Move, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.checkTurn(p); err != nil {
		return game.Move{}, err
	}
	if !ss.seats[p].Person() {
		return game.Move{}, fmt.Errorf("%w: %s is played by %s", ErrNoPerson, ss.g.PlayerName(p), ss.seats[p].Engine.Name())
	}
	m, err := game.ParseMove(ss.state, text)
	if err != nil {
		return game.Move{}, err
	}
	return m, ss.play(m)
}

// play makes a move, runs the mover's clock and saves.
func (ss *Session) play(m game.Move) error {
	mover := ss.state.ToMove()
	ss.rec.Moves = append(ss.rec.Moves, m.Text(ss.g.Board()))
	ss.state.Play(m)
	if ss.offer != game.NoPlayer && ss.offer != mover {
		ss.offer = game.NoPlayer // a move declines the offer
	}
	if ss.clock != nil {
		ss.clock.moved(mover, ss.state.ToMove(), ss.now())
	}
	return ss.save()
}

// PlayEngine lets the engine whose turn it is search and play. The search
// runs on a copy of the position without the lock, so other requests are
// answered meanwhile; if the game changed while it searched (an undo, a
// resignation, a flag fall) or ctx was cancelled, the move is dropped and
// the error says so. report, if not nil, sees each completed iteration.
func (ss *Session) PlayEngine(ctx context.Context, report func(ai.Info)) (ai.Info, error) {
	ss.mu.Lock()
	e := ss.engineToMove()
	if e == nil {
		ss.mu.Unlock()
		return ai.Info{}, fmt.Errorf("no engine is to move")
	}
	s, ply, lim := ss.state.Clone(), ss.state.Ply(), ss.engineLimits()
	ss.mu.Unlock()

	info := e.Search(ctx, s, lim, report)
	if info.Err != nil {
		return info, info.Err
	}
	if err := ctx.Err(); err != nil {
		return info, err
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.state.Ply() != ply || ss.result().Over() {
		return info, fmt.Errorf("the game changed while %s was thinking", e.Name())
	}
	ss.tick()
	if ss.result().Over() {
		return info, fmt.Errorf("%w (%s)", ErrOver, ss.result().Describe(ss.g))
	}
	return info, ss.play(info.Move)
}

// engineLimits are the limits of the engine to move: the session's, kept
// within the mover's share of its clock.
func (ss *Session) engineLimits() ai.Limits {
	lim := ss.limits
	if ss.clock != nil {
		budget := ss.clock.budget(ss.state.ToMove(), ss.now())
		if lim.MoveTime == 0 || budget < lim.MoveTime {
			lim.MoveTime = budget
		}
	}
	return lim
}

// Undo takes back the last n moves. With n == 0 it takes back moves until
// a person is to move again and at least one move went (so that an
// engine's reply does not come straight back). It returns the moves taken
// back, last first. An end decided by resignation, agreement or the clock
// cannot be taken back.
func (ss *Session) Undo(n int) ([]string, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if n < 0 {
		return nil, fmt.Errorf("undo %d: want a number of moves, 1 or more", n)
	}
	if ss.ended != nil {
		return nil, fmt.Errorf("%w (%s); it cannot be taken back", ErrOver, ss.ended.Describe(ss.g))
	}
	var undone []string
	for n == 0 && (len(undone) == 0 || ss.engineToMove() != nil && ss.hasPerson()) || len(undone) < n {
		if len(ss.rec.Moves) == 0 || !ss.state.Undo() {
			break
		}
		undone = append(undone, ss.rec.Moves[len(ss.rec.Moves)-1])
		ss.rec.Truncate(len(ss.rec.Moves) - 1)
		if ss.clock != nil {
			ss.clock.undo(ss.now())
		}
	}
	if len(undone) == 0 {
		return nil, ErrNothing
	}
	ss.offer = game.NoPlayer
	return undone, ss.save()
}

func (ss *Session) hasPerson() bool {
	for _, seat := range ss.seats {
		if seat.Person() {
			return true
		}
	}
	return false
}

// Resign ends the game as a loss for seat p, whoever is to move; in a
// game of three the others share the win.
func (ss *Session) Resign(p game.Player) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.checkOpen(); err != nil {
		return err
	}
	ss.endAgainst(p, game.Resignation)
	return ss.save()
}

// endAgainst ends the game with every seat but p winning.
func (ss *Session) endAgainst(p game.Player, why game.Reason) {
	res := game.Result{Reason: why}
	for q := 0; q < ss.g.Players(); q++ {
		if game.Player(q) != p {
			res.Winners = res.Winners.Add(game.Player(q))
		}
	}
	ss.ended = &res
	ss.offer = game.NoPlayer
}

// OfferDraw records seat p's offer of a draw (two players only). When the
// other seat already offered one, the offer is an acceptance and the game
// is drawn; Offer reports whether it was.
func (ss *Session) OfferDraw(p game.Player) (drawn bool, err error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.checkOpen(); err != nil {
		return false, err
	}
	if ss.g.Players() != 2 {
		return false, fmt.Errorf("draws are offered in two-player games only")
	}
	if ss.offer != game.NoPlayer && ss.offer != p {
		res := game.DrawBy(game.Agreement)
		ss.ended, ss.offer = &res, game.NoPlayer
		return true, ss.save()
	}
	ss.offer = p
	return false, nil
}

// DrawOffer is the seat that offers a draw, or NoPlayer.
func (ss *Session) DrawOffer() game.Player {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.offer
}

// DeclineDraw withdraws or refuses the offer on the table.
func (ss *Session) DeclineDraw() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.offer = game.NoPlayer
}

// Clocks returns each seat's time left now, or nil without a clock.
func (ss *Session) Clocks() []time.Duration {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.clock == nil {
		return nil
	}
	ss.tick()
	return ss.clock.left(ss.state.ToMove(), ss.now(), ss.result().Over())
}

// Tick checks the clock of the seat to move: when its time is up the
// game ends, lost on time, and the record is saved. It reports whether
// the game is over.
func (ss *Session) Tick() (over bool, err error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.tick() {
		return true, ss.save()
	}
	return ss.result().Over(), nil
}

// tick ends the game on time when the mover's flag fell; it reports
// whether it did just now.
func (ss *Session) tick() bool {
	if ss.clock == nil || ss.result().Over() {
		return false
	}
	to := ss.state.ToMove()
	if ss.clock.flagged(to, ss.now()) {
		ss.clock.stop(to, ss.now())
		ss.endAgainst(to, game.TimeForfeit)
		return true
	}
	return false
}

// LastMove is the move played last, if any.
func (ss *Session) LastMove() (game.Move, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	n := len(ss.rec.Moves)
	if n == 0 {
		return game.Move{}, false
	}
	s := ss.state.Clone()
	if !s.Undo() {
		return game.Move{}, false
	}
	m, err := game.ParseRuleMove(s, ss.rec.Moves[n-1])
	return m, err == nil
}
