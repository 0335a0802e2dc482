package record_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
)

// TestSwapAndFirstReplay: a game played with the pie rule and Black
// moving first is written with Black's moves numbered as Black's, read
// back and replayed to the same position, swap included.
func TestSwapAndFirstReplay(t *testing.T) {
	g, err := game.New("pommel", map[string]string{"first": "black", "swap": "on"})
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	moves := []string{"a6-a4", "swap", "a6-a4", "a2-a3"}
	for _, text := range moves {
		m, err := game.ParseMove(s, text)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(m)
	}
	r := record.New(g, "", []string{"alice", "bob"}, "2026.11.26")
	r.Moves = moves
	if got, want := movetext(t, r), "1... a6-a4 2. swap a6-a4 3. a2-a3 *\n"; got != want {
		t.Errorf("movetext %q, want %q", got, want)
	}
	var buf bytes.Buffer
	if err := record.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	recs, err := record.Read(strings.NewReader(buf.String()))
	if err != nil || len(recs) != 1 {
		t.Fatalf("read back: %d records, %v", len(recs), err)
	}
	again, err := recs[0].Replay(1)
	if err != nil {
		t.Fatal(err)
	}
	if again.FEN() != s.FEN() || again.Ply() != 4 || recs[0].FirstMover() != 1 {
		t.Errorf("replayed to %s at ply %d, first mover %d; want %s at ply 4, Black first", again.FEN(), again.Ply(), recs[0].FirstMover(), s.FEN())
	}
}

// TestSwapReplayRefused: a record whose swap is not legal (no pie rule,
// or not at the second move) is refused, naming the move.
func TestSwapReplayRefused(t *testing.T) {
	tests := []struct {
		options, moves, want string
	}{
		{"", "1. a1-a3 swap *", "swap is a move only with the option swap=on"},
		{"swap=on", "1. a1-a3 a6-a4 2. swap *", "second player's first move"},
	}
	for _, tt := range tests {
		pdn := `[Game "pommel"]` + "\n" + `[Options "` + tt.options + `"]` + "\n\n" + tt.moves + "\n"
		recs, err := record.Read(strings.NewReader(pdn))
		if err != nil {
			t.Fatal(err)
		}
		_, err = recs[0].Replay(1)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `"swap"`) {
			t.Errorf("%s %s: %v, want an error about swap saying %q", tt.options, tt.moves, err, tt.want)
		}
	}
}

// TestFirstMoverByOption: without a FEN tag, the first mover is the seat
// the Options tag's first= names; a FEN's player to move overrides it; a
// seat the game has not counts from the first seat.
func TestFirstMoverByOption(t *testing.T) {
	tests := []struct {
		game, options, fen string
		want               game.Player
	}{
		{"pommel", "hop=friendly maxplies=600", "", 0},
		{"pommel", "first=black hop=friendly", "", 1},
		{"pommel", "first=red", "", 0},
		{"punt-heks-match-3p", "first=red maxplies=600", "", 2},
		{"pommel", "first=black", "W:Wa1:Bg6", 0},
		{"eximo", "first=white swap=on", "", 1},
	}
	for _, tt := range tests {
		pdn := `[Game "` + tt.game + `"]` + "\n" + `[Options "` + tt.options + `"]` + "\n"
		if tt.fen != "" {
			pdn += `[FEN "` + tt.fen + `"]` + "\n"
		}
		recs, err := record.Read(strings.NewReader(pdn + "\n*\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := recs[0].FirstMover(); got != tt.want {
			t.Errorf("%s %q %q: first mover %d, want %d", tt.game, tt.options, tt.fen, got, tt.want)
		}
	}
}
