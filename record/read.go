package record

import (
	"fmt"
	"io"
	"regexp"
	"strings"
)

// SyntaxError says where a record file is malformed.
type SyntaxError struct {
	Line   int
	Game   int // 1-based game in the file
	Reason string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d (game %d): %s", e.Line, e.Game, e.Reason)
}

var (
	moveNumber = regexp.MustCompile(`^[0-9]+\.+`)
	resultTok  = regexp.MustCompile(`^(\*|(1|0|1/[0-9])(-(1|0|1/[0-9]))+)$`)
	tagName    = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
)

// Read parses every game of a record file. It checks the syntax only (tag
// pairs, comments, move numbers, one result per game); Replay checks the
// moves.
func Read(r io.Reader) ([]*Record, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	p := &parser{src: string(data), line: 1}
	return p.records()
}

type parser struct {
	src  string
	pos  int
	line int
	recs []*Record
	cur  *Record
	// pending holds the notes read between games, for the next game.
	pending []string
}

func (p *parser) fail(format string, args ...any) error {
	return &SyntaxError{Line: p.line, Game: len(p.recs) + 1, Reason: fmt.Sprintf(format, args...)}
}

func (p *parser) next() byte {
	c := p.src[p.pos]
	p.pos++
	if c == '\n' {
		p.line++
	}
	return c
}

func (p *parser) records() ([]*Record, error) {
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			break
		}
		if err := p.item(); err != nil {
			return nil, err
		}
	}
	if p.cur != nil {
		p.line = p.cur.Line
		return nil, p.fail("the game that starts here ends without a result: finish its moves with 1-0, 0-1, 1/2-1/2 or * (unfinished)")
	}
	if len(p.pending) > 0 && len(p.recs) > 0 {
		last := p.recs[len(p.recs)-1]
		for _, text := range p.pending {
			last.Notes = append(last.Notes, Note{Ply: AfterResult, Text: text})
		}
	}
	return p.recs, nil
}

// item reads one thing: a note (comment, variation, escape line), a tag
// pair, a move number, a move or a result.
func (p *parser) item() error {
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == ';', c == '%' && (p.pos == 0 || p.src[p.pos-1] == '\n'):
		for p.pos < len(p.src) && p.src[p.pos] != '\n' {
			p.next()
		}
	case c == '{':
		if err := p.skipUntil('{', '}', "comment"); err != nil {
			return err
		}
	case c == '(':
		if err := p.skipUntil('(', ')', "variation"); err != nil {
			return err
		}
	case c == '[':
		return p.tag()
	default:
		return p.token()
	}
	p.note(strings.TrimRight(p.src[start:p.pos], " \t\r"))
	return nil
}

// note keeps a note: after the moves read so far, or, between games, for
// the next game (or after the last one's result).
func (p *parser) note(text string) {
	if p.cur == nil {
		p.pending = append(p.pending, text)
		return
	}
	p.cur.Notes = append(p.cur.Notes, Note{Ply: len(p.cur.Moves), Text: text})
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.next()
	}
}

// skipUntil skips a comment or a variation, which may nest.
func (p *parser) skipUntil(open, close byte, what string) error {
	start, depth := p.line, 0
	for p.pos < len(p.src) {
		switch p.next() {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return nil
			}
		}
	}
	return &SyntaxError{Line: start, Game: len(p.recs) + 1, Reason: fmt.Sprintf("the %s opened here is never closed", what)}
}

func (p *parser) game() *Record {
	if p.cur == nil {
		p.cur = &Record{Line: p.line}
		for _, text := range p.pending {
			p.cur.Notes = append(p.cur.Notes, Note{Ply: BeforeTags, Text: text})
		}
		p.pending = nil
	}
	return p.cur
}

func (p *parser) tag() error {
	r := p.game()
	if len(r.Moves) > 0 {
		return p.fail("a tag pair after the moves: end the game with its result first")
	}
	p.pos++ // [
	p.skipInline()
	start := p.pos
	for p.pos < len(p.src) && tagName.MatchString(p.src[p.pos:p.pos+1]) {
		p.pos++
	}
	name := p.src[start:p.pos]
	if name == "" {
		return p.fail(`a tag pair needs a name: [Name "value"]`)
	}
	p.skipInline()
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return p.fail(`the value of tag %s must be in double quotes: [%s "..."]`, name, name)
	}
	p.pos++
	var value strings.Builder
	for {
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' {
			return p.fail(`the value of tag %s is not closed with "`, name)
		}
		c := p.src[p.pos]
		p.pos++
		if c == '"' {
			break
		}
		if c == '\\' && p.pos < len(p.src) && p.src[p.pos] != '\n' {
			c = p.src[p.pos]
			p.pos++
		}
		value.WriteByte(c)
	}
	p.skipInline()
	if p.pos >= len(p.src) || p.src[p.pos] != ']' {
		return p.fail("tag %s is not closed with ]", name)
	}
	p.pos++
	if hasTag(r, name) {
		return p.fail("tag %s is given twice", name)
	}
	r.Tags = append(r.Tags, Tag{name, value.String()})
	return nil
}

// skipInline skips blanks within a line.
func (p *parser) skipInline() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func hasTag(r *Record, name string) bool {
	for _, t := range r.Tags {
		if t.Name == name {
			return true
		}
	}
	return false
}

// token reads a move number, a move or a result.
func (p *parser) token() error {
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n;{([", p.src[p.pos]) < 0 {
		p.next()
	}
	tok := p.src[start:p.pos]
	if num := moveNumber.FindString(tok); num != "" {
		tok = tok[len(num):]
		if tok == "" {
			return nil
		}
	}
	r := p.game()
	if resultTok.MatchString(tok) {
		if tag := r.Get("Result"); tag != "" && tag != tok {
			return p.fail("the moves end with %s but the Result tag says %s", tok, tag)
		}
		if !hasTag(r, "Result") {
			r.Tags = append(r.Tags, Tag{"Result", tok})
		}
		p.recs = append(p.recs, r)
		p.cur = nil
		return nil
	}
	if tok == "" || tok[0] < 'a' || tok[0] > 'z' {
		return p.fail("%q is neither a move nor a result", tok)
	}
	r.Moves = append(r.Moves, tok)
	return nil
}
