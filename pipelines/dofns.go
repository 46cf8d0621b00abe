package pipelines

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"kcalab/datasets/corpus"
	"kcalab/datasets/sparse"
)

// readTokens streams the whitespace-separated tokens of a shard to fn:
// bufio.ScanWords splits where corpus's reader does (unicode.IsSpace), and
// the token length limit is the same.
func readTokens(ctx context.Context, p string, lower bool, fn func(tok []byte) error) (err error) {
	fsys, err := filesystem.New(ctx, p)
	if err != nil {
		return fmt.Errorf("shard %s: %w", p, err)
	}
	defer fsys.Close()
	rc, err := fsys.OpenRead(ctx, p)
	if err != nil {
		return fmt.Errorf("shard %s: %w", p, err)
	}
	defer rc.Close()
	var r io.Reader = bufio.NewReaderSize(rc, 1<<20)
	if strings.HasSuffix(p, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("shard %s: %w", p, err)
		}
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 256<<10), corpus.MaxTokenBytes)
	sc.Split(bufio.ScanWords)
	var n int64
	for sc.Scan() {
		tok := sc.Bytes()
		if lower {
			tok = bytes.ToLower(tok)
		}
		if err := fn(tok); err != nil {
			return fmt.Errorf("shard %s: token %d: %w", p, n+1, err)
		}
		n++
		if n&0xfffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("shard %s: token %d is longer than %d bytes without whitespace (not a text corpus?)", p, n+1, corpus.MaxTokenBytes)
		}
		return fmt.Errorf("shard %s: %w", p, err)
	}
	return nil
}

// countShardWords counts each word of a shard (one element per distinct
// word and shard, not per token).
type countShardWords struct {
	Lowercase bool
}

func (f *countShardWords) ProcessElement(ctx context.Context, sh Shard, emit func(string, int64)) error {
	counts := map[string]int64{}
	err := readTokens(ctx, sh.Path, f.Lowercase, func(tok []byte) error {
		counts[string(tok)]++
		return nil
	})
	if err != nil {
		return err
	}
	for w, n := range counts {
		emit(w, n)
	}
	return nil
}

func sumCounts(a, b int64) int64 { return a + b }

func toWordCount(w string, n int64) WordCount { return WordCount{Word: w, Count: n} }

// buildVocab ranks all word counts with corpus.VocabFromCounts, Build's
// own rules.
type buildVocab struct {
	MinCount int64
	MaxSize  int
	MinSize  int
	OOV      string
}

func (f *buildVocab) ProcessElement(_ int, iter func(*WordCount) bool, emit func(VocabInfo)) error {
	counts := map[string]int64{}
	var wc WordCount
	for iter(&wc) {
		counts[wc.Word] += wc.Count
	}
	o := corpus.VocabOptions{MinCount: f.MinCount, MaxSize: f.MaxSize, MinSize: f.MinSize, OOV: corpus.OOV(f.OOV)}
	v, err := corpus.VocabFromCounts(counts, o)
	if err != nil {
		return fmt.Errorf("count pipeline: %w", err)
	}
	emit(VocabInfo{Words: v.Words, Counts: v.Counts, Unk: v.Unk, Tokens: v.Tokens, Dropped: v.Dropped,
		MinCount: v.Options.MinCount, MaxSize: v.Options.MaxSize, OOV: string(v.Options.OOV)})
	return nil
}

// vocabOf rebuilds the corpus.Vocab a VocabInfo carries.
func vocabOf(vi VocabInfo) *corpus.Vocab {
	v := &corpus.Vocab{Words: vi.Words, Counts: vi.Counts, Unk: vi.Unk, Tokens: vi.Tokens, Dropped: vi.Dropped,
		Options: corpus.VocabOptions{MinCount: vi.MinCount, MaxSize: vi.MaxSize, OOV: corpus.OOV(vi.OOV)},
		Index:   make(map[string]int32, len(vi.Words))}
	for i, w := range vi.Words {
		v.Index[w] = int32(i)
	}
	return v
}

