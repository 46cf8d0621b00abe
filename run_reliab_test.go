package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An unwritable output directory is refused before the first trial, with
// the runner's reason, not a report error after all the work.
func TestRunUnwritableOutput(t *testing.T) {
	tests := []struct {
		name string
		out  func(t *testing.T) string
		want string
	}{
		{"parent is a file", func(t *testing.T) string {
			f := filepath.Join(t.TempDir(), "file")
			require.NoError(t, os.WriteFile(f, nil, 0o644))
			return filepath.Join(f, "out")
		}, "not a directory"},
		{"read-only directory", func(t *testing.T) string {
			if os.Geteuid() == 0 {
				t.Skip("root writes to read-only directories")
			}
			d := t.TempDir()
			require.NoError(t, os.Chmod(d, 0o555))
			t.Cleanup(func() { os.Chmod(d, 0o755) })
			return d
		}, "is not writable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, err := runCLI(t, "-out", tt.out(t), "experiments/fisher.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "-out")
			assert.NotContains(t, err.Error(), "report")
			assert.NotContains(t, stderr, "kcalab: [", "no trial ran")
		})
	}
}

// A spec's output: stays under results/ or the spec's directory unless the
// command line gives -out; a relative output: is relative to the spec file,
// and a symbolic link on the way is resolved before the check.
func TestRunSpecOutputConfined(t *testing.T) {
	tests := []struct {
		name    string
		output  string // "" = no output: key; {dir} is the spec's directory, {cwd} the working directory
		links   map[string]string
		withOut bool
		want    string // where results.jsonl lands, "" when refused
		wantErr string
	}{
		{name: "default", output: "", want: "{cwd}/results/confined"},
		{name: "absolute elsewhere", output: "/etc", wantErr: "is outside what a spec may write to"},
		{name: "climbs out of the spec dir", output: "../../elsewhere", wantErr: "is outside what a spec may write to"},
		{name: "under the spec dir", output: "{dir}/out/here", want: "{dir}/out/here"},
		{name: "relative: under the spec dir", output: "mine", want: "{dir}/mine"},
		{name: "under results/ of the working directory", output: "{cwd}/results/mine", want: "{cwd}/results/mine"},
		{name: "through a link to outside", output: "bundle/linkout", links: map[string]string{"{dir}/bundle/linkout": "{outside}"},
			wantErr: "resolves, through a symbolic link, to {outside}, outside what a spec may write to"},
		{name: "through a link to a parent", output: "up/x", links: map[string]string{"{dir}/up": ".."},
			wantErr: "through a symbolic link"},
		{name: "absolute elsewhere with -out", output: "/etc", withOut: true, want: "{dir}/cli"},
		// Hostile round 5, serious 2: results/ a link to a directory
		// elsewhere, and an output: naming a place under its target.
		{name: "absolute, under the target of a results/ link", output: "{outside}/deep/o3", links: map[string]string{"{cwd}/results": "{outside}"},
			wantErr: "output \"{outside}/deep/o3\" is outside what a spec may write to"},
		{name: "absolute, under the target of a link in the spec's directory", output: "{outside}/o4", links: map[string]string{"{dir}/bundle": "{outside}"},
			wantErr: "output \"{outside}/o4\" is outside what a spec may write to"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, outside, cwd := t.TempDir(), t.TempDir(), t.TempDir()
			dir, _ = filepath.EvalSymlinks(dir)
			cwd, _ = filepath.EvalSymlinks(cwd)
			sub := strings.NewReplacer("{dir}", dir, "{outside}", outside, "{cwd}", cwd)
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "real"), 0o755))
			for from, to := range tt.links {
				require.NoError(t, os.MkdirAll(filepath.Dir(sub.Replace(from)), 0o755))
				require.NoError(t, os.Symlink(sub.Replace(to), sub.Replace(from)))
			}
			body := "name: confined\ndata: {source: fisher}\nsvd: {rank: 2, backend: dense}\n"
			if tt.output != "" {
				body += "output: " + sub.Replace(tt.output) + "\n"
			}
			spec := filepath.Join(dir, "spec.yaml")
			require.NoError(t, os.WriteFile(spec, []byte(body), 0o644))
			args := []string{spec}
			if tt.withOut {
				args = []string{"-out", filepath.Join(dir, "cli"), spec}
			}
			t.Chdir(cwd)
			_, stderr, err := runCLI(t, args...)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), spec+":4: output")
				assert.Contains(t, err.Error(), sub.Replace(tt.wantErr))
				assert.Contains(t, err.Error(), "allowed: under results/ or "+dir+"/")
				assert.Contains(t, err.Error(), "-out")
				entries, _ := os.ReadDir(outside)
				assert.Empty(t, entries, "nothing written outside")
				return
			}
			require.NoError(t, err, stderr)
			assert.FileExists(t, filepath.Join(sub.Replace(tt.want), records.FileName))
		})
	}
}

