// Package play is one game being played, with no terminal and no
// network: the position and its history, who sits in each seat, the AI's
// turns, take-backs, resignation and draw offers, clocks (Fischer, or
// correspondence per move), and the record. The terminal transport, the
// server and tests all drive this same code: the rules of play live here
// once.
//
// A Game restores a stored game (its moves, the clock's reading, the
// offer on the table, an end off the board) and keeps its changes through
// one Keeper, with one rule: every change is handed to the keeper before
// it is made, and a change the keeper refused is not made. Nothing is
// acknowledged that is not kept, whether the keeper is a server's store
// or a record file: the game in memory is always the game kept.
//
// A Game is safe for use by several goroutines: every method takes its
// lock, and an engine searches a copy of the position outside it, so a
// person can quit, resign or be told of a flag fall while the AI thinks.
package play

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

// Keeper keeps a game's changes: a server's store, a record file.
// Keep is called before the change is made, with the game's lock held
// (so a keeper never sees two changes of one game at once); the change
// is made only if Keep returns nil, and otherwise the game stays as it
// was and returns Keep's error as it is.
type Keeper interface {
	Keep(Change) error
}

// KeepFunc is a function used as a Keeper.
type KeepFunc func(Change) error

// Keep calls f.
func (f KeepFunc) Keep(c Change) error { return f(c) }

// Config is what a game starts from.
type Config struct {
	// Start is the position play starts from, with any moves already
	// played (a loaded game); it is cloned. Nil means the game's start.
	Game  game.Game
	Start game.State
	// Moves, when given, are played from Start before the game
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
	// change carries its effects, told from the position the game
	// holds anyway, so that nobody parses the move again to tell them.
	Effects bool
	// Now tells the time; nil means time.Now (tests give their own).
	Now func() time.Time
	// Scratches, when not nil, lends the buffers each move and view
	// needs, shared by every game of the process; nil gives each game
	// its own.
	Scratches *game.Scratches
	// Date is the record's Date tag for a new game.
	Date string
	// NoTakebacks turns take-backs off (an option at a game's creation);
	// Rated refuses them against the AI (see RequestTakeback).
	NoTakebacks, Rated bool
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
	// Takeback is the seat asking to take its last move back, or nil.
	Takeback *game.Player
	// Premove is a seat's move set for its next turn, or nil.
	Premove *Premove
	// Dropped is the premove dropped at the game's ply, or nil.
	Dropped *Premove
	// Line is a seat's conditional moves, or nil.
	Line *Line
}

// ChangeKind says what a Change did.
type ChangeKind int

// The changes a game makes.
const (
	Moved            ChangeKind = iota + 1 // Seat played Move
	Resigned                               // Seat resigned
	DrawOffered                            // Seat offered a draw
	DrawAgreed                             // Seat accepted the other seat's offer
	DrawDeclined                           // Seat withdrew or refused the offer on the table
	FlagFell                               // Seat ran out of time
	TookBack                               // moves were taken back
	TakebackAsked                          // Seat asked to take its last move back
	TakebackDeclined                       // Seat withdrew or refused the request on the table
	PremoveSet                             // Seat set (or, with no Premove, cleared) its premove
	PremoveDropped                         // Seat's premove was no longer legal when its turn came
	LineSet                                // Seat set (or, with no Line, cleared) its conditional moves
)

var changeNames = [...]string{Moved: "move", Resigned: "resignation", DrawOffered: "draw offer",
	DrawAgreed: "draw agreed", DrawDeclined: "draw declined", FlagFell: "flag fall", TookBack: "take-back",
	TakebackAsked: "take-back request", TakebackDeclined: "take-back declined", PremoveSet: "premove",
	PremoveDropped: "premove dropped", LineSet: "conditional moves"}

// Recorded reports whether a record shows changes of kind k: it shows
// moves, take-backs and ends, not offers and their refusals.
func (k ChangeKind) Recorded() bool {
	switch k {
	case DrawOffered, DrawDeclined, TakebackAsked, TakebackDeclined, PremoveSet, PremoveDropped, LineSet:
		return false
	}
	return true
}

