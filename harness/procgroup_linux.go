package harness

import "syscall"

// setDeathSignal has the kernel kill the command when its parent dies.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
