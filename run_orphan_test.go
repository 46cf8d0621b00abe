package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"kcalab/harness"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// measuredChildrenOf lists the pids whose parent is pid and whose
// environment makes them a measured trial's child (from /proc): the runner
// starts other programs too (git).
func measuredChildrenOf(pid int) []int {
	es, _ := os.ReadDir("/proc")
	var kids []int
	for _, e := range es {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces: split after ')'.
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) <= 1 || fields[1] != strconv.Itoa(pid) {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(env, []byte(harness.EnvChild+"=")) {
			kids = append(kids, p)
		}
	}
	return kids
}

func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z" // a zombie has finished
}

// A runner killed outright (SIGKILL) while a measured trial's child runs
// takes the child with it (no orphan computing on), and the next run
// removes the temporary directory the killed one could not.
func TestKilledRunnerLeavesNoOrphan(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a runner and kills it")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	require.NoError(t, os.MkdirAll(tmp, 0o755))
	spec := filepath.Join(dir, "slow.yaml")
	// About a minute of work in the child: far longer than the test waits.
	require.NoError(t, os.WriteFile(spec, []byte(`name: slow
data: {source: synthetic, table: cut, window: 10}
synthetic: {tokens: 3000000, words: 400, clusters: 20, noise: 0.5}
eval: {sets: [synthetic]}
method: kca
svd: {rank: 50}
measure: {process: true}
`), 0o644))
	argsJSON, err := json.Marshal([]string{"-cache", "off", "-out", filepath.Join(dir, "out"), spec})
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envTestRun+"="+string(argsJSON), "TMPDIR="+tmp)
	require.NoError(t, cmd.Start())
	parent := cmd.Process.Pid
	var kids []int
	for deadline := time.Now().Add(20 * time.Second); len(kids) == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		kids = measuredChildrenOf(parent)
	}
	if len(kids) == 0 {
		_ = cmd.Process.Kill()
		t.Fatal("the measured child did not start")
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	for _, k := range kids {
		deadline := time.Now().Add(5 * time.Second)
		for alive(k) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(k) {
			_ = syscall.Kill(k, syscall.SIGKILL)
			t.Errorf("child %d of the killed runner %d was still running 5 s later", k, parent)
		}
	}
	left, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("kcalab-child-%d-*", parent)))
	require.NotEmpty(t, left, "the killed runner's temporary directory")

	t.Setenv("TMPDIR", tmp)
	_, stderr, err := runCLI(t, "-out", filepath.Join(dir, "fisher"), "experiments/fisher.yaml")
	require.NoError(t, err, stderr)
	for _, l := range left {
		assert.NoDirExists(t, l, "a stale temporary directory was not removed")
	}
}

// Hostile round 5, m10: an external command's own children outlived a
// kcalab killed outright (SIGKILL): the kernel's parent-death signal
// reaches only a direct child. The command now runs under a guard that
// hears of kcalab's death and kills the command's whole group, in process
// or in a measured child.
func TestKilledRunnerLeavesNoGrandchild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a runner and kills it")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	for _, measured := range []bool{false, true} {
		t.Run(fmt.Sprintf("measured=%v", measured), func(t *testing.T) {
			dir := t.TempDir()
			probe := filepath.Join(dir, "probe")
			require.NoError(t, os.MkdirAll(probe, 0o755))
			script := fmt.Sprintf(`echo $$ > %[1]s/sh.tmp && mv %[1]s/sh.tmp %[1]s/sh; sleep 300 & echo $! > %[1]s/sleep.tmp && mv %[1]s/sleep.tmp %[1]s/sleep; wait`, probe)
			spec := filepath.Join(dir, "tool.yaml")
			require.NoError(t, os.WriteFile(spec, []byte(fmt.Sprintf(`name: tool
data: {source: synthetic}
synthetic: {tokens: 2000}
eval: {sets: [synthetic]}
method: external
external: {command: [sh, -c, %q]}
measure: {process: %v}
`, script, measured)), 0o644))
			argsJSON, err := json.Marshal([]string{"-cache", "off", "-out", filepath.Join(dir, "out"), spec})
			require.NoError(t, err)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), envTestRun+"="+string(argsJSON))
			require.NoError(t, cmd.Start())
			pidOf := func(name string) int {
				b, err := os.ReadFile(filepath.Join(probe, name))
				if err != nil {
					return 0
				}
				n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				return n
			}
			deadline := time.Now().Add(30 * time.Second)
			for pidOf("sleep") == 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			tool, grandchild := pidOf("sh"), pidOf("sleep")
			if grandchild == 0 {
				_ = cmd.Process.Kill()
				t.Fatal("the external command did not start its child")
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			_ = cmd.Wait()
			for _, pid := range []int{tool, grandchild} {
				deadline := time.Now().Add(5 * time.Second)
				for alive(pid) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if alive(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("process %d of the external command was still running 5 s after the runner was killed", pid)
				}
			}
		})
	}
}
