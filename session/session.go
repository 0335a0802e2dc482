// Package session is one game being played, with no terminal and no
// network: the position and its history, who sits in each seat, the AI's
// turns, take-backs, resignation and draw offers, clocks (Fischer, or
// correspondence per move), and the record. The terminal transport, the
// server and tests all drive this same code: the rules of play live here
// once.
//
// A session restores a stored game (its moves, the clock's reading, the
// offer on the table, an end off the board) and keeps its changes through
// one Keeper, with one rule: every change is handed to the keeper before
// it is made, and a change the keeper refused is not made. Nothing is
// acknowledged that is not kept, whether the keeper is a server's store
// or a record file: the game in memory is always the game kept.
//
// A Session is safe for use by several goroutines: every method takes its
// lock, and an engine searches a copy of the position outside it, so a
// person can quit, resign or be told of a flag fall while the AI thinks.
package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// Seat is who plays one seat: a person (no engine) or an engine.
type Seat struct {
	// Name goes into the record's tag for the seat: a person's name, or
	// the engine's spec; "?" when empty.
	Name   string
	Engine ai.Engine
	// NewEngine, when Engine is nil, makes the seat's engine on its first
	// turn, so that a game only looked at allocates no engine.
	NewEngine func() (ai.Engine, error)
	// Limits, when not nil, bound this seat's engine in place of
	// Config.Limits.
	Limits *ai.Limits
}

// Person reports whether a person plays the seat.
func (s Seat) Person() bool { return s.Engine == nil && s.NewEngine == nil }

// Keeper keeps a session's changes: a server's store, a record file.
// Keep is called before the change is made, with the session's lock held
// (so a keeper never sees two changes of one session at once); the change
// is made only if Keep returns nil, and otherwise the session stays as it
// was and returns Keep's error as it is.
type Keeper interface {
	Keep(Change) error
}

// KeepFunc is a function used as a Keeper.
type KeepFunc func(Change) error

// Keep calls f.
func (f KeepFunc) Keep(c Change) error { return f(c) }

// Config is what a session starts from.
type Config struct {
	// Start is the position play starts from, with any moves already
	// played (a loaded game); it is cloned. Nil means the game's start.
	Game  game.Game
	Start game.State
	// Moves, when given, are played from Start before the session
	// begins (a stored game): their texts become the record's moves. Not
	// with Record.
	Moves []string
	// Record, when not nil, is the record the game was loaded from: its
	// tags and notes are kept; its moves must be Start's history.
	Record *record.Record
	// StartFEN is the position the record starts from when it is not the
	// game's own start ("" for the start).
	StartFEN string
	Seats    []Seat
	// Limits bound every engine's search (unless its seat has its own);
	// with a running clock, a search also stays within the mover's share
	// of its time.
	Limits ai.Limits
	// Clock, when not nil, is the time control for every seat.
	Clock *timecontrol.Control
	// Resume, when not nil, is what a stored game adds to its moves.
	Resume *Resume
	// Keeper, when not nil, keeps every change before it is made; a
	// change it refuses is not made.
	Keeper Keeper
	// NoRecord says that the keeper keeps no record (a store keeps the
	// moves): its changes carry none, which spares copying the record at
	// every change.
	NoRecord bool
	// Effects says that the keeper shows what each move did: a move's
	// change carries its effects, told from the position the session
	// holds anyway, so that nobody parses the move again to tell them.
	Effects bool
	// Now tells the time; nil means time.Now (tests give their own).
	Now func() time.Time
	// Date is the record's Date tag for a new game.
	Date string
}

// Resume is the state of a stored game beyond its moves.
type Resume struct {
	// Clock is the clock's reading (with Config.Clock); nil starts every
	// seat with its full time, running from now.
	Clock *ClockState
	// Offer is the seat whose draw offer is on the table, or NoPlayer.
	Offer game.Player
	// Ended is an end the players or the clock decided (a resignation,
	// an agreement, a flag fall), or nil; the board's own end wins over
	// it.
	Ended *game.Result
}

