//go:build !linux

package reviews

// lowPriority runs f: only Linux lowers one thread's priority.
func lowPriority(f func()) { f() }
