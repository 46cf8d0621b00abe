package corpus

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"kcalab/internal/tmpfiles"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"kcalab/datasets/sparse"
)

// Out-of-core counting. A Counter reads a token id stream once, in chunks,
// and counts every requested offset table of a chunk with the in-memory
// counting sort (count.go). A chunk's counts are a sorted run of (row,
// column, count) records appended to a fixed arena; when the arena is full
// each offset's runs are merged and written as one sorted shard file, and
// Finish merges an offset's shards and remaining runs into its table. The
// scratch and the arena are allocated once from the memory budget, so the
// memory of counting does not grow with the corpus.

// Bytes of one arena record: a packed (row, column) key and a count.
const recordBytes = 12

// shardReadBuffer is the read buffer of each shard file being merged.
const shardReadBuffer = 64 << 10

// Chunk sizes in tokens: the lower bound keeps the per-chunk O(V) work
// from dominating under tiny (test) budgets; the upper one keeps int32
// positions and the arena share large.
const (
	minChunk = 1 << 10
	maxChunk = 1 << 24
)

// CounterOptions configure a Counter.
type CounterOptions struct {
	// MemoryBytes bounds the counter's scratch and partial tables (see
	// CounterPlan); the finished tables handed to Finish's callback, one
	// at a time, and 64 KiB of read buffer per shard while merging come on
	// top.
	MemoryBytes int64
	// TempDir holds the spill directory (a fresh directory made under it
	// and removed by Close); "" means os.TempDir().
	TempDir string
	// Workers count a chunk's offsets in parallel; 0 means GOMAXPROCS.
	// Results do not depend on it.
	Workers int
}

// CounterPlan is how a Counter splits its memory budget.
type CounterPlan struct {
	ChunkTokens   int   // tokens per chunk (plus the window carried over)
	ScratchBytes  int64 // chunk, its index and the workers' scratch
	ArenaRecords  int   // partial-table records held before a spill
	ArenaBytes    int64
	Workers       int
	MinimumBudget int64 // the smallest budget that plans
}

// PlanCounter splits budget bytes between the chunk scratch (an eighth,
// so chunks are large) and the arena of partial tables (the rest). It
// fails, naming the minimum, when the budget cannot hold the per-word
// state of vocabulary v and two chunks' worth of records.
func PlanCounter(budget int64, v, window, workers int) (CounterPlan, error) {
	if v < 1 || window < 1 || workers < 1 {
		return CounterPlan{}, fmt.Errorf("counter plan: vocabulary %d, window %d, workers %d: want ≥ 1", v, window, workers)
	}
	// Per word: start (v+1) and next of the chunk index, and a rowState
	// per worker. Per chunk token: the id, its position in the index and
	// an entry per worker.
	fixed := int64(4*(v+1)+4*v) + int64(workers)*8*int64(v)
	perTok := int64(4+4) + int64(workers)*8
	chunkCost := func(c int) int64 { return int64(c+window) * perTok }
	// A run holds at most one record per target token of a chunk; the
	// arena holds at least two runs so that a spill always makes room.
	arenaMin := func(c int) int64 { return 2 * int64(c) * recordBytes }
	c0 := max(minChunk, window)
	minimum := fixed + chunkCost(c0) + arenaMin(c0)
	// A sixteenth of the budget (at most 128 MiB) is left to what the plan
	// does not size: the Go runtime, the merge's shard read buffers and
	// the caller's piece of ids, so the process's peak RSS, not only the
	// counter's own arrays, stays near the budget.
	reserve := min(budget/16, 128<<20)
	minimum += minimum / 15
	p := CounterPlan{Workers: workers, MinimumBudget: minimum}
	if budget < minimum {
		return p, fmt.Errorf("counting memory budget %d B is too small for a vocabulary of %d words, window %d and %d workers: it needs at least %d B (%.1f MiB)",
			budget, v, window, workers, minimum, float64(minimum)/(1<<20))
	}
	avail := budget - reserve - fixed
	c := int(min(int64(maxChunk), avail/8/perTok))
	c = max(c, c0)
	for c > c0 && chunkCost(c)+arenaMin(c) > avail {
		c /= 2
	}
	c = max(c, c0)
	p.ChunkTokens = c
	p.ScratchBytes = fixed + chunkCost(c)
	p.ArenaRecords = int((avail - chunkCost(c)) / recordBytes)
	p.ArenaBytes = int64(p.ArenaRecords) * recordBytes
	return p, nil
}

