package server

import (
	"net/http"
	"time"

	"github.com/arbiter-games/arbiter/accounts"
)

// The device cookie marks a browser that logged in to an account before
// (see accounts.DeviceCookie, which makes its value and checks it).
const (
	deviceCookie = "arbiter_device"
	deviceLife   = 365 * 24 * time.Hour
)

// setDeviceCookie marks the browser as a device of a (one with a
// password; a passkey login needs no throttle by name).
func setDeviceCookie(w http.ResponseWriter, r *http.Request, a accounts.Account) {
	value, ok := accounts.DeviceCookie(a)
	if !ok {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: deviceCookie, Value: value, Path: "/api/",
		MaxAge: int(deviceLife / time.Second), HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
}

// accountClient is who sent r, as the account service counts it: its address
// and its device cookie.
func accountClient(r *http.Request) accounts.Client {
	c := accounts.Client{Addr: clientKey(r)}
	if cookie, err := r.Cookie(deviceCookie); err == nil {
		c.Device = cookie.Value
	}
	return c
}
