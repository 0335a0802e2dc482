package pairing

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Colour is the side a player had in a two-player game.
type Colour int8

// The colours; NoColour is a bye's (or an unplayed round's).
const (
	NoColour Colour = iota
	White
	Black
)

// Opposite is the other colour (NoColour stays NoColour).
func (c Colour) Opposite() Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColour
}

// String names the colour.
func (c Colour) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "none"
}

// Game is one round of a player's history: a game against Opponent with
// Colour, or a bye (Bye set, no opponent, no colour). Points is what the
// player scored: 1 a win, 0.5 a draw, 0 a loss, 1 for a bye.
type Game struct {
	Round    int
	Opponent string
	Colour   Colour
	Points   float64
	Bye      bool
}

// Player is an entrant of a Swiss tournament with the rounds it played so
// far, in round order. A round the player missed (absent, withdrawn) is
// simply not in History. Absent players are not paired this round but are
// still needed for their opponents' floats and tie-breaks.
type Player struct {
	ID      string
	Rating  float64
	History []Game
	Absent  bool
}

// Score is the sum of the player's points.
func (p Player) Score() float64 {
	return p.scoreBefore(math.MaxInt)
}

// scoreBefore is the player's score before round r.
func (p Player) scoreBefore(r int) float64 {
	s := 0.0
	for _, g := range p.History {
		if g.Round < r {
			s += g.Points
		}
	}
	return s
}

// played reports whether the player met opponent in a game.
func (p Player) played(opponent string) bool {
	for _, g := range p.History {
		if !g.Bye && g.Opponent == opponent {
			return true
		}
	}
	return false
}

// hadBye reports whether the player already had the pairing bye.
func (p Player) hadBye() bool {
	return slices.ContainsFunc(p.History, func(g Game) bool { return g.Bye })
}

// colours are the colours of the games the player played, in order.
func (p Player) colours() []Colour {
	var cs []Colour
	for _, g := range p.History {
		if !g.Bye && g.Colour != NoColour {
			cs = append(cs, g.Colour)
		}
	}
	return cs
}

// ErrInvalid is wrapped by every error about malformed players.
var ErrInvalid = errors.New("pairing: invalid players")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// checkPlayers refuses what no pairing can be made of: empty or duplicate
// ids, ratings that are not numbers, unknown opponents, games of a round
// not before round, points outside 0..1, a game without a colour.
func checkPlayers(players []Player, round int) (map[string]*Player, error) {
	byID := make(map[string]*Player, len(players))
	for i := range players {
		p := &players[i]
		if p.ID == "" {
			return nil, invalid("player %d has no id", i)
		}
		if _, dup := byID[p.ID]; dup {
			return nil, invalid("player %q twice", p.ID)
		}
		if math.IsNaN(p.Rating) || math.IsInf(p.Rating, 0) {
			return nil, invalid("player %q: rating %v", p.ID, p.Rating)
		}
		byID[p.ID] = p
	}
	for _, p := range players {
		for _, g := range p.History {
			if err := checkGame(p.ID, g, round, byID); err != nil {
				return nil, err
			}
		}
	}
	return byID, nil
}

func checkGame(id string, g Game, round int, byID map[string]*Player) error {
	switch {
	case g.Round < 1 || g.Round >= round:
		return invalid("player %q: a game of round %d before round %d", id, g.Round, round)
	case math.IsNaN(g.Points) || g.Points < 0 || g.Points > 1:
		return invalid("player %q: %v points in round %d", id, g.Points, g.Round)
	case g.Bye:
		return nil
	case g.Colour != White && g.Colour != Black:
		return invalid("player %q: no colour in round %d", id, g.Round)
	case g.Opponent == id || byID[g.Opponent] == nil:
		return invalid("player %q: unknown opponent %q in round %d", id, g.Opponent, g.Round)
	}
	return nil
}

// byRating orders players by rating, highest first, then by id: the
// initial ranking list whose places are the pairing numbers.
func byRating(a, b *Player) int {
	if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}