// countShardPairs maps a shard's tokens to ids and counts its own pairs
// for every offset: the packed (left, right) ids of offset k are sorted and
// run-length counted, one offset at a time, so memory is the shard's ids
// plus one key per token. It also emits the shard's edge tokens for the
// boundary stage.
type countShardPairs struct {
	Window, RowsPerBlock int
	Lowercase            bool

	vocab *corpus.Vocab // from the side input, once per DoFn instance
}

func (f *countShardPairs) ProcessElement(ctx context.Context, sh Shard, vi VocabInfo, emitBlock func(int64, Block), emitEdge func(ShardEdge)) error {
	if f.vocab == nil {
		f.vocab = vocabOf(vi)
	}
	v := f.vocab
	drop := v.Options.OOV == corpus.OOVDrop
	var ids []int32
	err := readTokens(ctx, sh.Path, f.Lowercase, func(tok []byte) error {
		id, ok := v.Index[string(tok)]
		switch {
		case ok:
		case drop:
			return nil
		case v.Unk >= 0:
			id = v.Unk
		default:
			// The vocabulary was counted from these shards: a token with
			// no id means a shard changed while the pipeline ran.
			return fmt.Errorf("word %q is in no vocabulary entry and there is no <unk> (input changed during the run?)", tok)
		}
		ids = append(ids, id)
		return nil
	})
	if err != nil {
		return err
	}
	n := len(ids)
	keys := make([]int64, 0, n)
	for k := 1; k <= f.Window && k < n; k++ {
		keys = keys[:0]
		for t := k; t < n; t++ {
			keys = append(keys, entryKey(ids[t-k], ids[t]))
		}
		slices.Sort(keys)
		sortedBlocks(keys, f.RowsPerBlock, func(rb int, b Block) { emitBlock(blockKey(k, rb), b) })
	}
	e := min(f.Window, n)
	emitEdge(ShardEdge{Index: sh.Index, Len: int64(n),
		Head: slices.Clone(ids[:e]), Tail: slices.Clone(ids[n-e:])})
	return nil
}

// crossShards counts the pairs whose two tokens lie in different shards.
// Such a pair (p, q), q−p = k ≤ W, has p among the last W tokens of its
// shard and q among the first W of its own, so the shards' edges hold
// every such pair, also when a pair spans short or empty shards.
type crossShards struct {
	Window, RowsPerBlock int
}

func (f *crossShards) ProcessElement(_ int, iter func(*ShardEdge) bool, emit func(int64, Block)) error {
	var edges []ShardEdge
	var e ShardEdge
	for iter(&e) {
		edges = append(edges, e)
		e = ShardEdge{}
	}
	slices.SortFunc(edges, func(a, b ShardEdge) int { return a.Index - b.Index })
	type tok struct {
		shard int
		id    int32
	}
	known := map[int64]tok{} // global position → token
	var start int64
	for i, e := range edges {
		if e.Index != i {
			return fmt.Errorf("boundary stage: shard %d missing or repeated (have %d)", i, e.Index)
		}
		m := int(min(int64(f.Window), e.Len))
		if len(e.Head) != m || len(e.Tail) != m {
			return fmt.Errorf("boundary stage: shard %d of %d tokens has %d head and %d tail ids, want %d", i, e.Len, len(e.Head), len(e.Tail), m)
		}
		for t, id := range e.Head {
			known[start+int64(t)] = tok{i, id}
		}
		for t, id := range e.Tail {
			known[start+e.Len-int64(m)+int64(t)] = tok{i, id}
		}
		start += e.Len
	}
	counts := make([]map[int64]int64, f.Window+1)
	for q, b := range known {
		for k := 1; k <= f.Window; k++ {
			a, ok := known[q-int64(k)]
			if !ok || a.shard == b.shard {
				continue
			}
			if counts[k] == nil {
				counts[k] = map[int64]int64{}
			}
			counts[k][entryKey(a.id, b.id)]++
		}
	}
	for k := 1; k <= f.Window; k++ {
		if counts[k] != nil {
			countMapBlocks(counts[k], f.RowsPerBlock, func(rb int, b Block) { emit(blockKey(k, rb), b) })
		}
	}
	return nil
}