// Nothing is written through a symbolic link: the default output
// results/<name>, results/ itself, a link inside the spec's directory (even
// one that stays inside it) and a sibling's directory whose page the run
// renders are refused, naming the link, and the place it points to gets
// nothing; a directory given with -out is the user's, link or not.
func TestRunSpecOutputNoLinks(t *testing.T) {
	tests := []struct {
		name    string
		output  string            // "" = no output: key
		links   map[string]string // {dir}: the spec's directory, {cwd}: the working directory, {outside}: elsewhere
		out     string            // -out
		specIn  string            // the directory the spec is given in ("" = {dir})
		want    string            // where results.jsonl lands, "" when refused
		wantErr string
	}{
		{name: "default output is a link", links: map[string]string{"{cwd}/results/nolinks": "{outside}"},
			wantErr: "{dir}/spec.yaml: the default output results/nolinks goes through {cwd}/results/nolinks, a symbolic link (to {outside})"},
		{name: "results/ is a link", links: map[string]string{"{cwd}/results": "{outside}"},
			wantErr: "the default output results/nolinks goes through {cwd}/results, a symbolic link (to {outside})"},
		{name: "output: under results/, itself a link", output: "{cwd}/results/mine", links: map[string]string{"{cwd}/results": "{outside}"},
			wantErr: "{dir}/spec.yaml:4: output \"{cwd}/results/mine\" goes through {cwd}/results, a symbolic link"},
		{name: "output: through a link that stays inside", output: "bundle/linkin", links: map[string]string{"{dir}/bundle/linkin": "{dir}/real"},
			wantErr: "goes through {dir}/bundle/linkin, a symbolic link (to {dir}/real)"},
		{name: "a link from one place to another in the spec's directory", output: "{dir}/up/mine", links: map[string]string{"{dir}/up": "{dir}/real"},
			wantErr: "goes through {dir}/up, a symbolic link"},
		{name: "a link above the spec's directory is the machine's", specIn: "{outside}/via", output: "mine", links: map[string]string{"{outside}/via": "{dir}"},
			want: "{dir}/mine"},
		{name: "-out a link: the user's choice", out: "{dir}/cli", links: map[string]string{"{dir}/cli": "{outside}"}, want: "{outside}"},
		{name: "plain default", want: "{cwd}/results/nolinks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, outside, cwd := t.TempDir(), t.TempDir(), t.TempDir()
			dir, _ = filepath.EvalSymlinks(dir)
			cwd, _ = filepath.EvalSymlinks(cwd)
			sub := strings.NewReplacer("{dir}", dir, "{outside}", outside, "{cwd}", cwd)
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "real"), 0o755))
			for from, to := range tt.links {
				require.NoError(t, os.MkdirAll(filepath.Dir(sub.Replace(from)), 0o755))
				require.NoError(t, os.Symlink(sub.Replace(to), sub.Replace(from)))
			}
			body := "name: nolinks\ndata: {source: fisher}\nsvd: {rank: 2, backend: dense}\n"
			if tt.output != "" {
				body += "output: " + sub.Replace(tt.output) + "\n"
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, "spec.yaml"), []byte(body), 0o644))
			spec := filepath.Join(dir, "spec.yaml")
			if tt.specIn != "" {
				spec = filepath.Join(sub.Replace(tt.specIn), "spec.yaml")
			}
			args := []string{spec}
			if tt.out != "" {
				args = []string{"-out", sub.Replace(tt.out), spec}
			}
			t.Chdir(cwd)
			_, stderr, err := runCLI(t, args...)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), sub.Replace(tt.wantErr))
				assert.Contains(t, err.Error(), "-out")
				entries, _ := os.ReadDir(outside)
				assert.Empty(t, entries, "nothing written through the link")
				entries, _ = os.ReadDir(filepath.Join(dir, "real"))
				assert.Empty(t, entries, "nothing written through the link")
				return
			}
			require.NoError(t, err, stderr)
			assert.FileExists(t, filepath.Join(sub.Replace(tt.want), records.FileName))
		})
	}
	t.Run("-index: results/ is a link", func(t *testing.T) {
		outside, cwd := t.TempDir(), t.TempDir()
		t.Chdir(cwd)
		require.NoError(t, os.Symlink(outside, "results"))
		_, _, err := runCLI(t, "-index")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "-index: writing results (a link to "+outside+"): is a symbolic link")
		entries, _ := os.ReadDir(outside)
		assert.Empty(t, entries, "nothing written through the link")
	})
	t.Run("a sibling's directory is a link", func(t *testing.T) {
		dir, outside, cwd := t.TempDir(), t.TempDir(), t.TempDir()
		for _, name := range []string{"one", "two"} {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+".yaml"),
				[]byte("name: "+name+"\ndata: {source: fisher}\nsvd: {rank: 2, backend: dense}\n"), 0o644))
		}
		t.Chdir(cwd)
		// two's results, moved outside and linked back as results/two.
		_, stderr, err := runCLI(t, "-out", outside, filepath.Join(dir, "two.yaml"))
		require.NoError(t, err, stderr)
		require.NoError(t, os.Remove(filepath.Join(outside, "report.html")))
		require.NoError(t, os.MkdirAll("results", 0o755))
		require.NoError(t, os.Symlink(outside, filepath.Join("results", "two")))
		_, stderr, err = runCLI(t, filepath.Join(dir, "one.yaml"))
		require.NoError(t, err, stderr)
		assert.Contains(t, stderr, "kcalab: warning: index: 1 spec(s) marked on results/index.html as not shown: two: report: writing results/two (a link to "+outside+"): is a symbolic link")
		assert.NoFileExists(t, filepath.Join(outside, "report.html"), "nothing written through the link")
		assert.FileExists(t, filepath.Join(cwd, "results", "one", "report.html"))
	})
}

