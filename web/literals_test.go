package web

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/arbiter-games/arbiter/internal/i18n"
)

// The scan of the client's TypeScript for words outside the catalogs: a
// tokenizer that knows strings, template literals, comments and regular
// expressions, enough to find each literal and what stands before it.

// tsToken is one token of TypeScript: an identifier or keyword, a number,
// a punctuator, a string or template literal (text: its content, each
// ${...} written as "0"), or a regular expression.
type tsToken struct {
	kind string // "ident", "num", "punct", "string", "template", "regex"
	text string
	line int
}

// tsScanner walks one file's source.
type tsScanner struct {
	src  string
	pos  int
	line int
	out  []tsToken
}

// scanTS splits src into tokens, comments left out.
func scanTS(src string) ([]tsToken, error) {
	s := &tsScanner{src: src, line: 1}
	if err := s.code(false); err != nil {
		return nil, err
	}
	return s.out, nil
}

// code scans until the end, or (inTemplate) the "}" that closes a
// template literal's ${.
func (s *tsScanner) code(inTemplate bool) error {
	depth := 0
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\n':
			s.line++
			s.pos++
		case c == ' ' || c == '\t' || c == '\r':
			s.pos++
		case strings.HasPrefix(s.src[s.pos:], "//"):
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
		case strings.HasPrefix(s.src[s.pos:], "/*"):
			end := strings.Index(s.src[s.pos+2:], "*/")
			if end < 0 {
				return fmt.Errorf("line %d: unclosed comment", s.line)
			}
			s.line += strings.Count(s.src[s.pos:s.pos+2+end], "\n")
			s.pos += end + 4
		case c == '"' || c == '\'':
			if err := s.quoted(c); err != nil {
				return err
			}
		case c == '`':
			if err := s.template(); err != nil {
				return err
			}
		case c == '/' && s.regexAllowed():
			if err := s.regex(); err != nil {
				return err
			}
		case c == '_' || c == '$' || unicode.IsLetter(rune(c)):
			start := s.pos
			for s.pos < len(s.src) && (s.src[s.pos] == '_' || s.src[s.pos] == '$' || isAlnum(s.src[s.pos])) {
				s.pos++
			}
			s.emit("ident", s.src[start:s.pos])
		case c >= '0' && c <= '9':
			start := s.pos
			for s.pos < len(s.src) && (isAlnum(s.src[s.pos]) || s.src[s.pos] == '.' || s.src[s.pos] == '_') {
				s.pos++
			}
			s.emit("num", s.src[start:s.pos])
		default:
			if c == '{' {
				depth++
			}
			if c == '}' {
				if depth == 0 && inTemplate {
					s.pos++
					return nil
				}
				depth--
			}
			s.emit("punct", s.punct())
		}
	}
	if inTemplate {
		return fmt.Errorf("line %d: unclosed ${ in a template literal", s.line)
	}
	return nil
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// punct reads the longest operator at pos.
func (s *tsScanner) punct() string {
	for _, op := range []string{"===", "!==", "...", "=>", "==", "!=", "&&", "||", "??", "?.", "<=", ">=", "+=", "-="} {
		if strings.HasPrefix(s.src[s.pos:], op) {
			s.pos += len(op)
			return op
		}
	}
	s.pos++
	return s.src[s.pos-1 : s.pos]
}

func (s *tsScanner) emit(kind, text string) {
	s.out = append(s.out, tsToken{kind: kind, text: text, line: s.line})
}

// regexAllowed reports whether a "/" here starts a regular expression
// rather than a division: after an operator, an opening bracket, a comma
// or a keyword that leads an expression.
func (s *tsScanner) regexAllowed() bool {
	if len(s.out) == 0 {
		return true
	}
	last := s.out[len(s.out)-1]
	switch last.kind {
	case "punct":
		return last.text != ")" && last.text != "]" && last.text != "}"
	case "ident":
		return slices.Contains([]string{"return", "typeof", "case", "of", "in", "void", "delete", "throw", "else", "do"}, last.text)
	}
	return false
}

