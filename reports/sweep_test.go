package reports

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
)

// sweepLines are fixture records of a window sweep on MEN, one trial per
// table and window, with the harness's bootstrap replicates when tau > 0
// (harnessLike: a paired difference's 95% half-width is near 2.77·tau).
func sweepLines(tau float64, rho map[string][]float64, windows []float64) []records.Record {
	b := with(baseSettings(), "method", "lca", "svd.rank", 300.0)
	var recs []records.Record
	for _, table := range []string{"cut", "flat", "skip"} {
		for i, w := range windows {
			if rho[table] == nil {
				continue
			}
			recs = append(recs, records.Record{
				ID: "table=" + table + ",window=" + formatValue(w), Spec: "window-sweep", Status: "ok",
				Settings: with(b, "data.table", table, "data.window", w),
				Metrics:  map[string]float64{records.Score(records.RuleZero, "men").Key(): rho[table][i]},
			})
		}
	}
	return harnessLike(recs, tau)
}

// The headline reads each line by the paired bootstrap: a rising line, a
// level one and a falling one, with the rule named in the section's text.
func TestSweepHeadline(t *testing.T) {
	windows := []float64{1, 2, 5, 10, 30}
	recs := sweepLines(0.01, map[string][]float64{
		"cut":  {0.40, 0.50, 0.60, 0.60, 0.605},
		"flat": {0.50, 0.505, 0.498, 0.502, 0.50},
		"skip": {0.60, 0.60, 0.50, 0.40, 0.30},
	}, windows)
	s := tb().sweepSection(recs)
	require.NotNil(t, s)
	require.Len(t, s.Blocks, 2)
	head := s.Blocks[0].(Headline)
	assert.Equal(t, "MEN: cut rises significantly from W = 1 to 5, then level within noise to 30; flat level within noise from W = 1 to 30; "+
		"skip level within noise from W = 1 to 2, then falls significantly to 30.", head[0])
	assert.Contains(t, head[len(head)-1], "Where the mean Spearman ρ", "then where each line peaks")
	assert.Contains(t, string(s.Blocks[1].(Paragraph)), "95% interval of their paired bootstrap difference", "the rule, named")

	t.Run("lines of one verdict together, a peak in the middle", func(t *testing.T) {
		recs := sweepLines(0.01, map[string][]float64{
			"cut":  {0.50, 0.50, 0.501, 0.50, 0.50},
			"flat": {0.50, 0.501, 0.50, 0.50, 0.499},
			"skip": {0.40, 0.50, 0.60, 0.50, 0.40},
		}, windows)
		head := tb().sweepSection(recs).Blocks[0].(Headline)
		assert.Equal(t, "MEN: cut, flat level within noise from W = 1 to 30; skip rises significantly from W = 1 to 5, then falls significantly to 30.", head[0])
	})
	t.Run("a dip inside the level part", func(t *testing.T) {
		recs := sweepLines(0.01, map[string][]float64{"cut": {0.60, 0.40, 0.60, 0.60, 0.60}}, windows)
		head := tb().sweepSection(recs).Blocks[0].(Headline)
		assert.Equal(t, "MEN: LCA highest at W = 1, significantly below it at W = 2.", head[0])
	})
	t.Run("wide intervals: level", func(t *testing.T) {
		recs := sweepLines(0.05, map[string][]float64{"cut": {0.40, 0.45, 0.48, 0.50, 0.50}}, windows)
		head := tb().sweepSection(recs).Blocks[0].(Headline)
		assert.Equal(t, "MEN: LCA level within noise from W = 1 to 30.", head[0])
	})
}

