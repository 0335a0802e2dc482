package server

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// The rules pages show positions as transcripts of `arbiter show`, which
// read well as text (on GitHub too). The page draws each of them as a
// board as well: for every `$ arbiter show GAME [-o key=value]
// [--from 'FEN'] [MOVE...]` line of a code block, the position it shows
// is worked out here, by the rules, and written into a <figure> that the
// page's script draws with the board renderer of the game pages.

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

// showDiagrams writes a figure for each `arbiter show` line of a code
// block whose position the rules set up; a line they refuse gets none
// (TestRulesDiagrams keeps the pages free of such lines).
func showDiagrams(sb *strings.Builder, code []string) {
	for _, line := range code {
		cmd, ok := parseShowLine(line)
		if !ok {
			continue
		}
		if figure, err := diagramFigure(cmd); err == nil {
			sb.WriteString(figure)
		}
	}
}

// diagramFigure is the <figure> of the position cmd shows: its game, its
// board, its stacks (as the board's data-stack writes them), the seat to
// move and its FEN, in data- attributes, with a caption in words.
func diagramFigure(cmd showCommand) (string, error) {
	st, apiErr := analysisState(cmd.game, cmd.options, cmd.fen, cmd.moves)
	if apiErr != nil {
		return "", apiErr
	}
	pos, err := position(st, 0)
	if err != nil {
		return "", err
	}
	stacks, err := json.Marshal(pos.Stacks)
	if err != nil {
		return "", err
	}
	rules := st.Game()
	caption := rules.PlayerName(st.ToMove()) + " to move"
	if r := st.Result(); r.Over() {
		caption = r.Describe(rules)
	}
	if len(cmd.moves) > 0 {
		caption = "After " + strings.Join(cmd.moves, " ") + ": " + caption
	}
	attr := html.EscapeString
	return fmt.Sprintf(`<figure class="diagram" data-game="%s" data-board="%s" data-fen="%s" data-to-move="%d" data-stacks="%s">`+
		`<figcaption>%s. <code>%s</code></figcaption></figure>`+"\n",
		attr(rules.ID()), attr(pos.Board), attr(st.FEN()), pos.ToMove, attr(string(stacks)), attr(caption), attr(st.FEN())), nil
}