func (s *tsScanner) quoted(q byte) error {
	line := s.line
	var b strings.Builder
	for s.pos++; s.pos < len(s.src); s.pos++ {
		c := s.src[s.pos]
		switch {
		case c == '\\' && s.pos+1 < len(s.src):
			s.pos++
			s.escape(&b)
		case c == q:
			s.pos++
			s.out = append(s.out, tsToken{kind: "string", text: b.String(), line: line})
			return nil
		case c == '\n':
			return fmt.Errorf("line %d: unclosed string", line)
		default:
			b.WriteByte(c)
		}
	}
	return fmt.Errorf("line %d: unclosed string", line)
}

// escape writes the character an escape at pos stands for: a letter
// escape (\n, \u00e9, \x41) as a space, which is no word, any other
// character as itself (\", \\).
func (s *tsScanner) escape(b *strings.Builder) {
	c := s.src[s.pos]
	switch c {
	case 'u', 'x':
		s.pos++
		if s.pos < len(s.src) && s.src[s.pos] == '{' {
			for s.pos < len(s.src) && s.src[s.pos] != '}' {
				s.pos++
			}
		} else {
			n := 4
			if c == 'x' {
				n = 2
			}
			s.pos += n - 1
		}
		b.WriteByte(' ')
	case 'n', 't', 'r', 'b', 'f', 'v', '0':
		b.WriteByte(' ')
	default:
		b.WriteByte(c)
	}
}

// template reads a template literal: its text goes out as one token, each
// ${...} as "0", and the code inside each ${...} follows it as tokens of
// their own.
func (s *tsScanner) template() error {
	line := s.line
	var b strings.Builder
	at := len(s.out)
	s.out = append(s.out, tsToken{kind: "template", line: line})
	for s.pos++; s.pos < len(s.src); s.pos++ {
		c := s.src[s.pos]
		switch {
		case c == '\\' && s.pos+1 < len(s.src):
			s.pos++
			s.escape(&b)
		case c == '`':
			s.pos++
			s.out[at].text = b.String()
			return nil
		case c == '$' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '{':
			s.pos += 2
			b.WriteString("0")
			if err := s.code(true); err != nil {
				return err
			}
			s.pos--
		default:
			if c == '\n' {
				s.line++
			}
			b.WriteByte(c)
		}
	}
	return fmt.Errorf("line %d: unclosed template literal", line)
}

func (s *tsScanner) regex() error {
	line := s.line
	start := s.pos
	inClass := false
	for s.pos++; s.pos < len(s.src); s.pos++ {
		c := s.src[s.pos]
		switch {
		case c == '\\':
			s.pos++
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '\n':
			return fmt.Errorf("line %d: unclosed regular expression", line)
		case c == '/' && !inClass:
			s.pos++
			for s.pos < len(s.src) && isAlnum(s.src[s.pos]) {
				s.pos++
			}
			s.out = append(s.out, tsToken{kind: "regex", text: s.src[start:s.pos], line: line})
			return nil
		}
	}
	return fmt.Errorf("line %d: unclosed regular expression", line)
}

// What counts as words for people, and where a literal stands.

var (
	// twoWords is text with a word followed by another ("Log out",
	// ": your menu"), not glued to a digit or a dot ("0px 0px",
	// ".a .b").
	twoWords = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_$.#-])\p{L}[\p{L}']*[,;:.!?]?\s+[\p{L}(]`)
	// afterStop is a word after a stop ("; premove", "0, empty").
	afterStop = regexp.MustCompile(`[,;:]\s+\p{Ll}{3,}`)
	// capitalised is text that starts with a capitalised word ("Copy").
	capitalised = regexp.MustCompile(`^\s*\p{Lu}\p{Ll}+`)
	// ignoreMark ends a line whose literals are not words for people, and
	// may say why: "// i18n-ignore: the site's name".
	ignoreMark = regexp.MustCompile(`// i18n-ignore(:.*)?$`)
	// aLetter is text with a letter in it.
	aLetter = regexp.MustCompile(`\p{L}`)
)