// ChangeKind says what a Change did.
type ChangeKind int

// The changes a session makes.
const (
	Moved        ChangeKind = iota + 1 // Seat played Move
	Resigned                           // Seat resigned
	DrawOffered                        // Seat offered a draw
	DrawAgreed                         // Seat accepted the other seat's offer
	DrawDeclined                       // Seat withdrew or refused the offer on the table
	FlagFell                           // Seat ran out of time
	TookBack                           // moves were taken back
)

var changeNames = [...]string{Moved: "move", Resigned: "resignation", DrawOffered: "draw offer",
	DrawAgreed: "draw agreed", DrawDeclined: "draw declined", FlagFell: "flag fall", TookBack: "take-back"}

// Recorded reports whether a record shows changes of kind k: it shows
// moves, take-backs and ends, not offers and their refusals.
func (k ChangeKind) Recorded() bool { return k != DrawOffered && k != DrawDeclined }

func (k ChangeKind) String() string {
	if k > 0 && int(k) < len(changeNames) {
		return changeNames[k]
	}
	return fmt.Sprintf("change %d", int(k))
}

// Change is one change to a session as its Keeper sees it, before it is
// made: what happens, and the game after it.
type Change struct {
	Kind ChangeKind
	// Seat is who moved, resigned, offered, accepted or declined, or
	// whose flag fell; NoPlayer for a take-back.
	Seat game.Player
	// Ply is the number of moves played before the change (for Moved,
	// the ply the move is for); for TookBack, the number left after it.
	Ply int
	// Move is the move played, in the notation (Moved only).
	Move string
	// At is when the change was made; the clock was read then.
	At time.Time
	// Clock is the clock's reading after the change; nil without one.
	Clock *ClockState
	// Offer is the seat offering a draw after the change, or NoPlayer.
	Offer game.Player
	// Result is the game's result after the change; not Over while it
	// goes on.
	Result game.Result
	// Record is the game's record after the change, its result set: what
	// a record file writes. It is the keeper's own copy; nil with
	// Config.NoRecord.
	Record *record.Record
	// Effects is what the move did (Moved only, with Config.Effects);
	// nil when it cannot be told.
	Effects *game.Effects
}

// Session is one game in play.
type Session struct {
	mu     sync.Mutex
	g      game.Game
	state  game.State
	seats  []Seat
	limits ai.Limits
	rec    *record.Record
	keeper Keeper
	// noRecord and effects are Config.NoRecord and Config.Effects.
	noRecord, effects bool
	now               func() time.Time
	clock             *clock
	ended             *game.Result // an end decided by the players or the clock
	offer             game.Player  // who offers a draw, or NoPlayer
	// seq counts the changes made, so that an engine's move found for a
	// position that changed meanwhile is dropped.
	seq uint64
}

// The errors a refused request returns; each comes wrapped with its
// details, so callers test with errors.Is.
var (
	ErrOver        = errors.New("the game is over")
	ErrNotYourTurn = errors.New("not your turn")
	ErrNoPerson    = errors.New("no person plays that seat")
	ErrNothing     = errors.New("nothing to take back")
	ErrWrongPly    = errors.New("not the current ply")
	ErrNoDraws     = errors.New("draws are offered in two-player games only")
	ErrNoOffer     = errors.New("no draw offer")
	ErrNoEngine    = errors.New("no engine is to move")
	ErrChanged     = errors.New("the game changed")
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
	if cfg.Moves != nil && cfg.Record != nil {
		return nil, fmt.Errorf("session: give the moves or a record, not both")
	}
	s := g.Start()
	if cfg.Start != nil {
		s = cfg.Start.Clone()
	}
	if err := game.PlayRuleMoves(s, cfg.Moves); err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	ss := &Session{g: g, state: s, seats: slices.Clone(cfg.Seats), limits: cfg.Limits, keeper: cfg.Keeper,
		noRecord: cfg.NoRecord, effects: cfg.Effects, now: cfg.Now, offer: game.NoPlayer}
	if ss.now == nil {
		ss.now = time.Now
	}
	ss.rec = cfg.Record
	if ss.rec == nil {
		ss.rec = record.New(g, cfg.StartFEN, ss.names(), cfg.Date)
		ss.rec.Moves = slices.Clone(cfg.Moves)
	} else if err := ss.adoptRecord(); err != nil {
		return nil, err
	}
	if err := ss.resume(cfg.Clock, cfg.Resume); err != nil {
		return nil, err
	}
	return ss, nil
}

