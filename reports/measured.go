package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"
)

// ---- Measured trials side by side ----

// maxMeasured is the most measured trials the measurement table shows: a
// spec with more measures a growth and has the scaling figures.
const maxMeasured = 12

// seconds prints a duration in seconds: whole seconds with separators from
// 1,000 on, 3 significant digits below, and hours and minutes after an
// hour ("4,732 s (1 h 19 min)").
func seconds(v float64) string {
	if !finite(v) {
		return "—"
	}
	s := sig(v, 3) + " s"
	if v >= 1000 {
		s = thousands(v) + " s"
	}
	if v >= 3600 {
		m := int(math.Round(v / 60))
		s += fmt.Sprintf(" (%d h %d min)", m/60, m%60)
	}
	return s
}

// megabytes prints a memory size given in MiB (2^20 bytes: what the
// records hold, max_rss_mb and svd_plan_mb included, and what the budgets
// count), whole with separators, labelled MiB: 12,828 MiB is 13,451 MB.
func megabytes(v float64) string {
	if !finite(v) {
		return "—"
	}
	return thousands(v) + " MiB"
}

// spectrumGap is the largest |σ_k(a) − σ_k(b)| over σ_1(b) of two
// spectra of one length; NaN when they cannot be compared.
func spectrumGap(a, b *records.SVDAccuracy) float64 {
	if a == nil || b == nil || len(a.S) == 0 || len(a.S) != len(b.S) || a.Rank() != b.Rank() || b.S[0] == 0 {
		return math.NaN()
	}
	gap := 0.0
	for k := range a.S {
		gap = math.Max(gap, math.Abs(a.S[k]-b.S[k]))
	}
	return gap / b.S[0]
}

// measuredSection answers a spec that measures a few trials at one size
// (a table from disk against in memory, one big decomposition): wall and
// CPU time, peak memory against the memory budget, and how the trials'
// singular values and accuracy compare, each trial against the first.
// nil when no trial was measured, when they span several sizes (the
// scaling figures draw them), when some finished trial was not measured
// (the spec is about something else; the trials table has the times) or
// when there are more than maxMeasured.
func (p *builder) measuredSection(recs []records.Record) *Section {
	if scalingAxisOf(p.project(recs, scalingTrial)).distinct() >= 2 {
		return nil
	}
	finished := p.project(recs, compare.HasStatus("ok"))
	pr := finished.Where(isMeasured)
	if pr.Len() == 0 || pr.Len() != finished.Len() || pr.Len() > maxMeasured {
		return nil
	}
	rows := pr.Rows(false)
	budget, onDisk, svd, plan := false, false, false, false
	for _, r := range rows {
		_, hasPlan := r.Metrics[records.MetricSVDPlan]
		plan = plan || hasPlan
		budget = budget || schema.RecordSettings(r.Settings).Budget.MemoryMB > 0
		onDisk = onDisk || r.TableFile != nil
		svd = svd || (r.SVD != nil && len(r.SVD.S) > 0)
	}
	t := Table{ID: "measured-table", Caption: "Measured trials: whole-process wall time, CPU time and peak resident memory (each in a child process of its own)",
		Header: []string{"Trial", "Wall time", "CPU time", "Peak memory"}, Numeric: []bool{false, true, true, true}}
	if len(rows) > 1 {
		t.Header = append(t.Header, "Time against #"+strconv.Itoa(rows[0].Num), "Memory against #"+strconv.Itoa(rows[0].Num))
		t.Numeric = append(t.Numeric, false, false)
	}
	if plan {
		t.Header, t.Numeric = append(t.Header, "SVD's planned buffers"), append(t.Numeric, true)
	}
	if budget {
		t.Header, t.Numeric = append(t.Header, "Memory budget (budget.memory_mb)"), append(t.Numeric, true)
	}
	if onDisk {
		t.Header, t.Numeric = append(t.Header, "Table on disk"), append(t.Numeric, true)
	}
	if svd {
		t.Header, t.Numeric = append(t.Header, "σ_1", "σ_k (k = last)", "Largest residual / σ_1"), append(t.Numeric, true, true, true)
		if len(rows) > 1 {
			t.Header, t.Numeric = append(t.Header, "Largest |Δσ| / σ_1 against #"+strconv.Itoa(rows[0].Num)), append(t.Numeric, true)
		}
	}
	first := rows[0]
	var lead []string
	for i, r := range rows {
		wall, rss := compare.Metric(r.Record, metricWall), compare.Metric(r.Record, metricRSS)
		row := []string{fmt.Sprintf("%s (#%d)", r.Label, r.Num), seconds(wall), seconds(compare.Metric(r.Record, records.MetricCPU)), megabytes(rss)}
		if len(rows) > 1 {
			if i == 0 {
				row = append(row, "—", "—")
			} else {
				row = append(row, timeAgainst(r, first), memoryAgainst(r, first))
			}
		}
		if plan {
			pl := compare.Metric(r.Record, records.MetricSVDPlan)
			cell := "— (not recorded)"
			if finite(pl) {
				cell = megabytes(pl) + " (peak " + relChange(rss, pl) + ")"
			}
			row = append(row, cell)
		}
		if budget {
			b := schema.RecordSettings(r.Settings).Budget.MemoryMB
			row = append(row, orDashIf(b > 0, megabytes(b)))
		}
		if onDisk {
			cell := "—"
			if r.TableFile != nil {
				cell = megabytes(float64(r.TableFile.FileBytes)/(1<<20)) + " read in blocks of " + megabytes(float64(r.TableFile.BlockBytes)/(1<<20))
			}
			row = append(row, cell)
		}
		gap := spectrumGap(r.SVD, first.SVD)
		if svd {
			if r.SVD != nil && len(r.SVD.S) > 0 {
				row = append(row, sig(r.SVD.S[0], 4), fmt.Sprintf("%s (k = %d)", sig(r.SVD.Last(), 4), r.SVD.Rank()), sig(r.SVD.RelResidual, 2))
			} else {
				row = append(row, "—", "—", "—")
			}
			if len(rows) > 1 {
				row = append(row, orDashIf(i > 0 && finite(gap), sig(gap, 2)))
			}
		}
		t.Rows = append(t.Rows, row)
		lead = append(lead, measuredSentence(r, first, i, gap))
	}
	t.CSV = measuredCSV(rows)
	// The comparisons are the answer and come first (an index quotes the
	// first sentence); the first trial's own figures follow.
	lead = append(lead[1:], lead[0])
	s := &Section{ID: "measured", Title: "Measurements"}
	p.setVerdict(s.ID, measuredVerdict(rows))
	s.Blocks = append(s.Blocks, Headline{strings.Join(lead, " ")}, t)
	return s
}

