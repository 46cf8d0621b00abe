//go:build unix

package peakrss

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// Self returns the process's peak resident memory in bytes: VmHWM where
// /proc has it, else getrusage's maximum RSS; 0 if neither answers.
func Self() uint64 {
	if s, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.Lines(string(s)) {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				if err == nil {
					return kb << 10
				}
			}
		}
	}
	return rusage(syscall.RUSAGE_SELF)
}

// Children returns the largest peak resident memory of the descendants
// this process has waited for, in bytes (getrusage RUSAGE_CHILDREN).
func Children() uint64 { return rusage(syscall.RUSAGE_CHILDREN) }

// Reset sets Linux's VmHWM to the current resident set, so that Self then
// measures what follows alone. Elsewhere it does nothing.
func Reset() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func rusage(who int) uint64 {
	var ru syscall.Rusage
	if syscall.Getrusage(who, &ru) != nil || ru.Maxrss <= 0 {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return uint64(ru.Maxrss) // bytes there, kilobytes elsewhere
	}
	return uint64(ru.Maxrss) << 10
}
