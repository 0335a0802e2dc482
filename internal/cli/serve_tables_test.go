package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
)

// buildTableFolder builds the tables of two pieces of a game (some 50 ms)
// into a folder of the test.
func buildTableFolder(t *testing.T, id string) string {
	t.Helper()
	dir, _ := endgametest.Build(t, id, nil, 2)
	return dir
}

// TestServeTablesRefused: each --tables folder that cannot serve is
// refused at start in one line, its path quoted and clipped.
func TestServeTablesRefused(t *testing.T) {
	pommel := buildTableFolder(t, "pommel")
	empty := t.TempDir()
	unbuilt := t.TempDir()
	manifest := `{"format": 1, "game": "pommel", "rules": "hop=friendly", "cells": 45, "pieces": 2, "materials": []}`
	if err := os.WriteFile(filepath.Join(unbuilt, "manifest.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(pommel, "manifest.json")
	long := strings.Repeat("d/", 2100)
	for _, c := range []struct {
		name string
		dirs []string
		want string
	}{
		{"empty path", []string{""}, "--tables is empty"},
		{"over-long path", []string{long}, `d/d/"…: a path of 4200 bytes; at most 4096`},
		{"a NUL byte", []string{"tab\x00les"}, `--tables "tab\x00les": a path with a control character`},
		{"a newline", []string{"tab\nles"}, `--tables "tab\nles": a path with a control character`},
		{"no such folder", []string{filepath.Join(empty, "nothing")}, "no such folder"},
		{"a file", []string{file}, "not a folder"},
		{"no tables", []string{empty}, "holds no endgame tables (no manifest.json): build them with arbiter solve"},
		{"a build stopped before its first table", []string{unbuilt}, "holds no table yet"},
		{"the same game and rules twice", []string{pommel, pommel}, "both of pommel (hop=friendly)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sf := serveFlags{tableDirs: c.dirs}
			err := sf.openTables()
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 400 {
				t.Errorf("--tables %.100q: %v; want one line saying %q", c.dirs, err, c.want)
			}
		})
	}
}

// TestServeTablesOfTwoGames: folders of two games (or two boards) are
// taken together, each for its own game, and the --tables flag reaches
// them.
func TestServeTablesOfTwoGames(t *testing.T) {
	sf := serveFlags{tableDirs: []string{buildTableFolder(t, "pommel-76"), buildTableFolder(t, "pommel")}}
	if err := sf.openTables(); err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, tables := range sf.tables {
		games = append(games, tables.Manifest().Game)
	}
	if strings.Join(games, " ") != "pommel-76 pommel" {
		t.Errorf("opened %v, want pommel-76 and pommel", games)
	}
}

// TestServeWithTables runs "arbiter serve --tables DIR": the analysis of a
// position the tables hold answers with their value.
func TestServeWithTables(t *testing.T) {
	dir := buildTableFolder(t, "pommel")
	const fen = "W:WKa4:Bc6"
	tables, err := endgame.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tables.Probe(mustParse(t, "pommel", fen))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--tables", dir)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatalf("serve printed nothing: %s", logs.String())
	}
	resp, err := http.Get("http://" + listensOn(t, lines.Text()) + "/api/analysis/pommel?fen=" + fen)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		Tables *struct {
			Value string `json:"value"`
			Plies int    `json:"plies"`
		} `json:"tables"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.Tables == nil || v.Tables.Value+" "+strconv.Itoa(v.Tables.Plies) != want.String() {
		t.Errorf("the analysis of %s answers tables %+v (%v), want %v", fen, v.Tables, err, want)
	}
}

func mustParse(t *testing.T, id, fen string) game.State {
	t.Helper()
	g, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