// resume sets the clock and what a stored game adds to its moves.
func (ss *Session) resume(tc *timecontrol.Control, r *Resume) error {
	if r == nil {
		r = &Resume{Offer: game.NoPlayer}
	}
	if tc != nil {
		ss.clock = &clock{tc: *tc, at: Waiting(*tc, ss.g.Players())}
		ss.clock.at.TurnStart = ss.now()
		if r.Clock != nil {
			if len(r.Clock.Left) != ss.g.Players() {
				return fmt.Errorf("session: a clock of %d seats for %d players", len(r.Clock.Left), ss.g.Players())
			}
			ss.clock.at = r.Clock.clone()
		}
	}
	if r.Offer != game.NoPlayer && (ss.g.Players() != 2 || r.Offer < 0 || int(r.Offer) >= ss.g.Players()) {
		return fmt.Errorf("session: a draw offer by seat %d in a game of %d", r.Offer, ss.g.Players())
	}
	ss.offer = r.Offer
	if r.Ended != nil && r.Ended.Over() && !ss.state.Result().Over() {
		ended := *r.Ended
		ss.ended = &ended
	}
	return nil
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
func (ss *Session) Seats() []Seat {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return slices.Clone(ss.seats)
}

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
	return slices.Clone(ss.rec.Moves)
}

// Snapshot is the session at one moment, read under one lock: what a view
// of the game shows.
type Snapshot struct {
	State  game.State // a copy, history included
	Moves  []string
	Result game.Result
	Offer  game.Player // the seat offering a draw, or NoPlayer
	// Control is the time control, nil without a clock; Clock is its
	// reading, Left every seat's time now and Running whether the seat
	// to move is being charged.
	Control *timecontrol.Control
	Clock   ClockState
	Left    []time.Duration
	Running bool
}

// Snapshot reads the session.
func (ss *Session) Snapshot() Snapshot {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.snapshot(ss.state.Clone())
}

// Read calls f with the session as it is, under its lock: the snapshot's
// State is the session's own position, which f must not change nor keep,
// so that reading the game costs no copy of it.
func (ss *Session) Read(f func(Snapshot)) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	f(ss.snapshot(ss.state))
}

// snapshot is the session with st as its position. ss.mu is held.
func (ss *Session) snapshot(st game.State) Snapshot {
	res := ss.result()
	snap := Snapshot{State: st, Moves: slices.Clone(ss.rec.Moves), Result: res, Offer: ss.offer}
	if c := ss.clock; c != nil {
		tc := c.tc
		snap.Control, snap.Clock = &tc, c.at.clone()
		snap.Left = c.left(ss.state.ToMove(), ss.now(), res.Over())
		snap.Running = c.at.Running() && !res.Over()
	}
	return snap
}

// Record returns a copy of the game's record, its result set.
func (ss *Session) Record() *record.Record {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.recordWith(len(ss.rec.Moves), "", ss.result())
}

// recordWith is a copy of the record with its first ply moves, then
// move if not "", finished with res.
func (ss *Session) recordWith(ply int, move string, res game.Result) *record.Record {
	r := *ss.rec
	r.Tags = slices.Clone(ss.rec.Tags)
	r.Moves = slices.Clone(ss.rec.Moves)
	r.Notes = slices.Clone(ss.rec.Notes)
	r.Truncate(ply)
	if move != "" {
		r.Moves = append(r.Moves, move)
	}
	r.Finish(res, ss.g)
	if !res.Over() {
		r.Del("Termination")
	}
	return &r
}

