package game

import (
	"fmt"
	"strings"
)

// Seat is how the rules, the command line and the protocols know a
// player. The name is for people and records; the key and the letter are
// for machines, so that no program derives one from a display name (a
// "Blue" seat would share Black's first letter).
type Seat struct {
	// Name is the seat as the rules name it: "White". Records use it as
	// the seat's tag name.
	Name string
	// Key is the seat in flags, JSON and options: "white", lower-case
	// ASCII letters.
	Key string
	// Letter is the seat in the engine protocol's clock words (wtime,
	// winc) and in the letters of its pieces in drawings: 'w', a
	// lower-case ASCII letter.
	Letter byte
}

// describe writes all three parts of a seat, for messages about them.
func (s Seat) describe() string {
	return fmt.Sprintf("%s (key %q, letter %q)", s.Name, s.Key, s.Letter)
}

// check refuses a seat with an empty name, a key that is not lower-case
// ASCII letters or a letter that is not one.
func (s Seat) check() error {
	switch {
	case s.Name == "":
		return fmt.Errorf("seat %q: no name", s.Key)
	case s.Key == "" || strings.Trim(s.Key, "abcdefghijklmnopqrstuvwxyz") != "":
		return fmt.Errorf("seat %s: key %q: want lower-case letters a-z", s.Name, s.Key)
	case !isLowerLetter(s.Letter):
		return fmt.Errorf("seat %s: letter %q: want a lower-case letter a-z", s.Name, s.Letter)
	}
	return nil
}

func isLowerLetter(b byte) bool { return 'a' <= b && b <= 'z' }

// CheckSeats returns an error naming the first fault in a game's seats: a
// seat with an empty name, a key that is not lower-case ASCII letters, a
// letter that is not one, or two seats that share a key, a letter or a
// name (in any case, as FindSeat reads names). A name that is another
// seat's key would make a lookup ambiguous too.
func CheckSeats(seats []Seat) error {
	if len(seats) == 0 {
		return fmt.Errorf("no seats")
	}
	for i, s := range seats {
		if err := s.check(); err != nil {
			return err
		}
		for _, o := range seats[:i] {
			switch {
			case o.Key == s.Key:
				return fmt.Errorf("seats %s and %s share the key %q", o.Name, s.Name, s.Key)
			case o.Letter == s.Letter:
				return fmt.Errorf("seats %s and %s share the letter %q", o.Name, s.Name, s.Letter)
			case strings.EqualFold(o.Name, s.Name):
				return fmt.Errorf("seats %s and %s share a name", o.Name, s.Name)
			case strings.EqualFold(o.Name, s.Key) || strings.EqualFold(s.Name, o.Key):
				return fmt.Errorf("seats %s and %s: a name is the other's key", o.Name, s.Name)
			}
		}
	}
	return nil
}

// Seats returns g's seats in turn order.
func Seats(g Game) []Seat {
	seats := make([]Seat, g.Players())
	for p := range seats {
		seats[p] = g.Seat(Player(p))
	}
	return seats
}

// SeatKeys returns the keys of g's seats in turn order, for messages that
// say what is allowed.
func SeatKeys(g Game) []string {
	keys := make([]string, g.Players())
	for p := range keys {
		keys[p] = g.Seat(Player(p)).Key
	}
	return keys
}

// FindSeat finds the seat of g that text names: its key, or its name in
// any case ("white", "White", "WHITE").
func FindSeat(g Game, text string) (Player, bool) {
	for p := range g.Players() {
		s := g.Seat(Player(p))
		if text == s.Key || strings.EqualFold(text, s.Name) {
			return Player(p), true
		}
	}
	return NoPlayer, false
}

// AllSeats returns the seats of every registered game, each key once: the
// games in id order, each game's seats in turn order. Where two games give
// one key different names or letters (which the conformance suite
// refuses) the first game's seat stands.
func AllSeats() []Seat {
	var all []Seat
	seen := map[string]bool{}
	for _, d := range All() {
		for _, s := range d.Seats {
			if !seen[s.Key] {
				seen[s.Key] = true
				all = append(all, s)
			}
		}
	}
	return all
}

// CheckSharedSeats returns an error when two games give one key, or one
// letter, to different seats: a flag such as --white, or a clock word
// such as wtime, then means one seat in every game.
func CheckSharedSeats(ds []Descriptor) error {
	byKey := map[string]Seat{}
	byLetter := map[byte]Seat{}
	owner := map[Seat]string{}
	for _, d := range ds {
		for _, s := range d.Seats {
			if o, ok := byKey[s.Key]; ok && o != s {
				return fmt.Errorf("%s and %s give the key %q to different seats: %s and %s", owner[o], d.ID, s.Key, o.describe(), s.describe())
			}
			if o, ok := byLetter[s.Letter]; ok && o != s {
				return fmt.Errorf("%s and %s give the letter %q to different seats: %s and %s", owner[o], d.ID, s.Letter, o.describe(), s.describe())
			}
			if _, ok := owner[s]; !ok {
				owner[s] = d.ID
			}
			byKey[s.Key], byLetter[s.Letter] = s, s
		}
	}
	return nil
}
