package endgame

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

func TestSmokeBuild(t *testing.T) {
	id := os.Getenv("EG_GAME")
	if id == "" {
		t.Skip()
	}
	k, _ := strconv.Atoi(os.Getenv("EG_K"))
	g, _ := game.New(id, nil)
	start := time.Now()
	man, err := Build(context.Background(), Config{Game: g, Pieces: k, Dir: os.Getenv("EG_DIR")})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range man.Materials {
		t.Logf("%+v", m)
	}
	t.Logf("%v", time.Since(start))
}

func TestSmokeVerify(t *testing.T) {
	id := os.Getenv("EG_GAME")
	if id == "" {
		t.Skip()
	}
	g, _ := game.New(id, nil)
	tb, err := Open(os.Getenv("EG_DIR"), g)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r, err := Verify(context.Background(), tb, 0, nil)
	t.Logf("%+v %v %v", r, err, time.Since(start))
}