// A point of one trial with replicates carries its 95% bootstrap interval
// to the page, drawn solid and said so; without replicates it carries
// none, the text says so, and nothing is tested.
func TestSweepIntervals(t *testing.T) {
	windows := []float64{1, 2, 5}
	rho := map[string][]float64{"cut": {0.40, 0.50, 0.60}}
	recs := sweepLines(0.01, rho, windows)
	s := tb().sweepSection(recs)
	require.NotNil(t, s)
	sub := s.Subsections[0]
	pts := sub.Blocks[1].(Row)[0].(LineChart).Series[0].Points
	require.Len(t, pts, 3)
	for i, rec := range recs {
		key := records.Score(records.RuleZero, "men").At(records.SimDot, records.SimDot).Key()
		reps, ok := rec.Bootstrap.Replicates(key, rec.Metrics[key])
		require.True(t, ok)
		lo, hi, _ := records.Interval(rec.Metrics[key], reps)
		assert.InDelta(t, (hi-lo)/2, pts[i].Err, 1e-12, "W = %v: the 95%% bootstrap half-width", windows[i])
		assert.Greater(t, pts[i].Err, 0.0)
		assert.False(t, pts[i].DashedErr, "an interval is drawn solid")
	}
	text := string(sub.Blocks[0].(Paragraph))
	assert.Contains(t, text, "Solid error bars are the 95% bootstrap interval")
	assert.NotContains(t, text, "no interval")

	t.Run("no replicates, no interval", func(t *testing.T) {
		s := tb().sweepSection(sweepLines(0, rho, windows))
		require.NotNil(t, s)
		sub := s.Subsections[0]
		for _, pt := range sub.Blocks[1].(Row)[0].(LineChart).Series[0].Points {
			assert.Zero(t, pt.Err)
		}
		text := string(sub.Blocks[0].(Paragraph))
		assert.Contains(t, text, "Points of one trial without bootstrap replicates in its record have no interval: LCA.")
		assert.NotContains(t, text, "Solid error bars")
		assert.Contains(t, s.Blocks[0].(Headline)[0], "is not tested")
	})
	t.Run("seeds keep their SD, dashed, beside intervals", func(t *testing.T) {
		var seeds []records.Record
		for _, r := range recs {
			for rep := range 3 {
				r2 := r
				r2.ID = r.ID + ",replicate=" + formatValue(float64(rep))
				r2.Settings = with(r.Settings, "svd.backend", "krylov", "replicate", float64(rep))
				r2.Metrics = map[string]float64{records.Score(records.RuleZero, "men").Key(): r.Metrics[records.Score(records.RuleZero, "men").Key()] + 0.01*float64(rep)}
				seeds = append(seeds, r2)
			}
		}
		s := tb().sweepSection(append(sweepLines(0.01, rho, windows), harnessLike(seeds, 0.01)...))
		require.NotNil(t, s)
		c := s.Subsections[0].Blocks[1].(Row)[0].(LineChart)
		require.Len(t, c.Series, 2)
		for _, pt := range c.Series[1].Points {
			assert.InDelta(t, 0.01, pt.Err, 1e-9, "± the SD over seeds")
			assert.True(t, pt.DashedErr)
		}
		for _, pt := range c.Series[0].Points {
			assert.False(t, pt.DashedErr)
		}
		text := string(s.Subsections[0].Blocks[0].(Paragraph))
		assert.Contains(t, text, "Solid error bars are the 95% bootstrap interval")
		assert.Contains(t, text, "Dashed error bars are ± one standard deviation over seeds")
	})
}

// A sweep over d of designs chosen on dev parts draws every tuned line:
// one line per method, joining the design chosen at each d (its tuned
// settings differ from point to point), a line at two d beside one at
// three, and names a line at a single d instead of dropping it. Its
// charts are of the test parts: the whole sets are in-sample for a design
// chosen on their dev parts.
func TestSweepTunedLines(t *testing.T) {
	rec := func(label, method string, d, beta, test float64) records.Record {
		return records.Record{ID: label + formatValue(d), Status: "ok",
			Settings: with(baseSettings(), "label", label, "method", method, "svd.rank", d, "vectors.beta", beta,
				"eval.parts", true, "tune.axes", []any{"vectors.beta"}, "tuned_on", []any{"men@dev"}),
			Metrics: map[string]float64{records.Score(records.RuleZero, "men").Key(): test + 0.1,
				records.Score(records.RuleZero, "men@test").Key(): test, records.Score(records.RuleZero, "men@dev").Key(): test + 0.2}}
	}
	recs := harnessLike([]records.Record{
		rec("tail-cut", "kca", 100, -0.5, 0.40), rec("tail-cut", "kca", 300, 0, 0.45), rec("tail-cut", "kca", 1000, -0.5, 0.50),
		rec("fastText", "sgns", 100, 0, 0.52), rec("fastText", "sgns", 300, 0, 0.53),
		rec("alone", "lca", 300, 0, 0.30),
	}, 0.01)
	s := tb().sweepSection(recs)
	require.NotNil(t, s)
	require.Len(t, s.Subsections, 1)
	sub := s.Subsections[0]
	charts := sub.Blocks[1].(Row)
	require.Len(t, charts, 1, "one chart: MEN's test part")
	c := charts[0].(LineChart)
	assert.Equal(t, "MEN test", c.Title)
	var names []string
	for _, l := range c.Series {
		names = append(names, l.Name)
	}
	assert.Equal(t, []string{"tail-cut", "fastText"}, names, "every tuned line, not one per value of its tuned setting")
	assert.Len(t, c.Series[0].Points, 3)
	assert.Len(t, c.Series[1].Points, 2, "two d values: drawn beside a line of three")
	text := string(sub.Blocks[0].(Paragraph))
	assert.Regexp(t, `Not drawn, a single value is no sweep: \S+ \(only at d = 300\)\.`, text)
	assert.Contains(t, text, "the charts are of the test parts")
	assert.Contains(t, text, "A tuned method's line joins the design chosen on the dev parts at each d (vectors.beta may change from point to point).")
}
