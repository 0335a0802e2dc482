package server

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// A device cookie marks a browser that logged in to an account before
// (OWASP's "device cookies"): its failed logins to that account count
// against the device alone, so that guesses at the name from elsewhere
// cannot lock its owner out. The cookie is "ACCOUNT.NONCE.MAC", the MAC an
// HMAC-SHA256 keyed by the account's stored password hash: every server
// sharing the store checks it without a key of its own or a table, and a
// new password voids the old cookies.
const (
	deviceCookie = "arbiter_device"
	deviceLife   = 365 * 24 * time.Hour
	// deviceCookieMax bounds a cookie worth checking: an id, a nonce and
	// a MAC are far shorter.
	deviceCookieMax = 160
)

// deviceMAC is the MAC of a device cookie for a.
func deviceMAC(a store.Account, nonce string) string {
	mac := hmac.New(sha256.New, []byte(a.Password))
	mac.Write([]byte("arbiter device\x00" + a.ID + "\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// setDeviceCookie marks the browser as a device of a (one with a
// password; a passkey login needs no throttle by name).
func setDeviceCookie(w http.ResponseWriter, r *http.Request, a store.Account) {
	if a.Password == "" {
		return
	}
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	nonce := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: deviceCookie, Value: a.ID + "." + nonce + "." + deviceMAC(a, nonce), Path: "/api/",
		MaxAge: int(deviceLife / time.Second), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
}

// deviceOf is the nonce of the request's device cookie when that cookie
// was given at a login to a, else "" (no cookie, another account's, a
// forged one, or one from before a password change).
func deviceOf(r *http.Request, a store.Account) string {
	c, err := r.Cookie(deviceCookie)
	if err != nil || len(c.Value) > deviceCookieMax || a.Password == "" {
		return ""
	}
	id, rest, ok := strings.Cut(c.Value, ".")
	nonce, mac, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || id != a.ID || nonce == "" || !hmac.Equal([]byte(mac), []byte(deviceMAC(a, nonce))) {
		return ""
	}
	return nonce
}
