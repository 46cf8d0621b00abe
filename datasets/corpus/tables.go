package corpus

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"kcalab/datasets/sparse"
)

// TableOptions configure a Tables.
type TableOptions struct {
	// CacheDir, when set, keeps each offset table on disk under a content
	// address (token stream key and offset), so a window sweep counts each
	// offset once; it is created when missing.
	CacheDir string
	// Log receives progress and warnings; nil means no progress, warnings
	// (a damaged cache file) to stderr.
	Log io.Writer
	// Workers counts offsets in parallel; 0 means GOMAXPROCS. Results do
	// not depend on it.
	Workers int
	// MemoryBytes, when > 0, bounds the memory of counting: when counting
	// in memory would need more (the token index and a slot per token per
	// worker, see inMemoryBytes), the missing offsets are counted by a
	// Counter in one pass over the ids within this budget, spilling sorted
	// shards under CacheDir (or the system temporary directory). The tables
	// are the same bits either way; the returned tables themselves are not
	// part of the budget.
	MemoryBytes int64
	// Subsample, when > 0, is word2vec's subsampling threshold t, applied
	// to the ids before anything is counted (see Subsample); the tables are
	// then those of the kept tokens, cached under a key of their own (the
	// stream's, t and SubsampleSeed). 0 counts every token.
	Subsample float64
	// SubsampleSeed seeds Subsample's draws.
	SubsampleSeed uint64
}

// Tables counts the contingency tables of a token id stream. Its methods
// may be called concurrently.
type Tables struct {
	vocab *Vocab
	ids   []int32
	opts  TableOptions
	key   string

	mu          sync.Mutex
	idx         *offsetIndex
	storeFailed bool // a cache write failed and was reported

	// stored, when set, is a table directory read instead of counting
	// (OpenTableDir); ids is then nil.
	stored *storedTables
}

// NewTables prepares table counting for the ids of a vocabulary (as Build
// returns them). ids must stay unchanged while the Tables is used.
func NewTables(v *Vocab, ids []int32, o TableOptions) (*Tables, error) {
	if v == nil || v.Size() == 0 {
		return nil, errors.New("tables: empty vocabulary")
	}
	if len(ids) == 0 {
		return nil, errors.New("tables: no tokens")
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("tables: Workers = %d: want ≥ 0 (0 = GOMAXPROCS)", o.Workers)
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MemoryBytes < 0 {
		return nil, fmt.Errorf("tables: MemoryBytes = %d: want ≥ 0 (0 = no bound)", o.MemoryBytes)
	}
	key := v.Key
	if o.Subsample != 0 {
		var err error
		if ids, err = Subsample(ids, v.Size(), o.Subsample, o.SubsampleSeed); err != nil {
			return nil, fmt.Errorf("tables: %w", err)
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("tables: subsampling at t = %g kept no token", o.Subsample)
		}
		if key != "" {
			key = cacheKey("subsample v1", key, strconv.FormatFloat(o.Subsample, 'g', -1, 64), strconv.FormatUint(o.SubsampleSeed, 10))
		}
	}
	if key == "" && o.CacheDir != "" {
		// A hand-made vocabulary: address the stream by its content.
		h := sha256.New()
		for _, w := range v.Words {
			fmt.Fprintf(h, "%d:%s;", len(w), w)
		}
		buf := make([]byte, 0, 1<<16)
		for _, id := range ids {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(id))
			if len(buf) == cap(buf) {
				h.Write(buf)
				buf = buf[:0]
			}
		}
		h.Write(buf)
		key = "ids-sha256=" + hex.EncodeToString(h.Sum(nil))
	}
	return &Tables{vocab: v, ids: ids, opts: o, key: key}, nil
}

// subsampleStream names the PCG stream of Subsample's draws ("subs").
const subsampleStream = 0x73756273

