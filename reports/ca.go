package reports

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/schema"
)

// caSections builds the correspondence-analysis section, or nil when no
// trial has a CA result.
func (p *builder) caSections(r Report) (*Section, error) {
	withCA := p.project(r.Records, func(rec records.Record) bool { return rec.CA != nil })
	if withCA.Len() == 0 && len(r.CATrials) == 0 {
		return nil, nil
	}
	s := &Section{ID: "ca", Title: "Correspondence analysis"}
	chosen, err := chooseCATrials(withCA, r.CATrials)
	if err != nil {
		return nil, err
	}
	if limit := orDefault(r.MaxCATrials, DefaultMaxCATrials); len(r.CATrials) == 0 && chosen.Len() > limit {
		chosen.Trials = chosen.Trials[:limit]
		s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf(
			"Showing the first %d of %d trials with a CA result (Report.MaxCATrials); all are in the trials table.", limit, withCA.Len())))
	}
	_, varying := settingsSplit(r.Records)
	maxPoints := orDefault(r.MaxMapPoints, DefaultMaxMapPoints)
	groups := chosen.GroupBy(backendGroup)
	// Several analyses (of other tables, or CA beside Gini) are each named
	// as the trials table names them, and the section answers for each.
	var names []string
	if len(groups) > 1 {
		first := make([]records.Record, len(groups))
		nums := make([]int, len(groups))
		for i, g := range groups {
			first[i], nums[i] = g.Trials[0].Record, g.Trials[0].Num
		}
		names = p.trialLabels(first, nums)
	}
	var head Headline
	for n, g := range groups {
		sub, err := caSection(g.Trials, n+1, varying, maxPoints)
		if err != nil {
			return nil, fmt.Errorf("trial %q: %w", g.Trials[0].ID, err)
		}
		if names != nil {
			sub.Title = names[n] + " (" + strings.ToLower(sub.Title[:1]) + sub.Title[1:] + ")"
			if h := caHeadline(g.Trials); h != "" {
				head = append(head, names[n]+": "+strings.ToLower(h[:1])+h[1:])
			}
		}
		s.Subsections = append(s.Subsections, sub)
	}
	if len(head) > 0 {
		s.Blocks = append(s.Blocks, head)
	}
	return s, nil
}

// chooseCATrials is the trials with a CA result that ids name, in the
// order named (each id's first trial), or all of them when ids is empty.
func chooseCATrials(withCA projection, ids []string) (projection, error) {
	if len(ids) == 0 {
		return withCA, nil
	}
	byID := map[string]trial{}
	for _, t := range withCA.Trials {
		if _, dup := byID[t.ID]; !dup {
			byID[t.ID] = t
		}
	}
	var chosen []trial
	for _, id := range ids {
		t, ok := byID[id]
		if !ok {
			return projection{}, fmt.Errorf("Report.CATrials: no trial %q with a CA result", id)
		}
		chosen = append(chosen, t)
	}
	return withCA.With(chosen), nil
}

// backendGroup puts together the trials that analyse the same table with
// the same settings but for the SVD backend (the scaling series setting)
// and the label: one map serves them all, and a table compares their
// singular values.
func backendGroup(_ int, t trial) string {
	series, _ := scalingKeys()
	var parts []string
	for _, k := range sortedKeys(t.Settings) {
		if k != series && k != schema.KeyLabel {
			parts = append(parts, k+"="+formatValue(t.Settings[k]))
		}
	}
	return strings.Join(parts, "\x00")
}