func (k ChangeKind) String() string {
	if k > 0 && int(k) < len(changeNames) {
		return changeNames[k]
	}
	return fmt.Sprintf("change %d", int(k))
}

// Change is one change to a game as its Keeper sees it, before it is
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
	// Takeback is the seat asking to take its last move back after the
	// change, or NoPlayer; Premove is the premove set after it, or nil.
	Takeback game.Player
	Premove  *Premove
	// Dropped is the premove dropped, no longer legal, at the change's
	// ply (its seat's turn), or nil: its seat is told even when it was
	// away when it went, until the game moves on.
	Dropped *Premove
	// Line is the conditional moves set after the change, or nil: after
	// the move a line expected, the line advanced to its seat's reply,
	// which is due (played next, as a change of its own).
	Line *Line
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

// Game is one game in play.
type Game struct {
	mu    sync.Mutex
	g     game.Game
	state game.State
	// scratches lends the buffers that list the position's legal moves
	// and read its stacks, to parse a move, play it and show the game
	// (Config.Scratches).
	scratches *game.Scratches
	seats     []Seat
	limits    ai.Limits
	rec       *record.Record
	keeper    Keeper
	// noRecord and effects are Config.NoRecord and Config.Effects.
	noRecord, effects bool
	now               func() time.Time
	clock             *clock
	ended             *game.Result // an end decided by the players or the clock
	offer             game.Player  // who offers a draw, or NoPlayer
	takeback          game.Player  // who asks to take its last move back, or NoPlayer
	premove           *Premove     // a seat's move for its next turn, or nil
	dropped           *Premove     // the premove dropped at this ply, or nil
	line              *Line        // a seat's conditional moves, or nil
	noTakebacks       bool         // Config.NoTakebacks
	rated             bool         // Config.Rated
	// seq counts the changes made (but premoves set: see change), so that
	// an engine's move found for a game that changed meanwhile is dropped.
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

// New starts a game. The seats must be one per player.
func New(cfg Config) (*Game, error) {
	g := cfg.Game
	if g == nil && cfg.Start != nil {
		g = cfg.Start.Game()
	}
	if g == nil {
		return nil, fmt.Errorf("play: no game")
	}
	if len(cfg.Seats) != g.Players() {
		return nil, fmt.Errorf("play: %s has %d seats, %d given", g.ID(), g.Players(), len(cfg.Seats))
	}
	if cfg.Moves != nil && cfg.Record != nil {
		return nil, fmt.Errorf("play: give the moves or a record, not both")
	}
	s := g.Start()
	if cfg.Start != nil {
		s = cfg.Start.Clone()
	}
	if err := game.PlayRuleMoves(s, cfg.Moves); err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	pg := &Game{g: g, state: s, seats: slices.Clone(cfg.Seats), limits: cfg.Limits, keeper: cfg.Keeper,
		noRecord: cfg.NoRecord, effects: cfg.Effects, now: cfg.Now, offer: game.NoPlayer, takeback: game.NoPlayer,
		noTakebacks: cfg.NoTakebacks, rated: cfg.Rated, scratches: cfg.Scratches}
	if pg.now == nil {
		pg.now = time.Now
	}
	if pg.scratches == nil {
		pg.scratches = new(game.Scratches)
	}
	pg.rec = cfg.Record
	if pg.rec == nil {
		pg.rec = record.New(g, cfg.StartFEN, pg.names(), cfg.Date)
		pg.rec.Moves = slices.Clone(cfg.Moves)
	} else if err := pg.adoptRecord(); err != nil {
		return nil, err
	}
	if err := pg.resume(cfg.Clock, cfg.Resume); err != nil {
		return nil, err
	}
	return pg, nil
}

// resume sets the clock and what a stored game adds to its moves.
func (pg *Game) resume(tc *timecontrol.Control, r *Resume) error {
	if r == nil {
		r = &Resume{Offer: game.NoPlayer}
	}
	if tc != nil {
		pg.clock = &clock{tc: *tc, at: Waiting(*tc, pg.g.Players())}
		pg.clock.at.TurnStart = pg.now()
		if r.Clock != nil {
			if len(r.Clock.Left) != pg.g.Players() {
				return fmt.Errorf("play: a clock of %d seats for %d players", len(r.Clock.Left), pg.g.Players())
			}
			pg.clock.at = r.Clock.clone()
		}
	}
	if r.Offer != game.NoPlayer && (pg.g.Players() != 2 || r.Offer < 0 || int(r.Offer) >= pg.g.Players()) {
		return fmt.Errorf("play: a draw offer by seat %d in a game of %d", r.Offer, pg.g.Players())
	}
	pg.offer = r.Offer
	if err := pg.resumeWaiting(r); err != nil {
		return err
	}
	if r.Ended != nil && r.Ended.Over() && !pg.state.Result().Over() {
		ended := *r.Ended
		pg.ended = &ended
	}
	return nil
}

// names are the seats' names for the record's tags.
func (pg *Game) names() []string {
	names := make([]string, len(pg.seats))
	for i, seat := range pg.seats {
		names[i] = seat.Name
		if names[i] == "" {
			names[i] = "?"
		}
	}
	return names
}

// adoptRecord checks a loaded record against the state and takes its end
// when the record says the game ended off the board (a resignation).
func (pg *Game) adoptRecord() error {
	if len(pg.rec.Moves) != pg.state.Ply() {
		return fmt.Errorf("play: the record has %d moves, the position %d", len(pg.rec.Moves), pg.state.Ply())
	}
	for p, seat := range pg.seats {
		if seat.Name != "" {
			pg.rec.Set(pg.g.PlayerName(game.Player(p)), seat.Name)
		}
	}
	tag := pg.rec.Get("Result")
	if tag == "" || tag == "*" || pg.state.Result().Over() {
		return nil
	}
	res, err := record.ParseResult(tag, pg.rec.Get("Termination"), pg.g.Players())
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	pg.ended = &res
	return nil
}

// Game is the game being played.
func (pg *Game) Game() game.Game { return pg.g }

// Seats returns the seats, in turn order.
func (pg *Game) Seats() []Seat {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return slices.Clone(pg.seats)
}

// State returns a copy of the position, history included.
func (pg *Game) State() game.State {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.state.Clone()
}

// Result is the game's result: the board's, or an end the players or the
// clock decided.
func (pg *Game) Result() game.Result {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.result()
}

func (pg *Game) result() game.Result {
	if pg.ended != nil {
		return *pg.ended
	}
	return pg.state.Result()
}

// ToMove is the seat whose turn it is.
func (pg *Game) ToMove() game.Player {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.state.ToMove()
}

// Moves returns the moves played, in the notation.
func (pg *Game) Moves() []string {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return slices.Clone(pg.rec.Moves)
}

// Snapshot is the game at one moment, read under one lock: what a view
// of the game shows.
type Snapshot struct {
	State  game.State // a copy, history included
	Moves  []string
	Result game.Result
	Offer  game.Player // the seat offering a draw, or NoPlayer
	// Takeback is the seat asking to take its last move back, or NoPlayer.
	Takeback game.Player
	// Control is the time control, nil without a clock; Clock is its
	// reading, Left every seat's time now and Running whether the seat
	// to move is being charged.
	Control *timecontrol.Control
	Clock   ClockState
	Left    []time.Duration
	Running bool
	// scratch is lent to Read's f while it runs.
	scratch *game.Scratch
}

// MoveTexts is game.MoveTexts of the snapshot's position.
func (snap Snapshot) MoveTexts() []string {
	if snap.scratch != nil {
		return snap.scratch.MoveTexts(snap.State)
	}
	return game.MoveTexts(snap.State)
}

// Snapshot reads the game.
func (pg *Game) Snapshot() Snapshot {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.snapshot(pg.state.Clone())
}

// Read calls f with the game as it is, under its lock: the snapshot's
// State is the game's own position, which f must not change nor keep,
// so that reading the game costs no copy of it.
func (pg *Game) Read(f func(Snapshot)) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	snap := pg.snapshot(pg.state)
	snap.scratch = pg.scratches.Get()
	defer pg.scratches.Put(snap.scratch)
	f(snap)
}

