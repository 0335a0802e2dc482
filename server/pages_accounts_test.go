package server

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// TestAccountPages: each page of accounts is the shell with its own
// data-page and title, a profile of a name nobody has included (the page
// says so itself), and a name in the path is escaped and shortened in
// the title.
func TestAccountPages(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	long := strings.Repeat("x", 200)
	for _, tc := range []struct{ path, page, title string }{
		{"/signup", "signup", "<title>Create an account (arbiter)</title>"},
		{"/login?next=/account", "login", "<title>Sign in (arbiter)</title>"},
		{"/account", "account", "<title>Your account (arbiter)</title>"},
		{"/leaderboard", "leaderboard", "<title>Leaderboard (arbiter)</title>"},
		{"/leaderboard/eximo", "leaderboard", "<title>Leaderboard (arbiter)</title>"},
		{"/@/nobody-has-this-name", "profile", "<title>nobody-has-this-name (arbiter)</title>"},
		{"/@/%3Cb%3Ex", "profile", "<title>&lt;b&gt;x (arbiter)</title>"},
		{"/@/" + long, "profile", "<title>&#34;" + long[:80] + "&#34;… (arbiter)</title>"},
	} {
		resp, err := http.Get(ts.http.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		_, _ = body.ReadFrom(resp.Body)
		resp.Body.Close()
		page := body.String()
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %s", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !strings.Contains(page, `data-page="`+tc.page+`"`) || !strings.Contains(page, tc.title) || !strings.Contains(page, `src="`+hashedAsset(t, "app.js")+`"`) {
			t.Errorf("GET %s: want data-page %q, %s and the bundle; got\n%s", tc.path, tc.page, tc.title, page)
		}
		if strings.Contains(page, "{{") || strings.Contains(page, "<script>") || strings.Contains(page, "style=") {
			t.Errorf("GET %s: a placeholder left, or inline script or style", tc.path)
		}
	}
}