// Subsample returns the tokens of ids that word2vec's subsampling keeps
// (its -sample t): a token of a word whose frequency in ids is f (its
// count over len(ids); every id counts, <unk> included, as one word) is
// kept with probability min(1, (√(f/t) + 1)·t/f), by a uniform draw from a
// PCG seeded by seed, made in token order for each token whose probability
// is below 1. Dropped tokens are removed, so a window closes over them, as
// in word2vec and in hyperwords with --sub and --oov. The result is a new
// slice; ids is not changed. vocabSize bounds the ids; t must be in (0, 1].
func Subsample(ids []int32, vocabSize int, t float64, seed uint64) ([]int32, error) {
	if !(t > 0 && t <= 1) {
		return nil, fmt.Errorf("subsampling threshold t = %v: want 0 < t ≤ 1 (word2vec's -sample, e.g. 1e-5)", t)
	}
	counts := make([]int64, vocabSize)
	for p, id := range ids {
		if id < 0 || int(id) >= vocabSize {
			return nil, fmt.Errorf("subsampling: token %d has id %d outside the vocabulary of %d words", p, id, vocabSize)
		}
		counts[id]++
	}
	st := t * float64(len(ids))
	keep := make([]float64, vocabSize)
	for w, n := range counts {
		keep[w] = 1
		if n > 0 {
			keep[w] = (math.Sqrt(float64(n)/st) + 1) * st / float64(n)
			if math.IsInf(float64(n)/st, 1) {
				// t so small (a subnormal) that f/t overflows: the same
				// probability written so that it cannot, √(t/f) + t/f,
				// which is about √(t/f), nearly 0, as for any tiny t.
				keep[w] = math.Sqrt(st/float64(n)) + st/float64(n)
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, subsampleStream))
	out := make([]int32, 0, len(ids))
	for _, id := range ids {
		if p := keep[id]; p < 1 && rng.Float64() >= p {
			continue
		}
		out = append(out, id)
	}
	return out, nil
}

// Vocab returns the vocabulary whose ids label the tables' rows and columns.
func (t *Tables) Vocab() *Vocab { return t.vocab }

// Tokens is the length of the token stream the tables count (after
// subsampling); 0 for a table directory.
func (t *Tables) Tokens() int { return len(t.ids) }

// Dir is the table directory the tables are read from (OpenTableDir), ""
// when they are counted from a token stream.
func (t *Tables) Dir() string {
	if t.stored == nil {
		return ""
	}
	return t.stored.dir
}

func (t *Tables) index() (*offsetIndex, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.idx == nil {
		idx, err := newOffsetIndex(t.ids, t.vocab.Size())
		if err != nil {
			return nil, err
		}
		t.idx = idx
	}
	return t.idx, nil
}

func (t *Tables) offsetKey(k int) string {
	return cacheKey("offset v1", t.key, strconv.Itoa(k))
}

// Offset returns N^k.
func (t *Tables) Offset(ctx context.Context, k int) (*sparse.CSR, error) {
	if k < 1 {
		return nil, fmt.Errorf("tables: offset %d: want ≥ 1", k)
	}
	ms, err := t.offsets(ctx, []int{k})
	if err != nil {
		return nil, err
	}
	return ms[0], nil
}

// Offsets returns N^1 … N^W (element k-1 is N^k), from the cache where
// present, counting the others in parallel.
func (t *Tables) Offsets(ctx context.Context, w int) ([]*sparse.CSR, error) {
	if w < 1 {
		return nil, fmt.Errorf("tables: window %d: want ≥ 1", w)
	}
	ks := make([]int, w)
	for i := range ks {
		ks[i] = i + 1
	}
	return t.offsets(ctx, ks)
}

// inMemoryBytes is the scratch of counting w offsets in memory: the
// position index (a position per token and a start per word) and, per
// worker, an entry per token and a row state per word.
func (t *Tables) inMemoryBytes(w int) int64 {
	n, v := int64(len(t.ids)), int64(t.vocab.Size())
	workers := int64(min(t.opts.Workers, w))
	return 4*n + 4*(v+1) + workers*(8*n+8*v)
}

func (t *Tables) offsets(ctx context.Context, ks []int) ([]*sparse.CSR, error) {
	if t.stored != nil {
		return t.stored.offsets(ctx, ks)
	}
	if t.opts.MemoryBytes > 0 && t.inMemoryBytes(len(ks)) > t.opts.MemoryBytes {
		return t.offsetsStreamed(ctx, ks)
	}
	out := make([]*sparse.CSR, len(ks))
	n := int64(len(t.ids))
	label := fmt.Sprintf("offset tables N^%d…N^%d", ks[0], ks[len(ks)-1])
	if len(ks) == 1 {
		label = fmt.Sprintf("offset table N^%d", ks[0])
	}
	p := newProgress(t.opts.Log, label, "tokens", n*int64(len(ks)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next, done atomic.Int64
		errOnce    sync.Once
		firstErr   error
		wg         sync.WaitGroup
	)
	setErr := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	// one loads or counts ks[i]; the scratch memory is made on a worker's
	// first count.
	one := func(i int, s **offsetScratch) error {
		k := ks[i]
		if t.opts.CacheDir != "" {
			m, err := t.load(k)
			if err != nil {
				return err
			}
			if m == nil {
				// Not cached: build it under its lock, unless another run
				// built it meanwhile.
				defer lockEntry(ctx, t.opts.CacheDir, "offset", t.offsetKey(k), t.opts.Log)()
				if m, err = t.load(k); err != nil {
					return err
				}
			}
			if m != nil {
				out[i] = m
				return nil
			}
		}
		idx, err := t.index()
		if err != nil {
			return err
		}
		if *s == nil {
			*s = idx.newScratch()
		}
		m, err := idx.count(k, *s)
		if err != nil {
			return err
		}
		out[i] = m // one writer per table
		if t.opts.CacheDir != "" {
			t.storeOrWarn(k, m)
		}
		return nil
	}
	for range min(t.opts.Workers, len(ks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s *offsetScratch
			for {
				q := int(next.Add(1) - 1)
				if q >= len(ks) || ctx.Err() != nil {
					return
				}
				if err := one(q, &s); err != nil {
					setErr(err)
					return
				}
				p.update(done.Add(n))
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, fmt.Errorf("tables: %w", firstErr)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.finish(done.Load())
	return out, nil
}

// offsetsStreamed loads the cached offsets and counts the others together
// with a Counter, in one pass over the ids, within opts.MemoryBytes.
func (t *Tables) offsetsStreamed(ctx context.Context, ks []int) ([]*sparse.CSR, error) {
	out := make([]*sparse.CSR, len(ks))
	var missing []int // indices into ks
	for i, k := range ks {
		if t.opts.CacheDir != "" {
			m, err := t.load(k)
			if err != nil {
				return nil, fmt.Errorf("tables: %w", err)
			}
			if m != nil {
				out[i] = m
				continue
			}
		}
		missing = append(missing, i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	mk := make([]int, len(missing))
	for j, i := range missing {
		mk[j] = ks[i]
	}
	c, err := NewCounter(t.vocab.Size(), mk, CounterOptions{MemoryBytes: t.opts.MemoryBytes, TempDir: t.opts.CacheDir, Workers: t.opts.Workers})
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	defer func() {
		// A spill directory left behind wastes disk, not results: warn.
		if err := c.Close(); err != nil {
			warnf(t.opts.Log, "%v", err)
		}
	}()
	n := int64(len(t.ids))
	p := newProgress(t.opts.Log, fmt.Sprintf("offset tables (%d) within %.0f MiB", len(mk), float64(t.opts.MemoryBytes)/(1<<20)), "tokens", n)
	step := c.Stats().Plan.ChunkTokens
	for at := 0; at < len(t.ids); at += step {
		if err := c.Add(ctx, t.ids[at:min(at+step, len(t.ids))]); err != nil {
			return nil, fmt.Errorf("tables: %w", err)
		}
		p.update(int64(min(at+step, len(t.ids))))
	}
	j := 0
	err = c.Finish(ctx, func(k int, m *sparse.CSR) error {
		out[missing[j]] = m
		j++
		if t.opts.CacheDir != "" {
			t.storeOrWarn(k, m)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	p.finish(n)
	// A spill is expected work, not a problem: reported with progress only.
	if st := c.Stats(); st.Spills > 0 && t.opts.Log != nil {
		fmt.Fprintf(t.opts.Log, "corpus: counted %d offset tables out of core: %d chunks of %d tokens, %d spills, %.1f MiB of shards\n", len(mk), st.Chunks, st.Plan.ChunkTokens, st.Spills, float64(st.ShardBytes)/(1<<20))
	}
	return out, nil
}

// load returns a cached N^k, nil when absent or damaged (reported, removed).
func (t *Tables) load(k int) (*sparse.CSR, error) {
	key := t.offsetKey(k)
	var m *sparse.CSR
	found, err := readCache(t.opts.CacheDir, "offset", key, func(r *cacheReader) error {
		dims := r.i64s()
		indptr := r.i64s()
		indices := r.i32s()
		data := r.counts()
		if r.err != nil {
			return nil
		}
		if len(dims) != 2 || dims[0] != int64(t.vocab.Size()) || dims[1] != dims[0] {
			return fmt.Errorf("dimensions %v, want %d×%d", dims, t.vocab.Size(), t.vocab.Size())
		}
		var err error
		m, err = sparse.New(int(dims[0]), int(dims[1]), indptr, indices, data)
		return err
	})
	if errors.Is(err, errDamaged) {
		removeDamaged(t.opts.Log, err, t.opts.CacheDir, "offset", key)
		return nil, nil
	}
	if err != nil || !found {
		return nil, err
	}
	return m, nil
}

// storeOrWarn caches an offset table. A cache that cannot take it (a full
// disk, a read-only directory) costs the cache, not the run: the table is
// the same either way, so the failure is one warning per Tables.
func (t *Tables) storeOrWarn(k int, m *sparse.CSR) {
	if err := t.store(k, m); err != nil {
		t.mu.Lock()
		first := !t.storeFailed
		t.storeFailed = true
		t.mu.Unlock()
		if first {
			warnf(t.opts.Log, "%v; going on without caching offset tables", err)
		}
	}
}

func (t *Tables) store(k int, m *sparse.CSR) error {
	rows, cols := m.Dims()
	indptr, indices, data := m.Raw()
	return writeCache(t.opts.CacheDir, "offset", t.offsetKey(k), func(w *cacheWriter) {
		w.i64s([]int64{int64(rows), int64(cols)})
		w.i64s(indptr)
		w.i32s(indices)
		w.counts(data)
	})
}
