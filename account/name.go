package account

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// Name lengths, in characters (names are ASCII, so bytes too).
const (
	NameMin = 2
	NameMax = 20
)

// reservedNames are keys a person may not take: they would pass for the
// site itself, its staff, a removed account or nobody.
var reservedNames = [...]string{"deleted", "anonymous", "admin", "administrator", "moderator", "arbiter", "system", "root"}

// reservedPrefixes belong to the AI levels' accounts ("ai-level-3"); "ai_"
// too, since "ai_level_3" would pass for one at a glance.
var reservedPrefixes = [...]string{"ai-", "ai_"}

// Key is the form of a name that is unique: names differ from each other
// by more than case. Names are ASCII, so lowering ASCII letters is enough.
func Key(name string) string {
	return strings.ToLower(name)
}

// CheckName refuses a name a person may not register: ErrNameInvalid when
// it is not 2 to 20 ASCII letters, digits, '_' or '-', ErrNameReserved when
// it is reserved (see reservedNames, and anything starting with "ai-").
// Whether the name is already taken is for the store to say.
func CheckName(name string) error {
	for _, r := range name {
		if !nameRune(r) {
			return refuse(ErrNameInvalid, fmt.Sprintf("name %s: only letters a-z and A-Z, digits, '_' and '-' are allowed, not %s", clip.Quote(name), strconv.QuoteRune(r)))
		}
	}
	if len(name) < NameMin || len(name) > NameMax {
		return refuse(ErrNameInvalid, fmt.Sprintf("name %s: %d characters, a name has %d to %d", clip.Quote(name), len(name), NameMin, NameMax))
	}
	if reserved(Key(name)) {
		return refuse(ErrNameReserved, fmt.Sprintf("name %s is reserved", clip.Quote(name)))
	}
	return nil
}

func nameRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-'
}

func reserved(key string) bool {
	for _, n := range reservedNames {
		if key == n {
			return true
		}
	}
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// LevelName is the name of the account that plays AI level n: "ai-level-3".
// The server creates these accounts itself, past CheckName.
func LevelName(level int) string {
	return "ai-level-" + strconv.Itoa(level)
}

// IsLevelName tells whether name is an AI level's account name: "ai-level-"
// then a positive number without leading zeros, in any case.
func IsLevelName(name string) bool {
	n, ok := strings.CutPrefix(Key(name), "ai-level-")
	if !ok || n == "" || n[0] == '0' || len(n) > 9 {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
