package terminal

import (
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/textboard"
)

// introduce says who plays what, once.
func (t *console) introduce() {
	g := t.pg.Game()
	var parts []string
	for p, seat := range t.pg.Seats() {
		who := "a person"
		if !seat.Person() {
			who = "the AI (" + seat.Engine.Name() + ")"
		} else if seat.Name != "" && seat.Name != "?" {
			who = seat.Name
		}
		parts = append(parts, g.PlayerName(game.Player(p))+": "+who)
	}
	fmt.Fprintf(t.out, "\n%s. %s.\n", g.ID(), strings.Join(parts, "; "))
}

// showPosition draws the board from the viewer's side with the last move
// marked, the clocks, whose turn it is and the legal moves.
func (t *console) showPosition() {
	s := t.pg.State()
	res := t.pg.Result()
	fmt.Fprint(t.out, "\n"+drawBoard(s, t.viewer(s), t.lastMoveCells(), t.color))
	if res.Over() {
		fmt.Fprintln(t.out, "Game over: "+res.Describe(s.Game()))
	}
	if clocks := t.pg.Clocks(); clocks != nil {
		fmt.Fprintln(t.out, clockLine(s.Game(), clocks, s.ToMove(), res.Over()))
	}
	if res.Over() {
		switch {
		case res.Reason == game.Resignation, res.Reason == game.Agreement, res.Reason == game.TimeForfeit, // not taken back
			!t.pg.Takebacks():
			fmt.Fprintln(t.out, "Type history to see the game, or quit to leave.")
		default:
			fmt.Fprintln(t.out, "Type undo to take back the last move, history to see the game, or quit to leave.")
		}
		return
	}
	if offer := t.pg.DrawOffer(); offer != game.NoPlayer && offer != s.ToMove() {
		fmt.Fprintf(t.out, "%s offers a draw: type draw to accept, or play a move to decline.\n", s.Game().PlayerName(offer))
	}
	if t.pg.Seats()[s.ToMove()].Person() { // the AI needs no list
		fmt.Fprint(t.out, movesSummary(game.MoveTexts(s)))
	}
}

// viewer is the seat the board is drawn for: the fixed view, else the
// person to move, else the only person, else the first seat.
func (t *console) viewer(s game.State) game.Player {
	if t.view != game.NoPlayer {
		return t.view
	}
	seats := t.pg.Seats()
	if seats[s.ToMove()].Person() {
		return s.ToMove()
	}
	for p, seat := range seats {
		if seat.Person() {
			return game.Player(p)
		}
	}
	return 0
}

// lastMoveCells are the cells of the last move (start, landings, drops),
// to be marked.
func (t *console) lastMoveCells() []board.Cell {
	if m, ok := t.pg.LastMove(); ok {
		return textboard.MoveCells(m)
	}
	return nil
}

// drawBoard draws the position as seat view sees it, marked cells shown,
// followed by the lines the game's own drawing adds under its board (the
// side to move, Punt's scores).
func drawBoard(s game.State, view game.Player, marked []board.Cell, color bool) string {
	text, err := textboard.Draw(s, textboard.Options{View: view, Marked: marked, Color: color})
	if err != nil {
		return textboard.String(s) // cannot happen for a seat of the game and cells of its board
	}
	return text + textboard.Footer(s)
}

// movesSummary lists the legal moves wrapped at word boundaries, or only
// their number when the list would fill the screen.
func movesSummary(moves []string) string {
	const most = 4 * 76 // four lines
	text := strings.Join(moves, " ")
	if len(text) > most {
		return fmt.Sprintf("%d legal moves: type moves to list them, or moves CELL for one piece's.\n", len(moves))
	}
	return wrap(fmt.Sprintf("Legal moves (%d): %s", len(moves), text), 80, "  ")
}

// wrap breaks text at spaces into lines of at most width, indenting the
// lines after the first.
func wrap(text string, width int, indent string) string {
	var sb strings.Builder
	line := 0
	for i, word := range strings.Fields(text) {
		switch {
		case i == 0:
		case line+1+len(word) > width:
			sb.WriteString("\n" + indent)
			line = len(indent)
		default:
			sb.WriteByte(' ')
			line++
		}
		sb.WriteString(word)
		line += len(word)
	}
	sb.WriteByte('\n')
	return sb.String()
}

// clockLine shows every seat's time, the mover's marked.
func clockLine(g game.Game, clocks []time.Duration, mover game.Player, over bool) string {
	var parts []string
	for p, left := range clocks {
		mark := " "
		if game.Player(p) == mover && !over {
			mark = "*"
		}
		parts = append(parts, fmt.Sprintf("%s%s %s", mark, g.PlayerName(game.Player(p)), clockText(left)))
	}
	return "Clock: " + strings.Join(parts, "  ")
}

// clockText writes time left as h:mm:pg, m:pg, or seconds with tenths
// under ten seconds.
func clockText(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
	}
}

// history numbers the moves played by turns, one line for each: a turn is
// a move of every seat in turn order, numbered as records number it, so a
// game set up with another seat than the first to move starts with the
// end of a turn ("  1... a5-a4"). s is the position after the moves, a
// copy.
func history(moves []string, s game.State) string {
	if len(moves) == 0 {
		return "No moves yet.\n"
	}
	first, n := game.Movers(s, len(moves))[0], s.Game().Players()
	var sb strings.Builder
	for ply, m := range moves {
		switch turn, opens := record.Turn(first, n, ply); {
		case opens && ply > 0:
			fmt.Fprintf(&sb, "\n%3d.", turn)
		case opens:
			fmt.Fprintf(&sb, "%3d.", turn)
		case ply == 0:
			fmt.Fprintf(&sb, "%3d...", turn)
		}
		sb.WriteString(" " + m)
	}
	sb.WriteByte('\n')
	return sb.String()
}
