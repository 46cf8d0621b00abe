package harness

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"kcalab/internal/termsafe"
)

// RunCommand runs a program for the trial in dir: it says on the log what
// runs before it does (a spec is a file people share, and this runs a
// program it names), runs it in its own process group, killed whole when
// ctx ends (a budget, Ctrl-C), and on failure returns an error with the
// end of its output.
func (tr *TrialRun) RunCommand(ctx context.Context, dir string, args []string) error {
	fmt.Fprintf(tr.Log(), "kcalab: trial %s runs external command: %s\n", tr.Trial.ID, termsafe.CommandLine(args))
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stdout = &out
	cmd.Stderr = &out
	killGroupOnCancel(cmd, !ChildRequested())
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("external command %s: %w\n%s", strings.Join(args, " "), err, tail(out.String(), 2000))
	}
	return nil
}

// tail is the end of s, at most n bytes, marked when cut.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