// measuredCSV is the measurement table for a program: plain numbers in
// seconds, MiB (the columns keep the records' names, *_mb) and bytes,
// full precision, one column per quantity.
func measuredCSV(rows []row) [][]string {
	out := [][]string{{"trial", "#", "wall_s", "cpu_s", "max_rss_mb", "svd_plan_mb", "budget_memory_mb", "table_file_bytes", "table_block_bytes",
		"sigma_1", "sigma_last", "k", "rel_residual", "products", "max_abs_dsigma_over_sigma1_vs_first"}}
	for _, r := range rows {
		b := schema.RecordSettings(r.Settings).Budget.MemoryMB
		line := []string{r.Label, strconv.Itoa(r.Num), csvNumber(compare.Metric(r.Record, metricWall)), csvNumber(compare.Metric(r.Record, records.MetricCPU)),
			csvNumber(compare.Metric(r.Record, metricRSS)), csvNumber(compare.Metric(r.Record, records.MetricSVDPlan)), csvNumber(b)}
		if r.TableFile != nil {
			line = append(line, strconv.FormatInt(r.TableFile.FileBytes, 10), strconv.FormatInt(r.TableFile.BlockBytes, 10))
		} else {
			line = append(line, "", "")
		}
		if r.SVD != nil && len(r.SVD.S) > 0 {
			line = append(line, csvNumber(r.SVD.S[0]), csvNumber(r.SVD.Last()), strconv.Itoa(r.SVD.Rank()),
				csvNumber(r.SVD.RelResidual), strconv.Itoa(r.SVD.Products), csvNumber(spectrumGap(r.SVD, rows[0].SVD)))
		} else {
			line = append(line, "", "", "", "", "", "")
		}
		out = append(out, line)
	}
	return out
}

