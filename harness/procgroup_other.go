//go:build !linux

package harness

import "syscall"

// setDeathSignal does nothing where the kernel has no parent-death
// signal: there a killed parent's children are ended by its cancellation
// only.
func setDeathSignal(*syscall.SysProcAttr, bool) {}

// guardCommand runs args as they are: without a parent-death signal a
// guard would never hear of kcalab's death.
func guardCommand(args []string) (string, []string, bool) {
	return args[0], args[1:], false
}
