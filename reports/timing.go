package reports

import (
	"slices"

	"kcalab/records"
)

// A ratio of two times is a claim about two programs only when the times
// were taken alike: by one invocation of the runner (records.RunInfo.ID:
// one machine, one load, one build) and under the same conditions (both
// in a measured child process, measure.process, or neither: a child's
// wall time includes its start and its reading of the data), on a quiet
// machine where the records sampled it (records.Quiet). A page prints a
// ratio only then, and otherwise says why not.

// Why a ratio is not printed.
const (
	whyNoRun       = "not compared: no run id in the records"
	whyOtherRuns   = "not compared: measured in different runs"
	whyOtherMethod = "not compared: one measured in a child process, one not"
	whyBusy        = "not compared: the machine was busy during a measurement (other programs competed for the cores)"
)

// timesCompare says whether the times of trials a and b (each one or more
// trials whose times fold into one, e.g. replicates at one size) may form
// a ratio, and when not, why.
func timesCompare(a, b []records.Record) (ok bool, why string) {
	all := slices.Concat(a, b)
	if len(a) == 0 || len(b) == 0 {
		return false, whyNoRun
	}
	run, process := "", measuredInChild(all[0])
	for i, rec := range all {
		if rec.Run == nil || rec.Run.ID == "" {
			return false, whyNoRun
		}
		if i == 0 {
			run = rec.Run.ID
		}
		if rec.Run.ID != run {
			return false, whyOtherRuns
		}
		if measuredInChild(rec) != process {
			return false, whyOtherMethod
		}
		if quiet, _, known := records.Quiet(rec); known && !quiet {
			return false, whyBusy
		}
	}
	return true, ""
}

// wallRange is a measured trial's range of wall times over its repeats
// (measure.repeat > 1: the metrics wall_s.min and wall_s.max); false
// without repeats.
func wallRange(rec records.Record) (lo, hi float64, ok bool) {
	wall := records.Named(records.MetricWall)
	lo, lok := rec.Metrics[wall.Range(records.StatMin).Key()]
	hi, hok := rec.Metrics[wall.Range(records.StatMax).Key()]
	return lo, hi, lok && hok
}
