package server

import (
	"net/http"
	"strings"
)

// bearer is the token of the Authorization header, or "".
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
