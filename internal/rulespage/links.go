package rulespage

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// The pages link to their own headings, to each other as files
// ("eximo.md#6-notation", which reads on GitHub) and show screenshots of
// docs/img. Only those targets are kept, rewritten to the server's
// routes; any other link or image keeps only its text, so that a page
// never sends its reader off the site, loads from elsewhere, nor runs a
// "javascript:" URL.
var (
	rulesPageLink = regexp.MustCompile(`^([a-z0-9-]+)\.md(#[a-z0-9-]*)?$`)
	docsImage     = regexp.MustCompile(`^\.\./img/([a-z0-9-]+\.png)$`)
)

// linkPolicy rewrites or unwraps every link and image of a page.
type linkPolicy struct {
	paths Paths
}

// Transform applies the policy; the nodes are changed after the walk, as
// ast.Walk does not allow changing the tree under it.
func (p linkPolicy) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	var unwrap []ast.Node
	var autoLinks []*ast.AutoLink
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if href, ok := p.href(string(n.Destination)); ok {
				n.Destination = []byte(href)
			} else {
				unwrap = append(unwrap, n)
			}
		case *ast.Image:
			if src, ok := p.imageSrc(string(n.Destination)); ok {
				n.Destination = []byte(src)
			} else {
				unwrap = append(unwrap, n)
			}
		case *ast.AutoLink:
			// Autolinks are absolute URLs or e-mail addresses: never kept.
			autoLinks = append(autoLinks, n)
		}
		return ast.WalkContinue, nil
	})
	for _, n := range unwrap {
		replaceByChildren(n)
	}
	for _, n := range autoLinks {
		n.Parent().ReplaceChild(n.Parent(), n, autoLinkText(n, reader.Source()))
	}
}

// href maps a link's target to the page's address for it: an in-page
// anchor as it is, a sibling rules page to its route.
func (p linkPolicy) href(target string) (string, bool) {
	if strings.HasPrefix(target, "#") && !strings.ContainsAny(target, `"<> `) {
		return target, true
	}
	if m := rulesPageLink.FindStringSubmatch(target); m != nil {
		return p.paths.Pages + m[1] + m[2], true
	}
	return "", false
}

// imageSrc maps a screenshot of docs/img to where the server serves it.
func (p linkPolicy) imageSrc(src string) (string, bool) {
	if m := docsImage.FindStringSubmatch(src); m != nil {
		return p.paths.Images + m[1], true
	}
	return "", false
}

// autoLinkText is the text an autolink shows, as a plain string.
func autoLinkText(n *ast.AutoLink, source []byte) ast.Node {
	s := ast.NewString(n.Label(source))
	s.SetRaw(true) // written escaped, but with no further Markdown reading
	return s
}

// replaceByChildren puts n's children where n stands.
func replaceByChildren(n ast.Node) {
	parent := n.Parent()
	for c := n.FirstChild(); c != nil; c = n.FirstChild() {
		parent.InsertBefore(parent, n, c)
	}
	parent.RemoveChild(parent, n)
}
