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
// seat), wrapped at 80 columns and ended by the result. Notes stand where
// they were read: before the tags, between the moves, after the result.
func Write(w io.Writer, recs ...*Record) error {
	bw := bufio.NewWriter(w)
	for i, r := range recs {
		if i > 0 {
			bw.WriteString("\n")
		}
		notes := r.Notes
		for len(notes) > 0 && notes[0].Ply == BeforeTags {
			bw.WriteString(notes[0].Text + "\n")
			notes = notes[1:]
		}
		for _, t := range r.Tags {
			fmt.Fprintf(bw, "[%s \"%s\"]\n", t.Name, escape(t.Value))
		}
		bw.WriteString("\n")
		n := 2
		if d, ok := game.Lookup(r.Get("Game")); ok {
			n = d.Players
		}
		mt := movetext{w: bw}
		putNotes := func(ply int) {
			for len(notes) > 0 && notes[0].Ply <= ply {
				mt.note(notes[0].Text)
				notes = notes[1:]
			}
		}
		for ply, m := range r.Moves {
			putNotes(ply)
			switch {
			case ply%n == 0:
				mt.put(fmt.Sprintf("%d.", ply/n+1))
			case mt.numberNext:
				mt.put(fmt.Sprintf("%d...", ply/n+1))
			}
			mt.numberNext = false
			mt.put(m)
		}
		putNotes(len(r.Moves))
		result := r.Get("Result")
		if result == "" {
			result = "*"
		}
		mt.put(result)
		putNotes(AfterResult)
		mt.flush()
	}
	return bw.Flush()
}

// movetext writes tokens wrapped at 80 columns.
type movetext struct {
	w    *bufio.Writer
	line strings.Builder
	// numberNext asks for a move number before the next move, as PDN
	// does after a comment or variation in the middle of a round.
	numberNext bool
}

func (mt *movetext) put(tok string) {
	if mt.line.Len() > 0 && mt.line.Len()+1+len(tok) > 80 {
		mt.flush()
	}
	if mt.line.Len() > 0 {
		mt.line.WriteByte(' ')
	}
	mt.line.WriteString(tok)
}

// note writes a note as it was read. A ; comment or a % line runs to the
// end of its line, and a % line must also begin one.
func (mt *movetext) note(text string) {
	switch {
	case strings.HasPrefix(text, "%"):
		mt.flush()
		mt.w.WriteString(text + "\n")
	case strings.HasPrefix(text, ";"):
		mt.put(text)
		mt.flush()
	default:
		mt.put(text)
	}
	mt.numberNext = true
}

func (mt *movetext) flush() {
	if mt.line.Len() > 0 {
		mt.w.WriteString(mt.line.String() + "\n")
		mt.line.Reset()
	}
}

func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(s)
}
