package harness

import (
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// killGroupOnCancel makes a command's cancellation (budget, Ctrl-C) kill
// its whole process group, so programs it started are not left running
// orphaned. With newGroup the command leads a new group; without, it
// stays in ours (a measured child's tool, which the parent kills with the
// child's group).
func killGroupOnCancel(cmd *exec.Cmd, newGroup, guarded bool) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// A command dies with this process, however this process dies (a
	// SIGKILL cannot run the cancellation below): no orphan goes on
	// computing, or holding memory, after its parent is gone.
	setDeathSignal(cmd.SysProcAttr, guarded)
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
	cmd.WaitDelay = outputDelay
}

// outputDelay is how long a command's output is read after it ended or
// was cancelled: what a program it left behind still writes after that is
// dropped.
const outputDelay = 2 * time.Second

// runGroup runs cmd as killGroupOnCancel sets it up and, once it has
// ended, however it ended, kills its process group (newGroup: the group
// the command leads), so a program it started and left running does not
// outlive its trial. The command's own exit decides the error: a program
// it left holding its output (a daemon, a forgotten `&`) is not waited for
// beyond outputDelay, and does not turn a success into a failure. Without
// newGroup (a measured child's tool, in the child's group) the group is
// the parent's to kill, when the child ends.
func runGroup(cmd *exec.Cmd, newGroup, guarded bool) error {
	killGroupOnCancel(cmd, newGroup, guarded)
	// Output that is not a file is read through pipes made here, not by
	// exec, whose Wait would wait for every holder of the pipe: Wait then
	// returns when the command exits, and the reading ends with the group.
	var readers, writers []*os.File
	var copies sync.WaitGroup
	pipes := map[io.Writer]*os.File{}
	pipe := func(w io.Writer) (io.Writer, error) {
		if w == nil {
			return nil, nil
		}
		if _, ok := w.(*os.File); ok {
			return w, nil
		}
		if pw, ok := pipes[w]; ok {
			return pw, nil // stdout and stderr to one writer share one pipe, as with exec
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		readers, writers = append(readers, pr), append(writers, pw)
		pipes[w] = pw
		copies.Add(1)
		go func() {
			defer copies.Done()
			_, _ = io.Copy(w, pr)
		}()
		return pw, nil
	}
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			f.Close()
		}
	}
	var err error
	if cmd.Stdout, err = pipe(cmd.Stdout); err == nil {
		cmd.Stderr, err = pipe(cmd.Stderr)
	}
	if err == nil {
		err = cmd.Start()
	}
	closeAll(writers) // the command holds its own copies
	if err == nil {
		err = cmd.Wait()
		if newGroup {
			// -pid: the group the command led, whatever is left in it.
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	done := make(chan struct{})
	go func() { copies.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(outputDelay):
		// Something outside the group still holds the output.
		closeAll(readers)
		<-done
	}
	closeAll(readers)
	return err
}
