//go:build !linux

package harness

// threadCPU cannot tell a thread's CPU time here.
func threadCPU() (float64, bool) { return 0, false }