// caSection is one group of trials' CA (see backendGroup): the first
// trial's map, scree plot and tables, the group's singular values side by
// side.
func caSection(group []trial, n int, varying []string, maxPoints int) (Section, error) {
	ca := group[0].CA
	title := "Trial " + group[0].ID
	if len(group) > 1 {
		ids := make([]string, len(group))
		for i, g := range group {
			ids[i] = g.ID
		}
		title = "Trials " + strings.Join(ids, ", ")
	}
	s := Section{ID: "ca-" + strconv.Itoa(n), Title: title}
	if h := caHeadline(group); h != "" {
		s.Blocks = append(s.Blocks, Headline{h})
	}
	s.Blocks = append(s.Blocks, Paragraph(caStatus(group, varying)))
	if len(group) > 1 {
		s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("The map and the tables below are those of the %s backend; "+
			"the backends' singular values are compared in the last table.", backendOf(group[0].Record))))
	}
	charts, notes, err := caCharts(ca, n, maxPoints)
	if err != nil {
		return Section{}, err
	}
	if len(charts) > 0 {
		s.Blocks = append(s.Blocks, charts)
	}
	for _, note := range notes {
		s.Blocks = append(s.Blocks, Paragraph(note))
	}
	if t := summaryTable(ca, n); t != nil {
		s.Blocks = append(s.Blocks, *t)
	}
	s.Blocks = append(s.Blocks, svTable(ca, n))
	if t := svCompare(group, n); t != nil {
		s.Blocks = append(s.Blocks, *t)
	}
	if t := inputTable(ca, n); t != nil {
		s.Blocks = append(s.Blocks, *t)
	}
	return s, nil
}

// caHeadline is what a group's CA answers: how much of the inertia its
// first two axes hold, whether every backend gives the published singular
// values (Fisher's table) and how far the backends are from the first;
// "" without a CA.
func caHeadline(group []trial) string {
	ca := group[0].CA
	if ca == nil || len(ca.InertiaShare) == 0 {
		return ""
	}
	sh := ca.InertiaShare
	var parts []string
	if len(sh) == 1 {
		parts = append(parts, "Its one axis holds all the inertia")
	} else {
		parts = append(parts, fmt.Sprintf("Axes 1 and 2 hold %s and %s of the inertia (%s together)", percent(sh[0], 1), percent(sh[1], 1), percent(sh[0]+sh[1], 1)))
	}
	if formatValue(group[0].Settings[schema.KeySource]) == "fisher" && len(ca.SupRowLabels) == 0 && len(ca.SupColLabels) == 0 {
		var same, differ []string
		for _, g := range group {
			if g.CA == nil {
				continue
			}
			ok := len(g.CA.SingularValues) >= len(paperFisherSV)
			for i := 0; ok && i < len(paperFisherSV); i++ {
				ok = strconv.FormatFloat(g.CA.SingularValues[i], 'f', 4, 64) == strconv.FormatFloat(paperFisherSV[i], 'f', 4, 64)
			}
			if ok {
				same = append(same, backendOf(g.Record))
			} else {
				differ = append(differ, backendOf(g.Record))
			}
		}
		switch {
		case len(differ) == 0:
			parts = append(parts, "the singular values equal the published ones to 4 decimals "+map[bool]string{true: "in every backend", false: "in " + strings.Join(same, ", ")}[len(same) > 1])
		case len(same) == 0:
			parts = append(parts, "the singular values differ from the published ones at 4 decimals in "+strings.Join(differ, ", "))
		default:
			parts = append(parts, "the singular values equal the published ones to 4 decimals in "+strings.Join(same, ", ")+", not in "+strings.Join(differ, ", "))
		}
	}
	if len(group) > 1 {
		gap := 0.0
		for _, g := range group[1:] {
			if g.CA == nil || len(g.CA.SingularValues) != len(ca.SingularValues) || len(ca.SingularValues) == 0 {
				continue
			}
			for i, v := range g.CA.SingularValues {
				gap = math.Max(gap, math.Abs(v-ca.SingularValues[i])/ca.SingularValues[0])
			}
		}
		if gap == 0 {
			parts = append(parts, "the backends' singular values are equal to the last bit")
		} else {
			parts = append(parts, fmt.Sprintf("the backends' singular values are at most %s·σ_1 from %s's", sig(gap, 2), backendOf(group[0].Record)))
		}
	}
	return strings.Join(parts, "; ") + "."
}

