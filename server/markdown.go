package server

import (
	"html"
	"regexp"
	"strings"
)

// The rules pages are Markdown of a small subset: headings, paragraphs,
// lists (nested by indentation), fenced code blocks (the transcripts,
// with a figure for each position they show: rules_diagram.go), pipe
// tables, block quotes, and inline code, links, strong and emphasis.
// markdownHTML turns that subset into HTML. Every character of the source
// reaches the page escaped: raw HTML in the Markdown is shown as text,
// never run, and a link keeps only an in-page anchor or another rules page.

var (
	headingLine  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	bulletLine   = regexp.MustCompile(`^(\s*)([-*+])\s+(.*)$`)
	orderedLine  = regexp.MustCompile(`^(\s*)(\d{1,9})[.)]\s+(.*)$`)
	tableDivider = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)
	rulesLink    = regexp.MustCompile(`^([a-z0-9-]+)\.md(#[a-z0-9-]*)?$`)
	docsImage    = regexp.MustCompile(`^\.\./img/([a-z0-9-]+\.png)$`)
)

// markdownHTML renders src.
func markdownHTML(src string) string {
	var sb strings.Builder
	renderBlocks(&sb, strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n"))
	return sb.String()
}

// renderBlocks renders lines as a sequence of blocks, each taken by the
// first kind that recognises its first line.
func renderBlocks(sb *strings.Builder, lines []string) {
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case strings.TrimSpace(line) == "":
			i++
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			i = codeBlock(sb, lines, i)
		case headingLine.MatchString(line):
			heading(sb, line)
			i++
		case strings.HasPrefix(line, ">"):
			i = quoteBlock(sb, lines, i)
		case isTableStart(lines, i):
			i = table(sb, lines, i)
		case bulletLine.MatchString(line) || orderedLine.MatchString(line):
			i = list(sb, lines, i)
		default:
			i = paragraph(sb, lines, i)
		}
	}
}

// codeBlock writes a fenced block as preformatted text, as it stands,
// after a diagram of each position it shows with `arbiter show`.
func codeBlock(sb *strings.Builder, lines []string, i int) int {
	indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
	j := i + 1
	for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
		j++
	}
	code := lines[i+1 : j]
	showDiagrams(sb, code)
	sb.WriteString("<pre><code>")
	for _, line := range code {
		sb.WriteString(html.EscapeString(trimIndent(line, indent)))
		sb.WriteByte('\n')
	}
	sb.WriteString("</code></pre>\n")
	return j + 1
}

// trimIndent takes up to n leading spaces off line.
func trimIndent(line string, n int) string {
	for k := 0; k < n && strings.HasPrefix(line, " "); k++ {
		line = line[1:]
	}
	return line
}

func heading(sb *strings.Builder, line string) {
	m := headingLine.FindStringSubmatch(line)
	level := string(rune('0' + len(m[1])))
	sb.WriteString("<h" + level + ` id="` + slug(m[2]) + `">`)
	sb.WriteString(inline(m[2]))
	sb.WriteString("</h" + level + ">\n")
}

