package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestPasskeyRefusals: every refusal of the passkey ceremonies that needs
// no authenticator (the browser test makes and uses a real passkey).
func TestPasskeyRefusals(t *testing.T) {
	ts := newAccountServer(t)
	byIP := ts.signUp("ip")
	code, body := byIP.call("POST", "/api/account/passkeys/begin", map[string]any{})
	if code != 422 || !strings.Contains(string(body), "domain") {
		t.Fatalf("a passkey on a site reached by its IP: %d %s", code, body)
	}
	local := strings.Replace(ts.http.URL, "127.0.0.1", "localhost", 1)
	ada := ts.signUpAt(local, "ada")
	stranger := &member{t: t, ts: ts, name: "stranger", c: &http.Client{Jar: mustJar()}, base: local}
	stranger.must(401, "POST", "/api/account/passkeys/begin", map[string]any{}, nil)
	stranger.must(401, "GET", "/api/account/passkeys", nil, nil)

	var begin struct {
		Ceremony string `json:"ceremony"`
		Options  struct {
			PublicKey struct {
				Challenge string `json:"challenge"`
				RP        struct {
					ID string `json:"id"`
				} `json:"rp"`
				User struct {
					Name string `json:"name"`
				} `json:"user"`
				AuthenticatorSelection struct {
					ResidentKey string `json:"residentKey"`
				} `json:"authenticatorSelection"`
			} `json:"publicKey"`
		} `json:"options"`
	}
	ada.must(200, "POST", "/api/account/passkeys/begin", map[string]any{}, &begin)
	pk := begin.Options.PublicKey
	if begin.Ceremony == "" || len(pk.Challenge) < 20 || pk.RP.ID != "localhost" || pk.User.Name != "ada" || pk.AuthenticatorSelection.ResidentKey != "required" {
		t.Fatalf("registration options: %+v", begin)
	}
	// A login may not finish a registration's ceremony, nor anyone reuse one.
	code, body = stranger.call("POST", "/api/session/passkey/finish?ceremony="+begin.Ceremony, map[string]any{"id": "x"})
	if code != 403 {
		t.Fatalf("a login finishing a registration's ceremony: %d %s", code, body)
	}
	code, body = ada.call("POST", "/api/account/passkeys/finish?ceremony="+begin.Ceremony, map[string]any{"id": "x"})
	if code != 404 {
		t.Fatalf("a ceremony used twice: %d %s", code, body)
	}
	ada.must(200, "POST", "/api/account/passkeys/begin", map[string]any{}, &begin)
	code, body = ada.call("POST", "/api/account/passkeys/finish?ceremony="+begin.Ceremony, map[string]any{"id": "x", "type": "public-key"})
	if code != 422 || !strings.Contains(string(body), "refused") {
		t.Fatalf("a forged answer: %d %s", code, body)
	}
	ada.must(200, "POST", "/api/account/passkeys/begin", map[string]any{}, &begin)
	code, body = ada.call("POST", "/api/account/passkeys/finish?name="+strings.Repeat("n", 41)+"&ceremony="+begin.Ceremony, map[string]any{})
	if code != 422 {
		t.Fatalf("a name of 41 characters: %d %s", code, body)
	}
	for _, c := range []string{"", "nosuch"} {
		if code, body := ada.call("POST", "/api/account/passkeys/finish?ceremony="+c, map[string]any{}); code != 404 {
			t.Fatalf("ceremony %q: %d %s", c, code, body)
		}
	}
	var login struct {
		Ceremony string `json:"ceremony"`
		Options  struct {
			PublicKey json.RawMessage `json:"publicKey"`
		} `json:"options"`
	}
	stranger.must(200, "POST", "/api/session/passkey/begin", map[string]any{}, &login)
	code, body = stranger.call("POST", "/api/session/passkey/finish?ceremony="+login.Ceremony, map[string]any{"id": "x", "type": "public-key"})
	if code != 401 || errorCode(body) != codeBadLogin {
		t.Fatalf("a forged login: %d %s", code, body)
	}
	var list []passkeyView
	ada.must(200, "GET", "/api/account/passkeys", nil, &list)
	if len(list) != 0 {
		t.Fatalf("passkeys after refusals: %+v", list)
	}
	ada.must(404, "DELETE", "/api/account/passkeys/nosuch", nil, nil)
}
