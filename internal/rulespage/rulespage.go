// Package rulespage renders the rules pages of docs/rules, Markdown, as
// the HTML the server shows: CommonMark with GitHub's tables and
// strikethrough (goldmark), headings anchored as GitHub anchors them, the
// program's transcripts shown in words, each `arbiter show` as a board
// diagram, and links kept within the site. The output holds no script, no style
// attribute and no raw HTML from the source, which reaches the page as
// text, so that it passes the server's Content-Security-Policy.
//
// The diagrams need the games registered, as the program's main does by
// importing games/all; a transcript of a game not registered gets none.
package rulespage

import (
	"bytes"
	"io"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Paths are where the server serves what a page links to.
type Paths struct {
	// Pages is the prefix of the rules pages' routes: a link to
	// "eximo.md#6-notation" leads to Pages+"eximo#6-notation".
	Pages string
	// Images is the prefix under which the screenshots of docs/img are
	// served: "../img/pommel-start.png" is shown from Images+"pommel-start.png".
	Images string
	// Analysis is the prefix of the analysis board's routes: a diagram
	// links to Analysis+"pommel?fen=..." to try its position; empty, to
	// none.
	Analysis string
}

// Renderer renders rules pages; it is safe for concurrent use.
type Renderer struct {
	md goldmark.Markdown
}

// New returns a Renderer whose links lead to paths.
func New(paths Paths) *Renderer {
	md := goldmark.New(
		goldmark.WithExtensions(
			extension.Strikethrough,
			// The align attribute, not the default style one, which the
			// Content-Security-Policy would block.
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
		),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			parser.WithASTTransformers(
				util.Prioritized(linkPolicy{paths: paths}, 100),
				util.Prioritized(transcriptInserter{}, 200),
			),
		),
		goldmark.WithRendererOptions(
			// Below the HTML renderer's 1000, so that these win.
			renderer.WithNodeRenderers(
				util.Prioritized(rawHTMLAsText{}, 100),
				util.Prioritized(transcriptRenderer{paths: paths}, 100),
			),
		),
	)
	return &Renderer{md: md}
}

// Render writes the HTML of the Markdown src to w.
func (r *Renderer) Render(w io.Writer, src []byte) error {
	ctx := parser.NewContext(parser.WithIDs(newHeadingIDs()))
	return r.md.Convert(src, w, parser.WithContext(ctx))
}

// HTML is the HTML of the Markdown src.
func (r *Renderer) HTML(src []byte) (string, error) {
	var buf bytes.Buffer
	if err := r.Render(&buf, src); err != nil {
		return "", err
	}
	return buf.String(), nil
}
