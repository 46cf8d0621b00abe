package harness

import (
	"fmt"

	"kcalab/methods/retrofit"
	"kcalab/methods/vectors"
	"kcalab/records"
)

// scoreRetrofitted scores a retrofitted trial (retrofit.lexicon: dev): its
// method's vectors vs (with the evaluation words its OOV hook composes, as
// rows) are retrofitted to the dev pairs of each fold's complement, which
// score that fold's dev pairs, and to every dev pair, which score every
// other pair and are the trial's vectors (see HeldOut).
func (tr *TrialRun) scoreRetrofitted(vs *vectors.Set) error {
	vs, err := tr.withComposed(vs)
	if err != nil {
		return err
	}
	dev, err := tr.DevPairs(tr.Trial.Retrofit.Folds)
	if err != nil {
		return fmt.Errorf("retrofit.lexicon: %w", err)
	}
	h := tr.NewHeldOut(dev)
	for f := 0; f < dev.K; f++ {
		tr.Progress(fmt.Sprintf("retrofit fold %d/%d", f+1, dev.K))
		r, _, err := tr.retrofitTo(vs, dev.Train(f))
		if err != nil {
			return fmt.Errorf("retrofit fold %d: %w", f+1, err)
		}
		if err := h.Fold(f, r); err != nil {
			return err
		}
	}
	full, st, err := tr.retrofitTo(vs, dev.Train(-1))
	if err != nil {
		return fmt.Errorf("retrofit: %w", err)
	}
	tr.SetMetric(records.MetricDevPairs, float64(st.edges))
	tr.SetMetric(records.MetricRetrofitWords, float64(st.words))
	return h.Finish(full)
}

// retrofitStats say what a retrofitting used: the pairs that became edges
// and the words they moved.
type retrofitStats struct{ edges, words int }

// retrofitTo retrofits vs to the pairs (retrofit.*): a pair is an edge
// when both its words have vectors and its scaled score is at least
// retrofit.threshold (and above 0), weighted by that score or 1
// (retrofit.edges).
func (tr *TrialRun) retrofitTo(vs *vectors.Set, pairs []DevPair) (*vectors.Set, retrofitStats, error) {
	rs := tr.Trial.Retrofit
	var edges []retrofit.Edge
	moved := map[int]bool{}
	for _, p := range pairs {
		if p.S <= 0 || p.S < rs.Threshold {
			continue
		}
		i, okI := vs.Index(p.W1)
		j, okJ := vs.Index(p.W2)
		if !okI || !okJ || i == j {
			continue
		}
		w := p.S
		if rs.Edges == "one" {
			w = 1
		}
		edges = append(edges, retrofit.Edge{I: i, J: j, W: w})
		moved[i], moved[j] = true, true
	}
	var out *vectors.Set
	err := tr.Stage("retrofit", func() error {
		m, err := retrofit.Retrofit(vs.M, edges, retrofit.Options{Alpha: rs.Alpha, Beta: rs.Beta, Iterations: rs.Iterations, Normalize: rs.Normalize})
		if err != nil {
			return err
		}
		out = &vectors.Set{Words: vs.Words, M: m, OOV: vs.OOV}
		if rs.Normalize && vs.OOV != nil {
			// A word the hook composes is in no pair (those have rows):
			// it is only scaled, as every row was.
			out.OOV = func(w string) ([]float64, bool) {
				v, ok := vs.OOV(w)
				if !ok {
					return nil, false
				}
				u := make([]float64, len(v))
				copy(u, v)
				retrofit.Normalize(u)
				return u, true
			}
		}
		return nil
	})
	return out, retrofitStats{edges: len(edges), words: len(moved)}, err
}