// n1ColSums emits the column sums of a row block of N^1.
func n1ColSums(key int64, b Block, emit func(ColSums)) {
	if k, _ := splitBlockKey(key); k != 1 {
		return
	}
	m := map[int32]int64{}
	for p, key := range b.Keys {
		m[entryCol(key)] += b.Counts[p]
	}
	var cs ColSums
	for j := range m {
		cs.Cols = append(cs.Cols, j)
	}
	slices.Sort(cs.Cols)
	cs.Sums = make([]int64, len(cs.Cols))
	for p, j := range cs.Cols {
		cs.Sums[p] = m[j]
	}
	emit(cs)
}

// byRowBlock keys a merged block of N^k by its row block, so that one
// worker sees N^1 … N^W of the same rows.
func byRowBlock(key int64, b Block) (int, OffsetBlock) {
	k, rb := splitBlockKey(key)
	return rb, OffsetBlock{K: k, Block: b}
}

// deriveTables passes the offset tables' row blocks on to the writers and
// computes the same rows of N^flat, N^skip and N^cut, in exact integers:
// flat Σ_k N^k, skip Σ_k (W−k+1)·N^k (the writer divides by W once, as
// corpus.Combine does), cut Σ_k of the entries with
// N^k[i][j]·total(N^1) ≥ rowsum(N^k)[i]·colsum(N^1)[j]. A row of N^k lies
// in one block, so its row sum is at hand.
type deriveTables struct {
	Window int

	col1   []int64 // dense colsum(N^1), from the side input
	total1 int64
}

func (f *deriveTables) ProcessElement(rb int, iter func(*OffsetBlock) bool, cs ColSums, emit func(string, RowBlock)) error {
	if f.col1 == nil {
		n := 0
		if len(cs.Cols) > 0 {
			n = int(cs.Cols[len(cs.Cols)-1]) + 1
		}
		f.col1 = make([]int64, n)
		for p, j := range cs.Cols {
			f.col1[j] = cs.Sums[p]
			f.total1 += cs.Sums[p]
		}
	}
	w := f.Window
	blocks := make([]Block, w+1)
	seen := make([]bool, w+1)
	var ob OffsetBlock
	for iter(&ob) {
		if ob.K < 1 || ob.K > w || seen[ob.K] {
			return fmt.Errorf("derive stage: row block %d: offset %d out of range or repeated", rb, ob.K)
		}
		if err := checkBlock(ob.Block); err != nil {
			return fmt.Errorf("derive stage: row block %d of N^%d: %w", rb, ob.K, err)
		}
		seen[ob.K] = true
		blocks[ob.K] = ob.Block
		emit(corpus.TableFileName("offset", ob.K), RowBlock{Index: rb, Block: ob.Block})
		ob = OffsetBlock{}
	}
	var flat, skip, cut Block
	var facc, sacc, cacc []int64 // dense row accumulators, by column
	var touched []int32
	cur := make([]int, w+1)
	for {
		// The next row: the smallest row left in any offset's block.
		row := int32(-1)
		for k := 1; k <= w; k++ {
			if b := blocks[k]; cur[k] < len(b.Keys) {
				if r := entryRow(b.Keys[cur[k]]); row < 0 || r < row {
					row = r
				}
			}
		}
		if row < 0 {
			break
		}
		for k := 1; k <= w; k++ {
			b := blocks[k]
			end := cur[k]
			var rowSum int64
			for end < len(b.Keys) && entryRow(b.Keys[end]) == row {
				rowSum += b.Counts[end]
				end++
			}
			for p := cur[k]; p < end; p++ {
				j, c := entryCol(b.Keys[p]), b.Counts[p]
				if int(j) >= len(facc) {
					grow := int(j) + 1 + len(facc)
					facc = append(facc, make([]int64, grow-len(facc))...)
					sacc = append(sacc, make([]int64, grow-len(sacc))...)
					cacc = append(cacc, make([]int64, grow-len(cacc))...)
				}
				if facc[j] == 0 {
					touched = append(touched, j)
				}
				facc[j] += c
				sacc[j] += c * int64(w-k+1)
				var c1 int64
				if int(j) < len(f.col1) {
					c1 = f.col1[j]
				}
				if c*f.total1 >= rowSum*c1 {
					cacc[j] += c
				}
			}
			cur[k] = end
		}
		slices.Sort(touched)
		for _, j := range touched {
			key := entryKey(row, j)
			flat.Keys, flat.Counts = append(flat.Keys, key), append(flat.Counts, facc[j])
			skip.Keys, skip.Counts = append(skip.Keys, key), append(skip.Counts, sacc[j])
			if cacc[j] > 0 {
				cut.Keys, cut.Counts = append(cut.Keys, key), append(cut.Counts, cacc[j])
			}
			facc[j], sacc[j], cacc[j] = 0, 0, 0
		}
		touched = touched[:0]
	}
	for _, t := range []struct {
		kind corpus.Kind
		b    Block
	}{{corpus.Flat, flat}, {corpus.Skip, skip}, {corpus.Cut, cut}} {
		if len(t.b.Keys) > 0 {
			emit(corpus.TableFileName(string(t.kind), 0), RowBlock{Index: rb, Block: t.b})
		}
	}
	return nil
}

