package engine

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

func serve(t *testing.T, input string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := Serve(strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

func TestServeAnswers(t *testing.T) {
	lines := serve(t, strings.Join([]string{
		"uci", "isready",
		"setoption name Player value ab:depth=3",
		"setoption name Colour value red",
		"setoption name Player value chess",
		"go depth 1",
		"newgame nosuch",
		"newgame pommel maxplies=0",
		"newgame pommel",
		"position fen W:Wz9",
		"position startpos moves a1-a3 a6-a4",
		"go depth 3",
		"stop",
		"go nodes x",
		"quit",
		"isready",
	}, "\n"))
	want := []string{
		"id name arbiter", "uciok", "readyok",
		`info string error: unknown option "Colour"`,
		`info string error: unknown player "chess"`,
		"info string error: no position",
		`info string error: unknown game "nosuch"`,
		"info string error: pommel: option maxplies=0",
		`info string error: bad FEN "W:Wz9", field 2`,
		"bestmove a3xa6",
		`info string error: go: nodes "x": want a whole number`,
	}
	text := strings.Join(lines, "\n")
	at := 0
	for _, w := range want {
		i := strings.Index(text[at:], w)
		if i < 0 {
			t.Fatalf("missing %q (in order) in:\n%s", w, text)
		}
		at += i + len(w)
	}
	if strings.Count(text, "readyok") != 1 {
		t.Errorf("commands after quit were answered:\n%s", text)
	}
}

func TestParseGoClock(t *testing.T) {
	g, _ := game.New("pommel", nil)
	lim, err := parseGo(strings.Fields("wtime 60000 btime 1000 winc 1000"), g, 0)
	if err != nil || lim.MoveTime != 2800*time.Millisecond {
		t.Errorf("White with 60 s and 1 s increment: %v %v", lim, err)
	}
	lim, _ = parseGo(strings.Fields("wtime 60000 btime 3000 movestogo 10"), g, 1)
	if lim.MoveTime != 300*time.Millisecond {
		t.Errorf("Black with 3 s for 10 moves: %v", lim)
	}
	// With an increment larger than the time left, the clock still bounds
	// the move: 200 ms left keeps 50 for the answer; 60 ms left spends 30.
	lim, _ = parseGo(strings.Fields("wtime 200 btime 1000 winc 2000"), g, 0)
	if lim.MoveTime != 150*time.Millisecond {
		t.Errorf("White with 200 ms and a 2 s increment: %v", lim)
	}
	lim, _ = parseGo(strings.Fields("wtime 60 btime 1000 winc 1000"), g, 0)
	if lim.MoveTime != 30*time.Millisecond {
		t.Errorf("White with 60 ms and a 1 s increment: %v", lim)
	}
	if lim, _ := parseGo(nil, g, 0); lim.MoveTime != time.Second {
		t.Errorf("no limits: %v", lim)
	}
	if lim, _ := parseGo([]string{"infinite"}, g, 0); lim.MoveTime != 0 {
		t.Errorf("infinite: %v", lim)
	}
	for _, bad := range []string{"depth", "depth -1", "ponder 3"} {
		if _, err := parseGo(strings.Fields(bad), g, 0); err == nil {
			t.Errorf("go %s accepted", bad)
		}
	}
}
