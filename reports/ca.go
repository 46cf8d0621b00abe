package reports

import (
	"fmt"
	"kcalab/records"
	"kcalab/schema"
	"math"
	"sort"
	"strconv"
	"strings"
)

// caSections builds the correspondence-analysis section, or nil when no
// trial has a CA result.
func caSections(r Report) (*Section, error) {
	var withCA []int
	for i, rec := range r.Records {
		if rec.CA != nil {
			withCA = append(withCA, i)
		}
	}
	if len(withCA) == 0 && len(r.CATrials) == 0 {
		return nil, nil
	}
	s := &Section{ID: "ca", Title: "Correspondence analysis"}
	var chosen []int
	if len(r.CATrials) > 0 {
		byID := map[string]int{}
		for _, i := range withCA {
			if _, dup := byID[r.Records[i].ID]; !dup {
				byID[r.Records[i].ID] = i
			}
		}
		for _, id := range r.CATrials {
			i, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("Report.CATrials: no trial %q with a CA result", id)
			}
			chosen = append(chosen, i)
		}
	} else {
		limit := r.MaxCATrials
		if limit == 0 {
			limit = DefaultMaxCATrials
		}
		chosen = withCA
		if len(chosen) > limit {
			chosen = chosen[:limit]
			s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf(
				"Showing the first %d of %d trials with a CA result (Report.MaxCATrials); all are in the trials table.", limit, len(withCA))))
		}
	}
	_, varying := settingsSplit(r.Records)
	maxPoints := r.MaxMapPoints
	if maxPoints == 0 {
		maxPoints = DefaultMaxMapPoints
	}
	for n, g := range groupByBackend(r.Records, chosen) {
		sub, err := caSection(g, n+1, varying, maxPoints)
		if err != nil {
			return nil, fmt.Errorf("trial %q: %w", g[0].ID, err)
		}
		s.Subsections = append(s.Subsections, sub)
	}
	return s, nil
}

// groupByBackend puts together the chosen records that analyse the same
// table with the same settings but for the SVD backend (the scaling series
// setting), in order of first appearance: one map serves them all, and a
// table compares their singular values.
func groupByBackend(recs []records.Record, chosen []int) [][]records.Record {
	series, _ := scalingKeys()
	key := func(rec records.Record) string {
		var parts []string
		for _, k := range sortedKeys(rec.Settings) {
			if k != series && k != schema.KeyLabel {
				parts = append(parts, k+"="+formatValue(rec.Settings[k]))
			}
		}
		return strings.Join(parts, "\x00")
	}
	var out [][]records.Record
	index := map[string]int{}
	for _, i := range chosen {
		k := key(recs[i])
		if g, ok := index[k]; ok {
			out[g] = append(out[g], recs[i])
			continue
		}
		index[k] = len(out)
		out = append(out, []records.Record{recs[i]})
	}
	return out
}

