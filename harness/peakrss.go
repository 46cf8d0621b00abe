package harness

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// childPeakKey carries a measured child's own peak RSS (MiB) in its record
// to the parent, which moves it to MetricRSS.
const childPeakKey = "child.peak_rss_mb"

// ownPeakRSSMB is this process's peak resident memory in MiB as the child
// itself sees it: Linux's VmHWM (its own address space since exec), and
// the largest of the descendants it waited for (an external command's).
// The parent's wait4 figure is not enough: Linux carries the parent's own
// high-water mark over fork and exec into the child's ru_maxrss, so a
// child forked by a runner that had grown to 2.6 GB reported 2.6 GB
// whatever it used. 0 when the system does not say.
func ownPeakRSSMB() float64 {
	var peak float64
	if f, err := os.Open("/proc/self/status"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				if kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64); err == nil {
					peak = kb / 1024
				}
				break
			}
		}
		_ = f.Close()
	}
	if peak == 0 {
		return 0 // no /proc: the parent keeps the operating system's figure
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err == nil {
		peak = max(peak, float64(ru.Maxrss)/1024) // Linux: kilobytes
	}
	return peak
}
