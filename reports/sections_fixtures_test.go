package reports

import (
	"math"

	"kcalab/records"
)

// paperRecords: a text8-table run: the baselines at their settings, the
// tail cut at two dimensions, SCA in-sample (mapped by report.paper_rows)
// and a measured trial whose scores must never be ranked.
func paperRecords() []records.Record {
	b := baseSettings()
	trained := func(label, m string, window, epochs float64) map[string]any {
		return with(b, "label", label, "method", m, "svd.rank", 300.0, "train.window", window, "train.epochs", epochs)
	}
	type trial struct {
		id       string
		settings map[string]any
		zero     [6]float64
	}
	trials := []trial{
		{"t1", with(b, "label", "tail-cut", "svd.rank", 300.0), [6]float64{0.498, 0.46, 0.43, 0.52, 0.04, 0.12}},
		{"t2", with(b, "label", "tail-cut", "svd.rank", 1000.0), [6]float64{0.536, 0.518, 0.458, 0.547, 0.043, 0.131}},
		{"t3", with(b, "label", "SCA+MEN in-sample", "method", "sca", "data.table", "skip", "data.window", 10.0, "sca.set", "men", "sca.mode", "in-sample", "svd.rank", 1000.0),
			[6]float64{0.475, 0.499, 0.569, 0.563, 0.045, 0.115}},
		{"t4", trained("SGNS", "sgns", 10, 0), [6]float64{0.306, 0.414, 0.278, 0.466, -0.046, 0.073}},
		{"t5", trained("GloVe", "glove", 0, 0), [6]float64{0.202, 0.193, 0.198, 0.356, 0.030, 0.072}},
		{"t6", with(b, "label", "scaling", "method", "lca", "measure.process", true, "svd.rank", 100.0), [6]float64{0.9, 0.9, 0.9, 0.9, 0.9, 0.9}},
	}
	var recs []records.Record
	for i, tr := range trials {
		rec := records.Record{ID: tr.id, Spec: "text8-table", Seed: uint64(400 + i), Settings: tr.settings, Status: "ok",
			Metrics: wordMetrics(tr.zero, fullCoverage), Timings: map[string]float64{"total": 10 + float64(i)}}
		if tr.id == "t6" {
			rec.Metrics["wall_s"], rec.Metrics["max_rss_mb"] = 1.5, 120
		}
		recs = append(recs, rec)
	}
	return harnessLike(recs, 0.01)
}

func paperReport(s Script) Report {
	r := wordReport("The paper's table", paperRecords(), s)
	r.PaperRows = []string{"SCA+MEN=SCA+MEN in-sample"}
	return r
}

// pairsRecords: Go trainers and their reference implementations, with
// bootstrap replicates: the SGNS pair ties everywhere and was measured in
// one run; the fastText CLI is significantly above Go fastText on Rare,
// and the two were measured in different runs.
func pairsRecords() []records.Record { return pairsRecordsCovered(nil) }

// pairsRecordsCovered is pairsRecords with the coverage of the trials
// coverage names (by label; the others cover fullCoverage), the skip
// rule's ρ following it (wordMetrics).
func pairsRecordsCovered(coverage map[string][6]float64) []records.Record {
	b := with(baseSettings(), "svd.rank", 300.0, "train.window", 10.0, "train.epochs", 15.0)
	type trial struct {
		label, method string
		zero          [6]float64
		train         float64
		run           string
	}
	trials := []trial{
		{"SGNS (Go)", "sgns", [6]float64{0.413, 0.45, 0.40, 0.52, 0.05, 0.13}, 321.5, "run-1"},
		{"SGNS (gensim)", "external", [6]float64{0.413, 0.44, 0.41, 0.53, 0.04, 0.14}, 426.3, "run-1"},
		{"fastText (Go)", "fasttext", [6]float64{0.510, 0.47, 0.50, 0.55, 0.12, 0.15}, 1021, "run-1"},
		{"fastText (CLI)", "external", [6]float64{0.525, 0.48, 0.51, 0.56, 0.19, 0.16}, 2407, "run-2"},
		{"GloVe (Go)", "glove", [6]float64{0.204, 0.2, 0.2, 0.3, 0.03, 0.07}, 1006, "run-1"},
	}
	var recs []records.Record
	for i, tr := range trials {
		recs = append(recs, records.Record{ID: "p" + formatValue(float64(i+1)), Spec: "baselines-vs-reference", Seed: uint64(500 + i),
			Settings: with(b, "label", tr.label, "method", tr.method), Status: "ok", Metrics: wordMetrics(tr.zero, coveredBy(coverage, tr.label)),
			Timings: map[string]float64{"train": tr.train, "total": tr.train + 1}, Run: &records.RunInfo{ID: tr.run}})
	}
	return harnessLike(recs, 0.01)
}