// measuredSentence says what one measured trial cost, against the first
// when it is not the first.
func measuredSentence(r, first row, i int, gap float64) string {
	wall, rss := compare.Metric(r.Record, metricWall), compare.Metric(r.Record, metricRSS)
	var parts []string
	if i == 0 {
		what := r.Label + ": " + seconds(wall) + " wall time"
		if cpu := compare.Metric(r.Record, records.MetricCPU); finite(cpu) {
			what += ", " + seconds(cpu) + " CPU time"
		}
		parts = append(parts, what+", peak memory "+megabytes(rss))
		if pl := compare.Metric(r.Record, records.MetricSVDPlan); finite(pl) {
			parts[0] += fmt.Sprintf(" against the SVD's %s of planned buffers", megabytes(pl))
		}
		if b := schema.RecordSettings(r.Settings).Budget.MemoryMB; b > 0 {
			parts[0] += fmt.Sprintf(" of the %s budget (%s)", megabytes(b), percent(rss/b, 0))
		}
		if r.SVD != nil && len(r.SVD.S) > 0 {
			conv := ""
			// A residual above svd.tol is no converged triplet: the σ are
			// estimates however many digits they print.
			if tol := schema.RecordSettings(r.Settings).SVD.Tol; tol > 0 && r.SVD.RelResidual > tol {
				conv = fmt.Sprintf(": not converged (svd.tol is %s·σ_1), so these σ are estimates", sig(tol, 2))
			}
			parts = append(parts, fmt.Sprintf("k = %d singular values from %s to %s, largest residual %s·σ_1 after %s operator products%s",
				r.SVD.Rank(), sig(r.SVD.S[0], 4), sig(r.SVD.Last(), 4), sig(r.SVD.RelResidual, 2), thousands(float64(r.SVD.Products)), conv))
		}
		return strings.Join(parts, "; ") + "."
	}
	fw, frss := compare.Metric(first.Record, metricWall), compare.Metric(first.Record, metricRSS)
	parts = append(parts, fmt.Sprintf("%s: %s against %s for %s (%s), peak memory %s against %s (%s)",
		r.Label, seconds(wall), seconds(fw), first.Label, timeAgainst(r, first), megabytes(rss), megabytes(frss), memoryAgainst(r, first)))
	if finite(gap) {
		parts = append(parts, fmt.Sprintf("singular values equal to %s·σ_1 (the largest difference)", sig(gap, 2)))
	}
	return strings.Join(parts, "; ") + "."
}

// timeAgainst is a measured trial's wall time against the first's, in
// words, when the two were measured alike (timesCompare), else why not.
func timeAgainst(r, first row) string {
	if ok, why := timesCompare([]records.Record{r.Record}, []records.Record{first.Record}); !ok {
		return why
	}
	return timesText(compare.Metric(r.Record, metricWall) / compare.Metric(first.Record, metricWall))
}

// memoryAgainst is a measured trial's peak memory against the first's
// when the two were measured alike (memoryCompare), else why not.
func memoryAgainst(r, first row) string {
	if ok, why := memoryCompare([]records.Record{r.Record}, []records.Record{first.Record}); !ok {
		return why
	}
	return relChange(compare.Metric(r.Record, metricRSS), compare.Metric(first.Record, metricRSS))
}

// relChange prints a size against another: "+6.1%", "−3.0%", "same".
func relChange(v, ref float64) string {
	if !finite(v) || !finite(ref) || ref == 0 {
		return "—"
	}
	d := v/ref - 1
	switch {
	case math.Abs(d) < 0.0005:
		return "same"
	case d > 0:
		return "+" + percent(d, 1)
	}
	return "−" + percent(-d, 1)
}

func orDashIf(ok bool, s string) string {
	if !ok {
		return "—"
	}
	return s
}

// ---- Singular value spectra ----

// maxSpectra is the most spectra one chart draws: more lines (a sweep of
// windows or sizes) would be a blot, and those specs have other charts.
const maxSpectra = 8