// keep hands c, with the record after it, to the keeper.
func (ss *Session) keep(c Change) error {
	if ss.keeper == nil {
		return nil
	}
	if !ss.noRecord {
		c.Record = ss.recordWith(c.Ply, c.Move, c.Result)
	}
	return ss.keeper.Keep(c)
}

// change keeps c, then makes it with apply and counts it: a change the
// keeper refuses is never made.
func (ss *Session) change(c Change, apply func()) error {
	if err := ss.keep(c); err != nil {
		return err
	}
	apply()
	ss.seq++
	return nil
}

// newChange is a change by seat p at now, the game otherwise as it is.
func (ss *Session) newChange(kind ChangeKind, p game.Player, now time.Time) Change {
	c := Change{Kind: kind, Seat: p, Ply: len(ss.rec.Moves), At: now, Offer: ss.offer, Result: ss.result()}
	if ss.clock != nil {
		at := ss.clock.at.clone()
		c.Clock = &at
	}
	return c
}

// EngineToMove is the engine whose turn it is, or nil when a person is to
// move or the game is over. A seat's engine is made on its first turn.
func (ss *Session) EngineToMove() ai.Engine {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	e, _ := ss.engineToMove()
	return e
}

func (ss *Session) engineToMove() (ai.Engine, error) {
	if ss.result().Over() {
		return nil, nil
	}
	seat := &ss.seats[ss.state.ToMove()]
	if seat.Engine == nil && seat.NewEngine != nil {
		e, err := seat.NewEngine()
		if err != nil {
			return nil, fmt.Errorf("the engine of %s: %w", ss.g.PlayerName(ss.state.ToMove()), err)
		}
		seat.Engine = e
	}
	return seat.Engine, nil
}

// checkOpen refuses a request when the game is over, ending it first
// when the mover's flag fell (the keeper's refusal of that is returned).
func (ss *Session) checkOpen() error {
	if _, err := ss.tick(); err != nil {
		return err
	}
	if r := ss.result(); r.Over() {
		return fmt.Errorf("%w (%s)", ErrOver, r.Describe(ss.g))
	}
	return nil
}

// Move plays a move given in the notation for seat p, a person. It is
// refused when the game is over, it is not p's turn or the move is illegal
// (the error is a *game.IllegalMoveError saying why), and when the keeper
// refuses it.
func (ss *Session) Move(p game.Player, text string) (game.Move, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.move(p, -1, text)
}

// MoveAt is Move for the move of ply (the number of moves played before
// it): a move sent for another ply is refused with ErrWrongPly, after the
// checks that the game goes on.
func (ss *Session) MoveAt(p game.Player, ply int, text string) (game.Move, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ply < 0 {
		return game.Move{}, fmt.Errorf("ply %d: %w; plies count from 0", ply, ErrWrongPly)
	}
	return ss.move(p, ply, text)
}

// move plays p's move for ply, or for the current ply when ply is -1.
func (ss *Session) move(p game.Player, ply int, text string) (game.Move, error) {
	if err := ss.checkOpen(); err != nil {
		return game.Move{}, err
	}
	if now := len(ss.rec.Moves); ply >= 0 && ply != now {
		return game.Move{}, fmt.Errorf("ply %d: %w; the game is at ply %d", ply, ErrWrongPly, now)
	}
	if to := ss.state.ToMove(); p != to {
		return game.Move{}, fmt.Errorf("%w: %s is to move", ErrNotYourTurn, ss.g.PlayerName(to))
	}
	if !ss.seats[p].Person() {
		return game.Move{}, fmt.Errorf("%w: %s is played by %s", ErrNoPerson, ss.g.PlayerName(p), ss.seatName(p))
	}
	m, err := game.ParseMove(ss.state, text)
	if err != nil {
		return game.Move{}, err
	}
	return m, ss.play(m)
}

