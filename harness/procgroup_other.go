//go:build !linux

package harness

import "syscall"

// setDeathSignal does nothing where the kernel has no parent-death
// signal: there a killed parent's children are ended by its cancellation
// only.
func setDeathSignal(*syscall.SysProcAttr) {}
