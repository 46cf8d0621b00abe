package harness

import (
	"os/exec"
	"syscall"
	"time"
)

// killGroupOnCancel makes a command's cancellation (budget, Ctrl-C) kill
// its whole process group, so programs it started are not left running
// orphaned. With newGroup the command leads a new group; without, it
// stays in ours (a measured child's tool, which the parent kills with the
// child's group).
func killGroupOnCancel(cmd *exec.Cmd, newGroup bool) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// A command dies with this process, however this process dies (a
	// SIGKILL cannot run the cancellation below): no orphan goes on
	// computing, or holding memory, after its parent is gone.
	setDeathSignal(cmd.SysProcAttr)
	if newGroup {
		cmd.SysProcAttr.Setpgid = true
		cmd.Cancel = func() error {
			// -pid: the group the command leads.
			if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
				return cmd.Process.Kill()
			}
			return nil
		}
	}
	// A grandchild holding the output pipes must not keep Wait blocked.
	cmd.WaitDelay = 2 * time.Second
}
