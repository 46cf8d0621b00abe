package reports

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"kcalab/records"
)

// A ratio of two times is a claim about two programs only when the times
// were taken alike: each trial measured in a child process of its own
// (measure.process: the runner runs those one at a time, and its wall
// time, CPU time and memory are the whole process's), by one invocation
// of the runner (records.RunInfo.ID: one machine, one load, one build),
// on a quiet machine where the records sampled it (records.Quiet), and
// neither record disturbed (disturbance: the process waited more than it
// ran). A page prints a ratio only then, and otherwise says why not.
// Trials that were not measured ran in the runner's own process, perhaps
// beside other trials (-jobs): their stage times are read one by one.

// Why a ratio is not printed.
const (
	whyNoRun        = "not compared: no run id in the records"
	whyOtherRuns    = "not compared: measured in different runs"
	whyOtherMethod  = "not compared: one measured in a child process, one not"
	whyUnmeasured   = "not compared: not measured (no measure.process: the trials ran in the runner's process, perhaps beside others)"
	whyBusy         = "not compared: the machine was busy during a measurement (other programs competed for the cores)"
	whyDisturbedFmt = "not compared: a disturbed record (%s)"
)

// timesCompare says whether the times of trials a and b (each one or more
// trials whose times fold into one, e.g. replicates at one size) may form
// a ratio, and when not, why.
func timesCompare(a, b []records.Record) (ok bool, why string) {
	all := slices.Concat(a, b)
	if len(a) == 0 || len(b) == 0 {
		return false, whyNoRun
	}
	measured := 0
	for _, rec := range all {
		if measuredInChild(rec) {
			measured++
		}
	}
	switch {
	case measured == 0:
		return false, whyUnmeasured
	case measured < len(all):
		return false, whyOtherMethod
	}
	run := ""
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
		if why := timeFault(rec); why != "" {
			return false, why
		}
	}
	return true, ""
}

// timeFault says why a measured record's time may not stand in a ratio
// (taken on a busy machine, or disturbed), "" when it may.
func timeFault(rec records.Record) string {
	if quiet, _, known := records.Quiet(rec); known && !quiet {
		return whyBusy
	}
	if d := disturbance(rec); d != "" {
		return fmt.Sprintf(whyDisturbedFmt, d)
	}
	return ""
}

// disturbedShare is how much longer than its CPU time a measured trial's
// wall time may be before its record counts as disturbed: a trial of the
// harness keeps at least one core busy from start to end, so a process
// that was on a core for less than 1/1.1 of its wall time waited, for the
// disk or for cores other programs held.
const disturbedShare = 1.1

// disturbance says why a measured trial's record is disturbed (its wall
// time well above its CPU time), "" when it is not or cannot tell.
func disturbance(rec records.Record) string {
	wall, w := rec.Metrics[records.MetricWall]
	cpu, c := rec.Metrics[records.MetricCPU]
	if !w || !c || !measuredInChild(rec) || !(wall > disturbedShare*cpu) {
		return ""
	}
	return fmt.Sprintf("wall time %s above its CPU time %s: the process waited", seconds(wall), seconds(cpu))
}

// peerStages are the stages that do the same work whatever the SVD
// backend: reading the corpus and counting the table.
var peerStages = []string{"corpus", "table"}

// stageDisturbance says which stage of a measured trial took more than
// twice as long as the same stage of every peer (measured trials on the
// same data that count the same table: the same work), "" for none; a
// stage under 5 s is too short to tell.
func stageDisturbance(rec records.Record, peers []records.Record) string {
	var parts []string
	for _, st := range peerStages {
		v, ok := rec.Timings[st]
		if !ok || v < 5 {
			continue
		}
		longest := math.Inf(-1)
		for _, o := range peers {
			if w, ok := o.Timings[st]; ok && o.ID != rec.ID {
				longest = math.Max(longest, w)
			}
		}
		if finite(longest) && v > 2*longest {
			parts = append(parts, fmt.Sprintf("its %s stage took %s against at most %s in trials doing the same work", st, seconds(v), seconds(longest)))
		}
	}
	return strings.Join(parts, "; ")
}

// disturbedRecords names, by trial id, the measured records of recs that
// are disturbed (disturbance, or a stage far slower than its peers':
// finished trials measured on the same data and size), with why.
func disturbedRecords(recs []records.Record) map[string]string {
	out := map[string]string{}
	for _, rec := range recs {
		if !measuredInChild(rec) || rec.Status != "ok" {
			continue
		}
		var peers []records.Record
		for _, o := range recs {
			if o.ID != rec.ID && o.Status == "ok" && measuredInChild(o) && sameWork(rec, o) {
				peers = append(peers, o)
			}
		}
		var why []string
		for _, w := range []string{disturbance(rec), stageDisturbance(rec, peers)} {
			if w != "" {
				why = append(why, w)
			}
		}
		if len(why) > 0 {
			out[rec.ID] = strings.Join(why, "; ")
		}
	}
	return out
}

// sameWork says two trials read the same corpus and count the same table:
// every data setting equal, and the same vocabulary size where recorded.
func sameWork(a, b records.Record) bool {
	for k, v := range a.Settings {
		if strings.HasPrefix(k, "data.") || strings.HasPrefix(k, "synthetic.") {
			if formatValue(v) != formatValue(b.Settings[k]) {
				return false
			}
		}
	}
	for k := range b.Settings {
		if _, ok := a.Settings[k]; !ok && (strings.HasPrefix(k, "data.") || strings.HasPrefix(k, "synthetic.")) {
			return false
		}
	}
	va, oka := a.Metrics[records.MetricVocab]
	vb, okb := b.Metrics[records.MetricVocab]
	return oka == okb && va == vb
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
