package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"testing"

	"github.com/arbiter-games/arbiter/web"
)

// TestAssetsCompressedAndRevalidated: the pages' files go gzipped to a
// browser that takes gzip and plain to one that does not, with an ETag
// that a second page's request is answered 304 by, with no body; the
// favicon is served at /favicon.ico too.
func TestAssetsCompressedAndRevalidated(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(method, path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, ts.http.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := client.Do(req)
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