// writeTable gathers one table's row blocks into a CSR and writes it. This
// stage holds one whole table in a worker's memory: the format is one file
// per table.
type writeTable struct {
	Dir    string
	Window int
}

func (f *writeTable) ProcessElement(ctx context.Context, name string, iter func(*RowBlock) bool, vi VocabInfo, emit func(FileInfo)) error {
	var rbs []RowBlock
	var rb RowBlock
	for iter(&rb) {
		rbs = append(rbs, rb)
		rb = RowBlock{}
	}
	slices.SortFunc(rbs, func(a, b RowBlock) int { return a.Index - b.Index })
	v := len(vi.Words)
	var nnz int
	for i, b := range rbs {
		if i > 0 && b.Index == rbs[i-1].Index {
			return fmt.Errorf("write %s: row block %d repeated", name, b.Index)
		}
		if err := checkBlock(b.Block); err != nil {
			return fmt.Errorf("write %s: row block %d: %w", name, b.Index, err)
		}
		nnz += len(b.Block.Keys)
	}
	// Blocks in order, keys in order within each: the entries arrive in
	// CSR order and need no sort.
	indptr := make([]int64, v+1)
	indices := make([]int32, 0, nnz)
	data := make([]float64, 0, nnz)
	div := 1.0
	if name == corpus.TableFileName(string(corpus.Skip), 0) {
		div = float64(f.Window)
	}
	for _, b := range rbs {
		for p, key := range b.Block.Keys {
			i, j := entryRow(key), entryCol(key)
			if int(i) >= v || int(j) >= v {
				return fmt.Errorf("write %s: entry (%d, %d) outside the vocabulary of %d", name, i, j, v)
			}
			indptr[i+1]++
			indices = append(indices, j)
			// Integer sums below 2⁵³ are exact in float64, so one division
			// gives corpus.Combine's bits.
			data = append(data, float64(b.Block.Counts[p])/div)
		}
	}
	for i := range v {
		indptr[i+1] += indptr[i]
	}
	m, err := sparse.New(v, v, indptr, indices, data)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tf, err := writeFile(ctx, joinPath(f.Dir, name), func(w io.Writer) (corpus.TableFile, error) {
		return corpus.WriteTableFile(w, name, m)
	})
	if err != nil {
		return err
	}
	emit(FileInfo{Name: tf.Name, Bytes: tf.Bytes, CRC32C: int64(tf.CRC32C), NNZ: tf.NNZ})
	return nil
}

