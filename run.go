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
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"kcalab/harness"
	"kcalab/reports"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "kcalab:", err)
		}
		os.Exit(1)
	}
}

const usage = `usage: kcalab [flags] SPEC.yaml [SPEC.yaml ...]

Runs each experiment spec: every trial of its grid, in parallel, writing
results/<name>/results.jsonl and results/<name>/report.html.
Trials already complete with the same settings are reused (see -fresh).

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
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *settings {
		return harness.WriteSettingsReference(stdout)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no spec given")
	}
	if *out != "" && fs.NArg() > 1 {
		return errors.New("-out names one output directory: give a single spec with it")
	}
	if *jobs < 0 {
		return fmt.Errorf("-jobs %d: want 0 (all cores) or more", *jobs)
	}

	var specs []*harness.Spec
	for _, path := range fs.Args() {
		spec, err := harness.LoadSpec(path)
		if err != nil {
			return err
		}
		if *out != "" {
			spec.Output = *out
		}
		specs = append(specs, spec)
	}
	runner := &harness.Runner{Jobs: *jobs, Fresh: *fresh, DataDir: *dataDir, Log: stderr}
	js, err := reports.FindECharts(reports.FindOptions{Warn: stderr})
	if err != nil {
		return err
	}
	var failed []string
	for _, spec := range specs {
		res, err := runner.Run(ctx, spec)
		if res == nil {
			return err
		}
		reportPath := filepath.Join(res.Dir, "report.html")
		rep := reports.Report{Title: spec.Name, Spec: spec.Name, Description: spec.Description, Records: res.Records, ECharts: js}
		if rerr := reports.WriteFile(reportPath, rep); rerr != nil {
			return fmt.Errorf("%s: report: %w", spec.Name, rerr)
		}
		fmt.Fprintf(stdout, "%s: %d trials (%d reused) → %s\n", spec.Name, len(res.Records), res.Reused, filepath.Join(res.Dir, harness.ResultsFile))
		fmt.Fprintf(stdout, "report: %s\n", reportPath)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			failed = append(failed, fmt.Sprintf("%s: %v", spec.Name, err))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("some trials failed:\n%s", strings.Join(failed, "\n"))
	}
	return nil
}
