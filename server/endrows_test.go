package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// TestPositionEndRows: a Punt position names each player's end row and
// the piles frozen there (controlled by that player: what it scores), so
// that the board can show them; games without end rows name none.
func TestPositionEndRows(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	cases := []struct {
		name, game, fen string
		endRows         [][]string
		frozen          []string
	}{
		{"no end rows in Pommel", "pommel", "W:Wc3,Kd1,e3:Bb5,d6", nil, nil},
		{"start of punt-match", "punt-match", "", [][]string{
			{"a7", "b7", "c7", "d7", "e7", "f7", "g7"}, {"a1", "b1", "c1", "d1", "e1", "f1", "g1"}}, nil},
		// a7: White's pile on White's end row; b7: Black controls it there,
		// which is not Black's end row; a1: Black's on Black's; d4 is no
		// end row.
		{"frozen piles", "punt-match", "W:a1=wb,a7=bw,b7=wb,d4=w", [][]string{
			{"a7", "b7", "c7", "d7", "e7", "f7", "g7"}, {"a1", "b1", "c1", "d1", "e1", "f1", "g1"}}, []string{"a1", "a7"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := map[string]any{"game": c.game, "seats": []string{"human", "human"}}
			if c.fen != "" {
				req["fen"] = c.fen
			}
			resp := ts.create(req)
			code, body := ts.do("GET", "/api/games/"+resp.ID+"/position", "", nil)
			var pos positionView
			if err := json.Unmarshal(body, &pos); err != nil || code != http.StatusOK {
				t.Fatalf("position: %d %s", code, body)
			}
			if len(pos.EndRows) != len(c.endRows) {
				t.Fatalf("end rows %v, want %v", pos.EndRows, c.endRows)
			}
			for p := range c.endRows {
				if !slices.Equal(pos.EndRows[p], c.endRows[p]) {
					t.Errorf("seat %d's end row %v, want %v", p, pos.EndRows[p], c.endRows[p])
				}
			}
			if !slices.Equal(pos.Frozen, c.frozen) {
				t.Errorf("frozen %v, want %v", pos.Frozen, c.frozen)
			}
		})
	}
}
