package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// TestCreateFromFEN starts games from a position: the game is played from
// it, GET shows it, the record carries it in its FEN tag, and an AI to
// move in it answers.
func TestCreateFromFEN(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	cases := []struct {
		name, game, fen string
		seats           []string
		// stored is the FEN as the game writes it (the pieces in cell
		// order), which the server keeps.
		stored string
	}{
		{"pommel, pieces out of order", "pommel", "W:Wc3,Kd1,e3:Bd6,b5", []string{"human", "human"}, "W:Wc3,Kd1,e3:Bb5,d6"},
		{"three players, Red to move", "punt-heks-match-3p", "R:a3=wwr,b1=wbw,c3=bwbwb,h6=r,i5=r", []string{"human", "human", "human"}, "R:a3=wwr,b1=wbw,c3=bwbwb,h6=r,i5=r"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := ts.create(map[string]any{"game": c.game, "seats": c.seats, "fen": c.fen})
			g := ts.game(resp.ID)
			if g.StartFEN != c.stored || g.FEN != c.stored || g.Ply != 0 {
				t.Fatalf("GET: startFen %q, fen %q, ply %d; want %q twice at ply 0", g.StartFEN, g.FEN, g.Ply, c.stored)
			}
			rules, err := game.New(c.game, nil)
			if err != nil {
				t.Fatal(err)
			}
			st, err := rules.ParseFEN(c.stored)
			if err != nil {
				t.Fatal(err)
			}
			if want := int(st.ToMove()); g.ToMove != want {
				t.Errorf("toMove %d, want %d", g.ToMove, want)
			}
			if len(g.Legal) == 0 {
				t.Fatal("no legal moves from the position")
			}
			move := g.Legal[0]
			if code, msg := ts.move(resp.ID, resp.Seats[g.ToMove].Token, move, 0); code != http.StatusOK {
				t.Fatalf("move %s from the FEN: %d %s", move, code, msg)
			}
			_, body := ts.do("GET", "/api/games/"+resp.ID+"/record", "", nil)
			if tag := `[FEN "` + c.stored + `"]`; !strings.Contains(string(body), tag) {
				t.Errorf("the record has no %s:\n%s", tag, body)
			}
			if !strings.Contains(string(body), move) {
				t.Errorf("the record lacks the move %s:\n%s", move, body)
			}
		})
	}
}

// TestCreateFromFENWithAIToMove: an AI seat to move in the start position
// plays at once.
func TestCreateFromFENWithAIToMove(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	resp := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "ai:level=1"}, "fen": "B:Wc3,Kd1,e3:Bb5,d6"})
	waitFor(t, 10*time.Second, "the AI's move", func() bool { return ts.game(resp.ID).Ply == 1 })
}

// TestCreateFENRefused: a FEN the game cannot read, or a position where
// the game is over, is refused with 422 and a message naming the problem;
// no game is made.
func TestCreateFENRefused(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	cases := []struct {
		name, game, fen string
		want            []string // all in the message
	}{
		{"not a FEN", "pommel", "nonsense", []string{`"nonsense"`, "side to move must be W or B", "pommel"}},
		{"no such cell", "pommel", "W:Wa1,z9:Bd6", []string{`"z9" is not a cell of pommel`}},
		{"two pieces on a cell", "pommel", "W:Wc3,c3:Bd6", []string{"two pieces on c3"}},
		{"a soldier that would be a captain", "pommel", "W:Wc6:Bd6", []string{"would have been promoted", "Kc6"}},
		{"another game's FEN", "punt-match", "W:Wc3,Kd1,e3:Bb5,d6", []string{"punt-match"}},
		{"a player the game does not seat", "punt-heks-match", "R:a1=w,i5=b", []string{"R", "punt-heks-match"}},
		{"the game is over there", "pommel", "B:Wd3", []string{"over in that position", "no pieces", "where it goes on"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seats := []string{"human", "human"}
			code, body := ts.do("POST", "/api/games", "", map[string]any{"game": c.game, "seats": seats, "fen": c.fen})
			var refusal struct {
				Error apiError `json:"error"`
			}
			if err := json.Unmarshal(body, &refusal); err != nil || code != http.StatusUnprocessableEntity || refusal.Error.Code != codeInvalid {
				t.Fatalf("fen %q: %d %s, want 422 %s", c.fen, code, body, codeInvalid)
			}
			msg := refusal.Error.Message
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("fen %q: message %q does not say %q", c.fen, msg, w)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("message on several lines: %q", msg)
			}
		})
	}
	if games, err := ts.store.List(t.Context(), storeFilterAll); err != nil || len(games) != 0 {
		t.Errorf("refused requests stored %d games (%v)", len(games), err)
	}
}
