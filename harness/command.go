package harness

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"kcalab/internal/termsafe"
)

// RunCommand runs a program for the trial in dir: it says on the log what
// runs before it does (a spec is a file people share, and this runs a
// program it names), runs it in its own process group, killed whole when
// it ends or ctx ends (a budget, Ctrl-C) (runGroup), and on failure returns
// an error with the end of its output.
func (tr *TrialRun) RunCommand(ctx context.Context, dir string, args []string) error {
	fmt.Fprintf(tr.Log(), "kcalab: trial %s runs external command: %s\n", tr.Trial.ID, termsafe.CommandLine(args))
	return runCommand(ctx, dir, args)
}

// commandTail is how much of a program's output is kept for its error
// message: the end, where a program says why it failed. The rest is
// counted and dropped, so a chatty tool (hundreds of MB of progress)
// costs no memory.
const commandTail = 2000

func runCommand(ctx context.Context, dir string, args []string) error {
	out := &tailWriter{max: commandTail}
	run := append([]string(nil), args...)
	if !strings.ContainsRune(run[0], filepath.Separator) {
		// Found as exec would find it, and refused as exec would: the
		// guard's shell must not look it up by a PATH of its own.
		p, err := exec.LookPath(run[0])
		if err != nil {
			return fmt.Errorf("external command %s: %w", strings.Join(args, " "), err)
		}
		run[0] = p
	}
	// The guard kills what the command started should kcalab die without
	// a word (SIGKILL); a path relative to dir stays relative to it.
	name, argv, guarded := guardCommand(run)
	cmd := exec.CommandContext(ctx, name, argv...)
	cmd.Dir = dir
	cmd.Stdout = out
	cmd.Stderr = out
	if err := runGroup(cmd, !ChildRequested(), guarded); err != nil {
		return fmt.Errorf("external command %s: %w\n%s", strings.Join(args, " "), err, out.String())
	}
	return nil
}

// tailWriter keeps the last max bytes written to it and counts the rest.
// Stdout and stderr share it, so it locks.
type tailWriter struct {
	mu      sync.Mutex
	max     int
	buf     []byte // at most 2·max bytes, the last max of which are kept
	dropped int64
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	if len(p) > w.max {
		w.dropped += int64(len(p) - w.max)
		p = p[len(p)-w.max:]
	}
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - w.max; over > 0 && len(w.buf) >= 2*w.max {
		w.dropped += int64(over)
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return n, nil
}

// String is the kept end of the output, marked when something before it
// was dropped.
func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	b, dropped := w.buf, w.dropped
	if over := len(b) - w.max; over > 0 {
		b, dropped = b[over:], dropped+int64(over)
	}
	if dropped == 0 {
		return string(b)
	}
	return fmt.Sprintf("[%d earlier bytes of output not kept]\n…%s", dropped, b)
}

// tail is the end of s, at most n bytes, marked when cut.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
