package account

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
)

// APITokenPrefix begins every personal API token. A seat's token (22
// characters of base64url, package hall) never has its length, so the
// one Authorization: Bearer header names either kind without doubt: the
// prefix and the length say which, before any look-up.
const APITokenPrefix = "arb_"

// apiTokenLen is an API token's length: the prefix and 32 random bytes
// in unpadded base64url.
const apiTokenLen = len(APITokenPrefix) + sessionLen

// NewAPIToken makes a personal API token, 256 random bits after the
// prefix, and the SHA-256 the store keeps of it: the token is shown to
// its owner once.
func NewAPIToken() (token string, hash []byte) {
	b := make([]byte, sessionBytes)
	rand.Read(b) // never fails (crypto/rand)
	token = APITokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, HashSessionToken(token)
}

// IsAPIToken tells whether a bearer token is meant as an API token: its
// prefix and its length. Anything else is a seat's token to the game
// commands, even a seat token that happens to begin with the prefix (one
// in 2^24 of them), which is shorter.
func IsAPIToken(token string) bool {
	return len(token) == apiTokenLen && strings.HasPrefix(token, APITokenPrefix)
}

// ValidAPIToken tells whether token has the form NewAPIToken gives, so
// that a malformed one is refused before any store look-up.
func ValidAPIToken(token string) bool {
	return IsAPIToken(token) && ValidSessionToken(token[len(APITokenPrefix):])
}
