package records

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// trialName describes a trial in check messages: its label or method and
// the settings that tell it apart.
func trialName(rec Record) string {
	if l, _ := rec.Settings[KeyLabel].(string); l != "" {
		return fmt.Sprintf("%s (trial %s)", l, rec.ID)
	}
	return fmt.Sprintf("%v (trial %s)", rec.Settings[KeyMethod], rec.ID)
}

// CATolerance is the relative tolerance of -check on CA quantities
// (singular values, inertias): a rerun reproduces them to rounding, so any
// larger change is a change of the analysis, not noise.
const CATolerance = 1e-6

// CheckItem is one number -check compares, or one trial it cannot compare
// (missing, failed: Metric is then "").
type CheckItem struct {
	Trial     string  // the trial as check messages name it
	ID        string  // its id
	Metric    string  // what is compared ("men (zero rule)", "singular values[1]")
	Reference float64 // the reference value (NaN for a trial-level item)
	Value     float64 // this run's value (NaN when it has none)
	// Floor is, for a score, the lowest value that passes (reference −
	// tolerance); NaN for a CA quantity, which must equal the reference
	// within CATolerance, relative.
	Floor   float64
	Pass    bool
	Problem string // the -check message when it fails
}

// CheckScores compares a run against reference records: every reference
// trial must be present and ok; none of its scores may fall by more than
// tol below the reference; its CA quantities (the CA result's singular
// values and inertias, and the inertia metrics) must equal the reference's
// within CATolerance, relative, and so must every other recorded CA
// quantity (coordinates up to the sign of each axis, masses, distances,
// contributions, cos², χ², the counts). It returns one message per
// failure, sorted.
func CheckScores(ref, got []Record, tol float64) []string {
	var fails []string
	for _, it := range CheckDetails(ref, got, tol) {
		if !it.Pass {
			fails = append(fails, it.Problem)
		}
	}
	sort.Strings(fails)
	return fails
}

// CheckDetails is what CheckScores compares, number by number, passed or
// not, in reference order: reports show it. Replicates are compared by
// their means: one seed's draw is noise.
func CheckDetails(ref, got []Record, tol float64) []CheckItem {
	ref, got = means(ref), means(got)
	byID := map[string]Record{}
	for _, r := range got {
		byID[r.ID] = r
	}
	nan := math.NaN()
	var items []CheckItem
	for _, want := range ref {
		if want.Status != StatusOK {
			continue
		}
		name := trialName(want)
		have, ok := byID[want.ID]
		switch {
		case !ok:
			items = append(items, CheckItem{Trial: name, ID: want.ID, Reference: nan, Value: nan, Floor: nan,
				Problem: fmt.Sprintf("%s: in the reference results but not in this run (did the spec change?)", name)})
			continue
		case have.Status != StatusOK:
			items = append(items, CheckItem{Trial: name, ID: want.ID, Reference: nan, Value: nan, Floor: nan,
				Problem: fmt.Sprintf("%s: status %s: %s", name, have.Status, have.Error)})
			continue
		}
		for _, m := range sortedKeys(want.Metrics) {
			info := ParseMetric(m)
			if !info.Checked() {
				continue
			}
			w := want.Metrics[m]
			h, ok := have.Metrics[m]
			it := CheckItem{Trial: name, ID: want.ID, Metric: MetricLabel(m), Reference: w, Value: h, Floor: nan, Pass: true}
			if info.HigherIsBetter() {
				it.Floor = w - tol
			}
			switch {
			case !ok || math.IsNaN(h):
				it.Value, it.Pass = nan, false
				it.Problem = fmt.Sprintf("%s: %s: no value (reference %.4f)", name, MetricLabel(m), w)
			case info.HigherIsBetter() && h < w-tol:
				it.Pass = false
				it.Problem = fmt.Sprintf("%s: %s fell to %.4f from the reference %.4f (by %.4f, tolerance %g)",
					name, MetricLabel(m), h, w, w-h, tol)
			case !info.HigherIsBetter() && !closeRel(h, w):
				it.Pass = false
				it.Problem = fmt.Sprintf("%s: %s is %.10g, the reference %.10g (relative tolerance %g)",
					name, MetricLabel(m), h, w, CATolerance)
			}
			items = append(items, it)
		}
		items = append(items, checkCA(want, have)...)
	}
	return items
}

