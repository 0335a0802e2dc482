// Package tune fits a game's evaluation weights to the results of
// self-play games, as Texel's method does: the evaluation of each quiet
// position, through a logistic curve, predicts the game's result, and the
// weights are moved one at a time while the mean squared error of those
// predictions falls.
//
// Generate plays the games and writes the positions (one FEN and the
// game's result a line); Load reads them back; Tune fits the weights. A
// position file and a seed make a run repeatable: the same file and the
// same starting weights give the same weights.
package tune

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// header starts a position file: the game and how its positions were
// made.
const headerPrefix = "# arbiter tune positions"

// Header says how a position file was made.
type Header struct {
	Game        string // the game's id
	Options     string // its options, as game.Options prints them
	Seed        uint64
	Nodes       int64
	RandomPlies int
}

// String is the file's first line.
func (h Header) String() string {
	return fmt.Sprintf("%s game=%s options=%s seed=%d nodes=%d random-plies=%d",
		headerPrefix, h.Game, quoteOptions(h.Options), h.Seed, h.Nodes, h.RandomPlies)
}

// quoteOptions writes options as one word: "-" for none.
func quoteOptions(o string) string {
	if o == "" {
		return "-"
	}
	return strings.ReplaceAll(o, " ", ",")
}

// parseHeader reads a file's first line.
func parseHeader(line string) (Header, error) {
	rest, ok := strings.CutPrefix(line, headerPrefix+" ")
	if !ok {
		return Header{}, fmt.Errorf("not a position file of arbiter tune (its first line should start %q)", headerPrefix)
	}
	var h Header
	seen := map[string]bool{}
	for _, field := range strings.Fields(rest) {
		key, val, ok := strings.Cut(field, "=")
		if !ok || seen[key] {
			return Header{}, fmt.Errorf("first line: bad field %s", clip.Quote(field))
		}
		seen[key] = true
		var err error
		switch key {
		case "game":
			h.Game = val
		case "options":
			h.Options = strings.ReplaceAll(strings.TrimPrefix(val, "-"), ",", " ")
		case "seed":
			h.Seed, err = strconv.ParseUint(val, 10, 64)
		case "nodes":
			h.Nodes, err = strconv.ParseInt(val, 10, 64)
		case "random-plies":
			h.RandomPlies, err = strconv.Atoi(val)
		default:
			return Header{}, fmt.Errorf("first line: unknown field %s", clip.Quote(key))
		}
		if err != nil {
			return Header{}, fmt.Errorf("first line: bad %s %s", key, clip.Quote(val))
		}
	}
	if h.Game == "" {
		return Header{}, fmt.Errorf("first line: no game")
	}
	return h, nil
}

// points is each player's share of a finished game: a win is 1, a draw
// or a shared win splits the point among the players it names.
func points(r game.Result, players int) [game.MaxPlayers]float64 {
	var out [game.MaxPlayers]float64
	winners := 0
	for p := range players {
		if r.Winners.Has(game.Player(p)) {
			winners++
		}
	}
	for p := range players {
		switch {
		case winners == 0:
			out[p] = 1 / float64(players)
		case r.Winners.Has(game.Player(p)):
			out[p] = 1 / float64(winners)
		}
	}
	return out
}
