// Command kcalab runs KCA lab experiments: it reads YAML specs, runs their
// trials, writes results/<name>/results.jsonl and an HTML report.
//
//	go run . experiments/fisher.yaml
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"kcalab/datasets/corpus"
	"kcalab/internal/atomicfile"
	"kcalab/internal/tmpfiles"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/harness"
	_ "kcalab/harness/builtin" // the built-in methods register themselves
	"kcalab/internal/termsafe"
	"kcalab/reports"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if harness.ChildRequested() {
		// Re-executed by the harness to run one measured trial.
		if err := harness.RunChild(ctx, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "kcalab (child):", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(exitCode(run(ctx, os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
}

// exitCode reports err (its text made safe for the terminal: it can quote
// names from files) and gives the exit status: 0 for success and for -h,
// which asked for the usage and got it.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintln(stderr, "kcalab:", termsafe.Text(err.Error()))
	return 1
}

const usage = `usage: kcalab [flags] SPEC.yaml [SPEC.yaml ...]
       kcalab -check REFDIR SPEC.yaml
       kcalab -index
       kcalab -settings

Runs each experiment spec: every trial of its grid, in parallel, writing
results/<name>/results.jsonl and results/<name>/report.html.
Trials already complete with the same settings are reused (see -fresh;
-share also takes them from other specs' results beside this one's).
With -out DIR the results and page go to DIR itself. After a run into
results/<name> (or -out OUT/<name>), every other spec beside it that has
results there gets its report rendered from them, and results/index.html
(OUT/index.html) lists them all (reports and index are build outputs).

With -index, runs nothing: renders every spec's report from its committed
results and writes results/index.html.

With -check, runs the spec twice from scratch in a temporary directory and
fails when a score falls below REFDIR/results.jsonl by more than the spec's
tolerance, or when the two runs differ.

flags:
`

// run is the whole program, testable without a process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kcalab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	jobs := fs.Int("jobs", 0, "trials run at once (0 = number of cores); results do not depend on it")
	fresh := fs.Bool("fresh", false, "recompute every trial, ignoring earlier results")
	dataDir := fs.String("data", "", "data directory (default $KCALAB_DATA, else ./data)")
	out := fs.String("out", "", "output directory (default: the spec's output, results/<name>)")
	settings := fs.Bool("settings", false, "print the reference of every spec setting (Markdown) and exit")
	cacheDir := fs.String("cache", defaultCacheDir(), "cache of vocabularies, offset tables and the fetched ECharts (\"\" or \"off\" = none; default $KCALAB_CACHE, else the user cache directory)")
	vectorsDir := fs.String("vectors", "", "write every word-vector trial's vectors (word2vec text format) to this directory")
	check := fs.String("check", "", "compare a fresh run of the spec with the reference results in this directory")
	cacheMax := fs.Float64("cache-max-mb", defaultCacheMaxMB, "after a run, trim the cache's vocabularies and offset tables to this many MiB, least recently used first (0 = no bound)")
	cacheClean := fs.Bool("cache-clean", false, "remove every vocabulary and offset table from the cache directory, and exit")
	wait := fs.Duration("wait", harness.DefaultLockWait, "how long to wait for another kcalab run writing the same output directory before giving up (0 = refuse at once)")
	share := fs.Bool("share", false, "take a trial this spec's results lack from another spec's results beside them (results/<other>/) when it is the same trial (id, seed, settings) computed from a clean tree at a commit of this history, with its saved vectors, instead of computing it")
	untraced := fs.Bool("untraced", false, "recompute only the trials whose records cannot be traced to a commit of this checkout's history (a dirty tree, no commit, a commit not in the history); reuse the others")
	prune := fs.Bool("prune", false, "remove the records of trials no longer in the spec's grid (a run keeps them by default), once every trial of the grid has finished")
	index := fs.Bool("index", false, "run nothing: render every spec's report (experiments/*.yaml) from its results and write results/index.html")
	// Flags may also follow the specs (spec.yaml -jobs 2): parse, take the
	// next spec, parse the rest again.
	var specArgs []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		specArgs = append(specArgs, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	// Numbers are checked before anything is done: NaN passes every
	// ordered comparison, so each is checked for lying in its range.
	if !(*cacheMax >= 0 && *cacheMax <= maxCacheMB) {
		return fmt.Errorf("-cache-max-mb %g: want a number of MiB from 0 (no bound) to %d", *cacheMax, int64(maxCacheMB))
	}
	if *jobs < 0 {
		return fmt.Errorf("-jobs %d: want 0 (all cores) or more", *jobs)
	}
	if *wait < 0 {
		return fmt.Errorf("-wait %v: want 0 (refuse at once) or more", *wait)
	}
	if *settings {
		return schema.WriteSettingsReference(stdout)
	}
	reportDataDir = *dataDir
	if *cacheDir == "off" {
		*cacheDir = ""
	}
	// Killed runs cannot remove their temporary files; their pids tell
	// which are stale.
	harness.RemoveStaleFiles(*cacheDir)
	if *cacheClean {
		return cleanCache(*cacheDir, stdout)
	}
	defer trimCache(*cacheDir, *cacheMax, stderr)
	if *check != "" {
		if len(specArgs) != 1 {
			return errors.New("-check takes one spec")
		}
		return runCheck(ctx, *check, specArgs[0], &harness.Runner{Jobs: *jobs, DataDir: *dataDir, CacheDir: *cacheDir, Log: stderr}, stdout, stderr)
	}
	if *index {
		if len(specArgs) > 0 {
			return errors.New("-index runs no spec: give none")
		}
		js, err := reports.FindEChartsContext(ctx, reports.FindOptions{Warn: stderr, CacheDir: *cacheDir, Fetch: true, Pin: echartsPin})
		if err != nil {
			return err
		}
		// The results tree is the spec's default output: no link there
		// (harness.CheckOutput).
		if err := atomicfile.CheckNotLink(defaultResultsDir); err != nil {
			return fmt.Errorf("-index: %w", err)
		}
		// A spec that cannot be shown is marked on the index, which is
		// written all the same; -index still fails, naming it.
		path, err := writeSite(defaultSpecDir, defaultResultsDir, nil, js, stderr)
		if path != "" {
			fmt.Fprintf(stdout, "index: %s\n", path)
		}
		return err
	}
	if len(specArgs) == 0 {
		fs.Usage()
		return errors.New("no spec given")
	}
	if *out != "" && len(specArgs) > 1 {
		return errors.New("-out names one output directory: give a single spec with it")
	}

	var specs []*schema.Spec
	for _, path := range specArgs {
		spec, err := schema.LoadSpec(path)
		if err != nil {
			return err
		}
		if *out != "" {
			spec.Output = *out
		} else if err := harness.CheckOutput(spec); err != nil {
			return err
		}
		specs = append(specs, spec)
	}
	runner := &harness.Runner{Jobs: *jobs, Fresh: *fresh, Prune: *prune, Untraced: *untraced, Share: *share, DataDir: *dataDir, CacheDir: *cacheDir, VectorsDir: *vectorsDir, Log: stderr, LockWait: *wait}
	// The page inlines ECharts from reports/node_modules, else from the
	// cache, else fetched (verified) from the npm registry, so a report
	// works offline without an npm step; only with none of them does it
	// fall back to a CDN.
	js, err := reports.FindEChartsContext(ctx, reports.FindOptions{Warn: stderr, CacheDir: *cacheDir, Fetch: true, Pin: echartsPin})
	if err != nil {
		return err
	}
	var failed []string
	for _, spec := range specs {
		trialErr, err := runSpec(ctx, runner, spec, js, stdout, stderr)
		if err != nil {
			return err
		}
		if trialErr != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", termsafe.Text(spec.Name), trialErr))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("some trials failed:\n%s", strings.Join(failed, "\n"))
	}
	return nil
}

// runSpec runs one spec and writes its report, holding the output
// directory throughout, so that no other run writes there between the
// results and the page rendered from them. It returns the trials' failures
// apart (the run went on past them) from an error that ends the command.
func runSpec(ctx context.Context, runner *harness.Runner, spec *schema.Spec, js reports.Script, stdout, stderr io.Writer) (trialErr, err error) {
	lock, err := runner.LockOutput(ctx, spec.Output)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	ctx = harness.WithOutputLock(ctx, lock)
	// report.check compares the run with the results that were in the
	// output directory before it: for a committed spec (results/ci) the
	// committed reference numbers. Missing or unreadable means none.
	// The runner warns of what it finds in the results file (it reads it
	// first); the reads here say nothing more.
	var ref []records.Record
	if spec.Report.Check {
		ref, _ = readResults(filepath.Join(spec.Output, records.FileName), io.Discard)
	}
	res, err := runner.Run(ctx, spec)
	if res == nil {
		return nil, err
	}
	if ctx.Err() != nil || errors.Is(err, records.ErrWrite) {
		// Interrupted, or results could not be written: the runner's
		// message says what was kept; a report now would be partial,
		// and its own error must not take that message's place.
		return nil, err
	}
	reportPath := filepath.Join(res.Dir, harness.ReportFileName)
	// The page is rendered from the file just written, so it is exactly
	// what the committed results render to.
	recs, rerr := readShown(filepath.Join(res.Dir, records.FileName), io.Discard)
	var sum reports.Summary
	if rerr == nil {
		r := buildReport(spec, recs, ref, js, res.Dir)
		if root, ok := siteRoot(spec, res.Dir); ok {
			siteLinks(&r, spec, filepath.Dir(spec.Path), root, stderr)
		}
		sum, rerr = reports.WriteFileSummary(reportPath, r)
	}
	if rerr != nil {
		rerr = fmt.Errorf("%s: report: %w", spec.Name, rerr)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("%s: %w", spec.Name, err), rerr)
		}
		return nil, rerr
	}
	halved := ""
	if res.NotPromoted > 0 {
		halved = fmt.Sprintf("; %d not promoted by successive halving", res.NotPromoted)
	}
	fmt.Fprintf(stdout, "%s: %d trials (%d reused%s) → %s\n", termsafe.Text(spec.Name), len(res.Records), res.Reused, halved, termsafe.Text(records.Stored(filepath.Join(res.Dir, records.FileName))))
	// The answer where the run was started, as the index says it: the
	// question, the verdict, then where the whole page is.
	if sum.Question != "" {
		fmt.Fprintf(stdout, "question: %s\n", termsafe.Text(sum.Question))
	}
	if v := sum.Verdict.String(); v != "" {
		fmt.Fprintf(stdout, "answer:   %s\n", termsafe.Text(v))
	}
	fmt.Fprintf(stdout, "report:   %s\n", termsafe.Text(reportPath))
	// The index and the other specs' reports beside this one: a run into
	// results/<name> leaves a site whose every link resolves.
	if root, ok := siteRoot(spec, res.Dir); ok {
		path, ierr := writeSite(filepath.Dir(spec.Path), root, map[string]bool{spec.Name: true}, js, stderr)
		if ierr != nil {
			fmt.Fprintf(stderr, "kcalab: warning: %s\n", termsafe.Text(ierr.Error()))
		}
		if path != "" {
			fmt.Fprintf(stdout, "index:    %s\n", termsafe.Text(path))
		}
	}
	return err, nil
}

// defaultCacheMaxMB bounds the cache: text8's tables at the paper's
// largest windows fit with room to spare, and a sweep over many windows of
// a small corpus cannot fill a disk.
const defaultCacheMaxMB = 20 << 10

// maxCacheMB is the largest -cache-max-mb, 2^40 MiB (an exbibyte): larger
// is no bound in practice, and the bound in bytes must fit an int64.
const maxCacheMB = 1 << 40

// trimCache keeps the cache's tables under maxMB after a run (see
// corpus.TrimCache), saying what it removed.
func trimCache(dir string, maxMB float64, stderr io.Writer) {
	if dir == "" || maxMB == 0 {
		return
	}
	n, b, err := corpus.TrimCache(dir, int64(maxMB*(1<<20)))
	if err == nil && n > 0 {
		fmt.Fprintf(stderr, "kcalab: cache: removed %d least recently used file(s) (%.1f MiB) to keep %s under %g MiB (-cache-max-mb)\n",
			n, float64(b)/(1<<20), termsafe.Text(dir), maxMB)
	}
}

// cleanCache removes every vocabulary and offset table from the cache.
func cleanCache(dir string, stdout io.Writer) error {
	if dir == "" {
		return errors.New("-cache-clean: no cache directory (-cache is off)")
	}
	n, b, err := corpus.TrimCache(dir, 0)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("-cache-clean: %w", err)
	}
	fmt.Fprintf(stdout, "cache %s: removed %d file(s), %.1f MiB\n", termsafe.Text(dir), n, float64(b)/(1<<20))
	return nil
}

