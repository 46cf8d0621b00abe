package compare

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kcalab/records"
	"kcalab/reports/page"
)

// A section is built in three steps: select the records it is about
// (Project with filters), group them (GroupBy, Rows, Table, Lines) and
// draw what the groups hold (cells, XY points) into blocks. Everything
// from the second step lives here, once (the labels rows take come from
// the caller's Labeler); a section body only selects and draws.

// Trial is a record as a section sees it, with its number on the page
// (1-based: the trials table's "#", which labels cite to tell repeats
// apart).
type Trial struct {
	records.Record
	Num int
}

// Filter is a rule a record keeps to take part in a section.
type Filter func(records.Record) bool

// HasMetric keeps the records with a metric of one of the kinds.
func HasMetric(kinds ...records.Kind) Filter {
	return func(rec records.Record) bool {
		for k := range rec.Metrics {
			kind := records.ParseMetric(k).Kind
			for _, want := range kinds {
				if kind == want {
					return true
				}
			}
		}
		return false
	}
}

// HasStatus keeps the records of one status ("ok": the trial finished).
func HasStatus(status string) Filter {
	return func(rec records.Record) bool { return rec.Status == status }
}

// NumericSetting keeps the records whose setting key is a finite number.
func NumericSetting(key string) Filter {
	return func(rec records.Record) bool {
		x, ok := Number(rec.Settings[key])
		return ok && finite(x)
	}
}

// Not keeps the records f drops.
func Not(f Filter) Filter { return func(rec records.Record) bool { return !f(rec) } }

// Projection is the trials a section is built from: the records every
// filter kept, in page order. Its views group them: groupBy into ordered
// groups by any key, rows into labelled table rows with replicates folded,
// table into rows × metric columns of cells, lines into chart series whose
// values at one x fold into one point.
type Projection struct {
	// label names the rows of a table among each other (the trials'
	// records and page numbers in, one label each out).
	label  Labeler
	Trials []Trial
}

// Labeler names table rows among each other: one label per record, given
// the records and their numbers on the page.
type Labeler func(recs []records.Record, nums []int) []string

// Project selects the records that keep every filter; label names the
// rows the projection lays out.
func Project(recs []records.Record, label Labeler, keep ...Filter) Projection {
	pr := Projection{label: label}
	for i, rec := range recs {
		if keeps(rec, keep) {
			pr.Trials = append(pr.Trials, Trial{Record: rec, Num: i + 1})
		}
	}
	return pr
}

// With is a projection of the given trials (e.g. some of pr's, reordered)
// that labels its rows as pr does.
func (pr Projection) With(trials []Trial) Projection {
	return Projection{label: pr.label, Trials: trials}
}

// Where narrows the projection to the trials that also keep every filter.
func (pr Projection) Where(keep ...Filter) Projection {
	out := Projection{label: pr.label}
	for _, t := range pr.Trials {
		if keeps(t.Record, keep) {
			out.Trials = append(out.Trials, t)
		}
	}
	return out
}

func keeps(rec records.Record, keep []Filter) bool {
	for _, f := range keep {
		if !f(rec) {
			return false
		}
	}
	return true
}

func (pr Projection) Len() int { return len(pr.Trials) }

// Records returns the selected Records, in page order.
func (pr Projection) Records() []records.Record {
	out := make([]records.Record, len(pr.Trials))
	for i, t := range pr.Trials {
		out[i] = t.Record
	}
	return out
}

// Group is the trials a projection puts together under one key.
type Group struct {
	Key    string
	Trials []Trial
	At     []int // each trial's index in the projection
}

// GroupBy puts the trials with equal keys together. Groups come in the
// order their keys first appear and keep the trials' order, so that no
// page depends on map order. key gets the trial's index in the projection
// as well, for keys computed over all of its trials at once.
func (pr Projection) GroupBy(key func(i int, t Trial) string) []Group {
	var out []Group
	index := map[string]int{}
	for i, t := range pr.Trials {
		k := key(i, t)
		g, ok := index[k]
		if !ok {
			g = len(out)
			index[k] = g
			out = append(out, Group{Key: k})
		}
		out[g].Trials = append(out[g].Trials, t)
		out[g].At = append(out[g].At, i)
	}
	return out
}