// An interrupted run ends with "interrupted" and what was kept, never a
// report error (the report is not written for a partial run).
func TestRunInterruptedMessage(t *testing.T) {
	tests := []struct {
		name  string
		prior bool // a complete earlier run in the directory
		want  string
	}{
		{"nothing done yet", false, "interrupted: 0 trial(s) finished in this run, 0 reused, 3 of 3 not done"},
		{"after a complete run, with -fresh", true, "interrupted: 0 trial(s) finished in this run, 0 reused, 3 of 3 not done"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "new")
			if tt.prior {
				_, stderr, err := runCLI(t, "-out", out, "experiments/fisher.yaml")
				require.NoError(t, err, stderr)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var o, e bytes.Buffer
			err := run(ctx, []string{"-cache", "off", "-fresh", "-out", out, "experiments/fisher.yaml"}, &o, &e)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "saved in "+filepath.Join(out, "results.jsonl"))
			assert.NotContains(t, err.Error(), "report")
			if tt.prior {
				recs, _, err := records.Read(filepath.Join(out, "results.jsonl"))
				require.NoError(t, err)
				assert.Len(t, recs, 3, "the earlier results are kept")
			}
		})
	}
}

// -h succeeds; flags may follow the spec; names reach the terminal escaped.
func TestRunCommandLine(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderr   string
		noStderr string
	}{
		{name: "-h", args: []string{"-h"}, code: 0, stderr: "usage: kcalab"},
		{name: "flags after the spec", args: []string{"-cache", "off", "-out", "{tmp}", "experiments/fisher.yaml", "-jobs", "2"}, code: 0, stdout: "fisher: 3 trials"},
		{name: "unknown flag", args: []string{"-nope"}, code: 1, stderr: "flag provided but not defined: -nope"},
		{name: "control characters in a name", args: []string{"-cache", "off", "no\x1b[2Jsuch.yaml"}, code: 1, stderr: `no\x1b[2Jsuch.yaml`, noStderr: "\x1b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := make([]string, len(tt.args))
			tmp := t.TempDir()
			for i, a := range tt.args {
				args[i] = strings.ReplaceAll(a, "{tmp}", tmp)
			}
			var o, e bytes.Buffer
			code := exitCode(run(context.Background(), args, &o, &e), &e)
			assert.Equal(t, tt.code, code, e.String())
			assert.Contains(t, o.String(), tt.stdout)
			assert.Contains(t, e.String(), tt.stderr)
			if tt.noStderr != "" {
				assert.NotContains(t, e.String(), tt.noStderr)
			}
		})
	}
}

