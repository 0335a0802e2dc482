package terminal

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/play"
)

// help says what can be typed; the game starts with it.
const help = `Enter a move as the legal moves are written (a1-b2, c3xc5xe6); two or more
moves on one line are played in turn. Commands:
  moves [CELL]  list the legal moves (of the piece on CELL)
  undo [N]      take back your last move (the AI's reply too), or N moves
  history       the moves played so far
  hint          the AI's suggestion after a short think
  draw          offer a draw (two players), or accept one offered
  resign        give up the game
  flip          see the board from the next seat
  board         draw the board again
  fen           print the position as FEN
  help          this text
  quit          leave (a saved game stays saved; Ctrl-C too)
`

// line acts on one line from the person to move.
func (t *console) line(line string) (redraw bool, err error) {
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case "":
		return false, nil
	case "quit", "exit", "q":
		return false, errQuit
	case "help", "?":
		fmt.Fprint(t.out, help)
		return false, nil
	case "board", "show":
		return true, nil
	case "fen":
		fmt.Fprintln(t.out, t.pg.State().FEN())
		return false, nil
	case "moves":
		t.listMoves(arg)
		return false, nil
	case "history":
		fmt.Fprint(t.out, history(t.pg.Moves(), t.pg.State()))
		return false, nil
	case "undo", "u":
		return t.undo(arg), nil
	case "hint":
		t.hint()
		return false, nil
	case "resign":
		return t.resign(), nil
	case "draw", "offer":
		return t.offerDraw(), nil
	case "flip":
		s := t.pg.State()
		t.view = (t.viewer(s) + 1) % game.Player(s.Game().Players())
		return true, nil
	}
	return t.moves(strings.Fields(line)), nil
}

// moves plays the moves of one line in turn, as long as a person is to
// move; it stops at the first one refused.
func (t *console) moves(texts []string) bool {
	played := false
	for i, text := range texts {
		s := t.pg.State()
		if i > 0 && !t.pg.Seats()[s.ToMove()].Person() {
			fmt.Fprintf(t.out, "%s is the AI's to play: %s was not played.\n", s.Game().PlayerName(s.ToMove()), strings.Join(texts[i:], " "))
			break
		}
		if _, err := t.pg.Move(s.ToMove(), text); err != nil {
			if errors.Is(err, play.ErrOver) {
				err = &game.IllegalMoveError{Move: text, Reason: err.Error()}
			}
			t.refused(err, text+" was not played")
			break
		}
		played = true
	}
	return played
}

// refused says why a request was not carried out: a rule of the game,
// or the record file that could not keep the change, and then what was
// not done (the game stays as it was saved).
func (t *console) refused(err error, notDone string) {
	var notSaved *saveError
	if errors.As(err, &notSaved) {
		fmt.Fprintf(t.out, "%s: %v\n", notDone, err)
		return
	}
	fmt.Fprintln(t.out, err)
}

// listMoves prints the legal moves one per line, those of one piece when
// a cell is given.
func (t *console) listMoves(cell string) {
	s := t.pg.State()
	moves := game.MoveTexts(s)
	if t.pg.Result().Over() {
		moves = nil
	}
	if len(moves) == 0 {
		fmt.Fprintln(t.out, "no legal moves: the game is over")
		return
	}
	if cell != "" {
		c, ok := s.Game().Board().Parse(cell)
		if !ok {
			fmt.Fprintf(t.out, "%q is not a cell of this board\n", cell)
			return
		}
		var mine []string
		for _, m := range moves {
			if strings.HasPrefix(m, cell+"-") || strings.HasPrefix(m, cell+"x") {
				mine = append(mine, m)
			}
		}
		if len(mine) == 0 {
			fmt.Fprintf(t.out, "no legal move starts on %s\n", s.Game().Board().Name(c))
			return
		}
		moves = mine
	}
	fmt.Fprintln(t.out, strings.Join(moves, "\n"))
}

// undo takes back the person's last move (and the replies after it), or
// the number of moves asked, and says what went.
func (t *console) undo(arg string) bool {
	n := 0
	if arg != "" {
		var err error
		if n, err = strconv.Atoi(arg); err != nil || n < 1 || n > 10000 {
			fmt.Fprintf(t.out, "undo %s: write undo, or undo N with N a number of moves from 1\n", arg)
			return false
		}
	}
	before := t.pg.State()
	undone, err := t.pg.Undo(n)
	if errors.Is(err, play.ErrNothing) {
		fmt.Fprintln(t.out, "nothing to undo")
		return false
	}
	if err != nil {
		t.refused(err, "nothing was taken back")
		return false
	}
	var parts []string
	for i, m := range undone {
		mover := (int(before.ToMove()) - 1 - i) % before.Game().Players()
		if mover < 0 {
			mover += before.Game().Players()
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", m, before.Game().PlayerName(game.Player(mover))))
	}
	fmt.Fprintf(t.out, "Took back %s.\n", joinAnd(parts))
	return true
}

func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// hintEngine is the engine that gives hints.
const hintEngine = "ab"

// hint asks an engine for a move after a short think.
func (t *console) hint() {
	s := t.pg.State()
	if t.pg.Result().Over() {
		fmt.Fprintln(t.out, "the game is over: no hint")
		return
	}
	e, err := ai.New(hintEngine, 1)
	if err != nil {
		fmt.Fprintln(t.out, err)
		return
	}
	info := e.Search(context.Background(), s, ai.Limits{Depth: 6, MoveTime: time.Second}, nil)
	fmt.Fprintf(t.out, "Hint: %s (score %s for %s)\n", info.Move.Text(s.Game().Board()), ai.ScoreText(info.Score),
		s.Game().PlayerName(s.ToMove()))
}

// resign gives up the game for the person to move, or the only person
// when an engine is to move.
func (t *console) resign() bool {
	s := t.pg.State()
	p := s.ToMove()
	if !t.pg.Seats()[p].Person() {
		p = t.viewer(s)
	}
	if err := t.pg.Resign(p); err != nil {
		t.refused(err, "the game goes on")
		return false
	}
	fmt.Fprintf(t.out, "%s resigns.\n", s.Game().PlayerName(p))
	return true
}

// offerDraw offers a draw for the person to move, or accepts the one on
// the table. An engine opponent answers at once, by ai.AcceptsDraw's
// rule.
func (t *console) offerDraw() bool {
	s := t.pg.State()
	me := s.ToMove()
	drawn, err := t.pg.OfferDraw(me)
	if err != nil {
		t.refused(err, "no draw")
		return false
	}
	if drawn {
		fmt.Fprintln(t.out, "Draw agreed.")
		return true
	}
	other := 1 - me
	seat := t.pg.Seats()[other]
	name := s.Game().PlayerName(other)
	if seat.Person() {
		fmt.Fprintf(t.out, "%s offers a draw; %s may accept by typing draw on their turn.\n", s.Game().PlayerName(me), name)
		return false
	}
	if ai.AcceptsDraw(context.Background(), s, me) {
		if _, err := t.pg.OfferDraw(other); err != nil {
			t.refused(err, "no draw")
			return false
		}
		fmt.Fprintf(t.out, "%s (%s) accepts the draw.\n", name, seat.Engine.Name())
		return true
	}
	_ = t.pg.DeclineDraw(other)
	fmt.Fprintf(t.out, "%s (%s) declines the draw.\n", name, seat.Engine.Name())
	return false
}
