package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"kcalab/internal/tmpfiles"
	"kcalab/records"
	"kcalab/schema"

	"kcalab/datasets/corpus"
	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/datasets/wordsim"
	"kcalab/datasets/zipf"
)

// WordData is a corpus section turned into token ids over a vocabulary,
// shared by the trials that read the same section with the same settings.
type WordData struct {
	Vocab  *corpus.Vocab
	IDs    []int32
	Tables *corpus.Tables
	// Synthetic is, for a synthetic corpus, the word-pair set of its planted
	// clusters (eval.sets name "synthetic").
	Synthetic *wordsim.Set
	// Path is the corpus file read ("" for a synthetic corpus, generated
	// from the settings).
	Path string
}

// memo computes each keyed value once per Runner, even when trials ask for
// it concurrently.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]*memoEntry[T]
}

type memoEntry[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (m *memo[T]) get(key string, fn func() (T, error)) (T, error) {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]*memoEntry[T]{}
	}
	e, ok := m.m[key]
	if !ok {
		e = &memoEntry[T]{}
		m.m[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v, e.err = fn() })
	return e.v, e.err
}

// Words returns the trial's corpus section, vocabulary and table counter,
// computed once per runner for all trials that share them.
func (tr *TrialRun) Words(ctx context.Context) (*WordData, error) {
	if tr.words != nil {
		return tr.words, nil
	}
	t := tr.Trial
	vo := corpus.VocabOptions{
		MinCount: int64(t.Data.MinCount),
		MaxSize:  t.Data.MaxVocab,
		OOV:      corpus.OOVUnk,
	}
	if t.Data.OOV == "drop" {
		vo.OOV = corpus.OOVDrop
	}
	var key string
	if t.Data.Source == "tables" {
		key = "tables " + t.Data.Tables
	} else if t.Data.Source == "synthetic" && t.Synthetic.Model == "zipf" {
		key = fmt.Sprintf("zipf seed=%d tokens=%d", tr.Spec.Seed, t.Synthetic.Tokens)
	} else if t.Data.Source == "synthetic" {
		key = fmt.Sprintf("synthetic seed=%d clusters=%d words=%d tokens=%d noise=%g",
			tr.Spec.Seed, t.Synthetic.Clusters, t.Synthetic.Words, t.Synthetic.Tokens, t.Synthetic.Noise)
	} else {
		key = fmt.Sprintf("corpus %s fraction=%g lower=%t", t.Data.Corpus, t.Data.Fraction, t.Data.Lowercase)
	}
	// The counting budget lives in the shared Tables, so trials that differ
	// in it do not share one.
	key += fmt.Sprintf(" min=%d max=%d oov=%s memory_mb=%d", vo.MinCount, vo.MaxSize, vo.OOV, t.Data.MemoryMB)
	wd, err := tr.runner.wordMemo.get(key, func() (*WordData, error) {
		var wd *WordData
		err := tr.Stage("corpus", func() (err error) {
			wd, err = tr.loadWords(ctx, vo)
			return err
		})
		return wd, err
	})
	if err != nil {
		return nil, err
	}
	tr.words = wd
	tr.noteInput(wd.Path)
	return wd, nil
}

