package rulespage

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The rules pages show positions as transcripts of `arbiter show`, which
// read well as text (on GitHub too). The page draws each of them as a
// board instead: for every `$ arbiter show GAME [-o key=value]
// [--from 'FEN'] [MOVE...]` line of a fenced code block, the position it
// shows is worked out here, by the rules, and written into a <figure> in
// the transcript's place (transcript.go), which the page's script draws
// with the board renderer of the game pages. The figure's caption reads
// without the script.

// figure is what the page's script needs to draw a position, and its
// caption in words.
type figure struct {
	game, board, fen string
	options          map[string]string
	toMove           int
	over             bool
	stacks           map[string]string // cell name: pieces bottom first, a letter each
	caption          string
}

// showCommand is a transcript's `arbiter show` line, read.
type showCommand struct {
	game    string
	options map[string]string
	fen     string
	moves   []string
}

// parseShowLine reads line as an `arbiter show` command, its words split
// as a shell does for the single quotes the pages use; anything after a
// pipe is output filtering and ignored. ok is false for any other line
// and for a flag the pages do not use.
func parseShowLine(line string) (cmd showCommand, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(line), "$ arbiter show ")
	if !found {
		return showCommand{}, false
	}
	rest, _, _ = strings.Cut(rest, "|")
	words, ok := shellWords(rest)
	if !ok || len(words) == 0 {
		return showCommand{}, false
	}
	cmd = showCommand{game: words[0], options: map[string]string{}}
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case (w == "-o" || w == "--option") && i+1 < len(words):
			k, v, err := game.ParseOption(words[i+1])
			if err != nil {
				return showCommand{}, false
			}
			cmd.options[k] = v
			i++
		case w == "--from" && i+1 < len(words):
			cmd.fen = words[i+1]
			i++
		case strings.HasPrefix(w, "-"):
			return showCommand{}, false
		default:
			cmd.moves = append(cmd.moves, w)
		}
	}
	return cmd, true
}

// shellWords splits text on spaces, keeping single-quoted words whole.
func shellWords(text string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range text {
		switch {
		case r == '\'':
			quoted = !quoted
			inWord = true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
			}
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, !quoted
}

// state is the position cmd shows, as `arbiter show` sets it up.
func (cmd showCommand) state() (game.State, error) {
	rules, err := game.New(cmd.game, cmd.options)
	if err != nil {
		return nil, err
	}
	st := rules.Start()
	if fen := strings.TrimSpace(cmd.fen); fen != "" {
		if st, err = rules.ParseFEN(fen); err != nil {
			return nil, err
		}
	}
	if err := game.PlayMoves(st, cmd.moves); err != nil {
		return nil, err
	}
	return st, nil
}

// figure is the drawing of the position cmd shows.
func (cmd showCommand) figure() (figure, error) {
	st, err := cmd.state()
	if err != nil {
		return figure{}, err
	}
	stacks, err := stacks(st)
	if err != nil {
		return figure{}, err
	}
	rules := st.Game()
	caption := rules.PlayerName(st.ToMove()) + " to move"
	if r := st.Result(); r.Over() {
		caption = r.Describe(rules)
	}
	if len(cmd.moves) > 0 {
		caption = "After " + strings.Join(cmd.moves, " ") + ": " + caption
	}
	return figure{game: rules.ID(), board: rules.Board().ID(), fen: st.FEN(), options: cmd.options, toMove: int(st.ToMove()),
		over: st.Result().Over(), stacks: stacks, caption: caption}, nil
}

// stacks is every occupied cell of st by name, with its stack written
// bottom first, a letter per piece: the owner's seat letter, upper case
// for a king. The game pages' API writes stacks alike, and the server's
// tests hold the two to the same drawing.
func stacks(st game.State) (map[string]string, error) {
	stacker, ok := st.(game.Stacker)
	if !ok {
		return nil, errors.New(st.Game().ID() + " does not show its stacks")
	}
	b := st.Game().Board()
	out := map[string]string{}
	var buf []game.Piece
	for c := range b.Len() {
		buf = stacker.Stack(board.Cell(c), buf[:0])
		if len(buf) > 0 {
			out[b.Name(board.Cell(c))] = game.StackLetters(st.Game(), buf)
		}
	}
	return out, nil
}

// writeFigure writes a figure: the position in data- attributes for the
// script, a caption and the FEN for the reader, and a link to try the
// position when try is not empty.
func writeFigure(w util.BufWriter, f figure, try string) error {
	stacks, err := json.Marshal(f.stacks) // a map's keys are sorted: the output is stable
	if err != nil {
		return err
	}
	attr := html.EscapeString
	link := ""
	if try != "" {
		link = fmt.Sprintf(` <a class="try" href="%s">Try this position</a>`, attr(try))
	}
	_, err = fmt.Fprintf(w, `<figure class="diagram" data-game="%s" data-board="%s" data-fen="%s" data-to-move="%d" data-stacks="%s">`+
		`<figcaption>%s. <code>%s</code>%s</figcaption></figure>`+"\n",
		attr(f.game), attr(f.board), attr(f.fen), f.toMove, attr(string(stacks)), attr(f.caption), attr(f.fen), link)
	return err
}

// lineText is line i of lines.
func lineText(lines *text.Segments, i int, source []byte) string {
	seg := lines.At(i)
	return string(seg.Value(source))
}
