//go:build unix

package baselines

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time: benchmark throughput per
// CPU-second stays meaningful when other jobs share the cores.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
