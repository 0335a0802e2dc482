package rulespage

import (
	"strings"
	"testing"
)

// TestTranscriptsInWords: a transcript of the program reaches the page
// in words, never as a shell: its `show` lines as diagrams that link to
// the analysis board (with the options, and not for a finished game),
// its `moves`, `fen` and `perft` lines as a line each, its refusals as
// such; a code block that is no transcript stays as it is.
func TestTranscriptsInWords(t *testing.T) {
	r := New(Paths{Pages: "/rules/", Images: "/rules/img/", Analysis: "/analysis/"})
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"a position and its moves", "```\n$ arbiter show pommel --from 'W:Wd3:Bd4'\n (the board)\n$ arbiter moves pommel --from 'W:Wd3:Bd4'\nd3xd5\n```",
			[]string{`<figcaption>White to move. <code>W:Wd3:Bd4</code> <a class="try" href="/analysis/pommel?fen=W%3AWd3%3ABd4">Try this position</a></figcaption></figure>`,
				`<p class="program-answer">Legal moves: <code class="legal-moves">d3xd5</code></p>`}},
		{"options, moves and a filter", "```\n$ arbiter show pommel -o hop=any -o maxplies=9 --from 'W:We1,e3:Be2'\n$ arbiter moves pommel --from 'W:We1,e3:Be2' -o hop=any e1-e4 | grep d\nd7-d6\nd7-d8\n```",
			[]string{`href="/analysis/pommel?fen=W%3AWe1%2Ce3%3ABe2&amp;options=hop%3Dany%2Cmaxplies%3D9"`,
				`Legal moves (after e1-e4; with hop=any; those with d): <code class="legal-moves">d7-d6, d7-d8</code>`}},
		{"a refusal, with its exit status", "```\n$ arbiter moves eximo c3-c5; echo \"exit status $?\"\narbiter: move 1 \"c3-c5\" is illegal\nexit status 1\n```",
			[]string{`<p class="program-answer refused">Refused (after c3-c5): <code class="legal-moves">move 1 &#34;c3-c5&#34; is illegal</code></p>`}},
		{"a refused FEN, and a count", "```\n$ arbiter fen eximo --from 'B:Wa5:Bd8'\narbiter: bad FEN\n$ arbiter perft eximo 1 --divide\nc3-c4 1\n```",
			[]string{`Refused: <code class="legal-moves">bad FEN</code>`, `Move sequences counted (1 move deep, by first move): <code class="legal-moves">c3-c4 1</code>`}},
		{"a finished game: no link", "```\n$ arbiter show checkers-2011 --from 'W:a7=w,b7=b,a8=b,b8=b'\n```",
			[]string{`<figcaption>Black wins: White has no legal move. <code>W:a7=w,b7=b,a8=b,b8=b</code></figcaption>`}},
		{"no moves left", "```\n$ arbiter moves eximo --from 'W:Wa5:Bd7' \n\n```", []string{`Legal moves: <code class="legal-moves">none</code>`}},
		{"not a transcript", "```\nW:a1=w\n$ arbiter show pommel\n```", []string{"<pre><code>W:a1=w\n$ arbiter show pommel\n</code></pre>"}},
	} {
		got, err := r.HTML([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tc.want {
			if !strings.Contains(got, want) {
				t.Errorf("%s:\n got %s\nwant it to hold %s", tc.name, got, want)
			}
		}
		if tc.name != "not a transcript" && (strings.Contains(got, "$ ") || strings.Contains(got, "exit status") || strings.Contains(got, "<pre>")) {
			t.Errorf("%s: the shell shows: %s", tc.name, got)
		}
		if tc.name == "a finished game: no link" && strings.Contains(got, "Try this position") {
			t.Errorf("%s: a link to try a finished game", tc.name)
		}
	}
}
