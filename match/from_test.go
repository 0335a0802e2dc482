package match

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// TestFromStartsEveryGame: with From, each game starts from that position
// (its opening too), and its record carries the FEN.
func TestFromStartsEveryGame(t *testing.T) {
	g, err := game.New("pommel", map[string]string{"maxplies": "40"})
	if err != nil {
		t.Fatal(err)
	}
	const fen = "W:Wa1:Bb2,a2"
	cfg := Config{Game: g, Players: []Player{player("a", "ab"), player("b", "random")}, Games: 2,
		Limits: ai.Limits{Depth: 1}, OpeningPlies: 1, From: fen}
	for i := range 2 {
		log, err := Play(context.Background(), cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		// White's one man must capture from a1: the opening's random ply
		// is one of a1xa3 and a1xc2, the moves of the FEN's position.
		if log.From != fen || len(log.Opening) != 1 || !strings.HasPrefix(log.Opening[0], "a1x") {
			t.Errorf("game %d: from %q opening %v, want %q and a capture from a1", i, log.From, log.Opening, fen)
		}
		if got := log.Record().Get("FEN"); got != fen {
			t.Errorf("game %d: the record's FEN tag is %q, want %q", i, got, fen)
		}
	}
}

func TestFromRefused(t *testing.T) {
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ from, want string }{
		{"W:W:Bc4", `the game is over in "W:W:Bc4"`},
		{"W:Wz9", "bad FEN"},
	} {
		cfg := Config{Game: g, Players: []Player{player("a", "ab"), player("b", "ab")}, Games: 1,
			Limits: ai.Limits{Depth: 1}, From: tt.from}
		if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Run from %q: %v, want %q", tt.from, err, tt.want)
		}
		if _, err := Play(context.Background(), cfg, 0); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Play from %q: %v, want %q", tt.from, err, tt.want)
		}
	}
}
