package checkers2011_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/checkers2011"
)

// newGame builds Checkers 2011; opts are "key=value" strings.
func newGame(t testing.TB, opts ...string) game.Game {
	t.Helper()
	return gametest.NewGame(t, checkers2011.ID, opts...)
}
