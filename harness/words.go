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

	"kcalab/datasets/corpus"
	"kcalab/datasets/sparse"
	"kcalab/datasets/synth"
	"kcalab/datasets/wordsim"
	"kcalab/methods/ca"
	"kcalab/methods/eval"
	"kcalab/methods/kca"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
)

// wordData is a corpus section turned into token ids over a vocabulary,
// shared by the trials that read the same section with the same settings.
type wordData struct {
	vocab  *corpus.Vocab
	ids    []int32
	tables *corpus.Tables
	// synthetic is, for a synthetic corpus, the word-pair set of its planted
	// clusters (eval.sets name "synthetic").
	synthetic *wordsim.Set
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

// words returns the trial's corpus section, vocabulary and table counter.
func (tc *trialContext) words(ctx context.Context) (*wordData, error) {
	t := tc.trial
	r := tc.runner
	vo := corpus.VocabOptions{
		MinCount: int64(t.Int("data.min_count")),
		MaxSize:  t.Int("data.max_vocab"),
		OOV:      corpus.OOVUnk,
	}
	if t.Str("data.oov") == "drop" {
		vo.OOV = corpus.OOVDrop
	}
	var key string
	if t.Str("data.source") == "synthetic" {
		key = fmt.Sprintf("synthetic seed=%d clusters=%d words=%d tokens=%d noise=%g",
			tc.spec.Seed, t.Int("synthetic.clusters"), t.Int("synthetic.words"), t.Int("synthetic.tokens"), t.Float("synthetic.noise"))
	} else {
		key = fmt.Sprintf("corpus %s fraction=%g lower=%t", t.Str("data.corpus"), t.Float("data.fraction"), t.Bool("data.lowercase"))
	}
	key += fmt.Sprintf(" min=%d max=%d oov=%s", vo.MinCount, vo.MaxSize, vo.OOV)
	return r.wordMemo.get(key, func() (*wordData, error) {
		var wd *wordData
		err := tc.stage("corpus", func() (err error) {
			wd, err = tc.loadWords(ctx, vo)
			return err
		})
		return wd, err
	})
}

func (tc *trialContext) loadWords(ctx context.Context, vo corpus.VocabOptions) (*wordData, error) {
	t := tc.trial
	r := tc.runner
	cacheDir := r.CacheDir
	name := t.Str("data.corpus")
	var synthetic *wordsim.Set
	opts := corpus.Options{Lowercase: t.Bool("data.lowercase"), Log: r.log(), CacheDir: cacheDir}
	if t.Str("data.source") == "synthetic" {
		toks, clusterOf, err := synth.Corpus(synth.Options{
			Clusters:        t.Int("synthetic.clusters"),
			WordsPerCluster: t.Int("synthetic.words"),
			Tokens:          t.Int("synthetic.tokens"),
			Noise:           t.Float("synthetic.noise"),
			Seed:            tc.spec.Seed,
		})
		if err != nil {
			return nil, fmt.Errorf("synthetic corpus: %w", err)
		}
		f, err := os.CreateTemp("", "kcalab-synthetic-*.txt")
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
	} else if f := t.Float("data.fraction"); f < 1 {
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
	tabs, err := corpus.NewTables(v, ids, corpus.TableOptions{CacheDir: cacheDir, Log: r.log()})
	if err != nil {
		return nil, err
	}
	return &wordData{vocab: v, ids: ids, tables: tabs, synthetic: synthetic}, nil
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

// table builds the trial's word table (data.table, data.window, …).
func (tc *trialContext) table(ctx context.Context, wd *wordData, kind string, window int) (*sparse.CSR, error) {
	t := tc.trial
	k, err := corpus.ParseKind(kind)
	if err != nil {
		return nil, fmt.Errorf("data.table: %w", err)
	}
	spec := corpus.Spec{Kind: k, Window: window, Symmetric: t.Bool("data.symmetric"), CutN1Twice: t.Bool("data.cut_n1_twice")}
	if k == corpus.Glove {
		spec.Symmetric = false // symmetric by construction
	}
	var n *sparse.CSR
	err = tc.stage("table", func() (err error) {
		n, err = wd.tables.Table(ctx, spec)
		return err
	})
	if err != nil {
		return nil, err
	}
	rows, _ := n.Dims()
	tc.rec.Metrics["vocab"] = float64(rows)
	tc.rec.Metrics["nnz"] = float64(n.NNZ())
	tc.rec.Metrics["tokens"] = float64(len(wd.ids))
	return n, nil
}

// runWords runs a word-vector method on a corpus and scores its vectors.
func (tc *trialContext) runWords(ctx context.Context) error {
	t := tc.trial
	wd, err := tc.words(ctx)
	if err != nil {
		return err
	}
	sets, err := tc.evalSets(wd)
	if err != nil {
		return err
	}
	method := t.Str("method")
	switch method {
	case "sgns", "cbow", "glove", "fasttext":
		vs, err := tc.trainBaseline(ctx, wd)
		if err != nil {
			return err
		}
		return tc.score(vs, sets)
	case "external":
		vs, err := tc.runExternal(ctx, wd)
		if err != nil {
			return err
		}
		return tc.score(vs, sets)
	case "sca":
		return tc.runSCA(ctx, wd, sets)
	}
	n, err := tc.table(ctx, wd, t.Str("data.table"), t.Int("data.window"))
	if err != nil {
		return err
	}
	vs, err := tc.caVectors(ctx, wd, n)
	if err != nil {
		return err
	}
	return tc.score(vs, sets)
}

// kernelFor resolves method and kca.kernel to a CA kernel and an optional
// transform of the table (the ⊖ of the paper's kernel table).
func kernelFor(t Trial) (ca.Kernel, func(*sparse.CSR) (*sparse.CSR, error), error) {
	switch m := t.Str("method"); m {
	case "ca", "lca", "sca":
		return ca.KernelCA, nil, nil
	case "gini":
		return ca.KernelGini, nil, nil
	case "kca":
		switch k := t.Str("kca.kernel"); k {
		case "tailcut":
			if tab := t.Str("data.table"); tab != "cut" {
				return "", nil, fmt.Errorf("kca.kernel tailcut is CA of the tail-cut table: set data.table: cut (it is %q)", tab)
			}
			return ca.KernelCA, nil, nil
		case "lca":
			return ca.KernelCA, nil, nil
		case "gini":
			return ca.KernelGini, nil, nil
		case "sppmi":
			shift := t.Float("kca.shift")
			return ca.KernelPlain, func(n *sparse.CSR) (*sparse.CSR, error) { return kca.SPPMI(n, shift) }, nil
		case "glove-log":
			return ca.KernelPlain, func(n *sparse.CSR) (*sparse.CSR, error) { return kca.GloVeLog(n, 0) }, nil
		default:
			return "", nil, fmt.Errorf("kca.kernel %q: not implemented", k)
		}
	default:
		return "", nil, fmt.Errorf("method %q has no CA kernel", m)
	}
}

// caVectors decomposes a word table with the trial's kernel and returns
// the word vectors (rows of F = D(r)^-1/2 U Σ^α).
func (tc *trialContext) caVectors(ctx context.Context, wd *wordData, n *sparse.CSR) (*vectors.Set, error) {
	t := tc.trial
	kernel, transform, err := kernelFor(t)
	if err != nil {
		return nil, err
	}
	if transform != nil {
		if err := tc.stage("kernel", func() (err error) {
			n, err = transform(n)
			return err
		}); err != nil {
			return nil, err
		}
	}
	rows, cols := n.Dims()
	limit := min(rows, cols) - 1
	if kernel == ca.KernelPlain {
		limit = min(rows, cols)
	}
	b, opt, err := svdOptions(t, rows, cols, limit, "dssvd")
	if err != nil {
		return nil, fmt.Errorf("vocabulary of %d words: %w", rows, err)
	}
	tc.rec.Backend = b.Name() // what "auto" resolved to
	var dec *ca.Decomposition
	if err := tc.stage("svd", func() (err error) {
		dec, err = ca.Decompose(ctx, n, kernel, b, opt)
		return err
	}); err != nil {
		if errors.Is(err, svd.ErrOverBudget) {
			return nil, fmt.Errorf("%w: %w", errOverBudget, err)
		}
		return nil, err
	}
	if dec.TotalInertia > 0 {
		tc.rec.Metrics["total_inertia"] = dec.TotalInertia
		sum := 0.0
		for _, s := range dec.S {
			sum += s * s
		}
		tc.rec.Metrics["inertia_share.kept"] = sum / dec.TotalInertia
	}
	if err := vectors.ScaleCoordinates(dec.U, dec.S, dec.RowMass, t.Float("vectors.alpha")); err != nil {
		return nil, err
	}
	if t.Bool("vectors.normalize") {
		vectors.NormalizeRows(dec.U)
	}
	return vectors.New(wd.vocab.Words, dec.U)
}

// evalSets loads the trial's word-similarity sets (once per runner).
func (tc *trialContext) evalSets(wd *wordData) ([]namedSet, error) {
	var out []namedSet
	for _, name := range tc.trial.List("eval.sets") {
		if name == "synthetic" {
			if wd.synthetic == nil {
				return nil, errors.New(`eval.sets: "synthetic" scores the planted clusters of data.source: synthetic only`)
			}
			out = append(out, namedSet{key: name, set: wd.synthetic})
			continue
		}
		s, err := tc.loadSet(name)
		if err != nil {
			return nil, fmt.Errorf("eval.sets: %w", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// namedSet is a word-similarity set with its metric-key name.
type namedSet struct {
	key string
	set *wordsim.Set
}

// loadSet loads a registered set by short name, or a pair file by path; the
// metric key of a file is its base name without extension.
func (tc *trialContext) loadSet(name string) (namedSet, error) {
	r := tc.runner
	s, err := r.setMemo.get(name, func() (*wordsim.Set, error) {
		if _, err := wordsim.Lookup(name); err == nil {
			dataDir, err := corpus.DataDir(r.DataDir)
			if err != nil {
				return nil, err
			}
			return wordsim.Load(dataDir, name)
		}
		if !isLocalPath(name) {
			return nil, fmt.Errorf("%q is neither a set name (%s) nor a file path", name, strings.Join(wordsim.Names(), ", "))
		}
		return wordsim.LoadFile(name)
	})
	if err != nil {
		return namedSet{}, err
	}
	key := name
	if isLocalPath(name) {
		key = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	return namedSet{key: key, set: s}, nil
}

// score evaluates vectors on the sets under both OOV rules and saves them
// when asked.
func (tc *trialContext) score(vs *vectors.Set, sets []namedSet) error {
	if err := tc.saveVectors(vs); err != nil {
		return err
	}
	sim, err := vectors.ParseSimilarity(tc.trial.Str("eval.similarity"))
	if err != nil {
		return err
	}
	return tc.stage("eval", func() error {
		for _, s := range sets {
			for _, rule := range eval.Rules {
				sc, err := eval.Evaluate(vs, s.set, sim, rule)
				if err != nil && !errors.Is(err, eval.ErrUndefined) {
					return err
				}
				tc.setScore(s.key, rule, sc.Rho, sc.Pairs, sc.Covered)
			}
		}
		return nil
	})
}

// setScore records one set's metrics. An undefined ρ (no covered pair
// under the skip rule) is left out rather than written as NaN.
func (tc *trialContext) setScore(key string, rule eval.Rule, rho float64, pairs, covered int) {
	m := tc.rec.Metrics
	if rho == rho { // not NaN
		m[fmt.Sprintf("spearman.%s.%s", rule, key)] = rho
	}
	m["pairs."+key] = float64(pairs)
	m["coverage."+key] = float64(covered) / float64(pairs)
}

// saveVectors writes the vectors in word2vec text format when asked.
func (tc *trialContext) saveVectors(vs *vectors.Set) error {
	dir := tc.runner.VectorsDir
	if dir == "" {
		if !tc.trial.Bool("vectors.save") {
			return nil
		}
		dir = filepath.Join(tc.spec.Output, "vectors")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("vectors: %w", err)
	}
	path := filepath.Join(dir, tc.trial.ID+".txt")
	return tc.stage("save", func() error {
		if err := vectors.WriteTextFile(path, vs, 32); err != nil {
			return fmt.Errorf("vectors: %w", err)
		}
		tc.rec.Files = append(tc.rec.Files, path)
		return nil
	})
}
