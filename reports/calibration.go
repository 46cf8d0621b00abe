package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
)

// calibrationSection overlays what method corpusstats measured of each
// corpus (e.g. text8_prefix and the synthetic model calibrated on it):
// types and vocabulary against tokens (Heaps' law), the non-zeros of
// N^flat and N^cut against tokens, and the singular value decay of the
// tail-cut CA, with the fitted growth exponents in a table. nil when no
// record carries corpus statistics.
func (p *builder) calibrationSection(recs []records.Record) *Section {
	pr := p.project(recs, compare.HasStatus("ok"), func(rec records.Record) bool { return rec.Corpus != nil && len(rec.Corpus.Points) > 0 })
	if pr.Len() == 0 {
		return nil
	}
	rows := corpusRows(pr)
	point := func(f func(records.CorpusPoint) int) func(records.CorpusPoint) []float64 {
		return func(cp records.CorpusPoint) []float64 { return []float64{float64(f(cp))} }
	}
	types := corpusChart(rows, "calibration-types", "Types (Heaps' law)", "Distinct tokens",
		point(func(cp records.CorpusPoint) int { return cp.Types }), "")
	vocab := corpusChart(rows, "calibration-vocab", "Vocabulary (count ≥ min count)", "Words",
		point(func(cp records.CorpusPoint) int { return cp.Vocab }), "")
	nnz := corpusChart(rows, "calibration-nnz", "Non-zeros of the word tables", "Stored entries",
		func(cp records.CorpusPoint) []float64 { return []float64{float64(cp.NNZFlat), float64(cp.NNZCut)} }, "N^flat", "N^cut")
	sigma := LineChart{ID: "calibration-sigma", Title: "Singular values of the tail-cut CA", XName: "k", YName: "σ_k",
		LogX: true, LogY: true, Width: 440, Height: 320}
	for _, r := range rows {
		ls := LineSeries{Name: r.Label}
		for k, v := range r.Corpus.Sigma {
			ls.Points = append(ls.Points, XY{X: float64(k + 1), Y: v})
		}
		sigma.Series = append(sigma.Series, ls)
	}
	s := &Section{ID: "calibration", Title: "Corpus statistics side by side"}
	table := calibrationTable(rows)
	if h := calibrationAnswer(table); h != "" {
		s.Blocks = append(s.Blocks, Headline{h})
	}
	p.setVerdict(s.ID, calibrationVerdict(table))
	s.Blocks = append(s.Blocks,
		Paragraph(fmt.Sprintf("What a synthetic corpus is calibrated on, measured on every corpus of this spec over its prefixes "+
			"(1/16, 1/8, 1/4, 1/2 and all of it; each prefix counted afresh): distinct tokens (Heaps' law), words of count ≥ min count, "+
			"the stored entries of N^flat and N^cut (W = %d), and the singular values of the tail-cut CA of the whole corpus. "+
			"Log–log axes: a straight line is a power law, its slope the exponent in the table.", rows[0].Corpus.Window)),
		Row{types, vocab}, Row{nnz, sigma}, table)
	return s
}

// calibrationAnswer compares, from the calibration table's numbers, every
// corpus with the first on what a synthetic corpus is calibrated on: the
// growth exponents and the spectrum; one corpus is described alone. ""
// when the table has no numbers.
func calibrationAnswer(t Table) string {
	if len(t.CSV) < 2 {
		return ""
	}
	quantities := []struct {
		name string
		col  int
		pct  bool
	}{{"Heaps b", 3, false}, {"vocabulary b", 5, false}, {"nnz(N^flat) b", 7, false}, {"nnz(N^cut) b", 9, false},
		{"σ₁", 11, false}, {"σ₁₀", 12, false}, {"Σσ²/inertia", 15, true}}
	text := func(cell string, pct bool) (string, bool) {
		v, err := strconv.ParseFloat(cell, 64)
		if err != nil {
			return "", false
		}
		if pct {
			return percent(v, 1), true
		}
		return sig(v, 3), true
	}
	first := t.CSV[1]
	var sentences []string
	for i, r := range t.CSV[1:] {
		var parts []string
		for _, q := range quantities {
			v, ok := text(r[q.col], q.pct)
			if !ok {
				continue
			}
			if len(t.CSV) > 2 && i > 0 {
				if w, ok := text(first[q.col], q.pct); ok {
					v += " against " + w
				}
			}
			parts = append(parts, q.name+" "+v)
		}
		if len(parts) == 0 {
			continue
		}
		switch {
		case len(t.CSV) == 2:
			sentences = append(sentences, r[0]+": "+strings.Join(parts, ", ")+".")
		case i > 0:
			sentences = append(sentences, r[0]+" against "+first[0]+": "+strings.Join(parts, ", ")+".")
		}
	}
	return strings.Join(sentences, " ")
}

// corpusRows are one row per corpus, labelled by the trials' own names
// when they tell the corpora apart (what varies between two corpora is
// their whole source, too long for a legend), else as trials are.
func corpusRows(pr projection) []row {
	rows := pr.Rows(false)
	named := map[string]bool{}
	for _, r := range rows {
		named[givenName(r.Record)] = true
	}
	if !named[""] && len(named) == len(rows) {
		for i := range rows {
			rows[i].Label = givenName(rows[i].Record)
		}
	}
	return rows
}

