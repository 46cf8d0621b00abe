package records

import "maps"

// What a tuned trial keeps. A page ranks only the chosen design of a
// tuning group, and only on scores the choice did not see; the rest of the
// search is drawn from its scores alone (reports/tuning.go). So a results
// file keeps:
//   - of every tuned trial, no bootstrap replicates of the scores it was
//     chosen on or that contain them (the dev part and the whole of each
//     set of tune.on): they are in-sample, shown marked, never ranked;
//   - of a candidate its group did not choose, its scores, coverage,
//     settings, timings and its decomposition's accuracy (residual,
//     products, k, σ_1 and σ_k), not what only a compared row is shown
//     with (replicates, word map, neighbours, the spectrum, Pearson r);
//     it is marked SearchOnly.
//
// Every Spearman ρ stays (the rule chooses on them, the search's charts
// and rung tables draw them), so the choice and the search's views are
// the same from a slimmed file. A SearchOnly record that a later choice
// picks (a rule changed) lacks what a compared row needs: NeedsFull names
// it, and the harness computes it again.

// Slim returns recs with each tuned trial cut to what a page can use, by
// the choices cs (Choose over recs): only groups whose every candidate has
// a score, so whose choice is final, are cut. Records are copied where
// they change, never modified in place. The count is how many records
// changed.
func Slim(recs []Record, cs []Choice) ([]Record, int) {
	lost := map[string]bool{}
	inGroup := map[string]bool{}
	for _, c := range cs {
		if !final(c) {
			continue
		}
		for i, cand := range c.Candidates {
			for _, id := range cand.IDs {
				inGroup[id] = true
				if i != c.Chosen {
					lost[id] = true
				}
			}
		}
	}
	out := make([]Record, len(recs))
	n := 0
	for i, rec := range recs {
		out[i] = rec
		if !inGroup[rec.ID] {
			continue
		}
		changed := false
		if lost[rec.ID] {
			changed = rec.Bootstrap != nil || rec.WordsMap != nil || rec.Neighbours != nil || rec.NeighboursOther != nil || !rec.SearchOnly
			out[i].Bootstrap, out[i].WordsMap, out[i].Neighbours, out[i].NeighboursOther = nil, nil, nil, nil
			out[i].SearchOnly = true
			if m, cut := withoutPearson(rec.Metrics); cut {
				out[i].Metrics = m
				changed = true
			}
			if rec.SVD != nil && len(rec.SVD.S) > 1 {
				cut := *rec.SVD
				cut.Keep(1)
				out[i].SVD = &cut
				changed = true
			}
		} else if b := withoutInSample(rec); b != rec.Bootstrap {
			out[i].Bootstrap = b
			changed = true
		}
		if changed {
			n++
		}
	}
	return out, n
}

// NeedsFull names the trials of chosen designs whose records were cut to
// the search (SearchOnly): a page would compare them without replicates,
// so they are to be computed again.
func NeedsFull(recs []Record, cs []Choice) []string {
	searchOnly := map[string]bool{}
	for _, rec := range recs {
		if rec.SearchOnly {
			searchOnly[rec.ID] = true
		}
	}
	var ids []string
	for _, c := range cs {
		for _, id := range c.ChosenIDs() {
			if searchOnly[id] {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// final: every candidate of the group has a score (so a rerun of the same
// records chooses the same design) and one was chosen.
func final(c Choice) bool {
	if c.Chosen < 0 {
		return false
	}
	for _, cand := range c.Candidates {
		if cand.Why != "" {
			return false
		}
	}
	return true
}

// withoutInSample is rec's bootstrap without the replicates of the scores
// its tuning saw: the dev part and the whole of each set of tune.on. It is
// rec.Bootstrap itself when there are none to drop.
func withoutInSample(rec Record) *Bootstrap {
	b := rec.Bootstrap
	if b == nil {
		return nil
	}
	on := map[string]bool{}
	for _, s := range StringList(rec.Settings[KeyTuneOn]) {
		on[s] = true
	}
	var drop []string
	for key := range b.Scores {
		// Replicates are kept for ρ of word-similarity sets and for
		// analogy accuracies; only the former can be tuned on.
		m := ParseMetric(key)
		set, part := SplitSetPart(m.Set)
		if m.Kind == ScoreMetric && on[set] && !HeldOutPart(part) {
			drop = append(drop, key)
		}
	}
	if len(drop) == 0 {
		return b
	}
	scores := maps.Clone(b.Scores)
	for _, k := range drop {
		delete(scores, k)
	}
	return &Bootstrap{B: b.B, Scores: scores}
}

// withoutPearson is metrics without its Pearson r values, and whether
// there were any: only a compared row's tables show them
// (reports/analogy.go), and they take as much room in a search's file as
// the Spearman ρ the choice is made on.
func withoutPearson(metrics map[string]float64) (map[string]float64, bool) {
	var out map[string]float64
	for k := range metrics {
		if ParseMetric(k).Kind != PearsonMetric {
			continue
		}
		if out == nil {
			out = maps.Clone(metrics)
		}
		delete(out, k)
	}
	if out == nil {
		return metrics, false
	}
	return out, true
}
