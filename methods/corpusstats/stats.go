package corpusstats

import (
	"context"
	"fmt"
	"slices"

	"kcalab/datasets/corpus"
	"kcalab/methods/ca"
	"kcalab/methods/svd"
)

// StatsOptions select what Measure computes. Zero values take the
// documented defaults, which are the settings the calibration used.
type StatsOptions struct {
	// Prefixes are the token counts at which the growth series are
	// measured, each on the corpus's first that many tokens; counts past
	// the corpus's length are dropped. Empty means 1/16, 1/8, 1/4, 1/2 and
	// all of the corpus.
	Prefixes []int64
	// MinCount is the vocabulary threshold of the tables; 0 means
	// corpus.DefaultMinCount (5).
	MinCount int64
	// Window is the W of N^flat and N^cut; 0 means DefaultWindow (24).
	Window int
	// Rank is how many singular values of the tail-cut CA are computed on
	// the largest prefix; 0 means DefaultRank (50), < 0 means none.
	Rank int
	// SigmaVocab > 0 restricts the SVD table to the SigmaVocab most
	// frequent words (plus <unk>), to bound its cost on large corpora;
	// 0 means the whole min-count vocabulary.
	SigmaVocab int
	// CacheDir, when set, caches vocabularies and offset tables (see
	// corpus.Options.CacheDir).
	CacheDir string
	// Backend decomposes the tail-cut CA; nil means DSSVD with the paper's
	// settings (what the calibration used). Seed seeds it.
	Backend svd.Backend
	Seed    uint64
}

// Defaults of StatsOptions.
const (
	DefaultWindow = 24
	DefaultRank   = 50
)

// Point is one prefix of a corpus's growth series.
type Point struct {
	Tokens  int64 // tokens read
	Types   int   // distinct tokens (Heaps' law)
	Vocab   int   // words with count ≥ MinCount (<unk> not counted)
	NNZFlat int   // stored entries of N^flat (W = Window, <unk> row/column included)
	NNZCut  int   // stored entries of N^cut
}

// Stats are the statistics the generator is calibrated on: growth series
// over prefixes, and the singular values of the tail-cut CA of the
// largest prefix.
type Stats struct {
	Corpus   string
	MinCount int64
	Window   int
	Points   []Point
	// Sigma are σ_1 ≥ … ≥ σ_Rank of the CA of N^cut on the largest prefix
	// (StatsOptions.Backend, DSSVD by default), and TotalInertia its χ²/n,
	// so Σσ²/TotalInertia is the share the leading dimensions explain.
	Sigma        []float64
	TotalInertia float64
	SigmaVocab   int // rows of the decomposed table (<unk> included)
}

// Measure computes the Stats of the corpus called name (a name or path
// as corpus.Open takes it, read from dataDir). Each prefix is read and
// counted afresh, so the cost is that of counting the W offset tables of
// every prefix.
func Measure(ctx context.Context, dataDir, name string, o StatsOptions) (*Stats, error) {
	if o.MinCount == 0 {
		o.MinCount = corpus.DefaultMinCount
	}
	if o.Window == 0 {
		o.Window = DefaultWindow
	}
	if o.Rank == 0 {
		o.Rank = DefaultRank
	}
	if o.Window < 1 || o.MinCount < 1 || o.SigmaVocab < 0 {
		return nil, fmt.Errorf("zipf stats of %s: Window = %d, MinCount = %d, SigmaVocab = %d: want ≥ 1, ≥ 1, ≥ 0",
			name, o.Window, o.MinCount, o.SigmaVocab)
	}
	whole, err := corpus.Open(ctx, dataDir, name, corpus.Options{CacheDir: o.CacheDir, Offline: true})
	if err != nil {
		return nil, fmt.Errorf("zipf stats: %w", err)
	}
	var all int64
	if err := whole.Scan(ctx, func([]byte) error { all++; return nil }); err != nil {
		return nil, fmt.Errorf("zipf stats: %w", err)
	}
	prefixes := o.Prefixes
	if len(prefixes) == 0 {
		for _, d := range []int64{16, 8, 4, 2, 1} {
			prefixes = append(prefixes, all/d)
		}
	}
	prefixes = slices.Clone(prefixes)
	slices.Sort(prefixes)
	prefixes = slices.Compact(prefixes)
	prefixes = slices.DeleteFunc(prefixes, func(n int64) bool { return n < 1 || n > all })
	if len(prefixes) == 0 {
		return nil, fmt.Errorf("zipf stats of %s: no prefix within its %d tokens", name, all)
	}
	st := &Stats{Corpus: name, MinCount: o.MinCount, Window: o.Window}
	for i, n := range prefixes {
		last := i == len(prefixes)-1
		p, err := measurePrefix(ctx, dataDir, name, n, o, last, st)
		if err != nil {
			return nil, fmt.Errorf("zipf stats of %s, first %d tokens: %w", name, n, err)
		}
		st.Points = append(st.Points, p)
	}
	return st, nil
}