func (tr *TrialRun) loadWords(ctx context.Context, vo corpus.VocabOptions) (*WordData, error) {
	t := tr.Trial
	r := tr.runner
	if t.Data.Source == "tables" {
		if t.Data.Tables == "" {
			return nil, errors.New(`data.source is "tables" but data.tables (the directory) is not set`)
		}
		tabs, err := corpus.OpenTableDir(t.Data.Tables)
		if err != nil {
			return nil, fmt.Errorf("data.tables: %w", err)
		}
		// No token ids: the corpus was counted elsewhere.
		return &WordData{Vocab: tabs.Vocab(), Tables: tabs}, nil
	}
	cacheDir := r.CacheDir
	name := t.Data.Corpus
	var synthetic *wordsim.Set
	opts := corpus.Options{Lowercase: t.Data.Lowercase, Log: r.log(), CacheDir: cacheDir}
	if t.Data.Source == "synthetic" && t.Synthetic.Model == "zipf" {
		// Streamed to a file, never held: the corpus may be any length.
		path, remove, err := writeZipf(ctx, tr.Spec.Seed, t.Synthetic.Tokens)
		if err != nil {
			return nil, err
		}
		defer remove()
		name = path
		opts.CacheDir, cacheDir = "", ""
	} else if t.Data.Source == "synthetic" {
		toks, clusterOf, err := synth.Corpus(synth.Options{
			Clusters:        t.Synthetic.Clusters,
			WordsPerCluster: t.Synthetic.Words,
			Tokens:          t.Synthetic.Tokens,
			Noise:           t.Synthetic.Noise,
			Seed:            tr.Spec.Seed,
		})
		if err != nil {
			return nil, fmt.Errorf("synthetic corpus: %w", err)
		}
		f, err := os.CreateTemp("", tmpfiles.Pattern("synthetic"))
		if err != nil {
			return nil, fmt.Errorf("synthetic corpus: %w", err)
		}
		defer os.Remove(f.Name())
		_, werr := f.WriteString(strings.Join(toks, " "))
		if err := errors.Join(werr, f.Close()); err != nil {
			return nil, fmt.Errorf("synthetic corpus: %w", err)
		}
		name, opts.CacheDir, cacheDir = f.Name(), "", ""
		synthetic = clusterPairs(clusterOf)
	} else if f := t.Data.Fraction; f < 1 {
		opts.Fraction = f
	}
	dataDir, err := corpus.DataDir(r.DataDir)
	if err != nil {
		return nil, err
	}
	c, err := corpus.Open(ctx, dataDir, name, opts)
	if err != nil {
		return nil, err
	}
	v, ids, err := corpus.Build(ctx, c, vo)
	if err != nil {
		return nil, err
	}
	tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{CacheDir: cacheDir, Log: r.log(), MemoryBytes: int64(t.Data.MemoryMB) << 20})
	if err != nil {
		return nil, err
	}
	wd := &WordData{Vocab: v, IDs: ids, Tables: tabs, Synthetic: synthetic}
	if t.Data.Source != "synthetic" {
		// A generated corpus is a function of the settings, and its
		// temporary file is gone before the record is made: it is no input.
		wd.Path = c.Path
	}
	return wd, nil
}

// clusterPairs is the word-similarity set of a synthetic corpus: each word
// paired with the next word of its cluster (score 1) and with the word at
// the same place in the next cluster (score 0), in a fixed order.
func clusterPairs(clusterOf map[string]int) *wordsim.Set {
	byCluster := map[int][]string{}
	maxC := 0
	for w, c := range clusterOf {
		byCluster[c] = append(byCluster[c], w)
		maxC = max(maxC, c)
	}
	for _, ws := range byCluster {
		sort.Strings(ws)
	}
	set := &wordsim.Set{Name: "synthetic"}
	for c := 0; c <= maxC; c++ {
		ws, next := byCluster[c], byCluster[(c+1)%(maxC+1)]
		for i, w := range ws {
			set.Pairs = append(set.Pairs, wordsim.Pair{W1: w, W2: ws[(i+1)%len(ws)], Score: 1})
			if len(next) > 0 && (c+1)%(maxC+1) != c {
				set.Pairs = append(set.Pairs, wordsim.Pair{W1: w, W2: next[i%len(next)], Score: 0})
			}
		}
	}
	return set
}

// WordTable builds the trial's CA word table: data.table over offsets
// 1..data.window, with data.symmetric and data.cut_n1_twice.
func (tr *TrialRun) WordTable(ctx context.Context, wd *WordData) (*sparse.CSR, error) {
	t := tr.Trial
	k, err := corpus.ParseKind(t.Data.Table)
	if err != nil {
		return nil, fmt.Errorf("data.table: %w", err)
	}
	spec := corpus.Spec{Kind: k, Window: t.Data.Window, Symmetric: t.Data.Symmetric, CutN1Twice: t.Data.CutN1Twice}
	if k == corpus.Glove {
		spec.Symmetric = false // symmetric by construction
	}
	return tr.CountTable(ctx, wd, spec)
}

