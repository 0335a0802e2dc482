package record

import (
	"fmt"
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
	id := r.Get("Game")
	if id == "" {
		return fail(0, "", `no [Game "..."] tag says which game this is`)
	}
	opts := map[string]string{}
	for _, o := range strings.Fields(r.Get("Options")) {
		k, v, err := game.ParseOption(o)
		if err != nil {
			return fail(0, "", "Options tag: %v", err)
		}
		opts[k] = v
	}
	g, err := game.New(id, opts)
	if err != nil {
		return fail(0, "", "%v", err)
	}
	s := g.Start()
	if fen := r.Get("FEN"); fen != "" {
		if s, err = g.ParseFEN(fen); err != nil {
			return fail(0, "", "FEN tag: %v", err)
		}
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
