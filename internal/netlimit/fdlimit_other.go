//go:build !unix

package netlimit

import "errors"

// FDLimit returns the process's soft and hard limits on open files. On
// this system there is no RLIMIT_NOFILE: it returns
// errors.ErrUnsupported, and DefaultConfig(0) gives the default caps.
func FDLimit() (soft, hard uint64, err error) {
	return 0, 0, errors.ErrUnsupported
}
