package corpus

import (
	"fmt"

	"kcalab/datasets/sparse"
)

// offsetIndex lists the positions of every word, grouped by word and
// ascending within a word (a counting sort of the id stream). It is built
// once and shared read-only by all offsets.
type offsetIndex struct {
	ids   []int32
	v     int
	start []int32 // word j occupies pos[start[j]:start[j+1]]
	pos   []int32
}

func newOffsetIndex(ids []int32, v int) (*offsetIndex, error) {
	x := &offsetIndex{v: v, start: make([]int32, v+1), pos: make([]int32, len(ids))}
	if err := x.rebuild(ids, make([]int32, v)); err != nil {
		return nil, err
	}
	return x, nil
}

// rebuild indexes ids in place of the previous stream, reusing start, pos
// (cap ≥ len(ids)) and next (len v) so that the streamed counter, which
// indexes one chunk after another, allocates nothing per chunk.
func (x *offsetIndex) rebuild(ids []int32, next []int32) error {
	v, start := x.v, x.start
	clear(start)
	for t, id := range ids {
		if id < 0 || int(id) >= v {
			return fmt.Errorf("token %d has id %d outside the vocabulary of %d", t, id, v)
		}
		start[id+1]++
	}
	for j := range v {
		start[j+1] += start[j]
	}
	pos := x.pos[:len(ids)]
	copy(next, start[:v])
	for t, id := range ids {
		pos[next[id]] = int32(t)
		next[id]++
	}
	x.ids, x.pos = ids, pos
	return nil
}

// entry is a (column, count) pair of the scratch table.
type entry struct{ col, n int32 }

// rowState is where row i writes next and the last column it received.
type rowState struct{ head, last int32 }

// offsetScratch is one worker's reusable memory: a slot per token (row i
// owns as many slots as word i has occurrences, an upper bound on its
// distinct right neighbours) and a state per row.
type offsetScratch struct {
	ent []entry
	rs  []rowState
}

func (x *offsetIndex) newScratch() *offsetScratch {
	return &offsetScratch{ent: make([]entry, len(x.ids)), rs: make([]rowState, x.v)}
}

// fill counts the pairs (ids[t-k], ids[t]) for the targets t ≥ lo (lo ≥ k)
// into s: row i's (column, count) entries, columns ascending, end up in
// s.ent[start[i]:s.rs[i].head].
//
// Walking the columns j in ascending order and, for each occurrence t of j,
// appending j to row ids[t-k] yields every row's columns already sorted,
// with equal columns adjacent: no sort and no hashing, one pass over the
// tokens with sequential reads of pos.
func (x *offsetIndex) fill(k, lo int, s *offsetScratch) {
	v, ids, start, pos := x.v, x.ids, x.start, x.pos
	ent, rs := s.ent, s.rs
	for i := range rs {
		rs[i] = rowState{head: start[i], last: -1}
	}
	k32, lo32 := int32(k), int32(lo)
	for j := range int32(v) {
		occ := pos[start[j]:start[j+1]]
		for len(occ) > 0 && occ[0] < lo32 {
			occ = occ[1:]
		}
		for _, t := range occ {
			r := &rs[ids[t-k32]]
			if r.last == j {
				ent[r.head-1].n++
			} else {
				ent[r.head] = entry{col: j, n: 1}
				r.head++
				r.last = j
			}
		}
	}
}

// count builds N^k: N^k[i][j] = #{t : ids[t-k] = i, ids[t] = j}.
func (x *offsetIndex) count(k int, s *offsetScratch) (*sparse.CSR, error) {
	x.fill(k, k, s)
	v, start, ent, rs := x.v, x.start, s.ent, s.rs
	indptr := make([]int64, v+1)
	for i := range v {
		indptr[i+1] = indptr[i] + int64(rs[i].head-start[i])
	}
	nnz := indptr[v]
	indices := make([]int32, nnz)
	data := make([]float64, nnz)
	for i := range v {
		p := indptr[i]
		for _, e := range ent[start[i]:rs[i].head] {
			indices[p] = e.col
			data[p] = float64(e.n)
			p++
		}
	}
	m, err := sparse.New(v, v, indptr, indices, data)
	if err != nil {
		return nil, fmt.Errorf("offset %d: %w", k, err)
	}
	return m, nil
}
