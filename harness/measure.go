package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"

	"kcalab/internal/machineload"
	"kcalab/internal/tmpfiles"
	"kcalab/records"
	"kcalab/schema"
)

// EnvChild names the environment variable that turns the program into a
// child running one measured trial (see RunChild).
const EnvChild = "KCALAB_CHILD"

// childRequest is what the parent passes to a child in $KCALAB_CHILD.
type childRequest struct {
	Spec     string `json:"spec"`   // spec file
	Output   string `json:"output"` // the spec's output directory, as the parent resolved it
	Trial    string `json:"trial"`  // trial id
	DataDir  string `json:"data_dir,omitempty"`
	CacheDir string `json:"cache_dir,omitempty"`
	Vectors  string `json:"vectors_dir,omitempty"`
}

// ChildRequested reports whether this process was started as a measured
// trial's child.
func ChildRequested() bool { return os.Getenv(EnvChild) != "" }

// RunChild runs the one trial named in $KCALAB_CHILD in this process and
// writes its record as JSON to stdout; progress goes to stderr. The parent
// measures the process from outside (wall time, CPU time, max RSS), so the
// figures cover everything the trial did, as the paper measured.
func RunChild(ctx context.Context, stdout, stderr io.Writer) error {
	var req childRequest
	if err := json.Unmarshal([]byte(os.Getenv(EnvChild)), &req); err != nil {
		return fmt.Errorf("child: bad $%s: %w", EnvChild, err)
	}
	spec, err := schema.LoadSpec(req.Spec)
	if err != nil {
		return err
	}
	spec.Output = req.Output
	var trial *schema.Trial
	for _, t := range spec.Trials() {
		if t.ID == req.Trial {
			trial = &t
			break
		}
	}
	if trial == nil {
		return fmt.Errorf("child: spec %s has no trial %s", req.Spec, req.Trial)
	}
	r := &Runner{Jobs: 1, DataDir: req.DataDir, CacheDir: req.CacheDir, VectorsDir: req.Vectors, Log: stderr}
	prog := NewProgress(io.Discard, 1)
	rec := r.executeWithin(ctx, spec, *trial, prog)
	return json.NewEncoder(stdout).Encode(childReply{Record: rec, PeakRSSMB: ownPeakRSSMB()})
}

// childReply is what a child writes to its stdout: its trial's record and
// its own peak resident memory in MiB (0 when the system does not say),
// which the parent records as the trial's (see ownPeakRSSMB).
type childReply struct {
	Record    records.Record `json:"record"`
	PeakRSSMB float64        `json:"peak_rss_mb"`
}

// childCommand builds the command that re-executes this program for one
// trial (a test binary re-executes itself the same way when its TestMain
// honours $KCALAB_CHILD).
func childCommand(ctx context.Context, req childRequest) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("measuring a trial needs to re-execute this program: %w", err)
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), EnvChild+"="+string(b))
	return cmd, nil
}

// measurement is one child run.
type measurement struct {
	wall, cpu, rssMB float64
	// others is the CPU time every other process of the machine used
	// while the child ran (the machine's busy time less the child's and
	// this process's own), load the load average at its end; known is
	// false where the system does not say.
	others, load float64
	known        bool
}

