package server

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/game"
)

// gameName is the name a player knows a game by (its descriptor's); an
// id the registry does not hold is shown as itself.
func gameName(id string) string {
	if d, ok := game.Lookup(id); ok {
		return d.Name
	}
	return id
}

// gameTagline is a game's summary for a card on the home page: the
// descriptor's summary without its leading "Name: ", which the card shows
// as its title, and starting with a capital.
func gameTagline(d game.Descriptor) string {
	line := d.Summary
	if head, rest, ok := strings.Cut(line, ": "); ok && !strings.ContainsAny(head, ",;") {
		line = rest
	}
	first, size := utf8.DecodeRuneInString(line)
	return string(unicode.ToUpper(first)) + line[size:]
}