// ByKey sorts groups by their keys, for text that lists them (e.g.
// statuses).
func ByKey(gs []Group) []Group {
	slices.SortFunc(gs, func(a, b Group) int { return strings.Compare(a.Key, b.Key) })
	return gs
}

// Row is one Row of a table: a trial, or a group of replicates (trials
// that differ only in the replicate setting) folded as
// records.MergeReplicates folds them: its record is the first replicate's
// with every metric the replicates' mean, and its number the first
// replicate's.
type Row struct {
	Trial
	Label   string
	N       int                // trials folded into the row (1: none)
	SD      map[string]float64 // sample SD per metric, where ≥ 2 replicates had it
	Members []records.Record   // the trials folded into the row, when n ≥ 2
}

// Rows lays the trials out as table Rows, one per trial or, when fold is
// set, per group of replicates; each labelled by trialLabels among the
// Rows. A folded row finds its number by its first replicate's id, which
// a results file never repeats.
func (pr Projection) Rows(fold bool) []Row {
	out := make([]Row, 0, len(pr.Trials))
	if !fold {
		for _, t := range pr.Trials {
			out = append(out, Row{Trial: t, N: 1})
		}
	} else {
		first := map[string]int{}
		for _, t := range pr.Trials {
			if _, ok := first[t.ID]; !ok {
				first[t.ID] = t.Num
			}
		}
		members := ReplicateGroups(pr.Records())
		for i, m := range records.MergeReplicates(pr.Records()) {
			r := Row{Trial: Trial{Record: m.Record, Num: first[m.Record.ID]}, N: m.N, SD: m.SD}
			if m.N > 1 {
				r.Members = members[i]
			}
			out = append(out, r)
		}
	}
	recs, nums := make([]records.Record, len(out)), make([]int, len(out))
	for i, r := range out {
		recs[i], nums[i] = r.Record, r.Num
	}
	for i, l := range pr.label(recs, nums) {
		out[i].Label = l
	}
	return out
}

// ReplicateGroups groups records as records.MergeReplicates does (by
// spec and settings, the replicate number aside), in the order its groups
// first appear, so group i holds the trials folded into its result i.
func ReplicateGroups(recs []records.Record) [][]records.Record {
	var out [][]records.Record
	index := map[string]int{}
	for _, rec := range recs {
		s := make(map[string]any, len(rec.Settings))
		for k, v := range rec.Settings {
			if k != records.KeyReplicate {
				s[k] = v
			}
		}
		b, _ := json.Marshal(records.Normalize(s)) // encoding/json sorts map keys
		k := rec.Spec + "\x00" + string(b)
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], rec)
	}
	return out
}

// RowRecords returns the rows' records (for replicates, their means).
func RowRecords(rows []Row) []records.Record {
	out := make([]records.Record, len(rows))
	for i, r := range rows {
		out[i] = r.Record
	}
	return out
}

// Cell is one number a table shows and what qualifies it: its spread over
// the replicates folded into it, notes in small type after it, and
// whether it takes part in the ranking.
type Cell struct {
	Value    float64 // NaN: none
	SD       float64 // sample SD over the replicates, when hasSD
	HasSD    bool
	N        int // trials folded into the cell
	Notes    []string
	Unranked bool // shown, never marked best (e.g. an in-sample score)
	// Quantities are the numbers the notes print, for the CSV.
	Quantities []page.Quantity
}

// Quantity records a number the cell's notes print, for the CSV; NaN
// records nothing.
func (c *Cell) Quantity(name string, v float64) {
	if finite(v) {
		c.Quantities = append(c.Quantities, page.Quantity{Name: name, Value: v})
	}
}

// Cell is the row's value of a metric key.
func (r Row) Cell(key string) Cell {
	c := Cell{Value: Metric(r.Record, key), N: r.N}
	c.SD, c.HasSD = r.SD[key]
	return c
}

// Spread is what a cell says of its replicates (trials differing only in
// their seed): "sd 0.02 over 3 seeds", or "3 seeds" when the value has no
// Spread; "" for a single trial. (A ± in a score table is the bootstrap
// interval over the set's pairs, a different Spread.)
func (c Cell) Spread() string {
	switch {
	case c.N < 2:
		return ""
	case c.HasSD:
		return fmt.Sprintf("sd %s over %d seeds", sig(c.SD, 2), c.N)
	}
	return fmt.Sprintf("%d seeds", c.N)
}

