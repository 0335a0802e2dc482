package uci

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// serveEnv, when set, makes the test binary an engine, so that the client
// can be tested against the real engine side as a process of its own.
const serveEnv = "ARBITER_ENGINE_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		if err := Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func startSelf(t *testing.T) *Client {
	t.Helper()
	t.Setenv(serveEnv, "1")
	c, err := Start("self", os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestClientSearches: the client plays the engine's move, and rounds a
// move time below a millisecond up to the 1 ms the protocol accepts.
func TestClientSearches(t *testing.T) {
	c := startSelf(t)
	g, _ := game.New("pommel", nil)
	s := g.Start()
	for _, lim := range []ai.Limits{{Depth: 2}, {MoveTime: 500 * time.Microsecond}} {
		info := c.Search(context.Background(), s, lim, nil)
		if info.Err != nil || info.Move.Len() == 0 {
			t.Errorf("limits %+v: move %v, error %v", lim, info.Move, info.Err)
		}
	}
}

// TestClientNoMove: bestmove (none) is an error that gives the engine's
// reason.
func TestClientNoMove(t *testing.T) {
	c := startSelf(t)
	g, _ := game.New("pommel", nil)
	over, err := g.ParseFEN("W:W:Bd4")
	if err != nil {
		t.Fatal(err)
	}
	info := c.Search(context.Background(), over, ai.Limits{Depth: 1}, nil)
	want := "engine self found no move: the game is over (Black wins: White has no pieces left in play)"
	if info.Err == nil || info.Err.Error() != want {
		t.Errorf("error %v, want %q", info.Err, want)
	}
}

// TestClientHandshakeAndOptions: the client keeps the games the engine's
// handshake names, sets an option the engine takes, and says why of one
// it refuses.
func TestClientHandshakeAndOptions(t *testing.T) {
	c := startSelf(t)
	want := []string{}
	for _, d := range game.All() {
		want = append(want, d.ID)
	}
	if fmt.Sprint(c.Games()) != fmt.Sprint(want) {
		t.Errorf("the engine's games: %v; want %v", c.Games(), want)
	}
	if err := c.SetOption("Player", "ai:level=1"); err != nil {
		t.Errorf("setting Player: %v", err)
	}
	if err := c.SetOption("Player", "nosuchplayer"); err == nil || !strings.Contains(err.Error(), "Player") {
		t.Errorf("setting a Player the engine refuses: %v; want its complaint", err)
	}
	if err := c.SetOption("Colour", "blue"); err == nil || !strings.Contains(err.Error(), "unknown option") {
		t.Errorf("setting an unknown option: %v; want the engine's complaint", err)
	}
	g, _ := game.New("pommel", nil)
	if info := c.Search(context.Background(), g.Start(), ai.Limits{Depth: 1}, nil); info.Err != nil {
		t.Errorf("a search after the options: %v", info.Err)
	}
}
