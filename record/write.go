package record

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// Write writes the records one after another, each as its tags, a blank
// line, and the moves numbered by rounds (one number for each turn of every
// seat), wrapped at 80 columns and ended by the result.
func Write(w io.Writer, recs ...*Record) error {
	bw := bufio.NewWriter(w)
	for i, r := range recs {
		if i > 0 {
			bw.WriteString("\n")
		}
		for _, t := range r.Tags {
			fmt.Fprintf(bw, "[%s \"%s\"]\n", t.Name, escape(t.Value))
		}
		bw.WriteString("\n")
		n := 2
		if d, ok := game.Lookup(r.Get("Game")); ok {
			n = d.Players
		}
		var line strings.Builder
		put := func(tok string) {
			if line.Len() > 0 && line.Len()+1+len(tok) > 80 {
				bw.WriteString(line.String() + "\n")
				line.Reset()
			}
			if line.Len() > 0 {
				line.WriteByte(' ')
			}
			line.WriteString(tok)
		}
		for ply, m := range r.Moves {
			if ply%n == 0 {
				put(fmt.Sprintf("%d.", ply/n+1))
			}
			put(m)
		}
		result := r.Get("Result")
		if result == "" {
			result = "*"
		}
		put(result)
		bw.WriteString(line.String() + "\n")
	}
	return bw.Flush()
}

func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(s)
}