// Note adds a Note after the cell's others; "" adds nothing.
func (c *Cell) Note(s string) {
	if s != "" {
		c.Notes = append(c.Notes, s)
	}
}

// Column is one Column of a table: its header and the metric its cells
// show; for a Column of scores on a set, the metrics of the share of the
// set its rows cover and of the set's size ("" for none).
type Column struct {
	Name, Metric    string
	Coverage, Pairs string
}

// Table is rows by columns: cell (i, j) is row i's value of column j's
// metric.
type Table struct {
	Rows []Row
	Cols []Column
}

// Header is the columns' names.
func (t Table) Header() []string {
	out := make([]string, len(t.Cols))
	for j, c := range t.Cols {
		out[j] = c.Name
	}
	return out
}

// Coverage is a footer row's cells: per column the share its rows cover,
// once when every row covers the same, else "varies: see cells" and
// perCell set, for each cell notes its own.
func (t Table) Coverage() (cells []string, perCell []bool) {
	cells, perCell = make([]string, len(t.Cols)), make([]bool, len(t.Cols))
	for j, col := range t.Cols {
		shown := map[string]bool{}
		pairs := math.NaN()
		for _, r := range t.Rows {
			if c, ok := r.Metrics[col.Coverage]; ok && col.Coverage != "" {
				shown[CoverageText(c, Metric(r.Record, col.Pairs), true)] = true
				if p := Metric(r.Record, col.Pairs); finite(p) {
					pairs = p
				}
			}
		}
		switch len(shown) {
		case 0:
			cells[j] = "—"
		case 1:
			cells[j] = sortedKeys(shown)[0]
		default:
			perCell[j] = true
			cells[j] = "varies: see cells"
			if finite(pairs) {
				cells[j] += " (of " + strconv.FormatFloat(pairs, 'f', -1, 64) + ")"
			}
		}
	}
	return cells, perCell
}

// ScoreRows lays the table out as ScoreTable rows: the rows' labels and
// cells, a cell's coverage noted first where the column's coverage varies,
// then whatever decorate adds (it may also unrank the cell).
func (t Table) ScoreRows(decorate func(i, j int, c *Cell)) []page.ScoreRow {
	_, perCell := t.Coverage()
	out := make([]page.ScoreRow, len(t.Rows))
	for i, r := range t.Rows {
		sr := page.ScoreRow{Name: r.Label, Scores: make([]float64, len(t.Cols)), Notes: make([]string, len(t.Cols)), Unranked: make([]bool, len(t.Cols)),
			Quantities: make([][]page.Quantity, len(t.Cols))}
		for j, col := range t.Cols {
			c := r.Cell(col.Metric)
			if c.HasSD {
				c.Quantity("sd", c.SD)
			}
			if c.N > 1 {
				c.Quantity("n", float64(c.N))
			}
			if v, ok := r.Metrics[col.Coverage]; ok {
				c.Quantity("coverage", v)
				if perCell[j] {
					c.Note(percent(v, 1))
				}
			}
			if decorate != nil {
				decorate(i, j, &c)
			}
			sr.Scores[j], sr.Notes[j], sr.Unranked[j], sr.Quantities[j] = c.Value, strings.Join(c.Notes, " "), c.Unranked, c.Quantities
		}
		out[i] = sr
	}
	return out
}

// Line is the trials a chart draws as one series, each at its x.
type Line struct {
	Name   string
	Trials []Trial
	Xs     []float64
	Color  string // "" = the chart's next palette colour
}

// Lines groups the trials into chart Lines by name (groupBy), each trial
// at x.
func (pr Projection) Lines(name func(i int, t Trial) string, x func(i int, t Trial) float64) []Line {
	groups := pr.GroupBy(name)
	out := make([]Line, len(groups))
	for l, g := range groups {
		out[l] = Line{Name: g.Key, Trials: g.Trials, Xs: make([]float64, len(g.Trials))}
		for k, i := range g.At {
			out[l].Xs[k] = x(i, g.Trials[k])
		}
	}
	return out
}

// DistinctX counts the x values of the line.
func (l Line) DistinctX() int {
	seen := map[float64]bool{}
	for _, x := range l.Xs {
		seen[x] = true
	}
	return len(seen)
}

