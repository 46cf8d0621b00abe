package harness

import (
	"context"
	"errors"
	"maps"
	"sync"

	"kcalab/methods/vectors"
	"kcalab/records"
	"kcalab/schema"
)

// Retrofitted trials that differ only in retrofit.* and their label (the
// candidates of a retrofitting search) train the same vectors: their seed
// derives from their settings without either (schema.SeedID), and so does
// the seed of the plain trial of those settings when it has no label (its
// twin). The first of a run's trials with one such key to run trains the
// vectors; the others take them instead of training again, record what
// that training recorded before scoring (the table's size, the
// decomposition's accuracy; not its cost, which stays with the trial that
// paid it, so a search's budget counts it once) with
// records.MetricVectorsShared set, and score them (retrofitted or not).
// Their scores are those they would have computed: the vectors are the
// same bits.

// errMethodScoredNothing: a method that makes word vectors gives them to
// TrialRun.Score; one that returned without doing so cannot be retrofitted.
var errMethodScoredNothing = errors.New("retrofit.lexicon: the method made no word vectors to retrofit")

// sharedVecs holds the vectors retrofitted trials share until the last of
// them has taken its copy.
type sharedVecs struct {
	mu      sync.Mutex
	total   map[string]int // trials of the round with each key
	pending map[string]int // those still to take their copy
	vecs    memo[trainedVectors]
}

// trainedVectors are a method's vectors and what its trial recorded
// making them.
type trainedVectors struct {
	vs      *vectors.Set
	metrics map[string]float64
	svd     *records.SVDAccuracy
}

// countShared notes the trials of a round that share decompositions or
// vectors, so each is released after the last of them.
func (r *Runner) countShared(trials []schema.Trial) {
	r.shared.count(trials)
	r.vecs.count(trials)
}

// addShared notes more trials of this run that share decompositions or
// vectors (a rung of a successive halving promoted during the run).
func (r *Runner) addShared(trials []schema.Trial) {
	r.shared.add(trials)
	r.vecs.add(trials)
}

// add notes more trials of the run with keys, as count does without
// forgetting those noted before.
func (s *sharedVecs) add(trials []schema.Trial) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.total == nil {
		s.total, s.pending = map[string]int{}, map[string]int{}
	}
	for _, t := range trials {
		if t.Data.Source.Input() == schema.CorpusInput && !t.Measure.Process {
			s.total[schema.SeedID(t.Values)]++
			s.pending[schema.SeedID(t.Values)]++
		}
	}
}

func (s *sharedVecs) count(trials []schema.Trial) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total, s.pending = map[string]int{}, map[string]int{}
	for _, t := range trials {
		// A measured trial runs alone in its own process: it shares nothing.
		if t.Data.Source.Input() == schema.CorpusInput && !t.Measure.Process {
			s.total[schema.SeedID(t.Values)]++
			s.pending[schema.SeedID(t.Values)]++
		}
	}
}

// shares says more than one trial of the round trains key's vectors.
func (s *sharedVecs) shares(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total[key] > 1
}

func (s *sharedVecs) taken(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[key]--; s.pending[key] <= 0 {
		s.vecs.mu.Lock()
		delete(s.vecs.m, key)
		s.vecs.mu.Unlock()
	}
}

// runShared runs a word trial's method, or takes the vectors another trial
// of the run trained with the same settings and seed, and scores them
// (Score retrofits them when the trial says so).
func (tr *TrialRun) runShared(ctx context.Context, m Method) error {
	key := schema.SeedID(tr.Trial.Values)
	shared := &tr.runner.vecs
	if !shared.shares(key) {
		return m.Run(ctx, tr)
	}
	defer shared.taken(key)
	computed := false
	tv, err := shared.vecs.get(key, func() (trainedVectors, error) {
		computed = true
		tr.captured = &trainedVectors{}
		defer func() { tr.captured = nil }()
		if err := m.Run(ctx, tr); err != nil {
			return trainedVectors{}, err
		}
		if tr.captured.vs == nil {
			return trainedVectors{}, errMethodScoredNothing
		}
		tv := *tr.captured
		tv.metrics, tv.svd = maps.Clone(tr.Record.Metrics), tr.Record.SVD
		return tv, nil
	})
	if err != nil {
		return err
	}
	if !computed {
		for k, v := range tv.metrics {
			// What the training cost (time, memory) stays with the trial
			// that paid it, so a search's budget counts it once.
			if records.ParseMetric(k).Kind != records.MeasurementMetric {
				tr.SetMetric(k, v)
			}
		}
		tr.Record.SVD = tv.svd
		tr.SetMetric(records.MetricVectorsShared, 1)
	}
	return tr.Score(tv.vs)
}
