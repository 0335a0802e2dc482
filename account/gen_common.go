//go:build ignore

// gen_common writes common.txt, the common-password list, from seeds.txt:
// `go generate ./account`. See package account/internal/commonpw.
package main

import (
	"log"
	"os"
	"strings"

	"github.com/arbiter-games/arbiter/account/internal/commonpw"
)

func main() {
	src, err := os.ReadFile("seeds.txt")
	if err != nil {
		log.Fatal(err)
	}
	seeds, err := commonpw.ParseSeeds(string(src))
	if err != nil {
		log.Fatal(err)
	}
	keys := commonpw.Expand(seeds)
	if err := os.WriteFile("common.txt", []byte(strings.Join(keys, "\n")+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
}
