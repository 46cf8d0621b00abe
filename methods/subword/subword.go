package subword

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Weighting says how much each of a word's character n-grams counts when
// the word's vector is composed from their supplementary points.
type Weighting string

const (
	// Uniform gives each n-gram the same weight (fastText's mean).
	Uniform Weighting = "uniform"
	// IDF weights an n-gram by its specificity log(1 + V/df), V the words
	// with mass and df those of them that contain it: "ing" says little
	// about a word, "ologi" much.
	IDF Weighting = "idf"
	// Mass weights an n-gram by its mass, the summed mass of its words:
	// the word's profile is then the sum of its n-grams' profiles, the
	// purely supplementary design (frequent n-grams dominate).
	Mass Weighting = "mass"
)

// Weightings lists the allowed weightings.
var Weightings = []Weighting{Uniform, IDF, Mass}

// PointWeighting says how the words of an n-gram weigh in its point.
type PointWeighting string

const (
	// MassPoint weights a word by its mass: the point is the transition
	// formula's image of the summed count rows (the supplementary point).
	MassPoint PointWeighting = "mass"
	// EqualPoint weights the words equally: rare words, whose letters are
	// the better guide to an unseen word, are not drowned by frequent ones.
	EqualPoint PointWeighting = "equal"
)

// Options configure the n-grams and how a word's vector is composed.
type Options struct {
	MinN, MaxN int       // n-gram lengths in characters, boundaries included; MaxN = 0: no n-grams
	Weighting  Weighting // n-gram weights within a word (Uniform when empty)
	// Point says how an n-gram's words are weighted in its point: by mass
	// (MassPoint, the supplementary projection; the default) or equally.
	Point PointWeighting
	// Length, when true, gives a composed vector the length of its words'
	// vectors (the same weighted mean of their norms) instead of the
	// shorter length of their mean: with the dot similarity a mean of
	// many directions would otherwise rank every pair it is in low.
	Length bool
	// Shrink, with Length, takes the composed length as L^(1−s)·m^s, L
	// the words' mean length and m the mean's own (m ≤ L): 0 keeps L, 1
	// gives m. The more a word's n-gram points disagree, the shorter its
	// vector, pulled toward the origin, CA's centroid: the best guess for
	// a word the letters say little about.
	Shrink float64
	// Blend is the share of an in-vocabulary word's vector taken from its
	// n-grams: (1 − Blend)·own row + Blend·composed; 0 keeps the own row.
	Blend float64
	// BlendCount > 0 makes the share depend on how often the word was
	// seen: Blend·BlendCount/(BlendCount + count), so a word seen
	// BlendCount times takes half of Blend and frequent words, whose rows
	// are well estimated, keep theirs. It needs Vocabulary.Counts.
	BlendCount float64
}

// Check says whether the options are allowed.
func (o Options) Check() error {
	if !(o.Shrink >= 0 && o.Shrink <= 1) {
		return fmt.Errorf("subword: shrink %v: want a power in [0, 1]", o.Shrink)
	}
	if o.Shrink > 0 && !o.Length {
		return fmt.Errorf("subword: shrink %v needs the words' length (the mean's own length is shrink 1)", o.Shrink)
	}
	if o.MaxN < 0 || o.MinN < 1 || (o.MaxN > 0 && o.MinN > o.MaxN) {
		return fmt.Errorf("subword: n-gram lengths %d..%d: want 1 ≤ min ≤ max", o.MinN, o.MaxN)
	}
	if !(o.Blend >= 0 && o.Blend <= 1) {
		return fmt.Errorf("subword: blend %v: want a share in [0, 1]", o.Blend)
	}
	if !(o.BlendCount >= 0) || math.IsInf(o.BlendCount, 0) {
		return fmt.Errorf("subword: blend count %v: want finite and ≥ 0", o.BlendCount)
	}
	switch o.Weighting {
	case "", Uniform, IDF, Mass:
	default:
		return fmt.Errorf("subword: weighting %q: want uniform, idf or mass", o.Weighting)
	}
	switch o.Point {
	case "", MassPoint, EqualPoint:
	default:
		return fmt.Errorf("subword: point weighting %q: want mass or equal", o.Point)
	}
	return nil
}

// Ngrams calls fn with each character n-gram of "<"+word+">" of minN..maxN
// characters (a character is a UTF-8 sequence), in order of start then
// length, repeats included. The boundary marks alone ("<", ">") are not
// n-grams: they would tie every word together.
func Ngrams(word string, minN, maxN int, fn func(string)) {
	w := []rune("<" + word + ">")
	for i := range w {
		for n := minN; n <= maxN && i+n <= len(w); n++ {
			if n == 1 && (i == 0 || i == len(w)-1) {
				continue
			}
			fn(string(w[i : i+n]))
		}
	}
}