// snapshot is the game with st as its position. pg.mu is held.
func (pg *Game) snapshot(st game.State) Snapshot {
	res := pg.result()
	snap := Snapshot{State: st, Moves: slices.Clone(pg.rec.Moves), Result: res, Offer: pg.offer, Takeback: pg.takeback}
	if c := pg.clock; c != nil {
		tc := c.tc
		snap.Control, snap.Clock = &tc, c.at.clone()
		snap.Left = c.left(pg.state.ToMove(), pg.now(), res.Over())
		snap.Running = c.at.Running() && !res.Over()
	}
	return snap
}

// Record returns a copy of the game's record, its result set.
func (pg *Game) Record() *record.Record {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.recordWith(len(pg.rec.Moves), "", pg.result())
}

// recordWith is a copy of the record with its first ply moves, then
// move if not "", finished with res.
func (pg *Game) recordWith(ply int, move string, res game.Result) *record.Record {
	r := *pg.rec
	r.Tags = slices.Clone(pg.rec.Tags)
	r.Moves = slices.Clone(pg.rec.Moves)
	r.Notes = slices.Clone(pg.rec.Notes)
	r.Truncate(ply)
	if move != "" {
		r.Moves = append(r.Moves, move)
	}
	r.Finish(res, pg.g)
	if !res.Over() {
		r.Del("Termination")
	}
	return &r
}

