package eval

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/wordsim"
	"kcalab/methods/vectors"
)

// AnalogyScore counts the answers to a group of analogy questions.
type AnalogyScore struct {
	Section    string // section name; "" for the total
	Questions  int    // questions asked
	Covered    int    // questions whose four words are all candidates
	Correct    int    // covered questions answered right by 3CosAdd
	CorrectMul int    // covered questions answered right by 3CosMul (Analogies only)
}

// Accuracy is Correct / Covered, as gensim reports it; NaN when nothing is
// covered.
func (s AnalogyScore) Accuracy() float64 { return ratio(s.Correct, s.Covered) }

// AccuracyMul is CorrectMul / Covered; NaN when nothing is covered.
func (s AnalogyScore) AccuracyMul() float64 { return ratio(s.CorrectMul, s.Covered) }

// Coverage is Covered / Questions; NaN when there are no questions.
func (s AnalogyScore) Coverage() float64 { return ratio(s.Covered, s.Questions) }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// analogyBatch is the most input words (rows) of one matrix product: large
// enough to use BLAS-3 and to share words between questions, small enough
// that the rows×V cosine block stays modest (192 × 71,290 floats = 109 MB;
// 46 MB at 30,000 candidates).
var analogyBatch = 192

// CosMulEpsilon is the ε of 3CosMul as Levy and Goldberg (2014) define it.
// gensim's most_similar_cosmul uses 1e-6.
const CosMulEpsilon = 0.001

// AnalogyOptions say how Analogies answers.
type AnalogyOptions struct {
	// Restrict keeps the first Restrict words of the vocabulary as
	// candidates (the most frequent, when it is ordered by count); 0 means
	// all. gensim's restrict_vocab.
	Restrict int
	// CaseInsensitive folds words to lower case as gensim's
	// evaluate_word_analogies (case_insensitive=True, its default) does: a
	// question word stands for the first candidate whose folded form it
	// equals, and a candidate answers when its folded form is the expected
	// word's (so "Paris" answers "paris"). gensim folds to upper case; the
	// two agree except on a few non-ASCII letters.
	CaseInsensitive bool
	// Epsilon is 3CosMul's ε; 0 means CosMulEpsilon.
	Epsilon float64
}

// Analogy answers questions by 3CosAdd with case-sensitive lookups: the
// CorrectMul counts are left zero. See Analogies.
func Analogy(vs *vectors.Set, qs []wordsim.Question, restrict int) (AnalogyScore, []AnalogyScore, error) {
	total, secs, err := Analogies(vs, qs, AnalogyOptions{Restrict: restrict})
	total.CorrectMul = 0
	for i := range secs {
		secs[i].CorrectMul = 0
	}
	return total, secs, err
}

// gensimTopN is how many nearest candidates gensim's
// evaluate_word_analogies looks at (most_similar topn=5) for the first
// whose folded form is not an input's. When all five are case variants of
// the inputs the question counts as wrong; keeping the rule keeps the
// counts identical.
const gensimTopN = 5

// Analogies answers questions "a is to a* as b is to ?" two ways, with ŵ
// w's vector scaled to unit length and x ranging over the candidates other
// than a, a* and b:
//
//   - 3CosAdd (Mikolov et al.): the x maximising cos(x, â* − â + b̂),
//     which orders x as cos(x, a*) − cos(x, a) + cos(x, b) does;
//   - 3CosMul (Levy and Goldberg 2014): the x maximising
//     p(x, a*)·p(x, b) / (p(x, a) + ε), with p = (cos + 1)/2 the cosine
//     shifted to [0, 1].
//
// The candidates are the first opts.Restrict words of vs, as gensim's
// evaluate_word_analogies (restrict_vocab); a question with a word outside
// them is not covered and not answered. The OOV hook is not used: the
// answer must be a vocabulary word. Ties go to the earlier word.
//
// Matrix products of the unit input vectors against the candidates give
// the three cosines both rules need.
//
// It returns the total and one score per section, in order of appearance.
func Analogies(vs *vectors.Set, qs []wordsim.Question, opts AnalogyOptions) (AnalogyScore, []AnalogyScore, error) {
	total, secs, _, err := AnswerAnalogies(vs, qs, opts)
	return total, secs, err
}