func caSection(group []records.Record, n int, varying []string, maxPoints int) (Section, error) {
	rec := group[0]
	ca := rec.CA
	series, _ := scalingKeys()
	title := "Trial " + rec.ID
	if len(group) > 1 {
		ids := make([]string, len(group))
		for i, g := range group {
			ids[i] = g.ID
		}
		title = "Trials " + strings.Join(ids, ", ")
	}
	s := Section{ID: "ca-" + strconv.Itoa(n), Title: title}
	var kv [][2]string
	for _, k := range varying {
		if v, ok := rec.Settings[k]; ok && !(len(group) > 1 && k == series) {
			kv = append(kv, [2]string{k, formatValue(v)})
		}
	}
	var line string
	for _, g := range group {
		st := g.Status
		if g.Error != "" {
			st += " (" + g.Error + ")"
		}
		if len(group) > 1 {
			st = backendOf(g) + ": " + st
		}
		if line != "" {
			line += "; "
		}
		line += st
	}
	line = "Status: " + line
	line += fmt.Sprintf(". Total inertia %s; %d axes.", sig(ca.TotalInertia, 4), len(ca.SingularValues))
	if len(kv) > 0 {
		line = "Settings: " + joinSettings(kv) + ". " + line
	}
	if ca.DF > 0 && ca.PValue != nil {
		line += fmt.Sprintf(" χ² test of independence: χ² = %s, df = %d, p %s.", sig(ca.Chi2, 6), ca.DF, pText(*ca.PValue))
	}
	s.Blocks = append(s.Blocks, Paragraph(line))
	if len(group) > 1 {
		s.Blocks = append(s.Blocks, Paragraph(fmt.Sprintf("The map and the tables below are those of the %s backend; "+
			"the backends' singular values are compared in the last table.", backendOf(rec))))
	}

	var row Row
	m, notes, err := caMap(ca, n, maxPoints)
	if err != nil {
		return Section{}, err
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
	if len(row) > 0 {
		s.Blocks = append(s.Blocks, row)
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

// summaryTable is R's summary.ca: for every row and column (supplementary
// ones marked "(sup.)"), mass, quality and inertia share, then per kept axis
// (at most three) the principal coordinate, cos² (cor) and contribution
// (ctr); all in permills as R prints them. Nil when the record predates
// these statistics.
func summaryTable(ca *records.CAResult, n int) *Table {
	if len(ca.RowMass) == 0 || len(ca.RowCtr) == 0 {
		return nil
	}
	axes := min(len(ca.SingularValues), 3)
	t := &Table{
		ID: "ca-summary-" + strconv.Itoa(n),
		Caption: "Rows and columns as R's summary.ca prints them (permills): mass, quality (qlt, Σ cos² over the kept axes), " +
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
	at := func(v [][]float64, i, l int) float64 {
		if i < len(v) && l < len(v[i]) {
			return v[i][l]
		}
		return math.NaN()
	}
	at1 := func(v []float64, i int) float64 {
		if i < len(v) {
			return v[i]
		}
		return math.NaN()
	}
	share := func(x float64) float64 {
		if ca.TotalInertia <= 0 {
			return math.NaN()
		}
		return x / ca.TotalInertia
	}
	add := func(side, name string, mass, qlt, inr float64, coord, cos2, ctr func(l int) float64) {
		row := []string{side, name, permill(mass), permill(qlt), permill(inr)}
		for l := 0; l < axes; l++ {
			row = append(row, permill(coord(l)), permill(cos2(l)), permill(ctr(l)))
		}
		t.Rows = append(t.Rows, row)
	}
	none := func(int) float64 { return math.NaN() }
	for i, name := range ca.RowLabels {
		add("row", name, at1(ca.RowMass, i), at1(ca.RowQuality, i), share(at1(ca.RowInertia, i)),
			func(l int) float64 { return at(ca.RowPrincipal, i, l) }, func(l int) float64 { return at(ca.RowCos2, i, l) },
			func(l int) float64 { return at(ca.RowCtr, i, l) })
	}
	for i, name := range ca.SupRowLabels {
		add("row (sup.)", name, math.NaN(), at1(ca.SupRowQuality, i), math.NaN(),
			func(l int) float64 { return at(ca.SupRowPrincipal, i, l) }, func(l int) float64 { return at(ca.SupRowCos2, i, l) }, none)
	}
	for j, name := range ca.ColLabels {
		add("column", name, at1(ca.ColMass, j), at1(ca.ColQuality, j), share(at1(ca.ColInertia, j)),
			func(l int) float64 { return at(ca.ColPrincipal, j, l) }, func(l int) float64 { return at(ca.ColCos2, j, l) },
			func(l int) float64 { return at(ca.ColCtr, j, l) })
	}
	for j, name := range ca.SupColLabels {
		add("column (sup.)", name, math.NaN(), at1(ca.SupColQuality, j), math.NaN(),
			func(l int) float64 { return at(ca.SupColPrincipal, j, l) }, func(l int) float64 { return at(ca.SupColCos2, j, l) }, none)
	}
	return t
}

// svCompare puts the singular values of a group's backends side by side,
// after the published ones for Fisher's table; nil when there is nothing to
// compare.
func svCompare(group []records.Record, n int) *Table {
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
		t.Header = append(t.Header, backendOf(g))
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