// keep hands c, with the record after it, to the keeper.
func (pg *Game) keep(c Change) error {
	if pg.keeper == nil {
		return nil
	}
	if !pg.noRecord {
		c.Record = pg.recordWith(c.Ply, c.Move, c.Result)
	}
	return pg.keeper.Keep(c)
}

// change keeps c, then makes it with apply and counts it: a change the
// keeper refuses is never made. A premove or a line of conditional moves
// set or cleared is not counted:
// it changes nothing the engine to move searches (it is played after the
// engine's move), so the engine's search goes on; were it counted, every
// premove set while the AI thinks would cost the AI its search, and the
// player the AI's reply for as long again.
func (pg *Game) change(c Change, apply func()) error {
	if err := pg.keep(c); err != nil {
		return err
	}
	apply()
	if c.Kind != PremoveSet && c.Kind != LineSet {
		pg.seq++
	}
	return nil
}

// newChange is a change by seat p at now, the game otherwise as it is.
func (pg *Game) newChange(kind ChangeKind, p game.Player, now time.Time) Change {
	c := Change{Kind: kind, Seat: p, Ply: len(pg.rec.Moves), At: now, Offer: pg.offer, Takeback: pg.takeback,
		Premove: pg.premove, Dropped: pg.dropped, Line: pg.line, Result: pg.result()}
	if pg.clock != nil {
		at := pg.clock.at.clone()
		c.Clock = &at
	}
	return c
}

// EngineToMove is the engine whose turn it is, or nil when a person is to
// move or the game is over. A seat's engine is made on its first turn.
func (pg *Game) EngineToMove() ai.Engine {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	e, _ := pg.engineToMove()
	return e
}

func (pg *Game) engineToMove() (ai.Engine, error) {
	if pg.result().Over() {
		return nil, nil
	}
	seat := &pg.seats[pg.state.ToMove()]
	if seat.Engine == nil && seat.NewEngine != nil {
		e, err := seat.NewEngine()
		if err != nil {
			return nil, fmt.Errorf("the engine of %s: %w", pg.g.PlayerName(pg.state.ToMove()), err)
		}
		seat.Engine = e
	}
	return seat.Engine, nil
}

// checkOpen refuses a request when the game is over, ending it first
// when the mover's flag fell (the keeper's refusal of that is returned).
func (pg *Game) checkOpen() error {
	if _, err := pg.tick(); err != nil {
		return err
	}
	if r := pg.result(); r.Over() {
		return fmt.Errorf("%w (%s)", ErrOver, r.Describe(pg.g))
	}
	return nil
}