// Vocabulary is the analysed side that n-gram points are built from: the
// words, their masses (a word of zero mass, as <unk>, takes no part) and
// their vectors, one row per word.
type Vocabulary struct {
	Words []string
	Mass  []float64
	F     *mat.Dense
	// Counts are the words' corpus counts, needed by Options.BlendCount
	// (nil otherwise).
	Counts []float64
}

func (v Vocabulary) check() error {
	if v.F == nil {
		return fmt.Errorf("subword: nil word vectors")
	}
	r, _ := v.F.Dims()
	if len(v.Words) != r || len(v.Mass) != r {
		return fmt.Errorf("subword: %d words, %d masses and %d vector rows", len(v.Words), len(v.Mass), r)
	}
	if v.Counts != nil && len(v.Counts) != r {
		return fmt.Errorf("subword: %d words and %d counts", len(v.Words), len(v.Counts))
	}
	for i, m := range v.Mass {
		if !(m >= 0) || math.IsInf(m, 0) {
			return fmt.Errorf("subword: word %q has mass %v: want finite and non-negative", v.Words[i], m)
		}
	}
	return nil
}

// index holds, for each distinct n-gram of the vocabulary's words with
// mass, the words that contain it (each once, in vocabulary order).
type index struct {
	id    map[string]int32
	words [][]int32
	mass  []float64 // Σ mass of the words containing the n-gram
	nword int       // words with mass
}

func newIndex(v Vocabulary, o Options) *index {
	ix := &index{id: map[string]int32{}}
	for w, word := range v.Words {
		if v.Mass[w] == 0 {
			continue
		}
		ix.nword++
		Ngrams(word, o.MinN, o.MaxN, func(g string) {
			id, ok := ix.id[g]
			if !ok {
				id = int32(len(ix.words))
				ix.id[g] = id
				ix.words = append(ix.words, nil)
				ix.mass = append(ix.mass, 0)
			}
			// A repeated n-gram ("ana" in "banana") counts its word once.
			if l := ix.words[id]; len(l) > 0 && l[len(l)-1] == int32(w) {
				return
			}
			ix.words[id] = append(ix.words[id], int32(w))
			ix.mass[id] += v.Mass[w]
		})
	}
	return ix
}

// weight is an n-gram's weight within a word.
func (ix *index) weight(id int32, wt Weighting) float64 {
	switch wt {
	case IDF:
		return math.Log1p(float64(ix.nword) / float64(len(ix.words[id])))
	case Mass:
		return ix.mass[id]
	}
	return 1
}

// point adds scale times the n-gram's point, the mean of its words'
// vectors weighted as o.Point says, to dst, and returns the same mean of
// the words' norms (norm[w]; nil: not computed).
func (ix *index) point(dst []float64, id int32, scale float64, v Vocabulary, o Options, norm []float64) float64 {
	ws := ix.words[id]
	f := scale / ix.mass[id]
	if o.Point == EqualPoint {
		f = scale / float64(len(ws))
	}
	var length float64
	for _, w := range ws {
		a := f
		if o.Point != EqualPoint {
			a *= v.Mass[w]
		}
		for l, x := range v.F.RawRowView(int(w)) {
			dst[l] += a * x
		}
		if norm != nil {
			length += a * norm[w]
		}
	}
	return length
}

// Points returns the supplementary points of the given n-grams (one row
// each; zero for an n-gram no word with mass contains) and whether each is
// known. For principal coordinates (α = 1) a point is exactly the
// projection of the summed count rows of the n-gram's words by the
// transition formula (see the package doc).
func Points(v Vocabulary, o Options, ngrams []string) (*mat.Dense, []bool, error) {
	if err := v.check(); err != nil {
		return nil, nil, err
	}
	if err := o.Check(); err != nil {
		return nil, nil, err
	}
	_, k := v.F.Dims()
	ix := newIndex(v, o)
	out := mat.NewDense(max(len(ngrams), 1), k, nil)
	known := make([]bool, len(ngrams))
	for i, g := range ngrams {
		if id, ok := ix.id[g]; ok {
			ix.point(out.RawRowView(i), id, 1, v, o, nil)
			known[i] = true
		}
	}
	return out, known, nil
}

