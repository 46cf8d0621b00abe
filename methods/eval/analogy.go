package eval

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"kcalab/datasets/wordsim"
	"kcalab/methods/vectors"
)

// AnalogyScore counts the answers to a group of analogy questions.
type AnalogyScore struct {
	Section   string // section name; "" for the total
	Questions int    // questions asked
	Covered   int    // questions whose four words are all candidates
	Correct   int    // covered questions answered right
}

// Accuracy is Correct / Covered, as gensim reports it; NaN when nothing is
// covered.
func (s AnalogyScore) Accuracy() float64 {
	if s.Covered == 0 {
		return math.NaN()
	}
	return float64(s.Correct) / float64(s.Covered)
}

// analogyBatch is the number of questions answered by one matrix product:
// large enough to use BLAS-3, small enough that the batch×V score block
// stays modest (64 × 71,290 floats = 36 MB).
var analogyBatch = 64

// Analogy answers questions "a is to a* as b is to ?" by 3CosAdd: the
// answer is the candidate word x, other than a, a* and b, maximising
// cos(x, â* − â + b̂), where ŵ is w's vector scaled to unit length. The
// candidates are the first restrict words of vs (the most frequent, when
// the vocabulary is ordered by count; 0 means all), as gensim's
// evaluate_word_analogies (restrict_vocab, default 300,000); a question with
// a word outside them is not covered and not answered. The OOV hook is not
// used: the answer must be a vocabulary word. Ties go to the earlier word.
//
// It returns the total and one score per section, in order of appearance.
func Analogy(vs *vectors.Set, qs []wordsim.Question, restrict int) (AnalogyScore, []AnalogyScore, error) {
	if vs == nil || vs.M == nil {
		return AnalogyScore{}, nil, fmt.Errorf("analogy: no word vectors")
	}
	if restrict < 0 {
		return AnalogyScore{}, nil, fmt.Errorf("analogy: restrict %d: want ≥ 0 (0 = whole vocabulary)", restrict)
	}
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

	total := AnalogyScore{Questions: len(qs)}
	var sections []AnalogyScore
	secIndex := map[string]int{}
	type asked struct{ q, a, as, b, bs int }
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
		covered := true
		for k, w := range [4]string{q.A, q.AStar, q.B, q.BStar} {
			i, ok := vs.Index(w)
			if !ok || i >= restrict {
				covered = false
				break
			}
			idx[k] = i
		}
		if covered {
			todo = append(todo, asked{qi, idx[0], idx[1], idx[2], idx[3]})
		}
	}

	targets := mat.NewDense(min(analogyBatch, max(len(todo), 1)), d, nil)
	scores := mat.NewDense(targets.RawMatrix().Rows, restrict, nil)
	for start := 0; start < len(todo); start += analogyBatch {
		batch := todo[start:min(start+analogyBatch, len(todo))]
		tq := targets.Slice(0, len(batch), 0, d).(*mat.Dense)
		for j, t := range batch {
			row := tq.RawRowView(j)
			// â* − â + b̂
			floats.ScaleTo(row, inv[t.as], vs.Row(t.as))
			floats.AddScaled(row, -inv[t.a], vs.Row(t.a))
			floats.AddScaled(row, inv[t.b], vs.Row(t.b))
		}
		sb := scores.Slice(0, len(batch), 0, restrict).(*mat.Dense)
		sb.Mul(tq, cand.T())
		for j, t := range batch {
			best, bestScore := -1, math.Inf(-1)
			for i, s := range sb.RawRowView(j) {
				if inv[i] == 0 || i == t.a || i == t.as || i == t.b {
					continue
				}
				if s *= inv[i]; s > bestScore {
					best, bestScore = i, s
				}
			}
			si := secIndex[qs[t.q].Section]
			sections[si].Covered++
			total.Covered++
			if best == t.bs {
				sections[si].Correct++
				total.Correct++
			}
		}
	}
	return total, sections, nil
}
