package game

import (
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/board"
)

// Base is what every game says about itself the same way: its id, its
// options, its seats and its board. A game embeds it in its Game type and
// so has ID, Options, Players, PlayerName, Seat and Board; it writes Start
// and ParseFEN itself. Base is immutable once made.
type Base struct {
	id    string
	opts  Options
	seats []Seat
	board *board.Board
	first Player
	swap  bool
}

// NewBase makes the Base of a game: its id, the options it was built
// with, its seats in turn order (one for each player; Base keeps its own
// copy) and its board.
// The options first and swap, which every game takes, are read here (First
// and SwapRule); a seat key first does not name is the first seat.
func NewBase(id string, opts Options, seats []Seat, b *board.Board) Base {
	first := slices.IndexFunc(seats, func(s Seat) bool { return s.Key == opts.Get(FirstKey) })
	return Base{
		id: id, opts: opts, seats: slices.Clone(seats), board: b,
		first: Player(max(first, 0)),
		swap:  len(seats) == 2 && opts.Get(SwapKey) == "on",
	}
}

// First returns the player who moves first from the start position: the
// seat the option first names.
func (b *Base) First() Player { return b.first }

// SwapRule reports whether the game is played with the pie rule (option
// swap=on): the second player's first move may be Swap.
func (b *Base) SwapRule() bool { return b.swap }

// ID returns the game's id.
func (b *Base) ID() string { return b.id }

// Options returns the options the game was built with.
func (b *Base) Options() Options { return b.opts }

// Players returns the number of players, one for each seat.
func (b *Base) Players() int { return len(b.seats) }

// PlayerName names player p as the rules do, Seat(p).Name ("White"), or
// "player p" for a number that is no seat of the game.
func (b *Base) PlayerName(p Player) string {
	if p < 0 || int(p) >= len(b.seats) {
		return fmt.Sprintf("player %d", p)
	}
	return b.seats[p].Name
}

// Seat returns player p's seat; p is one of 0..Players()-1.
func (b *Base) Seat(p Player) Seat { return b.seats[p] }

// Board returns the board the game is played on.
func (b *Base) Board() *board.Board { return b.board }