// spectraSection draws the singular values the word decompositions
// recorded, one line per trial (replicates: their mean ± SD), and, where
// trials differ in their backend only, each one's relative difference
// from the most exact of them (the smallest residual): how far a sketch's
// spectrum is from the exact one. nil without two or more recorded values,
// with more than maxSpectra lines, or when no two trials differ in their
// backend alone on a page that is not about measured trials.
func (p *builder) spectraSection(recs []records.Record) *Section {
	pr := p.project(recs, compare.HasStatus("ok"), func(rec records.Record) bool { return rec.SVD != nil && len(rec.SVD.S) >= 2 })
	if pr.Len() == 0 {
		return nil
	}
	rows := pr.Rows(true)
	groups := pr.GroupBy(func(_ int, t trial) string { return replicateKey(t.Record) })
	if len(groups) != len(rows) || len(rows) > maxSpectra {
		return nil
	}
	seriesKey, _ := scalingKeys()
	spectra := make([][]XY, len(rows))
	resid := make([]float64, len(rows))
	for i, g := range groups {
		vals := map[float64][]float64{}
		for _, t := range g.Trials {
			for k, v := range t.SVD.S {
				vals[float64(k+1)] = append(vals[float64(k+1)], v)
			}
			resid[i] += t.SVD.RelResidual / float64(len(g.Trials))
		}
		spectra[i], _ = compare.MeanPoints(vals)
	}
	sigma := LineChart{ID: "spectra-sigma", Title: "Singular values σ_k", XName: "k", YName: "σ_k", LogX: true, LogY: true, Width: 640, Height: 400}
	for i, r := range rows {
		sigma.Series = append(sigma.Series, LineSeries{Name: r.Label, Points: spectra[i]})
	}
	s := &Section{ID: "spectra", Title: "Singular value spectra"}
	text := "The singular values each decomposition recorded, largest first"
	for _, t := range pr.Trials {
		if t.SVD.Rank() > len(t.SVD.S) {
			text += " (a trial that keeps fewer than its k, svd.record_sigma, recorded the leading ones)"
			break
		}
	}
	if len(groups) < pr.Len() {
		text += " (replicates: their mean, ± the standard deviation over the seeds)"
	}
	s.Blocks = append(s.Blocks, Paragraph(text+"."))
	// Trials that differ only in the backend (and seed) compare with the
	// most exact of them.
	byRest := map[string][]int{}
	var restOrder []string
	for i, r := range rows {
		k := restKey(r.Record, seriesKey)
		if _, ok := byRest[k]; !ok {
			restOrder = append(restOrder, k)
		}
		byRest[k] = append(byRest[k], i)
	}
	diff := LineChart{ID: "spectra-diff", Title: "Each spectrum against the most exact one", XName: "k",
		YName: "σ_k / σ_k(exact) − 1 (%)", Width: 640, Height: 400, Zero: "equal to the exact"}
	var against, answer []string
	var claims []Claim
	for _, k := range restOrder {
		idx := byRest[k]
		if len(idx) < 2 {
			continue
		}
		ref := idx[0]
		for _, i := range idx[1:] {
			if resid[i] < resid[ref] {
				ref = i
			}
		}
		for _, i := range idx {
			if i == ref || len(spectra[i]) != len(spectra[ref]) {
				continue
			}
			ls := LineSeries{Name: rows[i].Label}
			worst, worstK, sum := 0.0, 0, 0.0
			for k, pt := range spectra[i] {
				e := spectra[ref][k].Y
				rel := pt.Y/e - 1
				ls.Points = append(ls.Points, XY{X: pt.X, Y: tidy(100 * rel)})
				if math.Abs(rel) > math.Abs(worst) {
					worst, worstK = rel, int(pt.X)
				}
				sum += rel
			}
			diff.Series = append(diff.Series, ls)
			against = append(against, fmt.Sprintf("%s against %s", rows[i].Label, rows[ref].Label))
			if worstK > 0 {
				claims = append(claims, Claim{Subject: againstName(rows[i].Label, rows[ref].Label),
					Answer: fmt.Sprintf("σ_k %s at worst (k = %d), %s on average", signedShare(worst), worstK, signedShare(sum/float64(len(spectra[i]))))})
				answer = append(answer, fmt.Sprintf("%s's σ_k against %s's (the more exact): largest difference %s (k = %d), %s on average over the %d",
					rows[i].Label, rows[ref].Label, signedShare(worst), worstK, signedShare(sum/float64(len(spectra[i]))), len(spectra[i])))
			} else {
				answer = append(answer, fmt.Sprintf("%s's σ_k equal %s's", rows[i].Label, rows[ref].Label))
			}
		}
	}
	if len(diff.Series) == 0 {
		// A spectrum compared with none is worth its place only on a page
		// about the measured decompositions themselves.
		if p.project(recs, compare.HasStatus("ok"), compare.Not(isMeasured)).Len() > 0 {
			return nil
		}
		s.Blocks = append(s.Blocks, sigma)
		return s
	}
	for i := range sigma.Series {
		sigma.Series[i].Color = settingColor(seriesKey, formatValue(rows[i].Settings[seriesKey]))
	}
	colorOf := map[string]string{}
	for _, ls := range sigma.Series {
		colorOf[ls.Name] = ls.Color
	}
	for i := range diff.Series {
		diff.Series[i].Color = colorOf[diff.Series[i].Name]
	}
	if !distinctColors(sigma.Series) {
		for i := range sigma.Series {
			sigma.Series[i].Color = ""
		}
		for i := range diff.Series {
			diff.Series[i].Color = ""
		}
	}
	s.Blocks = append([]Block{Headline{strings.Join(answer, "; ") + "."}}, s.Blocks...)
	p.setVerdict(s.ID, Verdict{Claims: claims, Basis: "against the most exact spectrum (smallest residual)"})
	s.Blocks = append(s.Blocks, Paragraph("Right: the relative difference of each spectrum from the most exact one of the same settings (the smallest residual): "+
		strings.Join(against, "; ")+". Below zero, a decomposition misses part of σ_k."), Row{sigma, diff})
	return s
}