// Move plays a move given in the notation for seat p, a person. It is
// refused when the game is over, it is not p's turn or the move is illegal
// (the error is a *game.IllegalMoveError saying why), and when the keeper
// refuses it.
func (pg *Game) Move(p game.Player, text string) (game.Move, error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.move(p, -1, text)
}

// MoveAt is Move for the move of ply (the number of moves played before
// it): a move sent for another ply is refused with ErrWrongPly, after the
// checks that the game goes on.
func (pg *Game) MoveAt(p game.Player, ply int, text string) (game.Move, error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if ply < 0 {
		return game.Move{}, fmt.Errorf("ply %d: %w; plies count from 0", ply, ErrWrongPly)
	}
	return pg.move(p, ply, text)
}

// move plays p's move for ply, or for the current ply when ply is -1.
func (pg *Game) move(p game.Player, ply int, text string) (game.Move, error) {
	if err := pg.checkOpen(); err != nil {
		return game.Move{}, err
	}
	if now := len(pg.rec.Moves); ply >= 0 && ply != now {
		return game.Move{}, fmt.Errorf("ply %d: %w; the game is at ply %d", ply, ErrWrongPly, now)
	}
	if to := pg.state.ToMove(); p != to {
		return game.Move{}, fmt.Errorf("%w: %s is to move", ErrNotYourTurn, pg.g.PlayerName(to))
	}
	if !pg.seats[p].Person() {
		return game.Move{}, fmt.Errorf("%w: %s is played by %s", ErrNoPerson, pg.g.PlayerName(p), pg.seatName(p))
	}
	sc := pg.scratches.Get()
	m, err := sc.ParseMove(pg.state, text)
	pg.scratches.Put(sc)
	if err != nil {
		return game.Move{}, err
	}
	return m, pg.play(m)
}

// seatName is the seat's engine's name, or its name.
func (pg *Game) seatName(p game.Player) string {
	if e := pg.seats[p].Engine; e != nil {
		return e.Name()
	}
	return cmp.Or(pg.seats[p].Name, "an engine")
}

// play keeps and makes a move: the mover's clock is charged, and a move
// declines the other seat's draw offer.
func (pg *Game) play(m game.Move) error {
	now := pg.now()
	mover := pg.state.ToMove()
	c := pg.newChange(Moved, mover, now)
	c.Move = m.Text(pg.g.Board())
	if pg.offer != game.NoPlayer && pg.offer != mover {
		c.Offer = game.NoPlayer
	}
	c.Takeback, c.Dropped = game.NoPlayer, nil
	if pg.premove != nil && pg.premove.Seat == mover {
		c.Premove = nil
	}
	if pg.clock != nil {
		next := pg.clock.afterMove(mover, now)
		c.Clock = &next
	}
	// The result after the move is the board's: play it (reading its
	// effects on the way when they are asked for), and take it back if
	// the keeper refuses it.
	c.Effects = pg.playMove(m)
	c.Result = pg.state.Result()
	c.Line = pg.lineAfter(c.Move, c.Result.Over())
	if err := pg.keep(c); err != nil {
		pg.state.Undo()
		return err
	}
	pg.rec.Moves = append(pg.rec.Moves, c.Move)
	pg.offer, pg.takeback, pg.premove, pg.dropped, pg.line = c.Offer, c.Takeback, c.Premove, nil, c.Line
	if pg.clock != nil {
		pg.clock.moved(*c.Clock)
	}
	pg.seq++
	pg.playPremove()
	_ = pg.playLine() // a reply refused stays due: PlayDue plays it
	return nil
}

// playMove plays m, a legal move, on the game's position, and answers
// what it did when the game tells its effects (nil if not, or if the
// position cannot tell: it shows no stacks).
func (pg *Game) playMove(m game.Move) *game.Effects {
	if pg.effects {
		sc := pg.scratches.Get()
		defer pg.scratches.Put(sc)
		if fx, err := sc.PlayEffects(pg.state, m); err == nil {
			return &fx
		}
	}
	pg.state.Play(m)
	return nil
}

