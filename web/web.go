// Package web is the browser client of arbiter serve: the TypeScript
// sources under src/, compiled by esbuild into static/app.js, and the
// style sheets under src/css/, bundled by esbuild into static/app.css
// (both committed, so that a fresh clone serves without node or a build
// step). The server embeds static/ and serves it under /assets/. The
// message catalogs under i18n/, one file a language, are the words of the
// pages, the server's and the script's alike (package internal/i18n).
package web

import (
	"embed"
	"io/fs"
)

// The bundle is rebuilt with `go generate ./web/`; TestBundleIsFresh fails
// when the committed one differs from a fresh build of src/.
//
//go:generate go tool esbuild src/main.ts --bundle --format=iife --target=es2020 --charset=utf8 --minify --outfile=static/app.js
//go:generate go tool esbuild src/tournaments.ts --bundle --format=iife --target=es2020 --charset=utf8 --minify --outfile=static/tournaments.js
//go:generate go tool esbuild src/css/app.css --bundle --charset=utf8 --minify --outfile=static/app.css
//go:embed static
var static embed.FS

// Assets are the files the pages load: app.js and app.css at the root,
// and tournaments.js, the tournaments' pages' script in place of app.js.
func Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // "static" is embedded above, so this cannot happen
	}
	return sub
}

//go:embed i18n/*.toml
var catalogs embed.FS

// Catalogs are the message catalogs, one TOML file a language named by its
// tag (en.toml, nl.toml), at the root.
func Catalogs() fs.FS {
	sub, err := fs.Sub(catalogs, "i18n")
	if err != nil {
		panic(err) // "i18n" is embedded above, so this cannot happen
	}
	return sub
}
