package endgame

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// OpenFolder opens the tables in dir for the game and rules its manifest
// names, for a reader (such as a server) that serves whatever tables it
// is given rather than asking for one game. The game must be registered.
func OpenFolder(dir string) (*Tables, error) {
	man, err := readManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s holds no endgame tables (no %s): build them with arbiter solve", dir, manifestName)
	}
	if err != nil {
		return nil, err
	}
	g, err := GameOf(man.Game, man.Rules)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dir, err)
	}
	return Open(dir, g)
}

// GameOf makes the game a manifest names: its id and its rules as
// RulesOf writes them ("key=value key=value").
func GameOf(id, rules string) (game.Game, error) {
	options := map[string]string{}
	for _, kv := range strings.Fields(rules) {
		k, v, err := game.ParseOption(kv)
		if err != nil {
			return nil, err
		}
		options[k] = v
	}
	return game.New(id, options)
}
