package terminal

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/play"
)

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

// engineTurn lets the AI play while listening to the input: quit (or
// ctx's end) stops the search at once; other lines wait for the move.
func (t *console) engineTurn(ctx context.Context, lines <-chan inputLine) error {
	e := t.pg.EngineToMove()
	s := t.pg.State()
	name := s.Game().PlayerName(s.ToMove())
	searchCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		info ai.Info
		err  error
	}
	done := make(chan result, 1)
	go func() {
		info, err := t.pg.PlayEngine(searchCtx, nil)
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
				if errors.Is(r.err, play.ErrOver) {
					return nil
				}
				return fmt.Errorf("%s (%s): %w", name, e.Name(), r.err)
			}
			i := r.info
			fmt.Fprintf(t.out, "%s (%s) plays %s  [score %s, depth %d, %s, %s]\n", name, e.Name(),
				i.Move.Text(s.Game().Board()), ai.ScoreText(i.Score), i.Depth, nodes(i.Nodes), i.Elapsed.Round(time.Millisecond))
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
func (t *console) endThinkingLine() {
	if t.live {
		fmt.Fprint(t.out, "\r\033[K")
	}
}

// personTurn prompts the person to move and acts on one line; it reports
// whether the board needs drawing again. A clock ends the wait when the
// person's time runs out.
func (t *console) personTurn(ctx context.Context, lines <-chan inputLine) (redraw bool, err error) {
	s := t.pg.State()
	fmt.Fprintf(t.out, "%s> ", s.Game().PlayerName(s.ToMove()))
	var flag <-chan time.Time
	if clocks := t.pg.Clocks(); clocks != nil && !t.pg.Result().Over() {
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
			if over, _ := t.pg.Tick(); over {
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

// nodes writes a count of nodes searched: "1 node", "300 nodes".
func nodes(n int64) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}
