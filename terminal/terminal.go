// Package terminal is the terminal transport over package play, beside
// the HTTP one (package server): one game at a terminal, the board drawn
// as text and the moves and commands read one line at a time. People take
// turns at the keyboard, any seat may be an engine, and a RecordFile keeps
// the game in a record file as it is played.
//
// The rules of play (moves, take-backs, draws, clocks) are package play's;
// this package only shows them and reads the requests.
package terminal

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
)

// Options say how the game is shown.
type Options struct {
	// View, when not nil, is the seat whose side the board is drawn from;
	// nil follows the person to move. flip turns it either way.
	View *game.Player
	// Color draws the board in colour.
	Color bool
	// Live, for a real terminal, redraws a line with the AI's thinking
	// time; output to a file or a pipe gets plain lines.
	Live bool
}

// Run plays pg at the terminal: it shows the board and the legal moves,
// lets the engines play their turns, and reads a move or a command per
// line from in, until quit, the end of in or ctx's end (Ctrl-C). Quitting
// is no error; a failing input is.
func Run(ctx context.Context, pg *play.Game, in io.Reader, out io.Writer, opt Options) error {
	t := &console{pg: pg, out: out, view: game.NoPlayer, color: opt.Color, live: opt.Live}
	if opt.View != nil {
		t.view = *opt.View
	}
	return t.run(ctx, in)
}

// console is one game at the terminal: a play.Game drawn as text and driven
// by lines of input.
type console struct {
	pg  *play.Game
	out io.Writer
	// view is the seat whose side the board is drawn from; NoPlayer
	// follows the person to move.
	view  game.Player
	color bool
	live  bool
	// pending are lines typed while the AI thought, read before new ones.
	pending []inputLine
}

// errQuit ends the game loop: the person quit, or the input ended.
var errQuit = errors.New("quit")

// run plays until quit, the end of the input or ctx's end (Ctrl-C).
func (t *console) run(ctx context.Context, in io.Reader) error {
	lines := readLines(in)
	fmt.Fprint(t.out, help)
	t.introduce()
	show := true
	for {
		if show {
			t.showPosition()
		}
		show = true
		if t.pg.EngineToMove() != nil {
			if err := t.engineTurn(ctx, lines); err != nil {
				return quitIsNil(err)
			}
			continue
		}
		redraw, err := t.personTurn(ctx, lines)
		if err != nil {
			return quitIsNil(err)
		}
		show = redraw
	}
}

// quitIsNil is err, unless it is the person quitting.
func quitIsNil(err error) error {
	if errors.Is(err, errQuit) {
		return nil
	}
	return err
}
