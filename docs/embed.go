// Package docs holds the project's documentation that the program itself
// serves: the rules pages under rules/, one per game family, and the
// screenshots under img/ they show, embedded so that `arbiter serve`
// shows them from the binary alone.
package docs

import (
	"embed"
	"io/fs"
)

//go:embed rules/*.md
var rules embed.FS

//go:embed img/*.png
var images embed.FS

// Rules are the rules pages, by file name at the root: "pommel.md",
// "eximo.md", "checkers-2011.md", "punt.md".
func Rules() fs.FS {
	sub, err := fs.Sub(rules, "rules")
	if err != nil {
		panic(err) // "rules" is embedded above, so this cannot happen
	}
	return sub
}

// Images are the screenshots the pages show, by file name at the root:
// "pommel-start.png", "home.png".
func Images() fs.FS {
	sub, err := fs.Sub(images, "img")
	if err != nil {
		panic(err) // "img" is embedded above, so this cannot happen
	}
	return sub
}
