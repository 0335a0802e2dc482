package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestPuzzlePages: /puzzles and /puzzles/{game} are the shell the script
// draws, with the hashed bundle; a game that does not exist is a 404
// page naming those that do.
func TestPuzzlePages(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, tc := range []struct {
		path, want string
		status     int
	}{
		{"/puzzles", `data-page="puzzles"`, http.StatusOK},
		{"/puzzles/pommel-76?id=x", `data-page="puzzles"`, http.StatusOK},
		{"/puzzles/nope", "the games are checkers-2011, eximo", http.StatusNotFound},
	} {
		resp, err := http.Get(ts.http.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(body)
		if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %s, want %d", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.status)
		}
		if !strings.Contains(page, tc.want) {
			t.Errorf("GET %s: want %q in\n%s", tc.path, tc.want, page)
		}
		if tc.status == http.StatusOK && !strings.Contains(page, `src="`+hashedAsset(t, "app.js")+`"`) {
			t.Errorf("GET %s: the bundle is not linked by its hashed name", tc.path)
		}
	}
}