// signedShare prints a relative difference as a signed percentage with
// two significant digits: "−2.1%", "+0.034%".
func signedShare(v float64) string {
	switch {
	case v > 0:
		return "+" + sig(100*v, 2) + "%"
	case v < 0:
		return "−" + sig(-100*v, 2) + "%"
	}
	return "0%"
}

// distinctColors reports whether no two lines share a colour.
func distinctColors(ss []LineSeries) bool {
	seen := map[string]bool{}
	for _, s := range ss {
		if s.Color == "" || seen[s.Color] {
			return false
		}
		seen[s.Color] = true
	}
	return true
}

// replicateKey is a record's settings but the replicate number: the
// records of one key are replicates of one trial.
func replicateKey(rec records.Record) string {
	return restKey(rec, schema.KeyReplicate)
}

// restKey is a record's settings but the replicate number and skip.
func restKey(rec records.Record, skip string) string {
	var b strings.Builder
	for _, k := range sortedKeys(rec.Settings) {
		if k == skip || k == schema.KeyReplicate {
			continue
		}
		b.WriteString(k + "=" + formatValue(rec.Settings[k]) + "\x00")
	}
	return b.String()
}

// measuredVerdict is a measurement page's verdict: each trial against the
// first (time, memory, singular values), or one trial's own cost.
func measuredVerdict(rows []row) Verdict {
	first := rows[0]
	var v Verdict
	for _, r := range rows[1:] {
		c := Claim{Subject: r.Label + " against " + first.Label, Answer: "time " + timeAgainst(r, first) + ", memory " + memoryAgainst(r, first)}
		if gap := spectrumGap(r.SVD, first.SVD); finite(gap) {
			c.Answer += ", σ within " + sig(gap, 2) + "·σ_1"
		}
		v.Claims = append(v.Claims, c)
	}
	if len(rows) == 1 {
		r := rows[0]
		c := Claim{Subject: r.Label, Answer: seconds(compare.Metric(r.Record, metricWall)) + " wall time, peak memory " + megabytes(compare.Metric(r.Record, metricRSS))}
		if b := schema.RecordSettings(r.Settings).Budget.MemoryMB; b > 0 {
			c.Answer += fmt.Sprintf(" (%s of the %s budget)", percent(compare.Metric(r.Record, metricRSS)/b, 0), megabytes(b))
		}
		if r.SVD != nil && len(r.SVD.S) > 0 {
			c.Answer += fmt.Sprintf("; k = %d, largest residual %s·σ_1", r.SVD.Rank(), sig(r.SVD.RelResidual, 2))
		}
		v.Claims = append(v.Claims, c)
	}
	v.Basis = "whole-process measurements, each in a child process"
	return v
}

// againstName names one row against another by what their labels share
// and what differs: "KCA · d=300: dssvd against krylov".
func againstName(a, b string) string {
	pa, pb := strings.Split(a, " · "), strings.Split(b, " · ")
	n := 0
	for n < len(pa)-1 && n < len(pb)-1 && pa[n] == pb[n] {
		n++
	}
	name := strings.Join(pa[n:], " · ") + " against " + strings.Join(pb[n:], " · ")
	if n > 0 {
		name = strings.Join(pa[:n], " · ") + ": " + name
	}
	return name
}
