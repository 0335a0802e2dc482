// Command arbiter plays and analyses Pommel, Eximo, Checkers 2011 and the
// Punt games. See "arbiter help".
package main

import (
	"os"

	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/internal/cli"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