// AnalogyAnswer is the outcome of one question.
type AnalogyAnswer struct {
	Covered    bool // its four words are candidates (else it is not asked)
	Correct    bool // 3CosAdd answered it right
	CorrectMul bool // 3CosMul answered it right
}

// AnswerAnalogies is Analogies with the outcome of each question besides,
// answers[i] of qs[i]: the counts are the answers' sums.
func AnswerAnalogies(vs *vectors.Set, qs []wordsim.Question, opts AnalogyOptions) (AnalogyScore, []AnalogyScore, []AnalogyAnswer, error) {
	if vs == nil || vs.M == nil {
		return AnalogyScore{}, nil, nil, fmt.Errorf("analogy: no word vectors")
	}
	restrict := opts.Restrict
	if restrict < 0 {
		return AnalogyScore{}, nil, nil, fmt.Errorf("analogy: restrict %d: want ≥ 0 (0 = whole vocabulary)", restrict)
	}
	eps := opts.Epsilon
	if eps == 0 {
		eps = CosMulEpsilon
	}
	if eps < 0 || math.IsNaN(eps) || math.IsInf(eps, 0) {
		return AnalogyScore{}, nil, nil, fmt.Errorf("analogy: 3CosMul epsilon %g: want > 0", eps)
	}
	answers := make([]AnalogyAnswer, len(qs))
	n := vs.Len()
	if restrict == 0 || restrict > n {
		restrict = n
	}
	d := vs.Dim()
	cand := vs.M.Slice(0, restrict, 0, d).(*mat.Dense)

	inv := make([]float64, restrict) // 1/‖row‖, 0 for a zero row
	for i := range inv {
		if nrm := floats.Norm(vs.Row(i), 2); nrm > 0 {
			inv[i] = 1 / nrm
		}
	}
	// folded[i] is candidate i's folded word; lookup maps a folded word to
	// the first candidate with that form (gensim's ok_vocab).
	fold := func(w string) string { return w }
	if opts.CaseInsensitive {
		fold = strings.ToLower
	}
	folded := make([]string, restrict)
	lookup := make(map[string]int, restrict)
	for i := range restrict {
		folded[i] = fold(vs.Words[i])
		if _, ok := lookup[folded[i]]; !ok {
			lookup[folded[i]] = i
		}
	}

	total := AnalogyScore{Questions: len(qs)}
	var sections []AnalogyScore
	secIndex := map[string]int{}
	type asked struct {
		q, a, as, b int
		words       [4]string // folded a, a*, b, b*
	}
	var todo []asked
	for qi, q := range qs {
		si, ok := secIndex[q.Section]
		if !ok {
			si = len(sections)
			secIndex[q.Section] = si
			sections = append(sections, AnalogyScore{Section: q.Section})
		}
		sections[si].Questions++
		var idx [4]int
		var words [4]string
		covered := true
		for k, w := range [4]string{q.A, q.AStar, q.B, q.BStar} {
			words[k] = fold(w)
			i, ok := lookup[words[k]]
			if !ok {
				covered = false
				break
			}
			idx[k] = i
		}
		if covered {
			todo = append(todo, asked{qi, idx[0], idx[1], idx[2], words})
		}
	}

	// Questions share words (the Google set's 19,544 use 905), so each
	// product takes the distinct input words of as many questions as fit in
	// analogyBatch rows: a third of the work of three rows per question.
	rows := max(min(analogyBatch, 3*len(todo)), 3)
	inputs := mat.NewDense(rows, d, nil)
	cosines := mat.NewDense(rows, restrict, nil)
	rowOf := map[int]int{} // input word → its row in this product
	var words []int
	var add, mul topN
	for next := 0; next < len(todo); {
		clear(rowOf)
		words = words[:0]
		start := next
		for ; next < len(todo); next++ {
			t := todo[next]
			need := 0
			for _, i := range [3]int{t.a, t.as, t.b} {
				if _, ok := rowOf[i]; !ok {
					need++
				}
			}
			if next > start && len(words)+need > rows {
				break
			}
			for _, i := range [3]int{t.a, t.as, t.b} {
				if _, ok := rowOf[i]; !ok {
					rowOf[i] = len(words)
					words = append(words, i)
				}
			}
		}
		in := inputs.Slice(0, len(words), 0, d).(*mat.Dense)
		for r, i := range words {
			floats.ScaleTo(in.RawRowView(r), inv[i], vs.Row(i))
		}
		cb := cosines.Slice(0, len(words), 0, restrict).(*mat.Dense)
		cb.Mul(in, cand.T())
		for _, t := range todo[start:next] {
			ca, cas, cbb := cb.RawRowView(rowOf[t.a]), cb.RawRowView(rowOf[t.as]), cb.RawRowView(rowOf[t.b])
			add.reset()
			mul.reset()
			for i := range restrict {
				if inv[i] == 0 || i == t.a || i == t.as || i == t.b {
					continue
				}
				xa, xas, xb := ca[i]*inv[i], cas[i]*inv[i], cbb[i]*inv[i]
				add.offer(i, xas-xa+xb)
				mul.offer(i, (xas+1)/2*((xb+1)/2)/((xa+1)/2+eps))
			}
			si := secIndex[qs[t.q].Section]
			sections[si].Covered++
			total.Covered++
			answers[t.q].Covered = true
			if add.answer(folded, t.words) {
				sections[si].Correct++
				total.Correct++
				answers[t.q].Correct = true
			}
			if mul.answer(folded, t.words) {
				sections[si].CorrectMul++
				total.CorrectMul++
				answers[t.q].CorrectMul = true
			}
		}
	}
	return total, sections, answers, nil
}