// seatName is the seat's engine's name, or its name.
func (ss *Session) seatName(p game.Player) string {
	if e := ss.seats[p].Engine; e != nil {
		return e.Name()
	}
	return cmp.Or(ss.seats[p].Name, "an engine")
}

// play keeps and makes a move: the mover's clock is charged, and a move
// declines the other seat's draw offer.
func (ss *Session) play(m game.Move) error {
	now := ss.now()
	mover := ss.state.ToMove()
	c := ss.newChange(Moved, mover, now)
	c.Move = m.Text(ss.g.Board())
	if ss.offer != game.NoPlayer && ss.offer != mover {
		c.Offer = game.NoPlayer
	}
	if ss.clock != nil {
		next := ss.clock.afterMove(mover, now)
		c.Clock = &next
	}
	if ss.effects {
		c.Effects = effectsOf(ss.state, m)
	}
	// The result after the move is the board's: play it, and take it
	// back if the keeper refuses it.
	ss.state.Play(m)
	c.Result = ss.state.Result()
	if err := ss.keep(c); err != nil {
		ss.state.Undo()
		return err
	}
	ss.rec.Moves = append(ss.rec.Moves, c.Move)
	ss.offer = c.Offer
	if ss.clock != nil {
		ss.clock.moved(*c.Clock)
	}
	ss.seq++
	return nil
}

// effectsOf is what m does in st, or nil if st cannot tell (it shows no
// stacks).
func effectsOf(st game.State, m game.Move) *game.Effects {
	fx, err := game.MoveEffects(st, m)
	if err != nil {
		return nil
	}
	return &fx
}

// EngineTurn is the turn of the engine to move, prepared by
// Session.EngineTurn: Search runs without the session's lock, and
// Session.PlayTurn plays its move if the game did not change meanwhile.
// One engine searches one turn at a time: prepare the next turn once the
// last was played or dropped.
type EngineTurn struct {
	Engine ai.Engine
	// State is a copy of the position to search.
	State  game.State
	Limits ai.Limits
	ss     *Session
	seq    uint64
}

// Search lets the engine choose its move; report, if not nil, sees each
// completed iteration.
func (t *EngineTurn) Search(ctx context.Context, report func(ai.Info)) ai.Info {
	return t.Engine.Search(ctx, t.State, t.Limits, report)
}

// EngineTurn prepares the turn of the engine to move. It is refused with
// ErrOver when the game is over (a flag that fell is kept first) and
// ErrNoEngine when a person is to move.
func (ss *Session) EngineTurn() (*EngineTurn, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.checkOpen(); err != nil {
		return nil, err
	}
	e, err := ss.engineToMove()
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, fmt.Errorf("%w: %s is a person's to play", ErrNoEngine, ss.g.PlayerName(ss.state.ToMove()))
	}
	return &EngineTurn{Engine: e, State: ss.state.Clone(), Limits: ss.engineLimits(), ss: ss, seq: ss.seq}, nil
}

// PlayTurn plays the move an engine found on its turn. When the game
// changed since the turn was prepared (a move, a take-back, an offer, a
// resignation) the move is dropped with ErrChanged; when the engine's
// flag fell meanwhile, the game ends on time and the error is ErrOver.
func (ss *Session) PlayTurn(t *EngineTurn, m game.Move) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if t.ss != ss || t.seq != ss.seq || ss.result().Over() {
		return fmt.Errorf("%w while %s was thinking", ErrChanged, t.Engine.Name())
	}
	if err := ss.checkOpen(); err != nil {
		return err
	}
	return ss.play(m)
}

