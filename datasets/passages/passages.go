package passages

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Params are the generator's parameters (see the package documentation
// for the model). Licences returns the defaults that mimic a
// concatenation of licence files.
type Params struct {
	// Blocks is the number of vocabulary blocks ("documents" of their own
	// words: one licence, one package's notices).
	Blocks int
	// Words is the number of words of each block; a block's words occur
	// in no other block.
	Words int
	// Shared is the number of words every block uses (function words);
	// they are what couples the blocks (with the block boundaries).
	Shared int
	// SharedProb is the probability that a token of a passage is a shared
	// word (uniform over them) instead of one of its block's words. The
	// smaller it is, the closer the table is to reducible: the leading
	// singular values of its CA crowd towards 1.
	SharedProb float64
	// Exponent a of the Zipf law p(j) ∝ 1/(j+1)^a by which a passage picks
	// its block's words.
	Exponent float64
	// Passages is the number of distinct passages of each block.
	Passages int
	// Length is the number of tokens of a passage.
	Length int
	// Repeats is how many times each passage occurs, verbatim, in its
	// block's text.
	Repeats int
	// Seed selects the corpus: the same parameters and seed give the same
	// tokens.
	Seed uint64
}

// Validate reports the first parameter out of its range.
func (p Params) Validate() error {
	switch {
	case p.Blocks < 1 || p.Blocks > 1<<20:
		return fmt.Errorf("passages: Blocks = %d: want 1..%d", p.Blocks, 1<<20)
	case p.Words < 1 || p.Words > 1<<20:
		return fmt.Errorf("passages: Words = %d: want 1..%d", p.Words, 1<<20)
	case p.Shared < 0 || p.Shared > 1<<20:
		return fmt.Errorf("passages: Shared = %d: want 0..%d", p.Shared, 1<<20)
	case !(p.SharedProb >= 0 && p.SharedProb <= 1):
		return fmt.Errorf("passages: SharedProb = %v: want a probability in [0, 1]", p.SharedProb)
	case p.SharedProb > 0 && p.Shared == 0:
		return fmt.Errorf("passages: SharedProb = %v with Shared = 0: want shared words to draw from", p.SharedProb)
	case !(p.Exponent >= 0) || math.IsInf(p.Exponent, 0):
		return fmt.Errorf("passages: Exponent = %v: want a finite number ≥ 0", p.Exponent)
	case p.Passages < 1 || p.Length < 1 || p.Repeats < 1:
		return fmt.Errorf("passages: Passages = %d, Length = %d, Repeats = %d: want each ≥ 1", p.Passages, p.Length, p.Repeats)
	case p.Tokens() > 1<<31 || p.Tokens() < 0:
		return fmt.Errorf("passages: %d blocks × %d passages × %d repeats × %d tokens: want at most 2^31 tokens", p.Blocks, p.Passages, p.Repeats, p.Length)
	}
	return nil
}

// Tokens is the corpus length: Blocks·Passages·Repeats·Length.
func (p Params) Tokens() int64 {
	return int64(p.Blocks) * int64(p.Passages) * int64(p.Repeats) * int64(p.Length)
}

// Types is the number of word ids: Shared + Blocks·Words (not every block
// word need occur).
func (p Params) Types() int { return p.Shared + p.Blocks*p.Words }

// Word returns the name of word id: "s<i>" for the shared words (ids
// 0..Shared−1), "b<block>w<j>" for word j of a block.
func (p Params) Word(id int) string { return string(p.AppendWord(nil, id)) }

// AppendWord appends Word(id) to b.
func (p Params) AppendWord(b []byte, id int) []byte {
	if id < p.Shared {
		return strconv.AppendInt(append(b, 's'), int64(id), 10)
	}
	id -= p.Shared
	b = strconv.AppendInt(append(b, 'b'), int64(id/p.Words), 10)
	return strconv.AppendInt(append(b, 'w'), int64(id%p.Words), 10)
}

// Block returns the block of word id, −1 for a shared word.
func (p Params) Block(id int) int {
	if id < p.Shared {
		return -1
	}
	return (id - p.Shared) / p.Words
}