// CountTable builds a word table of the corpus section (of its tokens kept
// by data.subsample, when set) and records its size.
func (tr *TrialRun) CountTable(ctx context.Context, wd *WordData, spec corpus.Spec) (*sparse.CSR, error) {
	var n *sparse.CSR
	err := tr.Stage("table", func() error {
		tabs, err := tr.countingTables(wd)
		if err != nil {
			return err
		}
		if tabs != wd.Tables {
			tr.SetMetric(records.MetricTokensKept, float64(tabs.Tokens()))
		}
		n, err = tabs.Table(ctx, spec)
		return err
	})
	if err != nil {
		return nil, err
	}
	rows, _ := n.Dims()
	tr.SetMetric(records.MetricVocab, float64(rows))
	tr.SetMetric(records.MetricNNZ, float64(n.NNZ()))
	tr.SetMetric(records.MetricTokens, float64(wd.Vocab.Tokens-wd.Vocab.Dropped))
	return n, nil
}

// countingTables are the tables a trial's word table is counted from: the
// corpus section's, or with data.subsample those of its tokens that
// word2vec's subsampling keeps. The draws derive from the spec's seed and
// the replicate number (SubsampleSeed), not the trial id: the trials of one
// spec (a window sweep, two methods side by side) count the same
// subsampled corpus, shared in memory and in the cache, so their
// differences are theirs and not the draw's; replicates draw anew.
func (tr *TrialRun) countingTables(wd *WordData) (*corpus.Tables, error) {
	t := tr.Trial
	if t.Data.Subsample == 0 {
		return wd.Tables, nil
	}
	if wd.IDs == nil {
		return nil, fmt.Errorf("data.subsample = %g drops tokens before counting, but data.source %s has only counted tables: subsample when counting them, or set data.subsample: 0", t.Data.Subsample, t.Data.Source)
	}
	seed := SubsampleSeed(tr.Spec.Seed, t.Replicate)
	key := fmt.Sprintf("%p t=%g seed=%d memory_mb=%d", wd, t.Data.Subsample, seed, t.Data.MemoryMB)
	return tr.runner.subsampleMemo.get(key, func() (*corpus.Tables, error) {
		cacheDir := tr.runner.CacheDir
		if t.Data.Source == "synthetic" {
			cacheDir = "" // generated from the settings, as loadWords does
		}
		tabs, err := corpus.NewTables(wd.Vocab, wd.IDs, corpus.TableOptions{CacheDir: cacheDir, Log: tr.runner.log(),
			MemoryBytes: int64(t.Data.MemoryMB) << 20, Subsample: t.Data.Subsample, SubsampleSeed: seed})
		if err != nil {
			return nil, fmt.Errorf("data.subsample: %w", err)
		}
		fmt.Fprintf(tr.Log(), "kcalab: data.subsample %g (replicate %d) kept %d of %d tokens\n", t.Data.Subsample, t.Replicate, tabs.Tokens(), len(wd.IDs))
		return tabs, nil
	})
}

// SubsampleSeed is the seed of data.subsample's draws for a spec seed and a
// replicate number (replicate 0: the trial itself).
func SubsampleSeed(specSeed uint64, replicate int) uint64 {
	return schema.TrialSeed(specSeed, fmt.Sprintf("data.subsample/replicate=%d", replicate))
}

// writeZipf writes the calibrated zipf corpus of a spec seed and length to
// a temporary file; remove deletes it.
func writeZipf(ctx context.Context, seed uint64, tokens int) (path string, remove func(), err error) {
	dir, err := os.MkdirTemp("", tmpfiles.Pattern("zipf"))
	if err != nil {
		return "", nil, fmt.Errorf("synthetic corpus: %w", err)
	}
	p := zipf.Calibrated()
	p.Seed = seed
	path = filepath.Join(dir, "zipf.txt")
	if err := zipf.WriteFile(ctx, path, p, int64(tokens)); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("synthetic corpus: %w", err)
	}
	return path, func() { os.RemoveAll(dir) }, nil
}

// ZipfCorpusFile writes the trial's synthetic zipf corpus (the same stream
// its words come from, seeded by the spec) to a temporary file, for a
// method that reads a corpus by prefixes; remove deletes it.
func (tr *TrialRun) ZipfCorpusFile(ctx context.Context) (path string, remove func(), err error) {
	return writeZipf(ctx, tr.Spec.Seed, tr.Trial.Synthetic.Tokens)
}
