package accounts

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// A device cookie marks a browser that logged in to an account before
// (OWASP's "device cookies"): its failed logins to that account count
// against the device alone, so that guesses at the name from elsewhere
// cannot lock its owner out. Its value is "ACCOUNT.NONCE.MAC", the MAC an
// HMAC-SHA256 keyed by the account's stored password hash: every server
// sharing the store checks it without a key of its own or a table, and a
// new password voids the old cookies. The transport sets and reads the
// cookie; the service makes and checks its value.

// deviceCookieMax bounds a cookie worth checking: an id, a nonce and a
// MAC are far shorter.
const deviceCookieMax = 160

// deviceMAC is the MAC of a device cookie for a.
func deviceMAC(a Account, nonce string) string {
	mac := hmac.New(sha256.New, []byte(a.password))
	mac.Write([]byte("arbiter device\x00" + a.ID + "\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// DeviceCookie is the value of a new device cookie for a; false for an
// account without a password (a passkey login needs no throttle by
// name).
func DeviceCookie(a Account) (string, bool) {
	if a.password == "" {
		return "", false
	}
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	nonce := base64.RawURLEncoding.EncodeToString(b)
	return a.ID + "." + nonce + "." + deviceMAC(a, nonce), true
}

// DeviceOf is the nonce of the device cookie value when that cookie was
// given at a login to a, else "" (no cookie, another account's, a forged
// one, or one from before a password change).
func DeviceOf(a Account, value string) string {
	if value == "" || len(value) > deviceCookieMax || a.password == "" {
		return ""
	}
	id, rest, ok := strings.Cut(value, ".")
	nonce, mac, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || id != a.ID || nonce == "" || !hmac.Equal([]byte(mac), []byte(deviceMAC(a, nonce))) {
		return ""
	}
	return nonce
}