// echartsPin is the ECharts build reports fetch; the zero Pin is the one of
// reports/package-lock.json. Tests swap in a package they serve.
var echartsPin reports.Pin

// defaultCacheDir is $KCALAB_CACHE, else <user cache dir>/kcalab, else none.
func defaultCacheDir() string {
	if d := os.Getenv("KCALAB_CACHE"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "kcalab")
	}
	return ""
}

// runCheck runs the spec twice from scratch and compares: the scores with
// the reference results (a fall beyond the spec's tolerance fails), and the
// two runs with each other (any difference fails).
func runCheck(ctx context.Context, refDir, specPath string, runner *harness.Runner, stdout, stderr io.Writer) error {
	ref, err := readResults(filepath.Join(refDir, records.FileName), stderr)
	if err != nil {
		return fmt.Errorf("-check: %w", err)
	}
	if len(ref) == 0 {
		return fmt.Errorf("-check: no reference results in %s", filepath.Join(refDir, records.FileName))
	}
	spec, err := schema.LoadSpec(specPath)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", tmpfiles.Pattern("check"))
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var runs [2][]records.Record
	for i := range runs {
		spec.Output = filepath.Join(tmp, fmt.Sprintf("run%d", i+1))
		runner.Fresh = true
		res, err := runner.Run(ctx, spec)
		if res == nil || ctx.Err() != nil {
			return err
		}
		runs[i] = res.Records
	}
	fails := records.CheckScores(ref, runs[0], spec.Tolerance)
	fails = append(fails, records.CompareRuns(runs[0], runs[1])...)
	if len(fails) > 0 {
		return fmt.Errorf("-check %s against %s: %d problem(s):\n  %s", specPath, refDir, len(fails), strings.Join(fails, "\n  "))
	}
	n, nCA := records.CheckedCounts(runs[0])
	fmt.Fprintf(stdout, "check %s: %d trials, %d scores within %g of %s, %d CA values within %g relative; rerun identical\n",
		spec.Name, len(runs[0]), n, spec.Tolerance, refDir, nCA, records.CATolerance)
	return nil
}

