package rulespage

import (
	"encoding/json"
	"html"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/docs"
	"github.com/arbiter-games/arbiter/game"
)

func TestParseShowLine(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		ok         bool
		want       showCommand
	}{
		{"the start", "$ arbiter show eximo", true, showCommand{game: "eximo", options: map[string]string{}}},
		{"a FEN and moves", "$ arbiter show pommel --from 'W:Wc4:Bc5,d6' c4xc6xe5", true,
			showCommand{game: "pommel", options: map[string]string{}, fen: "W:Wc4:Bc5,d6", moves: []string{"c4xc6xe5"}}},
		{"options, and output filtered", "$ arbiter show pommel -o maxplies=2 d2-d3 d6-d5 | tail -n 3", true,
			showCommand{game: "pommel", options: map[string]string{"maxplies": "2"}, moves: []string{"d2-d3", "d6-d5"}}},
		{"the empty board", "$ arbiter show punt-match --from 'W:' | head -n 8", true,
			showCommand{game: "punt-match", options: map[string]string{}, fen: "W:"}},
		{"another command", "$ arbiter moves pommel", false, showCommand{}},
		{"output", "White to move", false, showCommand{}},
		{"a flag the pages do not use", "$ arbiter show pommel --flip", false, showCommand{}},
		{"an open quote", "$ arbiter show pommel --from 'W:Wc4", false, showCommand{}},
	} {
		got, ok := parseShowLine(tc.line)
		if ok != tc.ok || got.game != tc.want.game || got.fen != tc.want.fen || !slices.Equal(got.moves, tc.want.moves) ||
			(ok && !maps.Equal(got.options, tc.want.options)) {
			t.Errorf("%s: %+v %v, want %+v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDiagrams(t *testing.T) {
	r := New(testPaths)
	for _, tc := range []struct{ name, src, want string }{
		{"a position, and a line the rules refuse", "```\n$ arbiter show pommel --from 'W:Wd3:Bd4'\n$ arbiter show pommel --from 'W:Wzz9'\n```",
			`<figure class="diagram" data-game="pommel" data-board="hexcol45" data-fen="W:Wd3:Bd4" data-to-move="0" ` +
				`data-stacks="{&#34;d3&#34;:&#34;w&#34;,&#34;d4&#34;:&#34;b&#34;}"><figcaption>White to move. <code>W:Wd3:Bd4</code></figcaption></figure>` + "\n"},
		{"after moves, in a list item", "- see:\n\n  ```\n  $ arbiter show checkers-2011 --from 'W:c3=w,d4=b,h8=B' c3xe5\n  ```",
			"<ul>\n<li>\n<p>see:</p>\n" +
				`<figure class="diagram" data-game="checkers-2011" data-board="square8x8" data-fen="B:e5=bw,h8=B" data-to-move="1" ` +
				`data-stacks="{&#34;e5&#34;:&#34;bw&#34;,&#34;h8&#34;:&#34;B&#34;}"><figcaption>After c3xe5: Black to move. <code>B:e5=bw,h8=B</code></figcaption></figure>` + "\n</li>\n</ul>\n"},
		{"a game that is over", "```\n$ arbiter show checkers-2011 --from 'W:a7=w,b7=b,a8=b,b8=b'\n```",
			`<figure class="diagram" data-game="checkers-2011" data-board="square8x8" data-fen="W:a7=w,b7=b,a8=b,b8=b" data-to-move="0" ` +
				`data-stacks="{&#34;a7&#34;:&#34;w&#34;,&#34;a8&#34;:&#34;b&#34;,&#34;b7&#34;:&#34;b&#34;,&#34;b8&#34;:&#34;b&#34;}">` +
				`<figcaption>Black wins: White has no legal move. <code>W:a7=w,b7=b,a8=b,b8=b</code></figcaption></figure>` + "\n"},
		{"not in an indented block nor in text", "    $ arbiter show pommel\n\n$ arbiter show pommel",
			"<pre><code>$ arbiter show pommel\n</code></pre>\n<p>$ arbiter show pommel</p>\n"},
	} {
		got, err := r.HTML([]byte(tc.src))
		if err != nil || got != tc.want {
			t.Errorf("%s:\n got %q %v\nwant %q", tc.name, got, err, tc.want)
		}
	}
}

var figureTag = regexp.MustCompile(`<figure class="diagram" data-game="([^"]*)" data-board="[^"]*" data-fen="([^"]*)" data-to-move="\d+" data-stacks="([^"]*)">`)

// TestRulesDiagrams: every `arbiter show` line of the rules pages draws
// its position (none is refused), each game's start is drawn, and so is
// a position of each game with a capture to play (in Punt, which has
// none, a move onto a pile).
func TestRulesDiagrams(t *testing.T) {
	start, capture := map[string]bool{}, map[string]bool{}
	files, err := fs.Glob(docs.Rules(), "*.md")
	if err != nil {
		t.Fatal(err)
	}
	r := New(testPaths)
	for _, file := range files {
		src, err := fs.ReadFile(docs.Rules(), file)
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, line := range strings.Split(string(src), "\n") {
			if cmd, ok := parseShowLine(line); ok {
				lines++
				if cmd.fen == "" && len(cmd.moves) == 0 {
					start[cmd.game] = true
				}
			}
		}
		page, err := r.HTML(src)
		if err != nil {
			t.Fatal(err)
		}
		figures := figureTag.FindAllStringSubmatch(page, -1)
		if len(figures) != lines || lines == 0 {
			t.Errorf("%s: %d diagrams for %d show lines", file, len(figures), lines)
		}
		for _, f := range figures {
			if canCaptureOrPile(t, f[1], html.UnescapeString(f[2]), html.UnescapeString(f[3])) {
				capture[f[1]] = true
			}
		}
	}
	for _, d := range game.All() {
		if !start[d.ID] || !capture[d.ID] {
			t.Errorf("%s: start drawn %v, a capture drawn %v", d.ID, start[d.ID], capture[d.ID])
		}
	}
}

// canCaptureOrPile reports whether the position of a figure has a legal
// capture, or a move onto a pile that its stacks show.
func canCaptureOrPile(t *testing.T, id, fen, stacksJSON string) bool {
	t.Helper()
	rules, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s %s: %v", id, fen, err)
	}
	var stacks map[string]string
	if err := json.Unmarshal([]byte(stacksJSON), &stacks); err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(game.MoveTexts(st), func(m string) bool { return takesOrPiles(m, stacks) })
}

// takesOrPiles reports whether move captures ("x") or lands on a cell
// that stacks hold (Punt's way of meeting another piece).
func takesOrPiles(move string, stacks map[string]string) bool {
	if strings.Contains(move, "x") {
		return true
	}
	route, _, _ := strings.Cut(move, "@")
	cells := strings.Split(route, "-")
	return stacks[cells[len(cells)-1]] != ""
}