// CounterStats report a Counter's work.
type CounterStats struct {
	Plan       CounterPlan
	Tokens     int64 // tokens read
	Chunks     int   // chunks counted
	Spills     int   // times the arena was written out
	ShardBytes int64 // bytes written to shard files
}

// run is a sorted range of the arena holding one offset's counts of one
// or more chunks (keys unique within it).
type run struct{ lo, hi int }

// Counter counts the offset tables N^k (k in a fixed set) of a token id
// stream fed by Add in pieces, within a memory budget. It is not safe for
// concurrent use.
type Counter struct {
	v     int
	ks    []int
	maxK  int
	plan  CounterPlan
	stats CounterStats

	buf   []int32 // carry ‖ new tokens, cap maxK + chunk
	carry int     // leading tokens of buf already counted as targets

	idx     offsetIndex
	next    []int32
	scratch []*offsetScratch

	mu     sync.Mutex // guards the arena while workers append runs
	keys   []uint64   // row<<32 | column
	counts []uint32
	used   int
	runs   [][]run // per offset (index into ks)

	dir      string
	shards   [][]string // per offset: shard files
	finished bool
	closed   bool
}

// NewCounter prepares counting the offsets ks (each ≥ 1) of a stream of
// ids in [0, v), allocating its scratch and arena up front.
func NewCounter(v int, ks []int, o CounterOptions) (*Counter, error) {
	if len(ks) == 0 {
		return nil, errors.New("counter: no offsets")
	}
	maxK := 0
	for _, k := range ks {
		if k < 1 {
			return nil, fmt.Errorf("counter: offset %d: want ≥ 1", k)
		}
		maxK = max(maxK, k)
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("counter: Workers = %d: want ≥ 0 (0 = GOMAXPROCS)", o.Workers)
	}
	workers := o.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(ks))
	plan, err := PlanCounter(o.MemoryBytes, v, maxK, workers)
	if err != nil {
		return nil, err
	}
	parent := o.TempDir
	if parent != "" {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return nil, fmt.Errorf("counter: spill directory: %w", err)
		}
	}
	dir, err := os.MkdirTemp(parent, tmpfiles.Pattern("spill"))
	if err != nil {
		return nil, fmt.Errorf("counter: spill directory: %w", err)
	}
	n := maxK + plan.ChunkTokens
	c := &Counter{
		v: v, ks: append([]int(nil), ks...), maxK: maxK, plan: plan,
		buf:    make([]int32, 0, n),
		idx:    offsetIndex{v: v, start: make([]int32, v+1), pos: make([]int32, n)},
		next:   make([]int32, v),
		keys:   make([]uint64, plan.ArenaRecords),
		counts: make([]uint32, plan.ArenaRecords),
		runs:   make([][]run, len(ks)),
		dir:    dir,
		shards: make([][]string, len(ks)),
	}
	c.stats.Plan = plan
	for range workers {
		c.scratch = append(c.scratch, &offsetScratch{ent: make([]entry, n), rs: make([]rowState, v)})
	}
	return c, nil
}

// Stats returns the work done so far.
func (c *Counter) Stats() CounterStats { return c.stats }