// executeMeasured runs a trial measure.repeat times, each in its own child
// process, and records medians (and min/max when repeated) of wall time,
// CPU time and peak resident memory. The trial's own metrics come from the
// last run (they are identical across runs: same seed).
func (r *Runner) executeMeasured(ctx context.Context, spec *schema.Spec, t schema.Trial, prog *Progress) records.Record {
	run := r.beginRun()
	rec := records.Record{ID: t.ID, Spec: spec.Name, Seed: t.Seed, Settings: t.RecordSettings(), Env: CurrentEnv(),
		Metrics: map[string]float64{}, Timings: map[string]float64{}}
	if spec.Path == "" {
		rec.Status, rec.Error = "error", "measure.process needs a spec file to pass to the child process"
		return rec
	}
	repeat := t.Measure.Repeat
	var ms []measurement
	for i := 0; i < repeat; i++ {
		prog.Stage(t, fmt.Sprintf("child process %d/%d", i+1, repeat))
		child, m, err := r.runChild(ctx, spec, t)
		if err != nil {
			rec.Status, rec.Error = "error", err.Error()
			if errors.Is(err, ErrOverBudget) {
				rec.Status = "over_budget"
			}
			// A result of any status names the code and run that made it.
			rec.Run = endRun(run, nil)
			return rec
		}
		if child.Status != "ok" {
			return child
		}
		// Everything the child measured and recorded; the identity, the
		// environment and the run are the parent's.
		rec.Metrics, rec.Timings, rec.Files, rec.FileHashes, rec.Backend, rec.CA = child.Metrics, child.Timings, child.Files, child.FileHashes, child.Backend, child.CA
		rec.Warnings, rec.SVD, rec.TableFile, rec.Corpus = child.Warnings, child.SVD, child.TableFile, child.Corpus
		rec.WordsMap, rec.Neighbours, rec.NeighboursOther, rec.Bootstrap = child.WordsMap, child.Neighbours, child.NeighboursOther, child.Bootstrap
		if child.Run != nil {
			run.Inputs = child.Run.Inputs // hashed by the child, which read them
		}
		ms = append(ms, m)
	}
	rec.Status = "ok"
	rec.Run = endRun(run, nil)
	put := func(name string, get func(measurement) float64) {
		v := make([]float64, len(ms))
		for i, m := range ms {
			v[i] = get(m)
		}
		sort.Float64s(v)
		m := records.Named(name)
		rec.Metrics[m.Key()] = median(v)
		if len(v) > 1 {
			rec.Metrics[m.Range(records.StatMin).Key()] = v[0]
			rec.Metrics[m.Range(records.StatMax).Key()] = v[len(v)-1]
		}
	}
	put(records.MetricWall, func(m measurement) float64 { return m.wall })
	put(records.MetricCPU, func(m measurement) float64 { return m.cpu })
	put(records.MetricRSS, func(m measurement) float64 { return m.rssMB })
	// How busy the machine was: a time is the program's only on a quiet
	// machine (records.Quiet).
	known := true
	load := 0.0
	for _, m := range ms {
		known = known && m.known
		load = max(load, m.load)
	}
	if known {
		put(records.MetricOthersCPU, func(m measurement) float64 { return m.others })
		rec.Metrics[records.MetricLoadAvg] = load
	}
	return rec
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// runChild runs one child and returns its record and measurement.
func (r *Runner) runChild(ctx context.Context, spec *schema.Spec, t schema.Trial) (records.Record, measurement, error) {
	budget := t.Budget.Seconds
	cctx := ctx
	if budget > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, time.Duration(budget*float64(time.Second)))
		defer cancel()
	}
	cmd, err := childCommand(cctx, childRequest{Spec: spec.Path, Output: spec.Output, Trial: t.ID,
		DataDir: r.DataDir, CacheDir: r.CacheDir, Vectors: r.VectorsDir})
	if err != nil {
		return records.Record{}, measurement{}, err
	}
	// The child and whatever it starts (an external tool) share a process
	// group, killed whole at the budget, and a temporary directory the
	// parent removes: a killed child cannot clean up after itself.
	tmp, err := os.MkdirTemp("", tmpfiles.Pattern("child"))
	if err != nil {
		return records.Record{}, measurement{}, fmt.Errorf("child process: %w", err)
	}
	defer os.RemoveAll(tmp)
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = r.log()
	busy0, busyOK := machineload.BusySeconds()
	self0 := selfCPU()
	start := time.Now()
	// Whatever the child started and left (its own budget stopped it
	// without reaching a grandchild) goes with it (runGroup).
	runErr := runGroup(cmd, true, false)
	wall := time.Since(start).Seconds()
	busy1, busyOK1 := machineload.BusySeconds()
	selfUsed := selfCPU() - self0
	if budget > 0 && errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		return records.Record{}, measurement{}, fmt.Errorf("%w: stopped after the time budget of %gs (budget.seconds)", ErrOverBudget, budget)
	}
	if err := ctx.Err(); err != nil {
		return records.Record{}, measurement{}, err
	}
	var reply childReply
	if derr := json.Unmarshal(out.Bytes(), &reply); derr != nil {
		if runErr != nil {
			return records.Record{}, measurement{}, fmt.Errorf("child process: %w", runErr)
		}
		return records.Record{}, measurement{}, fmt.Errorf("child process wrote no record: %w (output %q)", derr, tail(strings.TrimSpace(out.String()), 300))
	}
	var m measurement
	m.wall = wall
	ruOK := false
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.cpu = tvSeconds(ru.Utime) + tvSeconds(ru.Stime)
		m.rssMB = float64(ru.Maxrss) / 1024 // Linux reports kilobytes
		ruOK = true
	}
	if load, ok := machineload.LoadAvg1(); ok && busyOK && busyOK1 && ruOK {
		m.others, m.load, m.known = max(busy1-busy0-m.cpu-selfUsed, 0), load, true
	}
	// The child's own figure, where it has one (see ownPeakRSSMB).
	if reply.PeakRSSMB > 0 {
		m.rssMB = reply.PeakRSSMB
	}
	return reply.Record, m, nil
}

func tvSeconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}

// selfCPU is the CPU time this process has used, in seconds.
func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return tvSeconds(ru.Utime) + tvSeconds(ru.Stime)
}