// buildReport is the page of a run, written into dir ("" when it is not
// written to disk): everything comes from the spec, the records, (with
// report.check) the reference records and which files the records name are
// in dir, so rendering the same results again gives the same bytes.
func buildReport(spec *schema.Spec, recs, ref []records.Record, js reports.Script, dir string) reports.Report {
	recs, aside := inGrid(spec, recs)
	recs, stale := markStale(spec, recs, dir)
	// The page links the results file beside it in the form it has there.
	file := records.FileName
	if dir != "" {
		file = filepath.Base(records.Stored(filepath.Join(dir, records.FileName)))
	}
	r := reports.Report{Title: spec.Name, Spec: spec.Name, Description: spec.Description, Question: spec.Question, Records: recs, ECharts: js, ResultsFile: file,
		Lead: spec.Report.Lead, PaperRows: spec.Report.PaperRows, Similarity: spec.Report.Similarity, Methods: schema.Methods()}
	if dir != "" {
		// A file is linked only while it holds what its trial wrote: not
		// a link, nor changed since (records.CheckWrittenFile).
		hashes := map[string]string{}
		for _, rec := range recs {
			for f, h := range rec.FileHashes {
				hashes[f] = h
			}
		}
		r.FilePresent = func(p string) bool {
			missing, wrong := records.CheckWrittenFile(dir, p, hashes[p])
			return !missing && wrong == ""
		}
	}
	if stale != "" {
		r.Notes = append(r.Notes, stale)
	}
	r.Unfinished = unfinished(spec, recs)
	if aside > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s also holds %d record(s) of trials outside this spec's grid (an axis narrowed, a variant removed): a run deletes no result. "+
			"They are not shown here; run the spec with -prune to remove them.", file, aside))
	}
	if spec.Report.Check {
		// Named relative to the page, which sits beside it: a page names no
		// path of the machine it was made on.
		r.Check = &reports.Check{Reference: ref, Tolerance: spec.Tolerance,
			Source: file + " (beside this page) as it was before this run"}
	}
	return r
}

