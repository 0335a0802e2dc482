package pairing

// strength is how much a player wants a colour (FIDE C.04.3 A.6).
type strength int8

const (
	noPreference strength = iota
	mild                  // colour difference 0: alternate from the last game
	strong                // colour difference ±1: the colour played less
	absolute              // colour difference beyond ±1, or the same colour twice running
)

// preference is a player's colour preference for the next round.
type preference struct {
	colour   Colour
	strength strength
}

// preferenceOf is the preference of a player who played colours, in
// order (byes and unplayed rounds left out, as A.6 counts only games).
func preferenceOf(colours []Colour) preference {
	if len(colours) == 0 {
		return preference{}
	}
	cd := colourDifference(colours)
	last := colours[len(colours)-1]
	twice := len(colours) >= 2 && colours[len(colours)-2] == last
	switch {
	case cd > 1:
		return preference{Black, absolute}
	case cd < -1:
		return preference{White, absolute}
	case twice:
		return preference{last.Opposite(), absolute}
	case cd == 1:
		return preference{Black, strong}
	case cd == -1:
		return preference{White, strong}
	}
	return preference{last.Opposite(), mild}
}

// colourDifference is whites minus blacks.
func colourDifference(colours []Colour) int {
	cd := 0
	for _, c := range colours {
		switch c {
		case White:
			cd++
		case Black:
			cd--
		}
	}
	return cd
}

// sameAbsolute reports whether both players must have the same colour
// (criterion C.3): such players never meet, so that nobody ever plays a
// colour three times running or gets a colour difference beyond ±2.
func sameAbsolute(a, b preference) bool {
	return a.strength == absolute && b.strength == absolute && a.colour == b.colour
}

// clash reports whether one of the two players will not get his
// preference (C.10), and whether that player's preference was strong
// (C.11). The loser is the weaker preference (E.2), and two equal ones
// leave one of the two without.
func clash(a, b preference) (missed, missedStrong bool) {
	if a.colour == NoColour || b.colour == NoColour || a.colour != b.colour {
		return false, false
	}
	return true, min(a.strength, b.strength) >= strong
}

// allocate gives the colours of a pair by the Dutch rules E.1–E.5: hi is
// the higher-ranked player (score, then pairing number); it returns hi's
// colour.
func allocate(hi, lo *entrant, initial Colour) Colour {
	a, b := hi.pref, lo.pref
	switch {
	case a.colour == NoColour && b.colour == NoColour:
		// E.5: no history on either side.
		if hi.number%2 == 1 {
			return initial
		}
		return initial.Opposite()
	case b.colour == NoColour:
		return a.colour
	case a.colour == NoColour:
		return b.colour.Opposite()
	case a.colour != b.colour: // E.1
		return a.colour
	case a.strength != b.strength: // E.2
		if a.strength > b.strength {
			return a.colour
		}
		return b.colour.Opposite()
	}
	if c, ok := alternate(hi.colours, lo.colours); ok { // E.3
		return c
	}
	return a.colour // E.4
}

// alternate finds the latest game (counted back from each player's last
// game played) in which the two had different colours and gives hi the
// colour opposite to his then.
func alternate(hi, lo []Colour) (Colour, bool) {
	for i, j := len(hi)-1, len(lo)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if hi[i] != lo[j] {
			return hi[i].Opposite(), true
		}
	}
	return NoColour, false
}