// allowedLiterals are the few capitalised or spaced literals that are not
// words for people: keys' names (KeyboardEvent.key) and HTTP's headers.
var allowedLiterals = map[string]bool{
	"Escape": true, "Enter": true, "Tab": true, "Home": true, "End": true, "Backspace": true, "Delete": true,
	"ArrowLeft": true, "ArrowRight": true, "ArrowUp": true, "ArrowDown": true, "PageUp": true, "PageDown": true,
	"Content-Type": true, "Authorization": true, "Bearer ": true, "NaN": true,
}

// machineFuncs take literals that are never shown: selectors, event
// names, attributes' names, storage keys, classes, element names.
var machineFuncs = map[string]bool{
	"querySelector": true, "querySelectorAll": true, "closest": true, "matches": true, "getElementById": true,
	"addEventListener": true, "removeEventListener": true, "createElement": true, "createElementNS": true,
	"getAttribute": true, "removeAttribute": true, "hasAttribute": true, "toggleAttribute": true,
	"getItem": true, "setItem": true, "removeItem": true, "add": true, "remove": true, "toggle": true, "contains": true,
	"matchMedia": true, "import": true, "startsWith": true, "endsWith": true, "includes": true, "split": true, "join": true,
	"indexOf": true, "replace": true, "replaceAll": true, "get": true, "has": true, "delete": true, "set": true,
	"request": true, "fetch": true, "postEvents": true, "Event": true, "CustomEvent": true, "WebSocket": true,
}

// machineKeys are object keys (and attributes) whose values are never
// shown; uiKeys those whose values are read by people.
var (
	machineKeys = map[string]bool{
		"class": true, "id": true, "type": true, "role": true, "name": true, "autocomplete": true, "rel": true,
		"href": true, "src": true, "for": true, "method": true, "inputmode": true, "d": true, "viewBox": true,
		"transform": true, "points": true, "fill": true, "stroke": true, "aria-live": true, "aria-hidden": true,
		"aria-current": true, "aria-expanded": true, "aria-haspopup": true, "aria-controls": true, "aria-labelledby": true,
		"aria-describedby": true, "block": true, "behavior": true, "credentials": true, "value": true, "pattern": true,
		"enterkeyhint": true, "spellcheck": true, "lang": true, "dir": true, "kind": true, "state": true,
	}
	uiKeys = map[string]bool{
		"aria-label": true, "title": true, "placeholder": true, "alt": true, "aria-description": true,
		"aria-roledescription": true, "aria-valuetext": true, "label": true,
	}
	// uiFuncs show their arguments.
	uiFuncs = map[string]bool{
		"confirm": true, "alert": true, "prompt": true, "confirmInPage": true, "append": true, "prepend": true,
		"replaceChildren": true, "after": true, "before": true, "replaceKeepingFocus": true, "createTextNode": true,
	}
	// uiProps are the properties whose assigned values are shown.
	uiProps = map[string]bool{"textContent": true, "innerText": true, "title": true, "placeholder": true, "ariaLabel": true, "label": true, "alt": true}
)

// callee is the function a "(" at the end of toks calls: the identifier
// before it, or before its type arguments (querySelector<HTMLElement>(...)).
func callee(toks []tsToken) string {
	n := len(toks)
	if n < 2 || toks[n-1].text != "(" {
		return ""
	}
	if toks[n-2].kind == "ident" {
		return toks[n-2].text
	}
	if toks[n-2].text != ">" {
		return ""
	}
	for i := n - 3; i >= 1 && i >= n-10; i-- {
		if toks[i].text == "<" {
			if toks[i-1].kind == "ident" {
				return toks[i-1].text
			}
			return ""
		}
	}
	return ""
}

// callFrame is an open bracket: the function it calls ("" for none) and
// which argument the scan is in.
type callFrame struct {
	open  string // "(", "[" or "{"
	fn    string
	arg   int
	first string // the call's first argument when it is a literal
	key   string // in an object, the key whose value the scan is in
}

