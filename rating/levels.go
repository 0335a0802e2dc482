package rating

import (
	_ "embed"
	"encoding/json"
	"strconv"
)

// levelsJSON is the measured rating of every AI level of every game, as
// "arbiter rate-levels GAME --out rating/levels.json" writes it.
//
//go:embed levels.json
var levelsJSON []byte

// LevelRating is one AI level's measured rating as levels.json keeps it.
type LevelRating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
	Games      int     `json:"games"`
}

// Levels maps a game id to its levels' ratings, keyed by the level's
// number written in decimal ("1" to "6").
type Levels map[string]map[string]LevelRating

// ParseLevels reads a levels file.
func ParseLevels(data []byte) (Levels, error) {
	levels := Levels{}
	if err := json.Unmarshal(data, &levels); err != nil {
		return nil, err
	}
	return levels, nil
}

// Marshal writes the levels file: indented, games and levels in sorted
// order, ending with a newline.
func (l Levels) Marshal() ([]byte, error) {
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// Level is the measured rating of AI level n of the game, false if none
// has been measured. The embedded file is parsed on every call: callers
// are rare (a server start, a new AI seat), and a package holds no state.
func Level(gameID string, n int) (Glicko, bool) {
	levels, err := MeasuredLevels()
	if err != nil {
		return Glicko{}, false
	}
	return levels.Level(gameID, n)
}

// MeasuredLevels is the embedded file, parsed: for a caller that looks up
// many levels at once (a server seeding its levels' accounts).
func MeasuredLevels() (Levels, error) { return ParseLevels(levelsJSON) }

// Level is the rating of AI level n of the game in l, false if none.
func (l Levels) Level(gameID string, n int) (Glicko, bool) {
	r, ok := l[gameID][strconv.Itoa(n)]
	if !ok {
		return Glicko{}, false
	}
	return Glicko{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}, true
}
