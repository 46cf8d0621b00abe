package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envTestRun makes the test binary run the command line given in it (JSON
// list of arguments) as kcalab's main would, signals included.
const envTestRun = "KCALAB_TEST_RUN"

func runAsChild(argsJSON string) int {
	var args []string
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
		fmt.Fprintln(os.Stderr, "bad", envTestRun, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return exitCode(run(ctx, args, os.Stdout, os.Stderr), os.Stderr)
}

// A cheap grid (24 trials, well under a second) on the synthetic corpus.
const killSpec = `name: killtest
seed: 7
data: {source: synthetic, table: cut, window: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}
synthetic: {tokens: 20000, words: 40, noise: 0.5}
eval: {sets: [synthetic]}
method: [kca, ca]
svd: {rank: 10}
`

var doneLine = regexp.MustCompile(`(?m)^kcalab: \[\d+/\d+\] ([0-9a-f]+)[ :]`)

// The runner killed (SIGKILL, or SIGINT) at seeded random moments, with
// and without -fresh, resuming in the same directory or starting afresh,
// always leaves a results.jsonl that reads back without error, holds every
// trial the progress output reported finished, each exactly as a complete
// run computed it, and no id twice.
func TestKillAtRandomMoments(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 24 processes")
	}
	dir := t.TempDir()
	specPath := filepath.Join(dir, "kill.yaml")
	require.NoError(t, os.WriteFile(specPath, []byte(killSpec), 0o644))

	refDir := filepath.Join(dir, "ref")
	_, stderr, err := runCLI(t, "-jobs", "2", "-out", refDir, specPath)
	require.NoError(t, err, stderr)
	refRecs, _, err := records.Read(filepath.Join(refDir, records.FileName))
	require.NoError(t, err)
	require.Len(t, refRecs, 24)
	ref := map[string]records.Record{}
	for _, r := range refRecs {
		ref[r.ID] = r
	}
	refFile, err := os.ReadFile(filepath.Join(refDir, records.FileName))
	require.NoError(t, err)

	rng := rand.New(rand.NewPCG(12, 1))
	out := filepath.Join(dir, "out0")
	for i := range 24 {
		sig := []os.Signal{syscall.SIGKILL, os.Interrupt}[i%2]
		fresh := i%3 == 2
		start := "resume"
		switch rng.IntN(3) {
		case 0: // a new, empty directory
			out = filepath.Join(dir, fmt.Sprintf("out%d", i+1))
			start = "empty"
		case 1: // a complete earlier run (what -fresh must not lose)
			out = filepath.Join(dir, fmt.Sprintf("out%d", i+1))
			require.NoError(t, os.MkdirAll(out, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(out, records.FileName), refFile, 0o644))
			start = "complete"
		}
		delay := time.Duration(rng.IntN(700)) * time.Millisecond
		name := fmt.Sprintf("%02d %v fresh=%v from %s after %v", i, sig, fresh, start, delay)
		t.Run(name, func(t *testing.T) {
			before, _, err := records.Read(filepath.Join(out, records.FileName))
			require.NoError(t, err)
			args := []string{"-cache", "off", "-jobs", "2", "-out", out}
			if fresh {
				args = append(args, "-fresh")
			}
			argsJSON, err := json.Marshal(append(args, specPath))
			require.NoError(t, err)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), envTestRun+"="+string(argsJSON))
			var progress bytes.Buffer
			cmd.Stderr = &progress
			require.NoError(t, cmd.Start())
			time.Sleep(delay)
			_ = cmd.Process.Signal(sig) // it may have finished already
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			select {
			case <-waited:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("the runner did not stop after %v:\n%s", sig, progress.String())
			}

			path := filepath.Join(out, records.FileName)
			recs, _, err := records.Read(path)
			require.NoError(t, err, "results.jsonl must stay valid:\n%s", progress.String())
			got := map[string]bool{}
			for _, r := range recs {
				assert.False(t, got[r.ID], "trial %s twice", r.ID)
				got[r.ID] = true
				want, ok := ref[r.ID]
				if assert.True(t, ok, "unknown trial %s", r.ID) {
					assert.Equal(t, want.Status, r.Status, r.ID)
					assert.Equal(t, want.Metrics, r.Metrics, r.ID)
					assert.Equal(t, want.CA, r.CA, r.ID)
				}
			}
			for _, m := range doneLine.FindAllStringSubmatch(progress.String(), -1) {
				assert.True(t, got[m[1]], "trial %s reported finished but not in %s", m[1], path)
			}
			for _, r := range before {
				assert.True(t, got[r.ID], "trial %s was saved before this run and is lost", r.ID)
			}
		})
	}
}