// Compose returns the vectors of targets, words in or out of the
// vocabulary, composed from the supplementary points of their n-grams that
// some vocabulary word contains: Σ_g a_g·point_g / Σ_g a_g with a_g the
// weighting. A target with no such n-gram gets a zero row and ok false.
//
// The points are never stored (a 250,000-n-gram vocabulary at d = 1000
// would take 2 GB): each n-gram's point is built once in a buffer and
// scattered into the targets that contain it, so memory is the targets'
// rows and one index of n-gram → words.
func Compose(v Vocabulary, o Options, targets []string) (*mat.Dense, []bool, error) {
	if err := v.check(); err != nil {
		return nil, nil, err
	}
	if err := o.Check(); err != nil {
		return nil, nil, err
	}
	_, k := v.F.Dims()
	out := mat.NewDense(max(len(targets), 1), k, nil)
	ok := make([]bool, len(targets))
	if o.MaxN == 0 || len(targets) == 0 {
		return out, ok, nil
	}
	ix := newIndex(v, o)
	// uses[g] lists (target, weight) pairs; the weights of a target are
	// normalised to sum to one before any point is built.
	type use struct {
		t int32
		a float64
	}
	uses := make([][]use, len(ix.words))
	for t, word := range targets {
		var total float64
		seen := map[int32]bool{}
		Ngrams(word, o.MinN, o.MaxN, func(g string) {
			id, known := ix.id[g]
			if !known {
				return
			}
			// A repeated n-gram counts as often as it occurs, as in
			// fastText's mean; seen only decides the normalisation pass.
			a := ix.weight(id, o.Weighting)
			total += a
			if seen[id] {
				u := uses[id]
				u[len(u)-1].a += a
				return
			}
			seen[id] = true
			uses[id] = append(uses[id], use{t: int32(t), a: a})
		})
		if total == 0 {
			continue
		}
		ok[t] = true
		for id := range seen {
			u := uses[id]
			u[len(u)-1].a /= total
		}
	}
	var norm, length []float64
	if o.Length {
		norm = make([]float64, len(v.Words))
		for w := range norm {
			norm[w] = floats.Norm(v.F.RawRowView(w), 2)
		}
		length = make([]float64, len(targets))
	}
	buf := make([]float64, k)
	for id, us := range uses {
		if len(us) == 0 {
			continue
		}
		clear(buf)
		nl := ix.point(buf, int32(id), 1, v, o, norm)
		for _, u := range us {
			row := out.RawRowView(int(u.t))
			for l, x := range buf {
				row[l] += u.a * x
			}
			if o.Length {
				length[u.t] += u.a * nl
			}
		}
	}
	if o.Length {
		for t := range targets {
			row := out.RawRowView(t)
			if n := floats.Norm(row, 2); n > 0 {
				// n ≤ length[t] (the norm of a mean), so the ratio is ≤ 1.
				floats.Scale(length[t]/n*math.Pow(n/length[t], o.Shrink), row)
			}
		}
	}
	return out, ok, nil
}

// Extend returns the vectors of a vocabulary with subwords: each word with
// mass blended with its n-grams (Options.Blend; 0 keeps its row bit for
// bit), then the extra words that are not in the vocabulary and have a
// known n-gram, in the order given, composed from their n-grams. Words
// of zero mass keep their rows. v.F is not modified.
func Extend(v Vocabulary, o Options, extra []string) (words []string, f *mat.Dense, err error) {
	if err := v.check(); err != nil {
		return nil, nil, err
	}
	if err := o.Check(); err != nil {
		return nil, nil, err
	}
	if o.Blend > 0 && o.BlendCount > 0 && v.Counts == nil {
		return nil, nil, fmt.Errorf("subword: a blend by count (%v) needs the words' counts", o.BlendCount)
	}
	in := make(map[string]bool, len(v.Words))
	for _, w := range v.Words {
		in[w] = true
	}
	var unseen []string
	for _, w := range extra {
		if !in[w] {
			in[w] = true // and once only
			unseen = append(unseen, w)
		}
	}
	targets := unseen
	if o.Blend > 0 {
		targets = append(append([]string(nil), v.Words...), unseen...)
	}
	c, ok, err := Compose(v, o, targets)
	if err != nil {
		return nil, nil, err
	}
	off := 0 // the first unseen word's row in c
	if o.Blend > 0 {
		off = len(v.Words)
	}
	words = append([]string(nil), v.Words...)
	var add []int
	for i, w := range unseen {
		if ok[off+i] {
			words = append(words, w)
			add = append(add, off+i)
		}
	}
	r, k := v.F.Dims()
	f = mat.NewDense(len(words), k, nil)
	for i := 0; i < r; i++ {
		dst, own := f.RawRowView(i), v.F.RawRowView(i)
		if o.Blend == 0 || v.Mass[i] == 0 || !ok[i] {
			copy(dst, own)
			continue
		}
		comp := c.RawRowView(i)
		share := o.Blend
		if o.BlendCount > 0 {
			share *= o.BlendCount / (o.BlendCount + v.Counts[i])
		}
		for l := range dst {
			dst[l] = (1-share)*own[l] + share*comp[l]
		}
	}
	for q, j := range add {
		copy(f.RawRowView(r+q), c.RawRowView(j))
	}
	return words, f, nil
}
