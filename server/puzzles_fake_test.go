package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/game"
)

// fakePuzzles stands in for the puzzle API until it is merged: two
// puzzles of checkers-2011 from its start, their lines the first legal
// move each time.
func fakePuzzles(t *testing.T) func(http.Handler) http.Handler {
	rules, err := game.New("checkers-2011", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.Start()
	fen := st.FEN()
	var line []string
	for range 3 {
		m := game.MoveTexts(st)[0]
		line = append(line, m)
		if err := game.PlayMoves(st, []string{m}); err != nil {
			t.Fatal(err)
		}
	}
	puzzles := map[string]map[string]any{
		"p1": {"id": "p1", "game": "checkers-2011", "fen": fen, "solution": line, "themes": []string{"opening"}, "rating": 1400, "plays": 3, "source": "test", "sourceGame": "g1", "ply": 0, "table": "", "player": nil},
		"p2": {"id": "p2", "game": "checkers-2011", "fen": fen, "solution": line[:1], "themes": []string{"short"}, "rating": 1600, "plays": 0, "source": "test", "sourceGame": "", "ply": 0, "table": "win in 9", "player": nil},
	}
	var mu sync.Mutex
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case r.URL.Path == "/api/puzzles":
				writeJSON(w, 200, map[string]any{"games": []any{
					map[string]any{"game": "checkers-2011", "name": "Checkers 2011", "count": 2, "themes": []any{map[string]any{"theme": "opening", "count": 1}, map[string]any{"theme": "short", "count": 1}}, "rating": nil},
					map[string]any{"game": "pommel", "name": "Pommel", "count": 0, "themes": []any{}, "rating": nil},
				}})
			case strings.HasSuffix(r.URL.Path, "/attempt"):
				var body struct {
					Solved bool `json:"solved"`
					Rating *struct {
						Rating float64 `json:"rating"`
					} `json:"rating"`
				}
				_ = json.NewDecoder(r.Body).Decode(&body)
				rating := 1500.0
				if body.Rating != nil {
					rating = body.Rating.Rating
				}
				change := -15.0
				if body.Solved {
					change = 12
				}
				writeJSON(w, 200, map[string]any{"rating": rating + change, "rd": 200, "volatility": 0.06, "change": change, "provisional": true, "rated": true, "puzzle": map[string]any{"id": strings.Split(r.URL.Path, "/")[3], "rating": 1400}})
			case strings.HasPrefix(r.URL.Path, "/api/puzzles/checkers-2011"):
				id := r.URL.Query().Get("id")
				if id == "" {
					id = "p1"
				}
				writeJSON(w, 200, puzzles[id])
			default:
				next.ServeHTTP(w, r)
			}
		})
	}
}
