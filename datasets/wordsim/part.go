package wordsim

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// The parts of a set: a fixed split of its pairs into a dev part (about
// 30%), on which a design may be tuned, and a test part, on which it is
// then compared. A pair's part depends only on its two words (lower case,
// either order), never on a seed, a trial or the other pairs, so every
// trial and every spec splits a set alike, and a repeated pair falls in
// one part.
const (
	PartDev  = "dev"
	PartTest = "test"
)

// devTenths is the dev part's share, in tenths.
const devTenths = 3

// PartOf is the part ("dev" or "test") of a word pair.
func PartOf(w1, w2 string) string {
	a, b := strings.ToLower(w1), strings.ToLower(w2)
	if b < a {
		a, b = b, a
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "kcalab-part\x00%d:%s\x00%d:%s", len(a), a, len(b), b)
	// SplitMix64's finaliser: FNV's low bits are weak for a small modulus.
	z := h.Sum64()
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	if z%10 < devTenths {
		return PartDev
	}
	return PartTest
}

// Part is the set's pairs of one part, in file order, named
// "<name>@<part>".
func (s *Set) Part(part string) (*Set, error) {
	if part != PartDev && part != PartTest {
		return nil, fmt.Errorf("wordsim: part %q: want %s or %s", part, PartDev, PartTest)
	}
	out := &Set{Name: s.Name + "@" + part}
	for _, p := range s.Pairs {
		if PartOf(p.W1, p.W2) == part {
			out.Pairs = append(out.Pairs, p)
		}
	}
	return out, nil
}