// coveredBy is the coverage the map gives label, else fullCoverage.
func coveredBy(coverage map[string][6]float64, label string) [6]float64 {
	if c, ok := coverage[label]; ok {
		return c
	}
	return fullCoverage
}

// checkReport: a ci run against its reference: one score fell by more than
// the tolerance, one within it, and a CA singular value moved.
func checkReport(s Script) Report {
	recs := methodRecords()[4:6]
	recs[0].ID, recs[1].ID = "c1", "c2"
	recs[1].CA = &records.CAResult{SingularValues: []float64{0.5, 0.25}, Inertias: []float64{0.25, 0.0625}, TotalInertia: 0.4}
	ref := make([]records.Record, len(recs))
	for i, rec := range recs {
		ref[i] = rec
		ref[i].Metrics = map[string]float64{}
		for k, v := range rec.Metrics {
			ref[i].Metrics[k] = v
		}
	}
	ref[0].Metrics["spearman.zero.men"] += 0.02  // this run is 0.02 below: fails
	ref[0].Metrics["spearman.zero.sim"] += 0.005 // within the tolerance
	ref[1].CA = &records.CAResult{SingularValues: []float64{0.5, 0.26}, Inertias: []float64{0.25, 0.0625}, TotalInertia: 0.4}
	r := wordReport("ci", recs, s)
	r.Lead = "check"
	r.Check = &Check{Reference: ref, Tolerance: 0.01, Source: "results/ci/results.jsonl as it was before this run"}
	return r
}

// wordViewRecords: a CA trial with a word map and neighbours, and an SGNS
// trial with neighbours only.
func wordViewRecords() []records.Record {
	b := baseSettings()
	var wm records.WordMap
	for i := range 40 {
		a := float64(i) * 0.7
		wm.Words = append(wm.Words, "w"+formatValue(float64(i)))
		wm.X = append(wm.X, math.Round(math.Cos(a)*(1+float64(i)/20)*1e4)/1e4)
		wm.Y = append(wm.Y, math.Round(math.Sin(a)*(1+float64(i)/40)*1e4)/1e4)
	}
	wm.Words, wm.X, wm.Y = append(wm.Words, "agave"), append(wm.X, 30), append(wm.Y, 1) // far out: left off the map
	nb := []records.Neighbours{
		{Word: "king", Words: []string{"queen", "prince", "throne"}, Sims: []float64{0.812, 0.7734, 0.7}},
		{Word: "zyzzyva", Words: []string{}, Sims: []float64{}},
	}
	return []records.Record{
		{ID: "v1", Spec: "words", Settings: with(b, "label", "tail-cut"), Status: "ok", Metrics: wordMetrics([6]float64{0.5, 0.5, 0.5, 0.5, 0.1, 0.1}, fullCoverage),
			WordsMap: &wm, Neighbours: nb, NeighboursOther: []records.Neighbours{
				{Word: "king", Words: []string{"queen", "kings"}, Sims: []float64{0.9, 0.8}}, {Word: "zyzzyva", Words: []string{}, Sims: []float64{}}}},
		{ID: "v2", Spec: "words", Settings: with(b, "label", "SGNS", "method", "sgns"), Status: "ok", Metrics: wordMetrics([6]float64{0.4, 0.4, 0.4, 0.4, 0.1, 0.1}, fullCoverage),
			Neighbours: nb[:1]},
	}
}