// means folds replicates into one record each (MergeReplicates).
func means(recs []Record) []Record {
	out := make([]Record, 0, len(recs))
	for _, r := range MergeReplicates(recs) {
		out = append(out, r.Record)
	}
	return out
}

// checkCA compares the CA results of a reference trial and a rerun.
func checkCA(want, have Record) []CheckItem {
	if want.CA == nil {
		return nil
	}
	name := trialName(want)
	nan := math.NaN()
	if have.CA == nil {
		return []CheckItem{{Trial: name, ID: want.ID, Metric: "CA result", Reference: nan, Value: nan, Floor: nan,
			Problem: fmt.Sprintf("%s: no CA result (the reference has one)", name)}}
	}
	var items []CheckItem
	for _, q := range []struct {
		name     string
		want, is []float64
	}{
		{"singular values", want.CA.SingularValues, have.CA.SingularValues},
		{"principal inertias", want.CA.Inertias, have.CA.Inertias},
		{"total inertia", []float64{want.CA.TotalInertia}, []float64{have.CA.TotalInertia}},
	} {
		if len(q.is) != len(q.want) {
			items = append(items, CheckItem{Trial: name, ID: want.ID, Metric: q.name, Reference: nan, Value: nan, Floor: nan,
				Problem: fmt.Sprintf("%s: %d %s, the reference %d", name, len(q.is), q.name, len(q.want))})
			continue
		}
		for i := range q.want {
			label := q.name
			if len(q.want) > 1 {
				label = fmt.Sprintf("%s[%d]", q.name, i+1)
			}
			it := CheckItem{Trial: name, ID: want.ID, Metric: label, Reference: q.want[i], Value: q.is[i], Floor: nan, Pass: true}
			if !closeRel(q.is[i], q.want[i]) {
				it.Pass = false
				it.Problem = fmt.Sprintf("%s: %s is %.10g, the reference %.10g (relative tolerance %g)",
					name, label, q.is[i], q.want[i], CATolerance)
			}
			items = append(items, it)
		}
	}
	return append(items, checkCAStatistics(name, want, have)...)
}

// caQuantity is one recorded CA quantity beyond the singular values, as
// -check compares it: a vector, or a matrix whose columns are axes (signed:
// an axis and its opposite are the same axis, so each column is compared
// up to its sign) or not.
type caQuantity struct {
	name   string
	want   [][]float64 // a vector is one row
	is     [][]float64
	signed bool // columns are axes, each compared up to sign
}

func vec(v []float64) [][]float64 {
	if v == nil {
		return nil
	}
	return [][]float64{v}
}

