package server

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/game"
)

// gameName is the name a player knows a game by, for the pages: the
// descriptors carry ids and summaries but no names, and this is the one
// place the site names them. An id not listed here is shown as itself.
func gameName(id string) string {
	switch id {
	case "pommel":
		return "Pommel"
	case "pommel-76":
		return "Pommel 76"
	case "eximo":
		return "Eximo"
	case "checkers-2011":
		return "Checkers 2011"
	case "punt-match":
		return "Punt-Match"
	case "punt-heks-match":
		return "Punt-Heks-Match"
	case "punt-heks-match-3p":
		return "Punt-Heks-Match (3 players)"
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
