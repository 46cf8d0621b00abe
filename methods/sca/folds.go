package sca

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
)

// foldStream fixes the second PCG word, so the seed alone picks the folds.
const foldStream = 0x7363612d666f6c64 // "sca-fold"

// Folds partitions the pair indices 0..n−1 into k folds: a seeded random
// permutation dealt round-robin, so fold sizes differ by at most one. Each
// fold lists its (test) indices in increasing order. The same n, k and
// seed give the same folds.
func Folds(n, k int, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("sca: %d folds: want at least 2", k)
	}
	if n < k {
		return nil, fmt.Errorf("sca: %d pairs cannot fill %d folds: want at least one pair per fold", n, k)
	}
	perm := rand.New(rand.NewPCG(seed, foldStream)).Perm(n)
	folds := make([][]int, k)
	for f := range folds {
		folds[f] = make([]int, 0, (n+k-1)/k)
	}
	for pos, i := range perm {
		folds[pos%k] = append(folds[pos%k], i)
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds, nil
}

// FoldOf returns the fold (0..k−1) of the unordered word pair {a, b} for
// the given seed: a hash of the sorted pair and the seed, so a pair that no
// fold holds (one of another set) is routed to a fold deterministically,
// in either order. k < 2 gives 0.
func FoldOf(a, b string, k int, seed uint64) int {
	if k < 2 {
		return 0
	}
	if b < a {
		a, b = b, a
	}
	h := fnv.New64a()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], seed)
	h.Write(buf[:])
	// Length prefixes keep ("ab", "c") and ("a", "bc") apart.
	binary.LittleEndian.PutUint64(buf[:], uint64(len(a)))
	h.Write(buf[:])
	h.Write([]byte(a))
	binary.LittleEndian.PutUint64(buf[:], uint64(len(b)))
	h.Write(buf[:])
	h.Write([]byte(b))
	return int(mix(h.Sum64()) % uint64(k))
}

// mix is SplitMix64's finaliser: FNV's low bits are weak for small k.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// TrainPairs returns the pairs that fold f's model may tune on: every pair
// whose index is not in folds[f], except repeats (in either order) of a
// word pair of fold f, so the model never sees a pair it is scored on.
// Order is kept. It panics when f is not a fold index (a programming error).
func TrainPairs(pairs []Pair, folds [][]int, f int) []Pair {
	test := make(map[int]bool, len(folds[f]))
	held := make(map[[2]int]bool, len(folds[f]))
	for _, i := range folds[f] {
		test[i] = true
		if i >= 0 && i < len(pairs) {
			held[unordered(pairs[i])] = true
		}
	}
	out := make([]Pair, 0, len(pairs))
	for i, p := range pairs {
		if !test[i] && !held[unordered(p)] {
			out = append(out, p)
		}
	}
	return out
}

func unordered(p Pair) [2]int { return [2]int{min(p.A, p.B), max(p.A, p.B)} }
