package account

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// SessionCookie is the name of the cookie that carries a session token.
const SessionCookie = "arbiter_session"

// sessionBytes are the random bytes of a token: 256 bits, beyond guessing.
const sessionBytes = 32

// sessionLen is a token's length: 32 bytes in unpadded base64url.
const sessionLen = (sessionBytes*8 + 5) / 6

// NewSessionToken makes a session token for the cookie, and the hash of it
// the store keeps: a copy of the store's table lets no one in.
func NewSessionToken() (token string, hash []byte) {
	b := make([]byte, sessionBytes)
	rand.Read(b) // never fails (crypto/rand)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashSessionToken(token)
}

// HashSessionToken is the SHA-256 of a token, by which the store finds its
// session. A plain hash is enough: the token is random, not a password.
func HashSessionToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// ValidSessionToken tells whether token has the form NewSessionToken gives
// (43 characters of unpadded base64url, canonical), so that a malformed
// cookie is refused before any store lookup.
func ValidSessionToken(token string) bool {
	if len(token) != sessionLen {
		return false
	}
	var b [sessionBytes + 1]byte
	n, err := base64.RawURLEncoding.Strict().Decode(b[:], []byte(token))
	return err == nil && n == sessionBytes
}
