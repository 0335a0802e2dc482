package rulespage

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// headingIDs gives headings the anchors GitHub gives them, which the
// pages' own links ("#52-liberation") are written against, so that they
// work on GitHub and on the site alike. goldmark's own ids differ: they
// drop non-ASCII letters and turn "_" into "-".
type headingIDs struct {
	used map[string]bool
}

func newHeadingIDs() *headingIDs {
	return &headingIDs{used: map[string]bool{}}
}

// Generate is the slug of a heading's source text, suffixed "-1", "-2"…
// when an earlier heading has it already, as GitHub does.
func (ids *headingIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	base := slug(string(value))
	id := base
	for n := 1; ids.used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	ids.used[id] = true
	return []byte(id)
}

// Put records an id given by hand, so that no generated id repeats it.
func (ids *headingIDs) Put(value []byte) {
	ids.used[string(value)] = true
}

// slug is text in lower case, punctuation dropped, spaces turned into
// hyphens.
func slug(text string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case r == ' ':
			sb.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
