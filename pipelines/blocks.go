package pipelines

import (
	"fmt"
	"slices"
)

// Shard is one input text file and its place in the corpus order.
type Shard struct {
	Index int
	Path  string
}

// WordCount is a word's count over the whole corpus.
type WordCount struct {
	Word  string
	Count int64
}

// VocabInfo carries the vocabulary between stages (a side input); it is
// corpus.Vocab without the index map, which each worker rebuilds.
type VocabInfo struct {
	Words    []string
	Counts   []int64
	Unk      int32
	Tokens   int64
	Dropped  int64
	MinCount int64
	MaxSize  int
	OOV      string
}

// Block is part of a count table: entries (row i, column j) packed as
// i<<32 | j in ascending order, with their counts (never zero). Packed keys
// sort by row, then column, which is CSR order. Signed integers because
// Beam's schema coder has no unsigned types; ids are below 2³¹.
type Block struct {
	Keys   []int64
	Counts []int64
}

// ShardEdge is what the boundary stage needs of a shard: its length in
// tokens (after OOVDrop) and the ids of its first and last Window tokens
// (the whole shard, twice, when it is shorter).
type ShardEdge struct {
	Index int
	Len   int64
	Head  []int32
	Tail  []int32
}

// OffsetBlock is one row block of N^K.
type OffsetBlock struct {
	K     int
	Block Block
}

// RowBlock is row block Index of a table on its way to the writer.
type RowBlock struct {
	Index int
	Block Block
}

// FileInfo describes a written file (corpus.TableFile with Beam-codable
// fields). An empty Name is the placeholder that makes sure the manifest
// stage runs even when no table file was written.
type FileInfo struct {
	Name   string
	Bytes  int64
	CRC32C int64
	NNZ    int64
}

// ColSums is a sparse vector of column sums, ascending columns.
type ColSums struct {
	Cols []int32
	Sums []int64
}

func entryKey(i, j int32) int64 { return int64(i)<<32 | int64(j) }

func entryRow(key int64) int32 { return int32(key >> 32) }

func entryCol(key int64) int32 { return int32(key & 0xffffffff) }

// blockKey addresses row block rb of N^k in the merge stage.
func blockKey(k, rb int) int64 { return int64(k)<<32 | int64(rb) }

func splitBlockKey(key int64) (k, rb int) { return int(key >> 32), int(key & 0xffffffff) }

// mergeBlocks adds two blocks (a merge of two sorted key lists). It is the
// merge stage's combiner, so it must be associative and commutative, and
// it never changes its inputs, which the runner may still hold.
func mergeBlocks(a, b Block) Block {
	out := Block{Keys: make([]int64, 0, len(a.Keys)+len(b.Keys)), Counts: make([]int64, 0, len(a.Keys)+len(b.Keys))}
	p, q := 0, 0
	for p < len(a.Keys) && q < len(b.Keys) {
		switch ka, kb := a.Keys[p], b.Keys[q]; {
		case ka < kb:
			out.Keys, out.Counts = append(out.Keys, ka), append(out.Counts, a.Counts[p])
			p++
		case kb < ka:
			out.Keys, out.Counts = append(out.Keys, kb), append(out.Counts, b.Counts[q])
			q++
		default:
			out.Keys, out.Counts = append(out.Keys, ka), append(out.Counts, a.Counts[p]+b.Counts[q])
			p++
			q++
		}
	}
	out.Keys = append(append(out.Keys, a.Keys[p:]...), b.Keys[q:]...)
	out.Counts = append(append(out.Counts, a.Counts[p:]...), b.Counts[q:]...)
	return out
}

// mergeColSums adds two sparse column-sum vectors.
func mergeColSums(a, b ColSums) ColSums {
	var out ColSums
	p, q := 0, 0
	for p < len(a.Cols) && q < len(b.Cols) {
		switch ca, cb := a.Cols[p], b.Cols[q]; {
		case ca < cb:
			out.Cols, out.Sums = append(out.Cols, ca), append(out.Sums, a.Sums[p])
			p++
		case cb < ca:
			out.Cols, out.Sums = append(out.Cols, cb), append(out.Sums, b.Sums[q])
			q++
		default:
			out.Cols, out.Sums = append(out.Cols, ca), append(out.Sums, a.Sums[p]+b.Sums[q])
			p++
			q++
		}
	}
	out.Cols = append(append(out.Cols, a.Cols[p:]...), b.Cols[q:]...)
	out.Sums = append(append(out.Sums, a.Sums[p:]...), b.Sums[q:]...)
	return out
}

// sortedBlocks turns sorted packed keys with repeats (one per pair
// occurrence) into blocks of rowsPerBlock rows, calling emit for each.
func sortedBlocks(keys []int64, rowsPerBlock int, emit func(rb int, b Block)) {
	for len(keys) > 0 {
		rb := int(entryRow(keys[0])) / rowsPerBlock
		end := int64(rb+1) * int64(rowsPerBlock) << 32 // first key of the next block
		var b Block
		p := 0
		for p < len(keys) && keys[p] < end {
			q := p + 1
			for q < len(keys) && keys[q] == keys[p] {
				q++
			}
			b.Keys = append(b.Keys, keys[p])
			b.Counts = append(b.Counts, int64(q-p))
			p = q
		}
		emit(rb, b)
		keys = keys[p:]
	}
}

// countMapBlocks emits the entries of a map from packed key to count as
// sorted blocks.
func countMapBlocks(m map[int64]int64, rowsPerBlock int, emit func(rb int, b Block)) {
	keys := make([]int64, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for len(keys) > 0 {
		rb := int(entryRow(keys[0])) / rowsPerBlock
		end := int64(rb+1) * int64(rowsPerBlock) << 32
		n, _ := slices.BinarySearch(keys, end)
		b := Block{Keys: keys[:n:n], Counts: make([]int64, n)}
		for p, key := range b.Keys {
			b.Counts[p] = m[key]
		}
		emit(rb, b)
		keys = keys[n:]
	}
}

// checkBlock reports a block whose keys are not strictly ascending or
// whose counts are not positive: the writer relies on both.
func checkBlock(b Block) error {
	if len(b.Keys) != len(b.Counts) {
		return fmt.Errorf("block has %d keys and %d counts", len(b.Keys), len(b.Counts))
	}
	for p, key := range b.Keys {
		if p > 0 && key <= b.Keys[p-1] {
			return fmt.Errorf("block keys out of order at entry %d", p)
		}
		if b.Counts[p] <= 0 {
			return fmt.Errorf("block entry (%d, %d) has count %d", entryRow(key), entryCol(key), b.Counts[p])
		}
	}
	return nil
}