// foundLiteral is a literal of words outside the catalog.
type foundLiteral struct {
	file string
	line int
	text string
}

// tsLiterals scans one file: the literals of words it holds outside a
// t() or tn() call, and the message ids its t() and tn() calls name.
func tsLiterals(file, src string, classes map[string]bool) (found []foundLiteral, ids []string, err error) {
	toks, err := scanTS(src)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	lines := strings.Split(src, "\n")
	ignored := func(line int) bool { return ignoreMark.MatchString(lines[line-1]) }
	var stack []callFrame
	for i, tok := range toks {
		prev := func(n int) tsToken {
			if i-n < 0 {
				return tsToken{}
			}
			return toks[i-n]
		}
		switch {
		case tok.kind == "punct" && (tok.text == "(" || tok.text == "[" || tok.text == "{"):
			stack = append(stack, callFrame{open: tok.text, fn: callee(toks[:i+1])})
			continue
		case tok.kind == "punct" && (tok.text == ")" || tok.text == "]" || tok.text == "}"):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		case tok.kind == "punct" && tok.text == "," && len(stack) > 0:
			stack[len(stack)-1].arg++
			stack[len(stack)-1].key = ""
			continue
		case tok.kind == "punct" && tok.text == ":" && len(stack) > 0 && stack[len(stack)-1].open == "{" &&
			(prev(1).kind == "ident" || prev(1).kind == "string") && (prev(2).text == "{" || prev(2).text == ","):
			stack[len(stack)-1].key = prev(1).text
			continue
		case tok.kind != "string" && tok.kind != "template":
			continue
		}
		var frame callFrame
		if len(stack) > 0 {
			frame = stack[len(stack)-1]
			if frame.arg == 0 && prev(1).text == "(" {
				stack[len(stack)-1].first = tok.text
			}
		}
		p1, p2 := prev(1), prev(2)
		if p1.text == "(" && p2.kind == "ident" && (p2.text == "t" || p2.text == "tn" || p2.text == "tParts") {
			ids = append(ids, tok.text)
			continue
		}
		if ignored(tok.line) || allowedLiterals[tok.text] || !aLetter.MatchString(tok.text) {
			continue
		}
		if !shownLiteral(tok, p1, p2, prev(3), frame) || (!inUI(p1, p2, prev(3), frame) && classList(tok.text, classes)) {
			continue
		}
		found = append(found, foundLiteral{file: file, line: tok.line, text: tok.text})
	}
	return found, ids, nil
}

// shownLiteral reports whether the literal tok, after p1, p2 and p3 and
// inside frame, is words for people: any text in a place that shows it,
// words (two, or one capitalised) anywhere but a place that never does.
func shownLiteral(tok, p1, p2, p3 tsToken, frame callFrame) bool {
	if inUI(p1, p2, p3, frame) {
		return true
	}
	key := ""
	if frame.open == "{" {
		key = frame.key
	}
	machine := machineFuncs[frame.fn] || (frame.fn == "setAttribute" && (frame.arg == 0 || !uiKeys[frame.first])) ||
		machineKeys[key] || strings.HasPrefix(key, "data-") ||
		slices.Contains([]string{"===", "!==", "==", "!=", "case", "from", "import"}, p1.text) ||
		(p1.text == "=" && p2.text == "className")
	if machine {
		return false
	}
	return twoWords.MatchString(tok.text) || capitalised.MatchString(tok.text) || afterStop.MatchString(tok.text)
}

// inUI reports whether a literal after p1, p2 and p3 in frame stands
// where its text is shown: an element's child, a shown attribute or
// property, a dialog's text.
func inUI(p1, p2, p3 tsToken, frame callFrame) bool {
	key := ""
	if frame.open == "{" {
		key = frame.key
	}
	return (frame.fn == "h" && frame.arg >= 2) || (uiFuncs[frame.fn]) ||
		(frame.fn == "setAttribute" && frame.arg == 1 && uiKeys[frame.first]) ||
		uiKeys[key] ||
		((p1.text == "=" || p1.text == "+=") && uiProps[p2.text] && p3.text == ".")
}

