package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/web"
)

// hashedAsset is the path the pages name one of web/static's files by:
// its name with the first 8 hex digits of its SHA-256 before the
// extension, worked out here from the file itself.
func hashedAsset(t *testing.T, name string) string {
	t.Helper()
	data, err := fs.ReadFile(web.Assets(), name)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	ext := path.Ext(name)
	return "/assets/" + strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:8] + ext
}

// assetClient asks without Go's own gzip, so that the test sees the
// Content-Encoding and the bytes as sent.
var assetClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

// getAsset sends a request with the headers given (name, value, ...) and
// returns the answer and its body.
func getAsset(t *testing.T, ts *testServer, method, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.http.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := assetClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// catalogAsset is the hashed path of the script of lang's messages, which
// the server makes from the catalogs.
func catalogAsset(t *testing.T, ts *testServer, lang string) string {
	t.Helper()
	a := ts.srv.assets.files[catalogScript(lang)]
	if a == nil {
		t.Fatalf("no asset %s", catalogScript(lang))
	}
	return "/assets/" + a.hashed
}

// TestPagesNameHashedAssets: every page, from each of the server's HTML
// shells and templates, names the site's files by their hashed names
// only, each of them once (the icon, the style sheet, the page's
// language's messages, the script), and is itself sent "no-cache", as it
// names the current bundle.
func TestPagesNameHashedAssets(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	id := ts.twoHumans().ID
	want := map[string]bool{catalogAsset(t, ts, "en"): true}
	for _, name := range []string{"favicon.svg", "app.css", "app.js"} {
		want[hashedAsset(t, name)] = true
	}
	named := regexp.MustCompile(`/assets/[^"'\s>]*`)
	for _, page := range []string{"/", "/play/" + id, "/games/" + id, "/games/nosuch", "/analysis/pommel", "/analysis/chess",
		"/learn", "/learn/pommel", "/learn/nosuch", "/signup", "/login", "/account", "/leaderboard", "/@/ann",
		"/rules/pommel", "/rules/chess", "/no/such/page"} {
		resp, body := getAsset(t, ts, "GET", page)
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s: %s, Cache-Control %q; want a page, no-cache", page, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
		}
		found := named.FindAllString(string(body), -1)
		seen := map[string]bool{}
		for _, p := range found {
			seen[p] = true
			if !want[p] {
				t.Errorf("GET %s names %s, not a hashed name of the files: want only %v", page, p, want)
			}
		}
		if len(found) != len(want) || len(seen) != len(want) {
			t.Errorf("GET %s names %v, want each of %v once", page, found, want)
		}
	}
}

// TestHashedAssetsImmutable: a file under its hashed name is its very
// bytes, kept a year without asking again ("immutable"), gzipped only to
// a browser that takes gzip; a hashed name with any other hash (the
// bundle of another binary, another file's hash) is a 404, as the server
// has no such bytes.
func TestHashedAssetsImmutable(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	for _, name := range []string{"app.js", "app.css", "favicon.svg"} {
		data, err := fs.ReadFile(web.Assets(), name)
		if err != nil {
			t.Fatal(err)
		}
		hashed := hashedAsset(t, name)
		resp, body := getAsset(t, ts, "GET", hashed, "Accept-Encoding", "gzip")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Fatalf("GET %s: %d, Cache-Control %q; want 200, immutable", hashed, resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
		if resp.Header.Get("Content-Type") != mimeOf(name) || resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("GET %s: Content-Type %q, Vary %q", hashed, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
		}
		if got := unzipped(t, resp, body); !bytes.Equal(got, data) {
			t.Errorf("GET %s: %d bytes that are not %s's %d", hashed, len(got), name, len(data))
		}
		if name != "favicon.svg" && resp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("GET %s taking gzip: Content-Encoding %q", hashed, resp.Header.Get("Content-Encoding"))
		}
		resp, body = getAsset(t, ts, "GET", hashed, "Accept-Encoding", "br")
		if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, data) {
			t.Errorf("GET %s not taking gzip: Content-Encoding %q, %d bytes, want %d plain", hashed, resp.Header.Get("Content-Encoding"), len(body), len(data))
		}
	}
	js, css := hashedAsset(t, "app.js"), hashedAsset(t, "app.css")
	cssHash := strings.TrimSuffix(strings.TrimPrefix(css, "/assets/app."), ".css")
	for _, stale := range []string{"/assets/app.00000000.js", "/assets/app." + cssHash + ".js", strings.TrimSuffix(js, ".js") + ".css",
		strings.Replace(js, "app.", "app.x.", 1), "/assets/app..js", "/assets/.js", strings.TrimSuffix(js, ".js")} {
		if resp, _ := getAsset(t, ts, "GET", stale); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404 (not this binary's file)", stale, resp.StatusCode)
		}
	}
}