// unfinished says which trials of spec's grid recs lack (harness.Unrun),
// by variant; nil when none.
func unfinished(spec *schema.Spec, recs []records.Record) *reports.Unfinished {
	unrun := harness.Unrun(spec.Trials(), recs)
	if len(unrun) == 0 {
		return nil
	}
	u := &reports.Unfinished{Trials: len(unrun)}
	seen := map[string]bool{}
	for _, t := range unrun {
		name := t.Label
		if name == "" {
			name = t.Method
		}
		if !seen[name] {
			seen[name] = true
			u.Groups = append(u.Groups, name)
		}
	}
	return u
}

// reportDataDir is the data directory a page checks its records' inputs
// in (-data; "" = $KCALAB_DATA, else ./data), as the run does.
var reportDataDir string

// markStale asks the reuse decision (harness.StaleRecords) of every record
// of the page: one that no longer holds for its trial (another seed, other
// settings, an input changed since: say, a recomputation after an edit
// failed and the run kept the older record) is shown as a stale trial,
// its reason in place of its numbers, never as current. It returns the
// records and the page's note on them ("" when none is stale).
func markStale(spec *schema.Spec, recs []records.Record, dir string) ([]records.Record, string) {
	stale := harness.StaleRecords(spec, recs, reportDataDir, dir)
	if len(stale) == 0 {
		return recs, ""
	}
	out := make([]records.Record, len(recs))
	first := ""
	for i, rec := range recs {
		why, ok := stale[rec.ID]
		if !ok {
			out[i] = rec
			continue
		}
		if first == "" {
			first = fmt.Sprintf("trial %s: %s", rec.ID, why)
		}
		out[i] = records.Record{ID: rec.ID, Spec: rec.Spec, Seed: rec.Seed, Settings: rec.Settings, Status: records.StatusStale,
			Error: "stale, not shown: " + why, Env: rec.Env, Run: rec.Run}
	}
	return out, fmt.Sprintf("%d trial(s) are stale: their records no longer hold for the trial as the spec and its inputs stand now (%s). "+
		"Their numbers are left out of every table and chart; the trials table says why. Run the spec again to compute them.", len(stale), first)
}

