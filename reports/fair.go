package reports

import (
	"fmt"
	"slices"
	"strings"

	"kcalab/records"
	"kcalab/reports/compare"
	"kcalab/schema"
)

// One ranking rule for every page: a score is ranked only against scores
// of the same kind (one statistic, one out-of-vocabulary rule: the zero
// and skip tables never mix), on the same set, of vectors of the same
// dimension d learned from the same data (groupByDim), each method at the
// similarity its own users compare vectors with (rankSim) unless the spec
// says otherwise (report.similarity), never on a set its design was tuned
// on (tunedOn), and a win only where the paired bootstrap says so
// (RankSignificant). Measured trials (measure.process) are ranked like any
// other: they differ only in how their time was taken.

// Report.Similarity values: each method at its own similarity, or every
// method at one.
const (
	SimilarityDeclared = "declared"
	SimilarityDot      = "dot"
	SimilarityCosine   = "cosine"
)

// keyTunedOn is the setting naming the sets a trial's design was tuned on.
const keyTunedOn = "tuned_on"

// ownSim is the similarity a trial scored under its plain keys (its
// eval.similarity).
func ownSim(rec records.Record) records.Similarity {
	return records.Similarity(schema.RecordSettings(rec.Settings).Eval.Similarity)
}

// otherSim is the similarity that is not s.
func otherSim(s records.Similarity) records.Similarity {
	if s == records.SimCosine {
		return records.SimDot
	}
	return records.SimCosine
}

// rankSim is the similarity a trial's scores are ranked at: the page's
// (report.similarity dot or cosine), else the one its method declares
// (schema.MethodInfo.Similarity: dot for the CA family, cosine for the
// neural baselines and external tools), else the trial's own.
func (p *builder) rankSim(rec records.Record) records.Similarity {
	switch p.similarity {
	case SimilarityDot:
		return records.SimDot
	case SimilarityCosine:
		return records.SimCosine
	}
	if s := p.method(rec).Similarity; s != "" {
		return s
	}
	return ownSim(rec)
}

// simName spells a similarity in a cell's note ("dot", "cos").
func simName(s records.Similarity) string {
	if s == records.SimCosine {
		return "cos"
	}
	return string(s)
}

// simText says at which similarity a table ranks: "each method at its own
// similarity" or "every method at the dot product".
func (p *builder) simText() string {
	switch p.similarity {
	case SimilarityDot:
		return "every method at the dot product"
	case SimilarityCosine:
		return "every method at cosine"
	}
	return "each method at its own similarity"
}

// dimOf is the dimension d of a trial's word vectors: its dim metric, or
// for a record older than it, from its settings: a trained baseline's
// train.dim, else its svd.rank, else 300 (the baselines' rule); any other
// method's svd.rank, where 0 is min(rows, cols) − 1 capped at 300 (the
// vocabulary stands for both).
func dimOf(rec records.Record) float64 {
	if v, ok := rec.Metrics[records.MetricDim]; ok && v > 0 {
		return v
	}
	rank, hasRank := compare.Number(rec.Settings["svd.rank"])
	if dim, trained := compare.Number(rec.Settings["train.dim"]); trained {
		switch {
		case dim > 0:
			return dim
		case rank > 0:
			return rank
		}
		return 300
	}
	if hasRank && rank > 0 {
		return rank
	}
	if v, ok := rec.Metrics[records.MetricVocab]; ok && v-1 < 300 {
		return v - 1
	}
	return 300
}

// dimTuned says a trial's dimension is one of its tuned axes (tune.axes
// names svd.rank or train.dim): its d is part of the design its tuning
// group chose on dev parts.
func dimTuned(rec records.Record) bool {
	axes, _ := rec.Settings[records.KeyTuneAxes].([]any)
	for _, a := range axes {
		if a == "svd.rank" || a == "train.dim" {
			return true
		}
	}
	return false
}

// isDataKey says a setting names the data a trial learned from (the
// source, corpus, its fraction and case, a synthetic corpus's shape):
// vectors learned from different data are not ranked together.
func isDataKey(k string) bool {
	switch k {
	case "data.source", "data.corpus", "data.tables", "data.csv", "data.fraction", "data.lowercase":
		return true
	}
	return strings.HasPrefix(k, "synthetic.")
}

// tunedOn says a trial's score on a set key (a set, or a part of one:
// rare@dev) is in-sample: its method tuned on that set
// (MethodInfo.InSampleSet: every part of it too), or its tuned_on names
// the set (every part in-sample) or a part of it (that part and the whole
// set in-sample; the other part is held out).
func (p *builder) tunedOn(rec records.Record, key string) bool {
	set, part := records.SplitSetPart(key)
	if s := p.inSampleSet(rec); s != "" && schema.SetKey(s) == set {
		return true
	}
	for _, t := range schema.RecordSettings(rec.Settings).TunedOn {
		ts, tp := records.SplitSetPart(t)
		if schema.SetKey(ts) == set && (tp == "" || part == "" || tp == part) {
			return true
		}
	}
	return false
}