// caQuantities lists every recorded CA quantity -check compares besides
// the singular values, inertias and total inertia.
func caQuantities(w, h *CAResult) []caQuantity {
	pv := func(p *float64) [][]float64 {
		if p == nil {
			return nil
		}
		return [][]float64{{*p}}
	}
	scalar := func(v float64) [][]float64 { return [][]float64{{v}} }
	return []caQuantity{
		{"inertia shares", vec(w.InertiaShare), vec(h.InertiaShare), false},
		{"counts", w.Counts, h.Counts, false},
		{"row principal coordinates", w.RowPrincipal, h.RowPrincipal, true},
		{"column principal coordinates", w.ColPrincipal, h.ColPrincipal, true},
		{"row standard coordinates", w.RowStandard, h.RowStandard, true},
		{"column standard coordinates", w.ColStandard, h.ColStandard, true},
		{"row masses", vec(w.RowMass), vec(h.RowMass), false},
		{"column masses", vec(w.ColMass), vec(h.ColMass), false},
		{"row χ² distances", vec(w.RowDist), vec(h.RowDist), false},
		{"column χ² distances", vec(w.ColDist), vec(h.ColDist), false},
		{"row inertias", vec(w.RowInertia), vec(h.RowInertia), false},
		{"column inertias", vec(w.ColInertia), vec(h.ColInertia), false},
		{"row contributions", w.RowCtr, h.RowCtr, false},
		{"column contributions", w.ColCtr, h.ColCtr, false},
		{"row cos²", w.RowCos2, h.RowCos2, false},
		{"column cos²", w.ColCos2, h.ColCos2, false},
		{"row qualities", vec(w.RowQuality), vec(h.RowQuality), false},
		{"column qualities", vec(w.ColQuality), vec(h.ColQuality), false},
		{"χ²", scalar(w.Chi2), scalar(h.Chi2), false},
		{"degrees of freedom", scalar(float64(w.DF)), scalar(float64(h.DF)), false},
		{"p-value", pv(w.PValue), pv(h.PValue), false},
		{"supplementary row principal coordinates", w.SupRowPrincipal, h.SupRowPrincipal, true},
		{"supplementary row χ² distances", vec(w.SupRowDist), vec(h.SupRowDist), false},
		{"supplementary row cos²", w.SupRowCos2, h.SupRowCos2, false},
		{"supplementary row qualities", vec(w.SupRowQuality), vec(h.SupRowQuality), false},
		{"supplementary row counts", w.SupRowCounts, h.SupRowCounts, false},
		{"supplementary column principal coordinates", w.SupColPrincipal, h.SupColPrincipal, true},
		{"supplementary column χ² distances", vec(w.SupColDist), vec(h.SupColDist), false},
		{"supplementary column cos²", w.SupColCos2, h.SupColCos2, false},
		{"supplementary column qualities", vec(w.SupColQuality), vec(h.SupColQuality), false},
		{"supplementary column counts", w.SupColCounts, h.SupColCounts, false},
	}
}

// checkCAStatistics compares every other recorded CA quantity, one item
// per quantity (its worst element), so a report's check table stays one
// line per quantity. A quantity the reference lacks (a record written
// before it existed; χ² of 0 where none was recorded) is not compared.
// Labels must be equal.
func checkCAStatistics(name string, want, have Record) []CheckItem {
	nan := math.NaN()
	var items []CheckItem
	for _, l := range []struct {
		what     string
		want, is []string
	}{{"row labels", want.CA.RowLabels, have.CA.RowLabels}, {"column labels", want.CA.ColLabels, have.CA.ColLabels},
		{"supplementary row labels", want.CA.SupRowLabels, have.CA.SupRowLabels}, {"supplementary column labels", want.CA.SupColLabels, have.CA.SupColLabels}} {
		if len(l.want) > 0 && !slices.Equal(l.want, l.is) {
			items = append(items, CheckItem{Trial: name, ID: want.ID, Metric: l.what, Reference: nan, Value: nan, Floor: nan,
				Problem: fmt.Sprintf("%s: %s are %q, the reference %q", name, l.what, l.is, l.want)})
		}
	}
	for _, q := range caQuantities(want.CA, have.CA) {
		if len(q.want) == 0 || (q.name == "χ²" && want.CA.Chi2 == 0) || (q.name == "degrees of freedom" && want.CA.DF == 0) {
			continue
		}
		if shape(q.is) != shape(q.want) {
			items = append(items, CheckItem{Trial: name, ID: want.ID, Metric: q.name, Reference: nan, Value: nan, Floor: nan,
				Problem: fmt.Sprintf("%s: %s are %s, the reference %s", name, q.name, shape(q.is), shape(q.want))})
			continue
		}
		items = append(items, worstElement(name, want.ID, q))
	}
	return items
}

// shape describes a matrix's dimensions ("3×2"), ragged rows included.
func shape(m [][]float64) string {
	if len(m) == 0 {
		return "none"
	}
	cols := len(m[0])
	for _, r := range m {
		if len(r) != cols {
			return fmt.Sprintf("%d ragged rows", len(m))
		}
	}
	return fmt.Sprintf("%d×%d", len(m), cols)
}

