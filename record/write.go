package record

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// Write writes the records one after another, each as its tags, a blank
// line, and the moves numbered by turns (one number for a move of every
// seat, in turn order), wrapped at 80 columns and ended by the result. A
// game whose FEN has another seat than the first to move starts with the
// end of a turn, numbered "1...", as PDN writes Black's move: other
// programs then give each move to the seat that made it. Notes stand where
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
		n, first := 2, game.Player(0)
		if d, ok := game.Lookup(r.Get("Game")); ok {
			n, first = d.Players, r.FirstMover()
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
			switch turn, opens := Turn(first, n, ply); {
			case opens:
				mt.put(fmt.Sprintf("%d.", turn))
			case ply == 0 || mt.numberNext:
				mt.put(fmt.Sprintf("%d...", turn))
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