// mimeOf is the Content-Type a file of web/static is sent with.
func mimeOf(name string) string {
	return map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}[path.Ext(name)]
}

// unzipped is body decoded as its Content-Encoding says.
func unzipped(t *testing.T, resp *http.Response, body []byte) []byte {
	t.Helper()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		return body
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// TestAssetsCompressedAndRevalidated: under their plain names (app.js,
// for a tab opened before a new binary and for the docs), the pages' files go gzipped to a
// browser that takes gzip and plain to one that does not, with an ETag
// that a second page's request is answered 304 by, with no body; the
// favicon is served at /favicon.ico too.
func TestAssetsCompressedAndRevalidated(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	get := func(method, path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		return getAsset(t, ts, method, path, header...)
	}
	js, err := fs.ReadFile(web.Assets(), "app.js")
	if err != nil {
		t.Fatal(err)
	}

	resp, body := get("GET", "/assets/app.js", "Accept-Encoding", "br, gzip;q=0.8")
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("app.js to a browser taking gzip: Content-Encoding %q, Vary %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, js) || len(body) >= len(js)/2 {
		t.Errorf("app.js gzipped: %d bytes for %d, unzipped the same %v (%v)", len(body), len(js), bytes.Equal(plain, js), err)
	}
	etag := resp.Header.Get("ETag")
	if etag == "" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("app.js: ETag %q, Cache-Control %q; want an ETag, no-cache", etag, resp.Header.Get("Cache-Control"))
	}
	for _, ae := range []string{"", "gzip;q=0", "identity", "deflate"} {
		resp, body := get("GET", "/assets/app.js", "Accept-Encoding", ae)
		if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, js) {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, %d bytes, want app.js plain", ae, resp.Header.Get("Content-Encoding"), len(body))
		}
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag} {
		resp, body := get("GET", "/assets/app.js", "If-None-Match", inm)
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Errorf("If-None-Match %s: %d with %d bytes, want 304 and none", inm, resp.StatusCode, len(body))
		}
	}
	if resp, _ := get("GET", "/assets/app.js", "If-None-Match", `"stale"`); resp.StatusCode != http.StatusOK {
		t.Errorf("a stale ETag: %d, want 200", resp.StatusCode)
	}
	if resp, body := get("HEAD", "/assets/app.css"); resp.StatusCode != http.StatusOK || len(body) != 0 || resp.ContentLength <= 0 {
		t.Errorf("HEAD app.css: %d, %d bytes, length %d", resp.StatusCode, len(body), resp.ContentLength)
	}
	for _, path := range []string{"/favicon.ico", "/assets/favicon.svg"} {
		if resp, body := get("GET", path); resp.StatusCode != http.StatusOK ||
			resp.Header.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(body, []byte("<svg")) {
			t.Errorf("GET %s: %d %q", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	if resp, _ := get("GET", "/assets/nosuch.js"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown asset: %d, want 404", resp.StatusCode)
	}
}

func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{"gzip", true}, {"gzip, deflate, br", true}, {"br;q=1.0, gzip;q=0.5", true}, {"*", true}, {"GZIP", true},
		{"", false}, {"br", false}, {"gzip;q=0", false}, {"gzip; q=0.000", false}, {"identity", false},
	} {
		if got := acceptsGzip(tc.header); got != tc.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}
