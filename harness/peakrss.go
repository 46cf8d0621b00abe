package harness

import "kcalab/internal/peakrss"

// ownPeakRSSMB is a measured child's peak resident memory in MiB as it sees
// it: its own (VmHWM) or that of a descendant it waited for (an external
// command's), whichever is larger. The parent's wait4 figure is not enough:
// Linux carries the parent's high-water mark over fork and exec into it
// (package peakrss), so under a runner that had grown to 2.6 GB every child
// reported 2.6 GB. 0 when the system does not say.
func ownPeakRSSMB() float64 {
	return float64(max(peakrss.Self(), peakrss.Children())) / (1 << 20)
}