// -cache-clean empties the cache of tables and says how much it removed;
// -cache-max-mb trims it after a run.
func TestCacheCleanAndBound(t *testing.T) {
	cache := t.TempDir()
	spec := filepath.Join(t.TempDir(), "w.yaml")
	var o, e bytes.Buffer
	// Synthetic corpora are not cached: a plain-text corpus is.
	corpusFile := filepath.Join(t.TempDir(), "c.txt")
	require.NoError(t, os.WriteFile(corpusFile, []byte(strings.Repeat("the cat sat on the mat and the dog sat on the log ", 200)), 0o644))
	require.NoError(t, os.WriteFile(spec, []byte("name: w\ndata: {source: corpus, corpus: "+corpusFile+", window: 3, min_count: 1}\nmethod: kca\nsvd: {rank: 4}\neval: {sets: []}\n"), 0o644))
	err := run(context.Background(), []string{"-cache", cache, "-out", filepath.Join(t.TempDir(), "o"), spec}, &o, &e)
	require.NoError(t, err, e.String())
	files, _ := filepath.Glob(filepath.Join(cache, "*.bin"))
	require.NotEmpty(t, files)

	e.Reset()
	err = run(context.Background(), []string{"-cache", cache, "-cache-max-mb", "0.000001", "-out", filepath.Join(t.TempDir(), "o"), spec}, &o, &e)
	require.NoError(t, err, e.String())
	assert.Contains(t, e.String(), "least recently used file(s)")
	assert.Contains(t, e.String(), "(-cache-max-mb)")

	o.Reset()
	require.NoError(t, run(context.Background(), []string{"-cache", cache, "-out", filepath.Join(t.TempDir(), "o"), spec}, &o, &e))
	o.Reset()
	require.NoError(t, run(context.Background(), []string{"-cache", cache, "-cache-clean"}, &o, &e))
	assert.Regexp(t, `^cache .*: removed \d+ file\(s\), \d+\.\d MiB\n$`, o.String())
	files, _ = filepath.Glob(filepath.Join(cache, "*.bin"))
	assert.Empty(t, files)
}

// A spec name with an escape character reaches stdout escaped.
func TestStdoutEscapesNames(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "esc.yaml")
	require.NoError(t, os.WriteFile(spec, []byte("name: \"x\\e[31mred\"\ndata: {source: fisher}\nsvd: {backend: dense, rank: 1}\n"), 0o644))
	stdout, stderr, err := runCLI(t, "-out", filepath.Join(t.TempDir(), "o"), spec)
	require.NoError(t, err, stderr)
	assert.NotContains(t, stdout, "\x1b")
	assert.Contains(t, stdout, `x\x1b[31mred: 1 trials (0 reused)`)
}

