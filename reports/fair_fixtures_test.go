package reports

import (
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"strings"

	"kcalab/records"
)

// resamples is the fixtures' bootstrap size (the harness's eval.Resamples).
const resamples = 200

// harnessLike gives fixture word records what the harness records:
// every ρ and r at both similarities (a baseline's own, eval.similarity,
// is cosine, as its users compare; the other similarity's scores are 0.04
// lower) and, when tau > 0, bootstrap replicates of every ρ over resamples
// shared by all trials: replicate b of a trial's ρ on a set is ρ +
// shared(set, b) + own(trial, set, b), the shared part the same for every
// trial (the resampled pairs move every score alike), the own part of
// standard deviation tau, so the paired difference of two trials has a
// standard deviation of tau·√2 and a 95% half-width near 2.77·tau.
func harnessLike(recs []records.Record, tau float64) []records.Record {
	out := make([]records.Record, len(recs))
	for i, rec := range recs {
		rec.Settings = maps.Clone(rec.Settings)
		rec.Metrics = maps.Clone(rec.Metrics)
		declared := records.SimDot
		for _, m := range testMethods {
			if m.Name == rec.Settings["method"] && m.Similarity != "" {
				declared = m.Similarity
			}
		}
		rec.Settings["eval.similarity"] = string(declared)
		other := otherSim(declared)
		for _, k := range sortedKeys(rec.Metrics) {
			m := records.ParseMetric(k)
			if (m.Kind == records.ScoreMetric || m.Kind == records.PearsonMetric) && m.Sim == "" {
				rec.Metrics[m.At(other, declared).Key()] = rec.Metrics[k] - 0.04
			}
		}
		if tau > 0 {
			rec.Bootstrap = &records.Bootstrap{B: resamples, Scores: map[string]string{}}
			for _, k := range sortedKeys(rec.Metrics) {
				if m := records.ParseMetric(k); m.Kind == records.ScoreMetric {
					rec.Bootstrap.Scores[k] = records.EncodeReplicates(replicatesFor(rec.ID, m.Set, rec.Metrics[k], tau), rec.Metrics[k])
				}
			}
		}
		out[i] = rec
	}
	return out
}

// replicatesFor are a trial's bootstrap replicates of value on a set (see
// harnessLike), the same for the same trial, set and value.
func replicatesFor(trial, set string, value, tau float64) []float64 {
	shared, own := rand.New(rand.NewPCG(seedOf(set), 1)), rand.New(rand.NewPCG(seedOf(trial+"\x00"+set), 2))
	out := make([]float64, resamples)
	for b := range out {
		out[b] = value + 0.03*shared.NormFloat64() + tau*own.NormFloat64()
	}
	return out
}

func seedOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// withRun gives records the run that measured them (records.RunInfo.ID).
func withRun(recs []records.Record, id string) []records.Record {
	for i := range recs {
		recs[i].Run = &records.RunInfo{ID: id}
	}
	return recs
}

// markedTuned lists the cells of a rendered page that carry † and a mark
// (best, second or untested): there must be none.
func markedTuned(page string) []string {
	var out []string
	for _, cls := range []string{"best", "second", "untested"} {
		open := `<td class="num ` + cls + `">`
		for rest := page; ; {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			rest = rest[i+len(open):]
			cell := rest[:strings.Index(rest, "</td>")]
			if strings.Contains(cell, "†") {
				out = append(out, cls+": "+cell)
			}
		}
	}
	return out
}
