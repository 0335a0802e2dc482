package cli

import (
	"fmt"
	"net/http"
	"slices"
	"syscall"
	"testing"
)

// TestServeKeepsAConditionalReplyThroughSIGKILL: once the opponent's
// expected move is acknowledged, the reply is stored with it; a serve
// process killed with SIGKILL right after shows, restarted on the same
// folder, both moves and the rest of the line.
func TestServeKeepsAConditionalReplyThroughSIGKILL(t *testing.T) {
	dir := t.TempDir()
	p := startServe(t, dir)
	code, g, err := p.post("/api/games", "", map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "days": 3})
	if err != nil || code != 201 {
		t.Fatalf("create: %d %v", code, err)
	}
	id := g["id"].(string)
	var tokens []string
	for _, s := range g["seats"].([]any) {
		tokens = append(tokens, s.(map[string]any)["token"].(string))
	}
	steps := []struct {
		path  string
		token string
		body  any
	}{
		{"/moves", tokens[0], map[string]any{"move": "a1-a3", "ply": 0}},
		{"/conditional", tokens[0], map[string]any{"moves": []string{"g6-g4", "b1-b3", "g5-g3", "g2xg5"}}},
		{"/moves", tokens[1], map[string]any{"move": "g6-g4", "ply": 1}},
	}
	for _, s := range steps {
		if code, v, err := p.post("/api/games/"+id+s.path, s.token, s.body); err != nil || code != 200 {
			t.Fatalf("POST %s: %d %v %v", s.path, code, v, err)
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
	q := startServe(t, dir)
	code, v, err := q.get("/api/games/" + id)
	if err != nil || code != 200 {
		t.Fatalf("after the restart: %d %v", code, err)
	}
	if got := fmt.Sprint(v["moves"]); got != "[a1-a3 g6-g4 b1-b3]" {
		t.Errorf("after SIGKILL and a restart the moves are %s, want the reply b1-b3 kept", got)
	}
	req, _ := http.NewRequest("GET", q.base+"/api/games/"+id+"/conditional", nil)
	req.Header.Set("Authorization", "Bearer "+tokens[0])
	code, line, err := q.answer(http.DefaultClient.Do(req))
	moves, _ := line["moves"].([]any)
	if err != nil || code != 200 || !slices.Equal(moves, []any{"g5-g3", "g2xg5"}) {
		t.Errorf("the line after the restart: %d %v %v, want the rest of it", code, line, err)
	}
}
