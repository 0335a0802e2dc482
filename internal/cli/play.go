package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
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
	return (&Session{State: s}).Run(in, out)
}

// Session is a game being played at the terminal, and where it is saved.
type Session struct {
	State game.State
	// Record, when not nil, receives the moves; with Path set, the file is
	// rewritten after every move and undo, so that nothing is lost.
	Record *record.Record
	Path   string
	// Index is the record's place among the games of the file; -1 adds it
	// at the end on the first save.
	Index int
	// Seats holds an engine for each seat the program plays, nil for a
	// person; Limits bounds its searches.
	Seats  []ai.Engine
	Limits ai.Limits
}

// engineToMove returns the engine whose turn it is, or nil for a person.
func (ss *Session) engineToMove() ai.Engine {
	p := int(ss.State.ToMove())
	if p < len(ss.Seats) && !ss.State.Result().Over() {
		return ss.Seats[p]
	}
	return nil
}

// hasPerson reports whether a person plays one of the seats.
func (ss *Session) hasPerson() bool {
	for p := 0; p < ss.State.Game().Players(); p++ {
		if p >= len(ss.Seats) || ss.Seats[p] == nil {
			return true
		}
	}
	return false
}

// aiMove lets the engine to move play, and says what it played.
func (ss *Session) aiMove(e ai.Engine, out io.Writer) {
	s := ss.State
	info := e.Search(context.Background(), s, ss.Limits, nil)
	text := info.Move.Text(s.Game().Board())
	fmt.Fprintf(out, "%s (%s) plays %s  [score %s, depth %d, %d nodes, %s]\n", s.Game().PlayerName(s.ToMove()),
		e.Name(), text, ai.ScoreText(info.Score), info.Depth, info.Nodes, info.Elapsed.Round(time.Millisecond))
	if ss.Record != nil {
		ss.Record.Moves = append(ss.Record.Moves, text)
	}
	s.Play(info.Move)
}

// Run plays until quit or the end of the input.
func (ss *Session) Run(in io.Reader, out io.Writer) error {
	s := ss.State
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
		if e := ss.engineToMove(); e != nil {
			ss.aiMove(e, out)
			if err := ss.save(); err != nil {
				fmt.Fprintf(out, "could not save the game: %v\n", err)
			}
			continue
		}
		fmt.Fprintf(out, "%s> ", s.Game().PlayerName(s.ToMove()))
		if !sc.Scan() {
			fmt.Fprintln(out)
			return sc.Err()
		}
		err := ss.line(strings.TrimSpace(sc.Text()), out)
		switch err {
		case errQuit:
			return nil
		case errNoRedraw:
			show = false
		case errChanged:
			if err := ss.save(); err != nil {
				fmt.Fprintf(out, "could not save the game: %v\n", err)
			}
		}
	}
}

// save rewrites the record file with this game in its place, keeping every
// other game in the file. A file that cannot be read as records is never
// overwritten.
func (ss *Session) save() error {
	if ss.Record == nil || ss.Path == "" {
		return nil
	}
	ss.Record.Finish(ss.State.Result(), ss.State.Game())
	var recs []*record.Record
	old, err := os.ReadFile(ss.Path)
	switch {
	case err == nil:
		recs, err = record.Read(bytes.NewReader(old))
		if err != nil {
			return fmt.Errorf("not saving into %s, which is not a record file this game can be added to: %w", ss.Path, err)
		}
	case !os.IsNotExist(err):
		return err
	}
	if len(recs) == 0 && len(bytes.TrimSpace(old)) > 0 {
		// No game yet, but text (comments) that no record holds: keep it
		// as it is and add the game after it.
		return writeFileAtomic(ss.Path, func(w io.Writer) error {
			if _, err := w.Write(append(bytes.TrimRight(old, " \t\r\n"), "\n\n"...)); err != nil {
				return err
			}
			return record.Write(w, ss.Record)
		})
	}
	if ss.Index < 0 || ss.Index >= len(recs) {
		ss.Index = len(recs)
		recs = append(recs, ss.Record)
	} else {
		recs[ss.Index] = ss.Record
	}
	return writeFileAtomic(ss.Path, func(w io.Writer) error { return record.Write(w, recs...) })
}

// errChanged tells the loop that the position changed and must be saved.
var errChanged = errors.New("changed")

// errNoRedraw tells the loop that the line needs no new board.
var errNoRedraw = fmt.Errorf("no redraw")

// line acts on one line of input.
func (ss *Session) line(line string, out io.Writer) error {
	s := ss.State
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
		// Take back moves until a person is to move again, so that an
		// engine's reply does not come straight back.
		undone := 0
		for undone == 0 || ss.engineToMove() != nil && ss.hasPerson() {
			if !s.Undo() {
				break
			}
			undone++
			if ss.Record != nil && len(ss.Record.Moves) > 0 {
				ss.Record.Truncate(len(ss.Record.Moves) - 1)
			}
		}
		if undone == 0 {
			fmt.Fprintln(out, "nothing to undo")
			return errNoRedraw
		}
		return errChanged
	}
	m, err := game.ParseMove(s, line)
	if err != nil {
		fmt.Fprintln(out, err)
		return errNoRedraw
	}
	if ss.Record != nil {
		ss.Record.Moves = append(ss.Record.Moves, m.Text(s.Game().Board()))
	}
	s.Play(m)
	return errChanged
}