// caStatus is the line above a CA: the settings that vary among the page's
// trials (but the backend, when the group spans several), each trial's
// status, the total inertia and the χ² test.
func caStatus(group []trial, varying []string) string {
	rec, ca := group[0].Record, group[0].CA
	series, _ := scalingKeys()
	var kv [][2]string
	for _, k := range varying {
		if v, ok := rec.Settings[k]; ok && !(len(group) > 1 && k == series) {
			kv = append(kv, [2]string{k, formatValue(v)})
		}
	}
	statuses := make([]string, len(group))
	for i, g := range group {
		statuses[i] = g.Status
		if g.Error != "" {
			statuses[i] += " (" + shownMessage(g.Error) + ")"
		}
		if len(group) > 1 {
			statuses[i] = backendOf(g.Record) + ": " + statuses[i]
		}
	}
	line := "Status: " + strings.Join(statuses, "; ")
	line += fmt.Sprintf(". Total inertia %s; %d axes.", sig(ca.TotalInertia, 4), len(ca.SingularValues))
	if len(kv) > 0 {
		line = "Settings: " + joinSettings(kv) + ". " + line
	}
	if ca.DF > 0 && ca.PValue != nil {
		line += fmt.Sprintf(" χ² test of independence: χ² = %s, df = %d, p %s.", sig(ca.Chi2, 6), ca.DF, pText(*ca.PValue))
	}
	return line
}

// caCharts are the CA map and the scree plot, side by side, and notes on
// what the map leaves out.
func caCharts(ca *records.CAResult, n, maxPoints int) (Row, []string, error) {
	var row Row
	m, notes, err := caMap(ca, n, maxPoints)
	if err != nil {
		return nil, nil, err
	}
	if m != nil {
		row = append(row, *m)
	}
	if len(ca.Inertias) > 0 {
		shares := make([]string, len(ca.Inertias))
		cats := make([]string, len(ca.Inertias))
		for k := range ca.Inertias {
			cats[k] = strconv.Itoa(k + 1)
			if k < len(ca.InertiaShare) {
				shares[k] = percent(ca.InertiaShare[k], 1)
			}
		}
		row = append(row, Bar{
			ID: "ca-scree-" + strconv.Itoa(n), Title: "Scree plot: principal inertia per axis (label: share)",
			XName: "Axis", YName: "Principal inertia", Categories: cats,
			Series: []BarSeries{{Name: "Principal inertia", Values: ca.Inertias, Labels: shares}},
		})
	}
	return row, notes, nil
}

// backendOf names the SVD backend a record used.
func backendOf(rec records.Record) string {
	if rec.Backend != "" {
		return rec.Backend
	}
	series, _ := scalingKeys()
	return formatValue(rec.Settings[series])
}

// pText prints a p-value as R does for tiny ones.
func pText(p float64) string {
	if p < 2.2e-16 {
		if p == 0 {
			return "< 1e-308"
		}
		return "= " + strconv.FormatFloat(p, 'e', 2, 64)
	}
	return "= " + sig(p, 3)
}

// permill prints a fraction in permills, as R's summary.ca does.
func permill(v float64) string {
	if !finite(v) {
		return "—"
	}
	return strconv.Itoa(int(math.Round(1000 * v)))
}

// summaryNd is the number of axes R's summary.ca sums a point's quality
// over: ca's default nd = NA keeps every axis, and summary.ca then takes
// nd = 2.
const summaryNd = 2