// classList reports whether text is a list of the style sheets' classes
// ("feedback right", "resign danger"), which the pages set as classes.
func classList(text string, classes map[string]bool) bool {
	words := strings.Fields(text)
	for _, w := range words {
		if !classes[w] {
			return false
		}
	}
	return len(words) > 0
}

// styleClasses are the classes the style sheets of src/css name.
func styleClasses(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("src/css/*.css")
	if err != nil || len(files) == 0 {
		t.Fatalf("no style sheets in src/css: %v", err)
	}
	class := regexp.MustCompile(`\.([A-Za-z_][\w-]*)`)
	out := map[string]bool{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range class.FindAllStringSubmatch(string(src), -1) {
			out[m[1]] = true
		}
	}
	return out
}

// clientLiterals scans every file of src/.
func clientLiterals(t *testing.T) (found []foundLiteral, ids map[string][]string) {
	t.Helper()
	files, err := filepath.Glob("src/*.ts")
	if err != nil || len(files) == 0 {
		t.Fatalf("no TypeScript in src/: %v", err)
	}
	ids = map[string][]string{}
	classes := styleClasses(t)
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, used, err := tsLiterals(file, string(src), classes)
		if err != nil {
			t.Fatal(err)
		}
		found = append(found, f...)
		for _, id := range used {
			ids[id] = append(ids[id], file)
		}
	}
	return found, ids
}

// TestNoWordsOutsideCatalog fails on a literal of words for people in the
// client's TypeScript that is not a message of the catalogs: each must be
// a t() or tn() call, or carry a trailing "// i18n-ignore" saying why not.
func TestNoWordsOutsideCatalog(t *testing.T) {
	found, _ := clientLiterals(t)
	for _, f := range found {
		t.Errorf("%s:%d: %q is words for people outside the catalog: use t() or tn() (web/i18n)", f.file, f.line, f.text)
	}
	if len(found) > 0 {
		t.Logf("%d literals outside the catalog", len(found))
	}
}

// serverIDs are the message ids the server's own code and shells name:
// each .T("id") or .N("id") of server/*.go and {{t "id"}} of
// server/*.html (named, they must exist), and every other string literal
// of server/*.go that is an id of ids (a table's ids, used through a
// variable).
func serverIDs(t *testing.T, ids map[string]i18n.Forms) (named, used []string) {
	t.Helper()
	call := regexp.MustCompile(`\.(?:T|N)\("([^"]+)"`)
	shell := regexp.MustCompile(`\{\{t "([^"]+)"\}\}`)
	literal := regexp.MustCompile(`"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"`)
	comment := regexp.MustCompile(`(?m)^\s*//.*$`)
	files, err := filepath.Glob("../server/*.go")
	if err != nil {
		t.Fatal(err)
	}
	html, _ := filepath.Glob("../server/*.html")
	for _, file := range append(files, html...) {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src = comment.ReplaceAll(src, nil)
		for _, re := range []*regexp.Regexp{call, shell} {
			for _, m := range re.FindAllStringSubmatch(string(src), -1) {
				named = append(named, m[1])
			}
		}
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			if _, ok := ids[m[1]]; ok {
				used = append(used, m[1])
			}
		}
	}
	return named, append(used, named...)
}

