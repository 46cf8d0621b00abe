package reports

import (
	"kcalab/records"
	"kcalab/schema"
	"math"
	"strconv"
	"strings"
)

// Measurement metrics of trials run in a child process.
const (
	metricWall  = records.MetricWall
	metricRSS   = records.MetricRSS
	metricVocab = records.MetricVocab
)

// isSizeKey reports whether a setting sets the size of a scaling trial: it
// is the x axis, not a series.
func isSizeKey(k string) bool {
	s, ok := schema.LookupSetting(k)
	return ok && s.Size
}

// scalingKeys are the setting that names the scaling figures' series (the
// SVD backend) and the one that is the x axis when the vocabulary size is
// unknown (the corpus fraction), from the settings' metadata.
func scalingKeys() (series, axis string) {
	for _, s := range schema.TrialSettings() {
		if s.Series && series == "" {
			series = s.Key
		}
		if s.SizeAxis && axis == "" {
			axis = s.Key
		}
	}
	return series, axis
}

func isMeasured(rec records.Record) bool {
	_, w := rec.Metrics[metricWall]
	_, m := rec.Metrics[metricRSS]
	return w || m
}

// scalingSection draws Figures 2 and 3 of the paper (wall time and peak
// memory against the vocabulary size, one line per SVD backend), lists the
// trials that did not finish, and compares the backends' ratios with the
// paper's claim. It returns nil unless measured trials span several sizes.
func (p *builder) scalingSection(recs []records.Record) *Section {
	seriesKey, axisKey := scalingKeys()
	var set []records.Record
	for _, rec := range recs {
		if isMeasured(rec) || rec.Status == "over_budget" || (rec.Status != "ok" && measuredInChild(rec)) {
			set = append(set, rec)
		}
	}
	if len(set) == 0 {
		return nil
	}

	// Size: V when every finished trial has it (a trial that did not
	// finish takes V from a finished one on the same corpus fraction),
	// else the corpus fraction.
	vocabOf := map[string]float64{}
	allV := true
	for _, rec := range set {
		if rec.Status != "ok" {
			continue
		}
		v, ok := rec.Metrics[metricVocab]
		if !ok {
			allV = false
			continue
		}
		if f, ok := rec.Settings[axisKey]; ok {
			vocabOf[formatValue(f)] = v
		}
	}
	sizes := make([]float64, len(set))
	xName := "Vocabulary size V"
	axisName := axisKey
	if s, ok := schema.LookupSetting(axisKey); ok && s.SweepAxis != "" {
		axisName = s.SweepAxis
	}
	for i, rec := range set {
		sizes[i] = math.NaN()
		if allV {
			if v, ok := rec.Metrics[metricVocab]; ok {
				sizes[i] = v
			} else if f, ok := rec.Settings[axisKey]; ok {
				if v, ok := vocabOf[formatValue(f)]; ok {
					sizes[i] = v
				}
			}
		} else if f, ok := number(rec.Settings[axisKey]); ok {
			sizes[i] = f
		}
	}
	if !allV {
		xName = axisName
	}
	distinct := map[float64]bool{}
	for _, x := range sizes {
		if finite(x) {
			distinct[x] = true
		}
	}
	if len(distinct) < 2 {
		return nil
	}
	sizeText := func(x float64) string {
		switch {
		case !finite(x):
			return "unknown"
		case allV:
			return "V = " + thousands(x)
		}
		return "f = " + formatValue(x)
	}

	// Series: the backend, then any other setting that varies.
	_, varying := settingsSplit(set)
	var rest []string
	hasBackend := false
	for _, k := range varying {
		switch {
		case k == seriesKey:
			hasBackend = true
		case !isSizeKey(k) && !labelKeys[k] && k != schema.KeyReplicate:
			rest = append(rest, k)
		}
	}
	sortLabelKeys(rest)
	seriesKeys := rest
	if hasBackend {
		seriesKeys = append([]string{seriesKey}, rest...)
	}
	names := make([]string, len(set))
	var order []string
	seen := map[string]bool{}
	for i, rec := range set {
		names[i] = p.labelOf(rec, seriesKeys)
		if names[i] == "" {
			names[i] = formatValue(rec.Settings[seriesKey])
		}
		if !seen[names[i]] {
			seen[names[i]] = true
			order = append(order, names[i])
		}
	}

	repeated := false
	chartOf := func(id, title, m, yName string) LineChart {
		c := LineChart{ID: id, Title: title, XName: xName, YName: yName, LogX: true, LogY: true, Width: 640, Height: 400}
		failed := map[string][]float64{}
		overOnly := map[string]bool{}
		for _, name := range order {
			vals := map[float64][]float64{}
			overOnly[name] = true
			for i, rec := range set {
				if names[i] != name {
					continue
				}
				if rec.Status != "ok" {
					failed[name] = append(failed[name], sizes[i])
					overOnly[name] = overOnly[name] && rec.Status == "over_budget"
					continue
				}
				if v, ok := rec.Metrics[m]; ok {
					vals[sizes[i]] = append(vals[sizes[i]], v)
				}
			}
			pts, many := meanPoints(vals)
			repeated = repeated || many
			c.Series = append(c.Series, LineSeries{Name: name, Points: pts})
		}
		for _, name := range order {
			if xs := failed[name]; len(xs) > 0 {
				what := "not finished"
				if overOnly[name] {
					what = "over budget"
				}
				c.Marks = append(c.Marks, VLines{Name: name + ": " + what, X: xs, Like: name})
			}
		}
		return c
	}
	s := &Section{ID: "scaling", Title: "Time and memory against size"}
	intro := "Whole-process wall time and peak resident memory of each trial (run in a child process; medians when repeated), " +
		"against the size of the training data, as in the paper's Figures 2 and 3 (log–log). " +
		"A dashed vertical line marks a size at which a trial did not finish."
	figs := Row{
		chartOf("scaling-time", "Figure 2: wall time", metricWall, "Wall time (s)"),
		chartOf("scaling-memory", "Figure 3: peak memory", metricRSS, "Peak resident memory (MB)"),
	}
	if repeated {
		intro += " Where a trial was replicated (seeds), a point is the replicates' mean and its error bar ± one standard deviation."
	}
	s.Blocks = append(s.Blocks, Paragraph(intro), figs)
	hasResidual := false
	for _, rec := range set {
		_, ok := rec.Metrics[records.MetricSVDResidual]
		hasResidual = hasResidual || ok
	}
	if hasResidual {
		acc := chartOf("scaling-accuracy", "Accuracy: largest residual", records.MetricSVDResidual, "max ‖A v − σ u‖ / σ₁")
		s.Blocks = append(s.Blocks, Paragraph("How exact each decomposition is: the largest residual of its k triplets, "+
			"sqrt(‖A·v − σ·u‖² + ‖Aᵀ·u − σ·v‖²) over σ₁, measured after the decomposition for every backend. "+
			"krylov stops at svd.tol; the sketches are as far from converged as their power iterations leave them."), Row{acc})
	}

	nf := Table{ID: "scaling-unfinished", Caption: "Trials that did not finish", Header: []string{"Series", "Size", "Status", "Reason"}}
	for i, rec := range set {
		if rec.Status != "ok" {
			nf.Rows = append(nf.Rows, []string{names[i], sizeText(sizes[i]), rec.Status, orDash(rec.Error)})
		}
	}
	if len(nf.Rows) > 0 {
		s.Blocks = append(s.Blocks, nf)
	}
	if t := p.ratioTable(set, sizes, rest, sizeText); t != nil {
		s.Blocks = append(s.Blocks, Paragraph("The paper's claim (section “Delayed Sparse Randomized SVD”): “"+PaperSVDClaim+"”"), *t)
	}
	symbol := "V"
	if !allV {
		symbol = axisKey
	}
	if t := growthTable(set, sizes, names, order, symbol); t != nil {
		s.Blocks = append(s.Blocks, Paragraph("How time and memory grow: a power law y = c·x^b fitted per series to the finished trials "+
			"(whole-process measurements, so counting the table is included; a series needs three sizes). "+
			"An exponent near 2 against V is what a dense V×V matrix costs in memory; near 1 against nnz is what only multiplying by the sparse table costs."), *t)
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// thousands prints a count with thousands separators ("71,290").
func thousands(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// speedup prints how many times faster ("83.2× faster", "1200× faster",
// "0.5× faster" when slower).
func speedup(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64) + "× faster"
	}
	return sig(v, 3) + "× faster"
}

// ratioTable compares DSSVD with the dense and randomized backends at the
// largest size where both finished, next to the paper's claim; nil when no
// trial used DSSVD.
func (p *builder) ratioTable(set []records.Record, sizes []float64, rest []string, sizeText func(float64) string) *Table {
	seriesKey, _ := scalingKeys()
	type key struct{ rest, backend string }
	type point struct{ wall, rss, n float64 }
	at := map[key]map[float64]point{}
	var groups []string
	seen := map[string]bool{}
	dssvd, krylov, lapack := false, false, false
	for i, rec := range set {
		b := formatValue(rec.Settings[seriesKey])
		g := p.labelOf(rec, rest)
		if !seen[g] {
			seen[g] = true
			groups = append(groups, g)
		}
		dssvd = dssvd || b == "dssvd"
		krylov = krylov || b == "krylov"
		lapack = lapack || b == "lapack"
		if rec.Status != "ok" || !finite(sizes[i]) {
			continue
		}
		k := key{g, b}
		if at[k] == nil {
			at[k] = map[float64]point{}
		}
		// Replicates at a size: their mean.
		p := at[k][sizes[i]]
		at[k][sizes[i]] = point{p.wall + metric(rec, metricWall), p.rss + metric(rec, metricRSS), p.n + 1}
	}
	for _, m := range at {
		for x, p := range m {
			m[x] = point{p.wall / p.n, p.rss / p.n, 1}
		}
	}
	if !dssvd {
		return nil
	}
	caption := "DSSVD against the other backends, at the largest size where both finished"
	type comparison struct{ backend, other, text string }
	var comps []comparison
	for _, pr := range paperRatios {
		if pr.other == "dense" && lapack {
			// The paper's dense SVD is numPy's, LAPACK: its claim is
			// against the lapack backend; gonum's pure-Go SVD is slower.
			comps = append(comps, comparison{"dssvd", "lapack", pr.text},
				comparison{"dssvd", "dense", "— (pure-Go dense; the paper's numPy SVD is LAPACK)"})
			continue
		}
		comps = append(comps, comparison{"dssvd", pr.other, pr.text})
	}
	if krylov {
		caption = "DSSVD and krylov against the other backends, at the largest size where both finished (means over replicates)"
		for _, o := range []string{"dense", "randomized", "dssvd"} {
			comps = append(comps, comparison{"krylov", o, "— (not in the paper)"})
		}
	}
	if lapack {
		// gonum's pure-Go SVD is several times slower than LAPACK's: the
		// ratios against the lapack backend are the fair ones.
		caption += "; lapack is the dense SVD on LAPACK (OpenBLAS), the fastest dense solver and the paper's (numPy)"
		if krylov {
			comps = append(comps, comparison{"krylov", "lapack", "— (not in the paper)"})
		}
	}
	t := &Table{ID: "scaling-ratios", Caption: caption,
		Header:  []string{"Comparison", "Size", "Time ratio", "Memory ratio", "Paper"},
		Numeric: []bool{false, true, true, true, false}}
	for _, g := range groups {
		for _, pr := range comps {
			name := pr.backend + " / " + pr.other
			if g != "" {
				name = g + ": " + name
			}
			d, o := at[key{g, pr.backend}], at[key{g, pr.other}]
			best := math.Inf(-1)
			for x, p := range d {
				if q, ok := o[x]; ok && finite(p.wall) && finite(q.wall) && x > best {
					best = x
				}
			}
			if math.IsInf(best, -1) {
				if len(o) > 0 || len(d) > 0 {
					t.Rows = append(t.Rows, []string{name, "no size where both finished", "—", "—", pr.text})
				}
				continue
			}
			p, q := d[best], o[best]
			tr := p.wall / q.wall
			timeText := sig(tr, 3)
			if tr > 0 {
				timeText += " (" + speedup(1/tr) + ")"
			}
			memText := "—"
			if finite(p.rss) && finite(q.rss) && q.rss > 0 {
				memText = percent(p.rss/q.rss, 1) + " of " + pr.other + "'s"
			}
			t.Rows = append(t.Rows, []string{name, sizeText(best), timeText, memText, pr.text})
		}
	}
	return t
}
