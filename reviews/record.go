package reviews

import (
	"strings"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/record"
)

// Annotate adds the review to a game's record as comments, one after
// each move reviewed, in the form the records of engine games carry
// their scores (ai.ScoreText, the mover's point of view): the score, the
// better move when the played one was not it, the mark and the tables'
// word, such as {-120 best 11-15 mistake}. Moves the record lacks are
// skipped.
func (r Result) Annotate(rec *record.Record) {
	for _, m := range r.Moves {
		if m.Ply < 0 || m.Ply >= len(rec.Moves) {
			continue
		}
		parts := []string{ai.ScoreText(m.Score)}
		if m.Best != "" && m.Best != m.Move {
			parts = append(parts, "best "+m.Best)
		}
		if m.Mark != "" {
			parts = append(parts, m.Mark)
		}
		if m.Exact != "" {
			parts = append(parts, m.Exact)
		}
		rec.Notes = append(rec.Notes, record.Comment(m.Ply+1, strings.Join(parts, " ")))
	}
}

// cut is s cut to at most n bytes on a rune boundary, with "…" where it
// was cut: a reason kept and shown stays one short line.
func cut(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) <= n {
		return s
	}
	i := n - len("…")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