// PlayEngine lets the engine whose turn it is search and play: EngineTurn,
// its Search without the lock (so other requests are answered meanwhile),
// then PlayTurn. If ctx was cancelled, the move is dropped and the error
// says so.
func (ss *Session) PlayEngine(ctx context.Context, report func(ai.Info)) (ai.Info, error) {
	t, err := ss.EngineTurn()
	if err != nil {
		return ai.Info{}, err
	}
	info := t.Search(ctx, report)
	if info.Err != nil {
		return info, info.Err
	}
	if err := ctx.Err(); err != nil {
		return info, err
	}
	return info, ss.PlayTurn(t, info.Move)
}

// engineLimits are the limits of the engine to move: its seat's or the
// session's, and a running clock, which the engine plans its time by.
func (ss *Session) engineLimits() ai.Limits {
	lim := ss.limits
	to := ss.state.ToMove()
	if l := ss.seats[to].Limits; l != nil {
		lim = *l
	}
	if ss.clock != nil && ss.clock.at.Running() {
		lim.Clock = ss.clock.engineClock(to, ss.now())
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
	// Take back on copies, so that a refused take-back changes nothing.
	state, moves := ss.state.Clone(), len(ss.rec.Moves)
	var clk *clock
	if ss.clock != nil {
		clk = &clock{tc: ss.clock.tc, at: ss.clock.at, history: ss.clock.history}
	}
	now := ss.now()
	var undone []string
	for n == 0 && (len(undone) == 0 || ss.engineAt(state) && ss.hasPerson()) || len(undone) < n {
		if moves == 0 || !state.Undo() {
			break
		}
		moves--
		undone = append(undone, ss.rec.Moves[moves])
		if clk != nil {
			clk.at = clk.undone(now)
			clk.history = clk.history[:max(len(clk.history)-1, 0)]
		}
	}
	if len(undone) == 0 {
		return nil, ErrNothing
	}
	c := Change{Kind: TookBack, Seat: game.NoPlayer, Ply: moves, At: now, Offer: game.NoPlayer, Result: state.Result()}
	if clk != nil {
		at := clk.at.clone()
		c.Clock = &at
	}
	err := ss.change(c, func() {
		ss.state = state
		ss.rec.Truncate(moves)
		if clk != nil {
			ss.clock = clk
		}
		ss.offer = game.NoPlayer
	})
	if err != nil {
		return nil, err
	}
	return undone, nil
}

// engineAt reports whether an engine is to move in s.
func (ss *Session) engineAt(s game.State) bool {
	return !s.Result().Over() && !ss.seats[s.ToMove()].Person()
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
	return ss.endAgainst(p, game.Resignation, Resigned, ss.now(), nil)
}

// endAgainst keeps and makes an end with every seat but p winning;
// clk, if not nil, is the clock's reading after it.
func (ss *Session) endAgainst(p game.Player, why game.Reason, kind ChangeKind, now time.Time, clk *ClockState) error {
	res := game.Result{Reason: why}
	for q := 0; q < ss.g.Players(); q++ {
		if game.Player(q) != p {
			res.Winners = res.Winners.Add(game.Player(q))
		}
	}
	c := ss.newChange(kind, p, now)
	c.Offer, c.Result = game.NoPlayer, res
	if clk != nil {
		c.Clock = clk
	}
	return ss.change(c, func() {
		ss.ended, ss.offer = &res, game.NoPlayer
		if clk != nil {
			ss.clock.at = *clk
		}
	})
}

// OfferDraw records seat p's offer of a draw (two players only). When the
// other seat already offered one, the offer is an acceptance and the game
// is drawn; Offer reports whether it was. Offering again changes nothing.
func (ss *Session) OfferDraw(p game.Player) (drawn bool, err error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.checkDraw(); err != nil {
		return false, err
	}
	switch ss.offer {
	case p:
		return false, nil
	case game.NoPlayer:
		c := ss.newChange(DrawOffered, p, ss.now())
		c.Offer = p
		return false, ss.change(c, func() { ss.offer = p })
	}
	return true, ss.agree(p)
}

// AcceptDraw accepts the draw the other seat offers; ErrNoOffer when it
// offers none.
func (ss *Session) AcceptDraw(p game.Player) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.checkDraw(); err != nil {
		return err
	}
	if ss.offer == game.NoPlayer || ss.offer == p {
		return fmt.Errorf("%w from the other seat to accept", ErrNoOffer)
	}
	return ss.agree(p)
}

