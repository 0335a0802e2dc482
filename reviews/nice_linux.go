package reviews

import (
	"runtime"
	"syscall"
)

// lowPriority runs f on an OS thread of its own at a lower scheduling
// priority (nice 10): on a machine short of cores, a review's search
// yields to the AI seats' turns and the server's requests. The thread
// is locked and never unlocked, so Go ends it with its goroutine: a
// thread's nice cannot be lowered back without privilege, and must not
// leak to other goroutines.
func lowPriority(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		// Best effort: a system that refuses leaves the review at the
		// normal priority.
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 10)
		f()
	}()
	<-done
}
