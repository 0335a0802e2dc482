package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// asset is one file the pages load, ready to send: its bytes, their gzip
// (when that is smaller), its type and its ETag.
type asset struct {
	plain, gzipped []byte
	contentType    string
	etag           string
}

// assetSet holds the pages' files, read and compressed once when the
// server starts. Each is sent with an ETag and "no-cache": a browser asks
// again on every page, as a new binary may bring a new bundle, and is
// answered 304 with no body while the file is the same; gzip to a browser
// that accepts it.
type assetSet struct {
	files map[string]*asset
}

// newAssetSet reads every file at the root of fsys.
func newAssetSet(fsys fs.FS) (*assetSet, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	set := &assetSet{files: map[string]*asset{}}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("assets: %w", err)
		}
		a, err := newAsset(e.Name(), data)
		if err != nil {
			return nil, err
		}
		set.files[e.Name()] = a
	}
	return set, nil
}

func newAsset(name string, data []byte) (*asset, error) {
	sum := sha256.Sum256(data)
	a := &asset{plain: data, etag: `"` + hex.EncodeToString(sum[:12]) + `"`,
		contentType: mime.TypeByExtension(path.Ext(name))}
	if a.contentType == "" {
		a.contentType = "application/octet-stream"
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if buf.Len() < len(data) {
		a.gzipped = buf.Bytes()
	}
	return a, nil
}

// serve answers GET /assets/{name} (and the favicon's own path).
func (set *assetSet) serve(w http.ResponseWriter, r *http.Request, name string) {
	a := set.files[name]
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.etag)
	h.Set("Vary", "Accept-Encoding")
	if etagMatches(r.Header.Get("If-None-Match"), a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", a.contentType)
	body := a.plain
	if a.gzipped != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = a.gzipped
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// etagMatches reports whether an If-None-Match header names etag (or is
// "*").
func etagMatches(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == etag || tag == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip: named
// (or "*") without q=0.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
