//go:build unix

package corpus

import (
	"syscall"
	"time"
)

// cpuTime is the process's user + system CPU time: a measure of work that
// other load on a shared machine inflates less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
