package server

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/arbiter-games/arbiter/account"
)

// TestSignedInMark: signing up sets the readable mark beside the session
// cookie; a request with a session cookie but no mark (a session begun
// before the mark) gets the mark; logging out ends both; and GET
// /api/session with a cookie of a session that is no more answers 401 and
// ends both, so that the pages stop asking.
func TestSignedInMark(t *testing.T) {
	ts := newAccountServer(t)
	m := ts.signUp("mia")
	u, err := url.Parse(ts.http.URL)
	if err != nil {
		t.Fatal(err)
	}
	cookies := map[string]string{}
	for _, c := range m.c.Jar.Cookies(u) {
		cookies[c.Name] = c.Value
	}
	token := cookies[account.SessionCookie]
	if token == "" || cookies[signedInCookie] == "" {
		t.Fatalf("after sign-up the cookies are %v, want the session's and the mark %s", cookies, signedInCookie)
	}
	ask := func(path, withMark string) *http.Response {
		req := httptest.NewRequest("GET", path, nil)
		req.AddCookie(&http.Cookie{Name: account.SessionCookie, Value: token})
		if withMark != "" {
			req.AddCookie(&http.Cookie{Name: signedInCookie, Value: withMark})
		}
		rec := httptest.NewRecorder()
		ts.srv.Handler().ServeHTTP(rec, req)
		return rec.Result()
	}
	if got := setCookies(ask("/", "")); got[signedInCookie] <= 0 {
		t.Errorf("a page asked with a session cookie and no mark sets %v, want the mark", got)
	}
	if got := setCookies(ask("/", "1")); len(got) != 0 {
		t.Errorf("a page asked with both cookies sets %v, want none", got)
	}
	if code, body := m.call("DELETE", "/api/session", nil); code != http.StatusNoContent {
		t.Fatalf("log out: %d %s", code, body)
	}
	for _, c := range m.c.Jar.Cookies(u) {
		t.Errorf("after logging out the browser keeps %s", c.Name)
	}
	resp := ask("/api/session", "1")
	got := setCookies(resp)
	if resp.StatusCode != http.StatusUnauthorized || got[signedInCookie] >= 0 || got[account.SessionCookie] >= 0 {
		t.Errorf("GET /api/session on a session ended: %d, cookies set %v; want 401 ending both", resp.StatusCode, got)
	}
}

// setCookies are the cookies an answer sets, by name, with their Max-Age
// (negative: the cookie ends).
func setCookies(resp *http.Response) map[string]int {
	out := map[string]int{}
	for _, c := range resp.Cookies() {
		out[c.Name] = c.MaxAge
	}
	return out
}
