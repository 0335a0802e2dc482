// Package all registers every game arbiter knows. Import it for its side
// effect; adding a game means adding its package here.
package all

import (
	_ "github.com/arbiter-games/arbiter/games/checkers2011" // checkers-2011
	_ "github.com/arbiter-games/arbiter/games/eximo"        // eximo
	_ "github.com/arbiter-games/arbiter/games/pommel"       // pommel, pommel-76
	_ "github.com/arbiter-games/arbiter/games/punt"         // punt-match, punt-heks-match, punt-heks-match-3p
)
