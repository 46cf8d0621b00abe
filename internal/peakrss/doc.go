// Package peakrss reads this process's peak resident memory, the figure
// the harness records for a measured trial and the benchmarks report.
//
// On Linux it is VmHWM from /proc/self/status: the high-water mark of the
// process's own address space since exec. getrusage's ru_maxrss is not
// that: Linux carries the parent's high-water mark over fork and exec into
// it, so a small child of a large parent (a measured trial under a runner
// that has grown, a test binary under the go command) would report the
// parent's size. ru_maxrss is the fallback where /proc is missing.
package peakrss