// A tweaked copy of a spec (same name, another grid) run into the same
// results/<name> deletes nothing: a narrowed grid keeps the other records
// (the page shows today's grid and says how many it left aside), a grid
// that shares no trial is refused, naming -prune.
func TestRunTweakedCopyDeletesNothing(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	full := "name: fisher\ndata: {source: fisher}\nsvd: {rank: 2, backend: [dense, randomized, dssvd]}\n"
	require.NoError(t, os.MkdirAll("experiments", 0o755))
	require.NoError(t, os.MkdirAll("mine", 0o755))
	require.NoError(t, os.WriteFile("experiments/fisher.yaml", []byte(full), 0o644))
	_, stderr, err := runCLI(t, "experiments/fisher.yaml")
	require.NoError(t, err, stderr)
	path := filepath.Join("results", "fisher", records.FileName)
	committed, err := os.ReadFile(path)
	require.NoError(t, err)

	narrowed := strings.Replace(full, "[dense, randomized, dssvd]", "[dense]", 1)
	require.NoError(t, os.WriteFile("mine/fisher.yaml", []byte(narrowed), 0o644))
	stdout, stderr, err := runCLI(t, "mine/fisher.yaml")
	require.NoError(t, err, stderr)
	assert.Contains(t, stdout, "fisher: 1 trials (1 reused)")
	assert.Contains(t, stderr, "keeps 2 record(s) of trials outside this spec's grid")
	recs, _, err := records.Read(path)
	require.NoError(t, err)
	assert.Len(t, recs, 3, "the committed records are all kept")
	page, err := os.ReadFile(filepath.Join("results", "fisher", "report.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), "also holds 2 record(s) of trials outside this spec&#39;s grid")

	other := strings.Replace(full, "backend: [dense, randomized, dssvd]", "backend: dense, oversample: 7", 1)
	require.NoError(t, os.WriteFile("mine/fisher.yaml", []byte(other), 0o644))
	_, _, err = runCLI(t, "mine/fisher.yaml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "none of them a trial of the grid of mine/fisher.yaml")
	assert.Contains(t, err.Error(), "-prune")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(committed), string(after), "nothing deleted")
}

// Hostile round 5, serious 3: an input edited so that its trial can no
// longer be computed (a CSV count of -2, a set file torn) left the older
// record on the page as current, "1 trial(s): 1 ok", old numbers and all.
// The run keeps the older record (a run deletes no result) and fails; the
// page asks the reuse decision, marks the trial stale and says why, and
// shows none of its old numbers.
func TestRunFailedRecomputeShownStale(t *testing.T) {
	var text strings.Builder
	for i := 0; i < 300; i++ {
		text.WriteString("the cat sat on the mat a dog ran in the park ")
	}
	tests := []struct {
		name  string
		files map[string]string
		spec  string
		edit  map[string]string
		old   func(records.Record) string // what the page shows of the old record, which it must not show then
		input string                      // the edited input
	}{
		{name: "a CSV table edited", files: map[string]string{"t.csv": ",a,b,c\nx,10,20,35\ny,31,12,47\nz,22,51,13\n"},
			spec: "data: {source: csv, csv: t.csv}\nmethod: ca\nsvd: {rank: 2, backend: dense}\n",
			edit: map[string]string{"t.csv": ",a,b,c\nx,10,20,35\ny,31,-2,47\nz,22,51,13\n"},
			old:  func(r records.Record) string { return fmt.Sprintf("%.4f", r.CA.SingularValues[0]) }, input: "t.csv"},
		{name: "a word-pair set edited", files: map[string]string{"c.txt": text.String(), "p.tsv": "cat\tdog\t5\nmat\tpark\t2\nthe\ta\t7\nsat\tran\t3\n"},
			spec: "data: {source: corpus, corpus: c.txt, min_count: 1, window: 2}\neval: {sets: [p.tsv]}\nmethod: lca\nsvd: {rank: 3}\n",
			edit: map[string]string{"p.tsv": "cat\tdog\nnot a pair line\n"},
			old:  func(records.Record) string { return `<section id="word-scores">` }, input: "p.tsv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
			}
			spec := filepath.Join(dir, "s.yaml")
			require.NoError(t, os.WriteFile(spec, []byte("name: stale\n"+tt.spec), 0o644))
			out := filepath.Join(dir, "out")
			_, stderr, err := runCLI(t, "-out", out, spec)
			require.NoError(t, err, stderr)
			recs, _, err := records.Read(filepath.Join(out, records.FileName))
			require.NoError(t, err)
			require.Len(t, recs, 1)
			oldNumber := tt.old(recs[0])
			page, err := os.ReadFile(filepath.Join(out, "report.html"))
			require.NoError(t, err)
			require.Contains(t, string(page), oldNumber, "the first page shows the number")

			for name, body := range tt.edit {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
			}
			_, stderr, err = runCLI(t, "-out", out, spec)
			require.Error(t, err)
			assert.Contains(t, stderr, "changed since the record was made")
			assert.Contains(t, err.Error(), "its older result, from the run that ended")
			kept, _, err := records.Read(filepath.Join(out, records.FileName))
			require.NoError(t, err)
			assert.Equal(t, recs, kept, "the older record is kept in the results")

			page, err = os.ReadFile(filepath.Join(out, "report.html"))
			require.NoError(t, err)
			assert.Contains(t, string(page), "1 trial(s) are stale")
			assert.Contains(t, string(page), "stale, not shown: its input "+filepath.Join(dir, tt.input))
			assert.NotContains(t, string(page), "1 trial(s): 1 ok")
			assert.NotContains(t, string(page), oldNumber, "the old number is not shown as current")
		})
	}
}
