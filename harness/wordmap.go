package harness

import (
	"math"
	"sort"
	"strconv"

	"kcalab/records"

	"kcalab/methods/vectors"
)

// Words drawn on a record's word map: enough to see clusters, few enough
// that the record stays small (≈ 200 × 3 numbers) and labels stay legible.
const (
	WordMapWords  = 200
	NeighbourTopK = 10
)

// recordWordViews stores the word map (CA methods) and the probe words'
// nearest neighbours in the record, by the trial's similarity and by the
// other (a report shows each method's at its own, and the CA family's dot
// product beside the cosine), so that reports can show whether the
// vectors are sane without the vectors. vs.Words is in frequency order
// (the corpus vocabulary's ids, or word2vec files' order); <unk> is not a
// word and is left out of both.
func (tr *TrialRun) recordWordViews(vs *vectors.Set, sim vectors.Similarity) error {
	f, err := sim.Func()
	if err != nil {
		return err
	}
	if m, _ := lookupMethod(tr.Trial.Method); m != nil && m.Info().Axes && vs.Dim() >= 2 {
		tr.Record.WordsMap = wordMap(vs, WordMapWords)
	}
	probes := probesFor(vs, tr.Trial.Eval.Probes)
	tr.Record.Neighbours = nearest(vs, probes, NeighbourTopK, f)
	for _, other := range similarities {
		if other == sim {
			continue
		}
		g, err := other.Func()
		if err != nil {
			return err
		}
		tr.Record.NeighboursOther = nearest(vs, probes, NeighbourTopK, g)
	}
	return nil
}

// probesFor returns the probes, or, when none is in the vocabulary (a
// synthetic corpus, another language), the 5 most frequent words: a table
// of neighbours of words that are not there shows nothing.
func probesFor(vs *vectors.Set, probes []string) []string {
	for _, p := range probes {
		if _, ok := vs.Index(p); ok {
			return probes
		}
	}
	var out []string
	for _, w := range vs.Words {
		if len(out) == 5 {
			break
		}
		if w != unkWord {
			out = append(out, w)
		}
	}
	return out
}

const unkWord = "<unk>"

func wordMap(vs *vectors.Set, n int) *records.WordMap {
	m := &records.WordMap{}
	for i, w := range vs.Words {
		if len(m.Words) == n {
			break
		}
		if w == unkWord {
			continue
		}
		r := vs.Row(i)
		m.Words = append(m.Words, w)
		m.X = append(m.X, round4(r[0]))
		m.Y = append(m.Y, round4(r[1]))
	}
	return m
}

// nearest ranks every other word of vs against each probe; ties go to the
// more frequent word (lower row), so the lists are deterministic.
func nearest(vs *vectors.Set, probes []string, k int, f func(a, b []float64) float64) []records.Neighbours {
	var out []records.Neighbours
	for _, p := range probes {
		nb := records.Neighbours{Word: p, Words: []string{}, Sims: []float64{}}
		pi, ok := vs.Index(p)
		if !ok {
			out = append(out, nb)
			continue
		}
		pv := vs.Row(pi)
		type cand struct {
			i int
			s float64
		}
		best := make([]cand, 0, k+1)
		for i, w := range vs.Words {
			if i == pi || w == unkWord {
				continue
			}
			s := f(pv, vs.Row(i))
			if math.IsNaN(s) || (len(best) == k && s <= best[k-1].s) {
				continue
			}
			j := sort.Search(len(best), func(j int) bool { return best[j].s < s })
			best = append(best, cand{})
			copy(best[j+1:], best[j:])
			best[j] = cand{i, s}
			if len(best) > k {
				best = best[:k]
			}
		}
		for _, c := range best {
			nb.Words = append(nb.Words, vs.Words[c.i])
			nb.Sims = append(nb.Sims, round4(c.s))
		}
		out = append(out, nb)
	}
	return out
}

// round4 keeps 4 significant digits: plenty for a map or a similarity
// shown to 3 decimals, and a quarter of the bytes of a full float.
func round4(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	return r
}