// slug is a heading's anchor as GitHub makes it, so that the pages' own
// links ("#52-liberation") work: lower case, punctuation dropped, spaces
// turned into hyphens.
func slug(text string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			sb.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func quoteBlock(sb *strings.Builder, lines []string, i int) int {
	var inner []string
	for ; i < len(lines) && strings.HasPrefix(lines[i], ">"); i++ {
		inner = append(inner, strings.TrimPrefix(strings.TrimPrefix(lines[i], ">"), " "))
	}
	sb.WriteString("<blockquote>\n")
	renderBlocks(sb, inner)
	sb.WriteString("</blockquote>\n")
	return i
}

func isTableStart(lines []string, i int) bool {
	return strings.HasPrefix(strings.TrimSpace(lines[i]), "|") && i+1 < len(lines) && tableDivider.MatchString(lines[i+1])
}

// tableCells splits a table row on its pipes, leaving escaped pipes and
// pipes inside code spans alone.
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	var cells []string
	var cur strings.Builder
	inCode := false
	for k := 0; k < len(row); k++ {
		c := row[k]
		switch {
		case c == '\\' && k+1 < len(row) && row[k+1] == '|':
			cur.WriteByte('|')
			k++
		case c == '`':
			inCode = !inCode
			cur.WriteByte(c)
		case c == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func table(sb *strings.Builder, lines []string, i int) int {
	sb.WriteString("<table>\n<thead><tr>")
	for _, c := range tableCells(lines[i]) {
		sb.WriteString("<th>" + inline(c) + "</th>")
	}
	sb.WriteString("</tr></thead>\n<tbody>\n")
	i += 2
	for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
		sb.WriteString("<tr>")
		for _, c := range tableCells(lines[i]) {
			sb.WriteString("<td>" + inline(c) + "</td>")
		}
		sb.WriteString("</tr>\n")
	}
	sb.WriteString("</tbody>\n</table>\n")
	return i
}

// listMarker reads a list item's first line: its indentation, whether it
// is numbered, and its text.
func listMarker(line string) (indent int, ordered bool, text string, ok bool) {
	if m := bulletLine.FindStringSubmatch(line); m != nil {
		return len(m[1]), false, m[3], true
	}
	if m := orderedLine.FindStringSubmatch(line); m != nil {
		return len(m[1]), true, m[3], true
	}
	return 0, false, "", false
}

// list writes the items that start at the indentation of line i; an
// item's further lines (indented, or running on without a blank line) are
// its own blocks, nested lists included.
func list(sb *strings.Builder, lines []string, i int) int {
	indent, ordered, _, _ := listMarker(lines[i])
	tag := "ul"
	if ordered {
		tag = "ol"
	}
	sb.WriteString("<" + tag + ">\n")
	for i < len(lines) {
		in, ord, text, ok := listMarker(lines[i])
		if !ok || in != indent || ord != ordered {
			break
		}
		item := []string{text}
		content := len(lines[i]) - len(text) // where the item's text starts
		i++
		for i < len(lines) {
			line := lines[i]
			lead := len(line) - len(strings.TrimLeft(line, " "))
			blank := strings.TrimSpace(line) == ""
			if blank {
				// A blank line ends the item unless an indented line follows.
				if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && leading(lines[i+1]) > indent {
					item = append(item, "")
					i++
					continue
				}
				break
			}
			if lead <= indent {
				if _, _, _, isItem := listMarker(line); isItem || item[len(item)-1] == "" {
					break
				}
			}
			item = append(item, trimIndent(line, content))
			i++
		}
		sb.WriteString("<li>")
		listItem(sb, item)
		sb.WriteString("</li>\n")
		if i < len(lines) && strings.TrimSpace(lines[i]) == "" && i+1 < len(lines) {
			if in2, ord2, _, ok2 := listMarker(lines[i+1]); ok2 && in2 == indent && ord2 == ordered {
				i++ // a loose list: a blank line between items
			}
		}
	}
	sb.WriteString("</" + tag + ">\n")
	return i
}

func leading(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// listItem writes an item's text: its first paragraph inline (a tight
// item), the rest as blocks.
func listItem(sb *strings.Builder, item []string) {
	end := 0
	for end < len(item) && strings.TrimSpace(item[end]) != "" {
		if end > 0 {
			if _, _, _, ok := listMarker(item[end]); ok || strings.HasPrefix(strings.TrimSpace(item[end]), "```") {
				break
			}
		}
		end++
	}
	first := make([]string, end)
	for k, line := range item[:end] {
		first[k] = strings.TrimSpace(line)
	}
	sb.WriteString(inline(strings.Join(first, " ")))
	if end < len(item) {
		sb.WriteByte('\n')
		renderBlocks(sb, item[end:])
	}
}

// paragraph joins lines until a blank line or the start of another block.
func paragraph(sb *strings.Builder, lines []string, i int) int {
	var text []string
	for ; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "" || headingLine.MatchString(line) || strings.HasPrefix(strings.TrimSpace(line), "```") ||
			strings.HasPrefix(line, ">") || isTableStart(lines, i) || (len(text) > 0 && (bulletLine.MatchString(line) || orderedLine.MatchString(line))) {
			break
		}
		text = append(text, strings.TrimSpace(line))
	}
	if len(text) == 0 { // a line no block takes: kept as text
		text = append(text, strings.TrimSpace(lines[i]))
		i++
	}
	sb.WriteString("<p>" + inline(strings.Join(text, " ")) + "</p>\n")
	return i
}

// inline renders the spans of one block of text: code, links, strong and
// emphasis; everything else is escaped.
func inline(text string) string {
	var sb strings.Builder
	for i := 0; i < len(text); {
		if n := inlineSpan(&sb, text, i); n > 0 {
			i += n
			continue
		}
		if text[i] == '\\' && i+1 < len(text) && strings.IndexByte("\\`*_[]()#+-.!|<>", text[i+1]) >= 0 {
			sb.WriteString(html.EscapeString(text[i+1 : i+2]))
			i += 2
			continue
		}
		sb.WriteString(html.EscapeString(text[i : i+1]))
		i++
	}
	return sb.String()
}

// inlineSpan writes the span that starts at text[i], if one does, and
// returns the bytes it took (0 for none).
func inlineSpan(sb *strings.Builder, text string, i int) int {
	rest := text[i:]
	switch {
	case rest[0] == '`':
		ticks := len(rest) - len(strings.TrimLeft(rest, "`"))
		end := strings.Index(rest[ticks:], rest[:ticks])
		if end < 0 {
			return 0
		}
		code := strings.TrimSpace(rest[ticks : ticks+end])
		sb.WriteString("<code>" + html.EscapeString(code) + "</code>")
		return 2*ticks + end
	case rest[0] == '[':
		return link(sb, rest)
	case strings.HasPrefix(rest, "!["):
		return picture(sb, rest)
	case strings.HasPrefix(rest, "**") || strings.HasPrefix(rest, "__"):
		return emphasis(sb, rest, rest[:2], "strong")
	case rest[0] == '*' || rest[0] == '_' && (i == 0 || !isWordByte(text[i-1])):
		return emphasis(sb, rest, rest[:1], "em")
	}
	return 0
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// emphasis writes rest's span between two marks, if the mark closes
// before the end and hugs its text.
func emphasis(sb *strings.Builder, rest, mark, tag string) int {
	body := rest[len(mark):]
	end := strings.Index(body, mark)
	if end <= 0 || body[0] == ' ' || body[end-1] == ' ' {
		return 0
	}
	if mark == "_" && end+1 < len(body) && isWordByte(body[end+1]) {
		return 0 // snake_case_words are not emphasis
	}
	sb.WriteString("<" + tag + ">" + inline(body[:end]) + "</" + tag + ">")
	return 2*len(mark) + end
}

// link writes [text](target). Only in-page anchors and other rules pages
// become links; any other target is dropped and the text kept, so that a
// page never sends its reader elsewhere nor runs a script: URL.
func link(sb *strings.Builder, rest string) int {
	text, target, n := bracketed(rest, 1)
	if n == 0 {
		return 0
	}
	href, ok := safeHref(target)
	if !ok {
		sb.WriteString(inline(text))
	} else {
		sb.WriteString(`<a href="` + html.EscapeString(href) + `">` + inline(text) + "</a>")
	}
	return n
}

// bracketed reads "[text](target)" at the start of rest, whose text
// begins after open bytes ("[" or "!["): it returns the text, the target
// and the length read, or 0 when rest holds no such form.
func bracketed(rest string, open int) (text, target string, n int) {
	close := strings.Index(rest, "](")
	if close < open {
		return "", "", 0
	}
	end := strings.IndexByte(rest[close:], ')')
	if end < 0 {
		return "", "", 0
	}
	return rest[open:close], strings.TrimSpace(rest[close+2 : close+end]), close + end + 1
}

// picture writes ![alt](../img/NAME.png), a screenshot of docs/img, as
// an image the server serves under /rules/img/; any other source keeps
// only its text.
func picture(sb *strings.Builder, rest string) int {
	alt, src, n := bracketed(rest, 2)
	if n == 0 {
		return 0
	}
	if m := docsImage.FindStringSubmatch(src); m != nil {
		sb.WriteString(`<img src="/rules/img/` + m[1] + `" alt="` + html.EscapeString(alt) + `">`)
	} else {
		sb.WriteString(inline(alt))
	}
	return n
}

// safeHref maps a link's target to the page's address for it: an anchor
// as it is, a sibling rules page "eximo.md#6-notation" to its route.
func safeHref(target string) (string, bool) {
	if strings.HasPrefix(target, "#") && !strings.ContainsAny(target, `"<> `) {
		return target, true
	}
	if m := rulesLink.FindStringSubmatch(target); m != nil {
		return "/rules/" + m[1] + m[2], true
	}
	return "", false
}