// BootstrapAnalogies is the accuracy of each resample of the questions
// (indices into answers, drawn by ResampleIndices), by 3CosAdd and by
// 3CosMul, as the whole set's is defined: correct over covered among the
// resampled questions, an uncovered question neither right nor wrong. A
// resample with no covered question gives NaN.
func BootstrapAnalogies(answers []AnalogyAnswer, resamples [][]int) (add, mul []float64) {
	add, mul = make([]float64, len(resamples)), make([]float64, len(resamples))
	for r, idx := range resamples {
		covered, right, rightMul := 0, 0, 0
		for _, i := range idx {
			a := answers[i]
			if !a.Covered {
				continue
			}
			covered++
			if a.Correct {
				right++
			}
			if a.CorrectMul {
				rightMul++
			}
		}
		add[r], mul[r] = ratio(right, covered), ratio(rightMul, covered)
	}
	return add, mul
}

// topN keeps the gensimTopN best candidates offered, best first; an equal
// score never displaces an earlier candidate.
type topN struct {
	n     int
	idx   [gensimTopN]int
	score [gensimTopN]float64
}

func (t *topN) reset() { t.n = 0 }

func (t *topN) offer(i int, s float64) {
	if t.n == gensimTopN && !(s > t.score[t.n-1]) {
		return
	}
	if t.n < gensimTopN {
		t.n++
	}
	k := t.n - 1
	for k > 0 && s > t.score[k-1] {
		t.idx[k], t.score[k] = t.idx[k-1], t.score[k-1]
		k--
	}
	t.idx[k], t.score[k] = i, s
}

// answer applies gensim's rule: the prediction is the first of the best
// candidates whose folded form is none of the inputs' (else the last one
// looked at); it is right when its folded form is the expected word's.
func (t *topN) answer(folded []string, words [4]string) bool {
	predicted := ""
	for _, i := range t.idx[:t.n] {
		predicted = folded[i]
		if predicted != words[0] && predicted != words[1] && predicted != words[2] {
			break
		}
	}
	return t.n > 0 && predicted == words[3]
}