// isCAFamily says a trial is one of the paper's CA rows: its method's
// vectors are CA axes compared by the dot product (tail-cut KCA, LCA,
// SCA); every other method is a baseline.
func (p *builder) isCAFamily(rec records.Record) bool {
	m := p.method(rec)
	return m.Axes && m.Similarity == records.SimDot
}

// rowGroup is the rows of a table one ranking compares: vectors of one
// dimension learned from one data.
type rowGroup struct {
	label string
	d     float64
	data  string // the data settings' label ("" when the rows share their data)
	rows  []row
	// tuned: the rows' d was chosen on dev parts (dimTuned), so each row's
	// label names its d.
	tuned bool
}

// groupByDim puts rows into ranking groups: one per dimension d and data
// (isDataKey settings), ordered by the data as they first appear, then by
// d; each labelled "d = 300", with the data settings that vary among the
// rows ("d = 10 · words=20"). Rows whose d was chosen on dev parts
// (dimTuned) form one group of their data, "d chosen on dev parts",
// before the others. Within a group rows keep their order, but a
// held-out row of a method that can be scored in-sample (SCA folds) moves
// just after the in-sample row of its method whose settings are nearest
// its own (SCA in-sample on the same set), so the two read side by side.
func (p *builder) groupByDim(rows []row) []rowGroup {
	recs := compare.RowRecords(rows)
	_, varying := settingsSplit(recs)
	var dataKeys []string
	for _, k := range varying {
		if isDataKey(k) {
			dataKeys = append(dataKeys, k)
		}
	}
	sortLabelKeys(dataKeys)
	var out []rowGroup
	index := map[string]int{}
	dataOrder := map[string]int{} // data label → its first appearance
	for _, r := range rows {
		data := p.labelOf(r.Record, dataKeys)
		if _, ok := dataOrder[data]; !ok {
			dataOrder[data] = len(dataOrder)
		}
		d := dimOf(r.Record)
		k := fmt.Sprintf("%s\x00%g", data, d)
		label := "d = " + formatValue(d)
		tuned := dimTuned(r.Record)
		if tuned {
			// Its d was chosen on dev parts with the rest of its design:
			// it competes with every other such row, whatever d each chose.
			if !strings.Contains(r.Label, "d = "+formatValue(d)) {
				r.Label += " (d = " + formatValue(d) + ")"
			}
			d, k, label = 0, data+"\x00tuned", "d chosen on dev parts"
		}
		i, ok := index[k]
		if !ok {
			if data != "" {
				label += " · " + data
			}
			i = len(out)
			index[k] = i
			out = append(out, rowGroup{label: label, d: d, data: data, tuned: tuned})
		}
		out[i].rows = append(out[i].rows, r)
	}
	slices.SortStableFunc(out, func(a, b rowGroup) int {
		if da, db := dataOrder[a.data], dataOrder[b.data]; da != db {
			return da - db
		}
		switch {
		case a.d < b.d:
			return -1
		case a.d > b.d:
			return 1
		}
		return 0
	})
	for i := range out {
		out[i].rows = p.besideInSample(out[i].rows)
	}
	return out
}

// besideInSample moves each held-out row of a method that has in-sample
// trials (MethodInfo.InSampleSet, "" for this row) just after the
// in-sample row of the same method whose settings differ from its own in
// the fewest keys (the first on ties); held-out rows without such a row
// stay where they are.
func (p *builder) besideInSample(rows []row) []row {
	isIn := func(r row) bool { return p.inSampleSet(r.Record) != "" }
	canBe := func(r row) bool { return p.method(r.Record).InSampleSet != nil }
	partner := make([]int, len(rows))
	moved := false
	for i, r := range rows {
		partner[i] = -1
		if !canBe(r) || isIn(r) {
			continue
		}
		best, bestDist := -1, 0
		for j, s := range rows {
			if j == i || !isIn(s) || formatValue(s.Settings[schema.KeyMethod]) != formatValue(r.Settings[schema.KeyMethod]) {
				continue
			}
			if d := settingsDistance(r.Settings, s.Settings); best < 0 || d < bestDist {
				best, bestDist = j, d
			}
		}
		partner[i] = best
		moved = moved || best >= 0
	}
	if !moved {
		return rows
	}
	out := make([]row, 0, len(rows))
	for j, r := range rows {
		if partner[j] >= 0 {
			continue
		}
		out = append(out, r)
		for i := range rows {
			if partner[i] == j {
				out = append(out, rows[i])
			}
		}
	}
	return out
}

// settingsDistance counts the keys (but labels) whose values differ
// between two settings, a key one lacks counting too.
func settingsDistance(a, b map[string]any) int {
	n := 0
	for k, v := range a {
		if w, ok := b[k]; !labelKeys[k] && (!ok || formatValue(v) != formatValue(w)) {
			n++
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok && !labelKeys[k] {
			n++
		}
	}
	return n
}
