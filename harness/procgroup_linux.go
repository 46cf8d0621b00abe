package harness

import "syscall"

// setDeathSignal has the kernel signal the command when its parent dies:
// SIGKILL, or for a guarded command (guardCommand) SIGTERM, which its
// guard traps to kill the command's whole group.
func setDeathSignal(a *syscall.SysProcAttr, guarded bool) {
	a.Pdeathsig = syscall.SIGKILL
	if guarded {
		a.Pdeathsig = syscall.SIGTERM
	}
}

// guardScript runs "$@" as the child of a shell that, on SIGTERM (the
// parent-death signal the kernel sends when kcalab dies, however it dies:
// a SIGKILL runs none of kcalab's own cleanup), kills its process group:
// the command and everything it started. A parent-death signal reaches
// only a direct child, so without the guard a program the command started
// would outlive kcalab. The shell's status is the command's.
const guardScript = `trap 'kill -KILL 0' TERM; "$@" & c=$!; wait "$c"`

// guardCommand is the program and arguments that run args under the guard
// (guardScript); true when it is guarded.
func guardCommand(args []string) (string, []string, bool) {
	return "/bin/sh", append([]string{"-c", guardScript, "kcalab-guard"}, args...), true
}