// EngineTurn is the turn of the engine to move, prepared by
// Game.EngineTurn: Search runs without the game's lock, and
// Game.PlayTurn plays its move if the game did not change meanwhile.
// One engine searches one turn at a time: prepare the next turn once the
// last was played or dropped.
type EngineTurn struct {
	Engine ai.Engine
	// State is a copy of the position to search.
	State  game.State
	Limits ai.Limits
	pg     *Game
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
func (pg *Game) EngineTurn() (*EngineTurn, error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkOpen(); err != nil {
		return nil, err
	}
	e, err := pg.engineToMove()
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, fmt.Errorf("%w: %s is a person's to play", ErrNoEngine, pg.g.PlayerName(pg.state.ToMove()))
	}
	return &EngineTurn{Engine: e, State: pg.state.Clone(), Limits: pg.engineLimits(), pg: pg, seq: pg.seq}, nil
}

// PlayTurn plays the move an engine found on its turn. When the game
// changed since the turn was prepared (a move, a take-back, an offer, a
// resignation) the move is dropped with ErrChanged; when the engine's
// flag fell meanwhile, the game ends on time and the error is ErrOver.
func (pg *Game) PlayTurn(t *EngineTurn, m game.Move) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if t.pg != pg || t.seq != pg.seq || pg.result().Over() {
		return fmt.Errorf("%w while %s was thinking", ErrChanged, t.Engine.Name())
	}
	if err := pg.checkOpen(); err != nil {
		return err
	}
	return pg.play(m)
}

// PlayEngine lets the engine whose turn it is search and play: EngineTurn,
// its Search without the lock (so other requests are answered meanwhile),
// then PlayTurn. If ctx was cancelled, the move is dropped and the error
// says so.
func (pg *Game) PlayEngine(ctx context.Context, report func(ai.Info)) (ai.Info, error) {
	t, err := pg.EngineTurn()
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
	return info, pg.PlayTurn(t, info.Move)
}

// engineLimits are the limits of the engine to move: its seat's or the
// game's, and a running clock, which the engine plans its time by.
func (pg *Game) engineLimits() ai.Limits {
	lim := pg.limits
	to := pg.state.ToMove()
	if l := pg.seats[to].Limits; l != nil {
		lim = *l
	}
	if pg.clock != nil && pg.clock.at.Running() {
		lim.Clock = pg.clock.engineClock(to, pg.now())
	}
	return lim
}

// Undo takes back the last n moves, for people at one keyboard (the
// terminal). With n == 0 it takes back moves until a person is to move
// again and at least one move went (so that an engine's reply does not
// come straight back). It returns the moves taken back, last first. It
// keeps the rules of every take-back (none when the game turned them
// off, against the AI in a rated game, or between people in a game of
// three: refuseTakeback); an end decided by resignation, agreement or
// the clock cannot be taken back, one decided on the board can.
func (pg *Game) Undo(n int) ([]string, error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if n < 0 {
		return nil, fmt.Errorf("undo %d: want a number of moves, 1 or more", n)
	}
	if err := pg.refuseTakeback(pg.people()); err != nil {
		return nil, err
	}
	return pg.takeBack(func(state game.State, undone int) bool {
		if n == 0 {
			return undone > 0 && !(pg.engineAt(state) && pg.hasPerson())
		}
		return undone >= n
	})
}