// writeFile creates p on its Beam file system and fills it with write.
func writeFile(ctx context.Context, p string, write func(io.Writer) (corpus.TableFile, error)) (corpus.TableFile, error) {
	fsys, err := filesystem.New(ctx, p)
	if err != nil {
		return corpus.TableFile{}, fmt.Errorf("write %s: %w", p, err)
	}
	defer fsys.Close()
	wc, err := fsys.OpenWrite(ctx, p)
	if err != nil {
		return corpus.TableFile{}, fmt.Errorf("write %s: %w", p, err)
	}
	tf, err := write(wc)
	if err = errors.Join(err, wc.Close()); err != nil {
		return corpus.TableFile{}, fmt.Errorf("write %s: %w", p, err)
	}
	return tf, nil
}

// writeManifest writes the vocabulary, an empty table for each table that
// has no entry (so no writer ran), and last the manifest, which marks the
// directory complete.
type writeManifest struct {
	Dir    string
	Window int
	Source string
}

func (f *writeManifest) ProcessElement(ctx context.Context, _ int, iter func(*FileInfo) bool, vi VocabInfo) error {
	have := map[string]corpus.TableFile{}
	var fi FileInfo
	for iter(&fi) {
		if fi.Name != "" {
			have[fi.Name] = corpus.TableFile{Name: fi.Name, Bytes: fi.Bytes, CRC32C: uint32(fi.CRC32C), NNZ: fi.NNZ}
		}
	}
	v := vocabOf(vi)
	d := corpus.NewTableDir(v, f.Window, f.Source)
	tf, err := writeFile(ctx, joinPath(f.Dir, corpus.VocabFile), func(w io.Writer) (corpus.TableFile, error) {
		return corpus.WriteVocabFile(w, v)
	})
	if err != nil {
		return err
	}
	d.Files = append(d.Files, tf)
	names := make([]string, 0, f.Window+3)
	for k := 1; k <= f.Window; k++ {
		names = append(names, corpus.TableFileName("offset", k))
	}
	for _, kind := range corpus.StoredKinds {
		names = append(names, corpus.TableFileName(string(kind), 0))
	}
	for _, name := range names {
		tf, ok := have[name]
		if !ok {
			empty, err := sparse.New(v.Size(), v.Size(), make([]int64, v.Size()+1), nil, nil)
			if err != nil {
				return fmt.Errorf("write %s: %w", name, err)
			}
			tf, err = writeFile(ctx, joinPath(f.Dir, name), func(w io.Writer) (corpus.TableFile, error) {
				return corpus.WriteTableFile(w, name, empty)
			})
			if err != nil {
				return err
			}
		}
		d.Files = append(d.Files, tf)
	}
	var buf bytes.Buffer
	if err := corpus.WriteManifest(&buf, d); err != nil {
		return err
	}
	// Through a temporary name where the file system can rename, so a
	// reader never sees half a manifest.
	final := joinPath(f.Dir, corpus.ManifestFile)
	fsys, err := filesystem.New(ctx, final)
	if err != nil {
		return fmt.Errorf("write %s: %w", final, err)
	}
	defer fsys.Close()
	rn, canRename := fsys.(filesystem.Renamer)
	target := final
	if canRename {
		target = final + ".tmp"
	}
	if _, err := writeFile(ctx, target, func(w io.Writer) (corpus.TableFile, error) {
		_, err := w.Write(buf.Bytes())
		return corpus.TableFile{}, err
	}); err != nil {
		return err
	}
	if canRename {
		if err := rn.Rename(ctx, target, final); err != nil {
			return fmt.Errorf("write %s: %w", final, err)
		}
	}
	return nil
}
