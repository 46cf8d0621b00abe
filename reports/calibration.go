package reports

import (
	"fmt"
	"kcalab/records"
	"strconv"
)

// calibrationSection overlays what method corpusstats measured of each
// corpus (e.g. text8_prefix and the synthetic model calibrated on it):
// types and vocabulary against tokens (Heaps' law), the non-zeros of
// N^flat and N^cut against tokens, and the singular value decay of the
// tail-cut CA, with the fitted growth exponents in a table. nil when no
// record carries corpus statistics.
func (p *builder) calibrationSection(recs []records.Record) *Section {
	var set []records.Record
	var nums []int
	for i, rec := range recs {
		if rec.Status == "ok" && rec.Corpus != nil && len(rec.Corpus.Points) > 0 {
			set = append(set, rec)
			nums = append(nums, i+1)
		}
	}
	if len(set) == 0 {
		return nil
	}
	labels := p.trialLabels(set, nums)
	// The trials' own names when they tell the corpora apart: what varies
	// between two corpora is their whole source, too long for a legend.
	named := map[string]bool{}
	for _, rec := range set {
		named[givenName(rec)] = true
	}
	if !named[""] && len(named) == len(set) {
		for i, rec := range set {
			labels[i] = givenName(rec)
		}
	}
	growth := func(id, title, yName string, series func(records.CorpusPoint) []float64, names []string) LineChart {
		c := LineChart{ID: id, Title: title, XName: "Tokens", YName: yName, LogX: true, LogY: true, Width: 440, Height: 320}
		for i, rec := range set {
			for j, name := range names {
				ls := LineSeries{Name: labels[i]}
				if name != "" {
					ls.Name += " " + name
				}
				for _, p := range rec.Corpus.Points {
					ls.Points = append(ls.Points, XY{X: float64(p.Tokens), Y: series(p)[j]})
				}
				c.Series = append(c.Series, ls)
			}
		}
		return c
	}
	types := growth("calibration-types", "Types (Heaps' law)", "Distinct tokens",
		func(p records.CorpusPoint) []float64 { return []float64{float64(p.Types)} }, []string{""})
	vocab := growth("calibration-vocab", "Vocabulary (count ≥ min count)", "Words",
		func(p records.CorpusPoint) []float64 { return []float64{float64(p.Vocab)} }, []string{""})
	nnz := growth("calibration-nnz", "Non-zeros of the word tables", "Stored entries",
		func(p records.CorpusPoint) []float64 { return []float64{float64(p.NNZFlat), float64(p.NNZCut)} }, []string{"N^flat", "N^cut"})
	sigma := LineChart{ID: "calibration-sigma", Title: "Singular values of the tail-cut CA", XName: "k", YName: "σ_k",
		LogX: true, LogY: true, Width: 440, Height: 320}
	for i, rec := range set {
		ls := LineSeries{Name: labels[i]}
		for k, v := range rec.Corpus.Sigma {
			ls.Points = append(ls.Points, XY{X: float64(k + 1), Y: v})
		}
		sigma.Series = append(sigma.Series, ls)
	}

	t := Table{ID: "calibration-fits", Caption: "Growth exponents b of y ≈ c·tokensᵇ (least squares on log–log over the prefixes) and the spectrum",
		Header:  []string{"Corpus", "Tokens", "Types", "Heaps b (types)", "b (vocabulary)", "b (nnz N^flat)", "b (nnz N^cut)", "σ₁", "σ₁₀", "σ_k (k)", "Σσ² / total inertia"},
		Numeric: []bool{false, true, true, true, true, true, true, true, true, true, true}}
	for i, rec := range set {
		cs := rec.Corpus
		fit := func(y func(records.CorpusPoint) float64) string {
			var xs, ys []float64
			for _, p := range cs.Points {
				xs, ys = append(xs, float64(p.Tokens)), append(ys, y(p))
			}
			b, _, r2, ok := powerLaw(xs, ys)
			if !ok {
				return "—"
			}
			return fmt.Sprintf("%.3f (R² %.3f)", b, r2)
		}
		last := cs.Points[len(cs.Points)-1]
		row := []string{labels[i], thousands(float64(last.Tokens)), thousands(float64(last.Types)),
			fit(func(p records.CorpusPoint) float64 { return float64(p.Types) }),
			fit(func(p records.CorpusPoint) float64 { return float64(p.Vocab) }),
			fit(func(p records.CorpusPoint) float64 { return float64(p.NNZFlat) }),
			fit(func(p records.CorpusPoint) float64 { return float64(p.NNZCut) }),
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
		}
		t.Rows = append(t.Rows, row)
	}
	w := set[0].Corpus.Window
	s := &Section{ID: "calibration", Title: "Corpus statistics side by side"}
	s.Blocks = append(s.Blocks,
		Paragraph(fmt.Sprintf("What a synthetic corpus is calibrated on, measured on every corpus of this spec over its prefixes "+
			"(1/16, 1/8, 1/4, 1/2 and all of it; each prefix counted afresh): distinct tokens (Heaps' law), words of count ≥ min count, "+
			"the stored entries of N^flat and N^cut (W = %d), and the singular values of the tail-cut CA of the whole corpus. "+
			"Log–log axes: a straight line is a power law, its slope the exponent in the table.", w)),
		Row{types, vocab}, Row{nnz, sigma}, t)
	return s
}
