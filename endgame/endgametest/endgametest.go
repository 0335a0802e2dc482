// Package endgametest builds small endgame tables for the tests of the
// packages that read them (ai, uci, server, the command line): real
// tables, built by endgame.Build into the test's temporary folder. Two
// pieces of Pommel take some 50 ms, three some 2 s.
package endgametest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
)

// Build builds the tables of up to pieces pieces of the game id with
// options into a temporary folder of t, and returns the folder and the
// tables opened for that game.
func Build(t testing.TB, id string, options map[string]string, pieces int) (string, *endgame.Tables) {
	t.Helper()
	g, err := game.New(id, options)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := endgame.Build(context.Background(), endgame.Config{Game: g, Pieces: pieces, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	tables, err := endgame.Open(dir, g)
	if err != nil {
		t.Fatal(err)
	}
	return dir, tables
}

// Damage flips the last byte of the table file name in dir, so that its
// data no longer matches its checksum, as a disk that went bad would.
func Damage(t testing.TB, dir, name string) {
	t.Helper()
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ProbeFEN is what tables say of the position fen of their game g.
func ProbeFEN(t testing.TB, tables *endgame.Tables, g game.Game, fen string) endgame.Value {
	t.Helper()
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tables.Probe(s)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return v
}