// measurePrefix measures the first n tokens; on the last prefix it also
// fills st's singular values.
func measurePrefix(ctx context.Context, dataDir, name string, n int64, o StatsOptions, last bool, st *Stats) (Point, error) {
	c, err := corpus.Open(ctx, dataDir, name, corpus.Options{MaxTokens: n, CacheDir: o.CacheDir, Offline: true})
	if err != nil {
		return Point{}, err
	}
	// All types: a vocabulary with no threshold; its ids are not needed.
	types, _, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: 1})
	if err != nil {
		return Point{}, err
	}
	p := Point{Tokens: types.Tokens, Types: types.Size()}
	if types.Unk >= 0 { // a literal <unk> in the text
		p.Types--
	}
	types = nil
	v, ids, err := corpus.Build(ctx, c, corpus.VocabOptions{MinCount: o.MinCount})
	if err != nil {
		return Point{}, err
	}
	p.Vocab = v.Size()
	if v.Unk >= 0 {
		p.Vocab--
	}
	tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{CacheDir: o.CacheDir})
	if err != nil {
		return Point{}, err
	}
	flat, err := tabs.Table(ctx, corpus.Spec{Kind: corpus.Flat, Window: o.Window})
	if err != nil {
		return Point{}, err
	}
	p.NNZFlat = flat.NNZ()
	flat = nil
	cut, err := tabs.Table(ctx, corpus.Spec{Kind: corpus.Cut, Window: o.Window})
	if err != nil {
		return Point{}, err
	}
	p.NNZCut = cut.NNZ()
	if !last || o.Rank < 0 {
		return p, nil
	}
	if o.SigmaVocab > 0 && o.SigmaVocab < p.Vocab {
		// A smaller vocabulary: recount on the same prefix with a size cap.
		v, ids, err = corpus.Build(ctx, c, corpus.VocabOptions{MinCount: o.MinCount, MaxSize: o.SigmaVocab})
		if err != nil {
			return Point{}, err
		}
		tabs, err = corpus.NewTables(v, ids, corpus.TableOptions{CacheDir: o.CacheDir})
		if err != nil {
			return Point{}, err
		}
		if cut, err = tabs.Table(ctx, corpus.Spec{Kind: corpus.Cut, Window: o.Window}); err != nil {
			return Point{}, err
		}
	}
	backend, opt := o.Backend, svd.DefaultOptions(o.Rank)
	if backend == nil {
		backend = svd.DSSVD{}
	}
	if o.Seed != 0 {
		opt.Seed = o.Seed
	}
	dec, err := ca.Decompose(ctx, cut, ca.KernelCA, backend, opt)
	if err != nil {
		return Point{}, err
	}
	st.Sigma, st.TotalInertia, st.SigmaVocab = dec.S, dec.TotalInertia, v.Size()
	return p, nil
}
