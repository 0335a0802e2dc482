package server

import (
	"encoding/json"
	"html"
	"io/fs"
	"maps"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/docs"
	"github.com/arbiter-games/arbiter/game"
)

var figureTag = regexp.MustCompile(`<figure class="diagram" data-game="([^"]*)" data-board="([^"]*)" data-fen="([^"]*)" data-to-move="(\d+)" data-stacks="([^"]*)">`)

// TestRulesDiagrams: the diagrams of every rules page (package rulespage
// draws them, and tests which) show their positions as this server's API
// shows them to the game pages: the same board, stacks and seat to move,
// which the page's script draws alike.
func TestRulesDiagrams(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	files, err := fs.Glob(docs.Rules(), "*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		path := "/rules/" + strings.TrimSuffix(file, ".md")
		code, body := ts.do("GET", path, "", nil)
		figures := figureTag.FindAllStringSubmatch(string(body), -1)
		if code != http.StatusOK || len(figures) == 0 {
			t.Errorf("GET %s: %d, %d diagrams", path, code, len(figures))
		}
		for _, f := range figures {
			checkDiagram(t, path, f[1], f[2], html.UnescapeString(f[3]), f[4], html.UnescapeString(f[5]))
		}
	}
}

// checkDiagram compares a figure's data with position() of its FEN.
func checkDiagram(t *testing.T, path, id, boardID, fen, toMove, stacksJSON string) {
	t.Helper()
	rules, err := game.New(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %s %s: %v", path, id, fen, err)
	}
	want, err := position(st, 0)
	if err != nil {
		t.Fatal(err)
	}
	var stacks map[string]string
	if err := json.Unmarshal([]byte(stacksJSON), &stacks); err != nil {
		t.Fatal(err)
	}
	if boardID != want.Board || toMove != strconv.Itoa(want.ToMove) || !maps.Equal(stacks, want.Stacks) {
		t.Errorf("%s: %s %s drawn as %s %s %v, want %s %d %v", path, id, fen, boardID, toMove, stacks, want.Board, want.ToMove, want.Stacks)
	}
}