// agree draws the game by agreement, seat p accepting.
func (ss *Session) agree(p game.Player) error {
	res := game.DrawBy(game.Agreement)
	c := ss.newChange(DrawAgreed, p, ss.now())
	c.Offer, c.Result = game.NoPlayer, res
	return ss.change(c, func() { ss.ended, ss.offer = &res, game.NoPlayer })
}

// checkDraw refuses a draw request when the game is over or has not two
// players.
func (ss *Session) checkDraw() error {
	if err := ss.checkOpen(); err != nil {
		return err
	}
	if ss.g.Players() != 2 {
		return ErrNoDraws
	}
	return nil
}

// DrawOffer is the seat that offers a draw, or NoPlayer.
func (ss *Session) DrawOffer() game.Player {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.offer
}

// DeclineDraw is seat p withdrawing its offer or refusing the other
// seat's; ErrNoOffer when no offer is on the table.
func (ss *Session) DeclineDraw(p game.Player) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.checkDraw(); err != nil {
		return err
	}
	if ss.offer == game.NoPlayer {
		return fmt.Errorf("%w on the table to decline", ErrNoOffer)
	}
	c := ss.newChange(DrawDeclined, p, ss.now())
	c.Offer = game.NoPlayer
	return ss.change(c, func() { ss.offer = game.NoPlayer })
}

// Clocks returns each seat's time left now, or nil without a clock. It
// changes nothing: a flag that fell is seen by Tick.
func (ss *Session) Clocks() []time.Duration {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.clock == nil {
		return nil
	}
	return ss.clock.left(ss.state.ToMove(), ss.now(), ss.result().Over())
}

// TimeToFlag is how long the seat to move has before its flag falls;
// false when no clock runs (none, one waiting for the first move, or the
// game over).
func (ss *Session) TimeToFlag() (time.Duration, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.clock == nil || !ss.clock.at.Running() || !ss.clock.held.IsZero() || ss.result().Over() {
		return 0, false
	}
	to := ss.state.ToMove()
	return ss.clock.at.Left[to] - ss.clock.charged(ss.now()), true
}

// HoldEngineClock stops charging the clock of the engine to move, from now
// until ResumeEngineClock (or the next change): a server holds it while
// the engine's turn waits for a worker, so that an engine never loses on
// time because the machine is busy. Its flag cannot fall while held, and
// TimeToFlag reports no flag to watch. It does nothing when a person is
// to move or no clock runs.
func (ss *Session) HoldEngineClock() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.clock == nil || ss.result().Over() || !ss.engineAt(ss.state) {
		return
	}
	ss.clock.hold(ss.now())
}

// ResumeEngineClock charges the engine's clock again: the time it was
// held is given back (its turn counts as started that much later).
func (ss *Session) ResumeEngineClock() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.clock != nil {
		ss.clock.resume(ss.now())
	}
}

// Tick checks the clock of the seat to move: when its time is up the
// game ends, lost on time (kept first). It reports whether the
// game is over.
func (ss *Session) Tick() (over bool, err error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	_, err = ss.tick()
	return ss.result().Over(), err
}

// tick ends the game on time when the mover's flag fell; it reports
// whether it did just now.
func (ss *Session) tick() (bool, error) {
	if ss.clock == nil || ss.result().Over() {
		return false, nil
	}
	to, now := ss.state.ToMove(), ss.now()
	if !ss.clock.flagged(to, now) {
		return false, nil
	}
	after := ss.clock.afterFlag(to, now)
	if err := ss.endAgainst(to, game.TimeForfeit, FlagFell, now, &after); err != nil {
		return false, err
	}
	return true, nil
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