// worstElement compares q element by element (each signed column up to its
// sign, the sign that best matches the reference) and reports the element
// farthest from its reference, relative.
func worstElement(name, id string, q caQuantity) CheckItem {
	cols := len(q.want[0])
	sign := make([]float64, cols)
	for k := range sign {
		sign[k] = 1
		if q.signed {
			dot := 0.0
			for i := range q.want {
				dot += q.want[i][k] * q.is[i][k]
			}
			if dot < 0 {
				sign[k] = -1
			}
		}
	}
	it := CheckItem{Trial: name, ID: id, Metric: q.name, Reference: q.want[0][0], Value: q.is[0][0] * sign[0], Floor: math.NaN(), Pass: true}
	worst := -1.0
	for i := range q.want {
		for k := range q.want[i] {
			w, h := q.want[i][k], q.is[i][k]*sign[k]
			dev := math.Abs(h-w) / math.Max(math.Abs(w), 1e-3)
			if math.IsNaN(h) != math.IsNaN(w) {
				dev = math.Inf(1)
			}
			if dev > worst {
				worst = dev
				label := fmt.Sprintf("%s[%d][%d]", q.name, i+1, k+1)
				switch {
				case len(q.want) == 1 && cols == 1:
					label = q.name
				case len(q.want) == 1:
					label = fmt.Sprintf("%s[%d]", q.name, k+1)
				}
				it.Metric, it.Reference, it.Value = label, w, h
				it.Pass = closeRel(h, w) || (math.IsNaN(h) && math.IsNaN(w))
			}
		}
	}
	if !it.Pass {
		upTo := ""
		if q.signed {
			upTo = ", each axis up to its sign"
		}
		it.Problem = fmt.Sprintf("%s: %s is %.10g, the reference %.10g (relative tolerance %g%s)",
			name, it.Metric, it.Value, it.Reference, CATolerance, upTo)
	}
	return it
}

// closeRel reports whether a equals b within CATolerance relative to |b|
// (absolute for values near zero).
func closeRel(a, b float64) bool {
	return math.Abs(a-b) <= CATolerance*math.Max(math.Abs(b), 1e-3)
}

// CheckedCounts counts what -check compares in a run: scores (guarded
// against a fall) and CA quantities (guarded against any change).
func CheckedCounts(recs []Record) (scores, ca int) {
	for _, r := range recs {
		for m := range r.Metrics {
			info := ParseMetric(m)
			switch {
			case info.Checked() && info.HigherIsBetter():
				scores++
			case info.Checked():
				ca++
			}
		}
		if r.CA != nil {
			ca += len(r.CA.SingularValues) + len(r.CA.Inertias) + 1
			for _, q := range caQuantities(r.CA, r.CA) {
				if q.name == "χ²" && r.CA.Chi2 == 0 || q.name == "degrees of freedom" && r.CA.DF == 0 {
					continue
				}
				for _, row := range q.want {
					ca += len(row)
				}
			}
		}
	}
	return scores, ca
}

// CompareRuns checks that two runs of the same spec produced identical
// results: the same trials, statuses and metrics bit for bit (time and
// memory measurements excepted).
func CompareRuns(a, b []Record) []string {
	byID := map[string]Record{}
	for _, r := range b {
		byID[r.ID] = r
	}
	var fails []string
	if len(a) != len(b) {
		fails = append(fails, fmt.Sprintf("the rerun has %d trials, the first run %d", len(b), len(a)))
	}
	for _, x := range a {
		y, ok := byID[x.ID]
		if !ok {
			fails = append(fails, fmt.Sprintf("%s: missing from the rerun", trialName(x)))
			continue
		}
		if x.Status != y.Status {
			fails = append(fails, fmt.Sprintf("%s: status %s, rerun %s", trialName(x), x.Status, y.Status))
			continue
		}
		keys := sortedKeys(x.Metrics)
		for _, k := range sortedKeys(y.Metrics) {
			if _, ok := x.Metrics[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, m := range keys {
			if ParseMetric(m).Kind == MeasurementMetric {
				continue
			}
			u, okU := x.Metrics[m]
			v, okV := y.Metrics[m]
			if okU != okV || math.Float64bits(u) != math.Float64bits(v) {
				fails = append(fails, fmt.Sprintf("%s: %s is %v in the first run and %v in the rerun: the run is not deterministic",
					trialName(x), MetricLabel(m), u, v))
			}
		}
	}
	sort.Strings(fails)
	return fails
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