// takeBack takes moves back, on copies, until done says the position
// reached is far enough (done is asked after each move taken back, and
// first with none). It returns the moves taken back, last first. pg.mu
// is held.
func (pg *Game) takeBack(done func(state game.State, undone int) bool) ([]string, error) {
	if pg.ended != nil {
		return nil, fmt.Errorf("%w (%s); it cannot be taken back", ErrOver, pg.ended.Describe(pg.g))
	}
	// Take back on copies, so that a refused take-back changes nothing.
	state, moves := pg.state.Clone(), len(pg.rec.Moves)
	var clk *clock
	if pg.clock != nil {
		clk = &clock{tc: pg.clock.tc, at: pg.clock.at, history: pg.clock.history}
	}
	now := pg.now()
	var undone []string
	for !done(state, len(undone)) {
		if moves == 0 || !state.Undo() {
			break
		}
		moves--
		undone = append(undone, pg.rec.Moves[moves])
		if clk != nil {
			clk.at = clk.undone(now)
			clk.history = clk.history[:max(len(clk.history)-1, 0)]
		}
	}
	if len(undone) == 0 {
		return nil, ErrNothing
	}
	c := pg.newChange(TookBack, game.NoPlayer, now)
	c.Ply, c.Offer, c.Takeback, c.Premove, c.Dropped, c.Line, c.Result = moves, game.NoPlayer, game.NoPlayer, nil, nil, nil, state.Result()
	if clk != nil {
		at := clk.at.clone()
		c.Clock = &at
	}
	err := pg.change(c, func() {
		pg.state = state
		pg.rec.Truncate(moves)
		if clk != nil {
			pg.clock = clk
		}
		pg.offer, pg.takeback, pg.premove, pg.dropped, pg.line = game.NoPlayer, game.NoPlayer, nil, nil, nil
	})
	if err != nil {
		return nil, err
	}
	return undone, nil
}

// engineAt reports whether an engine is to move in s.
func (pg *Game) engineAt(s game.State) bool {
	return !s.Result().Over() && !pg.seats[s.ToMove()].Person()
}

func (pg *Game) hasPerson() bool {
	for _, seat := range pg.seats {
		if seat.Person() {
			return true
		}
	}
	return false
}

// Resign ends the game as a loss for seat p, whoever is to move; in a
// game of three the others share the win.
func (pg *Game) Resign(p game.Player) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkOpen(); err != nil {
		return err
	}
	return pg.endAgainst(p, game.Resignation, Resigned, pg.now(), nil)
}

// endAgainst keeps and makes an end with every seat but p winning;
// clk, if not nil, is the clock's reading after it.
func (pg *Game) endAgainst(p game.Player, why game.Reason, kind ChangeKind, now time.Time, clk *ClockState) error {
	res := game.Result{Reason: why}
	for q := 0; q < pg.g.Players(); q++ {
		if game.Player(q) != p {
			res.Winners = res.Winners.Add(game.Player(q))
		}
	}
	c := pg.newChange(kind, p, now)
	c.Offer, c.Result = game.NoPlayer, res
	if clk != nil {
		c.Clock = clk
	}
	return pg.change(c, func() {
		pg.ended, pg.offer = &res, game.NoPlayer
		if clk != nil {
			pg.clock.at = *clk
		}
	})
}

// OfferDraw records seat p's offer of a draw (two players only). When the
// other seat already offered one, the offer is an acceptance and the game
// is drawn; Offer reports whether it was. Offering again changes nothing.
func (pg *Game) OfferDraw(p game.Player) (drawn bool, err error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkDraw(); err != nil {
		return false, err
	}
	switch pg.offer {
	case p:
		return false, nil
	case game.NoPlayer:
		// An offer drops the other seat's conditional moves: its reply
		// would decline the offer, which its line did not foresee.
		c := pg.newChange(DrawOffered, p, pg.now())
		c.Offer = p
		if c.Line != nil && c.Line.Seat != p {
			c.Line = nil
		}
		return false, pg.change(c, func() { pg.offer, pg.line = p, c.Line })
	}
	return true, pg.agree(p)
}

// AcceptDraw accepts the draw the other seat offers; ErrNoOffer when it
// offers none.
func (pg *Game) AcceptDraw(p game.Player) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkDraw(); err != nil {
		return err
	}
	if pg.offer == game.NoPlayer || pg.offer == p {
		return fmt.Errorf("%w from the other seat to accept", ErrNoOffer)
	}
	return pg.agree(p)
}

