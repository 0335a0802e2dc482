package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/session"
	"github.com/arbiter-games/arbiter/textboard"
)

const playHelp = `Enter a move as the legal moves are written (a1-b2, c3xc5xe6); two or more
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

// Play runs a game between people taking turns at one terminal, unsaved:
// it shows the board and the legal moves, reads a move or a command per
// line from in, and stops at quit or the end of the input.
func Play(s game.State, in io.Reader, out io.Writer) error {
	seats := make([]session.Seat, s.Game().Players())
	ss, err := session.New(session.Config{Start: s, Seats: seats})
	if err != nil {
		return err
	}
	return (&terminal{ss: ss, out: out, view: -1}).run(context.Background(), in)
}

// terminal is terminal play: a session drawn as text and driven by lines
// of input.
type terminal struct {
	ss  *session.Session
	out io.Writer
	// view is the seat whose side the board is drawn from; -1 follows the
	// person to move.
	view  game.Player
	color bool
	// live, on a real terminal, redraws a line with the AI's thinking time.
	live bool
	// hintSpec is the engine that gives hints.
	hintSpec string
	// pending are lines typed while the AI thought, read before new ones.
	pending []inputLine
}

// inputLine is one line read, or the end of the input.
type inputLine struct {
	text string
	err  error
	eof  bool
}

// readLines sends every line of in, then the end, on the channel it
// returns; reading goes on while the AI thinks, so that quit is heard.
func readLines(in io.Reader) <-chan inputLine {
	lines := make(chan inputLine)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			lines <- inputLine{text: sc.Text()}
		}
		lines <- inputLine{eof: true, err: sc.Err()}
		close(lines)
	}()
	return lines
}

// run plays until quit, the end of the input or ctx's end (Ctrl-C).
func (t *terminal) run(ctx context.Context, in io.Reader) error {
	lines := readLines(in)
	fmt.Fprint(t.out, playHelp)
	t.introduce()
	show := true
	for {
		if show {
			t.showPosition()
		}
		show = true
		if t.ss.EngineToMove() != nil {
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

func quitIsNil(err error) error {
	if errors.Is(err, errQuit) {
		return nil
	}
	return err
}

// introduce says who plays what, once.
func (t *terminal) introduce() {
	g := t.ss.Game()
	var parts []string
	for p, seat := range t.ss.Seats() {
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
func (t *terminal) showPosition() {
	s := t.ss.State()
	res := t.ss.Result()
	fmt.Fprint(t.out, "\n"+drawBoard(s, t.viewer(s), t.lastMoveCells(), t.color))
	if res.Over() {
		fmt.Fprintln(t.out, "Game over: "+res.Describe(s.Game()))
	}
	if clocks := t.ss.Clocks(); clocks != nil {
		fmt.Fprintln(t.out, clockLine(s.Game(), clocks, s.ToMove(), res.Over()))
	}
	if res.Over() {
		switch res.Reason {
		case game.Resignation, game.Agreement, game.TimeForfeit: // not taken back
			fmt.Fprintln(t.out, "Type history to see the game, or quit to leave.")
		default:
			fmt.Fprintln(t.out, "Type undo to take back the last move, history to see the game, or quit to leave.")
		}
		return
	}
	if offer := t.ss.DrawOffer(); offer != game.NoPlayer && offer != s.ToMove() {
		fmt.Fprintf(t.out, "%s offers a draw: type draw to accept, or play a move to decline.\n", s.Game().PlayerName(offer))
	}
	if t.ss.Seats()[s.ToMove()].Person() { // the AI needs no list
		fmt.Fprint(t.out, movesSummary(game.MoveTexts(s)))
	}
}

// viewer is the seat the board is drawn for: the fixed view, else the
// person to move, else the only person, else the first seat.
func (t *terminal) viewer(s game.State) game.Player {
	if t.view >= 0 {
		return t.view
	}
	seats := t.ss.Seats()
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
func (t *terminal) lastMoveCells() []board.Cell {
	if m, ok := t.ss.LastMove(); ok {
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
		return s.String() // cannot happen for a seat of the game and cells of its board
	}
	return text + strings.TrimPrefix(s.String(), textboard.String(s))
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

// clockText writes time left as h:mm:ss, m:ss, or seconds with tenths
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

// engineTurn lets the AI play while listening to the input: quit (or
// ctx's end) stops the search at once; other lines wait for the move.
func (t *terminal) engineTurn(ctx context.Context, lines <-chan inputLine) error {
	e := t.ss.EngineToMove()
	s := t.ss.State()
	name := s.Game().PlayerName(s.ToMove())
	searchCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		info ai.Info
		err  error
	}
	done := make(chan result, 1)
	go func() {
		info, err := t.ss.PlayEngine(searchCtx, nil)
		done <- result{info, err}
	}()
	start := time.Now()
	fmt.Fprintf(t.out, "%s (%s) is thinking...", name, e.Name())
	if !t.live {
		fmt.Fprintln(t.out)
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			t.endThinkingLine()
			if r.err != nil {
				if ctx.Err() != nil {
					fmt.Fprintln(t.out, "Interrupted; leaving.")
					return errQuit
				}
				if errors.Is(r.err, session.ErrOver) {
					return nil
				}
				return fmt.Errorf("%s (%s): %w", name, e.Name(), r.err)
			}
			i := r.info
			fmt.Fprintf(t.out, "%s (%s) plays %s  [score %s, depth %d, %s, %s]\n", name, e.Name(),
				i.Move.Text(s.Game().Board()), ai.ScoreText(i.Score), i.Depth, plural(int(i.Nodes), "node"), i.Elapsed.Round(time.Millisecond))
			return nil
		case <-tick.C:
			if t.live {
				fmt.Fprintf(t.out, "\r%s (%s) is thinking... %.1fs", name, e.Name(), time.Since(start).Seconds())
			}
		case line, ok := <-lines:
			if !ok || line.eof {
				// The input ended: let the AI finish its move.
				lines = nil
				t.pending = append(t.pending, inputLine{eof: true, err: line.err})
				continue
			}
			// quit and resign act at once, unless lines typed earlier wait
			// for the move: those come first, in order.
			switch cmd := strings.TrimSpace(line.text); {
			case len(t.pending) == 0 && (cmd == "quit" || cmd == "exit" || cmd == "q"):
				cancel()
				<-done
				t.endThinkingLine()
				return errQuit
			case len(t.pending) == 0 && cmd == "resign":
				cancel()
				<-done
				t.endThinkingLine()
				t.resign()
				return nil
			default:
				t.pending = append(t.pending, line)
			}
		}
	}
}

// endThinkingLine clears the live thinking line.
func (t *terminal) endThinkingLine() {
	if t.live {
		fmt.Fprint(t.out, "\r\033[K")
	}
}

// personTurn prompts the person to move and acts on one line; it reports
// whether the board needs drawing again. A clock ends the wait when the
// person's time runs out.
func (t *terminal) personTurn(ctx context.Context, lines <-chan inputLine) (redraw bool, err error) {
	s := t.ss.State()
	fmt.Fprintf(t.out, "%s> ", s.Game().PlayerName(s.ToMove()))
	var flag <-chan time.Time
	if clocks := t.ss.Clocks(); clocks != nil && !t.ss.Result().Over() {
		timer := time.NewTimer(clocks[s.ToMove()] + time.Millisecond)
		defer timer.Stop()
		flag = timer.C
	}
	if len(t.pending) > 0 {
		line := t.pending[0]
		t.pending = t.pending[1:]
		if line.eof {
			fmt.Fprintln(t.out)
			return false, cmp.Or(line.err, errQuit)
		}
		return t.line(strings.TrimSpace(line.text))
	}
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(t.out, "\nInterrupted; leaving.")
			return false, errQuit
		case <-flag:
			if over, _ := t.ss.Tick(); over {
				fmt.Fprintln(t.out)
				return true, nil
			}
		case line := <-lines:
			if line.eof {
				fmt.Fprintln(t.out)
				if line.err != nil {
					return false, line.err
				}
				return false, errQuit
			}
			return t.line(strings.TrimSpace(line.text))
		}
	}
}

// line acts on one line from the person to move.
func (t *terminal) line(line string) (redraw bool, err error) {
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case "":
		return false, nil
	case "quit", "exit", "q":
		return false, errQuit
	case "help", "?":
		fmt.Fprint(t.out, playHelp)
		return false, nil
	case "board", "show":
		return true, nil
	case "fen":
		fmt.Fprintln(t.out, t.ss.State().FEN())
		return false, nil
	case "moves":
		t.listMoves(arg)
		return false, nil
	case "history":
		fmt.Fprint(t.out, history(t.ss.Moves(), t.ss.State()))
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
		s := t.ss.State()
		t.view = (t.viewer(s) + 1) % game.Player(s.Game().Players())
		return true, nil
	}
	return t.moves(strings.Fields(line)), nil
}

// moves plays the moves of one line in turn, as long as a person is to
// move; it stops at the first one refused.
func (t *terminal) moves(texts []string) bool {
	played := false
	for i, text := range texts {
		s := t.ss.State()
		if i > 0 && !t.ss.Seats()[s.ToMove()].Person() {
			fmt.Fprintf(t.out, "%s is the AI's to play: %s was not played.\n", s.Game().PlayerName(s.ToMove()), strings.Join(texts[i:], " "))
			break
		}
		if _, err := t.ss.Move(s.ToMove(), text); err != nil {
			if errors.Is(err, session.ErrOver) {
				err = &game.IllegalMoveError{Move: text, Reason: err.Error()}
			}
			t.refused(err)
			break
		}
		played = true
	}
	return played
}

// refused says why a request was not carried out; a save that failed
// after the move was played is a warning, the move stands.
func (t *terminal) refused(err error) {
	var illegal *game.IllegalMoveError
	switch {
	case errors.As(err, &illegal), errors.Is(err, session.ErrOver), errors.Is(err, session.ErrNotYourTurn):
		fmt.Fprintln(t.out, err)
	default:
		fmt.Fprintf(t.out, "could not save the game: %v\n", err)
	}
}

// listMoves prints the legal moves one per line, those of one piece when
// a cell is given.
func (t *terminal) listMoves(cell string) {
	s := t.ss.State()
	moves := game.MoveTexts(s)
	if t.ss.Result().Over() {
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

// history numbers the moves played, a full round of seats per number.
func history(moves []string, s game.State) string {
	if len(moves) == 0 {
		return "No moves yet.\n"
	}
	n := s.Game().Players()
	var sb strings.Builder
	for i := 0; i < len(moves); i += n {
		fmt.Fprintf(&sb, "%3d.", i/n+1)
		for _, m := range moves[i:min(i+n, len(moves))] {
			sb.WriteString(" " + m)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// undo takes back the person's last move (and the replies after it), or
// the number of moves asked, and says what went.
func (t *terminal) undo(arg string) bool {
	n := 0
	if arg != "" {
		var err error
		if n, err = strconv.Atoi(arg); err != nil || n < 1 || n > 10000 {
			fmt.Fprintf(t.out, "undo %s: write undo, or undo N with N a number of moves from 1\n", arg)
			return false
		}
	}
	before := t.ss.State()
	undone, err := t.ss.Undo(n)
	if errors.Is(err, session.ErrNothing) {
		fmt.Fprintln(t.out, "nothing to undo")
		return false
	}
	if undone == nil && err != nil {
		fmt.Fprintln(t.out, err)
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
	if err != nil {
		t.refused(err)
	}
	return true
}

func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// hint asks an engine for a move after a short think.
func (t *terminal) hint() {
	s := t.ss.State()
	if t.ss.Result().Over() {
		fmt.Fprintln(t.out, "the game is over: no hint")
		return
	}
	spec := t.hintSpec
	if spec == "" {
		spec = "ab"
	}
	e, err := ai.New(spec, 1)
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
func (t *terminal) resign() bool {
	s := t.ss.State()
	p := s.ToMove()
	if !t.ss.Seats()[p].Person() {
		p = t.viewer(s)
	}
	if err := t.ss.Resign(p); err != nil {
		t.refused(err)
		return false
	}
	fmt.Fprintf(t.out, "%s resigns.\n", s.Game().PlayerName(p))
	return true
}

// offerDraw offers a draw for the person to move, or accepts the one on
// the table. An engine opponent answers at once: it accepts when a short
// search finds it worse by half a piece or more.
func (t *terminal) offerDraw() bool {
	s := t.ss.State()
	me := s.ToMove()
	drawn, err := t.ss.OfferDraw(me)
	if err != nil {
		t.refused(err)
		return false
	}
	if drawn {
		fmt.Fprintln(t.out, "Draw agreed.")
		return true
	}
	other := 1 - me
	seat := t.ss.Seats()[other]
	name := s.Game().PlayerName(other)
	if seat.Person() {
		fmt.Fprintf(t.out, "%s offers a draw; %s may accept by typing draw on their turn.\n", s.Game().PlayerName(me), name)
		return false
	}
	judge, _ := ai.New("ab", 1)
	info := judge.Search(context.Background(), s, ai.Limits{Depth: 4, MoveTime: time.Second}, nil)
	if info.Score >= 50 { // good for the offerer: the engine is worse
		if _, err := t.ss.OfferDraw(other); err != nil {
			t.refused(err)
			return false
		}
		fmt.Fprintf(t.out, "%s (%s) accepts the draw.\n", name, seat.Engine.Name())
		return true
	}
	_ = t.ss.DeclineDraw(other)
	fmt.Fprintf(t.out, "%s (%s) declines the draw.\n", name, seat.Engine.Name())
	return false
}