// Licences returns parameters that mimic a concatenation of licence
// files at about 1.9 M tokens: 600 blocks of 80 words, each block's text 4
// passages of 100 tokens repeated 8 times, with one token in 2,000 a
// shared word, seed 1. Lowercased, at W = 10 (N^flat, LCA) its CA has
// σ_1 = 0.999986 and σ_100 = 0.999650: the hundred largest singular values
// in a cluster within 0.04% of σ_1, continuing below, as the Debian
// copyright files had (see the package documentation).
func Licences() Params {
	return Params{
		Blocks:     600,
		Words:      80,
		Shared:     50,
		SharedProb: 0.0005,
		Exponent:   1,
		Passages:   4,
		Length:     100,
		Repeats:    8,
		Seed:       1,
	}
}

// pcgStream keeps this package's draws apart from other seeded users of
// the same seed.
const pcgStream = 0x7061737361676573 // "passages"

// Generate draws the corpus of p and passes its word ids (see Word) to
// emit in order, stopping at emit's first error or when ctx is done. It
// holds the distinct passages (Blocks·Passages·Length ids) and the order
// of their occurrences, never the corpus.
func Generate(ctx context.Context, p Params, emit func(id int) error) error {
	if err := p.Validate(); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(p.Seed, pcgStream))
	// The Zipf law of a block's words as a cumulative table (sums only,
	// so no fused multiply-add can change the bits between platforms).
	cum := make([]float64, p.Words)
	var total float64
	for j := range cum {
		total += math.Pow(float64(j+1), -p.Exponent)
		cum[j] = total
	}
	word := func() int {
		u := float64(rng.Float64() * total)
		lo, hi := 0, p.Words-1
		for lo < hi {
			m := (lo + hi) / 2
			if cum[m] > u {
				hi = m
			} else {
				lo = m + 1
			}
		}
		return lo
	}
	// Every block's distinct passages.
	text := make([]int32, p.Blocks*p.Passages*p.Length)
	for b := range p.Blocks {
		for i := range p.Passages * p.Length {
			var id int
			if p.SharedProb > 0 && rng.Float64() < p.SharedProb {
				id = rng.IntN(p.Shared)
			} else {
				id = p.Shared + b*p.Words + word()
			}
			text[b*p.Passages*p.Length+i] = int32(id)
		}
	}
	// Blocks in a random order; within a block, its passages' Repeats
	// occurrences each in a random order.
	order := rng.Perm(p.Blocks)
	occ := make([]int, p.Passages*p.Repeats)
	var n int64
	for _, b := range order {
		for i := range occ {
			occ[i] = i % p.Passages
		}
		rng.Shuffle(len(occ), func(i, j int) { occ[i], occ[j] = occ[j], occ[i] })
		for _, q := range occ {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("passages: generating token %d of %d: %w", n, p.Tokens(), context.Cause(ctx))
			}
			off := (b*p.Passages + q) * p.Length
			for _, id := range text[off : off+p.Length] {
				if err := emit(int(id)); err != nil {
					return err
				}
			}
			n += int64(p.Length)
		}
	}
	return nil
}

// IDs returns the whole corpus of p as word ids (4 bytes a token).
func IDs(ctx context.Context, p Params) ([]int32, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	ids := make([]int32, 0, p.Tokens())
	err := Generate(ctx, p, func(id int) error {
		ids = append(ids, int32(id))
		return nil
	})
	return ids, err
}

// Write writes the corpus of p to w as text8 is written: words separated
// by single spaces, no line end.
func Write(ctx context.Context, w io.Writer, p Params) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf []byte
	first := true
	err := Generate(ctx, p, func(id int) error {
		buf = buf[:0]
		if !first {
			buf = append(buf, ' ')
		}
		first = false
		buf = p.AppendWord(buf, id)
		_, err := bw.Write(buf)
		return err
	})
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("passages: writing %d tokens: %w", p.Tokens(), err)
	}
	return nil
}

// WriteFile writes the corpus (see Write) to path, through a temporary
// file renamed into place, so an interrupted run leaves no partial corpus
// under the final name.
func WriteFile(ctx context.Context, path string, p Params) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("passages: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := Write(ctx, f, p); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("passages: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("passages: %w", err)
	}
	return nil
}