// TestCatalogIDs: every message id the client's t() and tn() and the
// server's pages name is in the catalogs (TestSiteCatalogsAreComplete in
// internal/i18n checks that every catalog has en's), a tn() names a
// message with plural forms and a t() one without, and every message of
// en.toml is used by one or the other, so that the catalogs hold no
// words nobody reads.
func TestCatalogIDs(t *testing.T) {
	langs, err := i18n.Load(Catalogs())
	if err != nil {
		t.Fatal(err)
	}
	en := langs.Messages(i18n.Default)
	_, client := clientLiterals(t)
	named, used := serverIDs(t, en)
	plural := clientPlurals(t)
	for id, files := range client {
		forms, ok := en[id]
		switch {
		case !ok:
			t.Errorf("%s: t(%q): no such message in en.toml", files[0], id)
		case plural[id] && len(forms) < 2:
			t.Errorf("%s: tn(%q) names a message without plural forms", files[0], id)
		case !plural[id] && len(forms) > 1:
			t.Errorf("%s: t(%q) names a message with plural forms: use tn()", files[0], id)
		}
	}
	for _, id := range named {
		if _, ok := en[id]; !ok {
			t.Errorf("server: %q: no such message in en.toml", id)
		}
	}
	for id := range en {
		if _, ok := client[id]; !ok && !slices.Contains(used, id) && id != i18n.NameID {
			t.Errorf("en.toml: message %s is used by no page", id)
		}
	}
}

// clientPlurals are the ids the client names with tn().
func clientPlurals(t *testing.T) map[string]bool {
	t.Helper()
	re := regexp.MustCompile(`\btn\(\s*"([^"]+)"`)
	files, _ := filepath.Glob("src/*.ts")
	out := map[string]bool{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			out[m[1]] = true
		}
	}
	return out
}

// TestLiteralScan: the scan finds words for people wherever they stand,
// and leaves alone a t() id, a literal marked // i18n-ignore, selectors,
// classes, keys' names, comparisons and imports.
func TestLiteralScan(t *testing.T) {
	for _, tc := range []struct {
		src   string
		found []string
	}{
		{`root.append(h("p", {}, "Hello there"));`, []string{"Hello there"}},
		{`h("button", { type: "button", class: "copy" }, "Copy")`, []string{"Copy"}},
		{`h("section", { class: "chat", "aria-label": "chat" })`, []string{"chat"}},
		{`el.textContent = "done";`, []string{"done"}},
		{`el.setAttribute("aria-label", "moves");`, []string{"moves"}},
		{"const s = `${n} games wait for your move`;", []string{"0 games wait for your move"}},
		{`const reasons = { resign: "by resignation" };`, []string{"by resignation"}},
		{`confirmInPage(t("game.resign.confirm"), t("game.resign"));`, nil},
		{`h("p", {}, "Hello there"); // i18n-ignore`, nil},
		{`h("a", {}, "arbiter"); // i18n-ignore: the site's name`, nil},
		{`document.querySelector("header details.me > summary");`, nil},
		{`document.querySelectorAll<HTMLElement>("main pre");`, nil},
		{`h("li", { class: i > 0 ? "move current" : "move" });`, nil},
		{`if (ev.key === "Escape") close();`, nil},
		{`el.className = ok ? "feedback right" : "feedback";`, nil},
		{`button(t("game.resign"), "resign danger", resign);`, nil},
		{`h("p", {}, "feedback right");`, []string{"feedback right"}},
		{`const s = "feedback wrong";`, []string{"feedback wrong"}},
		{`if (kind === "Real time") x();`, nil},
		{`import { h } from "./dom";`, nil},
		{"el.style.transform = `translate(${x}px, ${y}px)`;", nil},
		{`const re = /^Your move: (\w+) now$/;`, nil},
		{`headers["Content-Type"] = "application/json";`, nil},
		{`const a = 1 / 2, b = "Draw";`, []string{"Draw"}},
		{"let label = `${cell}, empty`; label += \"; premove\";", []string{"0, empty", "; premove"}},
		{`h("span", {}, "\u2699\uFE0E");`, nil},
		{`h("span", {}, "\u{1F3B2} Roll\n");`, []string{"  Roll "}},
	} {
		found, _, err := tsLiterals("test.ts", tc.src, map[string]bool{"feedback": true, "right": true, "resign": true, "danger": true})
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, f := range found {
			texts = append(texts, f.text)
		}
		if !slices.Equal(texts, tc.found) {
			t.Errorf("%s: found %q, want %q", tc.src, texts, tc.found)
		}
	}
}
