package reports

import (
	"maps"
	"math"

	"kcalab/records"
)

// The fixtures below are records as the harness writes them for word
// trials (resolved settings with dotted keys, float64 numbers as decoded from
// results.jsonl), with made-up but plausible numbers for a text8 prefix.

// fixtureSets are the six sets of the paper with their pair counts.
var fixtureSets = []struct {
	name  string
	pairs float64
}{{"sim", 203}, {"rel", 252}, {"men", 3000}, {"mturk", 287}, {"rare", 2034}, {"s999", 999}}

// baseSettings are the resolved defaults every word trial carries.
func baseSettings() map[string]any {
	return map[string]any{
		"label": "", "data.source": "corpus", "data.corpus": "text8_prefix", "data.fraction": 1.0,
		"data.min_count": 5.0, "data.window": 24.0, "data.table": "cut", "method": "kca", "kca.kernel": "tailcut",
		"sca.set": "men", "sca.mode": "folds", "svd.backend": "dssvd", "svd.rank": 500.0, "train.dim": 0.0,
		"eval.similarity": "dot", "measure.process": false, "measure.repeat": 1.0,
	}
}

func with(base map[string]any, kv ...any) map[string]any {
	m := maps.Clone(base)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// wordMetrics fills the score metrics of one trial: zero-rule ρ per set as
// given, skip-rule ρ a little higher where coverage is low, and coverage.
func wordMetrics(zero [6]float64, coverage [6]float64) map[string]float64 {
	m := map[string]float64{}
	for j, s := range fixtureSets {
		m[records.Score(records.RuleZero, s.name).Key()] = zero[j]
		m[records.Score(records.RuleSkip, s.name).Key()] = math.Round((zero[j]+0.4*(1-coverage[j])*(1-zero[j]))*1e4) / 1e4
		m[records.Coverage(s.name).Key()] = coverage[j]
		m[records.Pairs(s.name).Key()] = s.pairs
	}
	return m
}

// Coverage of the common vocabulary (count ≥ 5 on the prefix), and of a
// smaller one (GloVe's external run kept 30,000 words).
var (
	fullCoverage  = [6]float64{200.0 / 203, 249.0 / 252, 2990.0 / 3000, 278.0 / 287, 838.0 / 2034, 996.0 / 999}
	smallCoverage = [6]float64{200.0 / 203, 249.0 / 252, 2990.0 / 3000, 261.0 / 287, 602.0 / 2034, 996.0 / 999}
)

// methodRecords: the nine methods of the paper's table, six sets each,
// with bootstrap replicates (harnessLike).
func methodRecords() []records.Record {
	b := baseSettings()
	trained := func(m string) map[string]any {
		return with(b, "method", m, "train.dim", 300.0, "svd.backend", "auto", "svd.rank", 0.0, "data.table", "cut")
	}
	type trial struct {
		settings map[string]any
		zero     [6]float64
		cov      [6]float64
	}
	trials := []trial{
		{trained("cbow"), [6]float64{0.352, 0.401, 0.341, 0.533, 0.041, 0.081}, fullCoverage},
		{trained("sgns"), [6]float64{0.641, 0.622, 0.528, 0.587, 0.031, 0.198}, fullCoverage},
		{with(trained("glove"), "data.table", "glove"), [6]float64{0.402, 0.441, 0.399, 0.472, 0.087, 0.092}, smallCoverage},
		{trained("fasttext"), [6]float64{0.633, 0.590, 0.611, 0.601, 0.052, 0.207}, fullCoverage},
		{with(b, "name", "tail-cut", "svd.rank", 1000.0), [6]float64{0.712, 0.641, 0.655, 0.622, 0.104, 0.201}, fullCoverage},
		{with(b, "method", "lca", "data.table", "flat"), [6]float64{0.698, 0.652, 0.641, 0.637, 0.111, 0.205}, fullCoverage},
		{with(b, "method", "lca", "data.table", "skip"), [6]float64{0.7124, 0.628, 0.644, 0.611, 0.117, 0.199}, fullCoverage},
		{with(b, "method", "sca", "data.table", "skip", "sca.set", "men", "sca.mode", "in-sample"), [6]float64{0.705, 0.637, 0.731, 0.609, 0.118, 0.197}, fullCoverage},
		{with(b, "method", "sca", "data.table", "skip", "sca.set", "mturk", "sca.mode", "folds"), [6]float64{0.7121, 0.630, 0.643, 0.655, 0.118, 0.198}, fullCoverage},
	}
	recs := make([]records.Record, len(trials))
	for i, tr := range trials {
		m := wordMetrics(tr.zero, tr.cov)
		m["vocab"], m["nnz"], m["tokens"] = 40186, 18_512_904, 4_251_301
		recs[i] = records.Record{
			ID: "methods-" + string(rune('a'+i)), Spec: "methods", Seed: uint64(100 + i),
			Settings: tr.settings, Status: "ok", Metrics: m,
			Timings: map[string]float64{"table": 4.2, "svd": 11.5 + float64(i), "eval": 0.4, "total": 16.3 + float64(i)},
		}
	}
	return harnessLike(recs, 0.01)
}

// sweepRecords: the window sweep of the paper's discussion, three tables ×
// five windows, LCA on a text8 prefix.
func sweepRecords() []records.Record {
	b := with(baseSettings(), "method", "lca", "svd.rank", 300.0)
	windows := []float64{2, 5, 10, 24, 40}
	var recs []records.Record
	for ti, table := range []string{"cut", "flat", "skip"} {
		for wi, w := range windows {
			m := map[string]float64{}
			for j, s := range fixtureSets {
				base := 0.62 - 0.08*float64(j%3) - 0.3*float64(j/4)
				var rho float64
				switch table {
				case "cut": // stable once W is large enough
					rho = base + 0.06*(1-math.Exp(-w/6))
				case "flat": // best at a middle window, then falls
					rho = base + 0.05 - 0.0009*(w-8)*(w-8)/4
				default: // unstable
					rho = base + 0.03*math.Sin(w/3+float64(j))
				}
				m[records.Score(records.RuleZero, s.name).Key()] = math.Round(rho*1e4) / 1e4
				m[records.Score(records.RuleSkip, s.name).Key()] = math.Round((rho+0.01)*1e4) / 1e4
				m[records.Coverage(s.name).Key()] = fullCoverage[j]
				m[records.Pairs(s.name).Key()] = s.pairs
			}
			recs = append(recs, records.Record{
				ID: "table=" + table + ",window=" + formatValue(w), Spec: "window-sweep", Seed: uint64(200 + 5*ti + wi),
				Settings: with(b, "data.table", table, "data.window", w), Status: "ok", Metrics: m,
				Timings: map[string]float64{"table": 1 + w/10, "svd": 6.1, "eval": 0.3, "total": 7.4 + w/10},
			})
		}
	}
	return recs
}

// scalingRecords: Figures 2 and 3, three backends × five corpus fractions,
// each measured three times in a child process, all in one run; dense
// goes over its time budget at the fourth size and over its memory budget
// at the fifth.
func scalingRecords() []records.Record {
	b := with(baseSettings(), "method", "lca", "data.table", "flat", "svd.rank", 300.0,
		"measure.process", true, "measure.repeat", 3.0, "budget.seconds", 600.0, "budget.memory_mb", 8000.0)
	fractions := []float64{0.0625, 0.125, 0.25, 0.5, 1}
	vocab := []float64{9812, 15904, 25371, 40186, 62154}
	tokens := []float64{265706, 531413, 1062825, 2125650, 4251301}
	wall := map[string][]float64{
		"dense":      {14.2, 52.7, 190.4, math.NaN(), math.NaN()},
		"randomized": {3.1, 6.5, 14.2, 31.3, 70.4},
		"dssvd":      {0.35, 0.71, 1.52, 3.24, 7.1},
	}
	rss := map[string][]float64{
		"dense":      {781, 2030, 5150, math.NaN(), math.NaN()},
		"randomized": {262, 421, 690, 1121, 1830},
		"dssvd":      {95, 131, 190, 272, 390},
	}
	var recs []records.Record
	seed := uint64(300)
	for _, backend := range []string{"dense", "randomized", "dssvd"} {
		for k, f := range fractions {
			seed++
			rec := records.Record{
				ID: "backend=" + backend + ",fraction=" + formatValue(f), Spec: "svd-scaling", Seed: seed,
				Settings: with(b, "svd.backend", backend, "data.fraction", f),
			}
			w, r := wall[backend][k], rss[backend][k]
			switch {
			case backend == "dense" && k == 3:
				rec.Status, rec.Error = "over_budget", "over budget: wall time passed budget.seconds = 600 s"
				rec.Timings = map[string]float64{"total": 600}
			case backend == "dense" && k == 4:
				rec.Status, rec.Error = "over_budget", "over budget: resident memory passed budget.memory_mb = 8000 MB"
				rec.Timings = map[string]float64{"total": 212.5}
			default:
				rec.Status = "ok"
				rec.Metrics = map[string]float64{
					"wall_s": w, "wall_s.min": math.Round(w*0.97*1000) / 1000, "wall_s.max": math.Round(w*1.04*1000) / 1000,
					"cpu_s": math.Round(w*1.6*100) / 100, "max_rss_mb": r, "max_rss_mb.min": r - 2, "max_rss_mb.max": r + 3,
					"vocab": vocab[k], "nnz": math.Round(vocab[k] * 460), "tokens": tokens[k],
				}
				rec.Timings = map[string]float64{"table": math.Round(tokens[k]/1e6*100) / 100, "svd": math.Round(w*0.8*100) / 100, "total": w}
			}
			recs = append(recs, rec)
		}
	}
	return withRun(recs, "run-1")
}

func wordReport(title string, recs []records.Record, s Script) Report {
	return Report{Methods: testMethods, Title: title, Spec: recs[0].Spec, Records: recs, ECharts: s,
		Description: "Fixture records shaped like the harness's word trials."}
}