// corpusChart draws quantities of each corpus against its prefixes'
// tokens: one line per corpus and name (the quantities series returns, in
// order; a lone quantity is named "").
func corpusChart(rows []row, id, title, yName string, series func(records.CorpusPoint) []float64, names ...string) LineChart {
	c := LineChart{ID: id, Title: title, XName: "Tokens", YName: yName, LogX: true, LogY: true, Width: 440, Height: 320}
	for _, r := range rows {
		for j, name := range names {
			ls := LineSeries{Name: r.Label}
			if name != "" {
				ls.Name += " " + name
			}
			for _, cp := range r.Corpus.Points {
				ls.Points = append(ls.Points, XY{X: float64(cp.Tokens), Y: series(cp)[j]})
			}
			c.Series = append(c.Series, ls)
		}
	}
	return c
}

// calibrationTable is the fitted growth exponents and the spectrum of each
// corpus.
func calibrationTable(rows []row) Table {
	t := Table{ID: "calibration-fits", Caption: "Growth exponents b of y ≈ c·tokensᵇ (least squares on log–log over the prefixes) and the spectrum",
		Header:  []string{"Corpus", "Tokens", "Types", "Heaps b (types)", "b (vocabulary)", "b (nnz N^flat)", "b (nnz N^cut)", "σ₁", "σ₁₀", "σ_k (k)", "Σσ² / total inertia"},
		Numeric: []bool{false, true, true, true, true, true, true, true, true, true, true},
		CSV: [][]string{{"corpus", "tokens", "types", "heaps_b_types", "r2_types", "b_vocabulary", "r2_vocabulary", "b_nnz_flat", "r2_nnz_flat",
			"b_nnz_cut", "r2_nnz_cut", "sigma_1", "sigma_10", "sigma_k", "k", "sum_sigma2_over_total_inertia"}}}
	for _, r := range rows {
		cs := r.Corpus
		last := cs.Points[len(cs.Points)-1]
		csv := []string{r.Label, strconv.FormatInt(last.Tokens, 10), strconv.Itoa(last.Types)}
		fit := func(y func(records.CorpusPoint) int) string {
			var xs, ys []float64
			for _, cp := range cs.Points {
				xs, ys = append(xs, float64(cp.Tokens)), append(ys, float64(y(cp)))
			}
			b, _, r2, ok := powerLaw(xs, ys)
			if !ok {
				csv = append(csv, "", "")
				return "—"
			}
			csv = append(csv, csvNumber(b), csvNumber(r2))
			return fmt.Sprintf("%.3f (R² %.3f)", b, r2)
		}
		row := []string{r.Label, thousands(float64(last.Tokens)), thousands(float64(last.Types)),
			fit(func(cp records.CorpusPoint) int { return cp.Types }),
			fit(func(cp records.CorpusPoint) int { return cp.Vocab }),
			fit(func(cp records.CorpusPoint) int { return cp.NNZFlat }),
			fit(func(cp records.CorpusPoint) int { return cp.NNZCut }),
			"—", "—", "—", "—"}
		if k := len(cs.Sigma); k > 0 {
			var s2 float64
			for _, v := range cs.Sigma {
				s2 += v * v
			}
			row[7] = sig(cs.Sigma[0], 3)
			if k >= 10 {
				row[8] = sig(cs.Sigma[9], 3)
			}
			row[9] = sig(cs.Sigma[k-1], 3) + " (" + strconv.Itoa(k) + ")"
			if cs.TotalInertia > 0 {
				row[10] = percent(s2/cs.TotalInertia, 1)
			}
			sig10, share := math.NaN(), math.NaN()
			if k >= 10 {
				sig10 = cs.Sigma[9]
			}
			if cs.TotalInertia > 0 {
				share = s2 / cs.TotalInertia
			}
			csv = append(csv, csvNumber(cs.Sigma[0]), csvNumber(sig10), csvNumber(cs.Sigma[k-1]), strconv.Itoa(k), csvNumber(share))
		} else {
			csv = append(csv, "", "", "", "", "")
		}
		t.Rows = append(t.Rows, row)
		t.CSV = append(t.CSV, csv)
	}
	return t
}

// calibrationVerdict says, from the calibration table's numbers, how
// every corpus compares with the first: the largest difference of its
// growth exponents (Heaps, vocabulary, the tables' non-zeros), and its
// spectrum (σ₁, the share of the inertia in the σ recorded). Nothing for
// one corpus.
func calibrationVerdict(t Table) Verdict {
	if len(t.CSV) < 3 {
		return Verdict{}
	}
	num := func(r []string, col int) float64 {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	first := t.CSV[1]
	var v Verdict
	for _, r := range t.CSV[2:] {
		worst := math.NaN()
		for _, col := range []int{3, 5, 7, 9} {
			if d := math.Abs(num(r, col) - num(first, col)); finite(d) && !(d <= worst) {
				worst = d
			}
		}
		var parts []string
		if finite(worst) {
			parts = append(parts, "growth exponents within "+sig(worst, 2))
		}
		if a, b := num(r, 11), num(first, 11); finite(a) && finite(b) {
			parts = append(parts, fmt.Sprintf("σ₁ %s against %s", sig(a, 3), sig(b, 3)))
		}
		if a, b := num(r, 15), num(first, 15); finite(a) && finite(b) {
			parts = append(parts, fmt.Sprintf("Σσ²/inertia %s against %s", percent(a, 1), percent(b, 1)))
		}
		if len(parts) > 0 {
			v.Claims = append(v.Claims, Claim{Subject: r[0] + " against " + first[0], Answer: strings.Join(parts, ", ")})
		}
	}
	v.Basis = "Heaps, vocabulary and non-zeros exponents over the prefixes; the tail-cut CA's spectrum"
	return v
}
