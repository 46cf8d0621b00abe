package harness_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/harness"
)

// A tool's output is not kept whole: a failing program that printed 100 MB
// costs a bounded tail, and the error shows that tail (where the program
// says why it failed) and how much came before it.
func TestRunCommandKeepsBoundedTail(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	spec := loadSpecTo(t, writeSpec(t, fisherSpec), t.TempDir())
	tr := harness.NewTrialRun(&harness.Runner{}, spec, spec.Trials()[0])
	tests := []struct {
		name   string
		script string
		want   []string
	}{
		{"100 MB, then the reason", `head -c 100000000 /dev/zero | tr '\0' x; echo; echo the reason >&2; exit 3`,
			[]string{"exit status 3", "earlier bytes of output not kept", "the reason"}},
		{"short output kept whole", `echo short; exit 2`, []string{"exit status 2", "\nshort\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := tr.RunCommand(context.Background(), t.TempDir(), []string{"sh", "-c", tt.script})
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Less(t, len(err.Error()), 2500, "the message is bounded")
			assert.NotContains(t, err.Error(), strings.Repeat("x", 2100))
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(32<<20), "the output was held in memory")
		})
	}
}

// A program the external command leaves running dies with the command's
// end (its process group is killed), whether it holds the command's
// output or not; one holding the output does not turn the command's
// success into a failure ("exec: WaitDelay expired") nor hold the trial.
func TestRunCommandLeavesNoChild(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	spec := loadSpecTo(t, writeSpec(t, fisherSpec), t.TempDir())
	tr := harness.NewTrialRun(&harness.Runner{}, spec, spec.Trials()[0])
	tests := []struct {
		name    string
		script  string // {pid}: the file the background child's pid is written to
		wantErr string
	}{
		{"child holds the output", `sleep 60 & echo $! > {pid}; echo trained`, ""},
		{"child with its own output", `sleep 60 >/dev/null 2>&1 & echo $! > {pid}; echo trained`, ""},
		{"child of a failing command", `sleep 60 & echo $! > {pid}; echo why >&2; exit 4`, "exit status 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			start := time.Now()
			err := tr.RunCommand(context.Background(), dir, []string{"sh", "-c", strings.ReplaceAll(tt.script, "{pid}", pidFile)})
			if tt.wantErr == "" {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.NotContains(t, err.Error(), "WaitDelay")
			}
			assert.Less(t, time.Since(start), 30*time.Second, "the child was not waited for")
			b, err := os.ReadFile(pidFile)
			require.NoError(t, err)
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			require.NoError(t, err)
			assert.Eventually(t, func() bool { return !running(pid) }, 5*time.Second, 20*time.Millisecond, "the background child %d outlived the command", pid)
		})
	}
}

// running says pid is a live process (not a zombie).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}
