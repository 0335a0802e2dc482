package hall

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strconv"

	"github.com/arbiter-games/arbiter/store"
)

// newToken is a seat's secret: 128 bits from crypto/rand, base64url. Only
// its SHA-256 is stored.
func newToken() (token string, hash []byte) {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (it crashes the program instead)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// NewGameID is a new game's id, as the hall makes them, for a caller
// that chooses it beforehand (NewGame.ID).
func NewGameID() string { return newGameID() }

// newGameID is a game's id: 72 random bits, base64url (12 characters).
func newGameID() string {
	b := make([]byte, 9)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// InviteURL is a seat's invite link. The token travels in the fragment,
// which browsers never send, so it never reaches a server's or a proxy's
// log; the page reads it and sends it as a Bearer token.
func InviteURL(id string, seat int, token string) string {
	return "/play/" + id + "?seat=" + strconv.Itoa(seat) + "#token=" + token
}

// Who plays a command: the seat's token, or the account holding the seat
// (a logged-in person's session, which the transport checked).
type Who struct {
	Token   string
	Account string
}

// seatOf is the seat whose token this is, or else the seat the account
// holds, or -1. Every seat's hash is compared, in constant time, so the
// time taken tells nothing.
func seatOf(seats []store.Seat, who Who) int {
	if who.Token == "" {
		return accountSeat(seats, who.Account)
	}
	h := hashToken(who.Token)
	found := -1
	for p, seat := range seats {
		if len(seat.TokenHash) == len(h) && subtle.ConstantTimeCompare(seat.TokenHash, h) == 1 {
			found = p
		}
	}
	return found
}

// accountSeat is the seat account holds, or -1.
func accountSeat(seats []store.Seat, account string) int {
	if account == "" {
		return -1
	}
	for p, seat := range seats {
		if seat.Account == account {
			return p
		}
	}
	return -1
}
