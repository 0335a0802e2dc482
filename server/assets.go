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
	"sync"

	"github.com/arbiter-games/arbiter/internal/i18n"
	"github.com/arbiter-games/arbiter/web"
)

// asset is one file the pages load, ready to send: its bytes, their gzip
// (when that is smaller), its type, its ETag and its hashed name.
type asset struct {
	plain, gzipped []byte
	contentType    string
	etag           string
	// hashed is the name the pages use, the file's own name with the
	// first hashDigits hex digits of its SHA-256 before the extension
	// (app.js: app.3f2a9c1e.js).
	hashed string
}

// hashDigits is how much of a file's hash its hashed name carries: enough
// that two versions of the bundle never share a name.
const hashDigits = 8

// immutable is the Cache-Control of a hashed name: its bytes never change
// (new bytes get a new name), so a browser keeps them a year and never
// asks again.
const immutable = "public, max-age=31536000, immutable"

// assetSet holds the pages' files, read and compressed once when the
// server starts. Each is served under two names. The pages name the
// hashed one, sent with a year's immutable caching: a browser that has it
// asks no more, and a new binary with a new bundle names a new file. The
// plain name (app.js), for a tab opened before a new binary and for the
// docs, is sent with an ETag and "no-cache": a browser asks again each
// time and is answered 304 with no body while the file is the same. Both
// go gzipped to a browser that accepts it.
type assetSet struct {
	files map[string]*asset
	// links rewrites a page's quoted plain names into hashed ones.
	links *strings.Replacer
}

// siteAssets is the set of web.Assets and of the catalogs' scripts (one a
// language, i18n-LANG.js: the client's messages, internal/i18n), made once
// for the process: the files are the binary's own, so every server of the
// process serves the same set, and gzipping the bundle at the best level
// takes a while (tens of milliseconds, which each of a test binary's
// hundreds of servers paid).
var siteAssets = sync.OnceValues(func() (*assetSet, error) {
	langs, err := siteCatalogs()
	if err != nil {
		return nil, err
	}
	scripts := map[string][]byte{}
	for _, l := range langs.Languages() {
		if scripts[catalogScript(l.Tag)], err = langs.ClientScript(l.Tag); err != nil {
			return nil, err
		}
	}
	return newAssetSet(web.Assets(), scripts)
})

// siteCatalogs are web's message catalogs, loaded once for the process,
// as siteAssets are.
var siteCatalogs = sync.OnceValues(func() (*i18n.Catalogs, error) { return i18n.Load(web.Catalogs()) })

// catalogScript is the name of the asset that gives the client lang's
// messages.
func catalogScript(lang string) string { return "i18n-" + lang + ".js" }

// newAssetSet reads every file at the root of fsys, and adds the files of
// made (name to bytes), which the server makes itself.
func newAssetSet(fsys fs.FS, made map[string][]byte) (*assetSet, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	set := &assetSet{files: map[string]*asset{}}
	var links []string
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
		links = append(links, `"/assets/`+e.Name()+`"`, `"/assets/`+a.hashed+`"`)
	}
	for name, data := range made {
		a, err := newAsset(name, data)
		if err != nil {
			return nil, err
		}
		set.files[name] = a
		links = append(links, `"/assets/`+name+`"`, `"/assets/`+a.hashed+`"`)
	}
	set.links = strings.NewReplacer(links...)
	return set, nil
}

func newAsset(name string, data []byte) (*asset, error) {
	sum := sha256.Sum256(data)
	digits := hex.EncodeToString(sum[:])
	ext := path.Ext(name)
	a := &asset{plain: data, etag: `"` + digits[:24] + `"`,
		hashed:      strings.TrimSuffix(name, ext) + "." + digits[:hashDigits] + ext,
		contentType: mime.TypeByExtension(ext)}
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

// link is page with every quoted /assets/ path it names ("/assets/app.js")
// turned into the file's hashed name: the page names the bundle of this
// binary, which a browser then keeps.
func (set *assetSet) link(page string) string { return set.links.Replace(page) }

// lookup finds the file a name asks for and whether the name is its
// hashed one. A name of the hashed form whose hash is not the file's
// (a bundle of an earlier binary) finds nothing: the server no longer has
// those bytes, and answering another file under a name that says
// "immutable" would have a cache keep the wrong file for a year.
func (set *assetSet) lookup(name string) (a *asset, hashed bool) {
	if a := set.files[name]; a != nil {
		return a, false
	}
	ext := path.Ext(name)
	base := strings.TrimSuffix(name, ext)
	dot := strings.LastIndex(base, ".")
	if dot < 0 {
		return nil, false
	}
	if a := set.files[base[:dot]+ext]; a != nil && a.hashed == name {
		return a, true
	}
	return nil, false
}

// serve answers GET /assets/{name} (and the favicon's own path).
func (set *assetSet) serve(w http.ResponseWriter, r *http.Request, name string) {
	a, hashed := set.lookup(name)
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	if hashed {
		h.Set("Cache-Control", immutable)
	}
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
