package rulespage

import (
	"strings"
	"testing"
)

func TestHTML(t *testing.T) {
	r := New(testPaths)
	for _, tc := range []struct{ name, src, want string }{
		{"heading with GitHub's anchor", "## 5.2 Liberation: `x`", `<h2 id="52-liberation-x">5.2 Liberation: <code>x</code></h2>` + "\n"},
		{"headings of the same text", "# A_b é\n# A_b é", `<h1 id="a_b-é">A_b é</h1>` + "\n" + `<h1 id="a_b-é-1">A_b é</h1>` + "\n"},
		{"paragraph keeps its lines", "one\ntwo", "<p>one\ntwo</p>\n"},
		{"raw html shown as text", `<script>alert("x")</script> & <b>`, "<p>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;</p>\n"},
		{"html block shown as text", "<div>\nhi\n</div>", "<p>&lt;div&gt;\nhi\n&lt;/div&gt;</p>\n"},
		{"inline html shown as text", `a <b onclick="x()">b</b> c`, "<p>a &lt;b onclick=&#34;x()&#34;&gt;b&lt;/b&gt; c</p>\n"},
		{"html in a code block is escaped", "```\n<i>w</i>  b\n```", "<pre><code>&lt;i&gt;w&lt;/i&gt;  b\n</code></pre>\n"},
		{"code block keeps spacing", "```text\n 8  .  w\n    a  b\n```", `<pre><code class="language-text"> 8  .  w` + "\n    a  b\n</code></pre>\n"},
		{"inline code", "run `a <b> | c`", "<p>run <code>a &lt;b&gt; | c</code></p>\n"},
		{"strong, emphasis, strikethrough", "**bold** and *it* and _us_ but snake_case_word ~~gone~~", "<p><strong>bold</strong> and <em>it</em> and <em>us</em> but snake_case_word <del>gone</del></p>\n"},
		{"anchor link", "[Example 1](#example-1)", `<p><a href="#example-1">Example 1</a></p>` + "\n"},
		{"rules page link", "[Eximo](eximo.md#6-notation)", `<p><a href="/rules/eximo#6-notation">Eximo</a></p>` + "\n"},
		{"reference link", "[Punt][p]\n\n[p]: punt.md", `<p><a href="/rules/punt">Punt</a></p>` + "\n"},
		{"outside link keeps only its text", "[the *site*](https://example.com/x)", "<p>the <em>site</em></p>\n"},
		{"script link keeps only its text", `[x](javascript:alert(1))`, "<p>x</p>\n"},
		{"autolink keeps only its text", "<https://example.com/?a=1&b=2> <me@example.com>", "<p>https://example.com/?a=1&amp;b=2 me@example.com</p>\n"},
		{"bullet list", "- a\n- b\n  more", "<ul>\n<li>a</li>\n<li>b\nmore</li>\n</ul>\n"},
		{"nested list", "- a\n  - b\n- c", "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n<li>c</li>\n</ul>\n"},
		{"ordered list", "1. **A.** one\n   two\n2. three", "<ol>\n<li><strong>A.</strong> one\ntwo</li>\n<li>three</li>\n</ol>\n"},
		{"table, aligned without style", "| a | `b\\|c` |\n|:-:|--:|\n| <x> | 2 |",
			"<table>\n<thead>\n<tr>\n<th align=\"center\">a</th>\n<th align=\"right\"><code>b|c</code></th>\n</tr>\n</thead>\n" +
				"<tbody>\n<tr>\n<td align=\"center\">&lt;x&gt;</td>\n<td align=\"right\">2</td>\n</tr>\n</tbody>\n</table>\n"},
		{"quote", "> said\n> twice", "<blockquote>\n<p>said\ntwice</p>\n</blockquote>\n"},
		{"unclosed marks stay text", "a * b ` c [d", "<p>a * b ` c [d</p>\n"},
		{"a screenshot of docs/img", "![the start](../img/pommel-start.png)", `<p><img src="/rules/img/pommel-start.png" alt="the start"></p>` + "\n"},
		{"another image keeps only its text", "![x <y>](https://example.com/a.png) ![z](../img/../../a.png)", "<p>x &lt;y&gt; z</p>\n"},
	} {
		got, err := r.HTML([]byte(tc.src))
		if err != nil || got != tc.want {
			t.Errorf("%s:\n got %q %v\nwant %q", tc.name, got, err, tc.want)
		}
		checkSafe(t, strings.ReplaceAll(got, "https://example.com", ""))
	}
}
