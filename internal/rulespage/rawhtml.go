package rulespage

import (
	"html"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// rawHTMLAsText shows the raw HTML of a page as the text it is, escaped,
// where goldmark's default (without html.WithUnsafe) leaves a comment in
// its place: a reader then sees what the source says, and still nothing
// in it runs or styles the page.
type rawHTMLAsText struct{}

func (rawHTMLAsText) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindRawHTML, renderRawHTML)
}

// renderHTMLBlock writes a block of HTML as a paragraph of its text.
func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	_, _ = w.WriteString("<p>")
	lines := n.Lines()
	for i := range lines.Len() {
		if i > 0 {
			_ = w.WriteByte('\n')
		}
		writeEscapedLine(w, []byte(lineText(lines, i, source)))
	}
	if n.HasClosure() {
		_ = w.WriteByte('\n')
		writeEscapedLine(w, n.ClosureLine.Value(source))
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

// writeEscapedLine writes line without its line ending, escaped.
func writeEscapedLine(w util.BufWriter, line []byte) {
	_, _ = w.WriteString(html.EscapeString(string(util.TrimRightSpace(line))))
}

// renderRawHTML writes an inline tag as its text.
func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	segments := node.(*ast.RawHTML).Segments
	for i := range segments.Len() {
		_, _ = w.WriteString(html.EscapeString(lineText(segments, i, source)))
	}
	return ast.WalkSkipChildren, nil
}