// Points folds the line's values at each x into one point (meanPoints: the
// mean, ± the sample SD where there are two or more), sorted by x; value
// gives a trial's value at its x, or false when it has none. A value at an
// unknown (NaN) x is a point of its own, after the others in the trials'
// order: no chart can draw it, and the chart counts what it leaves out.
// many reports whether a point folds more than one value.
func (l Line) Points(value func(t Trial, x float64) (float64, bool)) (pts []page.XY, many bool) {
	vals := map[float64][]float64{}
	var unknown []page.XY
	for k, t := range l.Trials {
		v, ok := value(t, l.Xs[k])
		switch {
		case !ok:
		case math.IsNaN(l.Xs[k]):
			unknown = append(unknown, page.XY{X: l.Xs[k], Y: v})
		default:
			vals[l.Xs[k]] = append(vals[l.Xs[k]], v)
		}
	}
	pts, many = MeanPoints(vals)
	return append(pts, unknown...), many
}

// MetricAt is a points value: the trial's metric key, when it has it.
func MetricAt(key string) func(Trial, float64) (float64, bool) {
	return func(t Trial, _ float64) (float64, bool) {
		v, ok := t.Metrics[key]
		return v, ok
	}
}

// MeanPoints turns the values observed at each x into points at their mean,
// with the sample standard deviation as the error bar where there are two or
// more, sorted by x. It reports whether any x had more than one value.
func MeanPoints(vals map[float64][]float64) ([]page.XY, bool) {
	pts := make([]page.XY, 0, len(vals))
	many := false
	for x, vs := range vals {
		var sum float64
		for _, v := range vs {
			sum += v
		}
		p := page.XY{X: x, Y: sum / float64(len(vs))}
		if len(vs) > 1 {
			many = true
			var ss float64
			for _, v := range vs {
				ss += (v - p.Y) * (v - p.Y)
			}
			p.Err = math.Sqrt(ss / float64(len(vs)-1))
		}
		pts = append(pts, p)
	}
	sort.Slice(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
	return pts, many
}

// Metric is the record's value of the metric key, NaN when it has none.
func Metric(rec records.Record, k string) float64 {
	if v, ok := rec.Metrics[k]; ok {
		return v
	}
	return math.NaN()
}

// CoverageText prints a coverage share ("97.5%") and, when known, the pairs
// ("97.5% of 203").
func CoverageText(cov, pairs float64, withPairs bool) string {
	s := percent(cov, 1)
	if withPairs && finite(pairs) && pairs > 0 {
		s += " of " + strconv.FormatFloat(pairs, 'f', -1, 64)
	}
	return s
}

// Number returns a setting as a float64 when it is a Number.
func Number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case float32:
		return float64(t), true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case uint64:
		return float64(t), true
	}
	return 0, false
}

// Estimate is the row's score under key: its value (for folded seed
// replicates, their mean) and its bootstrap replicates: a trial's own, or
// for seed replicates SeedEstimate of theirs, so that the interval and
// every verdict hold over the pairs and over the seeds (one seed's lucky
// draw cannot decide a win); not tested when any of them lacks
// replicates.
func (r Row) Estimate(key string) Estimate {
	members := r.Members
	if len(members) == 0 {
		return Estimate{Value: Metric(r.Record, key), Reps: replicatesOf(r.Record, key)}
	}
	var values []float64
	var seeds []uint64
	var lists [][]float64
	missing := false
	for _, m := range members {
		v, ok := m.Metrics[key]
		if !ok || math.IsNaN(v) {
			continue
		}
		values = append(values, v)
		seeds = append(seeds, m.Seed)
		reps := replicatesOf(m, key)
		if reps == nil {
			missing = true
		}
		lists = append(lists, reps)
	}
	e := SeedEstimate(values, lists).withDraws(seeds, values)
	e.Value = Metric(r.Record, key)
	if missing {
		e.Reps = nil
	}
	return e
}

// replicatesOf are a record's bootstrap replicates of key, nil when it has
// none that decode.
func replicatesOf(rec records.Record, key string) []float64 {
	v, ok := rec.Metrics[key]
	if !ok || math.IsNaN(v) {
		return nil
	}
	reps, ok := rec.Bootstrap.Replicates(key, v)
	if !ok {
		return nil
	}
	return reps
}