// Add counts the next ids of the stream (ids is not kept).
func (c *Counter) Add(ctx context.Context, ids []int32) error {
	if c.closed || c.finished {
		return errors.New("counter: Add after Finish or Close")
	}
	for len(ids) > 0 {
		room := cap(c.buf) - len(c.buf)
		take := min(room, len(ids))
		c.buf = append(c.buf, ids[:take]...)
		ids = ids[take:]
		c.stats.Tokens += int64(take)
		if len(c.buf) == cap(c.buf) {
			if err := c.countChunk(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// countChunk counts the targets buf[carry:] for every offset and keeps the
// last maxK tokens as the next chunk's left context.
func (c *Counter) countChunk(ctx context.Context) error {
	if len(c.buf) == c.carry {
		return nil
	}
	if err := c.idx.rebuild(c.buf, c.next); err != nil {
		return fmt.Errorf("counter: chunk at token %d: %w", c.stats.Tokens-int64(len(c.buf)-c.carry), err)
	}
	var (
		next     atomic.Int64
		errOnce  sync.Once
		firstErr error
		wg       sync.WaitGroup
	)
	for _, s := range c.scratch {
		wg.Go(func() {
			for {
				q := int(next.Add(1) - 1)
				if q >= len(c.ks) {
					return
				}
				if err := ctx.Err(); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				k := c.ks[q]
				// Targets before carry were counted with the previous
				// chunk; a target needs k tokens of left context.
				c.idx.fill(k, max(c.carry, k), s)
				if err := c.appendRun(q, s); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	c.stats.Chunks++
	keep := min(c.maxK, len(c.buf))
	copy(c.buf, c.buf[len(c.buf)-keep:])
	c.buf = c.buf[:keep]
	c.carry = keep
	return nil
}

// appendRun copies a worker's counts of offset ks[q] into the arena as a
// run, spilling the arena first when the run does not fit.
func (c *Counter) appendRun(q int, s *offsetScratch) error {
	start, rs := c.idx.start, s.rs
	n := 0
	for i := range c.v {
		n += int(rs[i].head - start[i])
	}
	if n == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.used+n > len(c.keys) {
		if err := c.spill(); err != nil {
			return err
		}
	}
	p := c.used
	for i := range c.v {
		row := uint64(i) << 32
		for _, e := range s.ent[start[i]:rs[i].head] {
			c.keys[p] = row | uint64(uint32(e.col))
			c.counts[p] = uint32(e.n)
			p++
		}
	}
	c.runs[q] = append(c.runs[q], run{c.used, p})
	c.used = p
	return nil
}

// spill writes each offset's runs, merged, as one sorted shard file and
// empties the arena.
func (c *Counter) spill() error {
	for q, rs := range c.runs {
		if len(rs) == 0 {
			continue
		}
		path := filepath.Join(c.dir, fmt.Sprintf("k%04d-%06d.bin", c.ks[q], len(c.shards[q])))
		n, err := c.writeShard(path, rs)
		if err != nil {
			return fmt.Errorf("counter: spill offset %d: %w", c.ks[q], err)
		}
		c.shards[q] = append(c.shards[q], path)
		c.stats.ShardBytes += n
		c.runs[q] = rs[:0]
	}
	c.used = 0
	c.stats.Spills++
	return nil
}

func (c *Counter) writeShard(path string, rs []run) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	var (
		written int64
		werr    error
		prev    uint64
	)
	buf := make([]byte, 0, 1<<20)
	flush := func() {
		if werr == nil && len(buf) > 0 {
			_, werr = f.Write(buf)
			written += int64(len(buf))
		}
		buf = buf[:0]
	}
	// Records are the key's increase over the previous key and the count,
	// as uvarints: within a row the increase is a column gap, so a record
	// takes 2–4 bytes instead of 12 and the shards a third of the disk.
	merr := c.merge(rs, nil, func(key uint64, n uint32) {
		buf = binary.AppendUvarint(buf, key-prev)
		buf = binary.AppendUvarint(buf, uint64(n))
		prev = key
		if len(buf) >= cap(buf)-2*binary.MaxVarintLen64 {
			flush()
		}
	})
	flush()
	if err := errors.Join(merr, werr, f.Close()); err != nil {
		return written, err
	}
	return written, nil
}

// source is one sorted input of a merge: an arena run or a shard file.
type source struct {
	key uint64
	n   uint32
	// arena run
	keys   []uint64
	counts []uint32
	// shard file
	f    *os.File
	br   *bufio.Reader
	path string
}

// advance loads the next record; false at the end.
func (s *source) advance() (bool, error) {
	if s.f == nil {
		if len(s.keys) == 0 {
			return false, nil
		}
		s.key, s.n = s.keys[0], s.counts[0]
		s.keys, s.counts = s.keys[1:], s.counts[1:]
		return true, nil
	}
	d, err := binary.ReadUvarint(s.br)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("shard %s: %w", s.path, err)
	}
	n, err := binary.ReadUvarint(s.br)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return false, fmt.Errorf("shard %s: %w", s.path, err)
	}
	if n == 0 || n > math.MaxUint32 {
		return false, fmt.Errorf("shard %s: bad count %d", s.path, n)
	}
	s.key += d
	s.n = uint32(n)
	return true, nil
}

// merge calls emit for every distinct key of the runs and shard files in
// ascending order, with its counts summed. A min-heap of sources ordered
// by their current key.
func (c *Counter) merge(rs []run, shards []string, emit func(key uint64, n uint32)) error {
	var heap []*source
	defer func() {
		for _, s := range heap {
			if s.f != nil {
				s.f.Close()
			}
		}
	}()
	push := func(s *source) error {
		ok, err := s.advance()
		if err != nil || !ok {
			if s.f != nil {
				s.f.Close()
			}
			return err
		}
		heap = append(heap, s)
		return nil
	}
	for _, r := range rs {
		if err := push(&source{keys: c.keys[r.lo:r.hi], counts: c.counts[r.lo:r.hi]}); err != nil {
			return err
		}
	}
	for _, p := range shards {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		if err := push(&source{f: f, br: bufio.NewReaderSize(f, shardReadBuffer), path: p}); err != nil {
			return err
		}
	}
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(heap) {
				return
			}
			m := l
			if r := l + 1; r < len(heap) && heap[r].key < heap[l].key {
				m = r
			}
			if heap[i].key <= heap[m].key {
				return
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
	}
	for i := len(heap)/2 - 1; i >= 0; i-- {
		down(i)
	}
	var (
		cur  uint64
		sum  uint64
		have bool
	)
	for len(heap) > 0 {
		s := heap[0]
		if have && s.key != cur {
			emit(cur, uint32(sum))
			have = false
		}
		if !have {
			cur, sum, have = s.key, 0, true
		}
		sum += uint64(s.n)
		if sum > math.MaxUint32 {
			return fmt.Errorf("count of row %d column %d exceeds 2³²−1", cur>>32, uint32(cur))
		}
		ok, err := s.advance()
		if err != nil {
			return err
		}
		if !ok {
			if s.f != nil {
				s.f.Close()
				s.f = nil
			}
			last := len(heap) - 1
			heap[0] = heap[last]
			heap = heap[:last]
		}
		if len(heap) > 0 {
			down(0)
		}
	}
	if have {
		emit(cur, uint32(sum))
	}
	return nil
}

// Finish counts the last partial chunk, then merges each offset's shards
// and arena runs into N^k, handing the tables to emit one at a time in the
// order of ks (emit may keep or drop each). The spill files of an offset
// are removed once it is merged.
func (c *Counter) Finish(ctx context.Context, emit func(k int, m *sparse.CSR) error) error {
	if c.closed || c.finished {
		return errors.New("counter: Finish called twice or after Close")
	}
	c.finished = true
	if err := c.countChunk(ctx); err != nil {
		return err
	}
	if c.stats.Spills > 0 {
		// Merging reads shards anyway: writing the arena out too lets it
		// go before the finished tables are built, so the tables reuse its
		// memory instead of adding to it. The explicit collection matters:
		// the collector's goal still counts the arena as live.
		if c.used > 0 {
			if err := c.spill(); err != nil {
				return err
			}
		}
		c.keys, c.counts, c.scratch = nil, nil, nil
		c.idx.pos, c.buf = nil, nil
		runtime.GC()
	}
	for q, k := range c.ks {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The previous table is the caller's now: collect what it dropped
		// (cheap, the arena holds no pointers) so that garbage does not
		// pile up to the collector's goal, twice the arena.
		if q > 0 {
			runtime.GC()
		}
		indptr := make([]int64, c.v+1)
		// Empty, not nil, as the in-memory count makes them.
		indices, data, row := []int32{}, []float64{}, 0
		err := c.merge(c.runs[q], c.shards[q], func(key uint64, n uint32) {
			i := int(key >> 32)
			for row < i {
				row++
				indptr[row] = int64(len(indices))
			}
			indices = append(indices, int32(uint32(key)))
			data = append(data, float64(n))
		})
		if err != nil {
			return fmt.Errorf("counter: merge offset %d: %w", k, err)
		}
		for row < c.v {
			row++
			indptr[row] = int64(len(indices))
		}
		for _, p := range c.shards[q] {
			os.Remove(p)
		}
		c.shards[q], c.runs[q] = nil, nil
		m, err := sparse.New(c.v, c.v, indptr, indices, data)
		if err != nil {
			return fmt.Errorf("counter: offset %d: %w", k, err)
		}
		if err := emit(k, m); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the spill directory and releases the arena.
func (c *Counter) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.keys, c.counts, c.scratch = nil, nil, nil
	if err := os.RemoveAll(c.dir); err != nil {
		return fmt.Errorf("counter: remove spill directory: %w", err)
	}
	return nil
}
