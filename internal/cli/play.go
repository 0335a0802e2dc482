package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

const playHelp = `Enter a move as the legal moves are written (a1-b2, c3xc5xe6), or:
  moves   list the legal moves
  undo    take back the last move
  board   draw the board again
  fen     print the position as FEN
  help    this text
  quit    leave
`

// Play runs a game between people taking turns at one terminal: it shows
// the board and the legal moves, reads a move or a command per line from
// in, and stops at quit or the end of the input.
func Play(s game.State, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	fmt.Fprint(out, playHelp)
	show := true
	for {
		if show {
			fmt.Fprint(out, "\n"+describe(s))
			if moves := game.MoveTexts(s); len(moves) > 0 {
				fmt.Fprintf(out, "Legal moves: %s\n", strings.Join(moves, " "))
			} else {
				fmt.Fprintln(out, "Type undo to take back the last move, or quit to leave.")
			}
		}
		show = true
		fmt.Fprintf(out, "%s> ", s.Game().PlayerName(s.ToMove()))
		if !sc.Scan() {
			fmt.Fprintln(out)
			return sc.Err()
		}
		switch err := playLine(s, strings.TrimSpace(sc.Text()), out); err {
		case errQuit:
			return nil
		case errNoRedraw:
			show = false
		}
	}
}

// errNoRedraw tells the loop that the line needs no new board.
var errNoRedraw = fmt.Errorf("no redraw")

// playLine acts on one line of input.
func playLine(s game.State, line string, out io.Writer) error {
	switch line {
	case "":
		return errNoRedraw
	case "quit", "exit", "q":
		return errQuit
	case "help", "?":
		fmt.Fprint(out, playHelp)
		return errNoRedraw
	case "board", "show":
		return nil
	case "fen":
		fmt.Fprintln(out, s.FEN())
		return errNoRedraw
	case "moves":
		if moves := game.MoveTexts(s); len(moves) > 0 {
			fmt.Fprintln(out, strings.Join(moves, "\n"))
		} else {
			fmt.Fprintln(out, "no legal moves: the game is over")
		}
		return errNoRedraw
	case "undo", "u":
		if !s.Undo() {
			fmt.Fprintln(out, "nothing to undo")
			return errNoRedraw
		}
		return nil
	}
	m, err := game.ParseMove(s, line)
	if err != nil {
		fmt.Fprintln(out, err)
		return errNoRedraw
	}
	s.Play(m)
	return nil
}
