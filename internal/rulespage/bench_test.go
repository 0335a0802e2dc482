package rulespage

import (
	"io/fs"
	"testing"

	"github.com/arbiter-games/arbiter/docs"
)

// BenchmarkPommelPage renders the longest rules page with a renderer made
// each time, as the server does, to show what that costs beside reusing one.
func BenchmarkPommelPage(b *testing.B) {
	src, err := fs.ReadFile(docs.Rules(), "pommel.md")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("new renderer", func(b *testing.B) {
		for b.Loop() {
			if _, err := New(testPaths).HTML(src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reused renderer", func(b *testing.B) {
		r := New(testPaths)
		for b.Loop() {
			if _, err := r.HTML(src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