// summaryTable is R's summary.ca: for every row and column (supplementary
// ones marked "(sup.)"), mass, quality over axes 1–2 (summaryNd, as R;
// over every axis each point's would be 1000) and inertia share, then per
// kept axis (at most three) the principal coordinate, cos² (cor) and
// contribution (ctr); all in permills as R prints them. Nil when the
// record predates these statistics.
func summaryTable(ca *records.CAResult, n int) *Table {
	if len(ca.RowMass) == 0 || len(ca.RowCtr) == 0 {
		return nil
	}
	axes := min(len(ca.SingularValues), 3)
	t := &Table{
		ID: "ca-summary-" + strconv.Itoa(n),
		Caption: "Rows and columns as R's summary.ca prints them (permills): mass, quality (qlt, Σ cos² over " + qltAxes(len(ca.SingularValues)) + "), " +
			"inertia share (inr); per axis the principal coordinate (k), squared correlation (cor) and contribution (ctr)",
		Header: []string{"", "name", "mass", "qlt", "inr"},
	}
	for l := 1; l <= axes; l++ {
		t.Header = append(t.Header, fmt.Sprintf("k=%d", l), "cor", "ctr")
	}
	t.Numeric = make([]bool, len(t.Header))
	for j := 2; j < len(t.Numeric); j++ {
		t.Numeric[j] = true
	}
	share := func(x float64) float64 {
		if ca.TotalInertia <= 0 {
			return math.NaN()
		}
		return x / ca.TotalInertia
	}
	add := func(side, name string, i int, mass, qlt, inr float64, coord, cos2, ctr [][]float64) {
		row := []string{side, name, permill(mass), permill(qlt), permill(inr)}
		for l := 0; l < axes; l++ {
			row = append(row, permill(at2(coord, i, l)), permill(at2(cos2, i, l)), permill(at2(ctr, i, l)))
		}
		t.Rows = append(t.Rows, row)
	}
	nan := math.NaN()
	for i, name := range ca.RowLabels {
		add("row", name, i, at1(ca.RowMass, i), quality(ca.RowCos2, ca.RowQuality, i), share(at1(ca.RowInertia, i)), ca.RowPrincipal, ca.RowCos2, ca.RowCtr)
	}
	for i, name := range ca.SupRowLabels {
		add("row (sup.)", name, i, nan, quality(ca.SupRowCos2, ca.SupRowQuality, i), nan, ca.SupRowPrincipal, ca.SupRowCos2, nil)
	}
	for j, name := range ca.ColLabels {
		add("column", name, j, at1(ca.ColMass, j), quality(ca.ColCos2, ca.ColQuality, j), share(at1(ca.ColInertia, j)), ca.ColPrincipal, ca.ColCos2, ca.ColCtr)
	}
	for j, name := range ca.SupColLabels {
		add("column (sup.)", name, j, nan, quality(ca.SupColCos2, ca.SupColQuality, j), nan, ca.SupColPrincipal, ca.SupColCos2, nil)
	}
	return t
}

// quality is point i's Σ cos² over the first summaryNd axes, as R's
// summary.ca prints it (the record's quality sums every kept axis); the
// record's when it holds no cos².
func quality(cos2 [][]float64, recorded []float64, i int) float64 {
	if i >= len(cos2) || len(cos2[i]) == 0 {
		return at1(recorded, i)
	}
	q := 0.0
	for _, c := range cos2[i][:min(summaryNd, len(cos2[i]))] {
		q += c
	}
	return q
}

// qltAxes says which axes the quality sums over, for a caption.
func qltAxes(k int) string {
	if k <= 1 {
		return "axis 1"
	}
	if k <= summaryNd {
		return "axes 1–" + strconv.Itoa(k)
	}
	return fmt.Sprintf("axes 1–%d, as R's summary.ca with ca's default nd: over all %d axes every point's would be 1000", summaryNd, k)
}

// at1 is v[i], NaN when v is too short (a record older than the field).
func at1(v []float64, i int) float64 {
	if i < len(v) {
		return v[i]
	}
	return math.NaN()
}

// at2 is v[i][l], NaN when v is too short.
func at2(v [][]float64, i, l int) float64 {
	if i < len(v) && l < len(v[i]) {
		return v[i][l]
	}
	return math.NaN()
}

