package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
	"kcalab/schema"
)

// Two kcalab processes started at the same moment on one output directory,
// 20 times: with two specs, one writes and the other is refused after
// waiting for it (an output directory belongs to one spec); with the same
// spec twice, the second waits and reuses every trial. No process reports
// success for records the file does not hold, and none is lost.
func TestConcurrentRunsLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 80 processes")
	}
	dir := t.TempDir()
	specA := filepath.Join(dir, "a.yaml")
	specB := filepath.Join(dir, "b.yaml")
	require.NoError(t, os.WriteFile(specA, []byte("name: conc-a\ndata: {source: fisher}\nsvd: {backend: dense, rank: 2}\nmethod: [ca, gini]\n"), 0o644))
	require.NoError(t, os.WriteFile(specB, []byte("name: conc-b\ndata: {source: fisher}\nsvd: {backend: dense, rank: [1, 2]}\n"), 0o644))
	trialIDs := map[string][]string{}
	for name, p := range map[string]string{"conc-a": specA, "conc-b": specB} {
		s, err := schema.LoadSpec(p)
		require.NoError(t, err)
		for _, tr := range s.Trials() {
			trialIDs[name] = append(trialIDs[name], tr.ID)
		}
	}
	type outcome struct {
		spec           string
		stdout, stderr string
		err            error
	}
	start := func(out, spec string) outcome {
		argsJSON, err := json.Marshal([]string{"-cache", "off", "-wait", "1m", "-out", out, spec})
		require.NoError(t, err)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envTestRun+"="+string(argsJSON))
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err = cmd.Run()
		name := "conc-a"
		if spec == specB {
			name = "conc-b"
		}
		return outcome{name, o.String(), e.String(), err}
	}
	for _, pair := range []struct {
		name   string
		first  string
		second string
	}{{"two specs", specA, specB}, {"one spec twice", specA, specA}} {
		t.Run(pair.name, func(t *testing.T) {
			for i := range 20 {
				out := filepath.Join(dir, fmt.Sprintf("%s-%02d", strings.ReplaceAll(pair.name, " ", "-"), i))
				var wg sync.WaitGroup
				var res [2]outcome
				for j, spec := range []string{pair.first, pair.second} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						res[j] = start(out, spec)
					}()
				}
				wg.Wait()
				recs, _, err := records.Read(filepath.Join(out, records.FileName))
				require.NoError(t, err)
				have := map[string]records.Record{}
				for _, r := range recs {
					have[r.ID] = r
				}
				succeeded := 0
				for _, r := range res {
					if r.err != nil {
						assert.NotContains(t, r.stdout, "results.jsonl", "run %d: a refused run reports results", i)
						assert.Contains(t, r.stderr, "belongs to one spec", "run %d: %s", i, r.stderr)
						continue
					}
					succeeded++
					assert.Contains(t, r.stdout, fmt.Sprintf("%s: %d trials", r.spec, len(trialIDs[r.spec])))
					for _, id := range trialIDs[r.spec] {
						rec, ok := have[id]
						if assert.True(t, ok, "run %d: %s reported success, but its trial %s is not in the file", i, r.spec, id) {
							assert.Equal(t, r.spec, rec.Spec)
							assert.Equal(t, "ok", rec.Status)
						}
					}
				}
				if pair.first == pair.second {
					assert.Equal(t, 2, succeeded, "run %d: %+v", i, res)
					assert.Len(t, recs, len(trialIDs["conc-a"]), "run %d", i)
				} else {
					assert.Equal(t, 1, succeeded, "run %d: one spec writes, the other is refused: %+v", i, res)
				}
				_, err = os.Stat(filepath.Join(out, ".kcalab.lock"))
				assert.True(t, os.IsNotExist(err), "run %d: lock file left", i)
			}
		})
	}
}
