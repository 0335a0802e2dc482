package terminal

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/arbiter-games/arbiter/internal/savefile"
	"github.com/arbiter-games/arbiter/play"
	"github.com/arbiter-games/arbiter/record"
)

// RecordFile keeps a game in a record file, the other games of the file
// untouched: the play.Keeper of terminal play. A change it could not
// write is refused, so the game at the terminal is always the game saved.
//
// A game loaded from the file is written back in its own place only while
// nothing saved is lost: it was unfinished and still has every move it
// was loaded with. Taking back a loaded move, or going on from a finished
// game, writes the new line as a new game at the end of the file, and the
// original stays as it was. Looking at a game writes nothing.
type RecordFile struct {
	path string
	// index is the game's place in the file; -1 adds it at the end on the
	// first write.
	index int
	// loaded are the moves the game had in the file, while it may still
	// be written in place; nil once it is a new game.
	loaded []string
}

// NewGameFile keeps a new game in path, added at the end of the file on
// the first change.
func NewGameFile(path string) *RecordFile { return &RecordFile{path: path, index: -1} }

// LoadedGameFile keeps game index (0-based) of path, read as r, in its
// place while nothing saved is lost.
func LoadedGameFile(path string, index int, r *record.Record) *RecordFile {
	rf := &RecordFile{path: path, index: index, loaded: slices.Clone(r.Moves)}
	if tag := r.Get("Result"); tag != "" && tag != "*" {
		rf.index, rf.loaded = -1, nil // a finished game is never rewritten
	}
	return rf
}

// saveError is a change the record file could not keep; the terminal
// says what was therefore not done.
type saveError struct{ err error }

func (e *saveError) Error() string { return "could not save the game: " + e.err.Error() }
func (e *saveError) Unwrap() error { return e.err }

// Keep writes the record after c into the file; offers, which the record
// does not show, write nothing. The game's place in the file changes only
// once the file is written, so that a refused change leaves it as it was.
func (rf *RecordFile) Keep(c play.Change) error {
	if !c.Kind.Recorded() {
		return nil
	}
	next := *rf
	if next.loaded != nil && !isPrefix(next.loaded, c.Record.Moves) {
		next.index, next.loaded = -1, nil
	}
	if err := next.write(c.Record); err != nil {
		return &saveError{err}
	}
	*rf = next
	return nil
}

// write writes r into the file, in the game's place.
func (rf *RecordFile) write(r *record.Record) error {
	old, err := os.ReadFile(rf.path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	recs, err := record.Read(bytes.NewReader(old))
	if err != nil {
		return fmt.Errorf("not saving into %s, which is not a record file this game can be added to: %w", rf.path, err)
	}
	if len(recs) == 0 && len(bytes.TrimSpace(old)) > 0 {
		// No game yet, but text (comments) that no record holds: keep it
		// as it is and add the game after it.
		rf.index = 0
		return savefile.WriteAtomic(rf.path, func(w io.Writer) error {
			if _, err := w.Write(append(bytes.TrimRight(old, " \t\r\n"), "\n\n"...)); err != nil {
				return err
			}
			return record.Write(w, r)
		})
	}
	if rf.index < 0 || rf.index >= len(recs) {
		rf.index = len(recs)
		recs = append(recs, r)
	} else {
		recs[rf.index] = r
	}
	return savefile.WriteAtomic(rf.path, func(w io.Writer) error { return record.Write(w, recs...) })
}

// isPrefix reports whether every move of prefix starts moves.
func isPrefix(prefix, moves []string) bool {
	return len(prefix) <= len(moves) && slices.Equal(prefix, moves[:len(prefix)])
}
