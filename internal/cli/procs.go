package cli

import (
	"os"
	"runtime"
)

// oversubscribe gives the Go scheduler twice as many processors as it
// would take (the cores it may use), unless $GOMAXPROCS says otherwise,
// for the commands that serve many connections on few cores (serve,
// loadtest). A goroutine back from a system call (the SQLite writer's
// WAL write, a socket's read) then finds a free processor more often and
// waits on the kernel's scheduler rather than behind the goroutines its
// work woke: with 10,000 games on 2 cores at 2,000 moves a second, the
// acknowledgement p99 went from 127 ms to 17 ms (docs/server.md). It
// answers the processors set, for the log.
func oversubscribe() int {
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0)
	}
	n := 2 * runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(n)
	return n
}
