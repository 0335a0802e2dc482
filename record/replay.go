package record

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// ReplayError says which game of a file is wrong, and where.
type ReplayError struct {
	Game   int // 1-based game in the file
	Line   int // where the game starts
	Ply    int // 1-based move of the game, 0 when the fault is in the tags
	Move   string
	Reason string
}

func (e *ReplayError) Error() string {
	where := fmt.Sprintf("game %d (line %d)", e.Game, e.Line)
	if e.Ply > 0 {
		return fmt.Sprintf("%s, move %d %q: %s", where, e.Ply, e.Move, e.Reason)
	}
	return where + ": " + e.Reason
}

// Replay builds the record's game, sets up its start and plays every move,
// checking each against the rules and the result against the Result tag.
// index is the game's 1-based place in its file, for errors.
func (r *Record) Replay(index int) (game.State, error) {
	fail := func(ply int, move, format string, args ...any) (game.State, error) {
		return nil, &ReplayError{Game: index, Line: r.Line, Ply: ply, Move: move, Reason: fmt.Sprintf(format, args...)}
	}
	if r.Get("Game") == "" {
		return fail(0, "", `no [Game "..."] tag says which game this is`)
	}
	g, s, err := r.start()
	if err != nil {
		return fail(0, "", "%v", err)
	}
	for i, text := range r.Moves {
		m, err := game.ParseMove(s, text)
		if err != nil {
			return fail(i+1, text, "%s", err.(*game.IllegalMoveError).Reason)
		}
		s.Play(m)
	}
	res := s.Result()
	if tag := r.Get("Result"); res.Over() && tag != ResultText(res, g.Players()) {
		return fail(0, "", "the Result tag says %s but the moves end the game %s (%s)",
			tag, ResultText(res, g.Players()), res.Describe(g))
	}
	return s, nil
}

// start builds the game the Game and Options tags name and the position
// its moves start from: the FEN tag's, else the game's start.
func (r *Record) start() (game.Game, game.State, error) {
	opts := map[string]string{}
	for _, o := range strings.Fields(r.Get("Options")) {
		k, v, err := game.ParseOption(o)
		if err != nil {
			return nil, nil, fmt.Errorf("Options tag: %w", err)
		}
		opts[k] = v
	}
	g, err := game.New(r.Get("Game"), opts)
	if err != nil {
		return nil, nil, err
	}
	fen := r.Get("FEN")
	if fen == "" {
		return g, g.Start(), nil
	}
	s, err := g.ParseFEN(fen)
	if err != nil {
		return nil, nil, fmt.Errorf("FEN tag: %w", err)
	}
	return g, s, nil
}

// FirstMover is the seat that makes the record's first move: the side to
// move of its FEN tag, else of the game's start, which the option first
// chooses. A record whose tags name no game this program knows, or a
// position it cannot read, counts from the first seat (Replay says what
// is wrong with it).
func (r *Record) FirstMover() game.Player {
	if r.Get("FEN") == "" {
		return r.firstSeat()
	}
	_, s, err := r.start()
	if err != nil {
		return 0
	}
	return s.ToMove()
}

// firstSeat is the seat the Options tag's first= names, read without
// building the game (Write asks it of every record of a lab's thousands),
// or the first seat.
func (r *Record) firstSeat() game.Player {
	for _, o := range strings.Fields(r.Get("Options")) {
		k, v, err := game.ParseOption(o)
		if err != nil || k != game.FirstKey {
			continue
		}
		d, _ := game.Lookup(r.Get("Game"))
		if i := slices.IndexFunc(d.Seats, func(s game.Seat) bool { return s.Key == v }); i >= 0 {
			return game.Player(i)
		}
	}
	return 0
}

// Turn is the number of the turn the move of ply belongs to, in a game of
// players seats whose first move is first's, and whether that move opens
// the turn (the first seat makes it). A turn is one move of every seat in
// turn order, so a game that starts with another seat to move starts with
// the end of a turn: "1... a5-a4 2. a3xa5".
func Turn(first game.Player, players, ply int) (turn int, opens bool) {
	at := int(first) + ply
	return at/players + 1, at%players == 0
}
