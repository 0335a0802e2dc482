package endgame

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

// TestOpenFolder: a folder opens for the game and rules its manifest
// names, whatever they are, and answers as Open does; a folder without
// tables, or naming a game or rules that do not exist, is refused.
func TestOpenFolder(t *testing.T) {
	for _, c := range []struct {
		id      string
		options map[string]string
	}{{"pommel", nil}, {"pommel-76", map[string]string{"hop": "any"}}} {
		t.Run(c.id, func(t *testing.T) {
			g, err := game.New(c.id, c.options)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if _, err := Build(context.Background(), Config{Game: g, Pieces: 2, Dir: dir, Workers: 1}); err != nil {
				t.Fatal(err)
			}
			tables, err := OpenFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			if m := tables.Manifest(); m.Game != c.id || m.Rules != RulesOf(g) {
				t.Errorf("opened as %s (%s), want %s (%s)", m.Game, m.Rules, c.id, RulesOf(g))
			}
			fen := tables.Manifest().Materials[0].LongestWinFEN
			s, err := g.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			if v, err := tables.Probe(s); err != nil || v.Kind != Win {
				t.Errorf("%s: %v %v, want a win", fen, v, err)
			}
		})
	}
}

func TestOpenFolderRefuses(t *testing.T) {
	tests := []struct {
		name, manifest, want string
	}{
		{"no manifest", "", "holds no endgame tables"},
		{"unknown game", `{"format": 1, "game": "chess", "rules": ""}`, "chess"},
		{"unknown rules", `{"format": 1, "game": "pommel", "rules": "hop=sideways"}`, "sideways"},
		{"malformed rules", `{"format": 1, "game": "pommel", "rules": "hop"}`, "key=value"},
		{"not JSON", `{"format": 1,`, "manifest.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.manifest != "" {
				if err := os.WriteFile(filepath.Join(dir, manifestName), []byte(tc.manifest), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := OpenFolder(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
