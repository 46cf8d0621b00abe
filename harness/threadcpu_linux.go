package harness

import "golang.org/x/sys/unix"

// threadCPU is the CPU time of the calling OS thread, seconds; false when
// the system cannot tell.
func threadCPU() (float64, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return float64(ts.Sec) + float64(ts.Nsec)/1e9, true
}
