//go:build unix

package netlimit

import "syscall"

// FDLimit returns the process's soft and hard RLIMIT_NOFILE, for the
// server to log and to pass to DefaultConfig.
//
// It does not raise the soft limit, because the Go runtime already has:
// since Go 1.19 package syscall, on every Unix, raises the soft limit at
// start (in an init function, before main) to the hard limit minus one,
// capped on macOS by kern.maxfilesperproc, and restores the original
// soft limit in child processes it starts. Calling syscall.Setrlimit
// again would gain one descriptor at most and would turn off that
// restoring for children (such as external engines), so FDLimit only
// reads. A limit still low here is the hard limit, which only the
// system can raise (ulimit -Hn, LimitNOFILE= in a systemd unit).
func FDLimit() (soft, hard uint64, err error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, 0, err
	}
	return uint64(lim.Cur), uint64(lim.Max), nil
}
