package rulespage

import (
	"fmt"
	"html"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The Markdown shows the examples as transcripts of the program (`$
// arbiter show ...`, `$ arbiter moves ...` and their output), which a
// developer reruns and which read well on GitHub. A player reading the
// page on the site wants the positions and what they allow, not a shell:
// so each transcript is shown as what it says, in words. An `arbiter
// show` line becomes its board (the diagram, worked out by the rules),
// with a link to try the position on the analysis board; the other
// commands become a line each: the legal moves, the position reached, or
// the refusal, as the transcript's output gives them.

// kindTranscript is the kind of the nodes that stand for transcripts.
var kindTranscript = ast.NewNodeKind("Transcript")

// transcriptNode is a transcript shown to a player, a step per command.
type transcriptNode struct {
	ast.BaseBlock
	steps []step
}

func (n *transcriptNode) Kind() ast.NodeKind { return kindTranscript }

func (n *transcriptNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Steps": fmt.Sprint(len(n.steps))}, nil)
}

// step is one command of a transcript, in words: a position drawn, or a
// line that says what the program answered (output), under a label.
type step struct {
	figure  *figure
	label   string
	output  []string
	refused bool
}

// command is a transcript's command line and the output under it.
type command struct {
	line   string
	output []string
}

// transcriptInserter replaces each fenced code block that is a
// transcript of the program by its steps.
type transcriptInserter struct{}

func (transcriptInserter) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	var blocks []*ast.FencedCodeBlock
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if b, ok := n.(*ast.FencedCodeBlock); ok && entering {
			blocks = append(blocks, b)
		}
		return ast.WalkContinue, nil
	})
	for _, b := range blocks {
		commands, ok := transcript(b, reader.Source())
		if !ok {
			continue
		}
		node := &transcriptNode{}
		for _, c := range commands {
			if s, ok := c.step(); ok {
				node.steps = append(node.steps, s)
			}
		}
		b.Parent().ReplaceChild(b.Parent(), b, node)
	}
}

// transcript splits a code block into the program's commands and their
// output; ok is false for a block that does not start with a command.
func transcript(b *ast.FencedCodeBlock, source []byte) (commands []command, ok bool) {
	lines := b.Lines()
	for i := range lines.Len() {
		line := strings.TrimRight(lineText(lines, i, source), "\n")
		if strings.HasPrefix(line, "$ arbiter ") {
			commands = append(commands, command{line: line})
			continue
		}
		if len(commands) == 0 {
			return nil, false
		}
		last := &commands[len(commands)-1]
		last.output = append(last.output, line)
	}
	return commands, len(commands) > 0
}

// step says a command in words; ok is false for a command a player has
// no use for (the list of games, which the home page shows).
func (c command) step() (step, bool) {
	if show, ok := parseShowLine(c.line); ok {
		f, err := show.figure()
		if err != nil {
			return step{}, false
		}
		return step{figure: &f}, true
	}
	words, filter, ok := commandWords(c.line)
	if !ok || len(words) < 2 {
		return step{}, false
	}
	s := step{output: trimmed(c.output)}
	// A transcript that shows the exit status of a refusal ends with it;
	// the program's refusal names the program first.
	if n := len(s.output); n > 0 && strings.HasPrefix(s.output[n-1], "exit status ") {
		s.refused = s.output[n-1] != "exit status 0"
		s.output = s.output[:n-1]
	}
	if len(s.output) > 0 && strings.HasPrefix(s.output[0], "arbiter: ") {
		s.refused = true
		s.output[0] = strings.TrimPrefix(s.output[0], "arbiter: ")
	}
	switch words[0] {
	case "moves":
		s.label = "Legal moves" + context(words[1:], filter)
		if len(s.output) == 0 && !s.refused {
			s.output = []string{"none"}
		}
	case "fen":
		s.label = "Position" + context(words[1:], filter)
	case "perft":
		s.label = "Move sequences counted" + context(words[1:], filter)
	default:
		return step{}, false
	}
	if s.refused {
		s.label = "Refused" + context(words[1:], filter)
	}
	return s, true
}

// commandWords splits a command line after "$ arbiter ": its words and
// the filter its output went through ("grep d7", "tail -n 3"), if any.
func commandWords(line string) (words []string, filter string, ok bool) {
	rest := strings.TrimPrefix(line, "$ arbiter ")
	rest, _, _ = strings.Cut(rest, ";")
	rest, filter, _ = strings.Cut(rest, "|")
	words, ok = shellWords(strings.TrimSpace(rest))
	return words, strings.TrimSpace(filter), ok
}

// context says what a command was asked about, after its game: the
// options, the moves played first, the depth of a count, and how its
// output was cut. A position given by FEN is the one drawn above.
func context(args []string, filter string) string {
	var options, moves []string
	depth := ""
	for i := 1; i < len(args); i++ {
		switch w := args[i]; {
		case (w == "-o" || w == "--option") && i+1 < len(args):
			options = append(options, args[i+1])
			i++
		case w == "--from" && i+1 < len(args):
			i++
		case w == "--divide":
			depth += ", by first move"
		case depth == "" && isNumber(w):
			depth = " " + w + " moves deep"
			if w == "1" {
				depth = " 1 move deep"
			}
		case !strings.HasPrefix(w, "-"):
			moves = append(moves, w)
		}
	}
	var out []string
	if depth != "" {
		out = append(out, strings.TrimPrefix(depth, " "))
	}
	if len(moves) > 0 {
		out = append(out, "after "+strings.Join(moves, " "))
	}
	if len(options) > 0 {
		out = append(out, "with "+strings.Join(options, ", "))
	}
	switch {
	case strings.HasPrefix(filter, "grep "):
		out = append(out, "those with "+strings.Trim(strings.TrimPrefix(filter, "grep "), "'"))
	case filter != "":
		out = append(out, "in part")
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}

func isNumber(w string) bool {
	return w != "" && strings.Trim(w, "0123456789") == ""
}

// transcriptRenderer writes a transcript's steps: its diagrams, and a
// line for each other command.
type transcriptRenderer struct {
	paths Paths
}

func (r transcriptRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindTranscript, r.render)
}

func (r transcriptRenderer) render(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	for _, s := range node.(*transcriptNode).steps {
		if s.figure != nil {
			if err := writeFigure(w, *s.figure, r.tryLink(*s.figure)); err != nil {
				return ast.WalkStop, err
			}
			continue
		}
		class := "program-answer"
		if s.refused {
			class += " refused"
		}
		if _, err := fmt.Fprintf(w, `<p class="%s">%s: <code class="legal-moves">%s</code></p>`+"\n",
			class, html.EscapeString(s.label), html.EscapeString(strings.Join(s.output, ", "))); err != nil {
			return ast.WalkStop, err
		}
	}
	return ast.WalkContinue, nil
}

// tryLink leads to the analysis board set up at a figure's position, for
// a position still in play, when the site has an analysis board.
func (r transcriptRenderer) tryLink(f figure) string {
	if r.paths.Analysis == "" || f.over {
		return ""
	}
	q := url.Values{"fen": {f.fen}}
	if len(f.options) > 0 {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(f.options)) {
			kv = append(kv, k+"="+f.options[k])
		}
		q.Set("options", strings.Join(kv, ","))
	}
	return r.paths.Analysis + url.PathEscape(f.game) + "?" + q.Encode()
}

// trimmed is lines with the blanks around them removed, and without
// the empty ones.
func trimmed(lines []string) []string {
	var out []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
