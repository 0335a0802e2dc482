//go:build unix

package loadtest

import (
	"fmt"
	"syscall"
)

// checkFiles refuses a run that needs more open files than this process
// may open (ulimit -n), so that it does not fail halfway for want of
// them.
func checkFiles(need, perGame int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return nil
	}
	if uint64(need) > lim.Cur {
		return fmt.Errorf("loadtest: the run needs about %d open files (%d a game, 1 a flood worker, 1 a slow connection) and this process may open %d (ulimit -n); hold fewer or raise the limit",
			need, perGame, lim.Cur)
	}
	return nil
}
