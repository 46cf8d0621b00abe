package tmpfiles_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/internal/tmpfiles"
)

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

func TestClean(t *testing.T) {
	dir := t.TempDir()
	dead := strconv.Itoa(deadPID(t))
	live := strconv.Itoa(os.Getppid())
	files := []struct {
		name    string
		dir     bool
		removed bool
	}{
		{"kcalab-table-" + dead + "-123", true, true},
		{"kcalab-spill-" + dead + "-9", true, true},
		{".results.jsonl." + dead + "-abc.kcalab-tmp", false, true},
		{".offset-0123.bin." + dead + "-z1.kcalab-tmp", false, true},
		{"kcalab-table-" + live + "-123", true, false},
		{".report.html." + live + "-abc.kcalab-tmp", false, false},
		{".results.jsonl.mybackup", false, false},
		{"results.jsonl", false, false},
		{"kcalab-notes.txt", false, false},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if f.dir {
			require.NoError(t, os.MkdirAll(filepath.Join(p, "inner"), 0o755))
		} else {
			require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
		}
	}
	var want []string
	for _, f := range files {
		if f.removed {
			want = append(want, f.name)
		}
	}
	got := tmpfiles.Clean(dir)
	sort.Strings(got)
	sort.Strings(want)
	assert.Equal(t, want, got)
	for _, f := range files {
		_, err := os.Lstat(filepath.Join(dir, f.name))
		assert.Equal(t, f.removed, os.IsNotExist(err), f.name)
	}
}

func TestNamesCarryThePID(t *testing.T) {
	me := os.Getpid()
	assert.Equal(t, me, tmpfiles.Owner(tmpfiles.AtomicName("results.jsonl")))
	d, err := os.MkdirTemp(t.TempDir(), tmpfiles.Pattern("child"))
	require.NoError(t, err)
	assert.Equal(t, me, tmpfiles.Owner(filepath.Base(d)))
	assert.Equal(t, 0, tmpfiles.Owner(".results.jsonl.mybackup"))
}