// agree draws the game by agreement, seat p accepting.
func (pg *Game) agree(p game.Player) error {
	res := game.DrawBy(game.Agreement)
	c := pg.newChange(DrawAgreed, p, pg.now())
	c.Offer, c.Result = game.NoPlayer, res
	return pg.change(c, func() { pg.ended, pg.offer = &res, game.NoPlayer })
}

// checkDraw refuses a draw request when the game is over or has not two
// players.
func (pg *Game) checkDraw() error {
	if err := pg.checkOpen(); err != nil {
		return err
	}
	if pg.g.Players() != 2 {
		return ErrNoDraws
	}
	return nil
}

// DrawOffer is the seat that offers a draw, or NoPlayer.
func (pg *Game) DrawOffer() game.Player {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.offer
}

// DeclineDraw is seat p withdrawing its offer or refusing the other
// seat's; ErrNoOffer when no offer is on the table.
func (pg *Game) DeclineDraw(p game.Player) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if err := pg.checkDraw(); err != nil {
		return err
	}
	if pg.offer == game.NoPlayer {
		return fmt.Errorf("%w on the table to decline", ErrNoOffer)
	}
	c := pg.newChange(DrawDeclined, p, pg.now())
	c.Offer = game.NoPlayer
	return pg.change(c, func() { pg.offer = game.NoPlayer })
}

// Clocks returns each seat's time left now, or nil without a clock. It
// changes nothing: a flag that fell is seen by Tick.
func (pg *Game) Clocks() []time.Duration {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.clock == nil {
		return nil
	}
	return pg.clock.left(pg.state.ToMove(), pg.now(), pg.result().Over())
}

// TimeToFlag is how long the seat to move has before its flag falls;
// false when no clock runs (none, one waiting for the first move, or the
// game over).
func (pg *Game) TimeToFlag() (time.Duration, bool) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.clock == nil || !pg.clock.at.Running() || !pg.clock.held.IsZero() || pg.result().Over() {
		return 0, false
	}
	to := pg.state.ToMove()
	return pg.clock.at.Left[to] - pg.clock.charged(pg.now()), true
}

// HoldEngineClock stops charging the clock of the engine to move, from now
// until ResumeEngineClock (or the next change): a server holds it while
// the engine's turn waits for a worker, so that an engine never loses on
// time because the machine is busy. Its flag cannot fall while held, and
// TimeToFlag reports no flag to watch. It does nothing when a person is
// to move or no clock runs.
func (pg *Game) HoldEngineClock() {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.clock == nil || pg.result().Over() || !pg.engineAt(pg.state) {
		return
	}
	pg.clock.hold(pg.now())
}

// ResumeEngineClock charges the engine's clock again: the time it was
// held is given back (its turn counts as started that much later).
func (pg *Game) ResumeEngineClock() {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.clock != nil {
		pg.clock.resume(pg.now())
	}
}

// Tick checks the clock of the seat to move: when its time is up the
// game ends, lost on time (kept first). It reports whether the
// game is over.
func (pg *Game) Tick() (over bool, err error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	_, err = pg.tick()
	return pg.result().Over(), err
}

// tick ends the game on time when the mover's flag fell; it reports
// whether it did just now.
func (pg *Game) tick() (bool, error) {
	if pg.clock == nil || pg.result().Over() {
		return false, nil
	}
	to, now := pg.state.ToMove(), pg.now()
	if !pg.clock.flagged(to, now) {
		return false, nil
	}
	after := pg.clock.afterFlag(to, now)
	if err := pg.endAgainst(to, game.TimeForfeit, FlagFell, now, &after); err != nil {
		return false, err
	}
	return true, nil
}

// LastMove is the move played last, if any.
func (pg *Game) LastMove() (game.Move, bool) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	n := len(pg.rec.Moves)
	if n == 0 {
		return game.Move{}, false
	}
	s := pg.state.Clone()
	if !s.Undo() {
		return game.Move{}, false
	}
	m, err := game.ParseRuleMove(s, pg.rec.Moves[n-1])
	return m, err == nil
}