// inGrid keeps the records of trials in the spec's grid, in their order,
// and counts the others: a page shows today's grid.
func inGrid(spec *schema.Spec, recs []records.Record) ([]records.Record, int) {
	ids := map[string]bool{}
	for _, t := range spec.Trials() {
		ids[t.ID] = true
	}
	var out []records.Record
	for _, rec := range recs {
		if ids[rec.ID] {
			out = append(out, rec)
		}
	}
	return out, len(recs) - len(out)
}

// readShown is readResults for a page: each record keeps the warnings a
// page shows (reports.MaxWarningsShown) and their count, so a page's memory
// follows what it shows.
func readShown(path string, stderr io.Writer) ([]records.Record, error) {
	recs, info, err := records.ReadWith(path, shownOptions)
	for _, w := range info.Warnings(path) {
		fmt.Fprintln(stderr, "kcalab: warning:", termsafe.Text(w))
	}
	return recs, err
}

// shownOptions read records for a page.
var shownOptions = records.ReadOptions{MaxWarnings: reports.MaxWarningsShown}

// readResults reads a results file, warning on stderr of what it had to
// drop (a line torn by a killed run) or cannot use (damaged bootstrap
// replicates).
func readResults(path string, stderr io.Writer) ([]records.Record, error) {
	recs, info, err := records.Read(path)
	for _, w := range info.Warnings(path) {
		fmt.Fprintln(stderr, "kcalab: warning:", termsafe.Text(w))
	}
	return recs, err
}
