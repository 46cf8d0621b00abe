package sca

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"kcalab/datasets/wordsim"
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

// MergeRepeats moves every repeat of a word pair of the tuning set (in
// either order) into the fold of its first occurrence, so no model trains
// on a pair its own fold scores. Fold order and the order within folds are
// kept; the result is still a partition of the indices.
func MergeRepeats(tuning []wordsim.Pair, folds [][]int) [][]int {
	first := map[[2]string]int{} // word pair → fold of its first occurrence (by index)
	foldOfIdx := make([]int, len(tuning))
	for f, idx := range folds {
		for _, i := range idx {
			foldOfIdx[i] = f
		}
	}
	for i, p := range tuning {
		key := wordPair(p.W1, p.W2)
		if f, ok := first[key]; ok {
			foldOfIdx[i] = f
		} else {
			first[key] = foldOfIdx[i]
		}
	}
	out := make([][]int, len(folds))
	for i, f := range foldOfIdx {
		out[f] = append(out[f], i)
	}
	return out
}

// Route assigns every pair of every scored set to a fold whose model did
// not tune on it: a pair that is in the tuning set (as an unordered word
// pair) goes to that tuning pair's fold, any other pair to FoldOf. out[s][i]
// is the fold of pair i of sets[s].
func Route(tuning []wordsim.Pair, folds [][]int, sets [][]wordsim.Pair, seed uint64) [][]int {
	foldOf := map[[2]string]int{}
	for f, idx := range folds {
		for _, i := range idx {
			p := tuning[i]
			foldOf[wordPair(p.W1, p.W2)] = f
		}
	}
	out := make([][]int, len(sets))
	for s, pairs := range sets {
		out[s] = make([]int, len(pairs))
		for i, p := range pairs {
			if f, ok := foldOf[wordPair(p.W1, p.W2)]; ok {
				out[s][i] = f
			} else {
				out[s][i] = FoldOf(p.W1, p.W2, len(folds), seed)
			}
		}
	}
	return out
}

// wordPair is an unordered word pair.
func wordPair(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}