// svCompare puts the singular values of a group's backends side by side,
// after the published ones for Fisher's table; nil when there is nothing to
// compare.
func svCompare(group []trial, n int) *Table {
	rec := group[0]
	var published []float64
	if formatValue(rec.Settings[schema.KeySource]) == "fisher" && len(rec.CA.SupRowLabels) == 0 && len(rec.CA.SupColLabels) == 0 {
		published = paperFisherSV
	}
	if len(group) < 2 && published == nil {
		return nil
	}
	t := &Table{ID: "ca-sv-compare-" + strconv.Itoa(n), Caption: "Singular values by backend", Header: []string{"Axis"}}
	if published != nil {
		t.Caption += "; published: the paper's values for Fisher's table, to 4 decimals"
		t.Header = append(t.Header, "published")
	}
	k := 0
	for _, g := range group {
		t.Header = append(t.Header, backendOf(g.Record))
		if g.CA != nil {
			k = max(k, len(g.CA.SingularValues))
		}
	}
	t.Numeric = make([]bool, len(t.Header))
	for j := range t.Numeric {
		t.Numeric[j] = true
	}
	for i := 0; i < max(k, len(published)); i++ {
		row := []string{strconv.Itoa(i + 1)}
		if published != nil {
			if i < len(published) {
				row = append(row, strconv.FormatFloat(published[i], 'f', 4, 64))
			} else {
				row = append(row, "—")
			}
		}
		for _, g := range group {
			if g.CA != nil && i < len(g.CA.SingularValues) {
				row = append(row, strconv.FormatFloat(g.CA.SingularValues[i], 'f', 10, 64))
			} else {
				row = append(row, "—")
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// inputTable shows the analysed counts, supplementary rows and columns
// marked; nil for records without them (word tables, old records).
func inputTable(ca *records.CAResult, n int) *Table {
	if len(ca.Counts) == 0 {
		return nil
	}
	t := &Table{ID: "ca-input-" + strconv.Itoa(n), Caption: "The input table (counts)", Header: []string{""}}
	t.Header = append(t.Header, ca.ColLabels...)
	for _, l := range ca.SupColLabels {
		t.Header = append(t.Header, l+" (sup.)")
	}
	t.Numeric = make([]bool, len(t.Header))
	for j := 1; j < len(t.Numeric); j++ {
		t.Numeric[j] = true
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for i, label := range ca.RowLabels {
		row := []string{label}
		for _, v := range ca.Counts[i] {
			row = append(row, num(v))
		}
		for j := range ca.SupColLabels {
			if j < len(ca.SupColCounts) && i < len(ca.SupColCounts[j]) {
				row = append(row, num(ca.SupColCounts[j][i]))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	for i, label := range ca.SupRowLabels {
		row := []string{label + " (sup.)"}
		if i < len(ca.SupRowCounts) {
			for _, v := range ca.SupRowCounts[i] {
				row = append(row, num(v))
			}
		}
		for range ca.SupColLabels {
			row = append(row, "—")
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// svTable lists singular values, principal inertias, shares and cumulative
// shares per axis.
func svTable(ca *records.CAResult, n int) Table {
	t := Table{
		ID:      "ca-sv-" + strconv.Itoa(n),
		Caption: "Singular values and principal inertias",
		Header:  []string{"Axis", "Singular value", "Principal inertia", "Share", "Cumulative share"},
		Numeric: []bool{true, true, true, true, true},
	}
	k := max(len(ca.SingularValues), len(ca.Inertias), len(ca.InertiaShare))
	at := func(v []float64, i int) (float64, bool) {
		if i < len(v) {
			return v[i], true
		}
		return math.NaN(), false
	}
	cum := 0.0
	for i := 0; i < k; i++ {
		row := []string{strconv.Itoa(i + 1), "—", "—", "—", "—"}
		if v, ok := at(ca.SingularValues, i); ok {
			row[1] = sig(v, 4)
		}
		if v, ok := at(ca.Inertias, i); ok {
			row[2] = sig(v, 4)
		}
		if v, ok := at(ca.InertiaShare, i); ok {
			cum += v
			row[3] = percent(v, 2)
			row[4] = percent(cum, 2)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// caMap draws rows and columns in principal coordinates on axes 1–2. It
// returns nil and a note when the result has fewer than two axes or no
// coordinates.
func caMap(ca *records.CAResult, n, maxPoints int) (*ScatterMap, []string, error) {
	if len(ca.RowPrincipal) == 0 && len(ca.ColPrincipal) == 0 {
		return nil, []string{"No CA map: the record has no principal coordinates."}, nil
	}
	rows, rnote, err := mapSeries("Rows", "row", ca.RowLabels, ca.RowPrincipal, maxPoints)
	if err != nil {
		return nil, nil, err
	}
	cols, cnote, err := mapSeries("Columns", "column", ca.ColLabels, ca.ColPrincipal, maxPoints)
	if err != nil {
		return nil, nil, err
	}
	if rows == nil || cols == nil {
		return nil, []string{"No CA map: fewer than two axes."}, nil
	}
	rows.Symbol, cols.Symbol = "circle", "triangle"
	series := []ScatterSeries{*rows, *cols}
	for _, sup := range []struct {
		name, what, symbol string
		labels             []string
		coords             [][]float64
	}{
		{"Supplementary rows", "supplementary row", "diamond", ca.SupRowLabels, ca.SupRowPrincipal},
		{"Supplementary columns", "supplementary column", "rect", ca.SupColLabels, ca.SupColPrincipal},
	} {
		if len(sup.coords) == 0 {
			continue
		}
		ss, _, err := mapSeries(sup.name, sup.what, sup.labels, sup.coords, maxPoints)
		if err != nil {
			return nil, nil, err
		}
		if ss != nil {
			ss.Symbol = sup.symbol
			series = append(series, *ss)
		}
	}
	axis := func(k int) string {
		name := "Axis " + strconv.Itoa(k+1)
		if k < len(ca.InertiaShare) {
			name += " (" + percent(ca.InertiaShare[k], 1) + ")"
		}
		return name
	}
	var notes []string
	for _, s := range []string{rnote, cnote} {
		if s != "" {
			notes = append(notes, s)
		}
	}
	return &ScatterMap{
		ID: "ca-map-" + strconv.Itoa(n), Title: "CA map: rows and columns in principal coordinates, axes 1–2",
		XName: axis(0), YName: axis(1), EqualScale: true,
		Series: series,
	}, notes, nil
}

// mapSeries takes axes 1–2 of coords, keeping the maxPoints points farthest
// from the origin (ties by index) in their original order. It returns nil
// when there are fewer than two axes.
func mapSeries(name, what string, labels []string, coords [][]float64, maxPoints int) (*ScatterSeries, string, error) {
	if labels != nil && len(labels) != len(coords) {
		return nil, "", fmt.Errorf("CA result has %d %s labels for %d %ss", len(labels), what, len(coords), what)
	}
	for i, c := range coords {
		if len(c) < 2 {
			if i == 0 {
				return nil, "", nil
			}
			return nil, "", fmt.Errorf("CA result: %s %d has %d principal coordinates, others have ≥ 2", what, i+1, len(c))
		}
	}
	idx := make([]int, len(coords))
	for i := range idx {
		idx[i] = i
	}
	note := ""
	if len(coords) > maxPoints {
		d := func(i int) float64 {
			x, y := coords[i][0], coords[i][1]
			v := x*x + y*y
			if math.IsNaN(v) {
				return -1
			}
			return v
		}
		sort.SliceStable(idx, func(a, b int) bool { return d(idx[a]) > d(idx[b]) })
		idx = idx[:maxPoints]
		sort.Ints(idx)
		note = fmt.Sprintf("The map shows the %d of %d %ss farthest from the origin on axes 1–2 (Report.MaxMapPoints).", maxPoints, len(coords), what)
	}
	s := &ScatterSeries{Name: name}
	for _, i := range idx {
		label := what + " " + strconv.Itoa(i+1)
		if labels != nil {
			label = labels[i]
		}
		s.Points = append(s.Points, Labeled{Label: label, X: coords[i][0], Y: coords[i][1]})
	}
	return s, note, nil
}
