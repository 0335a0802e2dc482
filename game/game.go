// Package game is arbiter's core: the abstractions every game implements
// (Descriptor, Game, State, Move, Result), the registry of games, and what
// works the same for all of them: options, move parsing and diagnostics,
// perft, repetition history and Zobrist keys.
//
// The core knows no game. A game package describes itself with a
// Descriptor and calls Register from its init function.
package game

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Player is a seat at the table, 0..Players()-1, in turn order.
type Player int8

// NoPlayer is the owner of an empty cell.
const NoPlayer Player = -1

// MaxPlayers is the most players any game seats.
const MaxPlayers = 4

// Descriptor is the static description of a game: its id, a one-line
// summary, the options it takes, and how to build it from them.
type Descriptor struct {
	ID string
	// Name is the name players know the game by ("Checkers 2011"), for
	// pages and headings; the ID is for addresses and commands.
	Name    string
	Summary string
	Players int
	// Seats are the players' seats in turn order, one for each player.
	Seats []Seat
	// Options the game takes besides maxplies, which every game has.
	Options []OptionSpec
	// New builds the game from a complete, checked set of options.
	New func(Options) (Game, error)
	// FEN is the notation the game's FEN and ParseFEN use, one of the
	// core's (*PieceListFEN or *StackFEN), for building a position from
	// its stacks (FromStacks). Every game of the registry names one; the
	// conformance suite checks that it writes the game's FEN.
	FEN FENCodec
}

// AllOptions lists the game's options in key order, with those every game
// takes: maxplies, first (the seat that moves first) and, in a two-player
// game, swap (the pie rule).
func (d Descriptor) AllOptions() []OptionSpec {
	specs := append(slices.Clone(d.Options), maxPliesOption)
	if len(d.Seats) > 0 {
		specs = append(specs, firstOption(d.Seats))
	}
	if d.Players == 2 {
		specs = append(specs, swapOption)
	}
	slices.SortFunc(specs, func(a, b OptionSpec) int {
		if a.Key < b.Key {
			return -1
		}
		if a.Key > b.Key {
			return 1
		}
		return 0
	})
	return specs
}

// Game is a game with its options fixed. It is immutable and safe for
// concurrent use; every State it makes is independent.
type Game interface {
	ID() string
	Options() Options
	Players() int
	// PlayerName names a player as the rules do ("White"): Seat(p).Name.
	PlayerName(Player) string
	// Seat is player p's seat, as the descriptor lists it; p is one of
	// 0..Players()-1.
	Seat(p Player) Seat
	// Board is the geometry the game is played on.
	Board() *board.Board
	// Start returns the starting position.
	Start() State
	// ParseFEN reads a position in the game's one-line notation.
	ParseFEN(string) (State, error)
}

// State is a position in a game with its history.
//
// Reading a position never changes it: the read methods (Game, ToMove,
// Ply, Moves, Result, Hash, Owner, Clone, FEN, and the optional
// Stack and Evaluate) write nothing to the state, so any number of
// goroutines may call them at once while nobody plays a move. Play and
// Undo need exclusive access: no other call, read or write, may run at the
// same time. Clone a state to let another goroutine play on its own copy.
type State interface {
	Game() Game
	// ToMove is the player whose turn it is.
	ToMove() Player
	// Ply counts the moves played since the start or the FEN position.
	Ply() int
	// Moves appends the legal moves by the rules of play to buf and returns
	// it; it allocates only when buf has no room. It ignores the draw
	// safeguards: see Result.
	Moves(buf []Move) []Move
	// Play makes a move, which must be one Moves returned.
	Play(Move)
	// Undo takes back the last move played; it reports false when there is
	// none.
	Undo() bool
	// Result tells whether the game is over, the draw safeguards included.
	Result() Result
	// Hash is the Zobrist hash of the position and the player to move.
	Hash() uint64
	// Owner is the player who owns (or commands) the piece on a cell, or
	// NoPlayer when the cell is empty.
	Owner(board.Cell) Player
	// Clone returns an independent copy, history included.
	Clone() State
	// FEN writes the position in the game's one-line notation. Drawing a
	// position is no part of the rules: package textboard draws any
	// state, through Owner and Stacker.
	FEN() string
}

var registry = struct {
	sync.RWMutex
	games map[string]Descriptor
}{games: map[string]Descriptor{}}

// Register makes a game known by its id. It panics on a duplicate id or an
// incomplete descriptor (a seat for each player included), as that is a
// programming error found at start-up. The conformance suite checks the
// seats themselves.
func Register(d Descriptor) {
	registry.Lock()
	defer registry.Unlock()
	if d.ID == "" || d.Name == "" || d.New == nil || d.Players < 1 || d.Players > MaxPlayers || len(d.Seats) != d.Players {
		panic(fmt.Sprintf("game.Register: incomplete descriptor %q", d.ID))
	}
	if _, dup := registry.games[d.ID]; dup {
		panic("game.Register: duplicate id " + d.ID)
	}
	d.Seats = slices.Clone(d.Seats) // the registry's own, whatever the caller does with its slice
	registry.games[d.ID] = d
}

// Lookup returns the descriptor of a registered game.
func Lookup(id string) (Descriptor, bool) {
	registry.RLock()
	defer registry.RUnlock()
	d, ok := registry.games[id]
	d.Seats = slices.Clone(d.Seats)
	return d, ok
}

// All returns every registered game, sorted by id.
func All() []Descriptor {
	registry.RLock()
	defer registry.RUnlock()
	ds := make([]Descriptor, 0, len(registry.games))
	for _, d := range registry.games {
		d.Seats = slices.Clone(d.Seats)
		ds = append(ds, d)
	}
	slices.SortFunc(ds, func(a, b Descriptor) int {
		if a.ID < b.ID {
			return -1
		}
		return 1
	})
	return ds
}

// New builds a registered game with the given options; options not given
// take their defaults. Unknown games and options, and bad values, are
// errors that say what is allowed.
func New(id string, options map[string]string) (Game, error) {
	d, ok := Lookup(id)
	if !ok {
		var ids []string
		for _, d := range All() {
			ids = append(ids, d.ID)
		}
		return nil, fmt.Errorf("unknown game %s (games: %s)", clip.Quote(id), strings.Join(ids, ", "))
	}
	if _, ok := options[SwapKey]; ok && d.Players != 2 {
		return nil, fmt.Errorf("%s: option swap: the pie rule is for two players, and this game seats %d", id, d.Players)
	}
	opts, err := resolve(d.AllOptions(), options)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err) // a known id, short
	}
	return d.New(opts)
}
