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
	if newGroup {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
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
