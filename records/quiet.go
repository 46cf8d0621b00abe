package records

// QuietCores is how much of the machine other processes may have used, on
// average over a measured trial, for the trial to count as measured on a
// quiet machine: a tenth of one core (daemons, the runner waiting on its
// child). More means another program competed for the cores, and the
// trial's times are inflated by an unknown amount.
const QuietCores = 0.1

// Quiet says whether a measured trial ran on a quiet machine: the CPU time
// other processes used during it (others_cpu_s), over its wall time, at
// most QuietCores, for every repeat (the largest such time against the
// shortest wall time when repeated). cores is that average use by others;
// known is false for a record that did not sample the machine (made before
// it did, or on a system that does not say), whose quiet is unknown.
func Quiet(rec Record) (quiet bool, cores float64, known bool) {
	others, ok := rec.Metrics[MetricOthersCPU]
	wall := rec.Metrics[MetricWall]
	if !ok || wall <= 0 {
		return false, 0, false
	}
	if mx, ok := rec.Metrics[Named(MetricOthersCPU).Range(StatMax).Key()]; ok {
		others = mx
	}
	if mn, ok := rec.Metrics[Named(MetricWall).Range(StatMin).Key()]; ok && mn > 0 {
		wall = mn
	}
	cores = max(others, 0) / wall
	return cores <= QuietCores, cores, true
}
